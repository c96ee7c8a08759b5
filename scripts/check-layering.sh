#!/usr/bin/env bash
# Checks the project's folder layering (docs/architecture.md, "Targets and folders" and
# "Layers inside the engine"):
# - inside engine/, a folder includes only headers of its own folder or of a folder below it;
# - the other folders include only from the folders below them, and only the engine's public
#   headers (engine/model/, engine/platform/, engine/io/, engine/eventloop/, engine/api/), never
#   simdjson:
#       services/  (alerts, report, signals)  engine
#       replay/    (the replay server)         engine, services
#       ui/        (the desktop app)           engine, services
#       app/       (the executable)            engine, services, replay, ui
#       bench/     (the benchmark)             engine, services, replay
# - no product target (anything outside bench/, tests/ and fuzz/) links a target of bench/;
# - a venue is one folder (docs/architecture.md, "Adding a venue"): every folder of
#   engine/venues/ but scenario/ is listed in engine/venues/VenueList.h and every listed venue
#   has its folder; a venue's headers are included only from its own folder, and no CMake file
#   outside the folder names it; the venues' scenario sources (venues/scenario/ and every
#   *Scenarios.cpp) include nothing of the engine but venues/scenario/ and VenueList.h, since
#   they form the Qt-Core-only library the replay server links; replay/ and bench/ may include
#   those scenario headers besides the engine's public ones.
# tests/ and fuzz/ are not checked: they test the engine's private parts through
# StreamScope::EngineInternals, which gives them its private headers on purpose.
# Usage: check-layering.sh [ROOT] (default: the repository). Prints every violation as
# FILE:LINE: what; exits 1 if there is any, 0 otherwise.
set -euo pipefail
root=${1:-"$(dirname "$0")/.."}
cd "$root"

# Level of each engine folder: a folder may include its own level's headers only from
# itself, and any lower level's.
declare -A level=(
    [model]=0 [io]=0 [eventloop]=0
    [platform]=1
    [stats]=2 [protocol]=2 [book]=2
    [transport]=3 [capture]=3
    [venues]=4
    [session]=5
    [core]=6
    [api]=7
)
public_dirs=(model platform io eventloop api)
# The venues' scenario library (StreamScope::VenueScenarios): its public headers.
scenario_dir=venues/scenario

# What each folder outside the engine may include from (besides its own headers).
declare -A allowed=(
    [services]="engine"
    [replay]="engine services"
    [ui]="engine services"
    [app]="engine services replay ui"
    [bench]="engine services replay"
)
outside=(services replay ui app bench)
# The folders outside the engine that may include the venues' scenario headers.
declare -A uses_scenarios=([replay]=1 [bench]=1)

