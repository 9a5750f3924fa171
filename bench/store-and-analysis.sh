#!/usr/bin/env bash
# Store and analysis benchmarks (issue: results store and analysis):
#  1. `flashmark analyze` of a 24-hour run at 1 s intervals (86,400
#     intervals with latency histograms): wall time and peak memory, against
#     the goal of < 1 s and < 200 MB. The run is synthetic (bench/
#     synthetic_run.cpp writes it through the real store).
#  2. IO-path cost of storing intervals: null-engine IOPS with the store
#     against --no-db, alternated REPEATS times; the ratio of medians.
# Usage: bench/store-and-analysis.sh   (REPEATS=5 DURATION=5s by default)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
REPEATS=${REPEATS:-5}
DURATION=${DURATION:-5s}
cmake --build "$BUILD" --target flashmark synthetic_run -j "$(nproc)" >/dev/null
FLASHMARK=$BUILD/flashmark
WORK=$(mktemp -d "${BENCH_DIR:-/tmp}/flashmark-store-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
command -v python3 >/dev/null || { echo "needs python3" >&2; exit 1; }
median() { python3 -c 'import sys,statistics; print(statistics.median(float(x) for x in sys.argv[1:]))' "$@"; }

echo "== 1. analyze a 24-hour run (86,400 intervals)"
"$BUILD/synthetic_run" "$WORK/day.db" 86400
times=() ; rss=()
for i in $(seq 1 "$REPEATS"); do
  out=$( { /usr/bin/time -f "%e %M" "$FLASHMARK" analyze 1 --db "$WORK/day.db" \
           --warmup auto >/dev/null; } 2>&1 | tail -1)
  times+=("${out% *}"); rss+=("${out#* }")
  echo "  repeat $i: ${out% *} s, $(( ${out#* } / 1024 )) MiB peak"
done
t=$(median "${times[@]}"); m=$(median "${rss[@]}")
python3 - "$t" "$m" <<'PY'
import sys
t, m = float(sys.argv[1]), float(sys.argv[2]) / 1024
print(f"  median {t:.2f} s (goal < 1 s: {'ok' if t < 1 else 'MISSED'}), "
      f"peak {m:.0f} MiB (goal < 200 MB: {'ok' if m * 1.048576 < 200 else 'MISSED'})")
PY

echo "== 2. null engine IOPS with the store vs --no-db (interval 1 s)"
with=() ; without=()
iops() { python3 -c 'import json,sys; print(json.load(sys.stdin)["summary"]["iops"]["median"])'; }
for i in $(seq 1 "$REPEATS"); do
  if (( i % 2 )); then
    a=$("$FLASHMARK" run --engine null --time "$DURATION" -q --json - --db "$WORK/io.db" 2>/dev/null | iops)
    b=$("$FLASHMARK" run --engine null --time "$DURATION" -q --json - --no-db 2>/dev/null | iops)
  else
    b=$("$FLASHMARK" run --engine null --time "$DURATION" -q --json - --no-db 2>/dev/null | iops)
    a=$("$FLASHMARK" run --engine null --time "$DURATION" -q --json - --db "$WORK/io.db" 2>/dev/null | iops)
  fi
  with+=("$a"); without+=("$b")
  printf "  repeat %d: with store %.3gM IOPS, --no-db %.3gM IOPS\n" "$i" "$(echo "$a/1000000" | bc -l)" "$(echo "$b/1000000" | bc -l)"
done
python3 - "$(median "${with[@]}")" "$(median "${without[@]}")" <<'PY'
import sys
a, b = float(sys.argv[1]), float(sys.argv[2])
print(f"  medians: with store {a/1e6:.2f}M, --no-db {b/1e6:.2f}M IOPS; ratio {a/b:.3f}")
PY
