#!/usr/bin/env bash
# Installs what flashmark needs to build and test on Debian 12, idempotently:
# when every package is present it says so and changes nothing.
#   1. Debian packages (compiler, libraries, fio/sysbench for the comparisons,
#      chromium for the report's browser test, clang-format and clang-tidy
#      for the quality gates, lintian and zsh for the package and completion
#      tests, OpenMPI for runs across hosts, node and npm when missing);
#   2. the HTML report's npm packages (Apache ECharts, embedded at build time,
#      playwright-core for the browser test, hdr-histogram-js for the
#      HdrHistogram log test): `npm ci` in web/, from the
#      committed package-lock.json, only when web/node_modules is missing or
#      older than that lock file.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"

PACKAGES=(
  build-essential cmake pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev
  liburing-dev libaio-dev libtomlplusplus-dev libblkid-dev
  libgtest-dev libgmock-dev zlib1g-dev libxxhash-dev
  libcpp-httplib-dev  # the live view (run --serve, serve)
  fio sysbench xfsprogs util-linux
  chromium
  clang-format clang-tidy  # the format and clang-tidy gates of `make test`
  lintian zsh  # the Debian package check and the zsh completion test
  python3-prometheus-client  # the live view test parses /metrics with it
  openmpi-bin libopenmpi-dev  # runs across hosts (run --mpi) and their tests
)
# node and npm build nothing but fetch the report's charting library: any
# recent install will do, so Debian's are added only when none is there.
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
  echo "setup: all ${#PACKAGES[@]} Debian packages present"
else
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "setup: installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# npm writes node_modules/.package-lock.json on every install: when it is
# newer than the committed lock, node_modules matches the lock.
WEB="$ROOT/web"
if [ ! -f "$WEB/node_modules/.package-lock.json" ] ||
   [ "$WEB/package-lock.json" -nt "$WEB/node_modules/.package-lock.json" ]; then
  echo "setup: installing the report's npm packages into web/node_modules (npm ci: echarts, playwright-core, hdr-histogram-js)"
  (cd "$WEB" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
else
  echo "setup: npm packages in web/node_modules match web/package-lock.json"
fi
