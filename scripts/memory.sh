#!/usr/bin/env bash
# Peak memory (maximum resident set size) of xpgn on a large file made from the shared
# corpus: the standard games repeated until the file reaches SIZE_MB (default 1024).
#
#     scripts/memory.sh [--xpgn PATH] [--size-mb N] [--keep]
#
# The file goes to target/memory/big.pgn and is deleted afterwards unless --keep is
# given (never commit it). Needs GNU time (/usr/bin/time). Prints one line per command:
# the peak RSS in MB and the wall time.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
xpgn="$root/target/release/xpgn"
size_mb=1024
keep=false
while [ $# -gt 0 ]; do
    case "$1" in
        --xpgn) xpgn="$2"; shift 2 ;;
        --size-mb) size_mb="$2"; shift 2 ;;
        --keep) keep=true; shift ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
corpus="$root/../shared/corpus/standard"
[ -x "$xpgn" ] || { echo "build xpgn first (cargo build --release)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "GNU time is needed: apt-get install time" >&2; exit 2; }
[ -d "$corpus" ] || { echo "skipped: corpus $corpus is absent"; exit 0; }

dir="$root/target/memory"
big="$dir/big.pgn"
mkdir -p "$dir"
if [ ! -f "$big" ] || [ "$(stat -c %s "$big")" -lt $((size_mb * 1024 * 1024)) ]; then
    : > "$big"
    while [ "$(stat -c %s "$big")" -lt $((size_mb * 1024 * 1024)) ]; do
        for f in "$corpus"/*.pgn; do
            cat "$f" >> "$big"
            # A file may end without a line break: the next game starts on its own line.
            printf '\n\n' >> "$big"
        done
    done
fi
echo "file: $(($(stat -c %s "$big") / 1024 / 1024)) MB"

measure() {
    local label="$1"
    shift
    # Exit 1 (findings) is expected on the corpus; the numbers are what counts.
    /usr/bin/time -o "$dir/time" -f "%M %e" "$@" > /dev/null 2>&1 || true
    # GNU time puts "Command exited with non-zero status N" before its own line.
    read -r kb seconds < <(tail -n 1 "$dir/time")
    printf '%s: %d MB peak RSS, %s s\n' "$label" $((kb / 1024)) "$seconds"
}

measure "check --jobs 1" "$xpgn" check --quiet --format json --jobs 1 "$big"
measure "check --jobs 2" "$xpgn" check --quiet --format json --jobs 2 "$big"
measure "check (human, all cores)" "$xpgn" check --quiet "$big"
measure "fmt --check" "$xpgn" fmt --check "$big"
measure "convert --to uci" "$xpgn" convert --to uci "$big"

if [ "$keep" = false ]; then
    rm -f "$big" "$dir/time"
fi
