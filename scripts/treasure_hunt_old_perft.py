#!/usr/bin/env python3
"""Independent perft for Event Chess with event #88 Treasure Hunt in its older wording
(armour) running.

A cross-check of xpgn's armour and stand-still moves, written from the rules text (the
catalogue's entry for #88 and the rulings THO-1..THO-5 of
`docs/rules/event-88-treasure-hunt-old.md`) on top of python-chess's orthodox
pseudo-legal moves, sharing no code with xpgn:

- each player's treasure is a square (or secret: then no piece ever wears armour, THO-5);
  the first piece of a player to arrive by its move on the opponent's treasure (its
  landing square, or a castling rook's) gets armour, and that treasure is spent (THO-2);
  armour goes with its piece, a promoting pawn's to the new piece;
- no capture takes an armoured piece, en passant included (THO-3);
- a player's move is legal iff afterwards his king wears armour or is not attacked
  (THO-3: an armoured king cannot be checked);
- a piece that attacks an enemy armoured piece may stand still instead: the armour is
  gone, nothing moves, legal on the same terms (THO-4).

Castling of an armoured king is not modelled: no position here gives one castling rights.

Usage (python-chess 1.11.2):

    treasure_hunt_old_perft.py tests/data/perft/treasure-hunt-old.perft   # every count
    treasure_hunt_old_perft.py --fen FEN --treasures h1 a6 --depth D       # one count
"""

import argparse
import re
import sys

import chess


class State:
    """The event's state beside the board: treasures, spent flags, armoured squares."""

    def __init__(self, treasures, spent, armour):
        self.treasures = treasures  # {chess.WHITE: square or None, chess.BLACK: ...}
        self.spent = spent  # {color: bool}
        self.armour = armour  # frozenset of squares


def legal(board, us, armour):
    king = board.king(us)
    return king is None or king in armour or not board.is_attacked_by(not us, king)


def children(board, state):
    us = board.turn
    them = not us
    out = []
    for mv in board.generate_pseudo_legal_moves():
        if board.is_castling(mv) and board.king(us) in state.armour:
            raise SystemExit("castling of an armoured king is not modelled")
        if board.is_capture(mv):
            victim = mv.to_square
            if board.is_en_passant(mv):
                victim = chess.square(chess.square_file(mv.to_square), chess.square_rank(mv.from_square))
            if victim in state.armour:
                continue
        armour = set(state.armour)
        landed = [mv.to_square]
        if board.is_castling(mv):
            rank = chess.square_rank(mv.from_square)
            kingside = chess.square_file(mv.to_square) > chess.square_file(mv.from_square)
            rook_from = chess.square(7 if kingside else 0, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            king_to = chess.square(6 if kingside else 2, rank)
            landed = [king_to, rook_to]
            if rook_from in armour:
                armour.discard(rook_from)
                armour.add(rook_to)
        elif mv.from_square in armour:
            armour.discard(mv.from_square)
            armour.add(mv.to_square)
        after = board.copy(stack=False)
        after.push(mv)
        spent = dict(state.spent)
        treasure = state.treasures[them]
        if treasure is not None and not spent[them] and treasure in landed:
            armour.add(treasure)
            spent[them] = True
        if legal(after, us, armour):
            out.append((after, State(state.treasures, spent, frozenset(armour))))
    for target in state.armour:
        piece = board.piece_at(target)
        if piece is None or piece.color == us:
            continue
        for _ in board.attackers(us, target):
            after = board.copy(stack=False)
            after.push(chess.Move.null())
            armour = state.armour - {target}
            if legal(after, us, armour):
                out.append((after, State(state.treasures, state.spent, armour)))
    return out


def perft(board, state, depth):
    if depth == 0:
        return 1
    moves = children(board, state)
    if depth == 1:
        return len(moves)
    return sum(perft(after, s, depth - 1) for after, s in moves)


def parse_square(word):
    return None if word == "?" else chess.parse_square(word)


def start(fen, treasures):
    """The board and state of a perft line: a FEN with xpgn's `events(88o-:...)` field,
    or a plain FEN and the treasures of an `events 88 old ...` line."""
    found = re.search(r" events\(88o-:([^)]*)\)$", fen)
    if found:
        fen = fen[: found.start()]
        words = found.group(1).split(",")
        marks = [w for w in words if w[0] in "+~"]
        picks = [w for w in words if w[0] not in "+~"]
        state = State(
            {c: parse_square(w.rstrip("!")) for c, w in zip((chess.WHITE, chess.BLACK), picks)},
            {c: w.endswith("!") for c, w in zip((chess.WHITE, chess.BLACK), picks)},
            frozenset(chess.parse_square(w[1:]) for w in marks if w[0] == "+"),
        )
    else:
        state = State(
            {c: parse_square(w) for c, w in zip((chess.WHITE, chess.BLACK), treasures)},
            {chess.WHITE: False, chess.BLACK: False},
            frozenset(),
        )
    return chess.Board(fen), state


def check_file(path):
    bad = 0
    fen = ident = None
    treasures = ["?", "?"]
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                ident, treasures = value, ["?", "?"]
            elif key == "fen":
                fen = value
            elif key == "events":
                words = value.split()
                assert words[:2] == ["88", "old"], line
                treasures = words[2:] or ["?", "?"]
            elif key == "perft":
                depth, expected = (int(x) for x in value.split())
                board, state = start(fen, treasures)
                got = perft(board, state, depth)
                ok = got == expected
                bad += not ok
                print(f"{'ok  ' if ok else 'DIFF'} {ident} depth {depth}: {got}"
                      + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--treasures", nargs=2, default=["?", "?"])
    ap.add_argument("--depth", type=int)
    args = ap.parse_args()
    if args.file:
        return check_file(args.file)
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    print(perft(*start(args.fen, args.treasures), args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
