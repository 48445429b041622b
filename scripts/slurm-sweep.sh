#!/usr/bin/env bash
# A sweep as a Slurm job array: array task I of N runs shard I/N of the sweep and writes
# DIR/part-I-of-N.csv; a job that starts after all of them merges the parts into the bytes
# one machine would have written.
#
#   mkdir -p parts
#   job=$(sbatch --parsable --array=1-16 --cpus-per-task=4 scripts/slurm-sweep.sh parts \
#           --games 'subtract:subsets(1..=14)' --force --heaps 1..=4 --max 40 \
#           --rules misere --criteria sj)
#   sbatch --dependency=afterok:$job --wrap 'nimtab merge parts/part-*.csv --out sweep.csv'
#
# Every task must see the same sweep (the same family, games file contents, space, rules
# and criteria or claim): `merge` refuses parts of different sweeps, and names a shard
# that is missing or given twice, so a failed task is rerun with
# `sbatch --array=I ... scripts/slurm-sweep.sh parts ...` before merging.
# Outside Slurm, set SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT by hand to run one
# shard. NIMTAB names the binary (default: nimtab on PATH).
#SBATCH --job-name=nimtab-sweep
#SBATCH --output=slurm-%A_%a.log
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: sbatch --array=1-N scripts/slurm-sweep.sh DIR SWEEP-ARGUMENTS..." >&2
  exit 2
fi
dir=$1
shift
index=${SLURM_ARRAY_TASK_ID:?not a Slurm array task: set SLURM_ARRAY_TASK_ID}
# Slurm sets the count from --array=1-N; older versions only set the largest index.
count=${SLURM_ARRAY_TASK_COUNT:-${SLURM_ARRAY_TASK_MAX:?set SLURM_ARRAY_TASK_COUNT}}
threads=${SLURM_CPUS_PER_TASK:-1}
exec "${NIMTAB:-nimtab}" --quiet --threads "$threads" sweep "$@" \
  --shard "$index/$count" --out "$dir/part-$index-of-$count.csv"
