"""Shared pieces of the independent Event Chess perft cross-checks.

Used by `passage_perft.py` (#5 Hidden passage), `prince_perft.py` (#68 Prince) and
`knights_perft.py` (#85 Loyal Knights): a small 8x8 mailbox board in pure Python (a1 = 0,
h8 = 63; a square holds None or a FEN piece letter), square names, FEN reading and
writing, orthodox attacks and orthodox move destinations (castling candidates
included), castling-rights bookkeeping, the `xpgn` subprocess helpers, and the pieces of
the `--check` / `--fuzz` / divide drivers that the three scripts share. Like the
scripts, it shares no code with xpgn (nor with python-chess): the point of them is an
independent second reading of the rules. Each script holds its own event rules.

Colours are "w" / "b" (passage, knights) or 0 / 1 (prince); the functions that take a
colour accept both.
"""

import json
import subprocess
import sys
import time

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
FILES = "abcdefgh"
KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK_D = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP_D = ((1, 1), (1, -1), (-1, 1), (-1, -1))
# the piece letters of a colour, in the order N B R Q K P
LETTERS = {"w": "NBRQKP", "b": "nbrqkp", 0: "NBRQKP", 1: "nbrqkp"}


def sq(nm):
    return (int(nm[1]) - 1) * 8 + FILES.index(nm[0])


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
RAYS = {}  # (square, direction) -> the squares from it to the edge, nearest first
for _s in range(64):
    for _d in ROOK_D + BISHOP_D:
        _ray = []
        _t = off(_s, *_d)
        while _t is not None:
            _ray.append(_t)
            _t = off(_t, *_d)
        RAYS[(_s, _d)] = _ray
R_RAYS = [[RAYS[(s, d)] for d in ROOK_D] for s in range(64)]
B_RAYS = [[RAYS[(s, d)] for d in BISHOP_D] for s in range(64)]
# squares from which a pawn (by its letter) attacks s
PAWN_FROM = {
    "P": [[t for t in (off(s, -1, -1), off(s, 1, -1)) if t is not None] for s in range(64)],
    "p": [[t for t in (off(s, -1, 1), off(s, 1, 1)) if t is not None] for s in range(64)],
}


# ---------------------------------------------------------------- FEN

def parse_board(placement):
    """The 64 squares of a FEN's piece placement field."""
    b = [None] * 64
    for i, row in enumerate(placement.split("/")):
        r, f = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                b[r * 8 + f] = ch
                f += 1
    return b


def parse_fen_fields(fen):
    """(board, side to move as written, castling rights ("" for none), en-passant target
    square or None) of a FEN; the move counters are ignored."""
    parts = fen.split()
    castle = "" if len(parts) < 3 or parts[2] == "-" else parts[2]
    ep = sq(parts[3]) if len(parts) > 3 and parts[3] != "-" else None
    return parse_board(parts[0]), parts[1], castle, ep


def board_fen(b):
    """The FEN piece placement field of a board."""
    rows = []
    for r in range(7, -1, -1):
        row, n = "", 0
        for f in range(8):
            p = b[r * 8 + f]
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
    return "/".join(rows)


def fen_text(b, turn, castle, ep):
    """A FEN with zeroed move counters; turn "w"/"b", ep a square or None."""
    return "%s %s %s %s 0 1" % (board_fen(b), turn, castle or "-",
                                name(ep) if ep is not None else "-")


# ---------------------------------------------------------------- attacks

def attacked(b, s, by, pawns=True):
    """Does side `by` ordinarily attack square s? (pawns=False: leaving pawns out)"""
    N, B, R, Q, K, P = LETTERS[by]
    for t in KN_T[s]:
        if b[t] == N:
            return True
    for t in KI_T[s]:
        if b[t] == K:
            return True
    for ray in R_RAYS[s]:
        for t in ray:
            x = b[t]
            if x is not None:
                if x == R or x == Q:
                    return True
                break
    for ray in B_RAYS[s]:
        for t in ray:
            x = b[t]
            if x is not None:
                if x == B or x == Q:
                    return True
                break
    if pawns:
        for t in PAWN_FROM[P][s]:
            if b[t] == P:
                return True
    return False


def king_sq(b, c):
    k = LETTERS[c][4]
    for i in range(64):
        if b[i] == k:
            return i
    return None


# ---------------------------------------------------------------- moves

def own_pieces(b, c):
    """Yields (square, piece) of every piece of colour c, from a1 to h8."""
    up = c == "w" or c == 0
    for s in range(64):
        p = b[s]
        if p is not None and p.isupper() == up:
            yield s, p


