#!/usr/bin/env python3
"""Independent perft for Event Chess with event #13 Pawn March running from the start.

A cross-check of xpgn's Pawn March turns, written from the rules text (the catalogue's
entry for #13 and the rulings PM-1..PM-6 of `docs/rules/event-13-pawn-march.md`) on top
of python-chess's orthodox moves, sharing no code with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves, each a whole turn (PM-3).
- turns of two pawn moves (PM-1, PM-2): a pawn move that captures nothing (python-chess's
  pseudo-legal pawn pushes, promotions included), played with the mover still to move
  and his king allowed in check, then a pawn move of another pawn that captures nothing;
  the turn is legal iff the mover's king is not attacked after it. The two orders of the
  same two moves are two turns.
- en passant (PM-4): after two double steps the second one's crossed square is
  python-chess's en-passant square and the first one's is kept here; the reply may take
  onto either (the captures onto the kept one are added here). A turn with one double step
  leaves its crossed square.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    pawn_march_perft.py tests/data/perft/pawn-march.perft   # recompute every count
    pawn_march_perft.py --fen FEN --depth D [--divide]      # one count
"""

import argparse
import sys

import chess


def quiet_pawn_moves(board, exclude=None):
    """The side to move's pawn moves that capture nothing, legal or not."""
    out = []
    for mv in board.generate_pseudo_legal_moves(board.pawns & board.occupied_co[board.turn]):
        if mv.from_square == exclude or board.is_capture(mv):
            continue
        out.append(mv)
    return out


def double_step_square(mv):
    if abs(mv.to_square - mv.from_square) == 16:
        return (mv.from_square + mv.to_square) // 2
    return None


def safe(board, us):
    king = board.king(us)
    return king is None or not board.is_attacked_by(not us, king)


def turns(board):
    """(name, position after) of every turn of two pawn moves."""
    us = board.turn
    out = []
    for first in quiet_pawn_moves(board):
        mid = board.copy(stack=False)
        mid.push(first)
        mid.turn = us
        if us == chess.BLACK:
            mid.fullmove_number -= 1
        for second in quiet_pawn_moves(mid, exclude=first.to_square):
            after = mid.copy(stack=False)
            after.push(second)
            if not safe(after, us):
                continue
            ep1, ep2 = double_step_square(first), double_step_square(second)
            after.ep_square = ep2 if ep2 is not None else ep1
            after.extra_ep = ep1 if ep2 is not None else None
            out.append((f"{first.uci()},{second.uci()}", after))
    return out


def extra_en_passant(board):
    """Captures onto the first of two double steps' crossed squares (PM-4)."""
    ep = getattr(board, "extra_ep", None)
    if ep is None or board.piece_at(ep) is not None:
        return []
    us = board.turn
    victim = ep + (8 if us == chess.BLACK else -8)
    if board.piece_at(victim) != chess.Piece(chess.PAWN, not us):
        return []
    out = []
    for capturer in chess.SquareSet(board.pawns & board.occupied_co[us] & chess.BB_PAWN_ATTACKS[not us][ep]):
        after = board.copy(stack=False)
        after.remove_piece_at(victim)
        after.remove_piece_at(capturer)
        after.set_piece_at(ep, chess.Piece(chess.PAWN, us))
        after.ep_square = None
        after.turn = not us
        if safe(after, us):
            out.append((f"{chess.square_name(capturer)}{chess.square_name(ep)}", after))
    return out


def legal_moves(board):
    out = []
    for mv in board.generate_legal_moves():
        after = board.copy(stack=False)
        after.push(mv)
        after.extra_ep = None
        out.append((mv.uci(), after))
    out.extend(extra_en_passant(board))
    out.extend(turns(board))
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
