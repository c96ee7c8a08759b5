#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages StreamScope needs to build, test and run, if any is
# missing. Quiet and idempotent: does nothing when everything is in place.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-websockets-dev qt6-charts-dev
    qtkeychain-qt6-dev libsimdjson-dev libzstd-dev libgl-dev
    libqt6svg6 qt6-qpa-plugins
    xvfb xauth
)
if [[ "${1:-}" == "--with-tests" ]]; then
    # mingw-w64, yamllint and shellcheck: scripts/check-portability.sh. lld: the presets
    # scripts/test.sh builds link with it. clang and libFuzzer: scripts/fuzz.sh (the fuzz
    # preset); the sanitizer and fuzzer runtimes are only recommended by clang, and this script
    # installs no recommends. prometheus (the server and
    # promtool) and systemd (systemd-analyze): tests/fleet checks /metrics, the alerting rules
    # and the dashboard against them, and verifies the agent's unit file.
    packages+=(openssl clang-format g++-mingw-w64-x86-64-posix yamllint shellcheck
               clang lld libclang-rt-14-dev libfuzzer-14-dev prometheus systemd)
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
