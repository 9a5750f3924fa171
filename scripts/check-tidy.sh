#!/usr/bin/env bash
# The clang-tidy gate (run by `make test`): every .cpp file under src/ is
# checked with the project's .clang-tidy (its comment states the check set)
# against BUILD's compile_commands.json, in parallel; any finding fails.
#   scripts/check-tidy.sh [BUILD]
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
if ! command -v run-clang-tidy >/dev/null 2>&1; then
  echo "check-tidy: clang-tidy is not installed (scripts/setup.sh installs it)"
  exit 1
fi
if [ ! -f "$BUILD/compile_commands.json" ]; then
  echo "check-tidy: no $BUILD/compile_commands.json: build first (make build)"
  exit 1
fi
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
start=$(date +%s)
run-clang-tidy -quiet -p "$BUILD" -j "$(nproc)" "$ROOT/src/.*\.cpp\$" >"$log" 2>&1
status=$?
findings=$(grep -c ': \(warning\|error\): ' "$log")
if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
  grep -A3 ': \(warning\|error\): ' "$log" | head -200
  echo "check-tidy: $findings finding(s) in src/ (.clang-tidy)"
  exit 1
fi
echo "check-tidy: src/ is clean ($(find "$ROOT/src" -name '*.cpp' | wc -l) files, $(( $(date +%s) - start )) s)"
