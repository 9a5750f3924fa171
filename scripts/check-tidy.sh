#!/usr/bin/env bash
# The clang-tidy gate (run by `make test`): every translation unit of the
# program (src/, in the build's unity batches) checked with the project's
# .clang-tidy (its comment states the check set), in parallel; any finding
# fails. Units unchanged since they passed are skipped (scripts/check-sources.py).
#   scripts/check-tidy.sh [BUILD]
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v clang-tidy >/dev/null 2>&1; then
  echo "check-tidy: clang-tidy is not installed (scripts/setup.sh installs it)"
  exit 1
fi
exec python3 "$ROOT/scripts/check-sources.py" tidy "${1:-$ROOT/build}"
