#!/usr/bin/env bash
# Checks the engine's folder pyramid and its public face (docs/architecture.md, "Layers"):
# - an engine folder includes only headers of its own folder or of a folder below it;
# - ui/, app/ and bench/ include only the engine's public headers (engine/model/, engine/api/),
#   and never simdjson.
# tests/ and fuzz/ are not checked: they test the engine's private parts through
# StreamScope::EngineInternals, which gives them its private headers on purpose.
# Prints every violation as FILE:LINE: what; exits 1 if there is any, 0 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

# Level of each engine folder: a folder may include its own level's headers only from
# itself, and any lower level's.
declare -A level=(
    [model]=0
    [stats]=1 [protocol]=1
    [transport]=2 [capture]=2
    [venues]=3
    [session]=4
    [core]=5
    [api]=6
)
public_dirs=(model api)

# engine header name -> folder (names are unique across the engine's folders)
declare -A folder_of=()
for dir in engine/*/; do
    name=${dir#engine/}
    name=${name%/}
    if [[ -z ${level[$name]+x} ]]; then
        echo "engine/$name/: a folder the layering does not know; give it a level in $0" >&2
        exit 1
    fi
    for h in "$dir"*.h; do
        [[ -e $h ]] || continue
        base=$(basename "$h")
        if [[ -n ${folder_of[$base]+x} ]]; then
            echo "$h: header name also used in engine/${folder_of[$base]}/ (names must be unique)" >&2
            exit 1
        fi
        folder_of[$base]=$name
    done
done

violations=0
report() {
    echo "$1"
    violations=$((violations + 1))
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
    done < <(grep -n -o -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$file" | sed -E 's/^([0-9]+):.*"([^"]+)"/\1:\2/')
    if [[ $here != protocol ]] && grep -q -E '#[[:space:]]*include[[:space:]]*[<"]simdjson' "$file"; then
        report "$file: includes simdjson outside engine/protocol/"
    fi
done < <(find engine -name '*.h' -o -name '*.cpp' | sort | tr '\n' '\0')

# Users of the engine: public headers only.
while IFS= read -r -d '' file; do
    while IFS=: read -r line inc; do
        base=$(basename "$inc")
        # Their own headers (ui/Format.h, bench/replay/...) are not the engine's.
        dir=$(dirname "$file")
        [[ -e $dir/$inc ]] && continue
        target=${folder_of[$base]:-}
        [[ -z $target ]] && continue
        if [[ $inc == */* || " ${public_dirs[*]} " != *" $target "* ]]; then
            report "$file:$line: includes the engine's private header \"$inc\" (engine/$target/); only engine/model/ and engine/api/ are public"
        fi
    done < <(grep -n -o -E '^[[:space:]]*#[[:space:]]*include[[:space:]]+"[^"]+"' "$file" | sed -E 's/^([0-9]+):.*"([^"]+)"/\1:\2/')
    if grep -q -E '#[[:space:]]*include[[:space:]]*[<"]simdjson' "$file"; then
        report "$file: includes simdjson, which is private to the engine"
    fi
done < <(find ui app bench -name '*.h' -o -name '*.cpp' 2>/dev/null | sort | tr '\n' '\0')

if ((violations > 0)); then
    echo "check-layering: $violations violation(s)" >&2
    exit 1
fi
echo "check-layering: engine folders include downwards only; ui/, app/, bench/ use the public headers"
