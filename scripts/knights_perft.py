#!/usr/bin/env python3
"""Independent perft for Event Chess with event #85 Loyal Knights running from the start.

A cross-check of xpgn's Loyal Knights moves, written from the rules text
(`shared/seeds/002_007dc882d47e5bd8.txt`, rulings LK-1..LK-9 and EC-4 in
`shared/spec/rulings.md`). python-chess cannot hold knight directions nor pawns on the
first or last rank (which swaps create), so this is a small 8x8 mailbox generator in
pure Python sharing no code with xpgn (nor with python-chess). The board, FEN, orthodox
attack and move pieces, the xpgn calls and the --check/--fuzz driver pieces are shared
with the other event perft scripts through `perft_common.py` (next to this file); the
rules below are this file's own:

- orthodox chess moves, plus EC-4: a pawn on its own first or second rank may step two
  squares when both are empty (setting the en-passant square as usual). A pawn on its
  last rank has no ordinary moves.
- directions (LK-1): every knight faces one of N NE E SE S SW W NW (or nothing, when no
  direction was given); it faces the first piece on that ray, either colour.
- swaps (LK-2, LK-3, LK-4): a capture of a piece P (en passant: of the passed pawn, on
  its square) that knights allied to P face (judged on the board before the move) exists
  once per facing knight K: K and P switch squares, K is captured on P's square and the
  capturer lands as usual (a capturing pawn reaching its last rank promotes as usual).
  P keeps its kind: a pawn put on its last or first rank stays a pawn (LK-7). A king
  swapped away loses its side's castling rights; a capture on a rook's corner square
  removes that right as usual. A king that no knight faces is never captured (such a
  position is illegal anyway).
- knight moves (LK-8): every knight move, captures included, exists once keeping the
  direction and once per other *nameable* direction from the landing square; a
  direction pointing straight off a side file (W/NW/SW from the a-file, E/NE/SE from the
  h-file) cannot be named (one rank off the board can: `b1->b0`). A knight may turn in
  place to any nameable direction other than its own. A promotion to a knight exists
  once per nameable direction from the promotion square.
- stand-still promotion (LK-7): a pawn of the side to move on its last rank may promote
  where it stands (Q, R, B; N once per nameable direction).
- check (LK-5): a king is in check iff attacked (ordinarily) and no allied knight faces
  it. Legality (LK-6): after the whole move (swap, capture, new direction) the mover is
  not in check. Castling (no ruling covers it; the default is xpgn's reading): the king
  is not in check (LK-5) on its square, nor would be standing on any square it crosses
  or lands on (facing counted, king moved there), and the castled position must be legal.
  `--castle-mode brief` judges the crossed and landing squares by plain attack instead;
  `--castle-mode plain` ignores facing on the king's own square as well.

Positions start with the directions given as in xpgn's `[%event 85 ...]`:
`--dirs "Nb1->b2 Ng1->h2 Nb8->b7 Ng8->f7"` (the square after `->` lies on the ray, one
rank off the board allowed).

Usage (any Python 3; no packages needed):

    knights_perft.py --dirs "..." [--fen FEN] --depth D [--divide]   # one count
    knights_perft.py --dirs "..." [--fen FEN] --moves "b1c3>NE c2c4" # replay keys
    knights_perft.py --dirs "..." [--fen FEN] --list                 # legal moves
    knights_perft.py --check [--xpgn PATH] [--max-depth D] [--only LABEL]
    knights_perft.py --fuzz N [--seed S] [--depth D]                 # random positions
    knights_perft.py --trace --dirs "..." [--fen FEN] --depth D      # descend to the
                                          # first differing move path against xpgn

Move keys (also for `--divide`): from square + landing square + promotion letter, then
`/K` for the swapped knight's square and `>DIR` for a new direction (none: the knight
keeps its direction). A turn is `g1>NE`, a stand-still promotion `a8q` / `a8n>S`,
castling `O-O` / `O-O-O`. xpgn's moves are mapped to the same keys through their `lan`
(from `xpgn moves --format json`).

Exit status: 0 when all counts agree (or a plain count was printed), 1 on any
disagreement, 2 on bad usage.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import perft_common as common  # noqa: E402
from perft_common import (  # noqa: E402
    FILES, RAYS, START, attacked, castle_rook, castlings, color_of, differing,
    drop_king_rights, fen_text, king_sq, name, one_king_each_apart, other, own_pieces,
    parse_fen_fields, piece_moves, random_kings, rank_of, sq, strip_rights)

START_DIRS = "Nb1->b2 Ng1->h2 Nb8->b7 Ng8->f7"
# directions 0..7: N NE E SE S SW W NW as (file step, rank step)
DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DNAME = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
OPP = tuple((i + 4) % 8 for i in range(8))

# options (set from the command line)
CASTLE_MODE = "lk5"


RAY8 = [[RAYS[(s, DIRS[i])] for i in range(8)] for s in range(64)]


def nameable(s):
    """Directions that can be named from square s (none pointing off a side file)."""
    f = s % 8
    return [i for i in range(8) if not (f == 0 and DIRS[i][0] < 0) and not (f == 7 and DIRS[i][0] > 0)]


NAMEABLE = [nameable(s) for s in range(64)]


def dir_square(s, i):
    """The square one step from s in direction i, named (ranks 0 and 9 allowed)."""
    f, r = s % 8 + DIRS[i][0], s // 8 + DIRS[i][1]
    if not 0 <= f < 8:
        raise ValueError("%s from %s points off the board sideways: xpgn cannot be told"
                         % (DNAME[i], name(s)))
    return FILES[f] + str(r + 1)


def dir_from(base, target):
    """Direction index from square name base to a square name target (ranks 0..9)."""
    bf, br = FILES.index(base[0]), int(base[1])
    tf, tr = FILES.index(target[0]), int(target[1:])
    df, dr = tf - bf, tr - br
    if (df, dr) == (0, 0) or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        raise ValueError("%s is on no line or diagonal from %s" % (target, base))
    sg = lambda v: (v > 0) - (v < 0)
    return DIRS.index((sg(df), sg(dr)))


class Pos:
    __slots__ = ("b", "d", "turn", "castle", "ep")

    def copy(self):
        p = Pos()
        p.b = self.b[:]
        p.d = self.d[:]
        p.turn = self.turn
        p.castle = self.castle
        p.ep = self.ep
        return p

    def fen(self):
        return fen_text(self.b, self.turn, self.castle, self.ep[0] if self.ep else None)

    def dirs_text(self):
        """The directions as xpgn's event arguments (knights without one left out)."""
        out = []
        for s in range(64):
            if self.b[s] in ("N", "n") and self.d[s] is not None:
                out.append("N%s->%s" % (name(s), dir_square(s, self.d[s])))
        return " ".join(out)

    def show(self):
        ds = [name(s) + ":" + (DNAME[self.d[s]] if self.d[s] is not None else "-")
              for s in range(64) if self.b[s] in ("N", "n")]
        return "%s  [%s]" % (self.fen(), " ".join(ds))


