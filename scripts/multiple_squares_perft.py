#!/usr/bin/env python3
"""Independent perft for Event Chess with event #87 Occupying Multiple Squares running.

A cross-check of xpgn's Occupying Multiple Squares, written from the rules text (the
catalogue's entry for #87 and the rulings OM-1..OM-9 of
`docs/rules/event-87-occupying-multiple-squares.md`), using python-chess 1.11.2 only for
its squares, FEN reading and leaper attack tables, sharing no code with xpgn. A position
is its own small model: a piece per square, plus for each piece on several squares the
set of squares it covers (keyed by the square the FEN puts it on, the lowest).

- half squares (OM-1, OM-3, OM-4): a queen, rook or bishop walks each of its lines from
  each square it covers; between every two neighbouring squares it passes (its start and
  the first square included) lies a point; along a rank or file the point covers those two
  squares, on a diagonal the four around the corner. It may stop there if every covered
  square is empty (its own squares count as empty) and the squares differ from its own.
- moves from any square (OM-5, OM-6): every piece moves and attacks from each square it
  covers as if the others were empty; a move to a whole square puts it on that square,
  its own ones included (onto its lowest square as a move of its own).
- blocking and capture (OM-7, OM-8): a covered square stops every line and step; an
  enemy piece may capture there (landing there and removing the whole piece); pawns step
  and double-step only over empty squares; castling passes no covered square.
- a move is legal iff the mover's king is not attacked afterwards.

Usage (python-chess 1.11.2):

    multiple_squares_perft.py tests/data/perft/multiple-squares.perft   # every count
    multiple_squares_perft.py --fen FEN --depth D [--divide]              # one count

A FEN may end with xpgn's events field, `events(87-:a7.5,ef3.5)`.
"""

import argparse
import re
import sys

import chess

ROOK_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1)]
BISHOP_DIRS = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
DIRS = {chess.BISHOP: BISHOP_DIRS, chess.ROOK: ROOK_DIRS, chess.QUEEN: ROOK_DIRS + BISHOP_DIRS}


def step(sq, df, dr):
    f, r = chess.square_file(sq) + df, chess.square_rank(sq) + dr
    return chess.square(f, r) if 0 <= f < 8 and 0 <= r < 8 else None


class Pos:
    def __init__(self, pieces, bodies, turn, rights, ep):
        self.pieces = pieces  # square -> (color, kind)
        self.bodies = bodies  # anchor square -> frozenset of covered squares
        self.turn = turn
        self.rights = rights  # set of rook squares that keep castling
        self.ep = ep

    def copy(self):
        return Pos(dict(self.pieces), dict(self.bodies), self.turn, set(self.rights), self.ep)

    def covered(self, sq):
        return self.bodies.get(sq, frozenset([sq]))

    def owner_of(self, sq):
        """The square holding the piece that stands on `sq`, or None."""
        if sq in self.pieces:
            return sq
        for anchor, squares in self.bodies.items():
            if sq in squares:
                return anchor
        return None


def parse(fen):
    bodies_text = ""
    m = re.search(r"\s*events\(87[wb-](?::([^)]*))?\)\s*$", fen)
    if m:
        bodies_text = m.group(1) or ""
        fen = fen[: m.start()]
    board = chess.Board(fen)
    pieces = {sq: (p.color, p.piece_type) for sq, p in board.piece_map().items()}
    bodies = {}
    for word in filter(None, bodies_text.split(",")):
        m = re.fullmatch(r"([a-h])([a-h]?)([1-8])\.([05])", word)
        f0 = ord(m.group(1)) - 97
        r0 = int(m.group(3)) - 1
        wide = bool(m.group(2))
        tall = m.group(4) == "5"
        squares = {chess.square(f0 + df, r0 + dr)
                   for df in range(2 if wide else 1) for dr in range(2 if tall else 1)}
        bodies[chess.square(f0, r0)] = frozenset(squares)
    rights = set()
    for sq in chess.scan_forward(board.castling_rights):
        rights.add(sq)
    return Pos(pieces, bodies, board.turn, rights, board.ep_square)


def blockers(pos, own):
    """Every square a piece or a covered square fills, but `own` (OM-8)."""
    out = set(pos.pieces)
    for squares in pos.bodies.values():
        out |= squares
    return out - set(own)


