#!/usr/bin/env python3
"""Independent perft for Event Chess with events that change where pieces go running from
the start: #76 Minor piece transformations (rulings MT-1..MT-5), #112 Heavy Rooks
(HR-1..HR-6), #111 Generous Queens (GQ-1..GQ-6), #106 Wall (WL-1..WL-5), #30 Drunken
Bishops (DB-1..DB-8), #38 Forward Rotations (FR-1..FR-7), #33 Bouncing Bishops
(BB-1..BB-7), #89 Same type immunity
(TI-1..TI-4), #107 Big Wall (BW-1..BW-5), #123 Forward Activity (FA-1..FA-4) and #49 Flying
Rooks (FL-1..FL-5), alone or together.

A cross-check of xpgn's move generation under these events, written from their rules
pages (`docs/rules/event-76-minor-transformations.md`, `event-112-heavy-rooks.md`,
`event-111-generous-queens.md`, `event-106-wall.md`, `event-30-drunken-bishops.md`,
`event-38-forward-rotations.md`) on the small mailbox board of
`perft_common.py`, sharing no code with xpgn. python-chess cannot change what a piece
attacks, so it is not used. Each piece's *reach* is worked out
here: the squares it may move to when empty and the squares it attacks (captures on, and
checks). The orthodox reach comes first, then each event in the order the events started:

- #76 (MT-1, MT-2, MT-4): a bishop or knight on its owner's half (ranks 1-4 for White,
  5-8 for Black) reaches as a bishop, on the enemy half as a knight; the events started
  before #76 are applied again to that reach.
- #112 (HR-1, HR-2, HR-6): a rook reaches at most two squares forward (the middle square
  empty), one square sideways and one back, and attacks exactly those squares; the
  events started before #112 are applied again to that reach. HR-4: a pawn or knight
  never captures a rook, though it still attacks its square.
- #111 (GQ-1..GQ-3, GQ-6): a queen reaches the eight squares around it; a rook, knight
  or bishop next to a queen of its side adds an ordinary queen's reach, the events
  started before #111 applied to that reach as to a queen's.
- #106 (WL-1..WL-5): every square reached along a rank, file or diagonal whose path has a
  step d4-d5, e4-e5, d4-e5 or e4-d5 (either way) is taken away, pawns and kings included;
  leaps keep theirs.
- #30 (DB-1..DB-5): a bishop steps one square diagonally (capturing there, or stopping
  at a piece), or from that empty square turns 90 degrees and slides along the other
  diagonal up to the first piece met; it attacks every square of those paths. A bishop
  that #76 makes leap as a knight is not drunk, nor is a knight sliding as a bishop.
- #38 (FR-1..FR-5): a bishop slides forward (toward the opponent) round the board's
  edges, the file and the rank wrapping (a corner both at once), stopping before it
  would come back to its own square; backward it steps one square, without wrapping.
  With #30 as well (DB-8, FR-7): each leg wraps when it goes forward, is one square when
  it goes backward, and a step back is never followed by a turn further back.
  Both: the wall (#106) stops a bishop's move to a square only if every path to it
  crosses the wall (DB-7, FR-6).
- #33 (BB-2..BB-5, BB-7): a bishop's slide meets an edge and goes on with the part of
  its direction that would leave the board reversed (both at a corner, straight back),
  passing over its own square and stopping at the first piece met or where a square and
  direction would repeat; it attacks every square of those paths. With #30 the first step
  never bounces, the turned leg does; with #38 its wraps and single backward steps hold
  and nothing bounces.
- #8 Move Forward! (MF-1, MF-2, its own page), to cross-check FR-4 with it: nothing
  ending more than one rank back.
- #107 Big Wall (BW-1..BW-5): as #106, with the wall between the d- and e-files on ranks 3
  to 6: a step from the d-file to the e-file or back crosses it when both its squares lie
  on those ranks.
- #123 Forward Activity (FA-1..FA-4): a move along a rank, file or diagonal goes at most
  as many steps as the number of the rank it starts on, counted from its owner's side;
  other leaps are free.
- #49 Flying Rooks (FL-1..FL-5): a rook also moves to every empty square of its rank and
  file, jumping what stands between, as far as the other events let a move along the line
  go; it captures and attacks along a clear line only.
- #89 Same type immunity (TI-1..TI-4): a piece other than a pawn neither attacks nor
  captures an enemy piece of its own type; a castling king's squares are judged with the
  king standing on them, so an enemy king alone does not stop it.
- #71 Slow Pieces (SP-1, SP-2, its own page), to check the order rulings above with it:
  nothing further than two files or ranks away.

Pawns move as in orthodox chess (no EC-4 double step from the first rank: none of these
events gives it). Castling is orthodox (HR-3), its king's squares judged by the reach
attacks. A move is legal iff the mover's king is not attacked afterwards.

Usage:

    geometry_perft.py FILE            # recompute every count of a tests/data/perft file
    geometry_perft.py --check FILE    # ... and compare each with xpgn's
    geometry_perft.py --events "76,112" --fen FEN --depth D [--divide]
"""

