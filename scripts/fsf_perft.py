#!/usr/bin/env python3
"""Recompute the node counts of a variant .perft file with Fairy-Stockfish (pyffish).

    python3 scripts/fsf_perft.py [--variant V] [--engine E] [--max-nodes N] FILE.perft

V is `sip` (Secret Invisible Pass), `capablanca` or `grand`; by default it follows the file
name (secret-invisible-pass.perft, capablanca.perft, grand.perft). The file format is the
one of tests/data/perft/standard.perft and scripts/perft_check.py: blocks of `id`, `fen`
and `perft D N` lines, `#` comments. Prints one line per position and exits 1 on any
mismatch, 0 when all counts match.

Engines (--engine):
  fsf     (default) Fairy-Stockfish through pyffish 0.0.90. Capablanca and Grand are its
          built-in variants. SIP is the `sip` section of scripts/variants.ini (no castling,
          no passes) and this script adds the pass moves of rulings SIP-3/SIP-5 itself:
          for every piece of the side to move that could move (without capturing) onto an
          empty hole H whose far end F is empty, the same move continuing to F (a pawn
          promoting on H keeps its promotion piece), and for every own piece standing on a
          hole whose far end is empty, the transfer to it. A pass candidate is legal when
          Fairy-Stockfish says the mover's king is not in check in the resulting position.
          "Could move onto H" is pseudo-legal reachability (this script's own generator),
          since a king may pass through a hole that is attacked. Fairy-Stockfish's own
          moves onto a hole stay as ordinary moves (SIP-4: standing on a hole).
  python  An independent move generator in plain Python written for this script (no
          Fairy-Stockfish code): all three variants, SIP passes included, Capablanca
          castling, Grand promotion zone and captured-pieces limit. Slower (a few minutes
          for a count of 5 million), needs no pyffish.
  both    Both, and each count must match both.

--no-passes drops the SIP pass moves (Fairy-Stockfish exactly as variants.ini defines it).

The SIP rules are read as in shared/spec/rulings.md: pass moves never capture, attacks
and checks never go through a pass, a pass move is a distinct move even when the same
piece could reach the far end directly (Qj6-f10 and Qj6-e1-f10 count as two moves), and
castling (SIP-6) is not modelled, so SIP FENs must have castling field `-`.

pyffish is installed on first use into target/fsf-venv (pinned to 0.0.90) and the script
re-runs itself there; if python3 -m venv or pip fails it prints "skipped: ..." and exits 0,
as scripts/differential.sh does. --engine python needs no venv.
"""

import argparse
import os
import re
import subprocess
import sys
import time

PYFFISH_VERSION = "0.0.90"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, "target", "fsf-venv")
VARIANTS_INI = os.path.join(ROOT, "scripts", "variants.ini")

FILE_VARIANTS = {
    "secret-invisible-pass": "sip",
    "sip": "sip",
    "capablanca": "capablanca",
    "grand": "grand",
}


# --------------------------------------------------------------------------------------
# pyffish bootstrap


def pyffish_ok():
    try:
        import pyffish
    except ImportError:
        return False
    return ".".join(str(x) for x in pyffish.version()) == PYFFISH_VERSION


