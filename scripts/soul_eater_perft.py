#!/usr/bin/env python3
"""Independent perft for Event Chess with event #64 Soul Eater running.

A cross-check of xpgn's Soul Eater moves, written from the rules text (the catalogue's
entry for #64 and the rulings SE-1..SE-8 of `docs/rules/event-64-soul-eater.md`) on top
of python-chess's orthodox moves, sharing no code with xpgn:

- souls (SE-1): each player's souls per piece type; an enemy piece captured (en passant
  too) gives its captor a soul of its type.
- soul moves (SE-2, SE-3): a king spends a soul to move as a knight, bishop, rook or queen
  to a square two or more king steps away (empty or an enemy piece), or with a pawn soul
  two squares straight ahead from its owner's first or second rank over an empty square
  onto an empty one; such a double step is illegal where an enemy pawn attacks the
  square passed (SE-4).
- attacks (SE-5): python-chess's attacks, and every square a king reaches with a knight,
  bishop, rook or queen soul its owner holds (two or more steps away).
- orthodox moves: python-chess 1.11.2's pseudo-legal moves, legal iff the mover's king is
  not attacked afterwards with the attacks above; a castle also needs the king's start,
  passed and end squares free of those attacks.

The FENs of the perft file carry the souls in xpgn's extended field,
`events(64-:wNR,bQ)`, which this script reads. No line of four plies or fewer lets a
player take a third piece other than a pawn, so EC-2 never bites.

Usage (python-chess 1.11.2):

    soul_eater_perft.py tests/data/perft/soul-eater.perft   # recompute every count
    soul_eater_perft.py --fen 'FEN events(64-:wN)' --depth D [--divide]
"""

import argparse
import re
import sys

import chess

LETTERS = {"P": chess.PAWN, "N": chess.KNIGHT, "B": chess.BISHOP, "R": chess.ROOK, "Q": chess.QUEEN}


def read(fen):
    """(board, souls) of a FEN with xpgn's events field."""
    souls = {chess.WHITE: {}, chess.BLACK: {}}
    match = re.search(r"events\(64-:?([^)]*)\)", fen)
    if match:
        for word in filter(None, match.group(1).split(",")):
            color = chess.WHITE if word[0] == "w" else chess.BLACK
            for letter in word[1:]:
                kind = LETTERS[letter]
                souls[color][kind] = souls[color].get(kind, 0) + 1
    return chess.Board(fen.split(" events(")[0]), souls


def distance(a, b):
    return max(abs(chess.square_file(a) - chess.square_file(b)),
               abs(chess.square_rank(a) - chess.square_rank(b)))


def piece_reach(kind, sq, occupied):
    """The squares a piece of `kind` on `sq` attacks with `occupied` in the way."""
    if kind == chess.KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[sq]
    out = 0
    if kind in (chess.BISHOP, chess.QUEEN):
        out |= chess.BB_DIAG_ATTACKS[sq][chess.BB_DIAG_MASKS[sq] & occupied]
    if kind in (chess.ROOK, chess.QUEEN):
        out |= chess.BB_RANK_ATTACKS[sq][chess.BB_RANK_MASKS[sq] & occupied]
        out |= chess.BB_FILE_ATTACKS[sq][chess.BB_FILE_MASKS[sq] & occupied]
    return out


def soul_targets(kind, king, occupied):
    return [t for t in chess.SquareSet(piece_reach(kind, king, occupied)) if distance(king, t) >= 2]


def attacked(board, sq, by, souls):
    if board.is_attacked_by(by, sq):
        return True
    for king in board.pieces(chess.KING, by):
        for kind, count in souls[by].items():
            if count and kind != chess.PAWN and sq in soul_targets(kind, king, board.occupied):
                return True
    return False


def safe(board, us, souls):
    return not any(attacked(board, k, not us, souls) for k in board.pieces(chess.KING, us))


def gained(souls, us, kind):
    new = {chess.WHITE: dict(souls[chess.WHITE]), chess.BLACK: dict(souls[chess.BLACK])}
    new[us][kind] = new[us].get(kind, 0) + 1
    return new


def castle_safe(board, mv, souls):
    us = board.turn
    step = 1 if chess.square_file(mv.to_square) > chess.square_file(mv.from_square) else -1
    rank = chess.square_rank(mv.from_square)
    to_file = 6 if step == 1 else 2
    files = range(chess.square_file(mv.from_square), to_file + step, step)
    return not any(attacked(board, chess.square(f, rank), not us, souls) for f in files)


def legal_moves(board, souls):
    """(name, position after, souls after) of every legal move."""
    us = board.turn
    out = []
    for mv in board.generate_pseudo_legal_moves():
        if board.is_castling(mv) and not castle_safe(board, mv, souls):
            continue
        after_souls = souls
        if board.is_en_passant(mv):
            after_souls = gained(souls, us, chess.PAWN)
        elif board.piece_at(mv.to_square) is not None:
            after_souls = gained(souls, us, board.piece_type_at(mv.to_square))
        after = board.copy(stack=False)
        after.push(mv)
        if safe(after, us, after_souls):
            out.append((mv.uci(), after, after_souls))
    forward = 8 if us == chess.WHITE else -8
    for king in board.pieces(chess.KING, us):
        for kind, count in souls[us].items():
            if not count:
                continue
            if kind == chess.PAWN:
                own_rank = chess.square_rank(king) if us == chess.WHITE else 7 - chess.square_rank(king)
                if own_rank > 1:
                    continue
                passed, target = king + forward, king + 2 * forward
                if board.piece_at(passed) or board.piece_at(target):
                    continue
                pawn_from = chess.BB_PAWN_ATTACKS[us][passed] & board.pieces_mask(chess.PAWN, not us)
                if pawn_from:
                    continue
                targets = [target]
            else:
                targets = [t for t in soul_targets(kind, king, board.occupied)
                           if not board.color_at(t) == us]
            for target in targets:
                spent = {chess.WHITE: dict(souls[chess.WHITE]), chess.BLACK: dict(souls[chess.BLACK])}
                spent[us][kind] -= 1
                victim = board.piece_type_at(target)
                if victim is not None and victim != chess.KING:
                    spent[us][victim] = spent[us].get(victim, 0) + 1
                after = board.copy(stack=False)
                piece = after.remove_piece_at(king)
                after.set_piece_at(target, piece)
                after.castling_rights &= ~(chess.BB_RANK_1 if us == chess.WHITE else chess.BB_RANK_8)
                after.ep_square = None
                after.turn = not us
                if safe(after, us, spent):
                    out.append((f"{chess.square_name(king)}{chess.square_name(target)}={'PNBRQ'[kind - 1]}",
                                after, spent))
    return out


def perft(board, souls, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board, souls)
    if depth == 1:
        return len(moves)
    return sum(perft(after, left, depth - 1) for _, after, left in moves)


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
                got = perft(*read(fen), depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default="4k3/8/8/8/8/8/8/4K3 w - - 0 1 events(64-:wNP,bQ)")
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    board, souls = read(args.fen)
    if args.divide:
        total = 0
        for name, after, left in legal_moves(board, souls):
            n = perft(after, left, args.depth - 1)
            total += n
            print(f"{name}: {n}")
        print(total)
    else:
        print(perft(board, souls, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
