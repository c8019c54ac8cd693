#!/usr/bin/env python3
"""Independent perft for Event Chess with event #5 Hidden passage running from the start.

A cross-check of xpgn's passage moves, written from the rules text
(`shared/seeds/000_9a483fb6abfb2939.txt`, rulings HP-1..HP-8 and EC-4 in
`shared/spec/rulings.md`). python-chess cannot hold a pawn on the first or last rank,
which passages create, so this is a small self-contained 8x8 mailbox generator in pure
Python sharing no code with xpgn (nor with python-chess):

- orthodox chess moves, plus EC-4: a pawn on its own first or second rank may step two
  squares when both are empty (a double step sets the en-passant square as usual). A
  pawn on its last rank has no moves.
- passages (HP-2, HP-3, HP-4, HP-5): a move whose piece ends its own move on one passage
  square (the entry) goes on to the other (the exit) as the same move. The entry capture
  happens as usual; at the exit: empty, the piece stays; enemy piece, captured; own piece
  (other than the mover, which has left its square), no such move. A pawn promotes iff
  its exit is its last rank (one move per promotion piece). A passage move sets no
  en-passant square and reveals the passage. Castling whose king or rook would end on a
  passage square, and en passant whose capturing pawn would land on one, do not exist.
- attacks: ordinary ones; once revealed (HP-7), a passage square S whose other end is O
  is also attacked by side X when O holds a non-X piece: by every X piece attacking O;
  when O is empty: by every X non-pawn piece attacking O and every X pawn that can step
  (one square, or two from its own first/second rank over an empty square) onto O.
- legality: the mover's king must not be attacked after the move (its real result, with
  the new reveal state). Before the reveal (HP-6) a passage move must also be legal as
  the plain move that stops on the entry square. Castling: not out of, through or into
  an attacked square (attacks as of the current reveal state).

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
import json
import re
import subprocess
import sys
import time

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_D = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_D = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def sq(name):
    return (int(name[1]) - 1) * 8 + FILES.index(name[0])


def name(s):
    return FILES[s % 8] + str(s // 8 + 1)


def color_of(p):
    return "w" if p.isupper() else "b"


def other(c):
    return "b" if c == "w" else "w"


def rank_of(s, c):
    """The 0-based rank of s counted from c's own side (0 = own first rank)."""
    r = s // 8
    return r if c == "w" else 7 - r


def off(s, df, dr):
    f, r = s % 8 + df, s // 8 + dr
    if 0 <= f < 8 and 0 <= r < 8:
        return r * 8 + f
    return None


# Precomputed neighbour tables.
KN_T = [[t for t in (off(s, *d) for d in KNIGHT) if t is not None] for s in range(64)]
KI_T = [[t for t in (off(s, *d) for d in KING) if t is not None] for s in range(64)]
RAYS = {}
for _s in range(64):
    for _d in ROOK_D + BISHOP_D:
        ray = []
        t = off(_s, *_d)
        while t is not None:
            ray.append(t)
            t = off(t, *_d)
        RAYS[(_s, _d)] = ray


class Pos:
    __slots__ = ("b", "turn", "castle", "ep", "revealed", "pq")

    def copy(self):
        p = Pos()
        p.b = self.b[:]
        p.turn = self.turn
        p.castle = self.castle
        p.ep = self.ep
        p.revealed = self.revealed
        p.pq = self.pq
        return p

    def fen(self):
        rows = []
        for r in range(7, -1, -1):
            row, n = "", 0
            for f in range(8):
                p = self.b[r * 8 + f]
                if p is None:
                    n += 1
                else:
                    if n:
                        row += str(n)
                        n = 0
                    row += p
            if n:
                row += str(n)
            rows.append(row)
        ep = name(self.ep[0]) if self.ep else "-"
        return "%s %s %s %s 0 1%s" % (
            "/".join(rows), self.turn, self.castle or "-", ep,
            "  [revealed]" if self.revealed else "")


def parse_fen(fen, pq):
    parts = fen.split()
    p = Pos()
    p.b = [None] * 64
    for i, row in enumerate(parts[0].split("/")):
        r, f = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                p.b[r * 8 + f] = ch
                f += 1
    p.turn = parts[1]
    p.castle = "" if parts[2] == "-" else parts[2]
    p.ep = None
    if len(parts) > 3 and parts[3] != "-":
        t = sq(parts[3])
        landed = t - 8 if p.turn == "w" else t + 8
        p.ep = (t, landed)
    p.revealed = False
    p.pq = pq
    for s in pq:
        if p.b[s] is not None:
            raise SystemExit("passage square %s is not empty (HP-1)" % name(s))
    return p


# ---------------------------------------------------------------- attacks

