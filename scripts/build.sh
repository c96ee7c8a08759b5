#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release) quietly; prints errors only.
# Targets after the preset build only those (scripts/run.sh: the application alone).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
targets=()
[[ $# -gt 0 ]] && targets=(--target "$@")
log="build/${preset}.log"
mkdir -p build
if [[ ! -f "build/${preset}/build.ninja" ]]; then
    # ccache, when installed, keeps a rebuild (another preset, another checkout) cheap.
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    cmake --preset "$preset" "${launcher[@]}" >"$log" 2>&1 || { cat "$log"; exit 1; }
fi
# Without this sloppiness ccache refuses every source that uses the precompiled Qt headers.
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"
jobs=$(nproc 2>/dev/null || echo 2)
cmake --build --preset "$preset" "${targets[@]}" -- -j"$jobs" >"$log" 2>&1 || { grep -E "error|FAILED|warning" "$log" | head -50; echo "build failed, see $log" >&2; exit 1; }
# A target whose macros do not fit the precompiled Qt headers compiles (slowly) without them:
# say so (cmake/StreamScopePrecompiledHeaders.cmake).
grep -F "[-Winvalid-pch]" "$log" | sort -u | head -5 || true
