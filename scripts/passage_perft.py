#!/usr/bin/env python3
"""Independent perft for Event Chess with event #5 Hidden passage running from the start.

A cross-check of xpgn's passage moves, written from the rules text
(`shared/seeds/000_9a483fb6abfb2939.txt`, rulings HP-1..HP-8 and EC-4 in
`shared/spec/rulings.md`). python-chess cannot hold a pawn on the first or last rank,
which passages create, so this is a small 8x8 mailbox generator in pure Python sharing
no code with xpgn (nor with python-chess). The board, FEN, orthodox attack and move
pieces, the xpgn calls and the --check/--fuzz driver pieces are shared with the other
event perft scripts through `perft_common.py` (next to this file); the rules below are
this file's own:

- orthodox chess moves, plus EC-4: a pawn on its own first or second rank may step two
  squares when both are empty (a double step sets the en-passant square as usual). A
  pawn on its last rank has no moves.
- passages (HP-2, HP-3, HP-4, HP-5): a move whose piece ends its own move on one passage
  square (the entry) goes on to the other (the exit) as the same move. The entry capture
  happens as usual; at the exit: empty, the piece stays; enemy piece, captured; own piece
  (other than the mover, which has left its square), no such move. A pawn promotes iff
  its exit is its last rank (one move per promotion piece). A passage move sets no
  en-passant square and reveals the passage. HP-9: an en-passant capture onto a passage
  square goes on too (the pawn it takes leaves its own square as usual), and so does the
  king or rook of a castling move that ends on one (to the exit, as any passage move).
- attacks: ordinary ones; once revealed (HP-7), a passage square S whose other end is O
  is also attacked by side X when O holds a non-X piece: by every X piece attacking O;
  when O is empty: by every X non-pawn piece attacking O and every X pawn that can step
  (one square, or two from its own first/second rank over an empty square) onto O.
- EC-2: nobody has started an event (they run from the start), so a move that takes a
  player's count of captured non-pawn pieces past two is illegal; a passage move counts
  its captures at both ends (EC-11).
- legality: the mover's king must not be attacked after the move (its real result, with
  the new reveal state). Before the reveal (HP-6) a passage move must also be legal as
  the plain move that stops on the entry square. Castling: not out of or through an
  attacked square, nor into one unless the king goes on through a passage (attacks as of
  the current reveal state; the real result and, before the reveal, the plain castling
  are then judged as any move's).

Positions always start unrevealed (as in xpgn, whose FEN carries no reveal state).

Usage (any Python 3; no packages needed):

    passage_perft.py --squares c4 f6 [--fen FEN] --depth D [--divide]   # one count
    passage_perft.py --squares c4 f6 [--fen FEN] --moves "c2c4 e7e6"    # replay (UCI-ish
                                                 # from+entry[+promo]), print each FEN
    passage_perft.py --squares c4 f6 [--fen FEN] --list                 # legal moves
    passage_perft.py --check [--xpgn PATH] [--max-depth D]              # compare the
                                                 # built-in suite with xpgn's perft
    passage_perft.py --fuzz N [--seed S] [--depth D]   # compare N random positions

`--divide` prints `KEY: COUNT` with KEY = from square, entry square and promotion
letter (`c2c4`, `b7b8`, `g2g1q`, castling as the king's move `e1g1`). `--check` runs the
suite below against `xpgn perft --variant event-chess --events "5 P Q"`; on a mismatch
it compares the divides (matching xpgn's moves by their `uci`/`lan` from `xpgn moves
--format json`) and prints the differing first moves.

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
    KI_T, KN_T, START, castle_rook, castlings, color_of, drop_king_rights, fen_text,
    king_sq, name, off, one_king_each_apart, other, parse_fen_fields, piece_moves,
    own_pieces, print_differing, random_kings, rank_of, sq, strip_rights)
from perft_common import attacked as ordinary_attackers  # noqa: E402


class Pos:
    __slots__ = ("b", "turn", "castle", "ep", "revealed", "pq", "caps")

    def copy(self):
        p = Pos()
        p.b = self.b[:]
        p.turn = self.turn
        p.castle = self.castle
        p.ep = self.ep
        p.revealed = self.revealed
        p.pq = self.pq
        p.caps = self.caps
        return p

    def fen(self):
        return fen_text(self.b, self.turn, self.castle, self.ep[0] if self.ep else None) + (
            "  [revealed]" if self.revealed else "")


def parse_fen(fen, pq):
    p = Pos()
    p.b, p.turn, p.castle, t = parse_fen_fields(fen)
    p.ep = None
    if t is not None:
        landed = t - 8 if p.turn == "w" else t + 8
        p.ep = (t, landed)
    p.revealed = False
    p.pq = pq
    p.caps = {"w": 0, "b": 0}
    for s in pq:
        if p.b[s] is not None:
            raise SystemExit("passage square %s is not empty (HP-1)" % name(s))
    return p


# ---------------------------------------------------------------- attacks

def pawn_can_step_onto(b, o, by):
    """A `by` pawn could step onto the empty square o (one step, or two from its own
    first/second rank with the square between empty)."""
    P = "P" if by == "w" else "p"
    back = -1 if by == "w" else 1
    t = off(o, 0, back)
    if t is None:
        return False
    if b[t] == P:
        return True
    if b[t] is None:
        t2 = off(t, 0, back)
        if t2 is not None and b[t2] == P and rank_of(t2, by) <= 1:
            return True
    return False


def attacked(pos, b, s, by, revealed):
    if ordinary_attackers(b, s, by):
        return True
    if revealed and s in pos.pq:
        o = pos.pq[1] if s == pos.pq[0] else pos.pq[0]
        x = b[o]
        if x is not None:
            if color_of(x) == by:
                return False
            return ordinary_attackers(b, o, by)
        return ordinary_attackers(b, o, by, pawns=False) or pawn_can_step_onto(b, o, by)
    return False


def in_check(pos, b, c, revealed):
    k = king_sq(b, c)
    if k is None:
        return False
    return attacked(pos, b, k, other(c), revealed)


# ---------------------------------------------------------------- moves
# A move: (frm, entry, promo, kind) with kind in "n" (normal), "ep", "castle".

def pseudo(pos):
    """Orthodox destinations (before passages): yields (frm, to, kind)."""
    b, c = pos.b, pos.turn
    ep = pos.ep[0] if pos.ep else None
    for s, p in own_pieces(b, c):
        for to, kind in piece_moves(b, s, ep):
            yield (s, to, kind)
    for k, kto, rto, cross in castlings(b, pos.castle, c):
        if kto in pos.pq:
            cross = [x for x in cross if x != kto]
        if any(attacked(pos, b, x, other(c), pos.revealed) for x in cross):
            continue
        yield (k, kto, "castle")


def apply(pos, mv, through=True):
    """The position after mv. through=False: the plain move stopping on the entry
    (HP-6 check); returns None when the passage exit holds a piece of the mover."""
    frm, to, promo, kind = mv
    n = pos.copy()
    b = n.b
    c = pos.turn
    piece = b[frm]
    b[frm] = None
    n.ep = None
    final = to
    passage = through and to in pos.pq
    taken = []
    final_rook = None
    if kind == "ep":
        taken.append(b[pos.ep[1]])
        b[pos.ep[1]] = None
    if kind == "castle":
        castle_rook(b, c, to)
        rto = to - 1 if to % 8 == 6 else to + 1
        if through and rto in pos.pq:
            rexit = pos.pq[1] if rto == pos.pq[0] else pos.pq[0]
            x = b[rexit]
            if x is not None and color_of(x) == c:
                return None
            taken.append(x)
            b[rexit], b[rto] = b[rto], None
            n.revealed = True
            final_rook = rexit
    taken.append(b[to])  # entry capture (or nothing)
    b[to] = None
    if passage:
        final = pos.pq[1] if to == pos.pq[0] else pos.pq[0]
        x = b[final]
        if x is not None and color_of(x) == c:
            return None
        taken.append(x)
        n.revealed = True
    pieces = sum(1 for x in taken if x is not None and x.upper() != "P")
    if pieces:
        n.caps = dict(pos.caps)
        n.caps[c] += pieces
    b[final] = piece
    if piece.upper() == "P":
        if promo:
            b[final] = promo.upper() if c == "w" else promo.lower()
        if not passage and abs(to - frm) == 16:
            n.ep = ((frm + to) // 2, to)
    # castling rights
    cr = n.castle
    if piece == "K" or piece == "k":
        cr = drop_king_rights(cr, color_of(piece))
    for s in (frm, to, final, final_rook):
        cr = strip_rights(cr, s)
    n.castle = cr
    n.turn = other(c)
    return n


def legal_moves(pos):
    """[(move, child position)] of every legal move."""
    out = []
    c = pos.turn
    b = pos.b
    for frm, to, kind in pseudo(pos):
        is_pawn = b[frm].upper() == "P"
        passage = to in pos.pq
        if passage:
            final = pos.pq[1] if to == pos.pq[0] else pos.pq[0]
        else:
            final = to
        if is_pawn and rank_of(final, c) == 7:
            promos = "qrbn"
        else:
            promos = (None,)
        for pr in promos:
            mv = (frm, to, pr, kind)
            child = apply(pos, mv)
            if child is None:
                continue
            if child.caps[c] > 2 and child.caps[c] > pos.caps[c]:
                continue
            if in_check(pos, child.b, c, child.revealed):
                continue
            if (passage or kind == "castle") and not pos.revealed:
                plain = apply(pos, mv, through=False)
                if in_check(pos, plain.b, c, False):
                    continue
            out.append((mv, child))
    return out


def key(mv):
    frm, to, pr, _ = mv
    return name(frm) + name(to) + (pr or "")


def perft(pos, depth):
    return common.perft(pos, depth, legal_moves)


def divide(pos, depth):
    return {key(mv): perft(ch, depth - 1) for mv, ch in legal_moves(pos)}


# ---------------------------------------------------------------- xpgn

def xpgn_args(xpgn, squares, fen):
    return common.xpgn_args(xpgn, "5 %s %s" % squares, fen)


def xpgn_perft(xpgn, squares, fen, depth):
    return common.xpgn_perft(xpgn_args(xpgn, squares, fen), depth)


def xpgn_keys(xpgn, squares, fen):
    """san -> key, from `xpgn moves --format json`."""
    m = {}
    for mv in common.xpgn_moves(xpgn_args(xpgn, squares, fen)):
        if mv.get("uci"):
            k = mv["uci"]
        else:
            sqs = re.findall(r"[a-h][1-8]", mv["lan"])
            pr = re.search(r"=([QRBN])", mv["lan"])
            k = sqs[0] + sqs[1] + (pr.group(1).lower() if pr else "")
        m[mv["san"]] = k
    return m


def xpgn_divide(xpgn, squares, fen, depth):
    rows = common.xpgn_divide(xpgn_args(xpgn, squares, fen), depth,
                              lambda: xpgn_keys(xpgn, squares, fen))
    return {k: n for k, n, _ in rows}


# Positions: (label, squares, FEN or None, max depth)
SUITE = [
    ("start c4/f6", ("c4", "f6"), None, 4),
    ("start e3/e6", ("e3", "e6"), None, 4),
    ("start d4/d5", ("d4", "d5"), None, 4),
    ("start a3/h6", ("a3", "h6"), None, 3),
    # promotions through a passage: b8=.. exits at c3 unpromoted; g2-g1 exits at h6
    ("promo b7/g2", ("c3", "b8"), "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", 4),
    ("promo g2 black", ("g1", "h6"), "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1", 4),
    # a pawn that exits on its last rank must promote (c4-g8=Q)
    ("exit promo", ("c4", "g8"), "4k3/8/8/8/8/8/2P5/4K3 w - - 0 1", 4),
    ("exit promo black", ("a1", "f5"), "4k3/5p2/8/8/8/8/8/3K4 b - - 0 1", 4),
    # example 4 shape: kings near the passage squares
    # seed example 4: mate unless revealed (Ba4-b5-h3 blocks); black can reveal first
    ("ex4 h3/b5", ("h3", "b5"), "8/7r/8/8/B7/8/4n1P1/1k5K w - - 0 1", 3),
    ("ex4 reveal first", ("h3", "b5"), "kr6/8/8/8/B7/8/4n1P1/7K b - - 0 1", 4),
    # seed example 5 shape: h3-c5 would put white into check
    ("ex5 h3/c5", ("h3", "c5"), "4k3/8/8/b7/8/8/3K3P/8 w - - 0 1", 4),
    ("king near", ("e4", "d5"), "8/8/3k4/8/8/4K3/8/8 w - - 0 1", 4),
    ("kings queens", ("d3", "e6"), "4k3/8/8/2q5/8/8/5Q2/4K3 w - - 0 1", 3),
    # castling near passage squares
    ("castle f1/b8", ("f1", "b8"), "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K1NR w KQkq - 0 1", 3),
    ("castle c1/g8", ("c1", "g8"), "r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1", 3),
    ("castle d3/h6", ("d3", "h6"), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    # HP-9: castling king or rook onto a passage square goes on through it
    ("castle through g1/d6", ("g1", "d6"), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4),
    ("castle through f1/c8", ("f1", "c8"), "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", 4),
    ("castle through d1/g8", ("d1", "g8"), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 4),
    ("castle through c1/f8", ("c1", "f8"), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    # en passant near passage squares
    ("ep d6", ("c3", "d6"), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", 4),
    ("ep dbl", ("e3", "c6"), "4k3/2p5/8/3P4/8/8/4P3/4K3 b - - 0 1", 4),
    ("ep landing f3", ("f3", "h5"), "4k3/8/8/8/6p1/8/5P2/4K3 w - - 0 1", 4),
    # pawns on first/last ranks, double steps from rank 1
    ("rank1 pawns", ("b4", "g5"), "4k2p/8/8/8/8/8/8/P3K3 w - - 0 1", 4),
    # reveal gives check
    ("reveal check", ("b2", "e7"), "3k4/8/8/8/8/8/8/1R2K2r w - - 0 1", 3),
    ("kiwipete e3/d6", ("e3", "d6"),
     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
]


def check(xpgn, max_depth, only=None):
    bad = 0
    common.suite_header(18, "sq")
    for label, squares, fen, maxd in common.selected(SUITE, only):
        pq = (sq(squares[0]), sq(squares[1]))
        try:
            pos = parse_fen(fen or START, pq)
        except SystemExit as e:
            print("%-18s skipped: %s" % (label, e))
            continue
        bad += common.compare_depths(
            label, 18, "/".join(squares), range(1, min(maxd, max_depth) + 1),
            lambda d: perft(pos, d), lambda d: xpgn_perft(xpgn, squares, fen, d),
            lambda d: print_differing(divide(pos, d), xpgn_divide(xpgn, squares, fen, d)))
    return common.verdict(bad)


def random_position(rng):
    """A random FEN (side not to move not in check) and passage squares for it."""
    while True:
        kings = random_kings(rng)
        if kings is None:
            continue
        b, wk, bk = kings
        n = rng.randint(2, 12)
        for _ in range(n):
            s = rng.randrange(64)
            if b[s] is None:
                b[s] = rng.choice("PPPPNBRQppppnbrq")
        castle = ""
        if rng.random() < 0.3:
            if rng.random() < 0.5 and b[4] is None and wk != 4:
                b[wk], b[4] = None, "K"
            if rng.random() < 0.5 and b[60] is None and bk != 60:
                b[bk], b[60] = None, "k"
            for c, k, r, ch in (("K", 4, 7, "K"), ("K", 4, 0, "Q"), ("k", 60, 63, "k"), ("k", 60, 56, "q")):
                if b[k] == c and b[r] not in ("K", "k") and rng.random() < 0.8:
                    b[r] = "R" if c == "K" else "r"
                    castle += ch
            castle = "".join(x for x in "KQkq" if x in castle)
        if not one_king_each_apart(b):
            continue
        turn = rng.choice("wb")
        p = Pos()
        p.b, p.turn, p.castle, p.ep, p.revealed, p.pq = b, turn, castle, None, False, (0, 63)
        if in_check(p, b, other(turn), False):
            continue
        wq = [s for s in range(32) if b[s] is None]
        bq = [s for s in range(32, 64) if b[s] is None]
        # favour squares next to pieces, so that passages get used
        def near(cands):
            busy = [s for s in cands if any(b[t] is not None for t in KI_T[s] + KN_T[s])]
            return rng.choice(busy if busy and rng.random() < 0.8 else cands)
        pq = (near(wq), near(bq))
        p.pq = pq
        return p.fen(), (name(pq[0]), name(pq[1]))


def fuzz(xpgn, count, depth, seed):
    def position(rng):
        fen, squares = random_position(rng)
        return parse_fen(fen, (sq(squares[0]), sq(squares[1]))), fen, squares

    def refused(i, case, e):
        print("#%d xpgn refused %s [%s]: %s" % (i, case[1], " ".join(case[2]), e))
        return 0

    def mismatch(i, case, mine, theirs):
        pos, fen, squares = case
        print("#%d MISMATCH fen %s squares %s depth %d: mine %d xpgn %d" % (
            i, fen, " ".join(squares), depth, mine, theirs))
        print_differing(divide(pos, depth), xpgn_divide(xpgn, squares, fen, depth))

    tested, bad, _ = common.fuzz_loop(
        count, seed, position, lambda case: perft(case[0], depth),
        lambda case: xpgn_perft(xpgn, case[2], case[1], depth), refused, mismatch)
    print("fuzz: %d positions compared at depth %d, %d disagreement(s)" % (tested, depth, bad))
    return 1 if bad else 0


def find_move(pos, text):
    return common.find_move(pos, text, legal_moves, key, Pos.fen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--squares", nargs=2, metavar=("WHITE", "BLACK"))
    common.add_common_args(ap)
    ap.add_argument("--only", default=None, help="with --check: labels containing this")
    common.add_xpgn_args(ap, "/tmp/xpgn-hp", 4)
    a = ap.parse_args()
    if a.fuzz:
        return fuzz(a.xpgn, a.fuzz, a.depth or 3, a.seed)
    if a.check:
        return check(a.xpgn, a.max_depth, a.only)
    if not a.squares:
        ap.error("--squares is needed")
    pos = parse_fen(a.fen or START, (sq(a.squares[0]), sq(a.squares[1])))
    if a.moves:
        for m in a.moves.split():
            pos = find_move(pos, m)
            print(m, pos.fen())
    if a.list:
        for mv, ch in legal_moves(pos):
            print(key(mv), "->", ch.fen())
    if a.depth is not None:
        common.print_count(pos, a.depth, divide, perft, a.divide)
    return 0


if __name__ == "__main__":
    sys.exit(main())