def parse_fen(fen, dirs_text):
    p = Pos()
    p.b, p.turn, p.castle, t = parse_fen_fields(fen)
    p.d = [None] * 64
    p.ep = None
    if t is not None:
        landed = t - 8 if p.turn == "w" else t + 8
        if p.b[landed] == ("p" if p.turn == "w" else "P"):
            p.ep = (t, landed)
    for tok in (dirs_text or "").split():
        m = re.match(r"^N?([a-h][1-8])->([a-h](?:[0-9]))$", tok)
        if not m:
            raise SystemExit("bad direction %r (want like Nb1->b2)" % tok)
        s = sq(m.group(1))
        if p.b[s] not in ("N", "n"):
            raise SystemExit("no knight on %s" % m.group(1))
        i = dir_from(m.group(1), m.group(2))
        if i not in NAMEABLE[s]:
            raise SystemExit("%s cannot be named from %s" % (m.group(2), m.group(1)))
        p.d[s] = i
    return p


# ---------------------------------------------------------------- facing, attacks

def faced(b, d, s, col):
    """Squares of the `col` knights that face square s (its first piece on their ray)."""
    N = "N" if col == "w" else "n"
    out = []
    for i in range(8):
        for t in RAY8[s][i]:
            x = b[t]
            if x is not None:
                if x == N and d[t] == OPP[i]:
                    out.append(t)
                break
    return out


