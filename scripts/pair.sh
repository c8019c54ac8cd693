#!/usr/bin/env bash
# Paired wall-time runs of two commands, taking turns run by run so that a slower spell
# of a shared machine weighs on both alike; each pinned to one core. Prints the fastest
# and the median wall time of each, in milliseconds:
#
#     scripts/pair.sh 7 "old/xpgn check --jobs 1 --format json FILE" \
#                       "target/release/xpgn check --jobs 1 --format json FILE"
#
# RUNS is the first argument; CORE (default 0) the core to pin to. On a quiet machine the
# fastest and the median agree to within 1%, and a difference of 2% between the two
# commands is real; on a loud one, count instructions instead (docs/speed.md).
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: scripts/pair.sh RUNS COMMAND_A COMMAND_B" >&2
    exit 2
fi
runs=$1
core="${CORE:-0}"
times_a=()
times_b=()
ms() {
    local start end
    start=$(date +%s%N)
    taskset -c "$core" bash -c "$1" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}
for _ in $(seq "$runs"); do
    times_a+=("$(ms "$2")")
    times_b+=("$(ms "$3")")
done
summary() {
    local sorted
    sorted=$(printf '%s\n' "$@" | sort -n)
    echo "fastest $(head -1 <<<"$sorted") ms, median $(sed -n "$((($# + 1) / 2))p" <<<"$sorted") ms"
}
echo "A: $(summary "${times_a[@]}")"
echo "B: $(summary "${times_b[@]}")"
