#!/usr/bin/env bash
# One-core whole-process speed of `xpgn check` against pgn-extract on the shared corpus.
# After `cargo build --release`:
#
#     scripts/bench.sh [CORPUS_DIR]        (default ../shared/corpus/standard)
#
# For each CORPUS_DIR/*.pgn, the median wall time of 5 runs (RUNS=11 for more) of
# `pgn-extract -r -s FILE` (a legality pass, no output) and of `xpgn check --jobs 1
# --quiet FILE` (every check on, every diagnostic printed, as a user runs it), the two
# taking turns,
# and xpgn's peak resident memory; prints a Markdown table. Both are pinned to core 0
# with taskset when it exists, so the numbers compare one core with one core. Set XPGN
# to time another binary. Skips with a message when the corpus or pgn-extract (Debian
# package pgn-extract) is absent.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${1:-$root/../shared/corpus/standard}"
xpgn="${XPGN:-$root/target/release/xpgn}"
runs="${RUNS:-5}"

if ! compgen -G "$corpus/*.pgn" >/dev/null; then
    echo "skipped: no .pgn files in $corpus"
    exit 0
fi
pgn_extract="$(command -v pgn-extract || true)"
if [ -z "$pgn_extract" ] && [ -x /usr/games/pgn-extract ]; then
    pgn_extract=/usr/games/pgn-extract
fi
if [ -z "$pgn_extract" ]; then
    echo "skipped: pgn-extract not found (apt-get install pgn-extract)"
    exit 0
fi
if [ ! -x /usr/bin/time ]; then
    echo "skipped: /usr/bin/time not found (apt-get install time), needed for peak memory"
    exit 0
fi
if [ ! -x "$xpgn" ]; then
    echo "error: $xpgn not found; build it with cargo build --release" >&2
    exit 2
fi

pin=()
if command -v taskset >/dev/null 2>&1; then
    pin=(taskset -c 0)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Runs a command once; prints its wall milliseconds and peak KiB. Both tools exit
# non-zero when they find something, which is not a failure here.
time_once() {
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f %M -o "$tmp/rss" "${pin[@]}" "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo "$(((end - start) / 1000000)) $(tail -n 1 "$tmp/rss")"
}

median() {
    sort -n | sed -n "$((runs / 2 + 1))p"
}

echo "| file | size MB | pgn-extract s | xpgn s | ratio | xpgn peak MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for file in "$corpus"/*.pgn; do
    cat "$file" >/dev/null # read once so that no tool pays for a cold page cache
    # The two tools take turns, so that a slower spell of a shared machine weighs on
    # both alike.
    pe_walls=() xp_walls=() xp_peaks=()
    for ((run = 0; run < runs; run++)); do
        read -r wall _ < <(time_once "$pgn_extract" -r -s "$file")
        pe_walls+=("$wall")
        read -r wall peak < <(time_once "$xpgn" check --jobs 1 --quiet "$file")
        xp_walls+=("$wall")
        xp_peaks+=("$peak")
    done
    pe=$(printf '%s\n' "${pe_walls[@]}" | median)
    xp=$(printf '%s\n' "${xp_walls[@]}" | median)
    peak=$(printf '%s\n' "${xp_peaks[@]}" | median)
    awk -v name="$(basename "$file")" -v size="$(stat -c %s "$file")" \
        -v pe="$pe" -v xp="$xp" -v peak="$peak" 'BEGIN {
        printf "| %s | %.1f | %.2f | %.2f | %.1f | %.1f |\n",
            name, size / 1e6, pe / 1000, xp / 1000, (xp > 0 ? pe / xp : 0), peak * 1024 / 1e6
    }'
done
echo
echo "Median of $runs runs each, the tools taking turns, wall time of the whole process${pin:+, pinned with ${pin[*]}};"
echo "ratio is pgn-extract / xpgn."