def in_check(b, d, c):
    """LK-5: attacked and faced by no allied knight."""
    k = king_sq(b, c)
    if k is None:
        return False
    return attacked(b, k, other(c)) and not faced(b, d, k, c)


# ---------------------------------------------------------------- moves
# A move: (kind, frm, to, promo, swap, ndir); kind in n (incl. captures), ep, castle,
# turn, sp (stand-still promotion). ndir: the knight's new direction, None = keep.

def captures_of(pos, x):
    """swap choices for capturing the piece on x: [None] (plain) or knight squares;
    [] when the capture cannot happen (an unfaced king)."""
    b = pos.b
    P = b[x]
    ks = faced(b, pos.d, x, color_of(P))
    if ks:
        return ks
    if P in ("K", "k"):
        return []
    return [None]


def pseudo(pos):
    """Yields (kind, frm, to, swap) before promotion/direction choices."""
    b, c = pos.b, pos.turn
    ep = pos.ep[0] if pos.ep else None
    for s, p in own_pieces(b, c):
        if (p == "P" or p == "p") and rank_of(s, c) == 7:
            yield ("sp", s, s, None)
            continue
        for x, kind in piece_moves(b, s, ep):
            if kind == "ep":
                for k in captures_of(pos, pos.ep[1]):
                    yield ("ep", s, x, k)
            elif b[x] is None:
                yield ("n", s, x, None)
            else:
                for k in captures_of(pos, x):
                    yield ("n", s, x, k)
        if p == "N" or p == "n":
            yield ("turn", s, s, None)
    for k, kto, _, cross in castlings(b, pos.castle, c):
        # the squares the king crosses and lands on
        if not castle_ok(pos, k, cross[1:]):
            continue
        yield ("castle", k, kto, None)


def castle_ok(pos, k, cross):
    b, d, c = pos.b, pos.d, pos.turn
    o = other(c)
    if CASTLE_MODE == "plain":
        if attacked(b, k, o):
            return False
    elif in_check(b, d, c):
        return False
    if CASTLE_MODE in ("brief", "plain"):
        return not any(attacked(b, s, o) for s in cross)
    # lk5: would the king be in check standing on s (king moved there)
    for s in cross:
        bb = b[:]
        bb[s], bb[k] = bb[k], None
        if attacked(bb, s, o) and not faced(bb, d, s, c):
            return False
    return True


