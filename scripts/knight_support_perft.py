#!/usr/bin/env python3
"""Independent perft for Event Chess with event #121 Knight support running from the start.

A cross-check of xpgn's #121 moves, written from the rules text (the catalogue's entry for
#121 and the rulings KS-1..KS-8 of `docs/rules/event-121-knight-support.md`) on top of
python-chess's orthodox moves, sharing no code with xpgn:

- facings (KS-1, KS-2): every knight faces one of the eight directions, given by the
  perft file's `events` line (`121 Nb1->c1 ...`); a knight may turn in place to any other
  facing whose step stays on the board's files (one move each), and every knight move is
  counted once keeping its facing and once per other such facing it may end with.
- support (KS-3): the first piece on a knight's facing, if it is of the knight's side and
  no pawn, may also leap as a knight, to an empty square or onto an enemy piece; a leap
  its own moves already make is the same move.
- attacks (KS-4): those leaps attack; a move is legal iff the mover's king is not
  attacked afterwards, and castling also needs the king's squares free of such attacks.
- promotions (KS-5): a promotion to a knight is counted once per facing.
- orthodox moves: python-chess 1.11.2's pseudo-legal moves, less its double step of a
  pawn on its first rank, which orthodox rules do not have.

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    knight_support_perft.py tests/data/perft/knight-support.perft   # recompute every count
    knight_support_perft.py --fen FEN --facings "Nb1->c1 ..." --depth D [--divide]
"""

import argparse
import sys

import chess

DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
LEAPS = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))


def step(s, df, dr):
    f, r = chess.square_file(s) + df, chess.square_rank(s) + dr
    return chess.square(f, r) if 0 <= f < 8 and 0 <= r < 8 else None


def nameable(s):
    """KS-2: facings whose step stays on the board's files."""
    return [d for d in DIRS if 0 <= chess.square_file(s) + d[0] < 8]


def supported(board, facing, color):
    """KS-3: the squares of `color`'s pieces an own knight faces first, pawns left out."""
    out = set()
    for k in board.pieces(chess.KNIGHT, color):
        d = facing.get(k)
        if d is None:
            continue
        t = step(k, *d)
        while t is not None and board.piece_at(t) is None:
            t = step(t, *d)
        if t is None:
            continue
        p = board.piece_at(t)
        if p.color == color and p.piece_type != chess.PAWN:
            out.add(t)
    return out


def leap_targets(s):
    return [t for t in (step(s, *l) for l in LEAPS) if t is not None]


def attacked(board, facing, s, by):
    """KS-4: orthodox attacks and the supported pieces' leaps."""
    if board.is_attacked_by(by, s):
        return True
    return any(s in leap_targets(f) for f in supported(board, facing, by))


def first_rank_double(board, mv):
    """python-chess lets a pawn on its first rank step two; orthodox rules do not."""
    home = 0 if board.turn == chess.WHITE else 7
    return (board.piece_type_at(mv.from_square) == chess.PAWN
            and chess.square_rank(mv.from_square) == home
            and abs(mv.to_square - mv.from_square) == 16)


def after_move(board, facing, mv, new_facing=None):
    """The position after `mv`, the moved knight ending with `new_facing` (None: kept)."""
    b = board.copy(stack=False)
    f = dict(facing)
    kept = f.pop(mv.from_square, None)
    f.pop(mv.to_square, None)
    b.push(mv)
    if b.piece_type_at(mv.to_square) == chess.KNIGHT:
        d = new_facing if new_facing is not None else kept
        if d is not None:
            f[mv.to_square] = d
    return b, f


def legal_moves(pos):
    """(name, position after) of every legal move and turn."""
    board, facing = pos
    us = board.turn
    out = []

    def add(text, b, f):
        king = b.king(us)
        if king is None or not attacked(b, f, king, not us):
            out.append((text, (b, f)))

    seen = set()
    for mv in board.generate_pseudo_legal_moves():
        if first_rank_double(board, mv):
            continue
        if board.is_castling(mv):
            king = mv.from_square
            step_dir = 1 if mv.to_square > king else -1
            crossed = [king, king + step_dir, king + 2 * step_dir]
            if any(attacked(board, facing, x, not us) for x in crossed):
                continue
        seen.add((mv.from_square, mv.to_square))
        moved = board.piece_type_at(mv.from_square)
        if mv.promotion == chess.KNIGHT:
            for d in nameable(mv.to_square):
                add(mv.uci() + "->%d,%d" % d, *after_move(board, facing, mv, d))
        elif moved == chess.KNIGHT:
            kept = facing.get(mv.from_square)
            add(mv.uci(), *after_move(board, facing, mv))
            for d in nameable(mv.to_square):
                if d != kept:
                    add(mv.uci() + "->%d,%d" % d, *after_move(board, facing, mv, d))
        else:
            add(mv.uci(), *after_move(board, facing, mv))
    # KS-3: the supported pieces' leaps their own moves do not make.
    for s in supported(board, facing, us):
        for t in leap_targets(s):
            p = board.piece_at(t)
            if (s, t) in seen or (p is not None and p.color == us):
                continue
            mv = chess.Move(s, t)
            b = board.copy(stack=False)
            piece = b.remove_piece_at(s)
            b.set_piece_at(t, piece)
            if piece.piece_type == chess.KING:
                b.castling_rights &= ~(chess.BB_RANK_1 if us == chess.WHITE else chess.BB_RANK_8)
            b.castling_rights &= ~chess.BB_SQUARES[s] & ~chess.BB_SQUARES[t]
            b.ep_square = None
            b.turn = not us
            f = dict(facing)
            f.pop(t, None)
            add("leap " + mv.uci(), b, f)
    # KS-2: a knight turns in place to any other facing.
    for k in board.pieces(chess.KNIGHT, us):
        for d in nameable(k):
            if d != facing.get(k):
                b = board.copy(stack=False)
                b.ep_square = None
                b.turn = not us
                f = dict(facing)
                f[k] = d
                add("%s->%d,%d" % (chess.square_name(k), *d), b, f)
    return out


def perft(pos, depth):
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


def parse_facings(words):
    """`Nb1->c1` words: the knight's square and the step toward the named square."""
    facing = {}
    for w in words.split():
        if not w.startswith("N"):
            continue
        frm, to = w[1:].split("->")
        df = ord(to[0]) - ord(frm[0])
        dr = int(to[1:]) - int(frm[1:])
        facing[chess.parse_square(frm)] = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    return facing


def check_file(path):
    bad = 0
    fen = words = ident = None
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
            elif key == "events":
                words = value
            elif key == "perft":
                depth, expected = (int(x) for x in value.split())
                got = perft((chess.Board(fen), parse_facings(words)), depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--facings", default="Nb1->c1 Ng1->f1 Nb8->c8 Ng8->f8")
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    pos = (chess.Board(args.fen), parse_facings(args.facings))
    if args.divide:
        total = 0
        for name, after in sorted(legal_moves(pos), key=lambda m: m[0]):
            n = perft(after, args.depth - 1)
            total += n
            print(f"{name}: {n}")
        print(total)
    else:
        print(perft(pos, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
