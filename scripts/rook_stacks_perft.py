#!/usr/bin/env python3
"""Independent perft for Event Chess with a rook carrier running from the start: event #115
Piecebuilder (`--event 115`, the default), the older #37 Queenbuilder (`--event 37`) or
#47 Watch Tower (`--event 47`).

A cross-check of xpgn's stacks, written from the rules texts (the catalogue's entries and
rulings PB-1..PB-8 in docs/rules/event-115-piecebuilder.md, QB-1..QB-8 in
docs/rules/event-37-queenbuilder.md: a rook with a bishop moving as a rook or a bishop is
#37's queen) on the small mailbox board of `perft_common.py`,
sharing no code with xpgn:

- A rider (#115: a bishop or a knight; #37: a bishop) boards an own rook that carries none
  with a move it could make onto the rook's square were it empty, from the board or from
  another rook it rides (PB-1). The rider is kept beside the board, by the rook's
  square.
- #115 only: a rook that carries none moves onto an own bishop or knight along a rook line
  with the squares between empty, picking it up (PB-2); the rook has moved, so it loses
  its castling right.
- The stack moves and captures as its rook or as its rider from its square (PB-3);
  the rook never moves alone. It attacks as both (PB-5).
- The rider steps off with its own move from the rook's square, capturing or onto an
  empty square (PB-4); the rook stays and keeps its castling right, as it does
  when a rider boards it (PB-7).
- Capturing a loaded rook removes its rider too and counts as two pieces other than
  pawns (PB-6). EC-2: with the event running from the start nobody started it, so a
  move that brings its player's count of such captures above two is illegal.
- A loaded rook castles with its rider (PB-7); castling otherwise as usual. Double
  steps from the second rank only (no EC-4), en passant and promotion (Q R B N) as usual.
- #47 (WT-1..WT-7 in docs/rules/event-47-watch-tower.md) boards and steps off as #37
  does, but the loaded rook neither moves, castles nor attacks (WT-2: it stands on the
  board as a mere blocker); its bishop shoots an enemy piece one or two squares away
  along any of the eight lines, over anything between, staying put (WT-4); it attacks
  as a bishop from the rook's square and on every square it could shoot (WT-5); a shot
  is a capture, a loaded rook shot or taken counting two (WT-6).

Usage (any Python 3):

    rook_stacks_perft.py tests/data/perft/piecebuilder.perft          # recompute every count
    rook_stacks_perft.py --event 37 tests/data/perft/queenbuilder.perft
    rook_stacks_perft.py --event 47 tests/data/perft/watch-tower.perft
    rook_stacks_perft.py --fen FEN --depth D [--riders Bd1,Na8] [--divide]
"""

import argparse
import sys

from perft_common import (B_RAYS, KN_T, R_RAYS, attacked, castle_rook, castlings, drop_king_rights,
                          name, other, own_pieces, parse_fen_fields, piece_moves, sq, strip_rights)

RIDERS = {115: "BN", 37: "B", 47: "B"}

