#!/usr/bin/env python3
"""Independent perft for Event Chess with event #44 Prison started at the position.

A cross-check of xpgn's #44 moves, written from the rules text (rulings PN-1..PN-8 in
docs/rules/event-44-prison.md) on the small mailbox board of `perft_common.py`, sharing
no code with xpgn:

- PN-1: the prisons are the two rooks named in the `events 44 h1 a8` line.
- PN-2: a prison moves at most one square (a rook: one step along its file or rank); the
  prison travels with its rook; castling is as in orthodox chess, the prison with it.
- PN-3: a prison attacks only the squares next to it along its file and rank; a move is
  legal iff the mover's king is not attacked so afterwards.
- PN-4, PN-5: a prisoner is off the board and changes no move; a captured prison is no
  longer a prison.
- EC-4 double steps from the first rank, en passant and promotion (Q R B N) as usual.

Usage (any Python 3):

    prison_perft.py tests/data/perft/prison.perft                     # recompute every count
    prison_perft.py --fen FEN --prisons a1,a8 --depth D [--divide]    # one count
"""

import argparse
import sys

from perft_common import (LETTERS, castle_rook, castlings, drop_king_rights, name,
                          other, own_pieces, parse_fen_fields, piece_moves, sq, strip_rights)


def near(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8)) <= 1


def attacked(b, prisons, s, by):
    """PN-3: does a piece of `by` capture on s, a prison only next to it?"""
    for f, p in own_pieces(b, by):
        if f in prisons and not near(f, s):
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
    b, turn, castle, ep, prisons = pos
    out = []
    for f, p in own_pieces(b, turn):
        for t, kind in piece_moves(b, f, ep):
            if f in prisons and not near(f, t):
                continue
            moved = prisons - {f, t} | ({t} if f in prisons else set())
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
                if k is not None and attacked(nb, moved, k, other(turn)):
                    continue
                uci = name(f) + name(t) + (promo.lower() if promo else "")
                out.append((uci, (nb, other(turn), cr, nep, moved)))
    for k, kto, rto, cross in castlings(b, castle, turn):
        if any(attacked(b, prisons, x, other(turn)) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        rook = next(x for x in range(64) if b[x] is not None and nb[x] is None and x != k)
        moved = prisons - {rook} | ({rto} if rook in prisons else set())
        out.append((name(k) + name(kto), (nb, other(turn), drop_king_rights(castle, turn), None, moved)))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def position(fen, prisons):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, turn, castle, ep, frozenset(sq(p) for p in prisons))


def check_file(path):
    bad = 0
    fen = None
    prisons = []
    for line in open(path):
        line = line.strip()
        if line.startswith("fen "):
            fen = line[4:]
        elif line.startswith("events 44 "):
            prisons = line.split()[2:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            mine = perft(position(fen, prisons), int(depth))
            ok = mine == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--prisons", default="a1,a8")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file) else 0)
    pos = position(a.fen, a.prisons.split(","))
    if a.divide:
        for uci, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (uci, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
