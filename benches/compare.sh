#!/usr/bin/env bash
# Side-by-side timing against the peer harness (../shared/peers), one thread each, alternating
# runs, medians of 3 (../shared/peers/compare.py). Prints peer_time / our_time per data set
# (> 1 means we are faster).
#
#   benches/compare.sh [DATA_DIR] [PEERS_DIR]
#
# DATA_DIR defaults to ../shared/data, PEERS_DIR to ../shared/peers.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:-../shared/data}
peers=${2:-../shared/peers}
export CARGO_TARGET_DIR_PEERS=${CARGO_TARGET_DIR_PEERS:-/tmp/peers-target}

cargo build --release --locked -q
(cd "$peers" && CARGO_TARGET_DIR="$CARGO_TARGET_DIR_PEERS" cargo build --release -q)
ours=$PWD/target/release/sudoku-enum
peer=$CARGO_TARGET_DIR_PEERS/release/peer

echo "== uniqueness check (count up to 2), 1 thread"
python3 "$peers/compare.py" \
    --ours "$ours check -q --threads 1 {file}" \
    --peer "$peer sudoku count 2 {file}" \
    --repeat "${REPEAT:-3}" \
    "$data/puzzles2_17_clue" "$data/puzzles3_magictour_top1465" \
    "$data/puzzles5_forum_hardest_1905_11+" "$data/puzzles7_serg_benchmark"

echo "== exhaustive counting, 1 thread (puzzles of multi_truth_dev.txt with 10^7..10^8 solutions)"
tmp=$(mktemp -d)
awk '!/^#/ && $2 >= 10000000 && $2 <= 100000000 {print $1}' "$data/multi_truth_dev.txt" > "$tmp/big_counts.txt"
python3 "$peers/compare.py" \
    --ours "$ours count -q --threads 1 {file}" \
    --peer "$peer sudoku count 0 {file}" \
    "$tmp/big_counts.txt"
