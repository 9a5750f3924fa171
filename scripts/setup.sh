#!/usr/bin/env bash
# Installs what flashmark needs to build and test on Debian 12, idempotently:
# when every package is present it says so and changes nothing.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config
  libcli11-dev nlohmann-json3-dev libfmt-dev libsqlite3-dev
  liburing-dev libaio-dev libtomlplusplus-dev libblkid-dev
  libgtest-dev libgmock-dev zlib1g-dev
  fio sysbench
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} Debian packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
