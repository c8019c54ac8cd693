#!/usr/bin/env python3
"""Independent perft for Event Chess with event #14 Chinese Checkers running from the start.

A cross-check of xpgn's Chinese Checkers moves, written from the rules text (the
catalogue's entry for #14 and the rulings CC-1..CC-8 of
`docs/rules/event-14-chinese-checkers.md`) on top of python-chess's orthodox legal moves,
sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves. Its pawn generator already lets a
  pawn on its own first rank step one or two squares (the double-step mask is "lands on
  rank 3/4", resp. 6/5), which is CC-5; only the en-passant square after such a double
  step is set here, and the en-passant captures onto it are added here (python-chess
  looks for capturers on the fifth rank only).
- hops (CC-2, CC-3, CC-4, CC-6): a pawn of the side to move jumps over an adjacent piece
  of either colour (any of the eight directions) to the empty square beyond, and chains
  such jumps, its own starting square empty on the way; one move per square a chain ends
  on, never the starting square; ending on the pawn's last rank it promotes (Q, R, B, N),
  elsewhere not. A hop captures nothing and sets no en-passant square.
- every move is legal iff the mover's king is not attacked afterwards (CC-7).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    chinese_checkers_perft.py tests/data/perft/chinese-checkers.perft   # every count
    chinese_checkers_perft.py --fen FEN --depth D [--divide]            # one count
"""

import argparse
import sys

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


class Hop:
    def __init__(self, frm, to, promotion=None):
        self.frm, self.to, self.promotion = frm, to, promotion

    def name(self):
        p = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"hop {chess.square_name(self.frm)}-{chess.square_name(self.to)}{p}"


def hop_ends(board, start):
    """Every square a chain of hops of the piece on `start` ends on (CC-2, CC-3)."""
    occupied = board.occupied & ~chess.BB_SQUARES[start]
    seen = {start}
    todo = [start]
    while todo:
        sq = todo.pop()
        f, r = chess.square_file(sq), chess.square_rank(sq)
        for df, dr in STEPS:
            lf, lr = f + 2 * df, r + 2 * dr
            if not (0 <= lf < 8 and 0 <= lr < 8):
                continue
            over, land = chess.square(f + df, r + dr), chess.square(lf, lr)
            if occupied & chess.BB_SQUARES[over] and not occupied & chess.BB_SQUARES[land]:
                if land not in seen:
                    seen.add(land)
                    todo.append(land)
    seen.discard(start)
    return seen


def hops_of(board):
    us = board.turn
    last = 7 if us == chess.WHITE else 0
    out = []
    for sq in chess.SquareSet(board.pieces(chess.PAWN, us)):
        for to in sorted(hop_ends(board, sq)):
            if chess.square_rank(to) == last:
                out.extend(Hop(sq, to, p) for p in PROMOTIONS)
            else:
                out.append(Hop(sq, to))
    return out


def play_hop(board, mv):
    after = board.copy(stack=False)
    after.remove_piece_at(mv.frm)
    after.set_piece_at(mv.to, chess.Piece(mv.promotion or chess.PAWN, board.turn))
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
    # CC-5: a double step from the own first rank sets the en-passant square too.
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
    for mv in hops_of(board):
        after = play_hop(board, mv)
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
    return mv.name() if isinstance(mv, Hop) else board.uci(mv)


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