def piece_moves(b, s, ep=None, ec4=True):
    """Orthodox destinations of the piece on s (castling aside), in a fixed order:
    yields (to, kind), kind "n" (a step or a capture) or "ep" (a pawn's diagonal step
    onto ep, the en-passant target square, whatever stands there). A pawn steps two
    squares from its own second rank (ec4: also from its first, EC-4) when both squares
    are empty; a pawn on its last rank has no move. Promotions are the caller's."""
    p = b[s]
    up = p.isupper()
    t = p.upper()
    if t == "P":
        r = s // 8 if up else 7 - s // 8
        if r == 7:
            return
        dr = 1 if up else -1
        one = s + 8 * dr
        if b[one] is None:
            yield one, "n"
            if r == 1 or (ec4 and r == 0):
                two = one + 8 * dr
                if b[two] is None:
                    yield two, "n"
        for df in (-1, 1):
            x = off(s, df, dr)
            if x is None:
                continue
            y = b[x]
            if y is not None and y.isupper() != up:
                yield x, "n"
            elif x == ep:
                yield x, "ep"
    elif t == "N" or t == "K":
        for x in (KN_T if t == "N" else KI_T)[s]:
            y = b[x]
            if y is None or y.isupper() != up:
                yield x, "n"
    else:
        rays = R_RAYS[s] if t == "R" else B_RAYS[s] if t == "B" else R_RAYS[s] + B_RAYS[s]
        for ray in rays:
            for x in ray:
                y = b[x]
                if y is None:
                    yield x, "n"
                else:
                    if y.isupper() != up:
                        yield x, "n"
                    break


def castlings(b, castle, c):
    """The castlings of colour c whose right is in `castle`, with king and rook on their
    squares and the squares between them empty (attacks are the caller's): yields (king
    square, king target, rook target, [the king's square, the square it crosses, its
    target]), kingside first."""
    base = 0 if c == "w" or c == 0 else 56
    k = base + 4
    N, B, R, Q, K, P = LETTERS[c]
    if b[k] != K:
        return
    for right, rook, kto, rto, between, cross in (
        (K, base + 7, base + 6, base + 5, (5, 6), (4, 5, 6)),
        (Q, base + 0, base + 2, base + 3, (1, 2, 3), (4, 3, 2)),
    ):
        if right not in castle or b[rook] != R:
            continue
        if any(b[base + i] is not None for i in between):
            continue
        yield k, kto, rto, [base + i for i in cross]


def castle_rook(b, c, kto):
    """Moves the rook of c's castling whose king lands on kto."""
    base = 0 if c == "w" or c == 0 else 56
    if kto == base + 6:
        b[base + 5], b[base + 7] = b[base + 7], None
    else:
        b[base + 3], b[base + 0] = b[base + 0], None


def drop_king_rights(cr, c):
    """Castling rights cr without colour c's."""
    if c == "w" or c == 0:
        return cr.replace("K", "").replace("Q", "")
    return cr.replace("k", "").replace("q", "")


def strip_rights(cr, s):
    """Castling rights cr without the one tied to the rook corner s (if s is one)."""
    if s == 0:
        return cr.replace("Q", "")
    if s == 7:
        return cr.replace("K", "")
    if s == 56:
        return cr.replace("q", "")
    if s == 63:
        return cr.replace("k", "")
    return cr


def perft(pos, depth, legal_moves):
    """Leaf count below pos; legal_moves(pos) -> [(move, child)]."""
    if depth == 0:
        return 1
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(ch, depth - 1, legal_moves) for _, ch in ms)


def find_move(pos, text, legal_moves, key, where):
    """The child after the legal move whose key is text; else exit with a message
    (where(pos): how to show the position)."""
    for mv, ch in legal_moves(pos):
        if key(mv) == text:
            return ch
    raise SystemExit("no legal move %s in %s" % (text, where(pos)))


# ---------------------------------------------------------------- xpgn

def xpgn_args(xpgn, events, fen):
    """xpgn followed by the Event Chess options for `events` (and the FEN, if any)."""
    a = [xpgn, "--variant", "event-chess", "--events", events]
    if fen:
        a += ["--fen", fen]
    return a


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return r.stdout


def xpgn_perft(a, depth):
    """`xpgn perft` with a = xpgn_args(...): the count."""
    out = run([a[0], "perft"] + a[1:] + ["--depth", str(depth)])
    return int(out.strip().splitlines()[-1])


def xpgn_moves(a):
    """`xpgn moves --format json` with a = xpgn_args(...)."""
    return json.loads(run([a[0], "moves"] + a[1:] + ["--format", "json"]))


