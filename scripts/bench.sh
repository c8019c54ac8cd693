#!/usr/bin/env bash
# Whole-process speed of xpgn on the shared corpus against the reference tools, in one
# run. After `cargo build --release`:
#
#     scripts/bench.sh [CORPUS_DIR]        (default ../shared/corpus/standard)
#
# For each CORPUS_DIR/*.pgn, the median wall time of 5 runs (RUNS=11 for more; STAT=min
# for the fastest run instead), every command taking its turn in each round so that a
# slower spell of a shared machine weighs on all alike:
#
# - `pgn-extract -r -s FILE` (a legality pass) and `xpgn check --jobs 1 --quiet FILE`
#   (every check on, every diagnostic printed), and xpgn's peak resident memory;
# - the pgn-reader + shakmaty validator of the shared anchors (ANCHOR, default
#   /tmp/anchor/release/anchor-validate; left out with a message where it is not built);
# - `xpgn check --format json`, `lint --format json` and `fmt`, one core: lint's and
#   fmt's times over check's;
# - `xpgn check --jobs 2` on two cores, and the machine's own ceiling for two cores: two
#   `check --jobs 1` side by side, one pinned to each core (on a VM whose two cores share
#   a physical one, or whose host is busy, two processes do not run at twice one's
#   speed, and no `--jobs 2` can either);
# - then `xpgn perft` against Fairy-Stockfish's on the start positions of standard chess,
#   Capablanca and Grand Chess (and xpgn's alone on Secret Invisible Pass Chess and Event
#   Chess), each program's start taken off; xpgn alone where Fairy-Stockfish is absent.
#
# One-core runs are pinned to core 0 with taskset. Set XPGN to time another binary.
# Skips with a message when the corpus or pgn-extract (Debian package pgn-extract) is
# absent. Prints two Markdown tables.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="${1:-$root/../shared/corpus/standard}"
xpgn="${XPGN:-$root/target/release/xpgn}"
anchor="${ANCHOR:-/tmp/anchor/release/anchor-validate}"
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
if ! command -v taskset >/dev/null 2>&1; then
    echo "skipped: taskset not found (package util-linux), needed to compare one core with one"
    exit 0
fi
if [ ! -x "$xpgn" ]; then
    echo "error: $xpgn not found; build it with cargo build --release" >&2
    exit 2
fi
if [ ! -x "$anchor" ]; then
    echo "note: no anchor at $anchor; build it as ../shared/anchors/README.md says, or set ANCHOR" >&2
    anchor=""
fi
two_cores=false
if [ "$(nproc)" -ge 2 ]; then
    two_cores=true
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# Runs a command once on the cores named by $1; prints its wall milliseconds and peak
# KiB. Every tool exits non-zero when it finds something, which is not a failure here.
time_once() {
    local cores="$1" start end
    shift
    start=$(date +%s%N)
    /usr/bin/time -f %M -o "$tmp/rss" taskset -c "$cores" "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo "$(((end - start) / 1000000)) $(tail -n 1 "$tmp/rss")"
}

# Wall milliseconds of two `check --jobs 1` at once, one on each of the first two cores.
side_by_side() {
    local start end
    start=$(date +%s%N)
    taskset -c 0 "$xpgn" check --jobs 1 --quiet "$1" >/dev/null 2>&1 &
    taskset -c 1 "$xpgn" check --jobs 1 --quiet "$1" >/dev/null 2>&1 || true
    wait || true
    end=$(date +%s%N)
    echo "$(((end - start) / 1000000))"
}

# The median run, or with STAT=min the fastest (steadier on a shared machine, whose
# neighbours only ever add time).
pick() {
    if [ "${STAT:-median}" = min ]; then
        sort -n | head -n 1
    else
        sort -n | sed -n "$((runs / 2 + 1))p"
    fi
}

# Appends one run's wall milliseconds to the list named $1.
record() {
    local name="$1" wall
    shift
    read -r wall _ < <(time_once "$@")
    echo "$wall" >>"$tmp/$name"
}

