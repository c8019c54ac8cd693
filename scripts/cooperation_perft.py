#!/usr/bin/env python3
"""Independent perft for Event Chess with event #73 Cooperation running from the start.

A cross-check of xpgn's Cooperation moves, written from the rules text (the catalogue's
entry for #73 and the rulings CP-1..CP-6 of `docs/rules/event-73-cooperation.md`) on top
of python-chess's orthodox moves, sharing no code with xpgn:

- a knight, bishop, rook or queen with an allied knight, bishop, rook or queen of another
  kind on a square next to it on its file or rank also moves and captures as that kind
  does, from its own square (CP-1, CP-6); what a neighbour only borrows is not lent on
  (CP-2);
- the borrowed moves attack (CP-4): a move is legal iff the mover's king is not attacked
  afterwards, attacks counting the borrowed movements of the position after the move;
- castling is not borrowed (CP-3); positions hold no castling rights, as python-chess
  judges a castle's path with its own attacks.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    cooperation_perft.py tests/data/perft/cooperation.perft   # recompute every count
    cooperation_perft.py --fen FEN --depth D [--divide]       # one count
"""

import argparse
import sys

import chess

PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def kind_attacks(kind, sq, occupied):
    """The squares a piece of `kind` on `sq` attacks, `occupied` in the way."""
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[sq]
    out = 0
    if kind in (chess.BISHOP, chess.QUEEN):
        out |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
    if kind in (chess.ROOK, chess.QUEEN):
        out |= chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
        out |= chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
    return out


def orthogonal(sq):
    f, r = chess.square_file(sq), chess.square_rank(sq)
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= f + df < 8 and 0 <= r + dr < 8:
            yield chess.square(f + df, r + dr)


def borrowed_kinds(board, sq):
    """The kinds the piece on `sq` borrows from its allied neighbours (CP-1)."""
    piece = board.piece_at(sq)
    if piece is None or piece.piece_type not in PIECES:
        return set()
    kinds = set()
    for n in orthogonal(sq):
        other = board.piece_at(n)
        if (other is not None and other.color == piece.color
                and other.piece_type in PIECES and other.piece_type != piece.piece_type):
            kinds.add(other.piece_type)
    return kinds


def reach(board, sq):
    """Every square the piece on `sq` attacks, its own movement and the borrowed ones."""
    piece = board.piece_at(sq)
    out = board.attacks_mask(sq)
    for kind in borrowed_kinds(board, sq):
        out |= kind_attacks(kind, sq, board.occupied)
    return out


def attacked(board, sq, by):
    if board.attackers_mask(by, sq):
        return True
    for s in chess.SquareSet(board.occupied_co[by]):
        if borrowed_kinds(board, s) and reach(board, s) & chess.BB_SQUARES[sq]:
            return True
    return False


def legal_moves(board):
    """(uci, position after) of every legal move."""
    us = board.turn
    seen = set()
    candidates = []
    for mv in board.generate_pseudo_legal_moves():
        seen.add((mv.from_square, mv.to_square, mv.promotion))
        candidates.append(mv)
    for s in chess.SquareSet(board.occupied_co[us]):
        if not borrowed_kinds(board, s):
            continue
        for t in chess.SquareSet(reach(board, s) & ~board.occupied_co[us]):
            if (s, t, None) not in seen:
                seen.add((s, t, None))
                candidates.append(chess.Move(s, t))
    out = []
    for mv in candidates:
        after = board.copy(stack=False)
        after.push(mv)
        king = after.king(us)
        if king is None or not attacked(after, king, not us):
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
    ap.add_argument("--fen", default="r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
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
