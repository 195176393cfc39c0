#!/usr/bin/env bash
# Count all solutions of one puzzle on a Slurm cluster: split it into parts, count one part per
# array task, then merge the results (merge refuses when a part is missing, duplicated or
# incomplete, so a wrong total cannot slip through).
#
#   examples/slurm-count.sh PUZZLE_FILE [PARTS] [EXTRA_COUNT_ARGS...]
#
# e.g.  examples/slurm-count.sh puzzles/first_band.txt 256
#       examples/slurm-count.sh board8.txt 512 --box 2x4
#
# Run it on the login node: it writes WORK (default ./count-<jobid-free name>) with
# parts.txt, submits an array job with one task per part (each writes results/<task>.json) and
# a merge job that runs once every task has succeeded (afterok). The answer is in
# WORK/total.txt. Set SBATCH_* variables or edit the sbatch options below for your site
# (partition, account, time limit); `sudoku-enum` must be on PATH on the compute nodes
# (or set SUDOKU_ENUM=/path/to/sudoku-enum).
set -euo pipefail

puzzle=${1:?usage: slurm-count.sh PUZZLE_FILE [PARTS] [EXTRA_COUNT_ARGS...]}
parts=${2:-256}
shift $(( $# >= 2 ? 2 : 1 ))
extra=("$@")                      # e.g. --box 2x4 (passed to split and count)
bin=${SUDOKU_ENUM:-sudoku-enum}
work=${WORK:-$PWD/count-$(basename "$puzzle" .txt)}
mkdir -p "$work/results" "$work/logs"

# 1. Split (parts of similar estimated work), and an estimate of the whole job for the log.
"$bin" split -q --parts "$parts" "${extra[@]}" "$puzzle" > "$work/parts.txt"
"$bin" estimate -q "${extra[@]}" "$puzzle" | tee "$work/estimate.txt"
n=$(grep -vc '^#' "$work/parts.txt")
echo "$n parts in $work/parts.txt"

# 2. One array task per part: the task's part is the N-th non-comment line of parts.txt.
#    `count --json` on it writes one JSON line; a task that times out or is cancelled
#    writes an incomplete result (or none), which merge will refuse.
count_job=$(sbatch --parsable \
    --job-name=sudoku-count --array="1-$n" --cpus-per-task=1 \
    --output="$work/logs/count-%a.log" \
    --wrap="grep -v '^#' '$work/parts.txt' | sed -n \"\${SLURM_ARRAY_TASK_ID}p\" \
        | '$bin' count --json -q -j \${SLURM_CPUS_PER_TASK:-1} ${extra[*]} \
        > '$work/results/'\${SLURM_ARRAY_TASK_ID}.json")
echo "submitted count array job $count_job"

# 3. Merge when every task succeeded: the exact total, or a refusal naming the bad parts.
merge_job=$(sbatch --parsable \
    --job-name=sudoku-merge --dependency="afterok:$count_job" \
    --output="$work/logs/merge.log" \
    --wrap="cat '$work'/results/*.json | '$bin' merge -q --parts '$work/parts.txt' \
        > '$work/total.txt'")
echo "submitted merge job $merge_job; the answer will be in $work/total.txt"
