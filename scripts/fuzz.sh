#!/usr/bin/env bash
# Builds the libFuzzer targets (preset "fuzz": clang, ASan + UBSan, -O2; fuzz/README.md) and runs
# each for SECONDS (default 60) on a working copy of its seed corpus, so that fuzz/corpus/ is
# never grown; crashes, leaks and timeouts are written to build/PRESET/artifacts/, each target's
# output to build/PRESET/logs/. Prints one table: runs, executions per second and coverage
# (libFuzzer's cov: edges and ft: features at the end of the run) per target. Exits 1 if any
# target crashed, leaked, ran out of memory or timed out.
#   scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 600 workspace lineframer
#   FUZZ_PRESET=asan   the fuzzers of the asan preset's build instead (-O0; scripts/test.sh's
#                      smoke run in CI, which builds that preset anyway)
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "usage: $0 [SECONDS] [TARGET...]" >&2; exit 2; }
[[ $# -gt 0 ]] && shift

# Target, then its -max_len: a little over its longest seed, and what its format needs (the
# decoder's prefix path starts at 8 KiB; the head scanner reads 256 bytes).
declare -A max_len=(
    [lineframer]=8192
    [headscanner]=1024
    [messagedecoder]=24576
    [messagebatch]=16384
    [sequencetracker]=2048
    [workspace]=8192
    [websocketframes]=8192
    [wsframereader]=8192
    [httprequesthead]=4096
    [capturereader]=16384
    [replayfile]=16384
    [urlsecrets]=1024
)
# Dictionaries: fuzz/TARGET.dict, or the one named here.
declare -A dict_of=([headscanner]=json [messagedecoder]=json [messagebatch]=json)
order=(lineframer headscanner messagedecoder messagebatch sequencetracker workspace websocketframes wsframereader httprequesthead
       capturereader replayfile urlsecrets)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${order[@]}")
for t in "${targets[@]}"; do
    [[ -n ${max_len[$t]+x} ]] || { echo "fuzz.sh: no target '$t' (one of: ${order[*]})" >&2; exit 2; }
done

preset="${FUZZ_PRESET:-fuzz}"
[[ $preset == fuzz || $preset == asan ]] || { echo "fuzz.sh: FUZZ_PRESET is fuzz or asan, not '$preset'" >&2; exit 2; }
scripts/build.sh "$preset" fuzzers

out="build/$preset"
mkdir -p "$out/artifacts" "$out/logs" "$out/work"
# Leaks fail the run (libFuzzer checks after every input that allocated more than it freed).
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan.supp"

failed=0
rows=()
for t in "${targets[@]}"; do
    work="$out/work/$t"
    rm -rf "$work"
    mkdir -p "$work" "$out/artifacts/$t"
    cp fuzz/corpus/"$t"/* "$work"/
    args=(-max_total_time="$seconds" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048
          -print_final_stats=1 -artifact_prefix="$out/artifacts/$t/")
    dict="fuzz/${dict_of[$t]:-$t}.dict"
    [[ -f $dict ]] && args+=(-dict="$dict")
    log="$out/logs/$t.log"
    rc=0
    started=$SECONDS
    "$out/fuzz/fuzz_$t" "${args[@]}" "$work" >"$log" 2>&1 || rc=$?
    took=$((SECONDS - started))

    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2 || true)
    if [[ $rc -eq 0 ]]; then
        result=ok
    else
        failed=1
        if grep -q 'ERROR: LeakSanitizer' "$log"; then result=leak
        elif grep -q 'ERROR: libFuzzer: timeout' "$log"; then result=timeout
        elif grep -q -E 'ERROR: libFuzzer: out-of-memory|malloc limit' "$log"; then result=oom
        else result=crash
        fi
        result="$result (rc $rc, $log)"
    fi
    rows+=("$(printf '%-16s %11s %8s %6s %7s %5ss  %s' "$t" "${runs:--}" "${rate:--}" "${cov:--}" "${ft:--}" "$took" "$result")")
done

printf '%-16s %11s %8s %6s %7s %6s  %s\n' target runs exec/s cov ft time result
printf '%s\n' "${rows[@]}"
if [[ $failed -ne 0 ]]; then
    echo "fuzz.sh: a target failed; the inputs are in $out/artifacts/ (reproduce: $out/fuzz/fuzz_TARGET FILE)" >&2
    exit 1
fi
