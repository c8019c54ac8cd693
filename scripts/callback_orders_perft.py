#!/usr/bin/env python3
"""Independent perft for Event Chess with event #126 Callback Orders running from the start.

A cross-check of xpgn's own captures, written from the rules text (the catalogue's entry
for #126 and the rulings CO-1..CO-6 of `docs/rules/event-126-callback-orders.md`) on top
of python-chess's orthodox legal moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves.
- own captures (CO-1, CO-2): every piece of the side to move may take an own piece on a
  square it attacks (python-chess's `attacks`: a pawn diagonally forward, a king next to
  it, riders up to the first piece); the piece taken goes back to a starting square of
  its type and colour in the standard start position that is empty once the move is made
  (the capturer's square counts as empty, the target does not), one move per such square
  and per promotion piece (Q, R, B, N) where a pawn lands on its last rank. Nothing leaves
  the board; the castling rights of the squares left are lost; no en-passant square.
- every move is legal iff the mover's king is not attacked afterwards (CO-4).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    callback_orders_perft.py tests/data/perft/callback-orders.perft   # recompute every count
    callback_orders_perft.py --fen FEN --depth D [--divide]           # one count
"""

import argparse
import sys

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


START = chess.Board()


class OwnCapture:
    def __init__(self, frm, to, back, promotion=None):
        self.frm, self.to, self.back, self.promotion = frm, to, back, promotion

    def name(self):
        p = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return (f"{chess.square_name(self.frm)}x{chess.square_name(self.to)}{p}"
                f"@{chess.square_name(self.back)}")


def own_captures_of(board):
    us = board.turn
    ours = board.occupied_co[us]
    last = 7 if us == chess.WHITE else 0
    out = []
    for frm in chess.SquareSet(ours):
        piece = board.piece_at(frm)
        for to in chess.SquareSet(board.attacks_mask(frm) & ours):
            victim = board.piece_at(to)
            starts = START.pieces(victim.piece_type, victim.color)
            for back in chess.SquareSet(starts):
                if back == to or (board.piece_at(back) is not None and back != frm):
                    continue
                if piece.piece_type == chess.PAWN and chess.square_rank(to) == last:
                    out.extend(OwnCapture(frm, to, back, p) for p in PROMOTIONS)
                else:
                    out.append(OwnCapture(frm, to, back))
    return out


def play_own_capture(board, mv):
    after = board.copy(stack=False)
    piece = board.piece_at(mv.frm)
    victim = board.piece_at(mv.to)
    after.remove_piece_at(mv.frm)
    after.set_piece_at(mv.to, chess.Piece(mv.promotion or piece.piece_type, board.turn))
    after.set_piece_at(mv.back, victim)
    rights = after.castling_rights & ~chess.BB_SQUARES[mv.frm] & ~chess.BB_SQUARES[mv.to]
    if piece.piece_type == chess.KING:
        rights &= ~(chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8)
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
    for mv in own_captures_of(board):
        after = play_own_capture(board, mv)
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
    return mv.name() if isinstance(mv, OwnCapture) else board.uci(mv)


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