def ordinary_attackers(b, s, by, pawns=True):
    """Does side `by` ordinarily attack square s? (bool)"""
    up = by == "w"
    N, B, R, Q, K, P = ("N", "B", "R", "Q", "K", "P") if up else ("n", "b", "r", "q", "k", "p")
    for t in KN_T[s]:
        if b[t] == N:
            return True
    for t in KI_T[s]:
        if b[t] == K:
            return True
    for d in ROOK_D:
        for t in RAYS[(s, d)]:
            x = b[t]
            if x is not None:
                if x == R or x == Q:
                    return True
                break
    for d in BISHOP_D:
        for t in RAYS[(s, d)]:
            x = b[t]
            if x is not None:
                if x == B or x == Q:
                    return True
                break
    if pawns:
        # a white pawn attacking s stands one rank below it
        dr = -1 if up else 1
        for df in (-1, 1):
            t = off(s, df, dr)
            if t is not None and b[t] == P:
                return True
    return False


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


def king_sq(b, c):
    k = "K" if c == "w" else "k"
    for i in range(64):
        if b[i] == k:
            return i
    return None


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
    up = c == "w"
    for s in range(64):
        p = b[s]
        if p is None or color_of(p) != c:
            continue
        t = p.upper()
        if t == "P":
            if rank_of(s, c) == 7:
                continue
            dr = 1 if up else -1
            one = off(s, 0, dr)
            if b[one] is None:
                yield (s, one, "n")
                if rank_of(s, c) <= 1:
                    two = off(one, 0, dr)
                    if b[two] is None:
                        yield (s, two, "n")
            for df in (-1, 1):
                x = off(s, df, dr)
                if x is None:
                    continue
                if b[x] is not None and color_of(b[x]) != c:
                    yield (s, x, "n")
                elif pos.ep and pos.ep[0] == x:
                    yield (s, x, "ep")
        elif t == "N" or t == "K":
            for x in (KN_T if t == "N" else KI_T)[s]:
                if b[x] is None or color_of(b[x]) != c:
                    yield (s, x, "n")
        else:
            dirs = ROOK_D if t == "R" else BISHOP_D if t == "B" else ROOK_D + BISHOP_D
            for d in dirs:
                for x in RAYS[(s, d)]:
                    if b[x] is None:
                        yield (s, x, "n")
                    else:
                        if color_of(b[x]) != c:
                            yield (s, x, "n")
                        break
    # castling
    base = 0 if up else 56
    k = base + 4
    if b[k] == ("K" if up else "k"):
        R = "R" if up else "r"
        for right, rook, kto, rto, between, cross in (
            ("K" if up else "k", base + 7, base + 6, base + 5, (5, 6), (4, 5, 6)),
            ("Q" if up else "q", base + 0, base + 2, base + 3, (1, 2, 3), (4, 3, 2)),
        ):
            if right not in pos.castle or b[rook] != R:
                continue
            if any(b[base + i] is not None for i in between):
                continue
            if kto in pos.pq or rto in pos.pq:
                continue
            if any(attacked(pos, b, base + i, other(c), pos.revealed) for i in cross):
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
    passage = through and to in pos.pq and kind != "castle"
    if kind == "ep":
        b[pos.ep[1]] = None
    if kind == "castle":
        base = 0 if c == "w" else 56
        if to == base + 6:
            b[base + 5], b[base + 7] = b[base + 7], None
        else:
            b[base + 3], b[base + 0] = b[base + 0], None
    b[to] = None  # entry capture (or nothing)
    if passage:
        final = pos.pq[1] if to == pos.pq[0] else pos.pq[0]
        x = b[final]
        if x is not None and color_of(x) == c:
            return None
        n.revealed = True
    b[final] = piece
    if piece.upper() == "P":
        if promo:
            b[final] = promo.upper() if c == "w" else promo.lower()
        if not passage and abs(to - frm) == 16:
            n.ep = ((frm + to) // 2, to)
    # castling rights
    cr = n.castle
    if piece == "K":
        cr = cr.replace("K", "").replace("Q", "")
    if piece == "k":
        cr = cr.replace("k", "").replace("q", "")
    for s in (frm, to, final):
        if s == 0:
            cr = cr.replace("Q", "")
        elif s == 7:
            cr = cr.replace("K", "")
        elif s == 56:
            cr = cr.replace("q", "")
        elif s == 63:
            cr = cr.replace("k", "")
    n.castle = cr
    n.turn = other(c)
    return n


def legal_moves(pos):
    """[(move, child position)] of every legal move."""
    out = []
    c = pos.turn
    b = pos.b
    for frm, to, kind in pseudo(pos):
        if kind == "ep" and to in pos.pq:
            continue
        is_pawn = b[frm].upper() == "P"
        passage = to in pos.pq and kind != "castle"
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
            if in_check(pos, child.b, c, child.revealed):
                continue
            if passage and not pos.revealed:
                plain = apply(pos, mv, through=False)
                if in_check(pos, plain.b, c, False):
                    continue
            out.append((mv, child))
    return out


def key(mv):
    frm, to, pr, _ = mv
    return name(frm) + name(to) + (pr or "")


def perft(pos, depth):
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1) for _, ch in ms)


def divide(pos, depth):
    return {key(mv): perft(ch, depth - 1) for mv, ch in legal_moves(pos)}


# ---------------------------------------------------------------- xpgn

def xpgn_args(xpgn, squares, fen):
    a = [xpgn, "--variant", "event-chess", "--events", "5 %s %s" % squares]
    if fen:
        a += ["--fen", fen]
    return a


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r.stdout


