#!/usr/bin/env bash
# The main build, then every test and quality gate (`make test` runs it
# after scripts/setup.sh; CI runs `make test`). Each test runs once. The
# tests mostly wait (on devices, on scaled run times), so what only needs
# the CPU runs beside them at the idle scheduling class (chrt --idle: it
# gets a core only when nothing else wants it):
#   1. the main build of the program and the integration tests' driver
#      (make test-programs); beside it the AddressSanitizer + UBSan build,
#      which stage 3 needs;
#   2. ctest on the main build (its output here): the browser, install
#      and source tests, not those labelled unit (they run in stage 3),
#      integration or timing; the ASan build goes on beside it;
#   3. the ASan build's ctest: every unit test and the integration tests
#      (they run there only: the same program with every memory access
#      checked; make asan); beside it the ThreadSanitizer build, then the
#      clang-tidy gate and the include check (scripts/check-sources.py:
#      each skips the units unchanged since they passed);
#   4. the TSan build's concurrency tests, then the end of what runs beside;
#   5. the main build's tests labelled timing, with nothing beside them:
#      their bounds are wall-clock times (a replay's timing to 5 %, the
#      ranks' start skew to 1 ms, runs that end on time), which a build
#      beside them, even at the idle class, moved past the bound.
# Every stage runs even when an earlier one failed (but a failed main
# build ends it); at the end: each step's time and outcome, and the
# slowest 20 tests of each ctest run. Exit status 0 only when every step
# passed.
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
# STEP COMMAND...: a step in the foreground (a build, a ctest run), its
# output here and in $LOGS/STEP.log.
foreground() {
  local step=$1
  shift
  local s
  s=$(date +%s)
  "$@" 2>&1 | tee "$LOGS/$step.log"
  record "$step" "${PIPESTATUS[0]}" $(( $(date +%s) - s ))
}

start=$(date +%s)
echo "== stage 1: the main build ($BUILD); beside it: the ASan build"
beside asan-build make --no-print-directory asan-build BUILD="$BUILD" JOBS="$JOBS" &
asan_build=$!
foreground build make --no-print-directory test-programs BUILD="$BUILD" JOBS="$JOBS"
if [[ "${outcomes[0]}" == FAILED* ]]; then
  pkill -TERM -P "$asan_build" 2>/dev/null
  echo "== the main build failed: no test runs"
  exit 1
fi

echo "== stage 2: ctest on $BUILD (the browser, install and source tests); beside it: the ASan build"
foreground ctest bash -c "cd '$BUILD' && ctest --output-on-failure -j '$JOBS' -LE 'unit|integration|timing' -E '_NOT_BUILT\$'"
wait "$asan_build"
collect asan-build 5

echo "== stage 3: ctest on the ASan + UBSan build (the unit and integration tests); beside it: the TSan build, clang-tidy, the include check"
(
  beside tsan-build make --no-print-directory tsan-build BUILD="$BUILD" JOBS="$JOBS"
  beside tidy scripts/check-tidy.sh "$BUILD"
  beside includes python3 scripts/check-sources.py includes "$BUILD"
) &
side=$!
foreground asan make --no-print-directory asan BUILD="$BUILD" JOBS="$JOBS"
while [ ! -f "$LOGS/tsan-build.status" ] && kill -0 "$side" 2>/dev/null; do sleep 1; done

echo "== stage 4: the TSan build's concurrency tests"
foreground tsan make --no-print-directory tsan BUILD="$BUILD" JOBS="$JOBS"
wait "$side"
collect tsan-build 5
collect tidy 60
collect includes 60

echo "== stage 5: the tests labelled timing on $BUILD, alone"
foreground timing bash -c "cd '$BUILD' && ctest --output-on-failure -L timing"

echo
for log in ctest asan timing; do
  echo "-- $log:"
  scripts/slowest-tests.sh "$LOGS/$log.log" 20
done
echo
echo "== summary ($(( $(date +%s) - start )) s from the main build on; logs in $LOGS)"
failed=0
for i in "${!names[@]}"; do
  printf '  %-11s %s\n' "${names[$i]}" "${outcomes[$i]}"
  case "${outcomes[$i]}" in FAILED*) failed=1 ;; esac
done
exit "$failed"
