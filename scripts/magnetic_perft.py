#!/usr/bin/env python3
"""Independent perft for Event Chess with event #18 Magnetic Pawns running from the start.

A cross-check of xpgn's pulls, written from the rules text (the catalogue entry and
rulings MP-1..MP-5 in `docs/rules/event-18-magnetic-pawns.md`) on top of python-chess's
orthodox moves, sharing no code with xpgn:

- every move of a pawn (step, double step, capture, en passant) is followed by a pull:
  from the square the pawn now stands on, walk ahead in the pawn's own direction to the
  first man on the file; if he is the opponent's and not right in front of the pawn, he
  moves one square toward it (MP-1, MP-2). A promotion pulls nothing.
- a pulled king or rook loses its castling rights; a pulled pawn sets no en-passant
  square (MP-4).
- a pawn move is legal iff the mover's king is not attacked after the pull (MP-3), so
  pawn moves come from python-chess's pseudo-legal list and are judged here; every
  other move is python-chess's legal move.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    magnetic_perft.py tests/data/perft/magnetic-pawns.perft   # recompute every count
    magnetic_perft.py --fen FEN --depth D [--divide]         # one count
"""

import argparse
import sys

import chess


def pull(board, pawn, color):
    """The (from, to) of the man a pawn of `color` on `pawn` pulls, or None."""
    step = 8 if color == chess.WHITE else -8
    toward = pawn
    ahead = pawn + step
    while 0 <= ahead < 64 and board.piece_at(ahead) is None:
        toward = ahead
        ahead += step
    if not 0 <= ahead < 64:
        return None
    man = board.piece_at(ahead)
    if man.color == color or toward == pawn:
        return None
    return ahead, toward


def play(board, mv):
    after = board.copy(stack=False)
    piece = board.piece_at(mv.from_square)
    after.push(mv)
    if piece.piece_type == chess.PAWN and mv.promotion is None:
        pulled = pull(after, mv.to_square, piece.color)
        if pulled:
            frm, to = pulled
            man = after.remove_piece_at(frm)
            after.set_piece_at(to, man)
            rights = after.castling_rights & ~chess.BB_SQUARES[frm]
            if man.piece_type == chess.KING:
                rights &= ~(chess.BB_RANK_1 if man.color == chess.WHITE else chess.BB_RANK_8)
            after.castling_rights = rights
    return after


def own_king_safe(after, us):
    king = after.king(us)
    return king is None or not after.is_attacked_by(not us, king)


def legal_moves(board):
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        if board.piece_type_at(mv.from_square) != chess.PAWN:
            out.append((mv, play(board, mv)))
    for mv in board.generate_pseudo_legal_moves(from_mask=board.pawns):
        after = play(board, mv)
        if own_king_safe(after, us):
            out.append((mv, after))
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
        for mv, after in sorted(legal_moves(board), key=lambda m: m[0].uci()):
            print(f"{mv.uci()}: {perft(after, args.depth - 1)}")
    print(perft(board, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
