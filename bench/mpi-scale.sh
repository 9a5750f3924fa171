#!/usr/bin/env bash
# Runs across MPI ranks on this one machine (bench/README.md, "mpi-scale"):
#   1. the null engine's aggregate IOPS at 1, 2, 4 and 8 ranks (one thread
#      each, oversubscribed beyond the cores), REPEATS runs of DURATION;
#   2. what MPI costs per interval, at 1 ms (the shortest --interval),
#      100 ms and 1 s intervals with 4 ranks: the time the output threads spend in MPI calls (rank 0
#      receiving and merging, the others sending), as the aggregate run
#      records it (show: "cluster ... MPI per interval ...").
# No file is written but one SQLite database in a mktemp -d directory,
# removed on exit. Needs mpirun (openmpi-bin) and python3.
#   REPEATS=5 DURATION=5s bench/mpi-scale.sh
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FLASHMARK="${FLASHMARK:-$ROOT/build/flashmark}"
REPEATS="${REPEATS:-3}"
DURATION="${DURATION:-3s}"
WORK="$(mktemp -d "${BENCH_DIR:-/tmp}/flashmark-mpi-bench.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
DB="$WORK/bench.db"

echo "flashmark mpi-scale: $(nproc) CPUs, $(uname -r), $(mpirun --version | head -1)"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

# The newest aggregate's IOPS and its cluster line.
newest() {
  python3 - "$DB" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
row = db.execute("select id, summary_json, environment_json from runs "
                 "where id in (select run_id from tags where key='rank' and value='all') "
                 "order by id desc limit 1").fetchone()
summary, env = json.loads(row[1]), json.loads(row[2])
ios = summary["read"]["ios"] + summary["write"]["ios"]
print(f'{ios / summary["elapsed_seconds"]:.0f}\t{env.get("cluster", "")}')
PY
}

run() {  # ranks interval
  mpirun --oversubscribe -np "$1" "$FLASHMARK" run --engine null --bs 4k \
    --time "$DURATION" --interval "$2" --mpi --db "$DB" -q >/dev/null
}

echo
echo "1. null engine, aggregate IOPS (whole-run mean), $REPEATS x $DURATION"
printf '%-6s %-14s %-14s %s\n' ranks median min max
for ranks in 1 2 4 8; do
  figures=()
  for _ in $(seq "$REPEATS"); do
    run "$ranks" 1s
    figures+=("$(newest | cut -f1)")
  done
  printf '%s\n' "${figures[@]}" | sort -n | python3 -c "
import sys, statistics
v = [float(x) for x in sys.stdin]
print(f'{$ranks:<6} {statistics.median(v):<14,.0f} {min(v):<14,.0f} {max(v):,.0f}')"
done

echo
echo "2. MPI per interval, 4 ranks (the aggregate's own record)"
for interval in 1ms 100ms 1s; do
  run 4 "$interval"
  echo "  --interval $interval: $(newest | cut -f2 | grep -o 'MPI per interval[^;]*' || echo 'not recorded')"
done
echo
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
