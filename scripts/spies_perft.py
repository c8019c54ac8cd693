#!/usr/bin/env python3
"""Independent perft for Event Chess with event #16 Spies running from the start, the
spies given.

A cross-check of xpgn's turnings, written from the rules text (the catalogue's entry for
#16 and the rulings SY-1..SY-7 of `docs/rules/event-16-spies.md`) on top of
python-chess's orthodox legal moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves.
- the spies (SY-1): White's is a black pawn, Black's a white pawn, given by their squares
  when the event starts; each follows its pawn as it moves, and is gone once captured
  (en passant too) or promoted.
- turnings (SY-2, SY-3, SY-5): once both players have moved since the start, a player who
  has not turned his spy and still has it may, as his whole move, make it a pawn of his
  own colour on its square; the en-passant square expires and the fifty-move count starts
  again.
- every move is legal iff the mover's king is not attacked afterwards (SY-4).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    spies_perft.py tests/data/perft/spies.perft              # recompute every count
    spies_perft.py --fen FEN --spies f7 a2 --depth D         # one count
"""

import argparse
import sys

import chess


def follow(spy, board, mv):
    """Where a spy on `spy` stands after the orthodox move `mv` (None: gone)."""
    if spy is None:
        return None
    if mv.to_square == spy:
        return None
    if board.is_en_passant(mv) and spy == chess.square(
            chess.square_file(mv.to_square), chess.square_rank(mv.from_square)):
        return None
    if mv.from_square == spy:
        return None if mv.promotion else mv.to_square
    return spy


def legal_moves(board, state):
    """(board after, state after) for every legal move; state is (spies, moved, turned)
    with spies indexed by the spy's master (chess.WHITE is True)."""
    spies, moved, turned = state
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        followed = {c: follow(spies[c], board, mv) for c in (chess.WHITE, chess.BLACK)}
        out.append((after, (followed, moved | {us}, turned)))
    spy = spies[us]
    if spy is not None and us not in turned and moved == {chess.WHITE, chess.BLACK}:
        after = board.copy(stack=False)
        after.set_piece_at(spy, chess.Piece(chess.PAWN, us))
        after.ep_square = None
        after.halfmove_clock = 0
        if us == chess.BLACK:
            after.fullmove_number += 1
        after.turn = not us
        king = after.king(us)
        if king is None or not after.is_attacked_by(not us, king):
            left = dict(spies)
            left[us] = None
            out.append((after, (left, moved | {us}, turned | {us})))
    return out


def perft(board, state, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, state)
    if depth == 1:
        return len(moves)
    return sum(perft(after, s, depth - 1) for after, s in moves)


def start_state(squares):
    white_spy, black_spy = (chess.parse_square(s) for s in squares)
    return ({chess.WHITE: white_spy, chess.BLACK: black_spy}, frozenset(), frozenset())


def check_file(path):
    bad = 0
    fen = ident = events = None
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
            elif key == "events":
                events = value.split()
            elif key == "perft":
                depth, expected = (int(x) for x in value.split())
                got = perft(chess.Board(fen), start_state(events[1:]), depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--spies", nargs=2, default=["f7", "a2"])
    ap.add_argument("--depth", type=int)
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    print(perft(chess.Board(args.fen), start_state(args.spies), args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
