#!/usr/bin/env bash
# bench/verify-cost.sh — what --verify costs: IOPS without and with it, on
# the null engine (the stamping itself: a header and an XXH3-64 checksum over
# every written block, and the generation map) and on a page-cached file set
# (stamping writes; checking reads), psync, QD1, one thread.  Each case runs
# REPEATS times, alternating plain and --verify (swapping who goes first on
# every other repeat); the figure per run is its whole-run IOPS (IOs /
# elapsed) and the verdict the ratio of the medians.
#
#   REPEATS=5 DURATION=5s FLASHMARK=build/flashmark bench/verify-cost.sh
#
# Everything lives in a mktemp -d directory under BENCH_DIR (default
# /dev/shm when it exists, else /tmp) and is removed on exit. On tmpfs the
# file set (SIZE, default 256M) lives in the page cache and writes never
# wait for writeback, so the cost of --verify is not hidden behind a
# throttled disk.  Never touches a block device.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(dirname "$HERE")
FLASHMARK=${FLASHMARK:-$REPO/build/flashmark}
REPEATS=${REPEATS:-5}
DURATION=${DURATION:-5s}
SIZE=${SIZE:-256M}

die() { echo "verify-cost.sh: $*" >&2; exit 1; }
[[ $REPEATS =~ ^[0-9]+$ && $REPEATS -gt 0 ]] || die "REPEATS must be a positive integer"
command -v python3 >/dev/null || die "python3 is required (it parses the JSON results)"
[[ -x $FLASHMARK ]] || die "no flashmark binary at $FLASHMARK (build it, or set FLASHMARK)"

DEFAULT_DIR=/tmp
[[ -d /dev/shm && -w /dev/shm ]] && DEFAULT_DIR=/dev/shm
WORK=$(mktemp -d "${BENCH_DIR:-$DEFAULT_DIR}/flashmark-verify-cost.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
LOG=$WORK/log

iops() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['summary']; print(round((s['read']['ios']+s['write']['ios'])/s['elapsed_seconds']))" "$1"; }
median() { python3 -c "import statistics,sys; print(round(statistics.median(map(float,sys.argv[1:]))))" "$@"; }

# one_run OUT ARGS...: a quiet run without the store, JSON to OUT.
one_run() { local out=$1; shift
  "$FLASHMARK" run -q --no-db --time "$DURATION" --json "$out" "$@" >>"$LOG" 2>&1 ||
    { tail -20 "$LOG" >&2; die "failed: $*"; }
}

SET=$WORK/set
mkdir -p "$SET"
SET_ARGS=("$SET" --size "$SIZE" --file-num 4 --keep-files)
# Lay out the set and stamp every block once, so the read case checks all.
"$FLASHMARK" run -q --no-db "${SET_ARGS[@]}" --mode seqrewr --bs 4k --bytes "$SIZE" --verify >>"$LOG" 2>&1 ||
  { tail -20 "$LOG" >&2; die "preparing the file set failed"; }

printf '%-34s %12s %12s %8s\n' "case" "plain IOPS" "--verify" "ratio"
measure() { local name=$1; shift
  local plain=() verified=()
  for ((r = 0; r < REPEATS; r++)); do
    local order=(plain verify)
    ((r % 2)) && order=(verify plain)
    for side in "${order[@]}"; do
      if [[ $side == plain ]]; then
        one_run "$WORK/p.json" "$@"; plain+=("$(iops "$WORK/p.json")")
      else
        one_run "$WORK/v.json" "$@" --verify; verified+=("$(iops "$WORK/v.json")")
      fi
    done
  done
  local p v
  p=$(median "${plain[@]}"); v=$(median "${verified[@]}")
  printf '%-34s %12s %12s %8s\n' "$name" "$p" "$v" "$(python3 -c "print(f'{$v/$p:.3f}')")"
  echo "  per run: plain ${plain[*]}; --verify ${verified[*]}" >>"$WORK/detail"
}

measure "null rndwr 4k"           --engine null --mode rndwr --bs 4k
measure "null rndwr 16k"          --engine null --mode rndwr --bs 16k
# Reads first: a plain write run drops the set's generation map (its
# unstamped writes make it stale), after which --verify reads check nothing.
measure "cached file rndrd 4k"    "${SET_ARGS[@]}" --mode rndrd --bs 4k
measure "cached file rndwr 4k"    "${SET_ARGS[@]}" --mode rndwr --bs 4k
measure "cached file rndwr 16k"   "${SET_ARGS[@]}" --mode rndwr --bs 16k
echo
cat "$WORK/detail"
echo "($REPEATS x $DURATION per side; IOPS = IOs / elapsed; --verify write runs also"
echo " read everything back afterwards, which is not in their IOPS)"
