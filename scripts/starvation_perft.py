#!/usr/bin/env python3
"""Independent perft for Event Chess with event #6 Starvation running from the start.

A cross-check of xpgn's Starvation moves, written from the rules text (the catalogue's
entry for #6 and the rulings ST-1..ST-9 of `docs/rules/event-6-starvation.md`) on top of
python-chess's orthodox moves, sharing no code with xpgn:

- a move is python-chess 1.11.2's pseudo-legal move; after it, the unit that moved (in
  castling the king) is taken off the board unless it is a pawn, a pawn (of either
  colour) stands on one of the eight squares around where it started (before the move)
  or where it ended (after it), or the move captured a pawn (ST-1..ST-3);
- a move that would take the mover's own king off is illegal (ST-4), and so is one after
  which the mover's king is attacked, judged after the removal (ST-6); attacks are
  python-chess's own (ST-5).

Castling is judged by python-chess (not through or out of check), then by the rules
above.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    starvation_perft.py tests/data/perft/starvation.perft   # recompute every count
    starvation_perft.py --fen FEN --depth D [--divide]      # one count
"""

import argparse
import sys

import chess


def near(sq):
    return chess.BB_KING_ATTACKS[sq]


def fed(board, mv, after):
    """Whether the unit `mv` moves in `board` stays on the board `after` (ST-1..ST-3)."""
    if board.piece_type_at(mv.from_square) == chess.PAWN:
        return True
    if board.is_en_passant(mv) or board.piece_type_at(mv.to_square) == chess.PAWN:
        return True
    if near(mv.from_square) & board.pawns:
        return True
    # Castling is written king to its landing square (standard positions only here).
    return bool(near(mv.to_square) & after.pawns)


def legal_moves(board):
    """(uci, position after) of every legal move."""
    us = board.turn
    out = []
    for mv in board.generate_pseudo_legal_moves():
        if board.is_castling(mv) and not board.is_legal(mv):
            continue
        after = board.copy(stack=False)
        after.push(mv)
        if not fed(board, mv, after):
            if board.piece_type_at(mv.from_square) == chess.KING:
                continue
            after.remove_piece_at(mv.to_square)
        king = after.king(us)
        if king is not None and after.is_attacked_by(not us, king):
            continue
        out.append((mv.uci(), after))
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
    board = chess.Board(args.fen)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
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