def apply(pos, mv):
    kind, frm, to, promo, swap, ndir = mv
    n = pos.copy()
    b, d = n.b, n.d
    c = pos.turn
    n.ep = None
    n.turn = other(c)
    cr = n.castle
    if kind == "turn":
        d[frm] = ndir
        return n
    if kind == "sp":
        b[frm] = promo.upper() if c == "w" else promo.lower()
        d[frm] = ndir if promo.upper() == "N" else None
        return n
    piece = b[frm]
    if kind == "castle":
        castle_rook(b, c, to)
    x = pos.ep[1] if kind == "ep" else to  # the captured piece's square
    if swap is not None:
        P = b[x]
        b[swap], d[swap] = P, d[x]
        b[x], d[x] = None, None  # the knight, captured there
        if P == "K" or P == "k":
            cr = drop_king_rights(cr, color_of(P))
    else:
        b[x], d[x] = None, None
    nd = d[frm]
    b[frm], d[frm] = None, None
    b[to] = piece
    if piece in ("N", "n"):
        d[to] = nd if ndir is None else ndir
    if piece in ("P", "p"):
        if promo:
            b[to] = promo.upper() if c == "w" else promo.lower()
            d[to] = ndir if promo.upper() == "N" else None
        if abs(to - frm) == 16:
            n.ep = ((frm + to) // 2, to)
    if piece == "K" or piece == "k":
        cr = drop_king_rights(cr, color_of(piece))
    cr = strip_rights(strip_rights(cr, frm), to)
    n.castle = cr
    return n


def expand(pos, kind, frm, to, swap):
    """The full moves (promotion pieces, directions) of one pseudo move."""
    b, c = pos.b, pos.turn
    piece = b[frm]
    if kind == "turn":
        return [(kind, frm, to, None, None, i) for i in NAMEABLE[frm] if i != pos.d[frm]]
    if kind == "sp":
        out = [(kind, frm, to, pr, None, None) for pr in "qrb"]
        out += [(kind, frm, to, "n", None, i) for i in NAMEABLE[frm]]
        return out
    if piece in ("N", "n"):
        return [(kind, frm, to, None, swap, None)] + [
            (kind, frm, to, None, swap, i) for i in NAMEABLE[to] if i != pos.d[frm]]
    if piece in ("P", "p") and rank_of(to, c) == 7:
        return [(kind, frm, to, pr, swap, None) for pr in "qrb"] + [
            (kind, frm, to, "n", swap, i) for i in NAMEABLE[to]]
    return [(kind, frm, to, None, swap, None)]


def legal_moves(pos):
    """[(move, child position)] of every legal move."""
    out = []
    c = pos.turn
    for kind, frm, to, swap in pseudo(pos):
        for mv in expand(pos, kind, frm, to, swap):
            child = apply(pos, mv)
            if in_check(child.b, child.d, c):
                continue
            out.append((mv, child))
    return out


def key(mv):
    kind, frm, to, pr, swap, nd = mv
    if kind == "castle":
        return "O-O" if to % 8 == 6 else "O-O-O"
    k = name(frm)
    if kind not in ("turn", "sp"):
        k += name(to)
    if pr:
        k += pr
    if swap is not None:
        k += "/" + name(swap)
    if nd is not None:
        k += ">" + DNAME[nd]
    return k


def perft(pos, depth):
    return common.perft(pos, depth, legal_moves)


def divide(pos, depth):
    d = {key(mv): perft(ch, depth - 1) for mv, ch in legal_moves(pos)}
    return short_keys(d)


def short_keys(d):
    """xpgn leaves `/K` out when a single knight faces the target (LK-4): so do we."""
    base = {}
    for k in d:
        if "/" in k:
            b = re.sub(r"/[a-h][1-8]", "", k)
            base[b] = base.get(b, 0) + 1
    out = {}
    for k, v in d.items():
        if "/" in k and base[re.sub(r"/[a-h][1-8]", "", k)] == 1:
            k = re.sub(r"/[a-h][1-8]", "", k)
        out[k] = v
    return out


def children(pos):
    """key (as in divide) -> child position."""
    ks = short_keys({key(mv): i for i, (mv, ch) in enumerate(legal_moves(pos))})
    ms = legal_moves(pos)
    return {k: ms[i][1] for k, i in ks.items()}


# ---------------------------------------------------------------- xpgn

def xpgn_args(xpgn, dirs_text, fen):
    return common.xpgn_args(xpgn, "85 " + dirs_text, fen)


def xpgn_perft(xpgn, dirs_text, fen, depth):
    return common.xpgn_perft(xpgn_args(xpgn, dirs_text, fen), depth)


LAN_RE = re.compile(
    r"^[KQRBNP]?([a-h][1-8])(?:[-x]([a-h][1-8]))?(?:=([QRBN]))?(?:/([a-h][1-8]))?"
    r"(?:->([a-h][0-9]))?")


def lan_key(lan):
    lan = lan.replace("e.p.", "").strip()
    if lan.startswith("O-O-O"):
        return "O-O-O"
    if lan.startswith("O-O"):
        return "O-O"
    m = LAN_RE.match(lan)
    if not m:
        return "?" + lan
    frm, to, pr, swap, dsq = m.groups()
    k = frm + (to or "") + (pr.lower() if pr else "")
    if swap:
        k += "/" + swap
    if dsq:
        k += ">" + DNAME[dir_from(to or frm, dsq)]
    return k


def xpgn_keys(xpgn, dirs_text, fen):
    """san -> key, from `xpgn moves --format json`."""
    moves = common.xpgn_moves(xpgn_args(xpgn, dirs_text, fen))
    return {mv["san"]: lan_key(mv["lan"]) for mv in moves}


def xpgn_divide(xpgn, dirs_text, fen, depth):
    rows = common.xpgn_divide(xpgn_args(xpgn, dirs_text, fen), depth,
                              lambda: xpgn_keys(xpgn, dirs_text, fen))
    return {k: n for k, n, _ in rows}


def children_compared(xpgn, pos, depth):
    """Yields (key, child, my count, xpgn's count) at depth - 1 for every child whose FEN
    xpgn accepts, in key order."""
    for k, ch in sorted(children(pos).items()):
        try:
            theirs = xpgn_perft(xpgn, ch.dirs_text(), ch.fen(), depth - 1)
        except (RuntimeError, ValueError):
            continue
        yield k, ch, perft(ch, depth - 1), theirs


def trace(xpgn, pos, depth, path=(), out=print):
    """Descend along differing first moves to the shallowest difference. The child
    positions are handed to xpgn as FEN + directions. xpgn refuses a FEN whose side not
    to move is attacked even when a knight faces its king; then the grandchildren (which
    xpgn may accept) are compared one by one instead."""
    fen = pos.fen()
    mdiv = divide(pos, depth)
    try:
        dt = pos.dirs_text()
        xdiv = xpgn_divide(xpgn, dt, fen, depth)
    except (RuntimeError, ValueError) as e:
        dt = "?"
        out("    path %s: xpgn refuses %s [%s]: %s" % (" ".join(path) or "-", fen, dt,
                                                       str(e).rsplit(": ", 1)[-1]))
        if depth >= 2:
            n = 0
            for k, ch, mine, theirs in children_compared(xpgn, pos, depth):
                if mine != theirs:
                    n += 1
                    out("      via %-12s mine %-8d xpgn %d" % (k, mine, theirs))
                    if n == 1:
                        trace(xpgn, ch, depth - 1, path + (k,), out)
            if not n:
                out("      (every grandchild xpgn accepts agrees: the difference is in the"
                    " move list here, or below a refused FEN)")
        return
    diff = differing(mdiv, xdiv)
    out("    path %-24s %s  dirs [%s]  depth %d: mine %d xpgn %d" % (
        " ".join(path) or "-", fen, dt, depth, sum(mdiv.values()), sum(xdiv.values())))
    for k in diff:
        out("      %-14s mine %-8s xpgn %s" % (k, mdiv.get(k), xdiv.get(k)))
    if depth <= 1:
        return
    both = [k for k in diff if k in mdiv and k in xdiv]
    if both and not any(k not in xdiv or k not in mdiv for k in diff):
        k = both[0]
        trace(xpgn, children(pos)[k], depth - 1, path + (k,), out)


# Positions: (label, directions, FEN or None, max depth)
SUITE = [
    ("start", START_DIRS, None, 3),
    ("start all S/N", "Nb1->b0 Ng1->g0 Nb8->b9 Ng8->g9", None, 3),
    # seed example 4 shape: Rxg4 with the g2 knight facing g4 (swap: the pawn goes to g2)
    ("single facing", "Ng2->g3 Nb8->b7", "1n2k3/8/8/8/r5P1/8/6N1/4K3 b - - 0 1", 3),
    # seed example 5 shape: three white knights face d4 (b2 NE, g1 NW, a7 SE); Rxd4/..
    ("multi facing", "Nb2->c3 Ng1->f2 Na7->b6 Nd6->d5 Na8->b8",
     "n3k3/N7/3n4/8/3P3r/8/1N6/4K1N1 b - - 0 1", 3),
    # seed example 6 shape: a knight on a2 faces h2 along the rank; Rxh2 swaps a pawn to a2
    ("swap to rank", "Na2->b2 Nb8->b7", "1n2k3/7r/8/8/8/8/N6P/4K3 b - - 0 1", 3),
    ("swap to last rank", "Na8->a7 Nb1->b2 Nh8->h7", "N3k2n/8/8/8/8/P6r/8/1N2K3 b - - 0 1", 3),
    # a pawn on its last rank (put there by a swap) stands still to promote
    ("stand promo", "Nc6->b7 Ng8->g7", "P3k1nr/8/2N5/8/8/8/8/4K3 w k - 0 1", 3),
    # seed example 7 shape: Rxd8 / Nxd8 swap the queen to h4, checking the black king
    ("ex7 swap check", "Nh4->g5 Nc6->c5", "3Q3k/6p1/2n5/8/7N/8/3r4/K7 b - - 0 1", 3),
    # seed example 8 shape: a faced king "in check", captured through the swap
    # (xpgn refuses a FEN whose side not to move is attacked even when faced, so the
    # faced king is reached by a move: Kg8 here, Ke1 in "capture king")
    ("faced king", "Na8->b8 Nb1->b2", "n4k1r/8/6Q1/8/8/8/8/1N2K3 b - - 0 1", 3),
    ("faced king 2", "Ne2->e1 Nc6->d7", "4k3/8/2n5/8/8/8/4N3/r3K3 w - - 0 1", 3),
    ("capture king", "Ne2->e1 Nc6->d7", "4k3/8/2n5/8/8/8/4NK2/r7 w - - 0 1", 3),
    # en passant where a knight faces the passed pawn
    ("ep facing", "Nd8->d7 Na1->a2", "3nk3/8/8/3pP3/8/8/8/N3K3 w - d6 0 1", 3),
    ("ep facing 2", "Nb4->c4 Ng8->g7", "4k1n1/8/8/8/1N1Pp3/8/8/4K3 b - d3 0 1", 3),
    # castling next to faced kings: out of attack (e1 faced), through f1 / onto g1 where
    # a knight would face the king
    ("castle out", "Ng3->f2 Nb8->b7", "rn2k2r/8/8/8/1b6/6N1/8/R3K2R w KQkq - 0 1", 3),
    ("castle through", "Nf3->f2 Nb8->b7 Ng8->g7",
     "rn2k1nr/8/b7/8/8/5N2/8/R3K2R w KQkq - 0 1", 3),
    ("castle into", "Ng3->g2 Nb8->b7", "rn2k2r/b7/8/8/8/6N1/8/R3K2R w KQkq - 0 1", 3),
    # the king faced on e1 while f1 (kingside) / d1 (queenside) is attacked
    ("castle faced thru", "Ng3->f2 Nb8->b7", "rn3rk1/8/8/8/8/6N1/8/4K2R w K - 0 1", 3),
    ("castle faced thru Q", "Ne2->e1 Nb8->b7", "rn2k3/8/8/3r4/8/8/4N3/R3K3 w Q - 0 1", 3),
    # edge knights: nameable directions
    ("edge knights", "Na4->a5 Nh5->g5 Na8->b8 Nh1->h2", "n3k3/8/8/7N/N7/8/8/4K2n w - - 0 1", 3),
    # pawns on first ranks (EC-4) and promotion to knight
    ("rank1 pawns", "Nb3->b4 Ng6->g5", "4k2p/2P5/6n1/8/8/1N6/8/P3K3 w - - 0 1", 3),
    # knights facing rooks on their corner squares (castling rights after the swap)
    ("rook corner swap", "Nh3->h2 Nb2->a1 Nb8->b7",
     "rn2k2r/8/2b5/8/8/7N/1N6/R3K2R b KQkq - 0 1", 3),
    ("kiwipete", "Ne5->d5 Nc3->b2 Nb6->c6 Nf6->f5",
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 2),
    ("sparse", "Nd4->e5 Nf5->e4", "4k3/8/8/5n2/3N4/8/8/4K3 w - - 0 1", 4),
]


def compare(xpgn, label, dirs_text, fen, depths, out=print):
    pos = parse_fen(fen or START, dirs_text)
    return common.compare_depths(
        label, 18, None, depths, lambda d: perft(pos, d),
        lambda d: xpgn_perft(xpgn, dirs_text, fen, d), lambda d: trace(xpgn, pos, d, out=out),
        out)


def check(xpgn, max_depth, only=None):
    bad = 0
    common.suite_header(18)
    for label, dirs_text, fen, maxd in common.selected(SUITE, only):
        print("# %s  [%s]" % (fen or START, dirs_text))
        bad += compare(xpgn, label, dirs_text, fen, range(1, min(maxd, max_depth) + 1))
    return common.verdict(bad)


def random_position(rng):
    """A random position (side not to move not in check, at least one knight a side,
    every knight with a nameable direction, biased toward facing a piece)."""
    while True:
        kings = random_kings(rng)
        if kings is None:
            continue
        b = kings[0]
        for kn in "Nn":
            for _ in range(rng.choice((1, 1, 2, 2, 3))):
                s = rng.randrange(64)
                if b[s] is None:
                    b[s] = kn
        for _ in range(rng.randint(2, 10)):
            s = rng.randrange(64)
            if b[s] is None:
                b[s] = rng.choice("PPPPBRQppppbrq")
        castle = ""
        if rng.random() < 0.3:
            for c, k, r, ch in (("K", 4, 7, "K"), ("K", 4, 0, "Q"), ("k", 60, 63, "k"), ("k", 60, 56, "q")):
                if b[k] in (None, c) and b[r] in (None, "R" if c == "K" else "r") and rng.random() < 0.7:
                    if b[k] is None:
                        old = b.index(c)
                        b[old], b[k] = None, c
                    b[r] = "R" if c == "K" else "r"
                    castle += ch
            castle = "".join(x for x in "KQkq" if x in castle
                             and b[{"K": 4, "Q": 4, "k": 60, "q": 60}[x]] == ("K" if x in "KQ" else "k")
                             and b[{"K": 7, "Q": 0, "k": 63, "q": 56}[x]] == ("R" if x in "KQ" else "r"))
        if not one_king_each_apart(b):
            continue
        if "N" not in b or "n" not in b:
            continue
        d = [None] * 64
        for s in range(64):
            if b[s] in ("N", "n"):
                opts = NAMEABLE[s]
                seeing = [i for i in opts if any(b[t] is not None for t in RAY8[s][i])]
                d[s] = rng.choice(seeing if seeing and rng.random() < 0.8 else opts)
        p = Pos()
        p.b, p.d, p.turn, p.castle, p.ep = b, d, rng.choice("wb"), castle, None
        if in_check(b, d, other(p.turn)):
            continue
        # sometimes an en-passant square, when a double step could have made it
        if rng.random() < 0.3:
            c = p.turn
            opts = []
            for s in range(64):
                if b[s] == ("p" if c == "w" else "P"):
                    back = 8 if c == "w" else -8
                    mid, orig = s + back, s + 2 * back
                    if 0 <= orig < 64 and b[mid] is None and b[orig] is None:
                        opts.append((mid, s))
            if opts:
                p.ep = rng.choice(opts)
                if in_check(b, d, other(c)):
                    p.ep = None
        return p


def fuzz(xpgn, count, depth, seed):
    def position(rng):
        pos = random_position(rng)
        return pos, pos.fen(), pos.dirs_text()

    def refused(i, case, e):
        # xpgn refuses FENs whose side not to move is attacked even when faced:
        # compare the children it accepts instead
        pos, fen, dt = case
        n_ok = n_bad = 0
        if depth >= 2:
            for k, ch, mine, theirs in children_compared(xpgn, pos, depth):
                n_ok += 1
                if mine != theirs:
                    n_bad += 1
                    print("#%d via %s MISMATCH: mine %d xpgn %d" % (i, k, mine, theirs))
                    trace(xpgn, ch, depth - 1, (k,))
        print("#%d xpgn refused %s [%s] (%s); %d children compared, %d differ" % (
            i, fen, dt, str(e).rsplit(": ", 1)[-1], n_ok, n_bad))
        return 1 if n_bad else 0

    def mismatch(i, case, mine, theirs):
        pos, fen, dt = case
        print("#%d MISMATCH fen %s dirs [%s] depth %d: mine %d xpgn %d" % (
            i, fen, dt, depth, mine, theirs))
        trace(xpgn, pos, depth)

    tested, bad, refused_n = common.fuzz_loop(
        count, seed, position, lambda case: perft(case[0], depth),
        lambda case: xpgn_perft(xpgn, case[2], case[1], depth), refused, mismatch)
    print("fuzz: %d positions compared at depth %d (+%d refused by xpgn, compared through"
          " their children), %d disagreement(s)" % (tested, depth, refused_n, bad))
    return 1 if bad else 0


COVER = ("swap", "multi-knight swap", "ep swap", "king swapped", "rook/corner swap",
         "pawn swapped to last rank", "stand-still promotion", "promotion to knight",
         "turn", "knight move new dir", "castle", "faced-king node", "faced king in check-free attack")


def coverage_perft(pos, depth, st):
    """perft that also counts move kinds (over every move generated, all plies)."""
    c = pos.turn
    k = king_sq(pos.b, c)
    if k is not None and faced(pos.b, pos.d, k, c):
        st["faced-king node"] += 1
        if attacked(pos.b, k, other(c)):
            st["faced king in check-free attack"] += 1
    if depth == 0:
        return 1
    n = 0
    for mv, ch in legal_moves(pos):
        kind, frm, to, pr, swap, nd = mv
        if swap is not None:
            st["swap"] += 1
            x = pos.ep[1] if kind == "ep" else to
            if len(faced(pos.b, pos.d, x, other(c))) > 1:
                st["multi-knight swap"] += 1
            if kind == "ep":
                st["ep swap"] += 1
            P = pos.b[x].upper()
            if P == "K":
                st["king swapped"] += 1
            if x in (0, 7, 56, 63) and P == "R":
                st["rook/corner swap"] += 1
            if P == "P" and rank_of(swap, other(c)) == 7:
                st["pawn swapped to last rank"] += 1
        if kind == "sp":
            st["stand-still promotion"] += 1
        if pr == "n":
            st["promotion to knight"] += 1
        if kind == "turn":
            st["turn"] += 1
        if kind == "n" and pos.b[frm].upper() == "N" and nd is not None:
            st["knight move new dir"] += 1
        if kind == "castle":
            st["castle"] += 1
        n += coverage_perft(ch, depth - 1, st) if depth > 1 else 1
    return n


def coverage(max_depth):
    tot = dict((k, 0) for k in COVER)
    for label, dirs_text, fen, maxd in SUITE:
        st = dict((k, 0) for k in COVER)
        coverage_perft(parse_fen(fen or START, dirs_text), min(maxd, max_depth), st)
        print("%-20s %s" % (label, " ".join("%d" % st[k] for k in COVER)))
        for k in COVER:
            tot[k] += st[k]
    for k in COVER:
        print("  %-34s %d" % (k, tot[k]))


def find_move(pos, text):
    return common.find_move(pos, text, legal_moves, key, Pos.show)


def main():
    global CASTLE_MODE
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dirs", default=None, help='knight directions, e.g. "Nb1->b2 Nb8->b7"')
    common.add_common_args(ap)
    ap.add_argument("--trace", action="store_true", help="compare with xpgn, descend to the difference")
    ap.add_argument("--only", default=None, help="with --check: labels containing this")
    common.add_xpgn_args(ap, "/tmp/xpgn-lk2", 3)
    ap.add_argument("--coverage", action="store_true", help="count move kinds over the suite")
    ap.add_argument("--castle-mode", choices=("brief", "lk5", "plain"), default="lk5")
    a = ap.parse_args()
    CASTLE_MODE = a.castle_mode
    if a.fuzz:
        return fuzz(a.xpgn, a.fuzz, a.depth or 2, a.seed)
    if a.coverage:
        return coverage(a.max_depth)
    if a.check:
        return check(a.xpgn, a.max_depth, a.only)
    dirs_text = a.dirs if a.dirs is not None else (START_DIRS if not a.fen else "")
    pos = parse_fen(a.fen or START, dirs_text)
    if a.moves:
        for m in a.moves.split():
            pos = find_move(pos, m)
            print(m, pos.show())
    if a.list:
        for mv, ch in legal_moves(pos):
            print(key(mv), "->", ch.show())
    if a.trace:
        trace(a.xpgn, pos, a.depth or 1)
        return 0
    if a.depth is not None:
        common.print_count(pos, a.depth, divide, perft, a.divide)
    return 0


if __name__ == "__main__":
    sys.exit(main())
