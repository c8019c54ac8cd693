#!/usr/bin/env python3
"""Independent perft for Event Chess with event #57 Long live the queen! running from the
start.

A cross-check of xpgn's moves under #57, written from its rules page
(`docs/rules/event-57-long-live-the-queen.md`, rulings LQ-1..LQ-5) on the small mailbox
board of `perft_common.py`, sharing no code with xpgn. python-chess cannot make a queen
royal, so it is not used.

- LQ-2: a king moves and attacks like an orthodox queen, a queen like an orthodox king.
  The board is kept with its real letters; movement and attacks are worked out on a copy
  whose K and Q letters are swapped, where the orthodox rules of `perft_common.py` then
  hold.
- LQ-1: every queen is royal: a move is legal iff no queen of the mover is attacked after
  it, unless it took a royal queen, which wins (LQ-5); kings are ordinary pieces.
- LQ-3: the queen castles: a queen on her home square (d1, d8) and a rook on a corner
  whose right the FEN gives count as unmoved until they move or are taken; with nothing
  between them, the queen not attacked and the square she crosses not attacked (the
  queen off the board), she moves two squares toward the rook, which lands on the square
  she crossed; the landing square is judged by legality. The king never castles.
- LQ-4: a pawn promotes to a rook, bishop, knight or king, never to a queen.
- A side with fewer queens than when the event started has lost: no moves after that.

Usage:

    royal_queen_perft.py tests/data/perft/long-live-the-queen.perft   # recompute every count
    royal_queen_perft.py --fen FEN --depth D                          # one count
"""

import argparse
import sys

from perft_common import (attacked, other, parse_fen_fields, piece_moves, sq)

SWAP = {"K": "Q", "Q": "K", "k": "q", "q": "k"}
HOME = {"w": sq("d1"), "b": sq("d8")}
CORNERS = {"K": sq("h1"), "Q": sq("a1"), "k": sq("h8"), "q": sq("a8")}


def swapped(b):
    return [SWAP.get(x, x) for x in b]


def queens(b, c):
    q = "Q" if c == "w" else "q"
    return [s for s in range(64) if b[s] == q]


def royal_attacked(b, c):
    """Is a queen of c attacked under #57 (LQ-1, LQ-2)?"""
    sb = swapped(b)
    return any(attacked(sb, s, other(c)) for s in queens(b, c))


def candidates(pos):
    """Every move of the side to move before the royal test: (board after, ep after,
    unmoved after, whether it took a queen)."""
    b, c, ep, unmoved, start = pos
    sb = swapped(b)
    up = c == "w"
    out = []
    for s in range(64):
        p = b[s]
        if p is None or p.isupper() != up:
            continue
        for to, kind in piece_moves(sb, s, ep, ec4=False):
            took = b[to]
            nb = list(b)
            nb[s] = None
            nb[to] = p
            if kind == "ep":
                nb[to + (-8 if up else 8)] = None
            new_ep = None
            if p.upper() == "P" and abs(to - s) == 16:
                new_ep = (s + to) // 2
            left = unmoved - {s, to}
            took_queen = took is not None and took.upper() == "Q"
            if p.upper() == "P" and to // 8 in (0, 7):
                for promo in "RBNK":
                    pb = list(nb)
                    pb[to] = promo if up else promo.lower()
                    out.append((pb, None, left, took_queen))
            else:
                out.append((nb, new_ep, left, took_queen))
    # LQ-3: the queen castles.
    q_letter, r_letter = ("Q", "R") if up else ("q", "r")
    for q in queens(b, c):
        if q not in unmoved:
            continue
        for r in range(q // 8 * 8, q // 8 * 8 + 8):
            if b[r] != r_letter or r not in unmoved:
                continue
            step = 1 if r > q else -1
            between = range(q + step, r, step)
            if any(b[x] is not None for x in between):
                continue
            crossed, land = q + step, q + 2 * step
            if land // 8 != q // 8 or land == r:
                continue
            if attacked(sb, q, other(c)):
                continue
            off_board = list(sb)
            off_board[q] = None
            if attacked(off_board, crossed, other(c)):
                continue
            nb = list(b)
            nb[q], nb[r] = None, None
            nb[land], nb[crossed] = q_letter, r_letter
            out.append((nb, None, unmoved - {q, r}, False))
    return out


def lost(b, start):
    return next((c for c in "wb" if len(queens(b, c)) < start[c]), None)


def legal_moves(pos):
    b, c, ep, unmoved, start = pos
    if lost(b, start):
        return []
    out = []
    for nb, new_ep, left, took_queen in candidates(pos):
        if took_queen and lost(nb, start) == other(c) or not royal_attacked(nb, c):
            out.append((None, (nb, other(c), new_ep, left, start)))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def start_position(fen):
    b, c, castle, ep = parse_fen_fields(fen)
    unmoved = {HOME[col] for col in "wb" if b[HOME[col]] == ("Q" if col == "w" else "q")}
    unmoved |= {CORNERS[r] for r in castle if b[CORNERS[r]] == ("R" if r.isupper() else "r")}
    start = {col: len(queens(b, col)) for col in "wb"}
    return (b, c, ep, frozenset(unmoved), start)


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
                got = perft(start_position(fen), depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--depth", type=int)
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    print(perft(start_position(args.fen), args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
