#!/usr/bin/env bash
# The default benchmark of `make run`: 30 s of random writes, then 30 s of
# random reads (O_DIRECT), on a 1 GiB file set in a temporary directory
# (removed afterwards). The runs go to the results database ($FLASHMARK_DB,
# else ./flashmark.db); their HTML report is written beside it
# (flashmark-report.html), and the end says where both are and what to
# run next.
#   scripts/default-run.sh path/to/flashmark
#   FLASHMARK_RUN_TIME=5s scripts/default-run.sh build/flashmark   (shorter)
set -euo pipefail
FLASHMARK=${1:-build/flashmark}
DIR=$(mktemp -d /tmp/flashmark-run.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
DB=${FLASHMARK_DB:-$PWD/flashmark.db}
REPORT="$(dirname "$DB")/flashmark-report.html"

# O_DIRECT, so the reads measure the device, not the page cache.
COMMON=(--file-num 16 --size 1G --bs 16k --threads 2 --direct
        --time "${FLASHMARK_RUN_TIME:-30s}" --db "$DB")
# Runs flashmark, its output shown as it comes; prints the stored run's id
# on the last line of `ids`.
ids="$DIR/ids"
run() {
  "$FLASHMARK" run "$DIR/files" "$@" "${COMMON[@]}" | tee "$DIR/out"
  sed -n 's/^  run \([0-9][0-9]*\) stored in .*/\1/p' "$DIR/out" >>"$ids"
}
mkdir "$DIR/files"
echo "== random write, then random read, on a file set in $DIR/files"
run --mode rndwr --keep-files
echo
run --mode rndrd
write_id=$(sed -n 1p "$ids")
read_id=$(sed -n 2p "$ids")

echo
"$FLASHMARK" report "$write_id" "$read_id" --db "$DB" --html "$REPORT"
# Commands as the user types them: no --db for the default database.
db_option=""
[ "$DB" = "$PWD/flashmark.db" ] || db_option=" --db $DB"
cat <<EOF

== results
  runs $write_id (random write) and $read_id (random read) are stored in $DB
  their report (charts and tables): $REPORT (open it in a browser)

== what next (README.md, "What next", shows what each prints)
  $FLASHMARK analyze $write_id$db_option
      the headline explained: warm-up, steady state, regimes
  $FLASHMARK sweep examples/quick.toml$db_option
      a campaign of about a minute: random write and read x 1, 2 and 4 threads
  $FLASHMARK compare A B$db_option
      run B against run A (two runs of one kind: two cells of that sweep)
EOF
