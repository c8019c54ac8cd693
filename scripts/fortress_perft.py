#!/usr/bin/env python3
"""Independent perft for Event Chess with event #10 Fortress running from the start.

A cross-check of xpgn's Fortress moves, written from the rules text (the catalogue's
entry for #10 and the rulings FT-1..FT-7 of `docs/rules/event-10-fortress.md`) on top of
python-chess's orthodox legal moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves. Its pawn generator already lets a
  pawn on its own first rank step one or two squares (the double-step mask is "lands on
  rank 3/4", resp. 6/5), which is FT-4; only the en-passant square after such a double
  step is set here, and the en-passant captures onto it are added here (python-chess
  looks for capturers on the fifth rank only).
- jumps (FT-1, FT-3, FT-5): every pawn of the side to move may jump to any empty square
  among the eight around its king, except the squares its own one- or two-square step
  reaches (that move is the step, FT-5); on the last rank it promotes (Q, R, B, N). A jump
  captures nothing and sets no en-passant square.
- every move is legal iff the mover's king is not attacked afterwards (FT-2).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    fortress_perft.py tests/data/perft/fortress.perft    # recompute every count
    fortress_perft.py --fen FEN --depth D [--divide]     # one count
"""

import argparse
import sys

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


class Jump:
    def __init__(self, frm, to, promotion=None):
        self.frm, self.to, self.promotion = frm, to, promotion

    def name(self):
        p = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"{chess.square_name(self.frm)}-{chess.square_name(self.to)}{p}"


def own_steps(board, sq, us):
    """The squares the pawn on sq reaches by its own step, one or two (FT-4, FT-5)."""
    d = 8 if us == chess.WHITE else -8
    rank = chess.square_rank(sq) if us == chess.WHITE else 7 - chess.square_rank(sq)
    out = set()
    one = sq + d
    if 0 <= one < 64 and board.piece_at(one) is None:
        out.add(one)
        two = one + d
        if rank <= 1 and 0 <= two < 64 and board.piece_at(two) is None:
            out.add(two)
    return out


def jumps_of(board):
    us = board.turn
    king = board.king(us)
    if king is None:
        return []
    ring = [s for s in chess.SquareSet(chess.BB_KING_ATTACKS[king]) if board.piece_at(s) is None]
    last = 7 if us == chess.WHITE else 0
    out = []
    for sq in chess.SquareSet(board.pieces(chess.PAWN, us)):
        steps = own_steps(board, sq, us)
        for to in ring:
            if to in steps:
                continue
            if chess.square_rank(to) == last:
                out.extend(Jump(sq, to, p) for p in PROMOTIONS)
            else:
                out.append(Jump(sq, to))
    return out


def play_jump(board, mv):
    after = board.copy(stack=False)
    after.remove_piece_at(mv.frm)
    after.set_piece_at(mv.to, chess.Piece(mv.promotion or chess.PAWN, board.turn))
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
    # FT-4: a double step from the own first rank sets the en-passant square too.
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
    for mv in jumps_of(board):
        after = play_jump(board, mv)
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
    return mv.name() if isinstance(mv, Jump) else board.uci(mv)


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