def xpgn_perft(xpgn, squares, fen, depth):
    a = xpgn_args(xpgn, squares, fen)
    out = run([a[0], "perft"] + a[1:] + ["--depth", str(depth)])
    return int(out.strip().splitlines()[-1])


def xpgn_keys(xpgn, squares, fen):
    """san -> key, from `xpgn moves --format json`."""
    a = xpgn_args(xpgn, squares, fen)
    moves = json.loads(run([a[0], "moves"] + a[1:] + ["--format", "json"]))
    m = {}
    for mv in moves:
        if mv.get("uci"):
            k = mv["uci"]
        else:
            sqs = re.findall(r"[a-h][1-8]", mv["lan"])
            pr = re.search(r"=([QRBN])", mv["lan"])
            k = sqs[0] + sqs[1] + (pr.group(1).lower() if pr else "")
        m[mv["san"]] = k
    return m


def xpgn_divide(xpgn, squares, fen, depth):
    a = xpgn_args(xpgn, squares, fen)
    out = run([a[0], "perft"] + a[1:] + ["--depth", str(depth), "--divide"])
    keys = xpgn_keys(xpgn, squares, fen)
    d = {}
    for line in out.splitlines():
        if ":" in line:
            san, n = line.rsplit(":", 1)
            d[keys.get(san.strip(), "?" + san.strip())] = int(n)
    return d


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
    print("%-18s %-6s %-5s %12s %12s  %s" % ("position", "sq", "depth", "mine", "xpgn", "time"))
    for label, squares, fen, maxd in SUITE:
        if only and only not in label:
            continue
        pq = (sq(squares[0]), sq(squares[1]))
        try:
            pos = parse_fen(fen or START, pq)
        except SystemExit as e:
            print("%-18s skipped: %s" % (label, e))
            continue
        for d in range(1, min(maxd, max_depth) + 1):
            t = time.time()
            mine = perft(pos, d)
            el = time.time() - t
            try:
                theirs = xpgn_perft(xpgn, squares, fen, d)
            except RuntimeError as e:
                print("%-18s xpgn error: %s" % (label, e))
                bad += 1
                break
            flag = "" if mine == theirs else "  MISMATCH"
            print("%-18s %-6s %-5d %12d %12d  %5.1fs%s" % (
                label, "/".join(squares), d, mine, theirs, el, flag))
            sys.stdout.flush()
            if mine != theirs:
                bad += 1
                mdiv = divide(pos, d)
                xdiv = xpgn_divide(xpgn, squares, fen, d)
                for k in sorted(set(mdiv) | set(xdiv)):
                    if mdiv.get(k) != xdiv.get(k):
                        print("    %-8s mine %-8s xpgn %s" % (k, mdiv.get(k), xdiv.get(k)))
                break
    print("all agree" if not bad else "%d disagreement(s)" % bad)
    return 1 if bad else 0


def random_position(rng):
    """A random FEN (side not to move not in check) and passage squares for it."""
    while True:
        b = [None] * 64
        wk, bk = rng.sample(range(64), 2)
        if bk in KI_T[wk]:
            continue
        b[wk], b[bk] = "K", "k"
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
        if b.count("K") != 1 or b.count("k") != 1 or b.index("k") in KI_T[b.index("K")]:
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
    import random
    rng = random.Random(seed)
    bad = tested = 0
    for i in range(count):
        fen, squares = random_position(rng)
        pos = parse_fen(fen, (sq(squares[0]), sq(squares[1])))
        mine = perft(pos, depth)
        try:
            theirs = xpgn_perft(xpgn, squares, fen, depth)
        except RuntimeError as e:
            print("#%d xpgn refused %s [%s]: %s" % (i, fen, " ".join(squares), e))
            continue
        tested += 1
        if mine != theirs:
            bad += 1
            print("#%d MISMATCH fen %s squares %s depth %d: mine %d xpgn %d" % (
                i, fen, " ".join(squares), depth, mine, theirs))
            mdiv = divide(pos, depth)
            xdiv = xpgn_divide(xpgn, squares, fen, depth)
            for k in sorted(set(mdiv) | set(xdiv)):
                if mdiv.get(k) != xdiv.get(k):
                    print("    %-8s mine %-8s xpgn %s" % (k, mdiv.get(k), xdiv.get(k)))
            sys.stdout.flush()
    print("fuzz: %d positions compared at depth %d, %d disagreement(s)" % (tested, depth, bad))
    return 1 if bad else 0


def find_move(pos, text):
    for mv, ch in legal_moves(pos):
        if key(mv) == text:
            return ch
    raise SystemExit("no legal move %s in %s" % (text, pos.fen()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--squares", nargs=2, metavar=("WHITE", "BLACK"))
    ap.add_argument("--fen", default=None)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--moves", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--only", default=None, help="with --check: labels containing this")
    ap.add_argument("--xpgn", default="/tmp/xpgn-hp")
    ap.add_argument("--max-depth", type=int, default=4)
    ap.add_argument("--fuzz", type=int, default=0, help="compare N random positions")
    ap.add_argument("--seed", type=int, default=1)
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
