#!/usr/bin/env python3
"""Independent perft for Event Chess with event #67 Emperor running from the start.

A cross-check of xpgn's Emperor moves, written from the rules text (the catalogue's entry
for #67 and the rulings EM-1..EM-7 of `docs/rules/event-67-emperor.md`) on top of
python-chess's orthodox moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's pseudo-legal moves (less its double step of a
  pawn on its first rank, which orthodox rules do not have), legal iff the mover's king is
  not attacked afterwards, or stands on its goal square (EM-1, EM-4, EM-6).
- hops (EM-2, EM-5): a king jumps over an adjacent piece of either colour (any of the
  eight directions) to the empty square beyond, chains of such jumps in one move, its
  own starting square empty on the way; one move per square a chain ends on, never the
  starting square; legal by the same test. A hop captures nothing and ends the right to
  castle.
- the win (EM-6): a position in which the player who just moved has his king on his
  goal square (e8 for white, e1 for black) is over: it has no moves.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    emperor_perft.py tests/data/perft/emperor.perft   # recompute every count
    emperor_perft.py --fen FEN --depth D [--divide]   # one count
"""

import argparse
import sys

import chess

GOAL = {chess.WHITE: chess.E8, chess.BLACK: chess.E1}
STEPS = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def won(board, color):
    return board.king(color) == GOAL[color]


def safe(board, us):
    king = board.king(us)
    return king is None or king == GOAL[us] or not board.is_attacked_by(not us, king)


def hop_ends(board, start):
    """Every square a chain of hops of the piece on `start` ends on (EM-2, EM-5)."""
    occupied = board.occupied & ~chess.BB_SQUARES[start]
    seen = {start}
    todo = [start]
    while todo:
        sq = todo.pop()
        f, r = chess.square_file(sq), chess.square_rank(sq)
        for df, dr in STEPS:
            of, orank, lf, lr = f + df, r + dr, f + 2 * df, r + 2 * dr
            if not (0 <= lf < 8 and 0 <= lr < 8):
                continue
            over, land = chess.square(of, orank), chess.square(lf, lr)
            if occupied & chess.BB_SQUARES[over] and not occupied & chess.BB_SQUARES[land]:
                if land not in seen:
                    seen.add(land)
                    todo.append(land)
    seen.discard(start)
    return seen


def first_rank_double(board, mv):
    """python-chess lets a pawn on its first rank step two; orthodox rules do not."""
    home = 0 if board.turn == chess.WHITE else 7
    return (board.piece_type_at(mv.from_square) == chess.PAWN
            and chess.square_rank(mv.from_square) == home
            and abs(mv.to_square - mv.from_square) == 16)


def legal_moves(board):
    """(name, position after) of every legal move and hop."""
    us = board.turn
    out = []
    if won(board, not us):
        return out
    for mv in board.generate_pseudo_legal_moves():
        if first_rank_double(board, mv):
            continue
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us):
            out.append((mv.uci(), after))
    king = board.king(us)
    if king is None:
        return out
    for end in sorted(hop_ends(board, king)):
        after = board.copy(stack=False)
        after.remove_piece_at(king)
        after.set_piece_at(end, chess.Piece(chess.KING, us))
        after.castling_rights &= ~chess.BB_RANK_1 if us == chess.WHITE else ~chess.BB_RANK_8
        after.ep_square = None
        after.turn = not us
        if safe(after, us):
            out.append(("hop " + chess.square_name(king) + chess.square_name(end), after))
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
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    board = chess.Board(args.fen)
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
