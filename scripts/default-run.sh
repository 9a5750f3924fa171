#!/usr/bin/env bash
# The default benchmark of `make run`: 30 s of random writes, then 30 s of
# random reads (O_DIRECT), on a 1 GiB file set in a temporary directory (removed
# afterwards). Usage: scripts/default-run.sh path/to/flashmark
set -euo pipefail
FLASHMARK=${1:-build/flashmark}
DIR=$(mktemp -d /tmp/flashmark-run.XXXXXX)
trap 'rm -rf "$DIR"' EXIT

# O_DIRECT, so the reads measure the device, not the page cache.
COMMON=(--file-num 16 --size 1G --bs 16k --threads 2 --direct --time "${FLASHMARK_RUN_TIME:-30s}")
echo "== random write, then random read, on a file set in $DIR"
"$FLASHMARK" run "$DIR" --mode rndwr "${COMMON[@]}" --keep-files
echo
"$FLASHMARK" run "$DIR" --mode rndrd "${COMMON[@]}"
