#!/usr/bin/env python3
"""Independent perft for Event Chess with event #24 Roar! running from the start. A
cross-check of xpgn, written from the rules page (`docs/rules/event-24-roar.md`, rulings
RO-1..RO-5) on top of python-chess's orthodox legal moves, sharing no code with xpgn.
The orthodox side (python-chess's moves, a pawn's double step from its own first rank
and the en-passant capture after it, a pawn standing still on its last rank to promote)
is the one `pushes_perft.py` reads for #43, imported from it; the roar is written here:
- a knight of the side to move roars: every piece within two king steps of it, first
  those two steps away, then those next to it on the board the first left, moves one
  step straight away from the knight if that square is on the board and empty (RO-1,
  RO-2); a king or rook that moves loses its castling rights; a roar that moves nothing
  is no move (RO-3); no en-passant square is set.
- every move is legal iff the mover's king is not attacked afterwards (RO-3).
Usage (python-chess 1.11.2):
    roar_perft.py tests/data/perft/roar.perft   # recompute every count and compare
    roar_perft.py --fen FEN --depth D           # one count
"""

import argparse
import sys

import chess

from pushes_perft import (
    PROMOTIONS,
    StandStill,
    odd_en_passant,
    own_king_safe,
    play_orthodox,
    play_stand_still,
)


def sign(n):
    return (n > 0) - (n < 0)


def roar_pushes(board, knight):
    """RO-1, RO-2: [(from, to)] in the order the pieces move."""
    kf, kr = chess.square_file(knight), chess.square_rank(knight)
    occupied = set(chess.SquareSet(board.occupied))
    out = []
    for ring in (2, 1):
        moved = []
        for dr in range(-ring, ring + 1):
            for df in range(-ring, ring + 1):
                if max(abs(df), abs(dr)) != ring:
                    continue
                f, r = kf + df, kr + dr
                tf, tr = f + sign(df), r + sign(dr)
                if not (0 <= f < 8 and 0 <= r < 8 and 0 <= tf < 8 and 0 <= tr < 8):
                    continue
                frm, to = chess.square(f, r), chess.square(tf, tr)
                if frm in occupied and to not in occupied:
                    moved.append((frm, to))
        for frm, to in moved:
            occupied.discard(frm)
            occupied.add(to)
        out.extend(moved)
    return out


class Roar:
    def __init__(self, knight, moved):
        self.knight = knight
        self.moved = moved


def play_roar(board, roar):
    after = board.copy(stack=False)
    rights = after.castling_rights
    for frm, to in roar.moved:
        piece = after.remove_piece_at(frm)
        after.set_piece_at(to, piece)
        rights &= ~chess.BB_SQUARES[frm]
        if piece.piece_type == chess.KING:
            rights &= ~(chess.BB_RANK_1 if piece.color == chess.WHITE else chess.BB_RANK_8)
    after.castling_rights = rights
    after.ep_square = None
    after.halfmove_clock += 1
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def legal_moves(board):
    us = board.turn
    out = [play_orthodox(board, mv) for mv in board.generate_legal_moves()]
    candidates = []
    for mv in odd_en_passant(board):
        candidates.append(play_orthodox(board, mv))
    for knight in chess.SquareSet(board.pieces(chess.KNIGHT, us)):
        moved = roar_pushes(board, knight)
        if moved:
            candidates.append(play_roar(board, Roar(knight, moved)))
    last = chess.BB_RANK_8 if us == chess.WHITE else chess.BB_RANK_1
    for sq in chess.SquareSet(board.pieces(chess.PAWN, us) & last):
        for kind in PROMOTIONS:
            candidates.append(play_stand_still(board, StandStill(sq, kind)))
    out.extend(after for after in candidates if own_king_safe(after, us))
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    found = legal_moves(board)
    if depth == 1:
        return len(found)
    return sum(perft(after, depth - 1) for after in found)


def check(path):
    failed = 0
    fen = None
    for line in open(path, encoding="utf-8"):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "fen":
            fen = " ".join(words[1:])
        elif words[0] == "events" and words[1:] != ["24"]:
            sys.exit(f"{path}: only `events 24` is read here, not {words[1:]}")
        elif words[0] == "perft":
            depth, expected = int(words[1]), int(words[2])
            got = perft(chess.Board(fen), depth)
            mark = "ok" if got == expected else "DIFFERS"
            failed += got != expected
            print(f"{mark}: {fen} depth {depth}: file {expected}, python {got}")
    return failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file", nargs="?")
    parser.add_argument("--fen")
    parser.add_argument("--depth", type=int)
    args = parser.parse_args()
    if args.file:
        sys.exit(1 if check(args.file) else 0)
    print(perft(chess.Board(args.fen), args.depth))


if __name__ == "__main__":
    main()
