#!/usr/bin/env python3
"""Independent perft for Event Chess with event #51 Monster Queen running from the start.

A cross-check of xpgn's Monster Queen moves, written from the rules text (the catalogue's
entry for #51 and the rulings MQ-1..MQ-6 of `docs/rules/event-51-monster-queen.md`) on
top of python-chess's orthodox moves, sharing no code with xpgn:

- attacks (MQ-4): python-chess's attacks of every piece but the queens; a queen attacks
  the squares next to it and the squares next to any square it can step to (an empty one
  or one with an enemy piece).
- orthodox moves: python-chess 1.11.2's pseudo-legal moves of every piece but the queens,
  legal iff the mover's king is not attacked afterwards (with the attacks above).
  Positions hold no castling rights: python-chess judges a castle's path with its own
  attacks.
- queen turns (MQ-1..MQ-3): a queen steps to a neighbouring square (empty or enemy, into
  check too), then the same queen steps again; the turn is legal iff the mover's king is
  not attacked after it.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    monster_queen_perft.py tests/data/perft/monster-queen.perft   # recompute every count
    monster_queen_perft.py --fen FEN --depth D [--divide]         # one count
"""

import argparse
import sys

import chess


def attacked(board, sq, by):
    """Whether `by` attacks `sq`, queens stepping (MQ-4)."""
    queens = board.queens & board.occupied_co[by]
    if board.attackers_mask(by, sq) & ~queens:
        return True
    for q in chess.SquareSet(queens):
        if chess.BB_KING_ATTACKS[q] & chess.BB_SQUARES[sq]:
            return True
        for step in chess.SquareSet(chess.BB_KING_ATTACKS[q] & ~board.occupied_co[by]):
            if chess.BB_KING_ATTACKS[step] & chess.BB_SQUARES[sq]:
                return True
    return False


def safe(board, us):
    king = board.king(us)
    return king is None or not attacked(board, king, not us)


def legal_moves(board):
    """(name, position after) of every legal move and queen turn."""
    us = board.turn
    out = []
    others = board.occupied_co[us] & ~board.queens
    for mv in board.generate_pseudo_legal_moves(others):
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us):
            out.append((mv.uci(), after))
    for q in chess.SquareSet(board.queens & board.occupied_co[us]):
        for s1 in chess.SquareSet(chess.BB_KING_ATTACKS[q] & ~board.occupied_co[us]):
            mid = board.copy(stack=False)
            mid.push(chess.Move(q, s1))
            mid.turn = us
            for s2 in chess.SquareSet(chess.BB_KING_ATTACKS[s1] & ~mid.occupied_co[us]):
                after = mid.copy(stack=False)
                after.push(chess.Move(s1, s2))
                if safe(after, us):
                    out.append((f"{chess.square_name(q)}{chess.square_name(s1)},"
                                f"{chess.square_name(s1)}{chess.square_name(s2)}", after))
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
    ap.add_argument("--fen", default="3qk3/pppppppp/8/8/8/8/PPPPPPPP/3QK3 w - - 0 1")
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