# header name -> engine folder, and header name -> top folder (names are unique across them)
declare -A folder_of=()
declare -A dir_of=()
declare -A top_of=()
for dir in engine/*/; do
    name=${dir#engine/}
    name=${name%/}
    if [[ -z ${level[$name]+x} ]]; then
        echo "engine/$name/: a folder the layering does not know; give it a level in $0" >&2
        exit 1
    fi
done
while IFS= read -r -d '' h; do
    base=${h##*/}
    top=${h%%/*}
    if [[ -n ${top_of[$base]+x} ]]; then
        echo "$h: header name also used in another folder (names must be unique)" >&2
        exit 1
    fi
    top_of[$base]=$top
    if [[ $top == engine ]]; then
        sub=${h#engine/}
        folder_of[$base]=${sub%%/*}
        dir_of[$base]=${sub%/*}
    fi
done < <(find engine "${outside[@]}" -name '*.h' -print0 2>/dev/null)

# Every quoted include of the files given on stdin (NUL-separated), as FILE:LINE:NAME lines
# grouped by file in their order: one grep for all of them (a process per file made the check
# slow on a busy machine).
includes_of() {
    xargs -0 -r grep -H -n -o -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' |
        sed -E 's/^([^:]+):([0-9]+):.*"([^"]+)"/\1:\2:\3/' || true
}
# The files given on stdin (NUL-separated) that include simdjson, one per line.
simdjson_users() {
    xargs -0 -r grep -l -E '#[[:space:]]*include[[:space:]]*[<"]simdjson' || true
}

# Resolves one quoted include of an engine file to the header's path under engine/ in
# $resolved ("" when it is not the engine's); sets a variable rather than printing, so that no
# subshell runs per include.
engine_include() {
    local inc=$1 file=$2 here=$3 d
    local dir=${file%/*}
    resolved=""
    if [[ $inc == */* ]]; then
        if [[ -e engine/$inc ]]; then resolved=$inc; elif [[ -e $dir/$inc ]]; then resolved=${dir#engine/}/$inc; fi
        return 0
    fi
    [[ -e $dir/$inc ]] && { resolved=${dir#engine/}/$inc; return 0; }
    [[ -e engine/$here/$inc ]] && { resolved=$here/$inc; return 0; }
    # A bare name found through the public include directories (or the scenario library's).
    for d in "${public_dirs[@]}" "$scenario_dir" venues; do
        [[ -e engine/$d/$inc ]] && { resolved=$d/$inc; return 0; }
    done
    return 0
}

# The venue folders (every folder of engine/venues/ but the scenario library's) and the list.
venue_folders=()
for dir in engine/venues/*/; do
    name=${dir#engine/venues/}
    name=${name%/}
    [[ venues/$name == "$scenario_dir" ]] && continue
    venue_folders+=("$name")
done
mapfile -t listed < <(sed -n -E 's/^STREAMSCOPE_VENUE\(([a-z0-9_]+)\).*/\1/p' engine/venues/VenueList.h 2>/dev/null)
violations=0
report() {
    echo "$1"
    violations=$((violations + 1))
}
for name in "${venue_folders[@]}"; do
    [[ " ${listed[*]} " == *" $name "* ]] ||
        report "engine/venues/$name/: a venue folder that engine/venues/VenueList.h does not list (add STREAMSCOPE_VENUE($name))"
    [[ -e engine/venues/$name/sources.cmake ]] ||
        report "engine/venues/$name/: no sources.cmake (the venue's source list, read by engine/venues/venues.cmake)"
done
for name in "${listed[@]}"; do
    [[ -d engine/venues/$name ]] || report "engine/venues/VenueList.h: lists \"$name\", which has no folder engine/venues/$name/"
done

engine_files() { find engine \( -name '*.h' -o -name '*.cpp' \) -print0 | sort -z; }
while IFS=: read -r file line inc; do
    rel=${file#engine/}
    here=${rel%%/*}
    # The venue folder the file is in ("" outside one), and whether it belongs to the scenario library.
    venue=""
    if [[ $rel == venues/*/* && $rel != "$scenario_dir"/* ]]; then
        venue=${rel#venues/}
        venue=${venue%%/*}
    fi
    scenario_side=0
    [[ $rel == "$scenario_dir"/* || $file == *Scenarios.cpp ]] && scenario_side=1
    engine_include "$inc" "$file" "$here"
    path=$resolved
    [[ -z $path ]] && continue
    if ((scenario_side)) && [[ $path != "$scenario_dir"/* && $path != venues/VenueList.h ]]; then
        report "$file:$line: includes \"$inc\" (engine/$path): the venues' scenarios are Qt Core only (StreamScope::VenueScenarios, linked by the replay server); they include only $scenario_dir/ and VenueList.h"
        continue
    fi
    if [[ $path == venues/*/* && $path != "$scenario_dir"/* ]]; then
        owner=${path#venues/}
        owner=${owner%%/*}
        if [[ $owner != "$venue" ]]; then
            report "$file:$line: includes \"$inc\" from engine/venues/$owner/: a venue's headers are its folder's own (the rest of the engine reaches a venue through VenueRegistry)"
            continue
        fi
    fi
    target=${path%%/*}
    [[ -z ${level[$target]+x} || $target == "$here" ]] && continue
    if ((level[$target] >= level[$here])); then
        report "$file:$line: engine/$here/ (level ${level[$here]}) includes \"$inc\" from engine/$target/ (level ${level[$target]}): an include may only run downwards"
    fi
done < <(engine_files | includes_of)
while IFS= read -r file; do
    [[ $file == engine/protocol/* ]] || report "$file: includes simdjson outside engine/protocol/"
done < <(engine_files | simdjson_users)

# A venue's sources are listed by its own folder (sources.cmake), never by another CMake file.
while IFS= read -r -d '' cmake; do
    for name in "${venue_folders[@]}"; do
        [[ $cmake == ./engine/venues/$name/* ]] && continue
        while IFS=: read -r line _; do
            report "$cmake:$line: names engine/venues/$name/: a venue's sources are listed in its own sources.cmake"
        done < <(grep -n -E "(^|[^A-Za-z0-9_])venues/$name/" "$cmake" || true)
    done
done < <(find . \( -name CMakeLists.txt -o -name '*.cmake' \) -not -path './tests/*' -not -path './fuzz/*' \
    -not -path './build*' -print0)

# The folders outside the engine: downwards only, and the engine's public headers only.
outside_files() { find "${outside[@]}" \( -name '*.h' -o -name '*.cpp' \) -print0 2>/dev/null | sort -z; }
while IFS=: read -r file line inc; do
    here=${file%%/*}
    dir=${file%/*}
    # A header beside the file (or by a path from it) is the folder's own.
    [[ -e $dir/$inc ]] && continue
    base=${inc##*/}
    top=${top_of[$base]:-}
    [[ -z $top || $top == "$here" ]] && continue
    if [[ " ${allowed[$here]} " != *" $top "* ]]; then
        report "$file:$line: $here/ includes \"$inc\" from $top/: $here/ may include only from: ${allowed[$here]}"
        continue
    fi
    if [[ $top == engine ]]; then
        target=${folder_of[$base]}
        [[ $inc != */* && ${dir_of[$base]} == "$scenario_dir" && -n ${uses_scenarios[$here]+x} ]] && continue
        if [[ $inc == */* || " ${public_dirs[*]} " != *" $target "* ]]; then
            report "$file:$line: includes the engine's private header \"$inc\" (engine/$target/); only engine/model/, platform/, io/, eventloop/ and api/ are public"
        fi
    fi
done < <(outside_files | includes_of)
while IFS= read -r file; do
    report "$file: includes simdjson, which is private to the engine"
done < <(outside_files | simdjson_users)

# No product target links the benchmark: the targets bench/ defines (and their aliases) are
# named by no CMake file outside bench/, tests/ and fuzz/.
mapfile -t bench_targets < <(find bench -name CMakeLists.txt -print0 | xargs -0 -r cat |
    grep -o -E '^[[:space:]]*(qt_add_executable|qt_add_library|add_executable|add_library)\([[:space:]]*[A-Za-z0-9_:.-]+' |
    sed -E 's/.*\([[:space:]]*//' | sort -u)
while IFS= read -r -d '' cmake; do
    for t in "${bench_targets[@]}"; do
        while IFS=: read -r line _; do
            report "$cmake:$line: names the benchmark's target $t: the product never links bench/"
        done < <(grep -n -E "(^|[^A-Za-z0-9_:.-])${t//./\\.}([^A-Za-z0-9_:.-]|$)" "$cmake" | grep -v -E '^[0-9]+:[[:space:]]*(#|option\()' || true)
    done
    while IFS=: read -r line _; do
        report "$cmake:$line: names a path under bench/: the product never uses bench/"
    done < <(grep -n -E '(\$\{[A-Za-z_]*SOURCE_DIR\}|\.\.)/bench/' "$cmake" || true)
done < <(find . -name CMakeLists.txt -not -path './bench/*' -not -path './tests/*' -not -path './fuzz/*' \
    -not -path './build*' -print0)

if ((violations > 0)); then
    echo "check-layering: $violations violation(s)" >&2
    exit 1
fi
echo "check-layering: engine folders include downwards only; a venue is one listed folder; the venues' scenarios are Qt Core only; services/, replay/, ui/, app/, bench/ include downwards and use the engine's public headers; no product target links bench/"
