#!/usr/bin/env python3
"""Independent perft for Event Chess with event #78 Commanding Voice running from the start.

A cross-check of xpgn's #78 moves, written from the rules text (the catalogue's entry and
rulings CV-1..CV-8 in docs/rules/event-78-commanding-voice.md) on the small mailbox board
of `perft_common.py`, sharing no code with xpgn:

- CV-1, CV-2: a piece other than the king may move only when it stands at most three
  squares (king distance) from its own king; the king always moves, castling is always
  allowed (with its usual conditions). CV-8: a side with no king is not restricted.
- CV-4: a piece that may not move attacks nothing but still blocks lines: a move is legal
  iff no enemy piece that may move attacks the mover's king afterwards, and castling
  crosses no square such a piece attacks.
- CV-5: a king may step onto an own rook next to it (the rook goes out of play under it);
  stepping off, the king leaves the rook on the square it left. While a king rides a
  rook, every piece of its side may move and attacks as usual.
- Double steps from the second rank only (no EC-4), en passant and promotion (Q R B N)
  as usual.

A position is given by a FEN (kings riding a rook: `--riding d1`); a perft file's
positions have no king riding.

Usage (any Python 3):

    commanding_voice_perft.py tests/data/perft/commanding-voice.perft  # recompute every count
    commanding_voice_perft.py --fen FEN --depth D [--riding SQS] [--divide]
"""

import argparse
import sys

from perft_common import (KI_T, attacked, castle_rook, castlings, drop_king_rights, name, other,
                          own_pieces, parse_fen_fields, piece_moves, sq, strip_rights)

RANGE = 3


def is_white(c):
    return c == "w"


def kings_of(b, c):
    k = "K" if is_white(c) else "k"
    return [s for s in range(64) if b[s] == k]


def distance(a, b):
    return max(abs(a % 8 - b % 8), abs(a // 8 - b // 8))


def commanded(b, s, c, riding):
    """CV-1, CV-2, CV-5, CV-8: may the piece of colour c on s move (and so attack)?"""
    if b[s].upper() == "K":
        return True
    kings = kings_of(b, c)
    if not kings or any(k in riding for k in kings):
        return True
    return any(distance(k, s) <= RANGE for k in kings)


def voiced_attack(b, s, by, riding):
    """CV-4: does a piece of `by` that may move attack s? The others stand in as
    blockers that attack nothing."""
    nb = b[:]
    for f in range(64):
        p = nb[f]
        if p is not None and p.isupper() == is_white(by) and not commanded(b, f, by, riding):
            nb[f] = "X" if p.isupper() else "x"
    return attacked(nb, s, by)


def in_check(b, c, riding):
    return any(voiced_attack(b, k, other(c), riding) for k in kings_of(b, c))


def legal_moves(pos):
    b, turn, castle, ep, riding = pos
    out = []
    rook = "R" if is_white(turn) else "r"
    for f, p in own_pieces(b, turn):
        if not commanded(b, f, turn, riding):
            continue
        for t, kind in piece_moves(b, f, ep, ec4=False):
            promos = [None]
            if p.upper() == "P" and t // 8 in (0, 7):
                promos = [x if p.isupper() else x.lower() for x in "QRBN"]
            for promo in promos:
                nb = b[:]
                nb[t] = promo or p
                nb[f] = None
                nr = riding
                if kind == "ep":
                    nb[t - 8 if p.isupper() else t + 8] = None
                if f in riding:
                    nb[f] = rook
                    nr = riding - {f}
                nep = None
                if p.upper() == "P" and abs(t - f) == 16:
                    nep = (t + f) // 2
                cr = castle
                if p.upper() == "K":
                    cr = drop_king_rights(cr, turn)
                cr = strip_rights(strip_rights(cr, f), t)
                if in_check(nb, turn, nr):
                    continue
                uci = name(f) + name(t) + (promo.lower() if promo else "")
                out.append((uci, (nb, other(turn), cr, nep, nr)))
        if p.upper() == "K":
            for t in KI_T[f]:
                if b[t] != rook:
                    continue
                nb = b[:]
                nb[t] = p
                nb[f] = rook if f in riding else None
                nr = (riding - {f}) | {t}
                cr = strip_rights(drop_king_rights(castle, turn), t)
                if in_check(nb, turn, nr):
                    continue
                out.append((name(f) + name(t) + "*", (nb, other(turn), cr, None, nr)))
    for k, kto, rto, cross in castlings(b, castle, turn):
        if any(voiced_attack(b, x, other(turn), riding) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        out.append((name(k) + name(kto), (nb, other(turn), drop_king_rights(castle, turn), None, riding)))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def position(fen, riding=""):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, turn, castle, ep, frozenset(sq(w) for w in riding.split(",") if w))


def check_file(path, max_depth):
    bad = 0
    fen = None
    for line in open(path):
        line = line.strip()
        if line.startswith("fen "):
            fen = line[4:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            if int(depth) > max_depth:
                continue
            mine = perft(position(fen), int(depth))
            ok = mine == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--riding", default="")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--max-depth", type=int, default=99)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file, a.max_depth) else 0)
    pos = position(a.fen, a.riding)
    if a.divide:
        for uci, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (uci, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
