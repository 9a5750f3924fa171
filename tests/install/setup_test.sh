#!/usr/bin/env bash
# ctest setup.packages: what scripts/setup.sh installs for each quick-start
# command. `make run` (setup.sh --run) gets what building and running the
# program need and nothing that only the tests need; `make test` gets
# everything. Checked against CMakeLists.txt: every library the build
# REQUIREs is in the run set (a new dependency must be added there).
# Also: the slowest-tests summary that scripts/run-tests.sh (make test, CI)
# prints at its end, on a canned ctest output.
#   tests/install/setup_test.sh SOURCE_DIR
set -uo pipefail
ROOT="$(cd "$1" && pwd)"
fail() { echo "FAIL: $*" >&2; exit 1; }

run_set=$("$ROOT/scripts/setup.sh" --list run) || fail "setup.sh --list run failed"
test_set=$("$ROOT/scripts/setup.sh" --list test) || fail "setup.sh --list test failed"
has() { grep -qx -- "$2" <<<"$1"; }

# Packages only the tests and quality gates use.
for package in libgtest-dev libgmock-dev chromium chromium-driver clang-format \
    clang-tidy lintian zsh python3-prometheus-client fio sysbench openmpi-bin \
    libopenmpi-dev xfsprogs ccache; do
  if has "$run_set" "$package"; then fail "setup.sh --run installs $package, which only the tests need"; fi
done
echo "ok: the run set names no test-only package ($(wc -l <<<"$run_set") packages)"

# What the build REQUIREs, and the Debian package that provides it.
declare -A provider=(
  [PkgConfig]=pkg-config [Threads]=build-essential [fmt]=libfmt-dev
  [nlohmann_json]=nlohmann-json3-dev [CLI11]=libcli11-dev [SQLite3]=libsqlite3-dev
  [ZLIB]=zlib1g-dev [liburing]=liburing-dev [blkid]=libblkid-dev
  [libxxhash]=libxxhash-dev [cpp-httplib]=libcpp-httplib-dev [aio]=libaio-dev
)
required=$(sed -nE 's/^find_package\(([A-Za-z0-9_]+) REQUIRED\).*/\1/p;
  s/^pkg_check_modules\([A-Z]+ REQUIRED IMPORTED_TARGET ([a-z0-9-]+)\).*/\1/p;
  s/^find_library\([A-Z_]+ ([a-z0-9]+) REQUIRED\).*/\1/p' "$ROOT/CMakeLists.txt")
[ "$(wc -l <<<"$required")" -ge 12 ] || fail "found only these requirements in CMakeLists.txt: $required"
for need in $required; do
  package=${provider[$need]:-}
  [ -n "$package" ] || fail "CMakeLists.txt requires $need: name its Debian package here and in setup.sh's run set"
  has "$run_set" "$package" || fail "CMakeLists.txt requires $need, but setup.sh --run does not install $package"
done
for package in build-essential cmake; do
  has "$run_set" "$package" || fail "setup.sh --run does not install $package"
done
echo "ok: the run set has every library the build requires ($(echo $required))"

while read -r package; do
  has "$test_set" "$package" || fail "setup.sh --list test lacks $package of the run set"
done <<<"$run_set"
for package in libgtest-dev chromium clang-tidy; do
  has "$test_set" "$package" || fail "setup.sh --list test lacks $package"
done
echo "ok: the test set is the run set and the tests' packages"

"$ROOT/scripts/setup.sh" --bogus >/dev/null 2>&1
[ $? -eq 2 ] || fail "setup.sh --bogus does not exit 2"
echo "ok: an unknown option exits 2"

# The end of every `make test`: the slowest tests, slowest first.
summary=$("$ROOT/scripts/slowest-tests.sh" "$ROOT/tests/fixtures/ctest/ctest-output.txt" 3) ||
  fail "slowest-tests.sh failed"
expected='slowest 3 of 5 tests (98 s of test time in all):
   61.39 s  Passed   Pts.HirStoresItsBurstsAndWaits
   22.10 s  Failed   format
   12.00 s  Skipped  DeviceSafety.MountedPartitionRefusesTheWholeDisk'
[ "$summary" = "$expected" ] || fail "slowest-tests.sh printed:
$summary
expected:
$expected"
grep -q 'slowest-tests.sh' "$ROOT/scripts/run-tests.sh" || fail "scripts/run-tests.sh no longer prints the slowest tests"
grep -q 'scripts/run-tests.sh' "$ROOT/Makefile" || fail "make test no longer runs scripts/run-tests.sh"
grep -q 'make test' "$ROOT/.ci/run" || fail ".ci/run no longer runs make test"
echo "ok: the slowest tests are listed at the end of make test (= .ci/run)"
