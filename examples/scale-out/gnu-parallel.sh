#!/usr/bin/env bash
# A sweep sharded over machines with GNU parallel, then merged (docs/scale-out.md).
#   SHARDS=64 HOSTS=alice,bob,: ./gnu-parallel.sh --Ls 64,128,...,16384 --trials 100 --k 16 > sweep.json
# Every host needs the same attnx build on its PATH (or ATTNX=/path/to/attnx). ":" is this
# machine. Each shard runs with --threads 0 (every core of its host); parts are gathered in
# $PARTS (default: a temporary folder) and joined by attnx merge, which checks that none is
# missing or repeated. The output is byte-identical to one `attnx sweep` with the same flags.
set -euo pipefail
ATTNX=${ATTNX:-attnx}
SHARDS=${SHARDS:-8}
HOSTS=${HOSTS:-:}
PARTS=${PARTS:-$(mktemp -d)}
mkdir -p "$PARTS"
# shellcheck disable=SC2016  # {} and $ARGS are expanded by parallel and the remote shell
parallel --will-cite --halt now,fail=1 --sshlogin "$HOSTS" --jobs 1 \
  "$ATTNX sweep $* --shard {}/$SHARDS > $PARTS/part-{}.json" ::: $(seq 0 $((SHARDS - 1)))
"$ATTNX" merge "$PARTS"/part-*.json
