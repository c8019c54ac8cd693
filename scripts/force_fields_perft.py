#!/usr/bin/env python3
"""Independent perft for Event Chess with event #48 Force Fields running from the start.

A cross-check of xpgn's Force Fields, written from the rules text (the catalogue's entry
for #48 and the rulings FF-1..FF-6 of `docs/rules/event-48-force-fields.md`), using
python-chess 1.11.2 only for its board, squares and attack tables, sharing no code with
xpgn:

- fields (FF-1): each rook's field is the empty squares it sees along its rank and file.
  A sliding piece (bishop, rook, queen) may stop on an enemy field square but not go on
  past it; its own side's fields are no obstacle.
- leaps and steps (FF-3): knights, kings and pawns' single steps and captures pass over
  nothing; a pawn's double step may not pass over an enemy field square (FF-6).
- attacks (FF-5) follow the same paths: a slider attacks a square only along a line with
  no enemy field square before it. A move is legal iff the mover's king is not attacked
  afterwards.
- castling (FF-4): the usual conditions, the king's start square and the square it
  crosses not attacked (judged with king and rook off the board, and again with the king
  standing on the square), and neither the king nor the rook passing over an enemy field
  square.

Usage (python-chess 1.11.2):

    force_fields_perft.py tests/data/perft/force-fields.perft   # recompute every count
    force_fields_perft.py --fen FEN --depth D [--divide]         # one count
"""

import argparse
import sys

import chess

ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DIRS = {chess.BISHOP: BISHOP_DIRS, chess.ROOK: ROOK_DIRS, chess.QUEEN: ROOK_DIRS + BISHOP_DIRS}


def bit(sq):
    return chess.BB_SQUARES[sq]


def rays(sq, dirs, occ, stop):
    """The squares a slider on `sq` reaches: up to and with the first piece, and not past
    a square of `stop`."""
    out = 0
    f0, r0 = chess.square_file(sq), chess.square_rank(sq)
    for df, dr in dirs:
        f, r = f0 + df, r0 + dr
        while 0 <= f < 8 and 0 <= r < 8:
            s = chess.square(f, r)
            out |= bit(s)
            if occ & bit(s) or stop & bit(s):
                break
            f, r = f + df, r + dr
    return out


def fields(board, color, occ):
    """The squares of the fields of `color`'s rooks among `occ` (FF-1)."""
    out = 0
    for rook in chess.scan_forward(board.pieces_mask(chess.ROOK, color) & occ):
        out |= rays(rook, ROOK_DIRS, occ, 0) & ~occ
    return out


def attacked(board, sq, by, occ):
    """Whether a piece of `by` among `occ` attacks `sq`, fields in the way (FF-5)."""
    theirs = board.occupied_co[by] & occ
    if chess.BB_PAWN_ATTACKS[not by][sq] & board.pawns & theirs:
        return True
    if chess.BB_KNIGHT_ATTACKS[sq] & board.knights & theirs:
        return True
    if chess.BB_KING_ATTACKS[sq] & board.kings & theirs:
        return True
    stop = fields(board, not by, occ)
    for kind in (chess.BISHOP, chess.ROOK, chess.QUEEN):
        for piece in chess.scan_forward(board.pieces_mask(kind, by) & occ):
            if rays(piece, DIRS[kind], occ, stop) & bit(sq):
                return True
    return False


def safe(board, us):
    king = board.king(us)
    return king is None or not attacked(board, king, not us, board.occupied)


def pseudo_moves(board):
    us = board.turn
    occ = board.occupied
    own = board.occupied_co[us]
    enemy = board.occupied_co[not us]
    stop = fields(board, not us, occ)
    out = []
    for sq in chess.scan_forward(own):
        kind = board.piece_type_at(sq)
        if kind == chess.PAWN:
            step = 8 if us == chess.WHITE else -8
            last = 7 if us == chess.WHITE else 0
            targets = []
            one = sq + step
            if not occ & bit(one):
                targets.append(one)
                start = 1 if us == chess.WHITE else 6
                two = one + step
                if chess.square_rank(sq) == start and not occ & bit(two) and not stop & bit(one):
                    targets.append(two)
            for t in chess.scan_forward(chess.BB_PAWN_ATTACKS[us][sq]):
                if enemy & bit(t) or t == board.ep_square:
                    targets.append(t)
            for t in targets:
                if chess.square_rank(t) == last:
                    for promo in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT):
                        out.append(chess.Move(sq, t, promo))
                else:
                    out.append(chess.Move(sq, t))
            continue
        if kind == chess.KNIGHT:
            reach = chess.BB_KNIGHT_ATTACKS[sq]
        elif kind == chess.KING:
            reach = chess.BB_KING_ATTACKS[sq]
        else:
            reach = rays(sq, DIRS[kind], occ, stop)
        for t in chess.scan_forward(reach & ~own):
            out.append(chess.Move(sq, t))
    out.extend(castles(board))
    return out


def castles(board):
    us = board.turn
    rank = 0 if us == chess.WHITE else 7
    king = chess.square(4, rank)
    if board.king(us) != king:
        return []
    out = []
    occ = board.occupied
    stop = fields(board, not us, occ)
    for rook_file, king_file, rook_to_file in ((7, 6, 5), (0, 2, 3)):
        rook = chess.square(rook_file, rank)
        if not board.castling_rights & bit(rook) or board.piece_at(rook) != chess.Piece(chess.ROOK, us):
            continue
        king_to, rook_to = chess.square(king_file, rank), chess.square(rook_to_file, rank)
        others = occ & ~bit(king) & ~bit(rook)
        must_be_empty = (chess.between(king, king_to) | bit(king_to)
                         | chess.between(rook, rook_to) | bit(rook_to))
        if must_be_empty & others:
            continue
        if (chess.between(king, king_to) | chess.between(rook, rook_to)) & stop:
            continue  # FF-4
        tested = [king] + list(chess.scan_forward(chess.between(king, king_to)))
        bad = False
        for sq in tested:
            if not attacked(board, sq, not us, others):
                continue
            there = board.copy(stack=False)
            there.remove_piece_at(king)
            there.set_piece_at(sq, chess.Piece(chess.KING, us))
            if attacked(there, sq, not us, others | bit(sq)):
                bad = True
                break
        if not bad:
            out.append(chess.Move(king, king_to))
    return out


def legal_moves(board):
    us = board.turn
    out = []
    for mv in pseudo_moves(board):
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us):
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
