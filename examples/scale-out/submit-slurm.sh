#!/usr/bin/env bash
# Queues the sharded sweep as a Slurm job array and its merge as a dependent job.
#   ATTNX_FLAGS="--Ls 64,128,256,512,1024,2048,4096,8192,16384 --trials 100 --k 16" ./submit-slurm.sh
# Predict the cost first: attnx sweep $ATTNX_FLAGS --dry-run (when available) or attnx bench --scaling.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p parts
export ATTNX_FLAGS SHARDS=${SHARDS:-64}
array=$(sbatch --parsable --array="0-$((SHARDS - 1))" --export=ALL slurm-sweep.sbatch)
sbatch --dependency="afterok:$array" --export=ALL slurm-merge.sbatch
