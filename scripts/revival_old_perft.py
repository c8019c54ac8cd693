#!/usr/bin/env python3
"""Independent perft for Event Chess with event #7 Revival in its older wording running from
the start.

A cross-check of xpgn's revivals under `[%event 7 old]`, written from the rules text (the
catalogue's entry for #7 and the rulings RVO-1..RVO-8 of
`docs/rules/event-7-revival-old.md`) on top of python-chess's orthodox legal moves and its
own record of promoted pieces (`Board.promoted`), sharing no code with xpgn:

- what may be revived (RVO-1, RVO-2): per player, the types of which the opponent has
  captured a man of his; a captured promoted piece counts as a pawn, a captured king as
  nothing. A revived piece counts as itself if captured again.
- the root position has no known past (RVO-8): the types a player has fewer of than in the
  standard start position (8 pawns, 2 knights, 2 bishops, 2 rooks, 1 queen) count as
  captured; pieces beyond a type's start count make up for missing pawns, and of such a
  type the pieces nearest the enemy's side are the promoted ones.
- orthodox moves: python-chess 1.11.2's legal moves.
- revivals (RVO-1, RVO-3, RVO-6): a player who has not revived yet may drop a piece of a
  type he may revive (never a king) on any empty square, a pawn not on the first or last
  rank; it captures nothing, sets no en-passant square and spends the player's revival.
- every move is legal iff the mover's king is not attacked afterwards (RVO-5).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    revival_old_perft.py tests/data/perft/revival-old.perft   # recompute every count
    revival_old_perft.py --fen FEN --depth D                  # one count
"""

import argparse
import sys

import chess

START = {chess.PAWN: 8, chess.KNIGHT: 2, chess.BISHOP: 2, chess.ROOK: 2, chess.QUEEN: 1}


def own_rank(square, color):
    rank = chess.square_rank(square)
    return rank if color == chess.WHITE else 7 - rank


def from_board(board):
    """What the root tells without its past (RVO-8): the types each side lost, and the
    board with its promoted pieces marked."""
    lost = {chess.WHITE: frozenset(), chess.BLACK: frozenset()}
    board.promoted = chess.BB_EMPTY
    for color in chess.COLORS:
        kinds = set()
        surplus = 0
        for piece_type in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            squares = sorted(board.pieces(piece_type, color),
                             key=lambda sq: (own_rank(sq, color), sq))
            if len(squares) < START[piece_type]:
                kinds.add(piece_type)
            for sq in squares[START[piece_type]:]:
                board.promoted |= chess.BB_SQUARES[sq]
                surplus += 1
        if len(board.pieces(chess.PAWN, color)) + surplus < START[chess.PAWN]:
            kinds.add(chess.PAWN)
        lost[color] = frozenset(kinds)
    return lost


def taken(board, mv):
    """The type the move takes from the opponent, as revival counts it, or None."""
    if board.is_en_passant(mv):
        return chess.PAWN
    piece = board.piece_at(mv.to_square)
    if piece is None or piece.piece_type == chess.KING:
        return None
    if piece.piece_type != chess.PAWN and board.promoted & chess.BB_SQUARES[mv.to_square]:
        return chess.PAWN
    return piece.piece_type


def legal_moves(board, used, lost):
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        kind = taken(board, mv)
        after = board.copy(stack=False)
        after.push(mv)
        after_lost = lost
        if kind is not None:
            after_lost = dict(lost)
            after_lost[not us] = lost[not us] | {kind}
        out.append((after, used, after_lost))
    if us in used:
        return out
    for piece_type in lost[us]:
        for sq in chess.SQUARES:
            if board.piece_at(sq) is not None:
                continue
            if piece_type == chess.PAWN and chess.square_rank(sq) in (0, 7):
                continue
            after = board.copy(stack=False)
            after.set_piece_at(sq, chess.Piece(piece_type, us))
            after.ep_square = None
            after.halfmove_clock += 1
            if us == chess.BLACK:
                after.fullmove_number += 1
            after.turn = not us
            king = after.king(us)
            if king is None or not after.is_attacked_by(not us, king):
                out.append((after, used | {us}, lost))
    return out


def perft(board, used, lost, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, used, lost)
    if depth == 1:
        return len(moves)
    return sum(perft(after, u, l, depth - 1) for after, u, l in moves)


def root_perft(fen, depth):
    board = chess.Board(fen)
    lost = from_board(board)
    return perft(board, frozenset(), lost, depth)


def check_file(path):
    bad = 0
    fen = ident = None
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
                got = root_perft(fen, depth)
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
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    print(root_perft(args.fen, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
