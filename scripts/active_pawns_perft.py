#!/usr/bin/env python3
"""Independent perft for Event Chess with event #12 Active Pawns running from the start.

A cross-check of xpgn's Active Pawns moves, written from the rules text (the catalogue's
entry for #12 and the rulings AP-1..AP-5 of `docs/rules/event-12-active-pawns.md`) on
top of python-chess's orthodox legal moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves. Its pawn generator already lets a
  pawn on its own first rank step one or two squares (the double-step mask is "lands on
  rank 3/4", resp. 6/5), which is AP-3; only the en-passant square after such a double
  step is set here, and the en-passant captures onto it are added here (python-chess
  looks for capturers on the fifth rank only).
- steps (AP-1, AP-2): every pawn of the side to move may step one square toward its own
  side or one square to either side onto an empty square; such a step captures nothing,
  promotes nothing and sets no en-passant square.
- every move is legal iff the mover's king is not attacked afterwards (AP-4).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    active_pawns_perft.py tests/data/perft/active-pawns.perft   # recompute every count
    active_pawns_perft.py --fen FEN --depth D [--divide]        # one count
"""

import argparse
import sys

import chess

class Step:
    def __init__(self, frm, to):
        self.frm, self.to = frm, to

    def name(self):
        return f"{chess.square_name(self.frm)}-{chess.square_name(self.to)}"


def steps_of(board):
    us = board.turn
    back = -1 if us == chess.WHITE else 1
    out = []
    for sq in chess.SquareSet(board.pieces(chess.PAWN, us)):
        f, r = chess.square_file(sq), chess.square_rank(sq)
        for df, dr in ((0, back), (-1, 0), (1, 0)):
            if 0 <= f + df < 8 and 0 <= r + dr < 8:
                to = chess.square(f + df, r + dr)
                if board.piece_at(to) is None:
                    out.append(Step(sq, to))
    return out


def play_step(board, mv):
    after = board.copy(stack=False)
    after.remove_piece_at(mv.frm)
    after.set_piece_at(mv.to, chess.Piece(chess.PAWN, board.turn))
    after.castling_rights &= ~chess.BB_SQUARES[mv.frm] & ~chess.BB_SQUARES[mv.to]
    after.ep_square = None
    after.halfmove_clock = 0
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def play_orthodox(board, mv):
    after = board.copy(stack=False)
    piece = board.piece_at(mv.from_square)
    after.push(mv)
    # AP-3: a double step from the own first rank sets the en-passant square too.
    if piece.piece_type == chess.PAWN and abs(mv.to_square - mv.from_square) == 16:
        after.ep_square = (mv.from_square + mv.to_square) // 2
    return after


def odd_en_passant(board):
    """En-passant captures onto the square a double step from the first rank crossed
    (rank 2 for white, rank 7 for black), which python-chess does not look at."""
    ep = board.ep_square
    if ep is None or chess.square_rank(ep) not in (1, 6) or board.piece_at(ep) is not None:
        return []
    us = board.turn
    victim = ep + (8 if us == chess.BLACK else -8)
    if board.piece_at(victim) != chess.Piece(chess.PAWN, not us):
        return []
    capturers = board.pieces(chess.PAWN, us) & chess.BB_PAWN_ATTACKS[not us][ep]
    return [chess.Move(c, ep) for c in chess.SquareSet(capturers)]


def safe(after, us):
    king = after.king(us)
    return king is None or not after.is_attacked_by(not us, king)


def legal_moves(board):
    us = board.turn
    out = [(mv, play_orthodox(board, mv)) for mv in board.generate_legal_moves()]
    for mv in odd_en_passant(board):
        after = play_orthodox(board, mv)
        if safe(after, us):
            out.append((mv, after))
    for mv in steps_of(board):
        after = play_step(board, mv)
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
    return mv.name() if isinstance(mv, Step) else board.uci(mv)


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
