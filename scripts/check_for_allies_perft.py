#!/usr/bin/env python3
"""Independent perft for Event Chess with event #1 Check for allies running from the
start.

A cross-check of xpgn's placements, written from the rules text (the catalogue's entry
for #1 and the rulings CA-1..CA-9 of `docs/rules/event-1-check-for-allies.md`) on top of
python-chess's orthodox legal moves, sharing no code with xpgn:

- every orthodox legal move (python-chess 1.11.2) is a move; its legality is judged
  before any piece comes back (CA-3).
- a move after which the opponent is in check calls one of the mover's missing pieces
  back (CA-1): a type of which the mover has fewer on the board than in the standard
  start position (8 pawns, 2 knights, 2 bishops, 2 rooks, 1 queen), on an empty square
  where the standard start position has that type of the mover's colour (CA-5); the
  piece brings no castling right. Each such square is a move of its own.
- of those, only the placements after which the checked player has a legal reply count,
  unless none has one; then all of them count (CA-2).
- with no missing type that has an empty starting square, the move is one move.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    check_for_allies_perft.py tests/data/perft/check-for-allies.perft  # recompute all
    check_for_allies_perft.py --fen FEN --depth D                       # one count
"""

import argparse
import sys

import chess

START = chess.Board()
COUNTS = {chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1}


def return_squares(board, color):
    """The empty starting squares of the types `color` is short of."""
    out = []
    for piece_type, count in COUNTS.items():
        if len(board.pieces(piece_type, color)) >= count:
            continue
        for sq in START.pieces(piece_type, color):
            if board.piece_at(sq) is None:
                out.append((piece_type, sq))
    return out


def legal_positions(board):
    """The position after every legal move (one per placement a check allows)."""
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        squares = return_squares(after, us) if after.is_check() else []
        if not squares:
            out.append(after)
            continue
        placed = []
        for piece_type, sq in squares:
            there = after.copy(stack=False)
            there.set_piece_at(sq, chess.Piece(piece_type, us))
            placed.append(there)
        replying = [p for p in placed if any(p.generate_legal_moves())]
        out.extend(replying or placed)
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    positions = legal_positions(board)
    if depth == 1:
        return len(positions)
    return sum(perft(after, depth - 1) for after in positions)


def check_file(path):
    bad = 0
    fen = ident = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                ident = value
            elif key == "fen":
                fen = value
            elif key == "perft":
                depth, expected = (int(x) for x in value.split())
                got = perft(chess.Board(fen), depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--depth", type=int)
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    print(perft(chess.Board(args.fen), args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
