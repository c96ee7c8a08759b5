#!/usr/bin/env bash
# Installs what is missing, builds, and starts StreamScope on the built-in demo (no network
# needed). Extra arguments go to streamscope, e.g. scripts/run.sh --headless --duration 10
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
scripts/build.sh release streamscope
exec build/release/app/streamscope "$@"
