#!/usr/bin/env python3
"""Independent perft for Event Chess with event #29 Directional Knights running from the
start.

A cross-check of xpgn's #29 moves, written from the rules text (the catalogue's entry and
rulings DK-1..DK-8 in docs/rules/event-29-directional-knights.md) on the small mailbox
board of `perft_common.py`, sharing no code with xpgn:

- DK-2: a knight facing (df, dr) slides that way over empty squares, taking the first
  enemy piece in its way, or leaps to the two knight squares beside the opposite
  direction; a knight facing nothing does not move.
- DK-3: knights attack exactly so; a move is legal iff the mover's king is not attacked
  afterwards, castling's squares judged with these attacks.
- DK-4: every knight move is counted once keeping its facing and once per other facing it
  may end with; a knight may also turn in place to any other facing (one move each).
- DK-5: a promotion to a knight is counted once per facing.
- DK-7: a facing is one whose step stays on the board's files (ranks may run off).

The perft file's `events` line gives the facings (`29 Nb1->b2 Ng1->g2 ...`).

Usage (any Python 3):

    directional_knights_perft.py tests/data/perft/directional-knights.perft
    directional_knights_perft.py --fen FEN --facings "Nb1->b2 ..." --depth D [--divide]
"""

import argparse
import sys

from perft_common import (BISHOP_D, KING, LETTERS, ROOK_D, castle_rook, castlings,
                          drop_king_rights, name, off, other, own_pieces, parse_fen_fields,
                          piece_moves, sq, strip_rights)

DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
assert set(DIRS) == set(ROOK_D + BISHOP_D)


def leaps(d):
    df, dr = d
    if df == 0 or dr == 0:
        return ((-2 * df + dr, -2 * dr + df), (-2 * df - dr, -2 * dr - df))
    return ((-2 * df, -dr), (-df, -2 * dr))


def knight_targets(b, facing, s):
    """DK-2: the squares the knight on s reaches (empty, or holding anything: the
    caller keeps enemy ones)."""
    d = facing.get(s)
    if d is None:
        return []
    out = []
    t = off(s, *d)
    while t is not None:
        out.append(t)
        if b[t] is not None:
            break
        t = off(t, *d)
    for lf, lr in leaps(d):
        t = off(s, lf, lr)
        if t is not None:
            out.append(t)
    return out


def attacked(b, facing, s, by):
    """DK-3: is s attacked by a piece of `by`?"""
    for f, p in own_pieces(b, by):
        u = p.upper()
        if u == "N":
            if s in knight_targets(b, facing, f):
                return True
        elif u == "P":
            dr = 1 if p.isupper() else -1
            if s // 8 - f // 8 == dr and abs(s % 8 - f % 8) == 1:
                return True
        elif u == "K":
            if any(off(f, *d) == s for d in KING):
                return True
        else:
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


def nameable(s):
    """DK-7: facings whose step stays on the files."""
    return [d for d in DIRS if 0 <= s % 8 + d[0] < 8]


def legal_moves(pos):
    b, facing, turn, castle, ep = pos
    out = []

    def add(text, nb, nf, cr, nep):
        k = king_of(nb, turn)
        if k is not None and attacked(nb, nf, k, other(turn)):
            return
        out.append((text, (nb, nf, other(turn), cr, nep)))

    for f, p in own_pieces(b, turn):
        if p.upper() == "N":
            for t in knight_targets(b, facing, f):
                if b[t] is not None and b[t].isupper() == p.isupper():
                    continue
                nb = b[:]
                nb[t], nb[f] = p, None
                cr = strip_rights(castle, t)
                kept = facing[f]
                for d in [kept] + [d for d in nameable(t) if d != kept]:
                    nf = dict(facing)
                    del nf[f]
                    nf[t] = d
                    add(name(f) + name(t) + ("" if d == kept else "->%d,%d" % d), nb, nf, cr, None)
            for d in nameable(f):
                if d != facing.get(f):
                    nf = dict(facing)
                    nf[f] = d
                    add(name(f) + "->%d,%d" % d, b[:], nf, castle, None)
            continue
        for t, kind in piece_moves(b, f, ep, ec4=False):
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
                base = dict(facing)
                base.pop(t, None)
                uci = name(f) + name(t) + (promo.lower() if promo else "")
                if promo and promo.upper() == "N":
                    for d in nameable(t):
                        nf = dict(base)
                        nf[t] = d
                        add(uci + "->%d,%d" % d, nb, nf, cr, nep)
                else:
                    add(uci, nb, base, cr, nep)
    for k, kto, rto, cross in castlings(b, castle, turn):
        if any(attacked(b, facing, x, other(turn)) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        out.append((name(k) + name(kto), (nb, dict(facing), other(turn), drop_king_rights(castle, turn), None)))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def parse_facings(words):
    """`Nb1->b2` words: the knight's square and the step toward the named square."""
    facing = {}
    for w in words.split():
        if w == "29":
            continue
        frm, to = w[1:].split("->")
        s = sq(frm)
        df = ord(to[0]) - ord(frm[0])
        dr = int(to[1:]) - int(frm[1:])
        facing[s] = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    return facing


def position(fen, words):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, parse_facings(words), turn, castle, ep)


def check_file(path):
    bad = 0
    fen = words = None
    for line in open(path):
        line = line.strip()
        if line.startswith("fen "):
            fen = line[4:]
        elif line.startswith("events "):
            words = line[7:]
        elif line.startswith("perft "):
            _, depth, count = line.split()
            mine = perft(position(fen, words), int(depth))
            ok = mine == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--facings", default="Nb1->b2 Ng1->g2 Nb8->b7 Ng8->g7")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file) else 0)
    pos = position(a.fen, a.facings)
    if a.divide:
        for text, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (text, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
