#!/usr/bin/env python3
"""Independent perft for Event Chess with event #96 En Passant for all running from the start.

A cross-check of xpgn's en-passant captures of every piece, written from the rules text
(the catalogue's entry for #96 and the rulings EA-1..EA-5 of
`docs/rules/event-96-en-passant-for-all.md`) on top of python-chess's orthodox legal
moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves (castling through an attacked square
  stays illegal, EA-3).
- squares passed (EA-2): after each move, the squares strictly between the square left
  and the square reached on a rank, file or diagonal, for the piece now on the square
  reached (in castling, the rook's); none for a king.
- captures (EA-1): on the next move only, a piece of the side to move that attacks an
  empty square passed over (python-chess's `attacks`: a pawn diagonally forward) goes
  there and the piece that passed it is removed; a pawn on its last rank promotes to Q, R,
  B or N. A pawn taking a pawn that stepped two is python-chess's own en passant. The
  capture passes squares in turn (EA-4).
- every move is legal iff the mover's king is not attacked afterwards.

Usage (python-chess 1.11.2):

    en_passant_for_all_perft.py tests/data/perft/en-passant-for-all.perft   # every count
    en_passant_for_all_perft.py --fen FEN --depth D [--divide]              # one count
"""

import argparse
import sys

import chess

PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def between(a, b):
    return chess.SquareSet(chess.between(a, b))


class Take:
    def __init__(self, frm, to, victim, promotion=None):
        self.frm, self.to, self.victim, self.promotion = frm, to, victim, promotion

    def name(self):
        p = "=" + chess.piece_symbol(self.promotion).upper() if self.promotion else ""
        return f"{chess.square_name(self.frm)}x{chess.square_name(self.to)}{p}"


def passed_after(after, frm, to):
    """The piece on `to` and the squares it passed coming from `frm`, unless a king."""
    piece = after.piece_at(to)
    if piece is None or piece.piece_type == chess.KING:
        return None
    squares = between(frm, to)
    return (to, squares) if squares else None


def takes_of(board, state):
    if state is None:
        return []
    victim, squares = state
    us = board.turn
    out = []
    last = 7 if us == chess.WHITE else 0
    for to in squares:
        if board.piece_at(to) is not None:
            continue
        for frm in chess.SquareSet(board.attackers_mask(us, to)):
            piece = board.piece_at(frm)
            if piece.piece_type == chess.PAWN and board.ep_square == to:
                continue
            if piece.piece_type == chess.PAWN and chess.square_rank(to) == last:
                out.extend(Take(frm, to, victim, p) for p in PROMOTIONS)
            else:
                out.append(Take(frm, to, victim))
    return out


def play_take(board, mv):
    after = board.copy(stack=False)
    piece = board.piece_at(mv.frm)
    after.remove_piece_at(mv.victim)
    after.remove_piece_at(mv.frm)
    after.set_piece_at(mv.to, chess.Piece(mv.promotion or piece.piece_type, board.turn))
    rights = after.castling_rights & ~chess.BB_SQUARES[mv.frm] & ~chess.BB_SQUARES[mv.victim]
    if piece.piece_type == chess.KING:
        rights &= ~(chess.BB_RANK_1 if board.turn == chess.WHITE else chess.BB_RANK_8)
    after.castling_rights = rights
    after.ep_square = None
    after.halfmove_clock = 0
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def safe(after, us):
    king = after.king(us)
    return king is None or not after.is_attacked_by(not us, king)


def legal_moves(board, state):
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        castle = board.is_castling(mv)
        after.push(mv)
        if castle:
            rook_from = mv.from_square + (3 if mv.to_square > mv.from_square else -4)
            rook_to = mv.from_square + (1 if mv.to_square > mv.from_square else -1)
            nxt = passed_after(after, rook_from, rook_to)
        else:
            nxt = passed_after(after, mv.from_square, mv.to_square)
        out.append((mv, after, nxt))
    for mv in takes_of(board, state):
        after = play_take(board, mv)
        if safe(after, us):
            out.append((mv, after, passed_after(after, mv.frm, mv.to)))
    return out


def perft(board, state, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, state)
    if depth == 1:
        return len(moves)
    return sum(perft(after, nxt, depth - 1) for _, after, nxt in moves)


def name(board, mv):
    return mv.name() if isinstance(mv, Take) else board.uci(mv)


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
                got = perft(chess.Board(fen), None, depth)
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
        for mv, after, nxt in legal_moves(board, None):
            n = perft(after, nxt, args.depth - 1)
            total += n
            print(f"{name(board, mv)}: {n}")
        print(total)
    else:
        print(perft(board, None, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
