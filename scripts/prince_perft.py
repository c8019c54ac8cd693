#!/usr/bin/env python3
"""Independent perft for Event Chess with event #68 Prince running from the start.

A cross-check of xpgn's Prince moves, written from the rules text
(`shared/seeds/003_fc31cc36c9b6f970.txt`, rulings PR-1..PR-5 in `shared/spec/rulings.md`).
python-chess cannot hold kings that may stand attacked, be captured and be replaced, so
this is a small 8x8 mailbox generator in pure Python sharing no code with xpgn (nor with
python-chess). The board, FEN, orthodox attack and move pieces, the xpgn calls and the
--check driver pieces are shared with the other event perft scripts through
`perft_common.py` (next to this file); the rules below are this file's own:

- orthodox chess moves (no EC-4 extra double steps); en passant, promotion (Q R B N) and
  castling as usual. The 50-move rule and repetition are ignored.
- state beyond the FEN: each player's chosen pawn (a square, followed as the pawn moves;
  "none" once it is captured - en passant included - or promotes) and a flag
  `checkable`, False for both at the start.
- PR-1: a player whose `checkable` is False has no check: every pseudo-legal move of his
  is legal (his king may stay on or step onto an attacked square, kings may capture
  kings), and he may castle out of, through and into attacked squares (the squares
  between king and rook must be empty and the right must still be held).
- PR-2: a move that captures a king of player P: P becomes checkable; if P's chosen
  pawn still stands, it is replaced at once by a king of P on its square, the chosen
  pawn becomes "none" and P loses both castling rights (PR-5). Otherwise P has no king:
  the game is over and the position has no legal moves (it counts 1 as a depth-0 leaf,
  0 at any depth >= 1).
- a checkable player: a move is legal only if afterwards (with any replacement it
  caused) none of his kings is attacked - this includes PR-3, a king capture whose new
  enemy king would attack the mover's king. He castles only when the king's start,
  crossed and end squares are all unattacked.
  A king capture that ends the game wins it, so it is legal even if it leaves the
  capturer attacked (xpgn's reading); `--end-needs-safety` applies the rule literally
  to it too, to test the other reading. (Coverage counts how often it matters.)

Positions given as a FEN start with both players not checkable and with the chosen pawns
on the given squares (as in xpgn, whose FEN carries no Prince state).

Usage (any Python 3; no packages needed):

    prince_perft.py --pawns c2 g7 [--fen FEN] --depth D [--divide]   # one count
    prince_perft.py --pawns c2 g7 [--fen FEN] --moves "f1c4 e7e5"    # replay UCI moves,
                                                 # print each position with its state
    prince_perft.py --pawns c2 g7 [--fen FEN] --list                 # legal moves
    prince_perft.py --check [--xpgn PATH] [--max-depth D] [--only L]  # compare the
                                                 # built-in suite with xpgn's perft
    prince_perft.py --fuzz N [--seed S] [--depth D] [--extra E]  # compare N random
                                                 # positions (E: at most E more pieces)
    prince_perft.py --trace --pawns W B [--fen F] --depth D   # on a mismatch follow the
                                                 # first differing move down to depth 1

`--divide` prints `UCI: COUNT` (castling as the king's move `e1g1`). `--check` runs
the suite below against `xpgn perft --variant event-chess --events "68 W B"`; on a
mismatch it compares the divides (xpgn's SAN matched to UCI through `xpgn moves --format
json`) and follows the first differing move down to depth 1, printing the path and the
move lists that differ. `--stats` prints coverage counters (king captures,
replacements, game-ending captures, PR-3 refusals, castling through attack, ...).

Exit status: 0 when all counts agree (or a plain count was printed), 1 on any
disagreement, 2 on bad usage.
"""

import argparse
import os
import re
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import perft_common as common  # noqa: E402
from perft_common import (  # noqa: E402
    START, attacked, castle_rook, castlings, drop_king_rights, fen_text, name, off, own_pieces,
    parse_fen_fields, piece_moves, sq, strip_rights)

W, B = 0, 1  # colour indices

STATS = Counter()
END_IGNORES_CHECK = True


