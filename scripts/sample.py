#!/usr/bin/env python3
"""Every STEP-th game of a PGN file, to standard output: a sample that keeps the file's
mix of games, for counting instructions with callgrind on a few MB instead of the whole
file (the head of a file is no sample: openings.pgn starts with 14,000 four-ply games
and ends with 198,000 tagless lines of a dozen plies).

    scripts/sample.py ../shared/corpus/standard/openings.pgn 13 > /tmp/openings-sample.pgn

A game starts at a line beginning with `[` after a blank line (or at the file start).
"""

import re
import sys


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    path, step = sys.argv[1], int(sys.argv[2])
    with open(path, "rb") as f:
        data = f.read()
    starts = [0] + [m.end() for m in re.finditer(rb"\r?\n[ \t]*\r?\n(?=\[)", data)]
    starts.append(len(data))
    out = sys.stdout.buffer
    for k in range(0, len(starts) - 1, step):
        out.write(data[starts[k] : starts[k + 1]])
    return 0


if __name__ == "__main__":
    sys.exit(main())