# #47: the squares one or two steps away along the eight lines (WT-4).
SHOTS = [
    [sq2 for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
     for k in (1, 2)
     for sq2 in [(s % 8 + df * k) + 8 * (s // 8 + dr * k)]
     if 0 <= s % 8 + df * k < 8 and 0 <= s // 8 + dr * k < 8]
    for s in range(64)
]

EVENT = [115]


def white(c):
    return c == "w"


def mine(p, c):
    return p is not None and p.isupper() == white(c)


def rider_reach(b, s, letter):
    """The squares the rider `letter` reaches from s: (empty squares, occupied squares
    it stops on), with what stands on the board in the way."""
    empty, hit = [], []
    if letter == "N":
        for t in KN_T[s]:
            (empty if b[t] is None else hit).append(t)
    else:
        for ray in B_RAYS[s]:
            for t in ray:
                if b[t] is None:
                    empty.append(t)
                else:
                    hit.append(t)
                    break
    return empty, hit


def stack_attacks(b, riders, s, by):
    """Does a rider of `by` attack s from its rook? (#47: its shots too)"""
    for r, letter in riders.items():
        if mine(b[r], by):
            empty, hit = rider_reach(b, r, letter)
            if s in hit or s in empty:
                return True
            if EVENT[0] == 47 and s in SHOTS[r]:
                return True
    return False


def threatened(b, riders, s, by):
    """Does `by` attack s? Under #47 a loaded rook blocks but attacks nothing (WT-2)."""
    blockers = b
    if EVENT[0] == 47 and riders:
        blockers = b[:]
        for r in riders:
            blockers[r] = "X"
    return attacked(blockers, s, by) or stack_attacks(b, riders, s, by)


def in_check(b, riders, c):
    k = "K" if white(c) else "k"
    kings = [s for s in range(64) if b[s] == k]
    return any(threatened(b, riders, x, other(c)) for x in kings)


def taken(b, riders, t):
    """How many pieces other than pawns a capture on t takes (PB-6)."""
    p = b[t]
    if p is None or p.upper() == "P":
        return 0
    return 2 if t in riders else 1


def legal_moves(pos, event):
    b, turn, castle, ep, riders, counts = pos
    out = []
    us = 0 if white(turn) else 1

    def push(key, nb, nr, cr, nep, took):
        if in_check(nb, nr, turn):
            return
        nc = list(counts)
        nc[us] += took
        if nc[us] > 2 and took:
            return
        out.append((key, (nb, other(turn), cr, nep, nr, tuple(nc))))

    rook = "R" if white(turn) else "r"
    for f, p in own_pieces(b, turn):
        if f in riders and EVENT[0] == 47:
            continue  # WT-2: a loaded rook stands still.
        dests = list(piece_moves(b, f, ep, ec4=False))
        if f in riders:
            # PB-3: the stack moves as its rook or as its rider.
            empty, hit = rider_reach(b, f, riders[f])
            seen = {t for t, _ in dests}
            for t in empty + [t for t in hit if not mine(b[t], turn)]:
                if t not in seen:
                    dests.append((t, "n"))
        for t, kind in dests:
            promos = [None]
            if p.upper() == "P" and t // 8 in (0, 7):
                promos = [x if p.isupper() else x.lower() for x in "QRBN"]
            for promo in promos:
                took = taken(b, riders, t)
                nb = b[:]
                nb[t] = promo or p
                nb[f] = None
                nr = dict(riders)
                nr.pop(t, None)
                if f in nr:
                    nr[t] = nr.pop(f)
                if kind == "ep":
                    nb[t - 8 if p.isupper() else t + 8] = None
                nep = None
                if p.upper() == "P" and abs(t - f) == 16:
                    nep = (t + f) // 2
                cr = castle
                if p.upper() == "K":
                    cr = drop_king_rights(cr, turn)
                cr = strip_rights(strip_rights(cr, f), t)
                push("%s%s%s" % (name(f), name(t), promo.lower() if promo else ""), nb, nr, cr, nep, took)
    empty_rooks = [s for s in range(64) if b[s] == rook and s not in riders]
    for letter in RIDERS[event]:
        piece = letter if white(turn) else letter.lower()
        origins = [s for s in range(64) if b[s] == piece]
        origins += [s for s in riders if b[s] == rook and riders[s] == letter]
        for f in origins:
            # PB-1: boarding an empty own rook, with a move onto its square were it empty.
            for t in empty_rooks:
                if t == f:
                    continue
                nb = b[:]
                nb[t] = None
                empty, _ = rider_reach(nb, f, letter)
                if t not in empty:
                    continue
                nb = b[:]
                nr = dict(riders)
                if f in riders:
                    del nr[f]
                else:
                    nb[f] = None
                nr[t] = letter
                push("%s%s%s@" % (letter, name(f), name(t)), nb, nr, castle, None, 0)
            if f in riders:
                # PB-4: stepping off with the rider's own move.
                empty, hit = rider_reach(b, f, letter)
                for t in empty + [t for t in hit if not mine(b[t], turn)]:
                    took = taken(b, riders, t)
                    nb = b[:]
                    nb[t] = piece
                    nr = dict(riders)
                    del nr[f]
                    nr.pop(t, None)
                    push("%s%s%s" % (letter, name(f), name(t)), nb, nr, strip_rights(castle, t), None, took)
        if event == 115:
            # PB-2: an empty rook picks up an own rider along a rook line.
            for f in empty_rooks:
                for ray in R_RAYS[f]:
                    for t in ray:
                        if b[t] is None:
                            continue
                        if b[t] == piece:
                            nb = b[:]
                            nb[t] = rook
                            nb[f] = None
                            nr = dict(riders)
                            nr[t] = letter
                            push("R%sx%s" % (name(f), name(t)), nb, nr, strip_rights(strip_rights(castle, f), t), None, 0)
                        break
    if event == 47:
        # WT-4: a shot from the rook's square at an enemy piece; the bishop stays.
        for f in [s for s in riders if b[s] == rook]:
            for t in SHOTS[f]:
                if b[t] is None or mine(b[t], turn):
                    continue
                took = taken(b, riders, t)
                nb = b[:]
                nb[t] = None
                nr = dict(riders)
                nr.pop(t, None)
                push("B%sx@%s" % (name(f), name(t)), nb, nr, strip_rights(castle, t), None, took)
    for k, kto, rto, cross in castlings(b, castle, turn):
        rook_from = k + 3 if kto > k else k - 4
        if EVENT[0] == 47 and rook_from in riders:
            continue  # WT-2: no castling with a loaded rook.
        if any(threatened(b, riders, x, other(turn)) for x in cross):
            continue
        nb = b[:]
        nb[kto], nb[k] = nb[k], None
        rook_from = k + 3 if kto > k else k - 4
        castle_rook(nb, turn, kto)
        nr = dict(riders)
        if rook_from in nr:
            nr[rto] = nr.pop(rook_from)
        push(name(k) + name(kto), nb, nr, drop_king_rights(castle, turn), None, 0)
    return out


def perft(pos, depth, event):
    if depth == 0:
        return 1
    ms = legal_moves(pos, event)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1, event) for _, ch in ms)


def position(fen, riders=""):
    b, turn, castle, ep = parse_fen_fields(fen)
    return (b, turn, castle, ep, {sq(w[1:]): w[0] for w in riders.split(",") if w}, (0, 0))


def check_file(path, max_depth, event):
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
            mine_count = perft(position(fen), int(depth), event)
            ok = mine_count == int(count)
            bad += not ok
            print("%-8s depth %s: file %s, script %d" % ("ok" if ok else "MISMATCH", depth, count, mine_count))
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--event", type=int, choices=sorted(RIDERS), default=115)
    ap.add_argument("--fen", default="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    ap.add_argument("--riders", default="", help="loaded rooks: rider letter and square, Bd1,Na8")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--max-depth", type=int, default=99)
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    EVENT[0] = a.event
    if a.file:
        sys.exit(1 if check_file(a.file, a.max_depth, a.event) else 0)
    pos = position(a.fen, a.riders)
    if a.divide:
        for key, ch in sorted(legal_moves(pos, a.event)):
            print("%s: %d" % (key, perft(ch, a.depth - 1, a.event)))
    print(perft(pos, a.depth, a.event))


if __name__ == "__main__":
    main()
