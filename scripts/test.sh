#!/usr/bin/env bash
# Installs what is missing, checks the layering and the formatting, builds with warnings as
# errors, checks what would break the Windows and macOS builds (scripts/check-portability.sh),
# and runs every test with ctest. In CI (CI=true) also builds, lints, installs and runs the
# .deb (scripts/package-check.sh; alone: --package), runs every suite under ASan+UBSan and the
# engine's suites under ThreadSanitizer, and every fuzz target for a few seconds (the fuzzers of
# the ASan build). --sanitize runs the same sanitizer suites, and every fuzz target for 60 s
# (the fuzz preset's, built at -O2).
#
# Time: ctest's suites mostly wait on loopback peers and child processes, so the CPU-bound
# steps that no test needs yet (the package check, the sanitizer and fuzz builds) run beside
# them in the background at the lowest priority (nice 19: a test that wants the CPU gets it);
# the portability check, which needs no build of ours, starts with the first build, and the
# ASan and TSan suites overlap. At the end a table gives each step's wall and CPU (user + sys)
# time.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-}"
ci=0
[[ "${CI:-}" == "true" ]] && ci=1
package=0
[[ $ci -eq 1 || "$mode" == "--package" ]] && package=1
sanitize=0
[[ $ci -eq 1 || "$mode" == "--sanitize" ]] && sanitize=1
jobs=$(nproc 2>/dev/null || echo 2)
timing=build/timing
mkdir -p "$timing"
rm -f "$timing"/*.step
started=$SECONDS

# A step runs in a subshell that records its wall time and the CPU time of everything it ran
# (bash's `times`: the subshell's children) in build/timing/NAME.step.
record() {
    local name=$1 begin=$SECONDS rc=0
    shift
    "$@" || rc=$?
    {
        echo "$name $((begin - started)) $((SECONDS - begin)) $rc"
        times
    } >"$timing/$name.step"
    return "$rc"
}
# step NAME COMMAND...: in the foreground.
step() {
    (record "$@")
}
# concurrent NAME COMMAND...: in the background, output to build/NAME.log, in a process group of
# its own (set -m) so that a failure elsewhere stops all of it; `finish NAME` waits for it.
declare -A pids=()
concurrent() {
    local name=$1
    shift
    set -m
    (record "$name" "$@") >"build/$name.log" 2>&1 &
    pids[$name]=$!
    set +m
}
# background NAME COMMAND...: as concurrent, at nice 19 (a CPU-bound step no test waits for).
background() {
    local name=$1
    shift
    concurrent "$name" nice -n 19 "$@"
}
finish() {
    local name=$1 rc=0
    wait "${pids[$name]}" || rc=$?
    unset "pids[$name]"
    if [[ $rc -ne 0 ]]; then
        cat "build/$name.log"
        echo "$name failed (build/$name.log)" >&2
        exit "$rc"
    fi
    # The step's own summary line, if it prints one.
    [[ -s "build/$name.log" ]] && tail -1 "build/$name.log"
    return 0
}
# The table of every step so far, also when one fails.
summary() {
    local rc=$?
    for pid in "${pids[@]}"; do
        kill -- "-$pid" 2>/dev/null || true
    done
    shopt -s nullglob
    local files=("$timing"/*.step)
    [[ ${#files[@]} -gt 0 ]] || exit "$rc"
    echo
    echo "step                 start   wall    CPU (s; user + sys of everything the step ran)"
    for f in "${files[@]}"; do
        awk 'function s(t) { split(t, a, "m"); return a[1] * 60 + a[2] }
             NR == 1 { name = $1; at = $2; wall = $3; status = ($4 == 0 ? "" : "  failed") }
             NR > 1 { cpu += s($1) + s($2) }
             END { printf "%-20s %5d %6d %6d%s\n", name, at, wall, cpu, status }' "$f"
    done | sort -k2,2n
    echo "total wall: $((SECONDS - started)) s"
    exit "$rc"
}
trap summary EXIT

# Every suite under ASan+UBSan. Memory errors and undefined behaviour fail the run (built with
# -fno-sanitize-recover=all). Every process's sanitizer report also goes to a file of its own
# (a test that runs the application as a child may show only its exit code), and all of them
# are printed after the run.
asan_suite() {
    local reports="$PWD/build/asan-reports" status=0
    rm -rf "$reports" && mkdir -p "$reports"
    STREAMSCOPE_TEST_TIME_FACTOR=10 ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan:log_exe_name=1" \
        UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan:log_exe_name=1" \
        LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
        ctest --test-dir build/asan --output-on-failure --timeout 600 -j"$jobs" || status=$?
    for report in "$reports"/*; do
        [[ -f "$report" ]] || continue
        # Only the statistics of suppressed leaks (lsan.supp) is not a report.
        grep -q -e "ERROR:" -e "WARNING:" -e "runtime error" "$report" || continue
        echo "=== sanitizer report $(basename "$report")"
        head -c 30000 "$report"
    done
    return "$status"
}

step deps scripts/deps.sh --with-tests
step layering scripts/check-layering.sh
step format scripts/check-format.sh
# The portability check needs no build of ours: it runs beside the build and the first ctest
# run, at nice 19, on what CPU they leave.
background portability scripts/check-portability.sh
step build-ci scripts/build.sh ci
export QT_QPA_PLATFORM=offscreen

# Beside the first ctest run: the package check (which installs and runs the .deb) and the
# ASan+UBSan build.
if [[ $package -eq 1 ]]; then
    background package-check scripts/package-check.sh build/ci
fi
if [[ $sanitize -eq 1 ]]; then
    background build-asan scripts/build.sh asan
fi
step ctest-ci ctest --test-dir build/ci --output-on-failure --timeout 300 -j"$jobs"
finish portability
if [[ $package -eq 1 ]]; then
    finish package-check
fi

if [[ $sanitize -eq 1 ]]; then
    finish build-asan
    # Beside the ASan run: the TSan build (the engine's tests only), then the TSan run, which
    # starts as soon as its build is done rather than after the ASan run: both suites mostly
    # wait on loopback peers and timers, and together they use the CPU one alone leaves idle.
    background build-tsan scripts/build.sh tsan
    # The libFuzzer targets (fuzz/README.md): in CI a smoke run of the ASan build's fuzzers that
    # proves they build and run on their seeds, beside the suites (each target runs for its
    # seconds of wall time, so a low priority costs it executions, not time); with --sanitize a
    # minute each, built at -O2, at the end.
    if [[ "$mode" != "--sanitize" ]]; then
        FUZZ_PRESET=asan background fuzz scripts/fuzz.sh 5
    fi
    concurrent ctest-asan asan_suite
    finish build-tsan
    # Qt is not built with TSan: use the plain Unix event dispatcher and suppress Qt internals.
    STREAMSCOPE_TEST_TIME_FACTOR=10 QT_NO_GLIB=1 \
        TSAN_OPTIONS="halt_on_error=1 history_size=7 suppressions=$PWD/tests/sanitizers/tsan.supp" \
        step ctest-tsan ctest --test-dir build/tsan --output-on-failure --timeout 600 -j"$jobs" -L engine
    finish ctest-asan
    if [[ "$mode" == "--sanitize" ]]; then
        step fuzz scripts/fuzz.sh 60
    else
        finish fuzz
    fi
fi
