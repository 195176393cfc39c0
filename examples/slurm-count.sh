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
# Run it on the login node: it writes WORK (default ./count-<puzzle file name>) with parts.txt
# and two job scripts, count.sbatch and merge.sbatch, then submits an array job with one task per
# part (task I counts the I-th part into results/I.json, log in logs/count-I.log) and a merge job
# that runs once every task has ended (afterany). The answer is in WORK/total.txt, written only
# when every part has exactly one complete result; the merge's log is WORK/logs/merge.log.
# Set SBATCH_* variables (SBATCH_PARTITION, SBATCH_ACCOUNT, SBATCH_TIMELIMIT, ...) or edit the
# job scripts for your site; `sudoku-enum` must be on PATH on the compute nodes (or set
# SUDOKU_ENUM=/path/to/sudoku-enum).
#
# When tasks fail (cancelled, killed by their time limit, node lost), their results are missing
# or incomplete and the merge refuses, naming the parts and printing the command that counts
# only those again, e.g. for array tasks 3 and 7:
#
#   j=$(sbatch --parsable --array=3,7 WORK/count.sbatch) && sbatch --dependency=afterany:$j WORK/merge.sbatch
#
# (a longer SBATCH_TIMELIMIT first if they ran out of time). The merge can be re-run by hand at
# any time: `bash WORK/merge.sbatch`. Running this script again starts the count over.
set -euo pipefail

puzzle=${1:?usage: slurm-count.sh PUZZLE_FILE [PARTS] [EXTRA_COUNT_ARGS...]}
parts=${2:-256}
shift $(($# >= 2 ? 2 : 1))
extra=("$@") # e.g. --box 2x4 (passed to split and count)
bin=${SUDOKU_ENUM:-sudoku-enum}
work=${WORK:-$PWD/count-$(basename "$puzzle" .txt)}
mkdir -p "$work/results" "$work/logs"
work=$(cd "$work" && pwd) # absolute: the jobs may start elsewhere
rm -f "$work"/results/*.json "$work/total.txt"

# 1. Split (parts of similar estimated work), and an estimate of the whole job for the log.
"$bin" split -q --parts "$parts" "${extra[@]}" "$puzzle" >"$work/parts.txt"
"$bin" estimate -q "${extra[@]}" "$puzzle" | tee "$work/estimate.txt"
n=$(grep -vc '^#' "$work/parts.txt")
echo "$n parts in $work/parts.txt"

# 2. The job scripts (shell-quoted paths and arguments baked in).
q() { printf '%q' "$1"; }
qextra=${extra[*]+$(printf ' %q' "${extra[@]}")}
cat >"$work/count.sbatch" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=sudoku-count
#SBATCH --cpus-per-task=1
#SBATCH --output=$(q "$work/logs/count-%a.log")
# Array task I counts the I-th part (the I-th non-comment line of parts.txt): one JSON line in
# results/I.json. A task cancelled or timed out writes an incomplete result (or none).
grep -v '^#' $(q "$work/parts.txt") | sed -n "\${SLURM_ARRAY_TASK_ID}p" |
    $(q "$bin") count --json -q -j "\${SLURM_CPUS_PER_TASK:-1}"$qextra \\
        >$(q "$work/results")/"\${SLURM_ARRAY_TASK_ID}.json"
EOF
cat >"$work/merge.sbatch" <<EOF
#!/usr/bin/env bash
#SBATCH --job-name=sudoku-merge
#SBATCH --output=$(q "$work/logs/merge.log")
#SBATCH --open-mode=append
# Add up results/*.json into total.txt, or refuse (exit 2) naming the parts without exactly one
# complete result, and print the command that re-counts only those.
shopt -s nullglob
cd $(q "$work") || exit 1
rm -f total.txt
if $(q "$bin") merge -q --parts parts.txt results/*.json </dev/null >total.txt.new; then
    mv total.txt.new total.txt
    cat total.txt
    exit 0
fi
rm -f total.txt.new
failed=
for i in \$(seq $n); do
    grep -qs '"complete":true' "results/\$i.json" || failed+=\${failed:+,}\$i
done
if [[ -n \$failed ]]; then
    echo "sudoku-enum: array tasks without a complete result: \$failed; count them again, then merge:" >&2
    echo "  j=\\\$(sbatch --parsable --array=\$failed $(q "$work/count.sbatch")) && sbatch --dependency=afterany:\\\$j $(q "$work/merge.sbatch")" >&2
fi
exit 2
EOF

# 3. One array task per part, and the merge once they have all ended: the exact total, or a
#    refusal naming the bad parts.
count_job=$(sbatch --parsable --array="1-$n" "$work/count.sbatch")
echo "submitted count array job $count_job"
merge_job=$(sbatch --parsable --dependency="afterany:$count_job" "$work/merge.sbatch")
echo "submitted merge job $merge_job; the answer will be in $work/total.txt"
