#!/usr/bin/env python3
"""Independent perft for Event Chess with events that change where pieces go.

A cross-check of xpgn's moves under #8 Move Forward!, #62 King on horse, #66 Slow King,
#70 Ice (blog wording, and the older forum wording `70 old`) and #110 Short
Non-captures, each running from the start, written from the rules pages
(docs/rules/event-8-move-forward.md, event-62-king-on-horse.md, event-66-slow-king.md,
event-70-ice.md, event-70-ice-old.md, event-110-short-non-captures.md). python-chess
cannot change what pieces attack, so this builds on the small mailbox board of
`perft_common.py` (next to this file) and shares no code with xpgn. The rules here:

- orthodox chess otherwise: en passant, promotion (Q R B N), castling with its rights,
  the king not in check and crossing and landing on no attacked square; no EC-4 double
  steps (none of these events grants them). The 50-move rule and repetition are ignored.
- each piece but a pawn has a `quiet` set (where it may move when the square is empty)
  and an `attacks` set (where it captures and gives check), orthodox at first; the
  events narrow them, in the order given:
  - 66 (SK-1, SK-2): a king's quiet set loses its diagonal neighbours.
  - 62 (KH-1..KH-3): a king's quiet set becomes its knight-leap squares.
  - 110 (SN-1, SN-2): the quiet set keeps the squares at most two away (the larger of
    the file and rank differences).
  - 8 (MF-1, MF-2): both sets lose the squares more than one rank back toward the
    piece's own side.
  - 70 (IC-2, IC-3): a bishop's, rook's or queen's quiet set keeps, on each line, only
    the last empty square: on the edge or right in front of a piece.
  - 70 old (ICO-1..ICO-3): a bishop, rook or queen keeps, on each line, only the last
    empty square when the line ends at the edge or at a piece of its own, and no quiet
    square when it ends at an enemy piece (which it captures); a king slides like a
    queen the same way, and captures and attacks along its eight lines up to and
    including the first piece.
  Pawns move and capture as usual under all five (their moves never go back, never
  further than two, and they do not slide).
- a move is legal when afterwards the mover's king is attacked by no enemy piece's
  `attacks` set.

Usage (any Python 3; no packages needed):

    reach_perft.py --events 66 [--fen FEN] --depth D [--divide]   (--events "70 old")
    reach_perft.py --check tests/data/perft/slow-king.perft [--max-depth D]
        # recompute every count of a perft file (its `events` line names the events)

Exit status: 0 when all counts agree (or a count was printed), 1 on a disagreement.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from perft_common import (  # noqa: E402
    B_RAYS, KI_T, KN_T, R_RAYS, START, castle_rook, castlings, drop_king_rights, name,
    parse_fen_fields, piece_moves, strip_rights)

DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def up(p):
    return p.isupper()


def rank(s):
    return s // 8


def file_(s):
    return s % 8


def orthodox_sets(b, s):
    """(quiet, attacks) of the non-pawn piece on s, orthodox."""
    t = b[s].upper()
    attacks = set()
    if t in "NK":
        attacks.update((KN_T if t == "N" else KI_T)[s])
    else:
        rays = R_RAYS[s] if t == "R" else B_RAYS[s] if t == "B" else R_RAYS[s] + B_RAYS[s]
        for ray in rays:
            for x in ray:
                attacks.add(x)
                if b[x] is not None:
                    break
    quiet = {x for x in attacks if b[x] is None}
    return quiet, attacks


def ice_stops(b, s):
    """The last empty square of each line of the slider on s (IC-2)."""
    t = b[s].upper()
    rays = R_RAYS[s] if t == "R" else B_RAYS[s] if t == "B" else R_RAYS[s] + B_RAYS[s]
    stops = set()
    for ray in rays:
        last = None
        for x in ray:
            if b[x] is not None:
                break
            last = x
        if last is not None:
            stops.add(last)
    return stops


def old_ice(b, s):
    """(quiet, attacks) of the piece on s sliding to the end of each of its lines, as a
    queen for a king (ICO-2, ICO-3)."""
    p = b[s]
    t = p.upper()
    rays = R_RAYS[s] if t == "R" else B_RAYS[s] if t == "B" else R_RAYS[s] + B_RAYS[s]
    quiet, attacks = set(), set()
    for ray in rays:
        last = None
        for x in ray:
            attacks.add(x)
            if b[x] is not None:
                if up(b[x]) != up(p):
                    last = None
                break
            last = x
        if last is not None:
            quiet.add(last)
    return quiet, attacks


def back(p, s, x):
    """How many ranks x lies behind s for the piece p (MF-1)."""
    return rank(s) - rank(x) if up(p) else rank(x) - rank(s)


def sets(b, s, events):
    """(quiet, attacks) of the non-pawn piece on s under the running events."""
    quiet, attacks = orthodox_sets(b, s)
    p = b[s]
    t = p.upper()
    for e in events:
        if e == "66" and t == "K":
            quiet = {x for x in quiet
                     if abs(file_(x) - file_(s)) + abs(rank(x) - rank(s)) == 1}
        elif e == "62" and t == "K":
            quiet = set(KN_T[s])
        elif e == "110":
            quiet = {x for x in quiet
                     if max(abs(file_(x) - file_(s)), abs(rank(x) - rank(s))) <= 2}
        elif e == "8":
            quiet = {x for x in quiet if back(p, s, x) <= 1}
            attacks = {x for x in attacks if back(p, s, x) <= 1}
        elif e == "70" and t in "BRQ":
            quiet &= ice_stops(b, s)
        elif e == "70o" and t in "BRQ":
            quiet &= old_ice(b, s)[0]
        elif e == "70o" and t == "K":
            quiet, attacks = old_ice(b, s)
    return quiet, attacks


def attacked(b, s, by_white, events):
    for f in range(64):
        p = b[f]
        if p is None or up(p) != by_white:
            continue
        if p.upper() == "P":
            dr = 1 if by_white else -1
            if rank(s) - rank(f) == dr and abs(file_(s) - file_(f)) == 1:
                return True
            continue
        if s in sets(b, f, events)[1]:
            return True
    return False


def king_square(b, white):
    k = "K" if white else "k"
    return b.index(k) if k in b else None


class Pos:
    __slots__ = ("b", "white", "castle", "ep")

    def __init__(self, b, white, castle, ep):
        self.b, self.white, self.castle, self.ep = b, white, castle, ep


def candidates(pos, events):
    """Pseudo-legal moves: (from, to, promotion, kind) with kind n / ep / castle."""
    b = pos.b
    out = []
    for s in range(64):
        p = b[s]
        if p is None or up(p) != pos.white:
            continue
        if p.upper() == "P":
            for x, kind in piece_moves(b, s, pos.ep, ec4=False):
                last = rank(x) == (7 if pos.white else 0)
                for promo in ("QRBN" if last else (None,)):
                    out.append((s, x, promo, kind))
            continue
        quiet, attacks = sets(b, s, events)
        for x in range(64):
            y = b[x]
            if (y is None and x in quiet) or (y is not None and up(y) != pos.white
                                              and x in attacks):
                out.append((s, x, None, "n"))
    return out


def play(pos, mv):
    s, x, promo, kind = mv
    b = pos.b[:]
    p = b[s]
    castle = pos.castle
    if kind == "ep":
        b[x - 8 if pos.white else x + 8] = None
    b[x], b[s] = (promo if pos.white else promo.lower()) if promo else p, None
    if kind == "castle":
        castle_rook(b, "w" if pos.white else "b", x)
    if p.upper() == "K":
        castle = drop_king_rights(castle, "w" if pos.white else "b")
    castle = strip_rights(strip_rights(castle, s), x)
    ep = None
    if p.upper() == "P" and abs(x - s) == 16:
        ep = (x + s) // 2
    return Pos(b, not pos.white, castle, ep)


def legal_moves(pos, events):
    out = []
    for mv in candidates(pos, events):
        child = play(pos, mv)
        k = king_square(child.b, pos.white)
        if k is None or not attacked(child.b, k, not pos.white, events):
            out.append((mv, child))
    colour = "w" if pos.white else "b"
    for k, kto, rto, cross in castlings(pos.b, pos.castle, colour):
        if any(attacked(pos.b, c, not pos.white, events) for c in cross):
            continue
        mv = (k, kto, None, "castle")
        out.append((mv, play(pos, mv)))
    return out


def perft(pos, depth, events):
    if depth == 0:
        return 1
    ms = legal_moves(pos, events)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1, events) for _, ch in ms)


def uci(mv):
    s, x, promo, _ = mv
    return name(s) + name(x) + (promo.lower() if promo else "")


def codes(event):
    """The code of an event as `--events` writes it: "66", "70o" for "70 old"."""
    words = event.split()
    return words[0] + ("o" if words[1:] == ["old"] else "")


def parse(fen):
    b, turn, castle, ep = parse_fen_fields(fen)
    return Pos(b, turn == "w", castle, ep)


def check(path, max_depth):
    bad = 0
    case = {}
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            case = {"id": value}
        elif key == "fen":
            case["fen"] = value
        elif key == "events":
            case["events"] = [codes(e) for e in value.split(",")]
        elif key == "perft":
            depth, count = (int(w) for w in value.split())
            if depth > max_depth:
                continue
            mine = perft(parse(case["fen"]), depth, case["events"])
            flag = "" if mine == count else "  MISMATCH"
            print("%-28s %d %10d %10d%s" % (case["id"], depth, mine, count, flag))
            sys.stdout.flush()
            bad += mine != count
    print("all agree" if not bad else "%d disagreement(s)" % bad)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", default="")
    ap.add_argument("--fen", default=START)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--check", metavar="PERFT_FILE")
    ap.add_argument("--max-depth", type=int, default=9)
    a = ap.parse_args()
    if a.check:
        return check(a.check, a.max_depth)
    events = [codes(e) for e in a.events.split(",") if e.strip()]
    pos = parse(a.fen)
    if a.divide:
        total = 0
        for mv, ch in sorted(legal_moves(pos, events), key=lambda m: uci(m[0])):
            n = perft(ch, a.depth - 1, events)
            total += n
            print("%s: %d" % (uci(mv), n))
        print(total)
    else:
        print(perft(pos, a.depth, events))
    return 0


if __name__ == "__main__":
    sys.exit(main())
