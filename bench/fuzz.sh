#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ with clang (ASan + UBSan, in
# build-fuzz/, a build directory of its own) and runs them one at a time,
# each for FUZZ_SECONDS, at the lowest CPU priority. Not part of `make test`
# or CI: fuzzing for ten minutes per target is for before a release or after
# touching a parser.
#
#   bench/fuzz.sh                           # every target, 600 s each
#   FUZZ_SECONDS=60 bench/fuzz.sh fuzz_parse_rate fuzz_campaign
#   BUILD_JOBS=1 bench/fuzz.sh              # compile jobs for the build
#   FUZZ_NO_BUILD=1 bench/fuzz.sh TARGET    # run what build-fuzz/ holds as is
#
# Corpora grow in build-fuzz/corpus/TARGET (seeded from fuzz/corpus/TARGET,
# plus the example and fixture campaigns for fuzz_campaign); crashing inputs
# land in build-fuzz/artifacts/TARGET/ and the per-target log in
# build-fuzz/logs/. At the end one line per target gives the executions run
# and the crashes found. Exit status 1 when any target crashed. Each crash
# found should become a regression test in tests/unit/ (see fuzz/README.md).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
SECONDS_EACH="${FUZZ_SECONDS:-600}"
BUILD_JOBS="${BUILD_JOBS:-2}"
CXX_CLANG="${FUZZ_CXX:-clang++}"

command -v "$CXX_CLANG" >/dev/null || {
  echo "fuzz: $CXX_CLANG not found (Debian: apt-get install clang libclang-rt-dev)" >&2
  exit 2
}

if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  mkdir -p "$BUILD"
  cmake -S "$ROOT" -B "$BUILD" -DFLASHMARK_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$CXX_CLANG" >"$BUILD/configure.log" 2>&1 || {
    cat "$BUILD/configure.log" >&2
    exit 1
  }
fi

if [ $# -gt 0 ]; then
  TARGETS=("$@")
else
  TARGETS=()
  for source in "$ROOT"/fuzz/fuzz_*.cpp; do
    TARGETS+=("$(basename "$source" .cpp)")
  done
fi

if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  nice -n 19 cmake --build "$BUILD" -j"$BUILD_JOBS" --target "${TARGETS[@]}"
fi

mkdir -p "$BUILD/logs"
summary=()
crashed=0
for target in "${TARGETS[@]}"; do
  corpus="$BUILD/corpus/$target"
  artifacts="$BUILD/artifacts/$target"
  mkdir -p "$corpus" "$artifacts"
  if [ -d "$ROOT/fuzz/corpus/$target" ]; then
    cp -n "$ROOT/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true
  fi
  # Seeds, a dictionary and the longest input worth trying, per target.
  dict=()
  max_len=4096
  case "$target" in
    fuzz_campaign)
      cp -n "$ROOT"/examples/*.toml "$ROOT"/tests/fixtures/campaigns/*.toml "$corpus"/ 2>/dev/null || true
      dict=(-dict="$ROOT/fuzz/campaign.dict"); max_len=16384 ;;
    fuzz_fio_import)
      cp -n "$ROOT"/tests/fixtures/import/*.json "$corpus"/ 2>/dev/null || true
      max_len=65536 ;;
    fuzz_sysbench_import)
      cp -n "$ROOT"/tests/fixtures/import/sysbench-*.txt "$corpus"/ 2>/dev/null || true
      max_len=16384 ;;
    fuzz_trace_import)
      cp -n "$ROOT"/tests/fixtures/trace/* "$corpus"/ 2>/dev/null || true
      max_len=16384 ;;
    fuzz_parse_*|fuzz_block_size_mix)
      dict=(-dict="$ROOT/fuzz/units.dict"); max_len=256 ;;
  esac
  # Temporary files (fuzz_campaign's file, libFuzzer's fork directories)
  # stay under build-fuzz/ and go when the target is done.
  export TMPDIR="$BUILD/tmp/$target"
  rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"
  log="$BUILD/logs/$target.log"
  echo "fuzz: $target for ${SECONDS_EACH} s (log $log)"
  # -fork keeps fuzzing past a crash (each crash is saved and counted);
  # ASan's leak check stays on.
  set +e
  nice -n 19 "$BUILD/fuzz/$target" "${dict[@]}" -max_total_time="$SECONDS_EACH" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "$corpus" >"$log" 2>&1
  set -e
  rm -rf "$TMPDIR"
  # In fork mode the parent prints "#N ... exec/s" lines with the total
  # executions and "crashes: N" in its stat lines.
  execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
  crashes=$(find "$artifacts" -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)
  [ "$crashes" -gt 0 ] && crashed=1
  summary+=("$(printf '%-22s %12s executions  %3s crashing inputs  corpus %s' \
    "$target" "${execs:-?}" "$crashes" "$(ls "$corpus" | wc -l)")")
done

echo
echo "fuzz summary (${SECONDS_EACH} s per target; artifacts in $BUILD/artifacts):"
printf '  %s\n' "${summary[@]}"
exit "$crashed"
