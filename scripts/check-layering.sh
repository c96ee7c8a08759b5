#!/usr/bin/env bash
# Checks the project's folder layering (docs/architecture.md, "Targets and folders" and
# "Layers inside the engine"):
# - inside engine/, a folder includes only headers of its own folder or of a folder below it;
# - the other folders include only from the folders below them, and only the engine's public
#   headers (engine/model/, engine/platform/, engine/io/, engine/api/), never simdjson:
#       services/  (alerts, report, signals)  engine
#       replay/    (the replay server)         engine, services
#       ui/        (the desktop app)           engine, services
#       app/       (the executable)            engine, services, replay, ui
#       bench/     (the benchmark)             engine, services, replay
# - no product target (anything outside bench/, tests/ and fuzz/) links a target of bench/.
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
    [model]=0 [io]=0
    [platform]=1
    [stats]=2 [protocol]=2
    [transport]=3 [capture]=3
    [venues]=4
    [session]=5
    [core]=6
    [api]=7
)
public_dirs=(model platform io api)

# What each folder outside the engine may include from (besides its own headers).
declare -A allowed=(
    [services]="engine"
    [replay]="engine services"
    [ui]="engine services"
    [app]="engine services replay ui"
    [bench]="engine services replay"
)
outside=(services replay ui app bench)

# header name -> engine folder, and header name -> top folder (names are unique across them)
declare -A folder_of=()
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
    base=$(basename "$h")
    top=${h%%/*}
    if [[ -n ${top_of[$base]+x} ]]; then
        echo "$h: header name also used in another folder (names must be unique)" >&2
        exit 1
    fi
    top_of[$base]=$top
    if [[ $top == engine ]]; then
        sub=${h#engine/}
        folder_of[$base]=${sub%%/*}
    fi
done < <(find engine "${outside[@]}" -name '*.h' -print0 2>/dev/null)

violations=0
report() {
    echo "$1"
    violations=$((violations + 1))
}

includes() {
    grep -n -o -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$1" | sed -E 's/^([0-9]+):.*"([^"]+)"/\1:\2/' || true
}

# Resolves one quoted include of an engine file to the engine folder it names, or "".
engine_target() {
    local inc=$1 here=$2
    if [[ $inc == */* ]]; then
        local top=${inc%%/*}
        [[ -n ${level[$top]+x} && -e engine/$inc ]] && echo "$top"
        return 0
    fi
    [[ -e engine/$here/$inc ]] && { echo "$here"; return 0; }
    # A bare name found through the public include directories.
    for d in "${public_dirs[@]}"; do
        [[ -e engine/$d/$inc ]] && { echo "$d"; return 0; }
    done
    return 0
}

while IFS= read -r -d '' file; do
    here=$(echo "$file" | cut -d/ -f2)
    while IFS=: read -r line inc; do
        target=$(engine_target "$inc" "$here")
        [[ -z $target || $target == "$here" ]] && continue
        if ((level[$target] >= level[$here])); then
            report "$file:$line: engine/$here/ (level ${level[$here]}) includes \"$inc\" from engine/$target/ (level ${level[$target]}): an include may only run downwards"
        fi
    done < <(includes "$file")
    if [[ $here != protocol ]] && grep -q -E '#[[:space:]]*include[[:space:]]*[<"]simdjson' "$file"; then
        report "$file: includes simdjson outside engine/protocol/"
    fi
done < <(find engine -name '*.h' -o -name '*.cpp' | sort | tr '\n' '\0')

# The folders outside the engine: downwards only, and the engine's public headers only.
while IFS= read -r -d '' file; do
    here=${file%%/*}
    dir=$(dirname "$file")
    while IFS=: read -r line inc; do
        # A header beside the file (or by a path from it) is the folder's own.
        [[ -e $dir/$inc ]] && continue
        base=$(basename "$inc")
        top=${top_of[$base]:-}
        [[ -z $top || $top == "$here" ]] && continue
        if [[ " ${allowed[$here]} " != *" $top "* ]]; then
            report "$file:$line: $here/ includes \"$inc\" from $top/: $here/ may include only from: ${allowed[$here]}"
            continue
        fi
        if [[ $top == engine ]]; then
            target=${folder_of[$base]}
            if [[ $inc == */* || " ${public_dirs[*]} " != *" $target "* ]]; then
                report "$file:$line: includes the engine's private header \"$inc\" (engine/$target/); only engine/model/, platform/, io/ and api/ are public"
            fi
        fi
    done < <(includes "$file")
    if grep -q -E '#[[:space:]]*include[[:space:]]*[<"]simdjson' "$file"; then
        report "$file: includes simdjson, which is private to the engine"
    fi
done < <(find "${outside[@]}" -name '*.h' -o -name '*.cpp' 2>/dev/null | sort | tr '\n' '\0')

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
echo "check-layering: engine folders include downwards only; services/, replay/, ui/, app/, bench/ include downwards and use the engine's public headers; no product target links bench/"
