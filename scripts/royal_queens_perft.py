#!/usr/bin/env python3
"""Independent perft for Event Chess with event #116 Royal Queens running from the start.

A cross-check of xpgn's moves under #116, written from the rules text (the catalogue's
entry for #116 and the rulings RQ-1..RQ-6 of `docs/rules/event-116-royal-queens.md`) on
top of python-chess's orthodox moves, sharing no code with xpgn:

- moves: python-chess's pseudo-legal moves (less its double step of a pawn on its first
  rank, which orthodox rules do not have), castling included with python-chess's own
  tests of the king's squares (RQ-4).
- legality (RQ-1, RQ-3): a move is legal iff afterwards neither the mover's king nor any
  of his queens (promoted ones included) is attacked.
- the win (RQ-5): a move that takes a queen ends the game (only a royal queen that stood
  attacked when the event started can be taken): the position after it has no moves.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    royal_queens_perft.py tests/data/perft/royal-queens.perft   # recompute every count
    royal_queens_perft.py --fen FEN --depth D [--divide]        # one count
"""

import argparse
import sys

import chess


def safe(board, us):
    """No royal piece of `us`, king or queen, attacked (RQ-1)."""
    royals = board.pieces(chess.KING, us) | board.pieces(chess.QUEEN, us)
    return not any(board.is_attacked_by(not us, sq) for sq in royals)


def first_rank_double(board, mv):
    """python-chess lets a pawn on its first rank step two; orthodox rules do not."""
    home = 0 if board.turn == chess.WHITE else 7
    return (board.piece_type_at(mv.from_square) == chess.PAWN
            and chess.square_rank(mv.from_square) == home
            and abs(mv.to_square - mv.from_square) == 16)


class Over(chess.Board):
    """A position after a royal queen was taken (RQ-5): no moves."""


def legal_moves(board):
    """(name, position after) of every legal move."""
    us = board.turn
    out = []
    if isinstance(board, Over):
        return out
    for mv in board.generate_pseudo_legal_moves():
        if first_rank_double(board, mv):
            continue
        took_queen = board.piece_type_at(mv.to_square) == chess.QUEEN
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us):
            if took_queen:
                after = Over(after.fen())
            out.append((mv.uci(), after))
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


def check_file(path):
    bad = 0
    fen = None
    ident = None
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
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    board = chess.Board(args.fen)
    if args.divide:
        total = 0
        for name, after in legal_moves(board):
            n = perft(after, args.depth - 1)
            total += n
            print(f"{name}: {n}")
        print(total)
    else:
        print(perft(board, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
