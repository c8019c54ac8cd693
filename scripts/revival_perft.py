#!/usr/bin/env python3
"""Independent perft for Event Chess with event #7 Revival (newer wording) running from the
start.

A cross-check of xpgn's revivals, written from the rules text (the catalogue's entry for
#7 and the rulings RV-1..RV-6 of `docs/rules/event-7-revival.md`) on top of
python-chess's orthodox legal moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves.
- revivals (RV-1, RV-2, RV-5): a player who has not revived yet may drop a piece of any
  type but the king of which he has fewer on the board than in the standard start
  position (8 pawns, 2 knights, 2 bishops, 2 rooks, 1 queen) on any empty square, a pawn
  not on the first or last rank; it captures nothing, sets no en-passant square and
  spends the player's revival for the rest of the tree.
- every move is legal iff the mover's king is not attacked afterwards (RV-4).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    revival_perft.py tests/data/perft/revival.perft   # recompute every count
    revival_perft.py --fen FEN --depth D              # one count
"""

import argparse
import sys

import chess

START = {chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1}


def drops(board, used):
    us = board.turn
    if us in used:
        return []
    out = []
    for piece_type, count in START.items():
        if len(board.pieces(piece_type, us)) >= count:
            continue
        for sq in chess.SQUARES:
            if board.piece_at(sq) is not None:
                continue
            if piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            out.append((piece_type, sq))
    return out


def legal_moves(board, used):
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        out.append((after, used))
    for piece_type, sq in drops(board, used):
        after = board.copy(stack=False)
        after.set_piece_at(sq, chess.Piece(piece_type, us))
        after.ep_square = None
        after.halfmove_clock += 1
        if us == chess.BLACK:
            after.fullmove_number += 1
        after.turn = not us
        king = after.king(us)
        if king is None or not after.is_attacked_by(not us, king):
            out.append((after, used | {us}))
    return out


def perft(board, used, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, used)
    if depth == 1:
        return len(moves)
    return sum(perft(after, u, depth - 1) for after, u in moves)


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
                got = perft(chess.Board(fen), frozenset(), depth)
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
    print(perft(chess.Board(args.fen), frozenset(), args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
