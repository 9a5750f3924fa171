#!/usr/bin/env bash
# Installs what flashmark needs on Debian 12, idempotently: when every
# package is present it says so and changes nothing.
#   scripts/setup.sh --run    what building and running the program needs
#                             (`make run`): the compiler, CMake, the
#                             libraries it links, and the report's charting
#                             library (npm: echarts only);
#   scripts/setup.sh [--test] that, and what the tests and quality gates
#                             need (`make test`): GoogleTest, fio/sysbench
#                             for the comparisons and importers, chromium
#                             for the report's browser test, clang-format
#                             and clang-tidy, lintian and zsh for the
#                             package and completion tests, OpenMPI for
#                             runs across hosts (--mpi) and their tests,
#                             the npm packages of the browser and
#                             HdrHistogram tests (playwright-core,
#                             hdr-histogram-js);
#   scripts/setup.sh --list run|test   prints the Debian packages of a set.
# Node and npm only fetch the charting library: Debian's are added only
# when none is installed. The npm packages come from the committed
# web/package-lock.json (`npm ci` in web/), only when web/node_modules
# lacks them or is older than that lock file.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"

RUN_PACKAGES=(
  build-essential cmake pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev
  liburing-dev libaio-dev libtomlplusplus-dev libblkid-dev libtracefs-dev
  libtraceevent-dev  # libtracefs.pc requires it; libtracefs-dev does not depend on it
  zlib1g-dev libxxhash-dev
  libcpp-httplib-dev  # the live view (run --serve, serve)
)
TEST_PACKAGES=(
  libgtest-dev libgmock-dev
  fio sysbench xfsprogs util-linux
  btrfs-progs  # examples/single-vs-btrfs-raid0.toml, tried on loop devices
  sqlite3  # the replay round trip: a real database captured on a loop device
  chromium
  clang-format clang-tidy  # the format and clang-tidy gates of `make test`
  lintian zsh  # the Debian package check and the zsh completion test
  python3-prometheus-client  # the live view test parses /metrics with it
  openmpi-bin libopenmpi-dev  # runs across hosts (run --mpi) and their tests
)

set_name=test
case "${1:-}" in
  --run) set_name=run ;;
  --test | "") set_name=test ;;
  --list)
    case "${2:-}" in
      run) printf '%s\n' "${RUN_PACKAGES[@]}" ;;
      test) printf '%s\n' "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}" ;;
      *) echo "setup: --list takes run or test, not '${2:-}'" >&2; exit 2 ;;
    esac
    exit 0 ;;
  *)
    echo "setup: unknown option '$1' (use --run, --test or --list run|test)" >&2
    exit 2 ;;
esac

PACKAGES=("${RUN_PACKAGES[@]}")
if [ "$set_name" = test ]; then PACKAGES+=("${TEST_PACKAGES[@]}"); fi
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
fi

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} Debian packages for $set_name present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing Debian packages for $set_name: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm writes node_modules/.package-lock.json on every install: when it is
# newer than the committed lock, node_modules matches the lock. A --run
# install leaves out the development packages, which --test then adds.
WEB="$ROOT/web"
wanted=(echarts)
if [ "$set_name" = test ]; then wanted+=(playwright-core hdr-histogram-js); fi
need_npm=no
if [ ! -f "$WEB/node_modules/.package-lock.json" ] ||
   [ "$WEB/package-lock.json" -nt "$WEB/node_modules/.package-lock.json" ]; then
  need_npm=yes
fi
for package in "${wanted[@]}"; do
  [ -f "$WEB/node_modules/$package/package.json" ] || need_npm=yes
done
if [ "$need_npm" = yes ]; then
  echo "setup: installing the report's npm packages into web/node_modules (npm ci: ${wanted[*]})"
  omit=()
  if [ "$set_name" = run ]; then omit=(--omit=dev); fi
  (cd "$WEB" && npm ci "${omit[@]}" --ignore-scripts --no-audit --no-fund --loglevel=error)
else
  echo "setup: npm packages in web/node_modules match web/package-lock.json (${wanted[*]})"
fi