def enemy_at(pos, sq, us):
    owner = pos.owner_of(sq)
    return owner is not None and pos.pieces[owner][0] != us


def slides(pos, start, dirs, full):
    """(quiet squares, blocking squares) of a slider from `start` with `full` in the way."""
    quiet, hit = [], []
    for df, dr in dirs:
        sq = step(start, df, dr)
        while sq is not None:
            if sq in full:
                hit.append(sq)
                break
            quiet.append(sq)
            sq = step(sq, df, dr)
    return quiet, hit


def attacks_from(pos, anchor):
    """The squares the piece on `anchor` attacks, from each square it covers (OM-5)."""
    color, kind = pos.pieces[anchor]
    own = pos.covered(anchor)
    full = blockers(pos, own)
    out = set()
    for c in own:
        if kind == chess.PAWN:
            out |= set(chess.scan_forward(chess.BB_PAWN_ATTACKS[color][c]))
        elif kind == chess.KNIGHT:
            out |= set(chess.scan_forward(chess.BB_KNIGHT_ATTACKS[c]))
        elif kind == chess.KING:
            out |= set(chess.scan_forward(chess.BB_KING_ATTACKS[c]))
        else:
            quiet, hit = slides(pos, c, DIRS[kind], full)
            out |= set(quiet) | set(hit)
    return out - set(own)


def attacked(pos, sq, by):
    return any(color == by and sq in attacks_from(pos, anchor)
               for anchor, (color, _) in list(pos.pieces.items()))


def block_between(a, b):
    fa, ra, fb, rb = chess.square_file(a), chess.square_rank(a), chess.square_file(b), chess.square_rank(b)
    return frozenset(chess.square(f, r) for f in {fa, fb} for r in {ra, rb})


def pseudo_moves(pos):
    """Moves as tuples: (kind, from, to, promotion, body) with kind 'n' ordinary,
    'h' a half-square stop (body its squares), 'g' gathering on the anchor, 'c' castling,
    'e' en passant."""
    us = pos.turn
    out = []
    for anchor, (color, kind) in list(pos.pieces.items()):
        if color != us:
            continue
        own = pos.covered(anchor)
        full = blockers(pos, own)
        targets = set()
        if kind == chess.PAWN:
            fwd = 1 if us == chess.WHITE else -1
            one = step(anchor, 0, fwd)
            if one is not None and one not in full:
                targets.add(one)
                start = 1 if us == chess.WHITE else 6
                two = step(one, 0, fwd)
                if chess.square_rank(anchor) == start and two not in full:
                    targets.add(two)
            for t in chess.scan_forward(chess.BB_PAWN_ATTACKS[us][anchor]):
                if enemy_at(pos, t, us):
                    targets.add(t)
                elif t == pos.ep and t not in full:
                    out.append(("e", anchor, t, None, None))
            for t in targets:
                if chess.square_rank(t) in (0, 7):
                    for promo in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT):
                        out.append(("n", anchor, t, promo, None))
                else:
                    out.append(("n", anchor, t, None, None))
            continue
        for t in attacks_from(pos, anchor):
            if t not in full or enemy_at(pos, t, us):
                targets.add(t)
        # own squares are empty to it; its lowest is the gathering below
        if kind in DIRS:
            for c in own:
                quiet, _ = slides(pos, c, DIRS[kind], full)
                targets |= set(quiet)
        gather = anchor in targets and len(own) > 1
        targets.discard(anchor)
        for t in targets:
            out.append(("n", anchor, t, None, None))
        if gather:
            out.append(("g", anchor, anchor, None, None))
        if kind in DIRS:
            seen = set()
            for c in own:
                for df, dr in DIRS[kind]:
                    last = c
                    nxt = step(last, df, dr)
                    while nxt is not None and nxt not in full:
                        body = block_between(last, nxt)
                        if not (body & full) and body != own and body not in seen:
                            seen.add(body)
                            out.append(("h", anchor, min(body), None, body))
                        last = nxt
                        nxt = step(last, df, dr)
        if kind == chess.KING:
            out.extend(castles(pos, anchor))
    return out