PCS = ({"P": "P", "N": "N", "B": "B", "R": "R", "Q": "Q", "K": "K"},
       {"P": "p", "N": "n", "B": "b", "R": "r", "Q": "q", "K": "k"})


class Pos:
    """b: 64 squares (a1=0); turn W/B; castle: string of KQkq; ep: target square or
    None; chosen: [white square or None, black square or None]; checkable: [bool, bool];
    over: the game has ended (a king was captured with no chosen pawn left)."""
    __slots__ = ("b", "turn", "castle", "ep", "chosen", "checkable", "over")

    def copy(self):
        p = Pos()
        p.b = self.b[:]
        p.turn = self.turn
        p.castle = self.castle
        p.ep = self.ep
        p.chosen = self.chosen[:]
        p.checkable = self.checkable[:]
        p.over = self.over
        return p

    def fen(self):
        return fen_text(self.b, "wb"[self.turn], self.castle, self.ep)

    def state(self):
        ch = [name(s) if s is not None else "none" for s in self.chosen]
        return "chosen w=%s b=%s checkable w=%s b=%s%s" % (
            ch[0], ch[1], self.checkable[0], self.checkable[1],
            " GAME OVER" if self.over else "")


def parse_fen(fen, pawns):
    p = Pos()
    p.b, turn, p.castle, p.ep = parse_fen_fields(fen)
    p.turn = W if turn == "w" else B
    p.chosen = [sq(pawns[0]), sq(pawns[1])]
    if p.b[p.chosen[0]] != "P" or p.b[p.chosen[1]] != "p":
        raise SystemExit("chosen squares must hold a white and a black pawn: %s %s"
                         % tuple(pawns))
    p.checkable = [False, False]
    p.over = False
    return p


# ---------------------------------------------------------------- attacks

def kings_attacked(b, c):
    """Is any king of colour c attacked?"""
    k = PCS[c]["K"]
    for i in range(64):
        if b[i] == k and attacked(b, i, 1 - c):
            return True
    return False


# ---------------------------------------------------------------- moves
# A move: (frm, to, promo, kind), kind in "n", "ep", "castle".

def pseudo(pos, stats=False, any_castle=False):
    """Pseudo-legal moves; castling of a checkable player already filtered for attacked
    squares unless any_castle."""
    b, c = pos.b, pos.turn
    out = []
    last = 7 if c == W else 0
    for s, p in own_pieces(b, c):
        pawn = p == "P" or p == "p"
        for x, kind in piece_moves(b, s, pos.ep, ec4=False):
            if kind == "ep":
                if b[x] is None:
                    out.append((s, x, None, "ep"))
            elif pawn and x // 8 == last:
                for pr in "qrbn":
                    out.append((s, x, pr, "n"))
            else:
                out.append((s, x, None, "n"))
    for k, kto, _, cross in castlings(b, pos.castle, c):
        hit = any(attacked(b, x, 1 - c) for x in cross)
        if pos.checkable[c] and not any_castle:
            if hit:
                continue
        elif hit and stats:
            STATS["castle through/into/out of attack (not checkable)"] += 1
        out.append((k, kto, None, "castle"))
    return out


def apply(pos, mv):
    """The position after mv (with any replacement / game end)."""
    frm, to, promo, kind = mv
    c = pos.turn
    o = 1 - c
    n = pos.copy()
    b = n.b
    piece = b[frm]
    n.ep = None
    if kind == "ep":
        capsq = to - 8 if c == W else to + 8
    else:
        capsq = to
    captured = b[capsq]
    b[capsq] = None
    b[frm] = None
    b[to] = (promo.upper() if c == W else promo) if promo else piece
    if kind == "castle":
        castle_rook(b, c, to)
    if piece.upper() == "P" and abs(to - frm) == 16:
        n.ep = (frm + to) // 2
    # chosen pawns
    if n.chosen[c] == frm:
        n.chosen[c] = None if promo else to
    if captured is not None and n.chosen[o] == capsq:
        n.chosen[o] = None
    # castling rights
    cr = n.castle
    if piece.upper() == "K":
        cr = drop_king_rights(cr, c)
    cr = strip_rights(strip_rights(cr, frm), capsq)
    # king capture
    if captured is not None and captured.upper() == "K":
        if n.chosen[o] is not None:
            b[n.chosen[o]] = PCS[o]["K"]
            n.chosen[o] = None
            n.checkable[o] = True
            cr = drop_king_rights(cr, o)
        elif not any(x == PCS[o]["K"] for x in b):
            n.over = True
    n.castle = cr
    n.turn = o
    return n


