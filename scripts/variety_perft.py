#!/usr/bin/env python3
"""Independent perft for Event Chess with event #91 Variety running from the start.

A cross-check of xpgn's #91 moves, written from the rules text (the catalogue's entry and
rulings VA-1..VA-8 in docs/rules/event-91-variety.md) on the small mailbox board of
`perft_common.py`, sharing no code with xpgn:

- VA-1, VA-2: the event starts with nothing frozen; after each move the mover's pieces
  frozen until then are free and the piece he moved is frozen (castling: king and rook,
  VA-4; a promotion: the new piece). A frozen piece of the side to move has no move,
  castling with a frozen king or rook included.
- VA-3: a frozen piece (of either side) attacks nothing but still blocks lines: a move is
  legal iff no unfrozen enemy piece attacks the mover's king afterwards, and castling
  crosses no square an unfrozen enemy piece attacks.
- Double steps from the second rank only (no EC-4), en passant and promotion (Q R B N)
  as usual.

A position is given by a FEN (frozen pieces: `--frozen e4,g8`); a perft file's positions
have nothing frozen.

Usage (any Python 3):

    variety_perft.py tests/data/perft/variety.perft           # recompute every count
    variety_perft.py --fen FEN --depth D [--frozen SQS] [--divide]
"""

import argparse
import sys

from perft_common import (attacked, castle_rook, castlings, drop_king_rights, king_sq, name,
                          other, own_pieces, parse_fen_fields, piece_moves, sq, strip_rights)


def unfrozen_attack(b, s, by, frozen):
    """VA-3: does an unfrozen piece of `by` attack s? Frozen pieces stand in as blockers
    that attack nothing."""
    nb = b[:]
    for f in frozen:
        if nb[f] is not None:
            nb[f] = "X" if nb[f].isupper() else "x"
    return attacked(nb, s, by)


def after(frozen, b, turn, landed, gone):
    """VA-1: the mover's frozen pieces thaw, what he moved freezes; captured ones go."""
    mine = {f for f in frozen if f not in gone and b[f] is not None and (b[f].isupper() != (turn == "w"))}
    return frozenset(mine | set(landed))


def legal_moves(pos):
    b, turn, castle, ep, frozen = pos
    out = []
    for f, p in own_pieces(b, turn):
        if f in frozen:
            continue
        for t, kind in piece_moves(b, f, ep, ec4=False):
            promos = [None]
            if p.upper() == "P" and t // 8 in (0, 7):
                promos = [x if p.isupper() else x.lower() for x in "QRBN"]
            for promo in promos:
                nb = b[:]
                nb[t] = promo or p
                nb[f] = None
                gone = {f, t}
                if kind == "ep":
                    cap = t - 8 if p.isupper() else t + 8
                    nb[cap] = None
                    gone.add(cap)
                nep = None
                if p.upper() == "P" and abs(t - f) == 16:
                    nep = (t + f) // 2
                cr = castle
                if p.upper() == "K":
                    cr = drop_king_rights(cr, turn)
                cr = strip_rights(strip_rights(cr, f), t)
                nf = after(frozen, nb, turn, [t], gone)
                k = king_sq(nb, turn)
                if k is not None and unfrozen_attack(nb, k, other(turn), nf):
                    continue
                uci = name(f) + name(t) + (promo.lower() if promo else "")
                out.append((uci, (nb, other(turn), cr, nep, nf)))
    for k, kto, rto, cross in castlings(b, castle, turn):
        rook = (k - 4) + (7 if kto > k else 0)
        if k in frozen or rook in frozen:
            continue
        if any(unfrozen_attack(b, x, other(turn), frozen) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        nf = after(frozen, nb, turn, [kto, rto], {k, rook})
        out.append((name(k) + name(kto), (nb, other(turn), drop_king_rights(castle, turn), None, nf)))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def position(fen, frozen=""):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, turn, castle, ep, frozenset(sq(w) for w in frozen.split(",") if w))


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
    ap.add_argument("--frozen", default="")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file) else 0)
    pos = position(a.fen, a.frozen)
    if a.divide:
        for uci, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (uci, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
