#!/usr/bin/env bash
# Installs what is missing, checks the layering and the formatting, builds with warnings as
# errors, checks what would break the Windows and macOS builds (scripts/check-portability.sh),
# and runs every test with ctest; in CI also under ASan+UBSan, and every fuzz target for a
# few seconds. With --sanitize also runs the suites under ASan+UBSan, the engine under TSan,
# and every fuzz target for 60 s.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh --with-tests
scripts/check-layering.sh
scripts/check-format.sh
scripts/build.sh ci
scripts/check-portability.sh
export QT_QPA_PLATFORM=offscreen
# In CI (root, a throw-away machine) also build the .deb, lint it, install it and run it.
if [[ "${CI:-}" == "true" || "${1:-}" == "--package" ]]; then
    scripts/package-check.sh build/ci >build/package-check.log 2>&1 || { cat build/package-check.log; exit 1; }
    echo "package check passed (build/package-check.log)"
fi
ctest --test-dir build/ci --output-on-failure --timeout 300 -j"$(nproc 2>/dev/null || echo 2)"
# Memory errors and undefined behaviour fail the run: in CI and with --sanitize every suite also
# runs under ASan+UBSan (built with -fno-sanitize-recover=all); --sanitize adds the engine's
# suites under TSan.
if [[ "${CI:-}" == "true" || "${1:-}" == "--sanitize" ]]; then
    scripts/build.sh asan
    # Every process's sanitizer report also goes to a file of its own (a test that runs the
    # application as a child may show only its exit code), and all of them are printed here.
    reports="$PWD/build/asan-reports"
    rm -rf "$reports" && mkdir -p "$reports"
    status=0
    STREAMSCOPE_TEST_TIME_FACTOR=10 ASAN_OPTIONS="detect_leaks=1:log_path=$reports/asan:log_exe_name=1" \
        UBSAN_OPTIONS="print_stacktrace=1:log_path=$reports/ubsan:log_exe_name=1" \
        LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp" \
        ctest --test-dir build/asan --output-on-failure --timeout 600 -j"$(nproc 2>/dev/null || echo 2)" || status=$?
    for report in "$reports"/*; do
        [[ -f "$report" ]] || continue
        # Only the statistics of suppressed leaks (lsan.supp) is not a report.
        grep -q -e "ERROR:" -e "WARNING:" -e "runtime error" "$report" || continue
        echo "=== sanitizer report $(basename "$report")"
        head -c 30000 "$report"
    done
    [[ $status -eq 0 ]] || exit "$status"
fi
if [[ "${1:-}" == "--sanitize" ]]; then
    scripts/build.sh tsan
    # Qt is not built with TSan: use the plain Unix event dispatcher and suppress Qt internals.
    STREAMSCOPE_TEST_TIME_FACTOR=10 QT_NO_GLIB=1 \
        TSAN_OPTIONS="halt_on_error=1 history_size=7 suppressions=$PWD/tests/sanitizers/tsan.supp" \
        ctest --test-dir build/tsan --output-on-failure --timeout 600 -L engine
fi
# The libFuzzer targets (fuzz/README.md): in CI a smoke run that proves they build and run on
# their seeds (about 3 minutes with the build); with --sanitize a minute each.
if [[ "${1:-}" == "--sanitize" ]]; then
    scripts/fuzz.sh 60
elif [[ "${CI:-}" == "true" ]]; then
    scripts/fuzz.sh 5
fi