def legal_moves(pos, stats=False):
    """[(move, child)] of every legal move."""
    if pos.over:
        return []
    out = []
    c = pos.turn
    b = pos.b
    chk = pos.checkable[c]
    if stats:
        STATS["nodes expanded"] += 1
        if chk:
            STATS["nodes: side to move checkable"] += 1
            if kings_attacked(b, c):
                STATS["nodes: checkable side to move in check"] += 1
    for mv in pseudo(pos, stats):
        frm, to, promo, kind = mv
        captured = b[to]
        kcap = captured is not None and captured.upper() == "K"
        child = apply(pos, mv)
        if chk:
            if child.over and END_IGNORES_CHECK:
                pass
            elif kings_attacked(child.b, c):
                if stats:
                    if child.over:
                        STATS["game-ending capture refused (capturer left attacked)"] += 1
                    if kcap and child.checkable[1 - c] and not pos.checkable[1 - c]:
                        # would it be legal with the pawn not turned into a king?
                        alt = child.b[:]
                        for i in range(64):
                            if alt[i] == PCS[1 - c]["K"]:
                                alt[i] = PCS[1 - c]["P"]
                        if not kings_attacked(alt, c):
                            STATS["PR-3 refusals (new king attacks mover)"] += 1
                        else:
                            STATS["king capture refused (mover attacked anyway)"] += 1
                continue
        if stats:
            if kcap:
                STATS["king captures"] += 1
                if child.over:
                    STATS["game-ending king captures"] += 1
                    if chk and kings_attacked(child.b, c):
                        STATS["game-ending capture leaving capturer attacked (allowed)"] += 1
                else:
                    STATS["replacements (K@)"] += 1
                    if kings_attacked(child.b, 1 - c):
                        STATS["replacement giving check"] += 1
                if captured.upper() == "K" and b[frm].upper() == "K":
                    STATS["king takes king"] += 1
            if kind == "castle":
                STATS["castlings"] += 1
            if kind == "ep":
                STATS["en passant"] += 1
            if promo:
                STATS["promotions"] += 1
                if pos.chosen[c] == frm:
                    STATS["chosen pawn promotes"] += 1
            if captured is not None and pos.chosen[1 - c] == to or (
                    kind == "ep" and pos.chosen[1 - c] == (to - 8 if c == W else to + 8)):
                STATS["chosen pawn captured"] += 1
            if not chk and kings_attacked(child.b, c):
                STATS["moves leaving own king attacked (not checkable)"] += 1
        out.append((mv, child))
    return out


def key(mv):
    frm, to, pr, _ = mv
    return name(frm) + name(to) + (pr or "")


def legal_moves_stats(pos):
    return legal_moves(pos, True)


def perft(pos, depth, stats=False):
    return common.perft(pos, depth, legal_moves_stats if stats else legal_moves)


def divide(pos, depth):
    return {key(mv): perft(ch, depth - 1) for mv, ch in legal_moves(pos)}


# ---------------------------------------------------------------- xpgn

def xpgn_args(xpgn, pawns, fen):
    return common.xpgn_args(xpgn, "68 %s %s" % tuple(pawns), fen)


def xpgn_perft(xpgn, pawns, fen, depth):
    return common.xpgn_perft(xpgn_args(xpgn, pawns, fen), depth)


def xpgn_moves(xpgn, pawns, fen):
    return common.xpgn_moves(xpgn_args(xpgn, pawns, fen))


def xpgn_divide(xpgn, pawns, fen, depth):
    """uci -> (count, san)."""
    rows = common.xpgn_divide(xpgn_args(xpgn, pawns, fen), depth, lambda: {
        m["san"]: m["uci"] for m in xpgn_moves(xpgn, pawns, fen)})
    return {k: (n, san) for k, n, san in rows}


