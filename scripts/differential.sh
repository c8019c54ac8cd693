#!/usr/bin/env bash
# Differential check of `xpgn check` against python-chess on the shared corpus; what it
# compares is described in scripts/differential.py. After `cargo build --release`:
#
#     scripts/differential.sh [differential.py options, e.g. --files human.pgn --corrupt 50]
#
# Installs python-chess 1.11.2 from PyPI into target/differential-venv, reused on later
# runs. Exits 0 with "skipped: ..." when python3 or the corpus is absent or pip cannot
# install, so that it can run anywhere; otherwise exits as differential.py does.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/target/differential-venv"

corpus="$root/../shared/corpus/standard"
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[i]}" in
        --corpus) corpus="${args[i + 1]:-}" ;;
        --corpus=*) corpus="${args[i]#--corpus=}" ;;
    esac
done

if ! command -v python3 >/dev/null 2>&1; then
    echo "skipped: python3 not found"
    exit 0
fi
if [ ! -d "$corpus" ]; then
    echo "skipped: corpus $corpus is absent"
    exit 0
fi

# Pinned, so that a python-chess release cannot change the verdicts between runs.
version_ok='import chess, sys; sys.exit(chess.__version__ != "1.11.2")'
if ! "$venv/bin/python" -c "$version_ok" 2>/dev/null; then
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        echo "skipped: python3 -m venv failed (is the python3-venv package installed?)"
        exit 0
    fi
    if ! "$venv/bin/pip" install --quiet --disable-pip-version-check chess==1.11.2; then
        echo "skipped: pip could not install chess==1.11.2"
        exit 0
    fi
fi

exec "$venv/bin/python" "$root/scripts/differential.py" "$@"
