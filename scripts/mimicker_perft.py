#!/usr/bin/env python3
"""Independent perft for Event Chess with event #32 Mimicker running from the start.

A cross-check of xpgn's #32 moves, written from the rules text (the catalogue's entry and
rulings MI-1..MI-6 in docs/rules/event-32-mimicker.md) on the small mailbox board of
`perft_common.py`, sharing no code with xpgn:

- MI-1: a side's bishops move and capture as the kind the opponent moved last (N, R, Q,
  K), as bishops after a pawn or bishop move or before the opponent's first move since
  the start; a bishop copying a king or rook never castles (MI-4).
- MI-2: the kind that counts is the moving unit's; castling counts as a rook move, a
  promotion as a pawn move.
- MI-6: attacks follow the borrowed movement, judged after the move, so a move is legal
  iff the mover's king is not attacked once the opponent's bishops copy the piece just
  moved; castling's start and crossed squares are judged with the attacks before it, its
  landing square after it (the opponent's bishops then copy the rook).

A position is the FEN plus what each side moved last (`--last w,b`, letters or `-`).

Usage (any Python 3):

    mimicker_perft.py tests/data/perft/mimicker.perft
    mimicker_perft.py --fen FEN --last -,- --depth D [--divide]
"""

import argparse
import sys

from perft_common import (LETTERS, castle_rook, castlings, drop_king_rights, name, other,
                          own_pieces, parse_fen_fields, piece_moves, strip_rights)


def copied(last, c):
    """MI-1: the letter (upper case) whose movement c's bishops borrow, or None."""
    k = last[other(c)]
    return k if k in ("N", "R", "Q", "K") else None


def moves_of(b, f, last, ep=None):
    """The destinations of the piece on f, a bishop moving as it borrows."""
    p = b[f]
    c = "w" if p.isupper() else "b"
    if p.upper() == "B":
        k = copied(last, c)
        if k:
            b[f] = k if p.isupper() else k.lower()
            out = list(piece_moves(b, f, ep, ec4=False))
            b[f] = p
            return out
    return list(piece_moves(b, f, ep, ec4=False))


def attacked(b, s, by, last):
    for f, p in own_pieces(b, by):
        if p.upper() == "P":
            dr = 1 if p.isupper() else -1
            if s // 8 - f // 8 == dr and abs(s % 8 - f % 8) == 1:
                return True
            continue
        saved = b[s]
        b[s] = LETTERS[other(by)][5]
        hit = any(t == s for t, _ in moves_of(b, f, last))
        b[s] = saved
        if hit:
            return True
    return False


def king_of(b, c):
    k = LETTERS[c][4]
    return next((i for i in range(64) if b[i] == k), None)


def legal_moves(pos):
    b, last, turn, castle, ep = pos
    out = []

    def add(text, nb, kind, cr, nep):
        nl = dict(last)
        nl[turn] = kind
        k = king_of(nb, turn)
        if k is not None and attacked(nb, k, other(turn), nl):
            return
        out.append((text, (nb, nl, other(turn), cr, nep)))

    for f, p in own_pieces(b, turn):
        for t, kind in moves_of(b, f, last, ep):
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
                add(name(f) + name(t) + (promo.lower() if promo else ""), nb, p.upper(), cr, nep)
    for k, kto, rto, cross in castlings(b, castle, turn):
        if any(attacked(b, x, other(turn), last) for x in cross[:2]):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        add(name(k) + name(kto), nb, "R", drop_king_rights(castle, turn), None)
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def position(fen, lasts):
    b, turn, castle, ep = parse_fen_fields(fen)
    w, bl = lasts.split(",")
    return (b, {"w": w.upper(), "b": bl.upper()}, turn, castle, ep)


def check_file(path):
    bad = 0
    fen = None
    lasts = "-,-"
    for line in open(path):
        line = line.strip()
        if line.startswith("fen "):
            fen = line[4:]
            lasts = "-,-"
            # The extended FEN's events field: events(32w:-,N)
            if "events(" in fen:
                fen, field = fen.split(" events(")
                lasts = field.rstrip(")").split(":")[1]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            mine = perft(position(fen, lasts), int(depth))
            ok = mine == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--last", default="-,-")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file) else 0)
    pos = position(a.fen, a.last)
    if a.divide:
        for text, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (text, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
