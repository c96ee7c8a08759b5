#!/usr/bin/env bash
# Catches here what would break the Windows and macOS builds of .github/workflows/release.yml,
# which no machine here can run (docs/install.md, "Platforms"):
# - windows: configures the project for Windows with mingw-w64 (scripts/portability/
#   windows-toolchain.cmake), so that CMake's own rules pick the sources a Windows build
#   compiles (engine, app, ui, replay, harness, tests), runs AUTOMOC with the Windows macros,
#   and compiles every one with -fsyntax-only against the Qt headers: a POSIX header or call
#   outside a platform guard fails, and the Q_OS_WIN branches get compiled. Sources of one
#   command are compiled up to forty at a time (Qt's headers parsed once per batch; a failing
#   batch is compiled again source by source, and only that counts): PORTABILITY_BATCH=1
#   compiles each alone, which also catches an #include a source lacks.
# - guards: no macOS compiler here, so the same sources and the project headers they include
#   are scanned: every Linux-only API (epoll, eventfd, /proc, adjtimex, SIOCINQ...) sits in a
#   Q_OS_LINUX branch with a branch for the others beside it, and POSIX calls that mingw-w64
#   has but MSVC lacks (unistd.h, clock_gettime...) are out of the Windows branches.
# - lint: yamllint over the workflows, shellcheck over scripts/*.sh and the workflows' bash
#   steps.
# Quiet on success but for one summary line; prints what fails otherwise.
#   PORTABILITY_JOBS=N       parallel compiles (default 2)
#   PORTABILITY_ONLY=REGEX   compile only the sources whose path matches (while fixing one)
#   PORTABILITY_BATCH=N      sources per compiler run (default 40)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
for tool in x86_64-w64-mingw32-g++-posix yamllint shellcheck; do
    command -v "$tool" >/dev/null || { echo "check-portability: $tool is not installed (scripts/deps.sh --with-tests)" >&2; exit 1; }
done

build=build/windows-check
log=build/windows-check.log
mkdir -p build
# Reconfigure every time (a few seconds): the source lists are what is being checked.
rm -rf "$build"
if ! nice cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$PWD/scripts/portability/windows-toolchain.cmake" >"$log" 2>&1; then
    cat "$log"
    echo "check-portability: the Windows configuration fails (above)" >&2
    exit 1
fi

status=0
nice /usr/bin/python3 scripts/portability/check.py windows "$build" || status=1
/usr/bin/python3 scripts/portability/check.py guards "$build" || status=1

# The workflows: YAML (.yamllint says why its rules differ from the defaults), then each bash
# step's script, with GitHub's ${{ }} expressions replaced by a placeholder variable.
yamllint --strict .github/workflows/ || status=1
shellcheck scripts/*.sh || status=1
steps=$(mktemp -d)
trap 'rm -rf "$steps"' EXIT
/usr/bin/python3 scripts/portability/workflow_steps.py "$steps" .github/workflows/*.yml
for step in "$steps"/*.sh; do
    [[ -e $step ]] || continue
    shellcheck --shell=bash "$step" || { echo "  (the step $(head -1 "$step" | cut -c3-))"; status=1; }
done
workflow_steps=$(find "$steps" -name '*.sh' | wc -l)

if [[ $status -ne 0 ]]; then
    echo
    echo "check-portability: failed (above) in $((SECONDS - start)) s" >&2
    exit 1
fi
echo "; lint: workflows, $(find scripts -maxdepth 1 -name '*.sh' | wc -l) scripts and $workflow_steps workflow steps clean ($((SECONDS - start)) s)"
