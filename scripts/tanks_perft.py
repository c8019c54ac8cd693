#!/usr/bin/env python3
"""Independent perft for Event Chess with event #42 Tanks running from the start.

A cross-check of xpgn's tank moves, written from the rules text (the catalogue entry and
rulings TK-1..TK-5 in `docs/rules/event-42-tanks.md`) on top of python-chess's orthodox
moves, sharing no code with xpgn:

- every orthodox legal move (python-chess);
- for every rook of the side to move and each of its four directions, when the first
  man on the line is the opponent's, one more move per empty square behind him up to
  the next man or the edge: the man is taken and the rook stops there (TK-1, TK-2);
  only rooks (TK-5), no second capture.
- such a move takes the castling rights of the rook's square and of the victim's square
  (a rook taken at home), sets no en-passant square, and is legal iff the mover's king
  is not attacked afterwards (TK-3). Attacks are python-chess's own (TK-2).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    tanks_perft.py tests/data/perft/tanks.perft     # recompute every count
    tanks_perft.py --fen FEN --depth D [--divide]   # one count
"""

import argparse
import sys

import chess

DIRECTIONS = ((0, 1), (0, -1), (1, 0), (-1, 0))


def off(square, df, dr):
    f, r = chess.square_file(square) + df, chess.square_rank(square) + dr
    return chess.square(f, r) if 0 <= f < 8 and 0 <= r < 8 else None


def tank_moves(board):
    """(rook, victim, landing) for every pseudo-legal tank move of the side to move."""
    us = board.turn
    out = []
    for rook in board.pieces(chess.ROOK, us):
        for df, dr in DIRECTIONS:
            s = off(rook, df, dr)
            while s is not None and board.piece_at(s) is None:
                s = off(s, df, dr)
            if s is None or board.piece_at(s).color == us:
                continue
            to = off(s, df, dr)
            while to is not None and board.piece_at(to) is None:
                out.append((rook, s, to))
                to = off(to, df, dr)
    return out


def play_tank(board, rook, victim, to):
    after = board.copy(stack=False)
    piece = after.remove_piece_at(rook)
    after.remove_piece_at(victim)
    after.set_piece_at(to, piece)
    after.castling_rights &= ~(chess.BB_SQUARES[rook] | chess.BB_SQUARES[victim])
    after.ep_square = None
    after.halfmove_clock = 0
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def own_king_safe(after, us):
    king = after.king(us)
    return king is None or not after.is_attacked_by(not us, king)


def legal_moves(board):
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        out.append((mv.uci(), after))
    for rook, victim, to in tank_moves(board):
        after = play_tank(board, rook, victim, to)
        if own_king_safe(after, us):
            out.append((f"R{chess.square_name(rook)}x{chess.square_name(to)}", after))
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


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
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        bad = 0
        for case in read_cases(args.file):
            board = chess.Board(case["fen"])
            for depth, expected in case["counts"]:
                got = perft(board, depth)
                bad += got != expected
                print(f"{'ok  ' if got == expected else 'DIFF'} {case['id']} depth {depth}: "
                      f"{got} (file: {expected})", flush=True)
        return 1 if bad else 0
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    board = chess.Board(args.fen)
    if args.divide:
        for name, after in sorted(legal_moves(board)):
            print(f"{name}: {perft(after, args.depth - 1)}")
    print(perft(board, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
