#!/usr/bin/env bash
# Report benchmark (issue: flashmark report): a report over 10 runs of
# 7,200 one-second intervals each: generation time and file size, then the
# time Chromium takes to draw it. Goals: < 2 s, < 5 MB, drawn < 3 s.
# Runs are synthetic (bench/synthetic_run.cpp) and written by the real store.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
cmake --build "$BUILD" --target flashmark synthetic_run -j "$(nproc)" >/dev/null
WORK=$(mktemp -d "${BENCH_DIR:-/tmp}/flashmark-report-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
for i in $(seq 1 10); do "$BUILD/synthetic_run" "$WORK/runs.db" 7200 >/dev/null; done
times=()
for i in 1 2 3 4 5; do
  t=$( { /usr/bin/time -f "%e" "$BUILD/flashmark" report $(seq 1 10) --db "$WORK/runs.db" \
         --html "$WORK/report.html" >/dev/null; } 2>&1 | tail -1)
  times+=("$t")
done
size=$(stat -c %s "$WORK/report.html")
echo "generation (s): ${times[*]}"
python3 - "$size" "${times[@]}" <<'PY'
import statistics, sys
size = int(sys.argv[1]); t = statistics.median(float(x) for x in sys.argv[2:])
print(f"median generation {t:.2f} s (goal < 2 s: {'ok' if t < 2 else 'MISSED'}); "
      f"size {size/1e6:.2f} MB (goal < 5 MB: {'ok' if size < 5e6 else 'MISSED'})")
PY
node "$ROOT/bench/report-draw-time.mjs" "$WORK/report.html" 5