def trace(xpgn, pawns, fen, pos, depth, indent="    "):
    """Follow the first differing move down the tree. xpgn only takes FENs (no Prince
    state), so the descent through xpgn stops where the state stops being the FEN's
    start state (a king capture happened or a chosen pawn moved/vanished); there the
    remaining subtree is shown from my side only."""
    path = []
    while depth >= 1:
        mdiv = {key(mv): (perft(ch, depth - 1), ch) for mv, ch in legal_moves(pos)}
        try:
            xdiv = xpgn_divide(xpgn, pawns, fen, depth)
        except RuntimeError as e:
            print(indent + "xpgn refused %s: %s" % (fen, e))
            return
        diff = [k for k in sorted(set(mdiv) | set(xdiv))
                if (mdiv[k][0] if k in mdiv else None) != (xdiv[k][0] if k in xdiv else None)]
        print(indent + "path [%s] fen %s pawns %s depth %d: %d differing first move(s)"
              % (" ".join(path), fen, " ".join(pawns), depth, len(diff)))
        for k in diff:
            print(indent + "    %-8s %-14s mine %-8s xpgn %s" % (
                k, xdiv[k][1] if k in xdiv else "", mdiv[k][0] if k in mdiv else None,
                xdiv[k][0] if k in xdiv else None))
        if not diff:
            return
        k = diff[0]
        if k not in mdiv or k not in xdiv or depth == 1:
            if k in mdiv:
                print(indent + "  mine after %s: %s  %s" % (k, mdiv[k][1].fen(), mdiv[k][1].state()))
            return
        child = mdiv[k][1]
        path.append(k)
        # can xpgn continue from a FEN? only while the Prince state equals a fresh start
        nch = child.chosen
        if child.checkable != [False, False] or None in nch or child.over:
            print(indent + "  after [%s] the Prince state is %s; xpgn cannot start there "
                  "from a FEN; probing move sets with `xpgn check` below it"
                  % (" ".join(path), child.state()))
            mv = [m for m, ch in legal_moves(pos) if key(m) == k][0]
            if not probe(xpgn, fen, pawns, None, [lan(pos, mv, child)], child, depth - 1,
                         indent + "  ", [400]):
                print(indent + "  no move-set difference found within the probe budget")
            return
        fen, pawns, pos, depth = child.fen(), [name(nch[0]), name(nch[1])], child, depth - 1


def lan(pos, mv, child):
    """Long algebraic notation as xpgn reads it (Qd4xg7, e2-e4, O-O, Rh1xa1K@a3)."""
    frm, to, pr, kind = mv
    if kind == "castle":
        s = "O-O" if to % 8 == 6 else "O-O-O"
    else:
        p = pos.b[frm].upper()
        cap = pos.b[to] is not None or kind == "ep"
        s = ("" if p == "P" else p) + name(frm) + ("x" if cap else "-") + name(to)
        if pr:
            s += "=" + pr.upper()
    o = 1 - pos.turn
    if child.checkable[o] and not pos.checkable[o]:
        k = PCS[o]["K"]
        s += "K@" + name([i for i in range(64) if child.b[i] == k][0])
    return s


