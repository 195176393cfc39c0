#!/usr/bin/env bash
# estimate's predicted count time against the real count, puzzle by puzzle: for each puzzle of
# the files, `estimate --json` (the prediction, from its trial count), then `count` (the real
# wall time), both with the same threads; prints the ratio predicted / real (the target: within
# 2x either way).
#
#   benches/estimate_check.sh [FILE...]     (default: puzzles/long9x9.txt; THREADS=2)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -q
bin=target/release/sudoku-enum
threads=${THREADS:-2}
files=("${@:-puzzles/long9x9.txt}")
printf '%-10s %10s %10s %8s %7s\n' source predicted real ratio trial
grep -hv '^#' "${files[@]}" | while read -r p; do
    [[ -z $p ]] && continue
    read -r predicted trial < <(echo "$p" | "$bin" estimate --json -q -j "$threads" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("predicted_s", "nan"), d.get("trial_s", 0))')
    s=$(date +%s.%N)
    echo "$p" | "$bin" count -q -j "$threads" > /dev/null
    e=$(date +%s.%N)
    real=$(echo "$e - $s" | bc)
    printf '%-10s %10.2f %10.2f %8.2f %7.2f\n' "${p:0:10}" "$predicted" "$real" \
        "$(echo "$predicted / $real" | bc -l)" "$trial"
done
