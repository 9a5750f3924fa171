#!/usr/bin/env bash
# The format gate (a ctest test): every C++ file of the project must be as
# clang-format leaves it under the project's .clang-format. Prints the files
# that differ and how to fix them; exit 1 if any, 0 otherwise.
#   scripts/check-format.sh [SOURCE_DIR]
set -uo pipefail
ROOT="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "check-format: clang-format is not installed (scripts/setup.sh installs it)"
  exit 1
fi
cd "$ROOT" || exit 1
# One clang-format for all the files (a process per file took 80 s, most
# of it starting them); each file that differs is named in its findings
# ("FILE:LINE:COL: error: code should be clang-formatted").
findings=$(find src tests bench fuzz -type f \( -name '*.cpp' -o -name '*.h' \) -print0 | sort -z |
  xargs -0 clang-format --dry-run -Werror 2>&1)
status=$?
differ=()
while IFS= read -r file; do
  [ -n "$file" ] && differ+=("$file")
done < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' <<<"$findings" | uniq)
if [ $status -ne 0 ] && [ ${#differ[@]} -eq 0 ]; then
  echo "check-format: clang-format failed (exit $status):"
  echo "$findings" | head -20
  exit 1
fi
if [ ${#differ[@]} -gt 0 ]; then
  echo "check-format: ${#differ[@]} file(s) differ from .clang-format:"
  printf '  %s\n' "${differ[@]}"
  echo "fix with: clang-format -i ${differ[*]}"
  exit 1
fi
echo "check-format: every C++ file matches .clang-format ($(clang-format --version | head -1))"
