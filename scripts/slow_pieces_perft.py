#!/usr/bin/env python3
"""Independent perft for Event Chess with event #71 Slow Pieces running from the start.

A cross-check of xpgn's #71 moves, written from the rules text (the catalogue's entry and
rulings SP-1..SP-4 in docs/rules/event-71-slow-pieces.md) on the small mailbox board of
`perft_common.py`, sharing no code with xpgn:

- SP-1: a move's length is max(|files|, |ranks|) crossed, at most 2; so every orthodox
  destination farther away is dropped (knight leaps and double steps are 2).
- SP-2: a piece attacks only the squares it could capture on, within 2; a move is legal
  iff the mover's king is not attacked so afterwards.
- SP-4: castling as in orthodox chess, its squares judged with SP-2's attacks.
- EC-4 double steps from the first rank, en passant and promotion (Q R B N) as usual.

Usage (any Python 3):

    slow_pieces_perft.py tests/data/perft/slow-pieces.perft   # recompute every count
    slow_pieces_perft.py --fen FEN --depth D [--divide]       # one count
"""

import argparse
import sys

from perft_common import (LETTERS, castle_rook, castlings, drop_king_rights, name,
                          other, own_pieces, parse_fen_fields, piece_moves, strip_rights)


def near(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8)) <= 2


def attacked(b, s, by):
    """SP-2: does a piece of `by` capture on s, within two squares?"""
    for f, p in own_pieces(b, by):
        if not near(f, s):
            continue
        if p.upper() == "P":
            dr = 1 if p.isupper() else -1
            if s // 8 - f // 8 == dr and abs(s % 8 - f % 8) == 1:
                return True
            continue
        # What it captures on s: its orthodox destinations with s taken by an enemy.
        saved = b[s]
        b[s] = LETTERS[other(by)][5]
        hit = any(t == s for t, _ in piece_moves(b, f))
        b[s] = saved
        if hit:
            return True
    return False


def king_of(b, c):
    k = LETTERS[c][4]
    return next((i for i in range(64) if b[i] == k), None)


def legal_moves(pos):
    b, turn, castle, ep = pos
    out = []
    for f, p in own_pieces(b, turn):
        for t, kind in piece_moves(b, f, ep):
            if not near(f, t):
                continue
            promos = [None]
            if p.upper() == "P" and t // 8 in (0, 7):
                promos = [x if p.isupper() else x.lower() for x in "QRBN"]
            for promo in promos:
                nb = b[:]
                nb[t] = promo or p
                nb[f] = None
                if kind == "ep":
                    nb[t - 8 if p.isupper() else t + 8] = None
                nep = None
                if p.upper() == "P" and abs(t - f) == 16:
                    nep = (t + f) // 2
                cr = castle
                if p.upper() == "K":
                    cr = drop_king_rights(cr, turn)
                cr = strip_rights(strip_rights(cr, f), t)
                k = king_of(nb, turn)
                if k is not None and attacked(nb, k, other(turn)):
                    continue
                uci = name(f) + name(t) + (promo.lower() if promo else "")
                out.append((uci, (nb, other(turn), cr, nep)))
    for k, kto, rto, cross in castlings(b, castle, turn):
        if any(attacked(b, x, other(turn)) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        out.append((name(k) + name(kto), (nb, other(turn), drop_king_rights(castle, turn), None)))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def position(fen):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, turn, castle, ep)


def check_file(path):
    bad = 0
    fen = None
    for line in open(path):
        line = line.strip()
        if line.startswith("fen "):
            fen = line[4:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            mine = perft(position(fen), int(depth))
            ok = mine == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file) else 0)
    pos = position(a.fen)
    if a.divide:
        for uci, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (uci, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
