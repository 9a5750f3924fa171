#!/usr/bin/env bash
# A 7-day run at 1 s intervals (604,800 intervals with latency histograms,
# synthetic: bench/synthetic_run.cpp writes it through the real store)
# through every command that reads it: wall time and peak memory of each,
# against issue 41's goals (show and every export < 20 s, report < 10 s,
# the HTML page drawn in Chromium < 3 s). Medians of REPEATS (3) runs.
# Usage: bench/week-run.sh   (INTERVALS=604800 REPEATS=3 by default)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
INTERVALS=${INTERVALS:-604800}
REPEATS=${REPEATS:-3}
cmake --build "$BUILD" --target flashmark synthetic_run -j "$(nproc)" >/dev/null
FLASHMARK=$BUILD/flashmark
WORK=$(mktemp -d "${BENCH_DIR:-/tmp}/flashmark-week-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
"$BUILD/synthetic_run" "$WORK/week.db" "$INTERVALS" >/dev/null
echo "== $INTERVALS intervals: median of $REPEATS (wall s, peak MiB)"
measure() {  # goal_seconds name command...
  local goal=$1 name=$2; shift 2
  local times=() peaks=()
  for _ in $(seq 1 "$REPEATS"); do
    local out
    /usr/bin/time -o "$WORK/time" -f "%e %M" "$@" >/dev/null 2>&1
    out=$(tail -1 "$WORK/time")
    times+=("${out% *}"); peaks+=("${out#* }")
  done
  python3 - "$goal" "$name" "${#times[@]}" "${times[@]}" "${peaks[@]}" <<'PY'
import statistics, sys
goal, name, n = float(sys.argv[1]), sys.argv[2], int(sys.argv[3])
t = [float(x) for x in sys.argv[4:4 + n]]
m = [float(x) / 1024 for x in sys.argv[4 + n:]]
med = statistics.median(t)
print(f"  {name:<22} {med:6.2f} s ({min(t):.2f}..{max(t):.2f})  {statistics.median(m):5.0f} MiB"
      f"  goal < {goal:g} s: {'ok' if med < goal else 'MISSED'}")
PY
}
db=(--db "$WORK/week.db")
measure 20 "show" "$FLASHMARK" show 1 "${db[@]}"
measure 20 "show --json" "$FLASHMARK" show 1 --json "${db[@]}"
for format in json csv hdr clat_hist; do
  measure 20 "export $format" "$FLASHMARK" export 1 --format "$format" -o "$WORK/out" "${db[@]}"
done
measure 20 "analyze" "$FLASHMARK" analyze 1 "${db[@]}"
measure 10 "report --html" "$FLASHMARK" report 1 --html "$WORK/report.html" "${db[@]}"
if [ -d "$ROOT/web/node_modules/playwright-core" ] && command -v chromium >/dev/null; then
  node "$ROOT/bench/report-draw-time.mjs" "$WORK/report.html" "$REPEATS"
else
  echo "  (no Chromium or playwright-core: the HTML draw time is not measured)"
fi
