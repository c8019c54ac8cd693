#!/usr/bin/env python3
"""Independent perft for Event Chess with event #23 Hungry horses running from the start.

A cross-check of xpgn's Hungry horses moves, written from the rules text (the catalogue's
entry for #23 and the rulings HH-1..HH-8 of `docs/rules/event-23-hungry-horses.md`) on
top of python-chess's orthodox moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves (check is a one-move threat, HH-5).
- chains (HH-1, HH-3): a knight takes an own piece that is no king, and then may stop or
  leap again, as long as it keeps taking own pieces; its last leap may instead go to an
  empty square or take an enemy piece, the king too. A rook taken on its corner takes its
  castling right along (HH-2). xpgn holds chains of at most five own captures before the
  last leap (HH-7); so does this script.
- legality (HH-4, HH-5): only the position after the last leap counts; it may not leave
  the mover's king attacked, unless the chain took the enemy king.
- the win (HH-5): a position with a king missing is over: it has no moves.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    hungry_horses_perft.py tests/data/perft/hungry-horses.perft   # recompute every count
    hungry_horses_perft.py --fen FEN --depth D [--divide]          # one count
"""

import argparse
import sys

import chess

MAX_TAKEN_ON_THE_WAY = 5


def over(board):
    return board.king(chess.WHITE) is None or board.king(chess.BLACK) is None


def take(board, frm, to):
    """The knight on `frm` leaps to `to`, taking what stands there (own or enemy)."""
    after = board.copy(stack=False)
    knight = after.remove_piece_at(frm)
    after.remove_piece_at(to)
    after.set_piece_at(to, knight)
    after.castling_rights &= ~chess.BB_SQUARES[to] & ~chess.BB_SQUARES[frm]
    after.ep_square = None
    return after


def chains(board):
    """(name, position after) of every chain of the side to move, legal or not."""
    us = board.turn
    out = []

    def walk(mid, start, knight, names, taken):
        own = mid.occupied_co[us] & ~mid.kings
        for target in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[knight] & own):
            after = take(mid, knight, target)
            step = names + [f"{chess.square_name(knight)}x{chess.square_name(target)}"]
            out.append((",".join(step), after))
            if taken < MAX_TAKEN_ON_THE_WAY:
                walk(after, start, target, step, taken + 1)
        if taken > 0:
            for target in chess.SquareSet(chess.BB_KNIGHT_ATTACKS[knight] & ~mid.occupied_co[us]):
                after = take(mid, knight, target)
                out.append((",".join(names + [f"{chess.square_name(knight)}-{chess.square_name(target)}"]), after))

    for knight in board.pieces(chess.KNIGHT, us):
        walk(board, knight, knight, [], 0)
    return out


def legal_moves(board):
    """(name, position after) of every legal move and chain."""
    if over(board):
        return []
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        out.append((mv.uci(), after))
    for name, after in chains(board):
        after.turn = not us
        if after.king(not us) is None:
            out.append((name, after))
            continue
        king = after.king(us)
        if king is not None and after.is_attacked_by(not us, king):
            continue
        out.append((name, after))
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