echo "| file | MB | pgn-extract s | anchor s | check s | pgn-extract / check | check / anchor | lint / check json | fmt / check json | --jobs 2 speedup | two-core ceiling | peak MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for file in "$corpus"/*.pgn; do
    cat "$file" >/dev/null # read once so that no tool pays for a cold page cache
    rm -f "$tmp"/{pe,an,check,json,lint,fmt,jobs2,pair,peak}
    for ((run = 0; run < runs; run++)); do
        record pe 0 "$pgn_extract" -r -s "$file"
        if [ -n "$anchor" ]; then
            record an 0 "$anchor" "$file"
        fi
        read -r wall peak < <(time_once 0 "$xpgn" check --jobs 1 --quiet "$file")
        echo "$wall" >>"$tmp/check"
        echo "$peak" >>"$tmp/peak"
        record json 0 "$xpgn" check --jobs 1 --format json "$file"
        record lint 0 "$xpgn" lint --jobs 1 --format json "$file"
        record fmt 0 "$xpgn" fmt --jobs 1 "$file"
        if $two_cores; then
            record jobs2 0,1 "$xpgn" check --jobs 2 --quiet "$file"
            side_by_side "$file" >>"$tmp/pair"
        fi
    done
    med() { if [ -s "$tmp/$1" ]; then pick <"$tmp/$1"; else echo 0; fi; }
    awk -v name="$(basename "$file")" -v size="$(stat -c %s "$file")" \
        -v pe="$(med pe)" -v an="$(med an)" -v check="$(med check)" -v json="$(med json)" -v lint="$(med lint)" \
        -v fmt="$(med fmt)" -v jobs2="$(med jobs2)" -v pair="$(med pair)" \
        -v peak="$(med peak)" 'function ratio(a, b) { return b > 0 && a > 0 ? sprintf("%.2f", a / b) : "-" }
        BEGIN {
        printf "| %s | %.1f | %.2f | %s | %.2f | %s | %s | %s | %s | %s | %s | %.1f |\n",
            name, size / 1e6, pe / 1000, (an > 0 ? sprintf("%.2f", an / 1000) : "-"),
            check / 1000, ratio(pe, check), ratio(check, an), ratio(lint, json),
            ratio(fmt, json), ratio(check, jobs2), ratio(2 * check, pair),
            peak * 1024 / 1e6
    }'
done
echo
echo "${STAT:-median} of $runs runs each, the commands taking turns, wall time of the whole process;"
echo "check is check --quiet, as pgn-extract -r -s and the anchor print next to nothing."
echo "one core is taskset -c 0, two are -c 0,1. \"two-core ceiling\": twice one check's time"
echo "over that of two run side by side, one on each core (what two cores give at best here)."

# Perft against Fairy-Stockfish (FAIRY, default: fairy-stockfish on the PATH or
# /usr/games/fairy-stockfish; Debian package fairy-stockfish): the same start positions at
# the same depths, one core, each program's own start (the same command at depth 1) taken
# off. The 10x10 Secret Invisible Pass Chess and Event Chess are xpgn's alone.
fairy="${FAIRY:-$(command -v fairy-stockfish || true)}"
if [ -z "$fairy" ] && [ -x /usr/games/fairy-stockfish ]; then
    fairy=/usr/games/fairy-stockfish
fi
fairy_perft() {
    printf 'uci\nsetoption name UCI_Variant value %s\nposition startpos\ngo perft %s\nquit\n' "$1" "$2" |
        taskset -c 0 "$fairy" >/dev/null 2>&1
}
# Wall milliseconds of a command, run once, its output dropped.
wall_of() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo "$(((end - start) / 1000000))"
}
echo
echo "| variant | depth | leaves | xpgn perft s | Fairy-Stockfish s | Fairy-Stockfish / xpgn |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
while read -r variant fairy_name depth events; do
    events_args=()
    if [ -n "$events" ]; then
        events_args=(--events "$events")
    fi
    leaves="$("$xpgn" perft --variant "$variant" "${events_args[@]}" --depth "$depth" | tail -n 1)"
    rm -f "$tmp"/{xp,xp_start,fs,fs_start}
    for ((run = 0; run < runs; run++)); do
        wall_of taskset -c 0 "$xpgn" perft --variant "$variant" "${events_args[@]}" --depth 1 >>"$tmp/xp_start"
        wall_of taskset -c 0 "$xpgn" perft --variant "$variant" "${events_args[@]}" --depth "$depth" >>"$tmp/xp"
        if [ -n "$fairy" ] && [ "$fairy_name" != - ]; then
            wall_of fairy_perft "$fairy_name" 1 >>"$tmp/fs_start"
            wall_of fairy_perft "$fairy_name" "$depth" >>"$tmp/fs"
        fi
    done
    # The start and the whole run each picked on its own, then subtracted: Fairy-Stockfish
    # starts in 0.1 s to 0.4 s, more than its standard perft 5 takes, and the fastest of
    # the runs' differences was then below zero.
    xp=$(($(pick <"$tmp/xp") - $(pick <"$tmp/xp_start")))
    fs=0
    if [ -s "$tmp/fs" ]; then
        fs=$(($(pick <"$tmp/fs") - $(pick <"$tmp/fs_start")))
    fi
    awk -v variant="$variant${events:+ ($events)}" -v depth="$depth" -v leaves="$leaves" \
        -v xp="$xp" -v fs="$fs" 'BEGIN {
        printf "| %s | %d | %s | %.2f | %s | %s |\n", variant, depth, leaves, xp / 1000,
            (fs > 0 ? sprintf("%.2f", fs / 1000) : "-"),
            (fs > 0 && xp > 0 ? sprintf("%.1f", fs / xp) : "-")
    }'
done <<'VARIANTS'
standard chess 5
capablanca capablanca 5
grand grand 4
secret-invisible-pass - 4
event-chess - 4 5,43
VARIANTS
if [ -z "$fairy" ]; then
    echo
    echo "Fairy-Stockfish not found (apt-get install fairy-stockfish, or set FAIRY): xpgn alone."
fi
echo
echo "${STAT:-median} of $runs runs each, one core; each program's start (the ${STAT:-median} of its depth-1 runs) taken off."
