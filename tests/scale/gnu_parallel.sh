#!/usr/bin/env bash
# Runs the GNU parallel recipe (examples/scale-out/gnu-parallel.sh) on this machine: 5 shards as
# separate processes, merged; the output must equal one unsharded `attnx sweep`, byte for byte
# (JSON and, merged again, CSV).   usage: gnu_parallel.sh ATTNX
set -euo pipefail
attnx=$1
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(--pattern dilated --w 1 --r 2 --Ls 16,32,64 --trials 5 --seed 12)
SHARDS=5 PARTS="$work/parts" ATTNX="$attnx" bash "$here/examples/scale-out/gnu-parallel.sh" "${flags[@]}" > "$work/merged.json"
"$attnx" sweep "${flags[@]}" > "$work/whole.json"
cmp "$work/merged.json" "$work/whole.json"
[ "$(ls "$work/parts" | wc -l)" = 5 ] || { echo "expected 5 part files"; exit 1; }
"$attnx" merge --format csv "$work"/parts/part-*.json > "$work/merged.csv"
"$attnx" sweep "${flags[@]}" --format csv > "$work/whole.csv"
cmp "$work/merged.csv" "$work/whole.csv"
echo "gnu_parallel: 5 shards merged = unsharded (json and csv)"