def xpgn_divide(a, depth, keys_of):
    """`xpgn perft --divide` with a = xpgn_args(...), its SAN mapped to keys through
    keys_of() (called after the divide): [(key, count, san)]; an unknown SAN gets the
    key "?SAN"."""
    out = run([a[0], "perft"] + a[1:] + ["--depth", str(depth), "--divide"])
    keys = keys_of()
    d = []
    for line in out.splitlines():
        if ":" in line:
            san, n = line.rsplit(":", 1)
            san = san.strip()
            d.append((keys.get(san, "?" + san), int(n), san))
    return d


# ---------------------------------------------------------------- drivers

def differing(mdiv, xdiv):
    """The keys, sorted, whose counts in the two divides differ (or are in one only)."""
    return sorted(k for k in set(mdiv) | set(xdiv) if mdiv.get(k) != xdiv.get(k))


def print_differing(mdiv, xdiv):
    for k in differing(mdiv, xdiv):
        print("    %-8s mine %-8s xpgn %s" % (k, mdiv.get(k), xdiv.get(k)))


def selected(suite, only):
    """The suite's entries (label first) whose label contains only (all without it)."""
    return [e for e in suite if not only or only in e[0]]


def suite_header(width, column=None):
    """The header line of a --check table (column: the title of a second column)."""
    cols = ("position",) + ((column,) if column else ()) + ("depth", "mine", "xpgn", "time")
    fmt = "%-" + str(width) + "s " + ("%-6s " if column else "") + "%-5s %12s %12s  %s"
    print(fmt % cols)


def compare_depths(label, width, column, depths, mine, theirs, mismatch, out=print):
    """One row of a --check table per depth: mine(d) against theirs(d) (xpgn); stops at
    the first mismatch, calling mismatch(d), or at an xpgn error (a RuntimeError).
    column: the text of the second column, or None. Returns 1 then, else 0."""
    for d in depths:
        t = time.time()
        m = mine(d)
        el = time.time() - t
        try:
            x = theirs(d)
        except RuntimeError as e:
            out("%-*s xpgn error: %s" % (width, label, e))
            return 1
        flag = "" if m == x else "  MISMATCH"
        out("%-*s %s%-5d %12d %12d  %5.1fs%s" % (
            width, label, "" if column is None else "%-6s " % column, d, m, x, el, flag))
        sys.stdout.flush()
        if m != x:
            mismatch(d)
            return 1
    return 0


def verdict(bad):
    """The last line of --check; the exit status."""
    print("all agree" if not bad else "%d disagreement(s)" % bad)
    return 1 if bad else 0


def fuzz_loop(count, seed, position, mine, theirs, refused, mismatch):
    """The --fuzz loop: for each of count positions drawn by position(rng) (rng seeded
    with seed), compare mine(case) with theirs(case) (xpgn); an xpgn error (a
    RuntimeError e) calls refused(i, case, e), which returns how many disagreements it
    found; a difference calls mismatch(i, case, mine, theirs). Returns (compared,
    disagreements, refused)."""
    import random
    rng = random.Random(seed)
    bad = tested = n_refused = 0
    for i in range(count):
        case = position(rng)
        m = mine(case)
        try:
            x = theirs(case)
        except RuntimeError as e:
            n_refused += 1
            bad += refused(i, case, e)
            continue
        tested += 1
        if m != x:
            bad += 1
            mismatch(i, case, m, x)
            sys.stdout.flush()
    return tested, bad, n_refused


def random_kings(rng):
    """(board, white king square, black king square): an otherwise empty board with the
    kings on random squares not next to each other; or None when they were (try again)."""
    wk, bk = rng.sample(range(64), 2)
    if bk in KI_T[wk]:
        return None
    b = [None] * 64
    b[wk], b[bk] = "K", "k"
    return b, wk, bk


def one_king_each_apart(b):
    """Does b hold exactly one king a side, the two not next to each other?"""
    return b.count("K") == 1 and b.count("k") == 1 and b.index("k") not in KI_T[b.index("K")]


def add_common_args(ap):
    """The options every script has before its own: --fen ... --check."""
    ap.add_argument("--fen", default=None)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--moves", default=None)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true")


def add_xpgn_args(ap, xpgn, max_depth):
    """--xpgn (default xpgn), --max-depth (default max_depth), --fuzz, --seed."""
    ap.add_argument("--xpgn", default=xpgn)
    ap.add_argument("--max-depth", type=int, default=max_depth)
    ap.add_argument("--fuzz", type=int, default=0, help="compare N random positions")
    ap.add_argument("--seed", type=int, default=1)


def print_count(pos, depth, divide, count, show_divide):
    """--depth: with show_divide (--divide) `KEY: COUNT` lines (sorted) and their sum,
    else count(pos, depth)."""
    if show_divide:
        d = divide(pos, depth)
        for k in sorted(d):
            print("%s: %d" % (k, d[k]))
        print(sum(d.values()))
    else:
        print(count(pos, depth))
