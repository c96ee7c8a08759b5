#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages StreamScope needs to build, test and run, if any is
# missing. Quiet and idempotent: does nothing when everything is in place.
#   --with-tests  what scripts/test.sh and CI need besides
#   --with-peers  the benchmark's peer clients (docs/benchmarks.md): node with the pinned `ws`
#                 of bench/peers/package-lock.json (npm ci there), Debian's python3-websockets
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=0
with_peers=0
for arg in "$@"; do
    case "$arg" in
        --with-tests) with_tests=1 ;;
        --with-peers) with_peers=1 ;;
        *) echo "deps.sh: unknown option $arg (--with-tests, --with-peers)" >&2; exit 2 ;;
    esac
done

packages=(
    build-essential cmake ninja-build pkg-config
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-websockets-dev qt6-charts-dev qt6-svg-dev
    qtkeychain-qt6-dev libsimdjson-dev libzstd-dev libgl-dev libssl-dev
    libqt6svg6 qt6-qpa-plugins
    xvfb xauth
)
if [[ $with_tests -eq 1 ]]; then
    # mingw-w64, yamllint and shellcheck: scripts/check-portability.sh. lld: the presets
    # scripts/test.sh builds link with it. clang, its sanitizer runtimes and libFuzzer: the
    # asan and fuzz presets (the runtimes are only recommended by clang, and this script
    # installs no recommends). prometheus (the server and
    # promtool) and systemd (systemd-analyze): tests/fleet checks /metrics, the alerting rules
    # and the dashboard against them, and verifies the agent's unit file.
    packages+=(openssl clang-format g++-mingw-w64-x86-64-posix yamllint shellcheck
               clang lld libclang-rt-14-dev libfuzzer-14-dev prometheus systemd)
fi

if [[ $with_peers -eq 1 ]]; then
    # The peers run with Debian's python3 (/usr/bin/python3), not another one on PATH. A node
    # that is already installed (another distribution of it may bring its own npm) is kept.
    packages+=(python3-websockets)
    command -v node >/dev/null || command -v nodejs >/dev/null || packages+=(nodejs)
    command -v npm >/dev/null || packages+=(npm)
fi

# npm ci of the pinned ws into bench/peers/node_modules, when it is not there yet.
install_peers() {
    [[ $with_peers -eq 1 ]] || return 0
    [[ -f bench/peers/node_modules/ws/package.json ]] && return 0
    echo "Installing the peers' ws (npm ci in bench/peers)"
    (cd bench/peers && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
    install_peers
    exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "deps.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
install_peers
