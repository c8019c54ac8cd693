#!/usr/bin/env python3
"""Independent perft for Event Chess with event #15 Swapping Pawns running from the start.

A cross-check of xpgn's swaps, written from the rules text (the catalogue's entry for #15
and the rulings SW-1..SW-5 of `docs/rules/event-15-swapping-pawns.md`) on top of
python-chess's orthodox legal moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves.
- swaps (SW-1, SW-5): a pawn of the side to move exchanges squares with the piece on the
  square directly in front of it, of either colour, king included, but not with a pawn of
  its own side, nor with an enemy pawn that would land on its own last rank; on the last
  rank the pawn becomes Q, R, B or N, one move each. Nothing leaves the board; the
  castling rights of both squares are lost (SW-3); no en-passant square (SW-5).
- every move is legal iff the mover's king is not attacked afterwards (SW-4).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    swapping_pawns_perft.py tests/data/perft/swapping-pawns.perft   # recompute every count
    swapping_pawns_perft.py --fen FEN --depth D [--divide]          # one count
"""

import argparse
import sys

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


class Swap:
    def __init__(self, frm, to, promotion=None):
        self.frm, self.to, self.promotion = frm, to, promotion

    def name(self):
        p = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"{chess.square_name(self.frm)}-{chess.square_name(self.to)}{p}"


def swaps_of(board):
    us = board.turn
    step = 8 if us == chess.WHITE else -8
    last = 7 if us == chess.WHITE else 0
    out = []
    for frm in board.pieces(chess.PAWN, us):
        to = frm + step
        if not 0 <= to < 64:
            continue
        other = board.piece_at(to)
        if other is None:
            continue
        if other.piece_type == chess.PAWN:
            their_last = 7 if other.color == chess.WHITE else 0
            if other.color == us or chess.square_rank(frm) == their_last:
                continue
        if chess.square_rank(to) == last:
            out.extend(Swap(frm, to, p) for p in PROMOTIONS)
        else:
            out.append(Swap(frm, to))
    return out


def play_swap(board, mv):
    after = board.copy(stack=False)
    other = board.piece_at(mv.to)
    after.remove_piece_at(mv.frm)
    after.remove_piece_at(mv.to)
    after.set_piece_at(mv.to, chess.Piece(mv.promotion or chess.PAWN, board.turn))
    after.set_piece_at(mv.frm, other)
    rights = after.castling_rights & ~chess.BB_SQUARES[mv.frm] & ~chess.BB_SQUARES[mv.to]
    if other.piece_type == chess.KING:
        rights &= ~(chess.BB_RANK_1 if other.color == chess.WHITE else chess.BB_RANK_8)
    after.castling_rights = rights
    after.ep_square = None
    after.halfmove_clock = 0
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def safe(after, us):
    king = after.king(us)
    return king is None or not after.is_attacked_by(not us, king)


def legal_moves(board):
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        out.append((mv, after))
    for mv in swaps_of(board):
        after = play_swap(board, mv)
        if safe(after, us):
            out.append((mv, after))
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


def name(board, mv):
    return mv.name() if isinstance(mv, Swap) else board.uci(mv)


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
    board = chess.Board(args.fen)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    if args.divide:
        total = 0
        for mv, after in legal_moves(board):
            n = perft(after, args.depth - 1)
            total += n
            print(f"{name(board, mv)}: {n}")
        print(total)
    else:
        print(perft(board, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
