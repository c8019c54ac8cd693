#!/usr/bin/env python3
"""Independent perft for Event Chess with event #75 Bloodthirst running from the start.

A cross-check of xpgn's duty to capture, written from the rules text (the catalogue
entry and rulings BT-1..BT-5 in `docs/rules/event-75-bloodthirst.md`) on top of
python-chess's orthodox legal moves, sharing no code with xpgn:

- each side may have one square under a duty: the square its piece landed on with its
  last move, if that move captured (en passant and promotions included, BT-4);
- on its turn, if the piece on its duty square is its own and has a legal capture, only
  that piece's legal captures are moves (BT-1); the mover's duty is then spent, and a
  capture makes a new one on the landing square (BT-2).

Usage (python-chess 1.11.2):

    bloodthirst_perft.py tests/data/perft/bloodthirst.perft   # recompute every count
    bloodthirst_perft.py --fen FEN --depth D                  # one count
"""

import argparse
import sys

import chess


def legal_moves(board, duty):
    """The legal moves with the duties after each: `duty` maps a colour to a square."""
    us = board.turn
    moves = list(board.generate_legal_moves())
    square = duty.get(us)
    if square is not None and board.color_at(square) == us:
        forced = [mv for mv in moves if mv.from_square == square and board.is_capture(mv)]
        if forced:
            moves = forced
    out = []
    for mv in moves:
        after = board.copy(stack=False)
        capture = board.is_capture(mv)
        after.push(mv)
        next_duty = dict(duty)
        next_duty[us] = mv.to_square if capture else None
        out.append((mv, after, next_duty))
    return out


def perft(board, duty, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, duty)
    if depth == 1:
        return len(moves)
    return sum(perft(after, d, depth - 1) for _, after, d in moves)


def read_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                cases.append({"id": value, "fen": None, "counts": []})
            elif key == "fen":
                cases[-1]["fen"] = value
            elif key == "perft":
                depth, count = value.split()
                cases[-1]["counts"].append((int(depth), int(count)))
            elif key != "events":
                raise SystemExit(f"{path}: unknown key {key!r}")
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", help="a .perft file to recompute")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--depth", type=int)
    args = ap.parse_args()
    if args.file:
        bad = 0
        for case in read_cases(args.file):
            board = chess.Board(case["fen"])
            for depth, expected in case["counts"]:
                got = perft(board, {}, depth)
                bad += got != expected
                print(f"{'ok  ' if got == expected else 'DIFF'} {case['id']} depth {depth}: "
                      f"{got} (file: {expected})", flush=True)
        return 1 if bad else 0
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    print(perft(chess.Board(args.fen), {}, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