def ensure_pyffish():
    """Returns when pyffish 0.0.90 is importable; re-executes inside the venv otherwise."""
    if pyffish_ok():
        return
    venv_python = os.path.join(VENV, "bin", "python")
    if os.environ.get("FSF_PERFT_IN_VENV"):
        print(f"skipped: pyffish {PYFFISH_VERSION} is not importable in {VENV}")
        sys.exit(0)
    check = f"import pyffish, sys; sys.exit('.'.join(map(str, pyffish.version())) != '{PYFFISH_VERSION}')"
    usable = os.path.exists(venv_python) and not subprocess.run(
        [venv_python, "-c", check], stderr=subprocess.DEVNULL
    ).returncode
    if not usable:
        if subprocess.run([sys.executable, "-m", "venv", VENV], stdout=subprocess.DEVNULL).returncode:
            print("skipped: python3 -m venv failed (is the python3-venv package installed?)")
            sys.exit(0)
        pip = [venv_python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        if subprocess.run(pip + [f"pyffish=={PYFFISH_VERSION}"]).returncode:
            print(f"skipped: pip could not install pyffish=={PYFFISH_VERSION}")
            sys.exit(0)
    env = dict(os.environ, FSF_PERFT_IN_VENV="1")
    os.execve(venv_python, [venv_python, os.path.abspath(__file__)] + sys.argv[1:], env)


# --------------------------------------------------------------------------------------
# Board geometry and rules shared by the pass augmentation and the python engine

EMPTY = "."


class Rules:
    def __init__(self, name):
        self.name = name
        self.width = 10
        self.height = 8 if name == "capablanca" else 10
        w, h = self.width, self.height
        self.size = w * h
        # Rank index (0-based) of a pawn's double-step start, per colour.
        self.double_rank = {True: 1, False: h - 2} if name == "capablanca" else {True: 2, False: h - 3}
        self.last_rank = {True: h - 1, False: 0}
        # Grand: promotion zone of three ranks, optional on the first two, and only to a
        # piece type of which the side has fewer than it started with ("captured").
        self.zone = {True: {h - 3, h - 2, h - 1}, False: {0, 1, 2}} if name == "grand" else None
        self.promo_limit = {"Q": 1, "C": 1, "A": 1, "R": 2, "B": 2, "N": 2}
        self.promo_pieces = "QRBNAC"
        self.castling = name == "capablanca"
        # SIP holes: square -> far end of its pass.
        self.holes = {}
        if name == "sip":
            e1, f1, e10, f10 = self.sq("e1"), self.sq("f1"), self.sq("e10"), self.sq("f10")
            self.holes = {e1: f10, f10: e1, f1: e10, e10: f1}

        def on(f, r):
            return 0 <= f < w and 0 <= r < h

        def leaps(offsets):
            table = []
            for s in range(self.size):
                f, r = s % w, s // w
                table.append([(r + dr) * w + f + df for df, dr in offsets if on(f + df, r + dr)])
            return table

        def rays(dirs):
            table = []
            for s in range(self.size):
                f, r = s % w, s // w
                out = []
                for df, dr in dirs:
                    ray, ff, rr = [], f + df, r + dr
                    while on(ff, rr):
                        ray.append(rr * w + ff)
                        ff, rr = ff + df, rr + dr
                    if ray:
                        out.append(ray)
                table.append(out)
            return table

        self.knight = leaps([(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])
        self.king = leaps([(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)])
        self.fil = leaps([(2, 0), (2, 2), (0, 2), (-2, 2), (-2, 0), (-2, -2), (0, -2), (2, -2)])
        self.orth = rays([(1, 0), (0, 1), (-1, 0), (0, -1)])
        self.diag = rays([(1, 1), (-1, 1), (-1, -1), (1, -1)])
        # Squares from which a pawn of the given colour attacks a square.
        self.pawn_from = {True: leaps([(-1, -1), (1, -1)]), False: leaps([(-1, 1), (1, 1)])}
        self.pawn_att = {True: leaps([(-1, 1), (1, 1)]), False: leaps([(-1, -1), (1, -1)])}

    def sq(self, name):
        return (int(name[1:]) - 1) * self.width + ord(name[0]) - ord("a")

    def name_of(self, s):
        return f"{chr(ord('a') + s % self.width)}{s // self.width + 1}"

    # ---- FEN ----

    def parse(self, fen):
        parts = fen.split()
        if len(parts) != 6:
            raise ValueError(f"FEN needs six fields: {fen}")
        rows = parts[0].split("/")
        if len(rows) != self.height:
            raise ValueError(f"FEN needs {self.height} ranks: {fen}")
        board = [EMPTY] * self.size
        for i, row in enumerate(rows):
            r = self.height - 1 - i
            f = 0
            for m in re.finditer(r"\d+|.", row):
                t = m.group()
                if t.isdigit():
                    f += int(t)
                else:
                    if t.upper() not in "PNBRQKACF" or (t.upper() == "F" and self.name != "sip"):
                        raise ValueError(f"unknown piece {t!r} in {fen}")
                    board[r * self.width + f] = t
                    f += 1
            if f != self.width:
                raise ValueError(f"rank {r + 1} has {f} files: {fen}")
        white = parts[1] == "w"
        castling = "" if parts[2] == "-" else parts[2]
        if castling and not self.castling:
            raise ValueError(f"castling rights are not modelled for {self.name}: {fen}")
        ep = None if parts[3] == "-" else self.sq(parts[3])
        if self.name == "sip":
            for h in self.holes:
                if board[h] in "Pp":
                    raise ValueError(f"a pawn on a hole is not supported: {fen}")
        if board.count("K") != 1 or board.count("k") != 1:
            raise ValueError(f"each side needs exactly one king: {fen}")
        # Fairy-Stockfish accepts a position whose side not to move is in check (and then
        # offers the king capture); such a position is no game position, so refuse it.
        if self.attacked(board, board.index("k" if white else "K"), white):
            raise ValueError(f"the side not to move is in check: {fen}")
        return Position(board, white, castling, ep, int(parts[4]), int(parts[5]))

    def fen(self, pos):
        rows = []
        for r in range(self.height - 1, -1, -1):
            row, run = "", 0
            for f in range(self.width):
                p = pos.board[r * self.width + f]
                if p == EMPTY:
                    run += 1
                else:
                    row += (str(run) if run else "") + p
                    run = 0
            rows.append(row + (str(run) if run else ""))
        ep = "-" if pos.ep is None else self.name_of(pos.ep)
        side = "w" if pos.white else "b"
        return f"{'/'.join(rows)} {side} {pos.castling or '-'} {ep} {pos.halfmove} {pos.fullmove}"

    # ---- attacks (ordinary chess attacks on the board; never through a pass) ----

    def attacked(self, board, s, by_white):
        if by_white:
            pawn, knights, king, fil, orth, diag = "P", "NAC", "K", "F", "RQC", "BQA"
        else:
            pawn, knights, king, fil, orth, diag = "p", "nac", "k", "f", "rqc", "bqa"
        for t in self.knight[s]:
            if board[t] in knights:
                return True
        for t in self.king[s]:
            if board[t] == king:
                return True
        for t in self.fil[s]:
            if board[t] == fil:
                return True
        for t in self.pawn_from[by_white][s]:
            if board[t] == pawn:
                return True
        for ray in self.orth[s]:
            for t in ray:
                p = board[t]
                if p != EMPTY:
                    if p in orth:
                        return True
                    break
        for ray in self.diag[s]:
            for t in ray:
                p = board[t]
                if p != EMPTY:
                    if p in diag:
                        return True
                    break
        return False

    # ---- pseudo-legal moves ----

    def promotions(self, board, white, to):
        """Promotion choices for a pawn arriving on `to`: None means no promotion; an
        empty list means the pawn may not go there."""
        r = to // self.width
        if self.zone is None:
            if r != self.last_rank[white]:
                return [None]
            return [p if white else p.lower() for p in self.promo_pieces]
        if r not in self.zone[white]:
            return [None]
        out = [] if r == self.last_rank[white] else [None]
        for p in self.promo_pieces:
            piece = p if white else p.lower()
            if board.count(piece) < self.promo_limit[p]:
                out.append(piece)
        return out

    def pseudo_moves(self, pos):
        """Yields (from, to, promotion, kind) with kind in
        '' (ordinary), 'x' (capture), 'ep', 'double', 'O-O', 'O-O-O'."""
        board, white, w = pos.board, pos.white, self.width
        own = str.isupper if white else str.islower
        enemy = str.islower if white else str.isupper
        for s in range(self.size):
            p = board[s]
            if p == EMPTY or not own(p):
                continue
            u = p.upper()
            if u == "P":
                step = w if white else -w
                t = s + step
                if 0 <= t < self.size and board[t] == EMPTY:
                    for pr in self.promotions(board, white, t):
                        yield s, t, pr, ""
                    t2 = t + step
                    if s // w == self.double_rank[white] and board[t2] == EMPTY:
                        yield s, t2, None, "double"
                for t in self.pawn_att[white][s]:
                    q = board[t]
                    if q != EMPTY and enemy(q):
                        for pr in self.promotions(board, white, t):
                            yield s, t, pr, "x"
                    elif t == pos.ep and q == EMPTY:
                        yield s, t, None, "ep"
                continue
            if u in "NAC":
                for t in self.knight[s]:
                    q = board[t]
                    if q == EMPTY:
                        yield s, t, None, ""
                    elif enemy(q):
                        yield s, t, None, "x"
            if u in "RQC":
                for ray in self.orth[s]:
                    for t in ray:
                        q = board[t]
                        if q == EMPTY:
                            yield s, t, None, ""
                        else:
                            if enemy(q):
                                yield s, t, None, "x"
                            break
            if u in "BQA":
                for ray in self.diag[s]:
                    for t in ray:
                        q = board[t]
                        if q == EMPTY:
                            yield s, t, None, ""
                        else:
                            if enemy(q):
                                yield s, t, None, "x"
                            break
            if u == "F":
                for t in self.fil[s]:
                    q = board[t]
                    if q == EMPTY:
                        yield s, t, None, ""
                    elif enemy(q):
                        yield s, t, None, "x"
            if u == "K":
                for t in self.king[s]:
                    q = board[t]
                    if q == EMPTY:
                        yield s, t, None, ""
                    elif enemy(q):
                        yield s, t, None, "x"
                if self.castling and pos.castling:
                    yield from self.castling_moves(pos, s)

    def castling_moves(self, pos, s):
        """Capablanca castling: king f1 -> i1 with rook j1 -> h1, king f1 -> c1 with rook
        a1 -> d1 (rank 8 for black); all squares between king, rook and their targets
        empty, the king not in check and not passing through or onto an attacked square."""
        board, white, w = pos.board, pos.white, self.width
        base = 0 if white else (self.height - 1) * w
        king_sq, rook_k, rook_q = base + 5, base + 9, base
        rook = "R" if white else "r"
        if s != king_sq:
            return
        for flag, rook_sq, king_to, rook_to, kind in (
            ("K", rook_k, base + 8, base + 7, "O-O"),
            ("Q", rook_q, base + 2, base + 3, "O-O-O"),
        ):
            if (flag if white else flag.lower()) not in pos.castling or board[rook_sq] != rook:
                continue
            lo = min(king_sq, rook_sq, king_to, rook_to)
            hi = max(king_sq, rook_sq, king_to, rook_to)
            if any(board[t] != EMPTY for t in range(lo, hi + 1) if t not in (king_sq, rook_sq)):
                continue
            step = 1 if king_to > king_sq else -1
            if any(self.attacked(board, t, not white) for t in range(king_sq, king_to + step, step)):
                continue
            yield king_sq, king_to, None, kind

    def pass_moves(self, pos, moves=None):
        """SIP pass moves (unchecked for legality): (from, far end, promotion, 'pass')."""
        if not self.holes:
            return []
        board, white = pos.board, pos.white
        if all(board[h] != EMPTY for h in self.holes):
            return []
        own = str.isupper if white else str.islower
        out = []
        # Transfers of a piece standing on a hole.
        for h, far in self.holes.items():
            if board[h] != EMPTY and own(board[h]) and board[far] == EMPTY:
                out.append((h, far, None, "pass"))
        # Moves onto an empty hole, continuing to the empty far end.
        open_holes = {h: far for h, far in self.holes.items() if board[h] == EMPTY and board[far] == EMPTY}
        if open_holes:
            if moves is None:
                moves = self.pseudo_moves(pos)
            for s, t, pr, kind in moves:
                if t in open_holes and kind == "":
                    out.append((s, open_holes[t], pr, "pass"))
        return out

    # ---- making moves ----

    def make(self, pos, move):
        s, t, pr, kind = move
        board = pos.board[:]
        p = board[s]
        white = pos.white
        w = self.width
        captured = board[t] != EMPTY
        board[s] = EMPTY
        board[t] = pr if pr else p
        ep = None
        if kind == "ep":
            board[t - w if white else t + w] = EMPTY
            captured = True
        elif kind == "double":
            ep = (s + t) // 2
        elif kind in ("O-O", "O-O-O"):
            base = s - 5
            if kind == "O-O":
                board[base + 9], board[base + 7] = EMPTY, p.replace("K", "R").replace("k", "r")
            else:
                board[base], board[base + 3] = EMPTY, p.replace("K", "R").replace("k", "r")
        castling = pos.castling
        if castling:
            for sq_ in (s, t):
                r, f = sq_ // w, sq_ % w
                if r == 0 and f == 5:
                    castling = castling.replace("K", "").replace("Q", "")
                elif r == 0 and f == 9:
                    castling = castling.replace("K", "")
                elif r == 0 and f == 0:
                    castling = castling.replace("Q", "")
                elif r == self.height - 1 and f == 5:
                    castling = castling.replace("k", "").replace("q", "")
                elif r == self.height - 1 and f == 9:
                    castling = castling.replace("k", "")
                elif r == self.height - 1 and f == 0:
                    castling = castling.replace("q", "")
        halfmove = 0 if (p in "Pp" or captured) else pos.halfmove + 1
        fullmove = pos.fullmove + (0 if white else 1)
        return Position(board, not white, castling, ep, halfmove, fullmove)

    def king_square(self, board, white):
        return board.index("K" if white else "k")

    def legal_after(self, pos, new):
        """True when the side that moved (pos.white) is not in check in `new`."""
        return not self.attacked(new.board, self.king_square(new.board, pos.white), not pos.white)

    def legal_moves(self, pos):
        moves = list(self.pseudo_moves(pos))
        moves += self.pass_moves(pos, moves)
        out = []
        for m in moves:
            new = self.make(pos, m)
            if self.legal_after(pos, new):
                out.append((m, new))
        return out

    def perft(self, pos, depth):
        if depth == 1:
            return len(self.legal_moves(pos))
        return sum(self.perft(new, depth - 1) for _, new in self.legal_moves(pos))


class Position:
    __slots__ = ("board", "white", "castling", "ep", "halfmove", "fullmove")

    def __init__(self, board, white, castling, ep, halfmove, fullmove):
        self.board, self.white, self.castling, self.ep = board, white, castling, ep
        self.halfmove, self.fullmove = halfmove, fullmove


# --------------------------------------------------------------------------------------
# Fairy-Stockfish perft, with SIP pass moves added


class FsfPerft:
    """Perft through pyffish. Every pyffish call rebuilds a position from a FEN (about 3 ms
    each), so a node is kept as (FEN, moves played since) and costs one legal_moves call;
    get_fen is only called where a SIP pass might be possible (an empty hole)."""

    MOVE = re.compile(r"([a-j])(\d+)([a-j])(\d+)")

    def __init__(self, rules):
        import pyffish

        self.sf = pyffish
        self.rules = rules
        if rules.name == "sip":
            with open(VARIANTS_INI, encoding="utf-8") as f:
                pyffish.load_variant_config(f.read())
        self.variant = rules.name

    def pass_children(self, fen, legal):
        """FENs after each legal SIP pass move of the side to move. `legal` is Fairy-
        Stockfish's move list there: each of its moves onto an empty hole whose far end is
        empty must be among this script's pass candidates (a cross-check of the candidate
        generator, which also finds moves that are illegal as ordinary moves onto the hole,
        e.g. a king passing through an attacked hole)."""
        rules = self.rules
        pos = rules.parse(fen)
        candidates = rules.pass_moves(pos)
        board = pos.board
        found = {(s, t, pr) for s, t, pr, _ in candidates}
        for move in legal:
            m = self.MOVE.match(move)
            s = rules.sq(m.group(1) + m.group(2))
            t = rules.sq(m.group(3) + m.group(4))
            far = rules.holes.get(t)
            if far is not None and board[t] == EMPTY and board[far] == EMPTY:
                promo = move[m.end():] or None
                if promo:
                    promo = promo.upper() if pos.white else promo.lower()
                if (s, far, promo) not in found:
                    raise RuntimeError(f"pass candidate missing for {move} in {fen}")
        out = []
        for m in candidates:
            new = rules.make(pos, m)
            # Fairy-Stockfish judges legality: with the mover to move again in the new
            # position, is it in check?
            mover = Position(new.board, pos.white, "", None, new.halfmove, new.fullmove)
            if not self.sf.gives_check(self.variant, rules.fen(mover), []):
                out.append(rules.fen(new))
        return out

    def hole_state(self, fen):
        """The occupied holes of a FEN (SIP), or None for variants without holes."""
        if not self.rules.holes:
            return None
        board = self.rules.parse(fen).board
        return frozenset(h for h in self.rules.holes if board[h] != EMPTY)

    def after(self, holes, move):
        """Occupied holes after a Fairy-Stockfish move (from emptied, to filled; en passant
        and promotion never touch another hole, and SIP positions have no castling)."""
        if holes is None:
            return None
        m = self.MOVE.match(move)
        s = self.rules.sq(m.group(1) + m.group(2))
        t = self.rules.sq(m.group(3) + m.group(4))
        return (holes - {s}) | ({t} if t in self.rules.holes else set())

    def perft(self, fen, depth):
        return self._perft(fen, [], self.hole_state(fen), depth)

    def _perft(self, base, moves, holes, depth):
        legal = self.sf.legal_moves(self.variant, base, moves)
        passes = []
        if holes is not None and len(holes) < len(self.rules.holes):
            fen = self.sf.get_fen(self.variant, base, moves) if moves else base
            passes = self.pass_children(fen, legal)
        if depth == 1:
            return len(legal) + len(passes)
        nodes = 0
        for m in legal:
            nodes += self._perft(base, moves + [m], self.after(holes, m), depth - 1)
        for child in passes:
            nodes += self._perft(child, [], self.hole_state(child), depth - 1)
        return nodes


# --------------------------------------------------------------------------------------


def read_positions(path):
    """Yields (id, fen, [(depth, nodes)]) per position of a .perft file (read at once, so
    that editing the file during a long run does not disturb it)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    pos_id, fen, counts = None, None, []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            if pos_id is not None:
                yield pos_id, fen, counts
            pos_id, fen, counts = value, None, []
        elif key == "fen":
            fen = value
        elif key == "perft":
            depth, nodes = value.split()
            counts.append((int(depth), int(nodes)))
        else:
            sys.exit(f"{path}:{number}: unknown line {line!r}")
    if pos_id is not None:
        yield pos_id, fen, counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--variant", choices=["sip", "capablanca", "grand"])
    parser.add_argument("--engine", choices=["fsf", "python", "both"], default="fsf")
    parser.add_argument("--max-nodes", type=int, default=None, help="skip counts above this")
    parser.add_argument(
        "--no-passes",
        action="store_true",
        help="SIP without pass moves (plain Fairy-Stockfish); only positions whose comment "
        "says that no pass arises keep their counts",
    )
    args = parser.parse_args()

    variant = args.variant
    if variant is None:
        stem = os.path.basename(args.file).rsplit(".", 1)[0]
        variant = FILE_VARIANTS.get(stem)
        if variant is None:
            sys.exit(f"cannot tell the variant of {args.file}; pass --variant")
    if args.engine != "python":
        ensure_pyffish()

    rules = Rules(variant)
    if args.no_passes:
        rules.holes = {}
    engines = []
    if args.engine in ("fsf", "both"):
        fsf = FsfPerft(rules)
        engines.append(("fsf", fsf.perft))
    if args.engine in ("python", "both"):
        engines.append(("python", lambda fen, d: rules.perft(rules.parse(fen), d)))

    failures = 0
    for pos_id, fen, counts in read_positions(args.file):
        try:
            rules.parse(fen)
        except ValueError as e:
            print(f"{pos_id}: {e}")
            failures += 1
            continue
        if "fsf" in dict(engines):
            # pyffish reads any FEN; refuse those it reports as not valid.
            if fsf.sf.validate_fen(fen, fsf.variant) != fsf.sf.FEN_OK:
                print(f"{pos_id}: FEN not valid for Fairy-Stockfish: {fen}")
                failures += 1
                continue
        results = []
        for depth, expected in counts:
            if args.max_nodes is not None and expected > args.max_nodes:
                results.append(f"d{depth} skipped")
                continue
            for name, perft in engines:
                start = time.monotonic()
                try:
                    got = perft(fen, depth)
                except RuntimeError as e:
                    results.append(f"d{depth} {name} ERROR {e}")
                    failures += 1
                    continue
                took = time.monotonic() - start
                tag = f"d{depth}" + (f" {name}" if len(engines) > 1 else "")
                if got == expected:
                    results.append(f"{tag} ok ({took:.1f}s)")
                else:
                    results.append(f"{tag} MISMATCH expected {expected} got {got}")
                    failures += 1
        print(f"{pos_id}: {', '.join(results)}", flush=True)
    print(f"{'FAILED' if failures else 'ok'}: {failures} mismatches")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
