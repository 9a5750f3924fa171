#!/usr/bin/env bash
# Every test and quality gate, after the main build (`make test` runs it;
# CI runs `make test`). The tests mostly wait (on devices, on scaled run
# times), so what only needs the CPU runs beside them at the idle
# scheduling class (chrt --idle: it gets a core only when no test wants
# it, so it cannot slow a test down):
#   1. ctest on the main build (its output here): every test but those
#      labelled integration; beside it the AddressSanitizer + UBSan build,
#      which stage 2 needs;
#   2. the ASan build's ctest (the integration tests run there only: the
#      same program with every memory access checked; make asan); beside
#      it the ThreadSanitizer build, then
#      the clang-tidy gate and the include check (scripts/check-sources.py:
#      each skips the units unchanged since they passed);
#   3. the TSan build's concurrency tests, then the end of what runs beside.
# Every stage runs even when an earlier one failed; at the end: each
# step's time and outcome, and the slowest 20 tests of each ctest run.
# Exit status 0 only when every step passed.
#   scripts/run-tests.sh [BUILD]
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT" || exit 2
BUILD="${1:-build}"
JOBS="${JOBS:-$(nproc)}"
LOGS="$BUILD/test-logs"
mkdir -p "$LOGS"
rm -f "$LOGS"/*.status

# STEP COMMAND...: runs the command in the background at the idle
# scheduling class, its output in $LOGS/STEP.log, its status and seconds in
# $LOGS/STEP.status. Prints nothing.
beside() {
  local step=$1
  shift
  local s
  s=$(date +%s)
  chrt --idle 0 "$@" >"$LOGS/$step.log" 2>&1
  echo "$? $(( $(date +%s) - s ))" >"$LOGS/$step.status"
}

names=()
outcomes=()
record() {  # STEP STATUS SECONDS
  names+=("$1")
  if [ "$2" -eq 0 ]; then outcomes+=("passed in $3 s"); else outcomes+=("FAILED (exit $2) after $3 s"); fi
}
# The result of a step run beside: its log's end, then its record.
collect() {  # STEP [LINES]
  echo "-- $1 (log: $LOGS/$1.log):"
  tail -n "${2:-20}" "$LOGS/$1.log"
  local status=1 seconds=0
  [ -f "$LOGS/$1.status" ] && read -r status seconds <"$LOGS/$1.status"
  record "$1" "$status" "$seconds"
}
# STEP COMMAND...: a ctest run in the foreground, its output here and in
# $LOGS/STEP.log.
foreground() {
  local step=$1
  shift
  local s
  s=$(date +%s)
  "$@" 2>&1 | tee "$LOGS/$step.log"
  record "$step" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))
}

start=$(date +%s)
echo "== stage 1: ctest on $BUILD (all but the integration tests); beside it: the ASan build"
beside asan-build make --no-print-directory asan-build BUILD="$BUILD" JOBS="$JOBS" &
side=$!
foreground ctest bash -c "cd '$BUILD' && ctest --output-on-failure -j '$JOBS' -LE integration"
wait "$side"
collect asan-build 5

echo "== stage 2: ctest on the ASan + UBSan build (the integration tests); beside it: the TSan build, clang-tidy, the include check"
(
  beside tsan-build make --no-print-directory tsan-build BUILD="$BUILD" JOBS="$JOBS"
  beside tidy scripts/check-tidy.sh "$BUILD"
  beside includes python3 scripts/check-sources.py includes "$BUILD"
) &
side=$!
foreground asan make --no-print-directory asan BUILD="$BUILD" JOBS="$JOBS"
while [ ! -f "$LOGS/tsan-build.status" ] && kill -0 "$side" 2>/dev/null; do sleep 1; done

echo "== stage 3: the TSan build's concurrency tests"
foreground tsan make --no-print-directory tsan BUILD="$BUILD" JOBS="$JOBS"
wait "$side"
collect tsan-build 5
collect tidy 60
collect includes 60

echo
for log in ctest asan; do
  echo "-- $log:"
  scripts/slowest-tests.sh "$LOGS/$log.log" 20
done
echo
echo "== summary ($(( $(date +%s) - start )) s after the main build; logs in $LOGS)"
failed=0
for i in "${!names[@]}"; do
  printf '  %-11s %s\n' "${names[$i]}" "${outcomes[$i]}"
  case "${outcomes[$i]}" in FAILED*) failed=1 ;; esac
done
exit "$failed"
