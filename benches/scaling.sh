#!/usr/bin/env bash
# Thread scaling of one exhaustive count by the plain search (`--count-by search`: counting by
# bands takes a fraction of a second on these): wall time with 1, 2, ... threads (median of 3) and
# the speed-up over 1 thread. Also a batch of tiny puzzles (must not get slower with threads).
#
#   benches/scaling.sh [THREADS...]      (default: 1 2 and the machine's core count)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
bin=target/release/sudoku-enum
cores=$(nproc)
threads=${*:-"1 2 $cores"}
threads=$(printf '%s\n' $threads | awk '!seen[$0]++' | tr '\n' ' ')
tmp=$(mktemp -d)
# 72,588,608 solutions (from ../shared/data/multi_truth_dev.txt), the empty 6x6 (28,200,960),
# and a 9x9 with the first band and one more row fixed.
echo '.................4.....4...38.....16....65...5.....4.2.......47...8.61...3.....6.' > "$tmp/count_72M.txt"
cp puzzles/empty6x6.txt "$tmp/empty6x6.txt"
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_of() { local s e; s=$(date +%s.%N); "$@" > /dev/null; e=$(date +%s.%N); echo "$e - $s" | bc; }
printf '%-22s' "job"; for t in $threads; do printf '%12s' "${t} thr (s)"; done; printf '%12s\n' "speed-up"
for job in count_72M empty6x6 tiny_batch; do
    case $job in
        tiny_batch) file=puzzles/samples/17clue_200.txt; cmd=check; for i in $(seq 50); do cat "$file"; done > "$tmp/tiny.txt"; file=$tmp/tiny.txt ;;
        *) file=$tmp/$job.txt; cmd="count --count-by search" ;;
    esac
    printf '%-22s' "$job"
    first=""; last=""
    for t in $threads; do
        m=$(for r in 1 2 3; do time_of $bin $cmd -q --threads "$t" "$file"; done | median)
        printf '%12.3f' "$m"
        [ -z "$first" ] && first=$m
        last=$m
    done
    printf '%11.2fx\n' "$(echo "$first / $last" | bc -l)"
done
