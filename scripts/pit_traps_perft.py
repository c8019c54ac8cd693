#!/usr/bin/env python3
"""Independent perft for Event Chess with event #9 Pit Traps running.

A cross-check of xpgn's pits, written from the rules text (the catalogue's entry for #9
and the rulings PT-1..PT-6 of `docs/rules/event-9-pit-traps.md`) on top of python-chess's
orthodox pseudo-legal moves, sharing no code with xpgn:

- both pits are known squares (a secret pit catches nothing until the record tells it,
  PT-5, so a perft of secret pits is orthodox);
- once a move is made, every piece standing on a pit falls in and leaves the board
  (PT-2): the moved piece, a castling rook, an en-passant capturer; a pawn that
  double-stepped into a pit leaves no en-passant square;
- a move is legal iff afterwards the mover's king is gone (it fell in, PT-4) or is not
  attacked (PT-3: the fall is played before the test);
- a side without a king has lost: the position has no moves (PT-4).

Castling onto an attacked pit is not modelled (python-chess refuses castling into an
attacked square before the fall); no position here has a pit on a castling king's target.

Usage (python-chess 1.11.2):

    pit_traps_perft.py tests/data/perft/pit-traps.perft     # every count
    pit_traps_perft.py --fen FEN --pits e4 d5 --depth D      # one count
"""

import argparse
import sys

import chess


def children(board, pits):
    if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
        return []
    us = board.turn
    out = []
    for mv in board.generate_pseudo_legal_moves():
        double = (
            board.piece_type_at(mv.from_square) == chess.PAWN
            and abs(chess.square_rank(mv.to_square) - chess.square_rank(mv.from_square)) == 2
        )
        after = board.copy(stack=False)
        after.push(mv)
        for sq in pits:
            if after.piece_at(sq) is not None:
                after.remove_piece_at(sq)
                if double and sq == mv.to_square:
                    after.ep_square = None
        after.castling_rights = after.clean_castling_rights()
        king = after.king(us)
        if king is None or not after.is_attacked_by(not us, king):
            out.append(after)
    return out


def perft(board, pits, depth):
    moves = children(board, pits)
    if depth == 1:
        return len(moves)
    return sum(perft(after, pits, depth - 1) for after in moves)


def check_file(path):
    bad = 0
    fen = ident = None
    pits = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                ident, pits = value, []
            elif key == "fen":
                fen = value
            elif key == "events":
                words = value.split()
                assert words[0] == "9" and len(words) == 3, line
                pits = [chess.parse_square(w) for w in words[1:]]
            elif key == "perft":
                depth, expected = (int(x) for x in value.split())
                got = perft(chess.Board(fen), pits, depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--pits", nargs=2, default=["e4", "d5"])
    ap.add_argument("--depth", type=int)
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    pits = [chess.parse_square(w) for w in args.pits]
    print(perft(chess.Board(args.fen), pits, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
