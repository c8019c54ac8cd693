#!/usr/bin/env python3
"""Independent perft for Event Chess with event #109 Pawn Grabbers running from the start.

A cross-check of xpgn's #109 moves, written from the rules text (the catalogue's entry and
rulings PG-1..PG-5 in docs/rules/event-109-pawn-grabbers.md) on the small mailbox board of
`perft_common.py`, sharing no code with xpgn:

- PG-1: if the side to move has a legal capture of a pawn after which the opponent has no
  legal capture on the square the capturer landed on, only captures are legal (any).
- PG-2: en passant is a pawn capture; PG-3: the recaptures are fully legal moves (a
  pinned piece, a king into check do not count); PG-4: a mating capture has none.

Usage (any Python 3):

    pawn_grabbers_perft.py tests/data/perft/pawn-grabbers.perft
    pawn_grabbers_perft.py --fen FEN --depth D [--divide]
"""

import argparse
import sys

from perft_common import (LETTERS, attacked, castle_rook, castlings, drop_king_rights,
                          name, other, own_pieces, parse_fen_fields, piece_moves,
                          strip_rights)


def king_of(b, c):
    k = LETTERS[c][4]
    return next((i for i in range(64) if b[i] == k), None)


def orthodox_moves(pos):
    """Legal orthodox moves: (text, child, captured letter or None, landing square)."""
    b, turn, castle, ep = pos
    out = []
    for f, p in own_pieces(b, turn):
        for t, kind in piece_moves(b, f, ep, ec4=False):
            promos = [None]
            if p.upper() == "P" and t // 8 in (0, 7):
                promos = [x if p.isupper() else x.lower() for x in "QRBN"]
            for promo in promos:
                nb = b[:]
                captured = b[t]
                nb[t] = promo or p
                nb[f] = None
                if kind == "ep":
                    victim = t - 8 if p.isupper() else t + 8
                    captured = nb[victim]
                    nb[victim] = None
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
                out.append((uci, (nb, other(turn), cr, nep), captured, t))
    for k, kto, rto, cross in castlings(b, castle, turn):
        if any(attacked(b, x, other(turn)) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        out.append((name(k) + name(kto), (nb, other(turn), drop_king_rights(castle, turn), None), None, kto))
    return out


def legal_moves(pos):
    ms = orthodox_moves(pos)
    duty = False
    for _, child, captured, t in ms:
        if captured is not None and captured.upper() == "P":
            if not any(c is not None and tt == t for _, _, c, tt in orthodox_moves(child)):
                duty = True
                break
    if duty:
        ms = [m for m in ms if m[2] is not None]
    return [(text, child) for text, child, _, _ in ms]


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
        for text, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (text, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
