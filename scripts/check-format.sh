#!/usr/bin/env bash
# Fails when a C++ source differs from what .clang-format makes of it (Debian 12's
# clang-format 14; other versions format a few constructs differently). To fix:
#   clang-format -i $(git ls-files '*.h' '*.cpp')
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check-format: clang-format is not installed (scripts/deps.sh --with-tests)" >&2; exit 1; }
mapfile -t files < <(git ls-files '*.h' '*.cpp')
if ! clang-format --dry-run -Werror "${files[@]}" 2>/tmp/check-format.$$; then
    grep -E '^[^ ].*: (error|warning):' /tmp/check-format.$$ | sed 's/: error: code should be clang-formatted.*//' | sort -u | head -20
    rm -f /tmp/check-format.$$
    echo "check-format: the files above are not formatted; run clang-format -i on them" >&2
    exit 1
fi
rm -f /tmp/check-format.$$
echo "check-format: ${#files[@]} files formatted"
