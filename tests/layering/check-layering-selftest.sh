#!/usr/bin/env bash
# Proves that scripts/check-layering.sh catches what it is for: on a copy of the sources it
# passes as they are, and fails on each planted violation: an upward include inside the engine,
# an engine-private header used by the UI, the UI including the app, the product linking a
# benchmark target, the product naming a path under bench/; and for "a venue is one folder":
# a venue including another venue's header, the engine naming a venue's header or its sources
# outside its folder, a scenario source including the engine, a venue folder not listed, a
# listed venue without a folder.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fresh_copy() {
    rm -rf "$work/tree"
    mkdir -p "$work/tree/scripts"
    (cd "$src" && cp -r engine services replay ui app bench CMakeLists.txt "$work/tree/")
    cp "$src/scripts/check-layering.sh" "$work/tree/scripts/"
}

fresh_copy
"$work/tree/scripts/check-layering.sh" >/dev/null || { echo "FAIL: the unchanged sources do not pass"; exit 1; }

failures=0
expect_caught() {
    local what=$1 expected=$2 out
    if out=$("$work/tree/scripts/check-layering.sh" 2>&1); then
        echo "FAIL: not caught: $what"
        failures=$((failures + 1))
    elif ! grep -q -- "$expected" <<<"$out"; then
        echo "FAIL: $what: caught, but the message does not say \"$expected\":"
        echo "$out"
        failures=$((failures + 1))
    else
        echo "ok: caught: $what"
    fi
    fresh_copy
}

echo '#include "api/Engine.h"' >>"$work/tree/engine/model/StreamTypes.cpp"
expect_caught "an upward include (model/ includes api/)" "an include may only run downwards"

ui_file=$(cd "$work/tree" && find ui -name '*.cpp' | sort | head -n 1)
echo '#include "StreamShared.h"' >>"$work/tree/$ui_file"
expect_caught "an engine-private header in ui/" "private header"

echo '#include "AppOptions.h"' >>"$work/tree/$ui_file"
expect_caught "ui/ including the app" "ui/ includes \"AppOptions.h\" from app/"

echo 'target_link_libraries(streamscope PRIVATE streamscope-bench-client)' >>"$work/tree/app/CMakeLists.txt"
expect_caught "the product linking a benchmark target" "the product never links bench/"

echo 'target_sources(streamscope PRIVATE ${PROJECT_SOURCE_DIR}/bench/harness/driver/BenchStats.cpp)' >>"$work/tree/app/CMakeLists.txt"
expect_caught "the product naming a path under bench/" "the product never uses bench/"

echo '#include "venues/betfair/BetfairVenue.h"' >>"$work/tree/engine/venues/binance/BinanceVenue.cpp"
expect_caught "a venue including another venue's header" "a venue's headers are its folder's own"

echo '#include "venues/binance/BinanceVenue.h"' >>"$work/tree/engine/session/StreamSession.cpp"
expect_caught "the session naming a venue's header" "a venue's headers are its folder's own"

echo '#include "venues/VenueHandler.h"' >>"$work/tree/engine/venues/binance/BinanceScenarios.cpp"
expect_caught "a scenario source including the engine" "the venues' scenarios are Qt Core only"

echo '#include "VenueRegistry.h"' >>"$work/tree/replay/ScenarioPool.cpp"
expect_caught "the replay server including the engine's venue registry" "private header"

echo 'target_sources(streamscope_engine PRIVATE venues/binance/BinanceVenue.cpp)' >>"$work/tree/engine/CMakeLists.txt"
expect_caught "the engine's CMake naming a venue's sources" "a venue's sources are listed in its own sources.cmake"

mkdir -p "$work/tree/engine/venues/nosuchvenue" && touch "$work/tree/engine/venues/nosuchvenue/sources.cmake"
expect_caught "a venue folder VenueList.h does not list" "does not list"

sed -i 's/^STREAMSCOPE_VENUE(generic)$/STREAMSCOPE_VENUE(generic)\nSTREAMSCOPE_VENUE(nosuchvenue)/' "$work/tree/engine/venues/VenueList.h"
expect_caught "a listed venue without a folder" "which has no folder"

[[ $failures -eq 0 ]] || exit 1
echo "check-layering catches every planted violation"
