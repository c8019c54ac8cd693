#!/usr/bin/env python3
"""Independent perft for Event Chess with event #59 Loyal Queen running from the start.

A cross-check of xpgn's Loyal Queen moves, written from the rules text (the catalogue's
entry for #59 and the rulings LY-1..LY-7 of `docs/rules/event-59-loyal-queen.md`) on top
of python-chess's orthodox moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's pseudo-legal moves (less its double step of a
  pawn on its first rank, which orthodox rules do not have), legal iff the mover's king is
  not attacked afterwards, by an ordinary attack or a loyal queen's threat (LY-5).
- two-part moves (LY-1, LY-3, LY-4): a queen on one of the eight squares around its own
  king steps one square onto an empty square or an enemy piece, then makes a queen move
  from there onto an empty square or an enemy piece, never back to its start square; one
  move per queen, step square and end; legal by the same test (LY-2: only the position
  after the whole move counts). The move ends the castling rights of the squares it
  touches.
- threats (LY-5): a queen next to its own king attacks every square a queen's attack
  reaches from a square it can step to (empty or holding an enemy piece), the queen gone
  from its start square and standing on the step square.
- castling: python-chess's castling, and besides, the king's start square and the square
  it crosses may not be threatened by a loyal queen, judged with the king and rook off the
  board and again with the king standing on the square.

Usage (python-chess 1.11.2):

    loyal_queen_perft.py tests/data/perft/loyal-queen.perft   # recompute every count
    loyal_queen_perft.py --fen FEN --depth D [--divide]        # one count
"""

import argparse
import sys

import chess


def queen_attacks(sq, occ):
    return (chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occ]
            | chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occ]
            | chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occ])


def loyal_queens(board, color, occ):
    """The queens of `color` standing next to one of its kings (LY-1)."""
    kings = board.pieces_mask(chess.KING, color) & occ
    near = 0
    for king in chess.scan_forward(kings):
        near |= chess.BB_KING_ATTACKS[king]
    return board.pieces_mask(chess.QUEEN, color) & occ & near


def steps(board, queen, color, occ):
    """The squares a queen of `color` on `queen` may step to (LY-1)."""
    own = board.occupied_co[color] & occ
    return chess.BB_KING_ATTACKS[queen] & ~own


def threatened(board, sq, by, occ):
    """Whether a loyal queen of `by` takes on `sq` in two parts, with `occ` in the way."""
    for queen in chess.scan_forward(loyal_queens(board, by, occ)):
        for step in chess.scan_forward(steps(board, queen, by, occ)):
            if step == sq:
                continue
            moved = (occ & ~chess.BB_SQUARES[queen]) | chess.BB_SQUARES[step]
            if queen_attacks(step, moved) & chess.BB_SQUARES[sq]:
                return True
    return False


def safe(board, us):
    king = board.king(us)
    if king is None:
        return True
    them = not us
    return not (board.is_attacked_by(them, king)
                or threatened(board, king, them, board.occupied))


def castle_threatened(board, mv):
    """Whether a loyal queen threatens the king's start square or the square it crosses."""
    us = board.turn
    king = mv.from_square
    rook = mv.to_square if board.chess960 else None
    to_file = 6 if chess.square_file(mv.to_square) > chess.square_file(king) else 2
    if rook is None:
        rook = chess.square(7 if to_file == 6 else 0, chess.square_rank(king))
    king_to = chess.square(to_file, chess.square_rank(king))
    tested = [king] + [sq for sq in chess.scan_forward(chess.between(king, king_to))]
    others = board.occupied & ~chess.BB_SQUARES[king] & ~chess.BB_SQUARES[rook]
    for sq in tested:
        if not threatened(board, sq, not us, others):
            continue
        there = board.copy(stack=False)
        there.remove_piece_at(king)
        there.set_piece_at(sq, chess.Piece(chess.KING, us))
        if threatened(there, sq, not us, others | chess.BB_SQUARES[sq]):
            return True
    return False


def first_rank_double(board, mv):
    """python-chess lets a pawn on its first rank step two; orthodox rules do not."""
    home = 0 if board.turn == chess.WHITE else 7
    return (board.piece_type_at(mv.from_square) == chess.PAWN
            and chess.square_rank(mv.from_square) == home
            and abs(mv.to_square - mv.from_square) == 16)


def legal_moves(board):
    """(name, position after) of every legal move, two-part moves included."""
    us = board.turn
    out = []
    for mv in board.generate_pseudo_legal_moves():
        if first_rank_double(board, mv):
            continue
        if board.is_castling(mv) and castle_threatened(board, mv):
            continue
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us):
            out.append((mv.uci(), after))
    occ = board.occupied
    for queen in chess.scan_forward(loyal_queens(board, us, occ)):
        for step in chess.scan_forward(steps(board, queen, us, occ)):
            moved = (occ & ~chess.BB_SQUARES[queen]) | chess.BB_SQUARES[step]
            own = (board.occupied_co[us] & ~chess.BB_SQUARES[queen]) | chess.BB_SQUARES[step]
            ends = queen_attacks(step, moved) & ~own & ~chess.BB_SQUARES[queen]
            for end in chess.scan_forward(ends):
                after = board.copy(stack=False)
                after.remove_piece_at(queen)
                after.remove_piece_at(step)
                after.remove_piece_at(end)
                after.set_piece_at(end, chess.Piece(chess.QUEEN, us))
                after.castling_rights &= ~(chess.BB_SQUARES[queen] | chess.BB_SQUARES[step]
                                           | chess.BB_SQUARES[end])
                after.ep_square = None
                after.turn = not us
                if safe(after, us):
                    name = "Q" + "-".join(chess.square_name(s) for s in (queen, step, end))
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
