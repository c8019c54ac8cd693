#!/usr/bin/env python3
"""Independent perft for Event Chess with event #46 Sacrificial Catapult running from the
start.

A cross-check of xpgn's catapult, written from the rules text (the catalogue's entry and
rulings SC-1..SC-8 in docs/rules/event-46-sacrificial-catapult.md) on the small mailbox
board of `perft_common.py`, sharing no code with xpgn:

- Load (SC-1): a rook that carries nothing takes an own piece on a square next to its
  own along a rank or file onto itself; not a king, not a rook that carries a
  passenger. The rook stays on its square and keeps its castling right (SC-3); the
  passenger is kept beside the board, by the rook's square, and neither moves, blocks
  nor attacks.
- A loaded rook moves and captures as a rook, carrying its passenger, and does not
  castle (SC-3).
- Fire (SC-4): a loaded rook fires at a square exactly two squares away along its rank
  or file, whatever stands between; every piece on that square and its (up to four)
  neighbours along the ranks and files is removed, of either colour, and the passenger
  is spent. The rook stays and keeps its castling right. A shot whose five squares hold
  the firer's own king is never made (SC-6).
- Threats (SC-6): a loaded rook attacks every square of the five-square cross of each
  shot it could make (one that would hit its own king excepted), so check, legality and
  castling's squares follow.
- Capturing a loaded rook (by a move or a shot) removes its passenger too (SC-7).
  EC-2: with the event running from the start nobody started it, so a move that brings
  its player's count of captured enemy pieces other than pawns above two is illegal; a
  passenger other than a pawn counts as a second piece, own pieces a shot removes count
  for nothing.
- Castling otherwise as usual, double steps from the second rank only (no EC-4), en
  passant and promotion (Q R B N) as usual.

Usage (any Python 3):

    catapult_perft.py tests/data/perft/sacrificial-catapult.perft   # recompute every count
    catapult_perft.py --fen FEN --depth D [--passengers Pa1,Qh8] [--divide]
"""

import argparse
import sys

from perft_common import (castle_rook, castlings, drop_king_rights, attacked, name, off, other,
                          own_pieces, parse_fen_fields, piece_moves, sq, strip_rights)

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))


def white(c):
    return c == "w"


def mine(p, c):
    return p is not None and p.isupper() == white(c)


def cross(t):
    """The squares a shot at t hits, cut off at the edge."""
    out = [t]
    for df, dr in ORTHOGONAL:
        x = off(t, df, dr)
        if x is not None:
            out.append(x)
    return out


def shots(r):
    """The squares a rook on r may fire at: two steps along its rank or file."""
    return [t for t in (off(r, 2 * df, 2 * dr) for df, dr in ORTHOGONAL) if t is not None]


def king_of(b, c):
    k = "K" if white(c) else "k"
    return [s for s in range(64) if b[s] == k]


def fire_threat(b, pas, s, by):
    """Could a loaded rook of `by` hit s with a shot it may make?"""
    rook = "R" if white(by) else "r"
    own = king_of(b, by)
    for r in pas:
        if b[r] != rook:
            continue
        for t in shots(r):
            hit = cross(t)
            if s in hit and not any(k in hit for k in own):
                return True
    return False


def threatened(b, pas, s, by):
    return attacked(b, s, by) or fire_threat(b, pas, s, by)


def in_check(b, pas, c):
    return any(threatened(b, pas, k, other(c)) for k in king_of(b, c))


def worth(b, pas, t):
    """How many enemy pieces other than pawns taking the piece on t counts (SC-7)."""
    p = b[t]
    if p is None:
        return 0
    n = 0 if p.upper() == "P" else 1
    if t in pas and pas[t] != "P":
        n += 1
    return n


def legal_moves(pos):
    b, turn, castle, ep, pas, counts = pos
    out = []
    us = 0 if white(turn) else 1
    rook = "R" if white(turn) else "r"

    def push(key, nb, npas, cr, nep, took):
        if in_check(nb, npas, turn):
            return
        nc = list(counts)
        nc[us] += took
        if nc[us] > 2 and took:
            return
        out.append((key, (nb, other(turn), cr, nep, npas, tuple(nc))))

    for f, p in own_pieces(b, turn):
        for t, kind in piece_moves(b, f, ep, ec4=False):
            promos = [None]
            if p.upper() == "P" and t // 8 in (0, 7):
                promos = [x if p.isupper() else x.lower() for x in "QRBN"]
            for promo in promos:
                took = worth(b, pas, t)
                nb = b[:]
                nb[t] = promo or p
                nb[f] = None
                npas = dict(pas)
                npas.pop(t, None)
                if f in npas:
                    npas[t] = npas.pop(f)
                if kind == "ep":
                    nb[t - 8 if p.isupper() else t + 8] = None
                nep = None
                if p.upper() == "P" and abs(t - f) == 16:
                    nep = (t + f) // 2
                cr = castle
                if p.upper() == "K":
                    cr = drop_king_rights(cr, turn)
                cr = strip_rights(strip_rights(cr, f), t)
                push("%s%s%s" % (name(f), name(t), promo.lower() if promo else ""), nb, npas, cr, nep, took)
    for f in [s for s in range(64) if b[s] == rook]:
        if f not in pas:
            # SC-1: loading a neighbour along a rank or file.
            for df, dr in ORTHOGONAL:
                n = off(f, df, dr)
                if n is None or not mine(b[n], turn) or b[n].upper() == "K" or n in pas:
                    continue
                nb = b[:]
                nb[n] = None
                npas = dict(pas)
                npas[f] = b[n].upper()
                push("R%s@%s" % (name(f), name(n)), nb, npas, strip_rights(castle, n), None, 0)
        else:
            # SC-4: firing two squares along a rank or file.
            own = king_of(b, turn)
            for t in shots(f):
                hit = cross(t)
                if any(k in hit for k in own):
                    continue
                nb = b[:]
                npas = dict(pas)
                del npas[f]
                took = 0
                cr = castle
                for x in hit:
                    if nb[x] is not None and not mine(nb[x], turn):
                        took += worth(nb, npas, x)
                    nb[x] = None
                    npas.pop(x, None)
                    cr = strip_rights(cr, x)
                push("R%sFire@%s" % (name(f), name(t)), nb, npas, cr, None, took)
    for k, kto, rto, crossed in castlings(b, castle, turn):
        rook_from = k + 3 if kto > k else k - 4
        if rook_from in pas:
            continue  # SC-3: no castling with a loaded rook.
        if any(threatened(b, pas, x, other(turn)) for x in crossed):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        castle_rook(nb, turn, kto)
        push(name(k) + name(kto), nb, dict(pas), drop_king_rights(castle, turn), None, 0)
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def position(fen, passengers=""):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, turn, castle, ep, {sq(w[1:]): w[0] for w in passengers.split(",") if w}, (0, 0))


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
            mine_count = perft(position(fen), int(depth))
            ok = mine_count == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine_count))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--passengers", default="", help="loaded rooks: passenger letter and rook square, Pa1,Qh8")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--max-depth", type=int, default=99)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    if a.file:
        sys.exit(1 if check_file(a.file, a.max_depth) else 0)
    pos = position(a.fen, a.passengers)
    if a.divide:
        for key, ch in sorted(legal_moves(pos)):
            print("%s: %d" % (key, perft(ch, a.depth - 1)))
    print(perft(pos, a.depth))


if __name__ == "__main__":
    main()
