#!/usr/bin/env python3
"""Independent perft for Event Chess with event #86 No checks allowed running from the start.

A cross-check of xpgn's #86 moves, written from the rules text (the catalogue's entry and
rulings NC-1..NC-6 in docs/rules/event-86-no-checks-allowed.md) on top of python-chess,
sharing no code with xpgn:

- NC-1..NC-4: a move that is legal in orthodox chess stays legal only if, afterwards, the
  opponent is not in check, or is in check with no legal move under these same rules
  (checkmate). Discovered and double checks are checks.
- NC-6: mate tests nest at most 4 deep; a check whose test would nest deeper counts as no
  mate, so the move is illegal.

Usage:

    no_checks_perft.py tests/data/perft/no-checks.perft     # recompute every count
    no_checks_perft.py --fen FEN --depth D [--divide]       # one count
"""

import argparse
import sys

import chess

MOST_NESTED = 4


def legal_moves(board, nested=0):
    out = []
    for mv in board.legal_moves:
        board.push(mv)
        ok = True
        if board.is_check():
            ok = nested < MOST_NESTED and not legal_moves(board, nested + 1)
        board.pop()
        if ok:
            out.append(mv)
    return out


def perft(board, depth):
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    total = 0
    for mv in moves:
        board.push(mv)
        total += perft(board, depth - 1)
        board.pop()
    return total


def check_file(path):
    bad = 0
    fen = None
    for line in open(path):
        line = line.strip()
        if line.startswith("fen "):
            fen = line[4:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            mine = perft(chess.Board(fen), int(depth))
            ok = mine == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file) else 0)
    board = chess.Board(a.fen)
    if a.divide:
        for mv in sorted(legal_moves(board), key=lambda m: m.uci()):
            board.push(mv)
            print("%s: %d" % (mv.uci(), perft(board, a.depth - 1) if a.depth > 1 else 1))
            board.pop()
    print(perft(board, a.depth))


if __name__ == "__main__":
    main()