def castles(pos, king):
    us = pos.turn
    rank = 0 if us == chess.WHITE else 7
    if king != chess.square(4, rank):
        return []
    out = []
    for rook_file, king_file, rook_to_file in ((7, 6, 5), (0, 2, 3)):
        rook = chess.square(rook_file, rank)
        if rook not in pos.rights or pos.pieces.get(rook) != (us, chess.ROOK) or rook in pos.bodies:
            continue
        king_to, rook_to = chess.square(king_file, rank), chess.square(rook_to_file, rank)
        path = (set(chess.scan_forward(chess.between(king, king_to))) | {king_to}
                | set(chess.scan_forward(chess.between(rook, rook_to))) | {rook_to})
        path -= {king, rook}
        if path & blockers(pos, ()):
            continue
        crossed = [king] + list(chess.scan_forward(chess.between(king, king_to)))
        if any(attacked(moved_king(pos, king, sq), sq, not us) for sq in crossed):
            continue
        out.append(("c", king, king_to, None, (rook, rook_to)))
    return out


def moved_king(pos, king, sq):
    if sq == king:
        return pos
    there = pos.copy()
    there.pieces[sq] = there.pieces.pop(king)
    return there


def play(pos, mv):
    kind, frm, to, promo, extra = mv
    after = pos.copy()
    after.ep = None
    piece = after.pieces[frm]
    lost = {frm, to}
    if kind == "c":
        rook, rook_to = extra
        after.pieces[to] = after.pieces.pop(frm)
        after.pieces[rook_to] = after.pieces.pop(rook)
        lost |= {rook}
    elif kind == "h" or kind == "g":
        after.bodies.pop(frm, None)
        after.pieces[to] = after.pieces.pop(frm)
        if kind == "h":
            after.bodies[to] = extra
    else:
        after.bodies.pop(frm, None)
        if kind == "e":
            victim = chess.square(chess.square_file(to), chess.square_rank(frm))
            del after.pieces[victim]
        else:
            victim = pos.owner_of(to)
            if victim is not None and victim != frm:
                del after.pieces[victim]
                after.bodies.pop(victim, None)
                lost.add(victim)
        del after.pieces[frm]
        after.pieces[to] = (piece[0], promo or piece[1])
        if piece[1] == chess.PAWN and abs(chess.square_rank(to) - chess.square_rank(frm)) == 2:
            after.ep = (frm + to) // 2
    if piece[1] == chess.KING:
        rank = 0 if piece[0] == chess.WHITE else 7
        lost |= {chess.square(f, rank) for f in range(8)}
    after.rights -= lost
    after.turn = not pos.turn
    return after


def name(mv):
    kind, frm, to, promo, extra = mv
    if kind == "h":
        files = sorted({chess.square_file(s) for s in extra})
        ranks = sorted({chess.square_rank(s) for s in extra})
        point = "".join(chr(97 + f) for f in files) + str(ranks[0] + 1) + (".5" if len(ranks) == 2 else ".0")
        return chess.square_name(frm) + point
    text = chess.square_name(frm) + chess.square_name(to)
    if promo:
        text += chess.piece_symbol(promo)
    return text


def legal_moves(pos):
    us = pos.turn
    out = []
    for mv in pseudo_moves(pos):
        after = play(pos, mv)
        king = next((s for s, p in after.pieces.items() if p == (us, chess.KING)), None)
        if king is None or not attacked(after, king, not us):
            out.append((name(mv), after))
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


def check_file(path):
    bad = 0
    fen = None
    ident = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                ident = value
            elif key == "fen":
                fen = value
            elif key == "perft":
                depth, expected = (int(x) for x in value.split())
                got = perft(parse(fen), depth)
                mark = "ok" if got == expected else "MISMATCH"
                if got != expected:
                    bad += 1
                print(f"{mark} {ident} depth {depth}: {got} (file {expected})")
    return bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--fen")
    parser.add_argument("--depth", type=int, default=1)
    parser.add_argument("--divide", action="store_true")
    args = parser.parse_args()
    if args.file:
        sys.exit(1 if check_file(args.file) else 0)
    pos = parse(args.fen)
    if args.divide:
        total = 0
        for name_, after in sorted(legal_moves(pos), key=lambda m: m[0]):
            n = perft(after, args.depth - 1)
            total += n
            print(f"{name_}: {n}")
        print(f"total {total}")
    else:
        print(perft(pos, args.depth))


if __name__ == "__main__":
    main()
