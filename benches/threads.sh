#!/usr/bin/env bash
# Thread scaling of whole jobs: the wall time of the whole process (`--json`, median of RUNS)
# for each thread count, the speed-up of the most threads over the fewest, and the guesses of the
# last run (the split searches of variants vary with the threads).
#
#   benches/threads.sh [-r RUNS] [-l] [THREADS...] [-- HARDEST_FILE]
#
#   THREADS        thread counts (default: 1, 2 and the machine's cores)
#   -r RUNS        runs per cell (default 1; the table in the README used 3 for the batch)
#   -l             also the three long ISS puzzles, on the most threads only (minutes each)
#   HARDEST_FILE   a big batch to check, e.g. ../shared/data/puzzles5_forum_hardest_1905_11+
#
# Jobs: `check` of HARDEST_FILE (when given), `count` of puzzles/long9x9.txt, `check` of
# puzzles/variants/iss_137.txt, and `check` of the first three puzzles of
# puzzles/variants/iss_long.txt, one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=1
long=0
threads=()
hardest=""
while [ $# -gt 0 ]; do
    case $1 in
        -r) runs=$2; shift 2 ;;
        -l) long=1; shift ;;
        --) hardest=${2:-}; shift $# ;;
        *) threads+=("$1"); shift ;;
    esac
done
[ ${#threads[@]} -gt 0 ] || threads=(1 2 "$(nproc)")
cargo build --release --locked -q
bin=target/release/sudoku-enum
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# Wall seconds of one run of the command (its JSON output kept in $tmp/out).
time_of() {
    local s e
    s=$(date +%s%N)
    "$@" > "$tmp/out" || true # `check` exits 1 when a puzzle is not unique
    e=$(date +%s%N)
    awk -v d=$((e - s)) 'BEGIN {printf "%.3f\n", d / 1e9}'
}
guesses() { grep -o '"guesses":[0-9]*' "$tmp/out" | cut -d: -f2 | awk '{s += $1} END {print s + 0}'; }

row() { # label, then the command without its thread option
    local label=$1 first="" last="" m
    shift
    printf '%-52.52s' "$label"
    for t in "${threads[@]}"; do
        m=$(for _ in $(seq "$runs"); do time_of "$@" -j "$t"; done | median)
        printf '%10.2f' "$m"
        [ -n "$first" ] || first=$m
        last=$m
    done
    awk -v a="$first" -v b="$last" 'BEGIN {printf "%9.1fx", (b > 0 ? a / b : 0)}'
    printf '  %s guesses\n' "$(guesses)"
}

printf '%-52s' "job (wall seconds)"
for t in "${threads[@]}"; do printf '%10s' "-j$t"; done
printf '%10s\n' "speed-up"
if [ -n "$hardest" ]; then
    row "check $(basename "$hardest")" "$bin" check -q --json "$hardest"
fi
row "count long9x9.txt" "$bin" count -q --json puzzles/long9x9.txt
row "check iss_137.txt" "$bin" check -q --json puzzles/variants/iss_137.txt
names=()
while IFS= read -r line; do
    case $line in
        '# "'*) names+=("$(echo "${line#\# }" | sed 's/ (.*//')") ;;
        '#'* | '') ;;
        *) printf '%s\n' "$line" > "$tmp/long${#names[@]}.txt" ;;
    esac
done < puzzles/variants/iss_long.txt
for i in 1 2 3; do
    row "check ${names[i - 1]}" "$bin" check -q --json "$tmp/long$i.txt"
done
if [ "$long" = 1 ]; then
    most=${threads[${#threads[@]} - 1]}
    for i in 4 5 6; do
        s=$(time_of "$bin" check -q --json -j "$most" "$tmp/long$i.txt")
        printf '%-52s -j%s: %s s, %s guesses\n' "check ${names[i - 1]}" "$most" "$s" "$(guesses)"
    done
fi
