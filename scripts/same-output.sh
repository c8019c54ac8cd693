#!/usr/bin/env bash
# Whether two xpgn binaries print the same (standard output, standard error and exit
# status) for one command on every fixture and corpus file: the check that a change made
# for speed changed nothing else.
#
#     scripts/same-output.sh old/xpgn target/release/xpgn "check --format json --jobs 1"
#
# The corpus is read from ../shared/corpus when it is there. Lists each file that differs;
# exits 1 if any does.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: scripts/same-output.sh BINARY_A BINARY_B \"COMMAND ARGS\"" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
dirs=("$root/fixtures")
if [ -d "$root/../shared/corpus" ]; then
    dirs+=("$root/../shared/corpus")
fi
read -r -a command <<<"$3"
files=0
differ=0
while IFS= read -r -d '' file; do
    files=$((files + 1))
    a=$("$1" "${command[@]}" "$file" 2>&1; echo "exit $?")
    b=$("$2" "${command[@]}" "$file" 2>&1; echo "exit $?")
    if [ "$a" != "$b" ]; then
        differ=$((differ + 1))
        echo "differs: $file"
    fi
done < <(find "${dirs[@]}" -type f \( -name '*.pgn' -o -name '*.txt' -o -name '*.json' \
    -o -name '*.yaml' -o -name '*.yml' -o -name '*.pgn.*' \) -print0 | sort -z)
echo "$3: $files files, $differ differ"
[ "$differ" -eq 0 ]
