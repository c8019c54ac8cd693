#!/usr/bin/env python3
"""Independent perft for Event Chess with event #102 Running kings running from the start.

A cross-check of xpgn's Running kings moves, written from the rules text (the catalogue's
entry for #102 and the rulings RK-1..RK-6 of `docs/rules/event-102-running-kings.md`) on
top of python-chess's orthodox moves, sharing no code with xpgn:

- attacks (RK-4): python-chess's attacks, and while a player has double moves left, every
  square next to a square his king can step to (an empty one or one with an enemy piece).
- orthodox moves: python-chess 1.11.2's pseudo-legal moves, legal iff the mover's king is
  not attacked afterwards (with the attacks above). Positions hold no castling rights:
  python-chess judges a castle's path with its own attacks.
- double moves (RK-1, RK-2): while the mover has one left, a king step (into check too),
  then a second step of the same king, legal iff the king is not attacked after it; the
  mover has one fewer left.
- the win (RK-3): a position in which the player who just moved has his king on his far
  rank, not attacked, is over: it has no moves.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    running_kings_perft.py tests/data/perft/running-kings.perft   # recompute every count
    running_kings_perft.py --fen FEN --depth D [--divide]         # one count
"""

import argparse
import sys

import chess

USES = 3


def attacked(board, sq, by, uses):
    """Whether `by` attacks `sq`, counting his king's two steps while he has uses left."""
    if board.is_attacked_by(by, sq):
        return True
    king = board.king(by)
    if uses[by] == 0 or king is None:
        return False
    for step in chess.SquareSet(chess.BB_KING_ATTACKS[king] & ~board.occupied_co[by]):
        if chess.BB_KING_ATTACKS[step] & chess.BB_SQUARES[sq]:
            return True
    return False


def safe(board, us, uses):
    king = board.king(us)
    return king is None or not attacked(board, king, not us, uses)


def over(board, uses):
    """The player who just moved has won (RK-3)."""
    mover = not board.turn
    king = board.king(mover)
    if king is None:
        return False
    far = 7 if mover == chess.WHITE else 0
    return chess.square_rank(king) == far and not attacked(board, king, board.turn, uses)


def legal_moves(board, uses):
    """(name, position after, uses after) of every legal move and double move."""
    us = board.turn
    out = []
    if over(board, uses):
        return out
    for mv in board.generate_pseudo_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us, uses):
            out.append((mv.uci(), after, uses))
    if uses[us] == 0:
        return out
    spent = dict(uses)
    spent[us] -= 1
    king = board.king(us)
    for first in board.generate_pseudo_legal_moves(chess.BB_SQUARES[king]):
        if board.is_castling(first):
            continue
        mid = board.copy(stack=False)
        mid.push(first)
        mid.turn = us
        for second in mid.generate_pseudo_legal_moves(chess.BB_SQUARES[first.to_square]):
            if mid.is_castling(second):
                continue
            after = mid.copy(stack=False)
            after.push(second)
            if safe(after, us, spent):
                out.append((f"{first.uci()},{second.uci()}", after, spent))
    return out


def perft(board, uses, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, uses)
    if depth == 1:
        return len(moves)
    return sum(perft(after, left, depth - 1) for _, after, left in moves)


def fresh():
    return {chess.WHITE: USES, chess.BLACK: USES}


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
                got = perft(chess.Board(fen), fresh(), depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1")
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    board = chess.Board(args.fen)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    if args.divide:
        total = 0
        for name, after, left in legal_moves(board, fresh()):
            n = perft(after, left, args.depth - 1)
            total += n
            print(f"{name}: {n}")
        print(total)
    else:
        print(perft(board, fresh(), args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