def xpgn_accepts(xpgn, fen, pawns, path_lan, cands):
    """Replay start FEN + path + each candidate through `xpgn check`; return the set of
    candidates (LAN strings) xpgn accepts (no error diagnostic)."""
    import tempfile
    lines = []
    where = {}
    ply0 = 1 if fen.split()[1] == "w" else 2
    for cand in [None] + list(cands):
        moves = path_lan + ([cand] if cand else [])
        text = []
        for i, m in enumerate(moves):
            ply = ply0 + i
            if ply % 2 == 1:
                text.append("%d. %s" % ((ply + 1) // 2, m))
            elif i == 0:
                text.append("%d... %s" % (ply // 2, m))
            else:
                text.append(m)
        lines += ['[Variant "Event Chess"]', '[FEN "%s"]' % fen, '[SetUp "1"]',
                  '[Result "*"]', ""]
        where[len(lines) + 1] = cand
        lines += ["{[%%event 68 %s %s]} %s *" % (pawns[0], pawns[1], " ".join(text)), ""]
    with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        fn = f.name
    r = subprocess.run([xpgn, "check", fn], capture_output=True, text=True)
    out = r.stdout + r.stderr
    rejected = set()
    blocks = re.split(r"\n(?=xpgn::)", out)
    for blk in blocks:
        if "\u00d7" not in blk:
            continue  # a warning, not an error
        m = re.search(re.escape(fn) + r":(\d+):", blk)
        if m and int(m.group(1)) in where:
            rejected.add(where[int(m.group(1))])
    import os
    os.unlink(fn)
    if None in rejected:
        print("    (xpgn rejects the path itself: %s)" % " ".join(path_lan))
    return set(cands) - rejected, out


def probe(xpgn, fen, pawns, path_pos, path_lan, pos, depth, indent, budget):
    """Beyond what a FEN can express: compare my legal moves at pos with the candidate
    (pseudo-legal) moves xpgn accepts after the path, descending up to depth-1 plies.
    Returns True when a difference was found."""
    if budget[0] <= 0:
        return False
    budget[0] -= 1
    legal = {lan(pos, mv, ch): ch for mv, ch in legal_moves(pos)}
    cands = {}
    for mv in pseudo(pos, any_castle=True):
        cands[lan(pos, mv, apply(pos, mv))] = mv
    acc, out = xpgn_accepts(xpgn, fen, pawns, path_lan, sorted(cands))
    mine = set(legal)
    if acc != mine:
        print(indent + "DIFFERENCE after %s (from fen %s pawns %s)" % (
            " ".join(path_lan), fen, " ".join(pawns)))
        print(indent + "  position %s  %s" % (pos.fen(), pos.state()))
        for m in sorted(mine - acc):
            print(indent + "  I allow, xpgn refuses: %s" % m)
        for m in sorted(acc - mine):
            print(indent + "  xpgn allows, I refuse: %s" % m)
        return True
    if depth <= 1:
        return False
    for m in sorted(legal):
        if probe(xpgn, fen, pawns, path_pos, path_lan + [m], legal[m], depth - 1, indent, budget):
            return True
    return False


# Positions: (label, pawns, FEN or None, max depth)
SUITE = [
    ("start e2/e7", ("e2", "e7"), None, 4),
    ("start a2/h7", ("a2", "h7"), None, 4),
    ("start c2/g7", ("c2", "g7"), None, 4),
    # seed example 1 shape: Bxf7 Kxf7 Qxf7K@g7
    ("ex1 Bc4 Qf3", ("c2", "g7"),
     "rnbqk1nr/pppp1ppp/8/2b1p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 0 1", 4),
    # queens and kings close together: king captures at ply 1-3
    ("queens close", ("b2", "g7"), "4k3/6p1/3q4/8/8/3Q4/1P6/4K3 w - - 0 1", 4),
    ("kings adjacent-ish", ("d4", "e5"), "8/8/8/4p3/3P4/2K1k3/8/8 w - - 0 1", 5),
    ("kings face", ("a2", "h7"), "8/7p/8/3k4/8/3K4/P7/8 w - - 0 1", 5),
    ("queen storm", ("g2", "b7"), "3qk3/1p6/8/8/8/8/6P1/3QK3 w - - 0 1", 4),
    # chosen pawn about to promote / be captured before the king falls (game ends)
    ("promote then die", ("b7", "g3"), "4k3/1P6/8/8/8/6p1/8/R3K3 w Q - 0 1", 4),
    ("black promotes", ("b7", "g2"), "4k3/1P6/8/8/8/8/6p1/R3K3 b Q - 0 1", 4),
    ("chosen capturable", ("d4", "e5"), "3qk3/8/8/4p3/3P4/8/8/3QK3 w - - 0 1", 4),
    ("pawn vs queen", ("h2", "a7"), "k7/p7/8/8/8/8/1q5P/K7 w - - 0 1", 5),
    # castling with attacked squares
    ("castle attacked", ("h2", "h7"),
     "r3k2r/7p/8/8/2b2B2/8/7P/R3K2R w KQkq - 0 1", 4),
    ("castle attacked b", ("a2", "a7"),
     "r3k2r/p7/8/1B6/8/8/P5q1/R3K2R b KQkq - 0 1", 4),
    ("castle rook hit", ("g2", "b7"),
     "r3k2r/1p6/8/8/8/8/6P1/R3K2R w KQkq - 0 1", 4),
    # PR-3: once a player is checkable, a king capture that creates a king next to his
    ("PR-3 chosen face", ("e3", "e4"), "r6k/8/8/8/4p3/4P3/8/K2Q4 w - - 0 1", 4),
    ("PR-3 pawns d3/d5", ("d3", "d5"), "8/8/8/3pk3/8/3PK3/8/8 w - - 0 1", 5),
    ("PR-3 queens c4/c5", ("c4", "c5"), "3qk3/8/8/2p5/2P5/8/8/3QK3 w - - 0 1", 4),
    # game-ending capture by a checkable player who is in check (it wins: legal)
    ("end capture in check", ("a3", "g7"), "7k/6p1/8/8/3Q4/P7/8/K6r w - - 0 1", 4),
    ("PR-3 ex3 shape", ("f4", "c6"), "k7/8/2p5/8/5P2/8/8/1K2b3 b - - 0 1", 5),
    # en passant (chosen pawn captured e.p.)
    ("ep chosen", ("e5", "d5"), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 5),
    ("ep dbl", ("e2", "d4"), "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", 5),
    ("kiwipete", ("a2", "h3"),
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
]


def check(xpgn, max_depth, only=None):
    bad = 0
    common.suite_header(20, "pawns")
    for label, pawns, fen, maxd in common.selected(SUITE, only):
        pos = parse_fen(fen or START, pawns)
        bad += common.compare_depths(
            label, 20, "/".join(pawns), range(1, min(maxd, max_depth) + 1),
            lambda d: perft(pos, d, stats=True), lambda d: xpgn_perft(xpgn, pawns, fen, d),
            lambda d: trace(xpgn, pawns, fen, pos, d))
    return common.verdict(bad)


def random_position(rng, extra=9):
    """A random FEN (side not to move not attacked, as xpgn requires) and chosen pawns."""
    while True:
        b = [None] * 64
        # kings fairly close to each other most of the time
        wk = rng.randrange(64)
        if rng.random() < 0.6:
            cand = [s for s in range(64) if s != wk and abs(s % 8 - wk % 8) <= 3
                    and abs(s // 8 - wk // 8) <= 3]
            bk = rng.choice(cand)
        else:
            bk = rng.choice([s for s in range(64) if s != wk])
        b[wk], b[bk] = "K", "k"
        castle = ""
        if rng.random() < 0.3:
            if rng.random() < 0.6 and b[4] is None:
                b[wk], b[4] = None, "K"
                wk = 4
            if rng.random() < 0.6 and b[60] is None:
                b[bk], b[60] = None, "k"
                bk = 60
            for k, r, ch, K, R in ((4, 7, "K", "K", "R"), (4, 0, "Q", "K", "R"),
                                   (60, 63, "k", "k", "r"), (60, 56, "q", "k", "r")):
                if b[k] == K and b[r] is None and rng.random() < 0.8:
                    b[r] = R
                    castle += ch
            castle = "".join(x for x in "KQkq" if x in castle)
        # the chosen pawns (pawns on ranks 2-7)
        wp = rng.choice([s for s in range(8, 56) if b[s] is None])
        b[wp] = "P"
        bp = rng.choice([s for s in range(8, 56) if b[s] is None])
        b[bp] = "p"
        for _ in range(rng.randint(0, extra)):
            s = rng.randrange(64)
            if b[s] is None:
                x = rng.choice("PPPNBRQQppppnbrqq")
                if x in "Pp" and not 8 <= s < 56:
                    continue
                b[s] = x
        # keep castling rights consistent
        castle = "".join(ch for ch, k, r, K, R in (("K", 4, 7, "K", "R"), ("Q", 4, 0, "K", "R"),
                                                   ("k", 60, 63, "k", "r"), ("q", 60, 56, "k", "r"))
                         if ch in castle and b[k] == K and b[r] == R)
        turn = rng.choice((W, B))
        if kings_attacked(b, 1 - turn):
            continue
        p = Pos()
        p.b, p.turn, p.castle, p.ep = b, turn, castle, None
        p.chosen, p.checkable, p.over = [wp, bp], [False, False], False
        # en passant: a pawn of the side not to move that could just have double-stepped
        if rng.random() < 0.3:
            o = 1 - turn
            r4 = 3 if o == W else 4
            cands = []
            for f in range(8):
                s = r4 * 8 + f
                mid = s - 8 if o == W else s + 8
                orig = s - 16 if o == W else s + 16
                if b[s] == PCS[o]["P"] and b[mid] is None and b[orig] is None and any(
                        b[x] == PCS[turn]["P"] for x in (off(s, -1, 0), off(s, 1, 0)) if x is not None):
                    cands.append(mid)
            if cands:
                p.ep = rng.choice(cands)
        return p.fen(), (name(wp), name(bp))


def fuzz(xpgn, count, depth, seed, extra=9):
    def position(rng):
        fen, pawns = random_position(rng, extra)
        return parse_fen(fen, pawns), fen, pawns

    def refused(i, case, e):
        print("#%d xpgn refused %s [%s]: %s" % (i, case[1], " ".join(case[2]), e))
        return 0

    def mismatch(i, case, mine, theirs):
        pos, fen, pawns = case
        sys.stdout.flush()
        print("#%d MISMATCH fen %s pawns %s depth %d: mine %d xpgn %d" % (
            i, fen, " ".join(pawns), depth, mine, theirs))
        trace(xpgn, pawns, fen, pos, depth)

    tested, bad, n_refused = common.fuzz_loop(
        count, seed, position, lambda case: perft(case[0], depth, stats=True),
        lambda case: xpgn_perft(xpgn, case[2], case[1], depth), refused, mismatch)
    print("fuzz: %d positions compared at depth %d, %d disagreement(s), %d refused by xpgn"
          % (tested, depth, bad, n_refused))
    return 1 if bad else 0


def find_move(pos, text):
    return common.find_move(pos, text, legal_moves, key,
                            lambda p: "%s (%s)" % (p.fen(), p.state()))


def print_stats():
    if STATS:
        print("coverage:")
        for k in sorted(STATS):
            print("  %-58s %d" % (k, STATS[k]))


def main():
    global END_IGNORES_CHECK
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pawns", nargs=2, metavar=("WHITE", "BLACK"))
    common.add_common_args(ap)
    ap.add_argument("--only", default=None, help="with --check: labels containing this")
    ap.add_argument("--trace", action="store_true", help="trace against xpgn from --fen")
    common.add_xpgn_args(ap, "/tmp/xpgn-pr2", 4)
    ap.add_argument("--extra", type=int, default=9,
                    help="with --fuzz: at most this many pieces besides kings and chosen pawns")
    ap.add_argument("--stats", action="store_true", help="print coverage counters")
    ap.add_argument("--end-needs-safety", action="store_true",
                    help="a game-ending king capture is illegal if it leaves the "
                         "(checkable) capturer attacked")
    a = ap.parse_args()
    END_IGNORES_CHECK = not a.end_needs_safety
    rc = 0
    if a.fuzz:
        rc = fuzz(a.xpgn, a.fuzz, a.depth or 3, a.seed, a.extra)
    elif a.check:
        rc = check(a.xpgn, a.max_depth, a.only)
    else:
        if not a.pawns:
            ap.error("--pawns is needed")
        pos = parse_fen(a.fen or START, a.pawns)
        if a.moves:
            for m in a.moves.split():
                pos = find_move(pos, m)
                print(m, pos.fen(), " ", pos.state())
        if a.list:
            for mv, ch in legal_moves(pos):
                print(key(mv), "->", ch.fen(), " ", ch.state())
        if a.trace and a.depth:
            trace(a.xpgn, a.pawns, pos.fen() if a.moves else a.fen, pos, a.depth)
        elif a.depth is not None:
            common.print_count(pos, a.depth, divide,
                               lambda p, d: perft(p, d, stats=a.stats), a.divide)
    if a.stats or a.check or a.fuzz:
        print_stats()
    return rc


if __name__ == "__main__":
    sys.exit(main())
