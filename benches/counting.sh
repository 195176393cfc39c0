#!/usr/bin/env bash
# Counting side by side (issue 16): ours against the sudoku crate (`peer sudoku count 0`), against
# our own plain search (`count --count-by search`), and the generic shapes against the peers' DLX.
# One thread each, whole process, alternating runs, medians of 3 (../shared/peers/compare.py);
# ratios are peer_time / our_time (> 1: we are faster).
#
#   benches/counting.sh [DATA_DIR] [PEERS_DIR]        SEED=n picks other generated puzzles
#   CLOCK=cpu benches/counting.sh                      CPU time, not wall (benches/cpu_compare.py):
#                                                      for a machine busy with other work
#
# Sets: every puzzle of DATA_DIR/multi_truth_dev.txt with at least 10^6 solutions (one file
# each, so the ratio is per puzzle); 9x9 puzzles made here from solution grids of the bundled
# 17-clue sample: a filled band plus 3-7 givens scattered in the other bands, and a filled band
# plus 2-5 givens down one column (benches/counting_puzzles.py), kept when they have 10^6 to
# 5*10^7 solutions; 18-24 cells of a grid kept at random (givens in every band, as in the
# ground-truth file), kept when they have 10^6 to 3*10^8 solutions; the first-band puzzle; the
# empty 6x6.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
peers=${2:-../shared/peers}
seed=${SEED:-1}
export CARGO_TARGET_DIR_PEERS=${CARGO_TARGET_DIR_PEERS:-/tmp/peers-target}
cargo build --release --locked -q
(cd "$peers" && CARGO_TARGET_DIR="$CARGO_TARGET_DIR_PEERS" cargo build --release -q)
ours=$PWD/target/release/sudoku-enum
peer=$CARGO_TARGET_DIR_PEERS/release/peer
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

one_per_file() { # DIR < puzzles
    mkdir -p "$1"; local i=0
    while read -r p; do i=$((i + 1)); printf '%s\n' "$p" > "$1/$(printf %02d $i).txt"; done
}

awk '!/^#/ && $2 >= 1000000 {print $1}' "$data/multi_truth_dev.txt" | one_per_file "$tmp/truth"

"$ours" solve -q puzzles/samples/17clue_200.txt > "$tmp/grids.txt"
for kind in scattered column sparse; do
    most=$([[ $kind == sparse ]] && echo 300000000 || echo 50000000)
    python3 benches/counting_puzzles.py "$kind" "$seed" 200 < "$tmp/grids.txt" > "$tmp/$kind.all"
    "$ours" count -q --json "$tmp/$kind.all" |
        MOST=$most python3 -c 'import json,os,sys
most = int(os.environ["MOST"])
kept = [d["puzzle"] for d in map(json.loads, sys.stdin) if 10**6 <= d["solutions"] <= most]
print("\n".join(kept[:8]))' | one_per_file "$tmp/$kind"
done

if [[ ${CLOCK:-wall} == cpu ]]; then
    compare() { python3 benches/cpu_compare.py "$@"; }
else
    compare() { python3 "$peers/compare.py" "$@"; }
fi

for set in truth scattered column sparse; do
    echo "== $set: ours / sudoku crate (count 0), one thread"
    compare --ours "$ours count -q -j1 {file}" --peer "$peer sudoku count 0 {file}" "$tmp/$set"/*.txt
done
for set in truth scattered; do
    echo "== $set: ours / our plain search (--count-by search), one thread"
    compare --ours "$ours count -q -j1 {file}" --peer "$ours count -q -j1 --count-by search {file}" \
        "$tmp/$set"/*.txt
done
echo "== the first-band puzzle (7,802,998,272 solutions), ours, one thread (seconds, 3 runs)"
for _ in 1 2 3; do
    /usr/bin/env time -f %e "$ours" count -q -j1 puzzles/first_band.txt 2>&1 >/dev/null
done
echo "== the empty 6x6 (28,200,960), ours / plain DLX (peer xdlx)"
compare --ours "$ours count -q -j1 {file}" --peer "$peer xdlx count 0 --box 2x3 {file}" \
    puzzles/empty6x6.txt
