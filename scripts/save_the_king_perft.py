#!/usr/bin/env python3
"""Independent perft for Event Chess with event #3 Save the king! running.

A cross-check of xpgn's moves under #3, written from the rules text (the catalogue's
entry for #3 and the rulings SV-1..SV-8 of `docs/rules/event-3-save-the-king.md`) on top
of python-chess's pseudo-legal moves, sharing no code with xpgn. The positions are taken
as they stand once the event runs (the kings' swap, SV-1, is in the FEN already):

- no piece is royal (SV-2): every pseudo-legal move is legal; a king may stand attacked.
- a king may not capture (SV-3).
- a capture of a king (SV-4) is one move per square empty once the capture is made (the
  capturer's square included, the king's not), and per promotion piece; the king is put
  there. Nothing else is special about it.
- a player whose king stands on his own first rank has won (SV-5): the position has no
  moves. Both kings home (only the swap can do it) wins nobody (SV-6).

Every position in the file has no castling rights (SV-1 takes them away); the FENs'
seventh field, `events(3-)`, tells xpgn the event runs and is left out here.

Usage (python-chess 1.11.2):

    save_the_king_perft.py tests/data/perft/save-the-king.perft   # recompute every count
    save_the_king_perft.py --fen FEN --depth D [--divide]         # one count
"""

import argparse
import sys

import chess


def home(board):
    """The players whose king stands on their own first rank (SV-5)."""
    out = []
    for color, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
        if any(chess.square_rank(k) == rank for k in board.pieces(chess.KING, color)):
            out.append(color)
    return out


def legal_moves(board):
    if len(home(board)) == 1:
        return []
    out = []
    them = not board.turn
    for mv in board.generate_pseudo_legal_moves():
        mover = board.piece_at(mv.from_square)
        victim = board.piece_at(mv.to_square)
        if board.is_castling(mv):
            continue
        if mover.piece_type == chess.KING and (victim is not None or board.is_en_passant(mv)):
            continue
        after = board.copy(stack=False)
        after.push(mv)
        if victim is not None and victim.piece_type == chess.KING and victim.color == them:
            free = [s for s in chess.SQUARES if after.piece_at(s) is None]
            for back in free:
                placed = after.copy(stack=False)
                placed.set_piece_at(back, victim)
                out.append((f"{mv.uci()}@{chess.square_name(back)}", placed))
        else:
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
                fen = " ".join(value.split()[:6])
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
