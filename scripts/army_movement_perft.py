#!/usr/bin/env python3
"""Independent perft for Event Chess with event #74 Army Movement running from the start.

A cross-check of xpgn's group moves, written from the rules text (the catalogue's entry
for #74 and the rulings AM-1..AM-8 of `docs/rules/event-74-army-movement.md`) on top of
python-chess's orthodox moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's pseudo-legal moves (less its double step of a
  pawn on its first rank, which orthodox rules do not have), legal iff the mover's king is
  not attacked afterwards.
- groups (AM-2, AM-3, AM-5): every set of two to four pieces of the mover that lie in one
  2x2 block, and every vector (files, ranks) that each member's piece type can make
  (pawn: forward one, two, or diagonally forward; knight; bishop diagonal; rook straight;
  queen; king one square), is a group where some order of the members makes each step a
  pseudo-legal python-chess move (`Board.is_pseudo_legal`) on the board the steps before
  it left; no castling (AM-1), no en passant (AM-5), no first-rank double step. A pawn
  reaching its last rank promotes to Q, R, B or N, each choice its own group. A group is
  counted once, whatever orders work: the result does not depend on the order.
- the group's end (AM-4, AM-5): the mover's king must not be attacked once every step is
  made; no en-passant square is left.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    army_movement_perft.py tests/data/perft/army-movement.perft   # recompute every count
    army_movement_perft.py --fen FEN --depth D [--divide]          # one count
"""

import argparse
import itertools
import sys

import chess

PROMOTIONS = [chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT]


def first_rank_double(board, mv):
    """python-chess lets a pawn on its first rank step two; orthodox rules do not."""
    home = 0 if board.turn == chess.WHITE else 7
    return (board.piece_type_at(mv.from_square) == chess.PAWN
            and chess.square_rank(mv.from_square) == home
            and abs(mv.to_square - mv.from_square) == 16)


def safe(board, us):
    king = board.king(us)
    return king is None or not board.is_attacked_by(not us, king)


def shape_allows(piece_type, color, df, dr):
    """Whether a piece of this type could ever move by (df, dr) on an empty board."""
    forward = 1 if color == chess.WHITE else -1
    if piece_type == chess.PAWN:
        return (df == 0 and dr in (forward, 2 * forward)) or (abs(df) == 1 and dr == forward)
    if piece_type == chess.KNIGHT:
        return {abs(df), abs(dr)} == {1, 2}
    if piece_type == chess.KING:
        return max(abs(df), abs(dr)) == 1
    diagonal = abs(df) == abs(dr)
    straight = df == 0 or dr == 0
    if piece_type == chess.BISHOP:
        return diagonal
    if piece_type == chess.ROOK:
        return straight
    return diagonal or straight


def blocks_sets(board, us):
    """Every set of two or more squares of our pieces inside one 2x2 block."""
    ours = board.occupied_co[us]
    sets = set()
    for rank in range(7):
        for file in range(7):
            block = [chess.square(file + a, rank + b) for a in (0, 1) for b in (0, 1)]
            mine = [sq for sq in block if ours & chess.BB_SQUARES[sq]]
            for n in range(2, len(mine) + 1):
                for combo in itertools.combinations(mine, n):
                    sets.add(tuple(sorted(combo)))
    return sorted(sets)


def steps_in_order(board, us, order, df, dr):
    """Every way (promotion choices) the members in `order` step by (df, dr), each step
    pseudo-legal on the board the earlier ones left: (promotions, board after)."""
    results = []

    def walk(b, rest, promos):
        if not rest:
            results.append((tuple(promos), b))
            return
        sq = rest[0]
        f, r = chess.square_file(sq) + df, chess.square_rank(sq) + dr
        if not (0 <= f < 8 and 0 <= r < 8):
            return
        to = chess.square(f, r)
        piece = b.piece_at(sq)
        last = 7 if us == chess.WHITE else 0
        choices = [None]
        if piece.piece_type == chess.PAWN and r == last:
            choices = PROMOTIONS
        for promo in choices:
            mv = chess.Move(sq, to, promotion=promo)
            if (not b.is_pseudo_legal(mv) or b.is_castling(mv) or b.is_en_passant(mv)
                    or first_rank_double(b, mv)):
                continue
            nb = b.copy(stack=False)
            nb.push(mv)
            nb.turn = us
            walk(nb, rest[1:], promos + [(sq, promo)])

    walk(board, list(order), [])
    return results


def group_moves(board):
    """(name, position after) of every legal group of the side to move."""
    us = board.turn
    out = {}
    for members in blocks_sets(board, us):
        types = [board.piece_type_at(sq) for sq in members]
        for df in range(-7, 8):
            for dr in range(-7, 8):
                if (df, dr) == (0, 0):
                    continue
                if not all(shape_allows(t, us, df, dr) for t in types):
                    continue
                for order in itertools.permutations(members):
                    for promos, after in steps_in_order(board, us, order, df, dr):
                        key = (members, df, dr, tuple(sorted(promos, key=lambda p: p[0])))
                        if key in out:
                            continue
                        after.turn = not us
                        after.ep_square = None
                        if safe(after, us):
                            name = "group " + ",".join(
                                chess.square_name(sq) + ("=" + chess.piece_symbol(p) if p else "")
                                for sq, p in sorted(promos, key=lambda p: p[0]))
                            out[key] = (f"{name} by {df},{dr}", after)
                        else:
                            out[key] = None
    return [v for v in out.values() if v is not None]


def legal_moves(board):
    """(name, position after) of every legal move and group."""
    us = board.turn
    out = []
    for mv in board.generate_pseudo_legal_moves():
        if first_rank_double(board, mv):
            continue
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us):
            out.append((mv.uci(), after))
    out.extend(group_moves(board))
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
