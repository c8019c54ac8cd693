#!/usr/bin/env python3
"""Independent perft for Event Chess with event #122 Swapping Knights running from the start.

A cross-check of xpgn's own captures by knights, written from the rules text (the
catalogue's entry for #122 and the rulings SX-1..SX-5 of
`docs/rules/event-122-swapping-knights.md`) on top of python-chess's orthodox legal moves,
sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves.
- own captures (SX-1, SX-2): a knight of the side to move may take an own piece on a
  square it attacks, the king included; the piece taken goes to the knight's square, and
  a pawn put there on its last rank becomes Q, R, B or N, one move each. Nothing leaves
  the board; the castling rights of both squares are lost, and a king's side's rights with
  it; no en-passant square.
- double steps (SX-5): a pawn on its own first rank steps two when both squares ahead are
  empty; python-chess's own move generator already does (its double steps end on the
  third or fourth rank), so it adds nothing here; the positions of the
  perft file keep any capture of such a pawn beyond their depth.
- every move is legal iff the mover's king is not attacked afterwards (SX-3).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    swapping_knights_perft.py tests/data/perft/swapping-knights.perft   # recompute every count
    swapping_knights_perft.py --fen FEN --depth D [--divide]            # one count
"""

import argparse
import sys

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


class Extra:
    def __init__(self, frm, to, promotion=None):
        self.frm, self.to, self.promotion = frm, to, promotion

    def name(self):
        p = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"{chess.square_name(self.frm)}x{chess.square_name(self.to)}{p}"


def extras_of(board):
    us = board.turn
    ours = board.occupied_co[us]
    last = 7 if us == chess.WHITE else 0
    out = []
    for frm in board.pieces(chess.KNIGHT, us):
        for to in chess.SquareSet(board.attacks_mask(frm) & ours):
            victim = board.piece_at(to)
            if victim.piece_type == chess.PAWN and chess.square_rank(frm) == last:
                out.extend(Extra(frm, to, p) for p in PROMOTIONS)
            else:
                out.append(Extra(frm, to))
    return out


def play_extra(board, mv):
    after = board.copy(stack=False)
    piece = board.piece_at(mv.frm)
    victim = board.piece_at(mv.to)
    after.remove_piece_at(mv.frm)
    after.remove_piece_at(mv.to)
    after.set_piece_at(mv.to, piece)
    rights = after.castling_rights & ~chess.BB_SQUARES[mv.frm] & ~chess.BB_SQUARES[mv.to]
    after.ep_square = None
    after.set_piece_at(mv.frm, chess.Piece(mv.promotion or victim.piece_type, victim.color))
    if victim.piece_type == chess.KING:
        rights &= ~(chess.BB_RANK_1 if victim.color == chess.WHITE else chess.BB_RANK_8)
    after.castling_rights = rights
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
    for mv in extras_of(board):
        after = play_extra(board, mv)
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
    return mv.name() if isinstance(mv, Extra) else board.uci(mv)


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