import argparse
import sys

from perft_common import (
    B_RAYS, KI_T, KN_T, R_RAYS, START, castle_rook, castlings, color_of, drop_king_rights,
    fen_text, name, off, other, parse_fen_fields, piece_moves, rank_of, strip_rights,
    xpgn_args, xpgn_perft,
)


class Pos:
    __slots__ = ("b", "turn", "castle", "ep", "events")

    def copy(self):
        p = Pos()
        p.b, p.turn, p.castle, p.ep, p.events = self.b[:], self.turn, self.castle, self.ep, self.events
        return p

    def fen(self):
        return fen_text(self.b, self.turn, self.castle, self.ep)


def parse(fen, events):
    p = Pos()
    p.b, p.turn, p.castle, p.ep = parse_fen_fields(fen)
    p.events = tuple(events)
    return p


# ---------------------------------------------------------------- reach

def slides(b, s, rays):
    """The squares along rays up to and including the first piece: (empty, all)."""
    quiet, att = set(), set()
    for ray in rays:
        for t in ray:
            att.add(t)
            if b[t] is not None:
                break
            quiet.add(t)
    return quiet, att


def orthodox(b, s, kind):
    """(quiet, attacks) of a piece of `kind` (N B R Q K) on s."""
    if kind == "N" or kind == "K":
        att = set(KN_T[s] if kind == "N" else KI_T[s])
        return {t for t in att if b[t] is None}, att
    rays = {"B": B_RAYS[s], "R": R_RAYS[s], "Q": B_RAYS[s] + R_RAYS[s]}[kind]
    return slides(b, s, rays)


def pawn_reach(b, s, c):
    dr = 1 if c == "w" else -1
    quiet = set()
    one = off(s, 0, dr)
    if one is not None:
        quiet.add(one)
        two = off(one, 0, dr)
        if two is not None:
            quiet.add(two)
    att = {t for t in (off(s, -1, dr), off(s, 1, dr)) if t is not None}
    return quiet, att


def minor(pos, s, p, reach, earlier):
    """#76: the half of the board decides (MT-1), the earlier events again (MT-4); a
    piece whose half gives it its own movement keeps the reach it has (DB-5, FR-4)."""
    if p.upper() not in "NB":
        return reach
    c = color_of(p)
    kind = "B" if rank_of(s, c) < 4 else "N"
    if kind == p.upper():
        return reach
    return apply_events(pos, s, p, orthodox(pos.b, s, kind), earlier)


def is_forward(c, dr):
    """Toward the opponent: up the board for White, down for Black (FR-1)."""
    return dr > 0 if c == "w" else dr < 0


def diagonal_step(pos, c, t, df, dr):
    """One diagonal step from t; under #38 a forward step off the board comes back on at
    the opposite edge, file and rank wrapping together at a corner (FR-1, FR-3)."""
    if 38 in pos.events and is_forward(c, dr):
        return ((t // 8 + dr) % 8) * 8 + (t % 8 + df) % 8
    return off(t, df, dr)


def bounced(t, df, dr):
    """#33 (BB-2, BB-3): the direction after meeting the edge at t: the part that would
    leave the board reversed, both at a corner."""
    f, r = t % 8, t // 8
    if not 0 <= f + df < 8:
        df = -df
    if not 0 <= r + dr < 8:
        dr = -dr
    return df, dr


def leg(pos, c, start, df, dr):
    """The squares of one diagonal leg from `start`, up to the first piece met (kept).
    Under #38 a backward leg is one square (FR-1) and a forward one stops before it comes
    round to `start` again (FR-2). Under #33 (without #38, BB-7) the leg bounces off the
    edges, passes over `start` (empty once the bishop left it) and ends where a square
    and direction would repeat (BB-4)."""
    if 33 in pos.events and 38 not in pos.events:
        out = []
        seen = set()
        t = start
        while True:
            df, dr = bounced(t, df, dr)
            if (t, df, dr) in seen:
                break
            seen.add((t, df, dr))
            t = off(t, df, dr)
            if t == start:
                continue
            out.append(t)
            if pos.b[t] is not None:
                break
        return out
    out = []
    longest = 1 if 38 in pos.events and not is_forward(c, dr) else 64
    t = start
    while len(out) < longest:
        t = diagonal_step(pos, c, t, df, dr)
        if t is None or t == start:
            break
        out.append(t)
        if pos.b[t] is not None:
            break
    return out


def bishop_ways(pos, s, c):
    """Every path (list of squares passed, each a place to stop) of a bishop of colour c
    on s under #30 (DB-1..DB-3), #38 (FR-1..FR-3) and/or #33 (BB-2..BB-4); #30 and #38
    together, DB-8/FR-7: the legs wrap as #38 says and no move goes two squares back; #30
    and #33: the first step never bounces, the turned leg does (BB-7)."""
    ways = []
    for df, dr in ((1, 1), (-1, 1), (1, -1), (-1, -1)):
        if 30 not in pos.events:
            ways.append(leg(pos, c, s, df, dr))
            continue
        first = diagonal_step(pos, c, s, df, dr)
        if first is None:
            continue
        if pos.b[first] is not None:
            ways.append([first])
            continue
        for tf, tr in ((dr, -df), (-dr, df)):
            if 38 in pos.events and not is_forward(c, dr) and not is_forward(c, tr):
                ways.append([first])
            else:
                ways.append([first] + leg(pos, c, first, tf, tr))
    return [w for w in ways if w]


def moves_as_bishop(pos, s, p):
    """A bishop, unless #76 makes it leap as a knight on the enemy half (DB-5, FR-4)."""
    return p.upper() == "B" and not (76 in pos.events and rank_of(s, color_of(p)) >= 4)


def bishops(pos, s, p, reach, earlier):
    """#30 / #38 / #33: a bishop reaches every square of its paths and attacks them (DB-4,
    FR-5, BB-5); the earlier events again (DB-5, FR-4, BB-6)."""
    if not moves_as_bishop(pos, s, p):
        return reach
    att = {t for w in bishop_ways(pos, s, color_of(p)) for t in w} - {s}
    return apply_events(pos, s, p, ({t for t in att if pos.b[t] is None}, att), earlier)


def heavy(pos, s, p, reach, earlier):
    """#112: a rook steps two forward (middle empty), one sideways or back (HR-1, HR-2)."""
    if p.upper() != "R":
        return reach
    b = pos.b
    fwd = 1 if color_of(p) == "w" else -1
    att = set()
    for df, dr in ((1, 0), (-1, 0), (0, -fwd), (0, fwd)):
        t = off(s, df, dr)
        if t is not None:
            att.add(t)
    mid = off(s, 0, fwd)
    if mid is not None and b[mid] is None:
        t = off(mid, 0, fwd)
        if t is not None:
            att.add(t)
    return apply_events(pos, s, p, ({t for t in att if b[t] is None}, att), earlier)


def generous(pos, s, p, reach, earlier):
    """#111: a queen steps one square (GQ-1); a rook, knight or bishop next to an own
    queen also reaches as an ordinary queen (GQ-2, GQ-3), the earlier events applied to
    that queen's reach as to a queen's (GQ-6)."""
    c = color_of(p)
    queen = "Q" if c == "w" else "q"
    if p == queen:
        att = set(KI_T[s])
        return apply_events(pos, s, p, ({t for t in att if pos.b[t] is None}, att), earlier)
    if p.upper() in "RNB" and any(pos.b[t] == queen for t in KI_T[s]):
        q, a = apply_events(pos, s, queen, orthodox(pos.b, s, "Q"), earlier)
        return reach[0] | q, reach[1] | a
    return reach


def wall_crossed(a, b):
    """Does the step between neighbours a and b cross the wall (WL-1, WL-2)?"""
    return (a % 8 in (3, 4) and b % 8 in (3, 4)
            and {a // 8, b // 8} == {3, 4})


def big_wall_crossed(a, b):
    """Does the step between neighbours a and b cross #107's wall: one on the d-file, one
    on the e-file, both on ranks 3 to 6 (BW-1, BW-2)?"""
    return ({a % 8, b % 8} == {3, 4} and 2 <= a // 8 <= 5 and 2 <= b // 8 <= 5)


def through_wall(s, t, crossed=wall_crossed):
    """Does the line from s to t (a rank, file or diagonal; not a leap, WL-3) cross it?"""
    df, dr = t % 8 - s % 8, t // 8 - s // 8
    if (df, dr) == (0, 0) or (df and dr and abs(df) != abs(dr)):
        return False
    sf, sr = (df > 0) - (df < 0), (dr > 0) - (dr < 0)
    at = s
    while at != t:
        nxt = off(at, sf, sr)
        if crossed(at, nxt):
            return True
        at = nxt
    return False


def way_crosses(s, way, crossed=wall_crossed):
    return any(crossed(a, b) for a, b in zip([s] + way, way))


def walled(pos, s, p, t, crossed=wall_crossed):
    """Is t cut off from s by the wall? A bishop under #30/#38/#33 goes by its paths, and is
    stopped only if every path to t crosses (DB-7, FR-6); anything else by the line."""
    if (30 in pos.events or 38 in pos.events or 33 in pos.events) and moves_as_bishop(pos, s, p):
        ways = [w[:w.index(t) + 1] for w in bishop_ways(pos, s, color_of(p)) if t in w]
        if ways:
            return all(way_crosses(s, w, crossed) for w in ways)
    return through_wall(s, t, crossed)


def wall(pos, s, p, reach, earlier):
    """#106: no square reached along a line through the wall (WL-1, WL-4, WL-5)."""
    return ({t for t in reach[0] if not walled(pos, s, p, t)},
            {t for t in reach[1] if not walled(pos, s, p, t)})


def big_wall(pos, s, p, reach, earlier):
    """#107: no square reached along a line through the big wall (BW-1, BW-4, BW-5)."""
    return ({t for t in reach[0] if not walled(pos, s, p, t, big_wall_crossed)},
            {t for t in reach[1] if not walled(pos, s, p, t, big_wall_crossed)})


def forward_activity(pos, s, p, reach, earlier):
    """#123 (FA-1..FA-3): a move along a line goes at most as many steps as the rank it
    starts on, counted from its owner's side; leaps off the lines are free."""
    limit = rank_of(s, color_of(p)) + 1

    def near(t):
        df, dr = abs(t % 8 - s % 8), abs(t // 8 - s // 8)
        return not (df == 0 or dr == 0 or df == dr) or max(df, dr) <= limit
    return {t for t in reach[0] if near(t)}, {t for t in reach[1] if near(t)}


def flying(pos, s, p, reach, earlier):
    """#49 (FL-1, FL-5): a rook also moves to every empty square of its rank and file,
    whatever stands between, as far as the other running events let a move along that
    line go (walls, length limits); its attacks stay a clear line's (FL-3)."""
    if p.upper() != "R":
        return reach
    jumps = {t for ray in R_RAYS[s] for t in ray if pos.b[t] is None}
    others = [e for e in pos.events if e != 49]
    jumps = apply_events(pos, s, p, (jumps, set()), others)[0]
    return reach[0] | jumps, reach[1]


def slow(pos, s, p, reach, earlier):
    """#71 Slow Pieces (SP-1, SP-2), to cross-check the order rulings MT-4, HR-6, GQ-6 and
    WL-5 with the event they name: nothing further than two files or ranks away."""
    def near(t):
        return max(abs(t % 8 - s % 8), abs(t // 8 - s // 8)) <= 2
    return {t for t in reach[0] if near(t)}, {t for t in reach[1] if near(t)}


def move_forward(pos, s, p, reach, earlier):
    """#8 Move Forward! (MF-1, MF-2, its own page), to cross-check FR-4 with it: nothing
    more than one rank back toward the owner's side, judged by where the move ends."""
    c = color_of(p)

    def near(t):
        return rank_of(s, c) - rank_of(t, c) <= 1
    return {t for t in reach[0] if near(t)}, {t for t in reach[1] if near(t)}


def same_type(pos, s, p, reach, earlier):
    """#89 (TI-1..TI-3): no piece but a pawn attacks an enemy piece of its own type."""
    if p.upper() == "P":
        return reach
    twin = p.lower() if p.isupper() else p.upper()
    return reach[0], {t for t in reach[1] if pos.b[t] != twin}


EVENT_REACH = {76: minor, 112: heavy, 111: generous, 106: wall, 71: slow, 30: bishops,
               38: bishops, 33: bishops, 8: move_forward, 89: same_type, 107: big_wall,
               123: forward_activity, 49: flying}


def apply_events(pos, s, p, reach, events):
    for i, e in enumerate(events):
        reach = EVENT_REACH[e](pos, s, p, reach, events[:i])
    return reach


def reach_of(pos, s):
    p = pos.b[s]
    if p.upper() == "P":
        r = pawn_reach(pos.b, s, color_of(p))
    else:
        r = orthodox(pos.b, s, p.upper())
    return apply_events(pos, s, p, r, pos.events)


def attacked(pos, s, by):
    b = pos.b
    for t in range(64):
        p = b[t]
        if p is not None and color_of(p) == by and s in reach_of(pos, t)[1]:
            return True
    return False


def king_attacked(pos, c):
    k = "K" if c == "w" else "k"
    return any(pos.b[t] == k and attacked(pos, t, other(c)) for t in range(64))


def castle_attacked(pos, k, t):
    """Is the square t the castling king on k starts on or crosses attacked? Under #89 as
    the king would stand there (TI-4), else as it is."""
    if 89 not in pos.events or t == k:
        return attacked(pos, t, other(pos.turn))
    there = pos.copy()
    there.b[t], there.b[k] = there.b[k], None
    return attacked(there, t, other(pos.turn))


def allowed(pos, frm, to, kind):
    """HR-4: under #112 no pawn or knight captures a rook."""
    if 112 in pos.events and kind == "n":
        victim = pos.b[to]
        if victim is not None and victim.upper() == "R" and pos.b[frm].upper() in "PN":
            return False
    return True


# ---------------------------------------------------------------- moves

# A move: (frm, to, promo, kind), kind "n", "ep" or "castle".

def pseudo(pos):
    b, c = pos.b, pos.turn
    out = []
    for s in range(64):
        p = b[s]
        if p is None or color_of(p) != c:
            continue
        quiet, att = reach_of(pos, s)
        if p.upper() == "P":
            for x, kind in piece_moves(b, s, pos.ep, ec4=False):
                capture = kind == "ep" or b[x] is not None
                if x not in (att if capture else quiet):
                    continue
                if rank_of(x, c) == 7:
                    for q in "QRBN":
                        out.append((s, x, q if c == "w" else q.lower(), kind))
                else:
                    out.append((s, x, None, kind))
            continue
        for x in sorted(quiet | att):
            y = b[x]
            if (y is None and x in quiet) or (y is not None and color_of(y) != c and x in att):
                out.append((s, x, None, "n"))
    for k, kto, rto, cross in castlings(b, pos.castle, c):
        if not any(castle_attacked(pos, k, t) for t in cross):
            out.append((k, kto, None, "castle"))
    return out


def apply(pos, mv):
    frm, to, promo, kind = mv
    n = pos.copy()
    b = n.b
    p = b[frm]
    c = pos.turn
    n.ep = None
    if kind == "ep":
        b[to - 8 if c == "w" else to + 8] = None
    if kind == "castle":
        castle_rook(b, c, to)
    b[to] = promo or p
    b[frm] = None
    if p.upper() == "P" and abs(to - frm) == 16:
        n.ep = (frm + to) // 2
    if p.upper() == "K":
        n.castle = drop_king_rights(n.castle, c)
    n.castle = strip_rights(strip_rights(n.castle, frm), to)
    n.turn = other(c)
    return n


def legal_moves(pos):
    out = []
    for mv in pseudo(pos):
        if not allowed(pos, mv[0], mv[1], mv[3]):
            continue
        ch = apply(pos, mv)
        if not king_attacked(ch, pos.turn):
            out.append((mv, ch))
    return out


def key(mv):
    frm, to, promo, _ = mv
    return name(frm) + name(to) + (promo.lower() if promo else "")


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def divide(pos, depth):
    return {key(mv): perft(ch, depth - 1) for mv, ch in legal_moves(pos)}


# ---------------------------------------------------------------- files

def read_cases(path):
    cases = []
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        k, _, v = line.partition(" ")
        if k == "id":
            cases.append({"id": v, "fen": START, "events": "", "perft": []})
        elif k == "fen":
            cases[-1]["fen"] = v
        elif k == "events":
            cases[-1]["events"] = v
        elif k == "perft":
            d, n = v.split()
            cases[-1]["perft"].append((int(d), int(n)))
    return cases


def event_numbers(text):
    return [int(e.split()[0]) for e in text.split(",") if e.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=START)
    ap.add_argument("--events", default="76")
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--check", action="store_true", help="compare the file's counts with xpgn")
    ap.add_argument("--xpgn", default="target/debug/xpgn")
    a = ap.parse_args()
    if a.file:
        bad = 0
        for case in read_cases(a.file):
            pos = parse(case["fen"], event_numbers(case["events"]))
            for d, n in case["perft"]:
                mine = perft(pos, d)
                line = "%-28s %d %10d file %10d" % (case["id"], d, mine, n)
                if a.check:
                    x = xpgn_perft(xpgn_args(a.xpgn, case["events"], case["fen"]), d)
                    line += " xpgn %10d" % x
                    bad += x != mine
                bad += mine != n
                print(line + ("" if mine == n else "  MISMATCH"))
                sys.stdout.flush()
        print("all agree" if not bad else "%d disagreement(s)" % bad)
        return 1 if bad else 0
    pos = parse(a.fen, event_numbers(a.events))
    if a.divide:
        d = divide(pos, a.depth)
        for k in sorted(d):
            print("%s: %d" % (k, d[k]))
        print(sum(d.values()))
    else:
        print(perft(pos, a.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
