#!/usr/bin/env python3
"""Independent perft for Event Chess with event #43 Line Pushers running from the start.

A cross-check of xpgn's push generation, written from the rules text
(`shared/seeds/004_659c66fdec606437.txt`, rulings LP-1..LP-6 and EC-4 in
`shared/spec/rulings.md`) on top of python-chess's orthodox legal moves, sharing no code
with xpgn:

- orthodox moves: python-chess 1.11.2's legal moves. Its pawn generator already lets a
  pawn on its own first rank step one or two squares (the double-step mask is "lands on
  rank 3/4", resp. 6/5), which is EC-4; only the en-passant square after such a double
  step is set here, and the en-passant captures onto it are added here (python-chess
  looks for capturers on the fifth rank only). A pawn on its last rank gets no moves
  from python-chess.
- pushes (LP-1, LP-2, LP-6): for every rook of the side to move and each of the four
  directions along its rank or file, a piece on that line moves one step iff some empty
  square lies between it and the edge it is pushed toward (the closed form of "one at a
  time from the front, each if the square ahead is empty"); the push exists iff one of
  our rooks on the line moves; pushes of the same line in the same direction are one
  move, whichever of our rooks names them.
- a push captures nothing and promotes nothing (LP-3), sets no en-passant square, and a
  king or rook it moves off a square loses the castling rights tied to it (LP-5).
- a pawn of the side to move on its last rank may promote by standing still (LP-3).
- every move is legal iff the mover's king is not attacked afterwards (LP-4).

Usage (python-chess 1.11.2, e.g. the venv `scripts/differential.sh` makes in
target/differential-venv):

    pushes_perft.py tests/data/perft/line-pushers.perft      # recompute every count
    pushes_perft.py --fen FEN --depth D [--divide]           # one count
    pushes_perft.py --fen FEN --moves "R->a8 a2 ..."         # replay, print each FEN
    pushes_perft.py --fen FEN --list                         # the legal moves

The replay understands the moves this script prints (canonical SAN as python-chess
writes it, `R->a4`, `Rc8->a8`, `a8=Q`); check marks are ignored.
"""

import argparse
import sys

import chess

DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))
PROMOTIONS = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)


def line_ahead(square, direction):
    """The squares from `square` (excluded) to the edge in `direction`, nearest first."""
    df, dr = direction
    f, r = chess.square_file(square), chess.square_rank(square)
    out = []
    f, r = f + df, r + dr
    while 0 <= f < 8 and 0 <= r < 8:
        out.append(chess.square(f, r))
        f, r = f + df, r + dr
    return out


def whole_line(square, direction):
    """Every square of the rank (sideways) or file (up/down) of `square`."""
    df, _ = direction
    if df:
        return [chess.square(f, chess.square_rank(square)) for f in range(8)]
    return [chess.square(chess.square_file(square), r) for r in range(8)]


def step(square, direction):
    df, dr = direction
    return chess.square(chess.square_file(square) + df, chess.square_rank(square) + dr)


class Push:
    """A Line Pushers push: `rook` (one of ours that moves) pushes its line toward `d`."""

    def __init__(self, rook, d, moved):
        self.rook = rook
        self.d = d
        self.moved = moved  # [(from, to)]

    def edge(self):
        return line_ahead(self.rook, DIRECTIONS[self.d])[-1]

    def key(self):
        df, _ = DIRECTIONS[self.d]
        line = chess.square_rank(self.rook) if df else chess.square_file(self.rook)
        return (self.d, line)


class StandStill:
    """A pawn on its last rank promotes without moving (LP-3)."""

    def __init__(self, square, piece_type):
        self.square = square
        self.piece_type = piece_type


def pushes_of(board):
    """The pseudo-legal pushes of the side to move, one per line and direction."""
    us = board.turn
    occupied = board.occupied
    found = {}
    for rook in board.pieces(chess.ROOK, us):
        for d, direction in enumerate(DIRECTIONS):
            ahead = line_ahead(rook, direction)
            if all(occupied & chess.BB_SQUARES[sq] for sq in ahead):
                continue  # LP-2: this rook would not move
            moved = []
            for sq in whole_line(rook, direction):
                if not occupied & chess.BB_SQUARES[sq]:
                    continue
                if any(not occupied & chess.BB_SQUARES[a] for a in line_ahead(sq, direction)):
                    moved.append((sq, step(sq, direction)))
            push = Push(rook, d, moved)
            found.setdefault(push.key(), push)
    return list(found.values())


def play_push(board, push):
    after = board.copy(stack=False)
    pieces = [(board.piece_at(frm), frm, to) for frm, to in push.moved]
    for _, frm, _ in pieces:
        after.remove_piece_at(frm)
    rights = after.castling_rights
    for piece, frm, to in pieces:
        after.set_piece_at(to, piece)
        rights &= ~chess.BB_SQUARES[frm]
        if piece.piece_type == chess.KING:
            rights &= ~(chess.BB_RANK_1 if piece.color == chess.WHITE else chess.BB_RANK_8)
    after.castling_rights = rights
    after.ep_square = None
    after.halfmove_clock += 1
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def play_stand_still(board, mv):
    after = board.copy(stack=False)
    after.set_piece_at(mv.square, chess.Piece(mv.piece_type, board.turn))
    after.ep_square = None
    after.halfmove_clock = 0
    if board.turn == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not board.turn
    return after


def play_orthodox(board, mv):
    after = board.copy(stack=False)
    piece = board.piece_at(mv.from_square)
    after.push(mv)
    # EC-4: a double step from the own first rank sets the en-passant square too.
    if piece.piece_type == chess.PAWN and abs(mv.to_square - mv.from_square) == 16:
        after.ep_square = (mv.from_square + mv.to_square) // 2
    return after


def play(board, mv):
    if isinstance(mv, Push):
        return play_push(board, mv)
    if isinstance(mv, StandStill):
        return play_stand_still(board, mv)
    return play_orthodox(board, mv)


def own_king_safe(after, us):
    king = after.king(us)
    return king is None or not after.is_attacked_by(not us, king)


def odd_en_passant(board):
    """En-passant captures onto a square python-chess does not look at: the one a
    double step from the first rank passed (rank 2 for white, rank 7 for black)."""
    ep = board.ep_square
    if ep is None or chess.square_rank(ep) not in (1, 6):
        return []
    if board.occupied & chess.BB_SQUARES[ep]:
        return []
    us = board.turn
    victim = ep + (8 if us == chess.BLACK else -8)
    if board.piece_at(victim) != chess.Piece(chess.PAWN, not us):
        return []
    capturers = board.pieces(chess.PAWN, us) & chess.BB_PAWN_ATTACKS[not us][ep]
    return [chess.Move(c, ep) for c in chess.SquareSet(capturers)]


def legal_moves(board):
    """Every legal move of the side to move, with the position after it."""
    us = board.turn
    out = []
    for mv in board.generate_legal_moves():
        out.append((mv, play_orthodox(board, mv)))
    candidates = odd_en_passant(board) + pushes_of(board)
    last = chess.BB_RANK_8 if us == chess.WHITE else chess.BB_RANK_1
    for sq in chess.SquareSet(board.pieces(chess.PAWN, us) & last):
        candidates.extend(StandStill(sq, kind) for kind in PROMOTIONS)
    for mv in candidates:
        after = play(board, mv)
        if own_king_safe(after, us):
            out.append((mv, after))
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


def name(board, mv, moves):
    """Canonical SAN without check marks, as xpgn writes it."""
    if isinstance(mv, StandStill):
        return f"{chess.square_name(mv.square)}={chess.piece_symbol(mv.piece_type).upper()}"
    if isinstance(mv, Push):
        edge = mv.edge()
        twice = any(
            isinstance(o, Push) and o.key() != mv.key() and o.edge() == edge for o, _ in moves
        )
        origin = chess.square_name(mv.rook) if twice else ""
        return f"R{origin}->{chess.square_name(edge)}"
    if mv in odd_en_passant(board):
        return f"{chess.square_name(mv.from_square)[0]}x{chess.square_name(mv.to_square)}"
    return board.san(mv).rstrip("+#")


def lan(mv):
    if isinstance(mv, Push):
        return f"R{chess.square_name(mv.rook)}->{chess.square_name(mv.edge())}"
    return None


def named_moves(board):
    moves = legal_moves(board)
    return [(name(board, mv, moves), mv, after) for mv, after in moves]


def read_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, _, value = line.partition(" ")
            if key == "id":
                cases.append({"id": value, "fen": None, "counts": []})
            elif key == "fen":
                cases[-1]["fen"] = value
            elif key == "perft":
                depth, count = value.split()
                cases[-1]["counts"].append((int(depth), int(count)))
            else:
                raise SystemExit(f"{path}: unknown key {key!r}")
    return cases


def check_file(path, only=None):
    bad = 0
    for case in read_cases(path):
        if only and case["id"] not in only:
            continue
        board = chess.Board(case["fen"])
        for depth, expected in case["counts"]:
            got = perft(board, depth)
            ok = got == expected
            bad += not ok
            print(f"{'ok  ' if ok else 'DIFF'} {case['id']} depth {depth}: {got}"
                  + ("" if ok else f" (file says {expected})"), flush=True)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", help="a .perft file to recompute")
    ap.add_argument("--id", action="append", help="only these positions of the file")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--moves", help="moves to replay from --fen, space-separated")
    ap.add_argument("--list", action="store_true", help="list the legal moves")
    args = ap.parse_args()
    if chess.__version__ != "1.11.2":
        print(f"warning: written against python-chess 1.11.2, this is {chess.__version__}",
              file=sys.stderr)
    if args.file:
        return check_file(args.file, args.id)
    board = chess.Board(args.fen)
    if args.moves is not None:
        for token in args.moves.split():
            written = token.rstrip("+#")
            moves = named_moves(board)
            match = [m for m in moves if m[0] == written or lan(m[1]) == written]
            if len(match) != 1:
                print(f"{token}: {'illegal' if not match else 'ambiguous'}; legal: "
                      + " ".join(sorted(m[0] for m in moves)))
                return 1
            board = match[0][2]
            check = " (check)" if board.is_check() else ""
            print(f"{token}: {board.fen()}{check}")
        return 0
    if args.list:
        for n, _, _ in named_moves(board):
            print(n)
        return 0
    if args.depth is None:
        ap.error("give a .perft file, --depth, --moves or --list")
    if args.divide:
        total = 0
        for n, _, after in sorted(named_moves(board), key=lambda m: m[0]):
            count = perft(after, args.depth - 1)
            total += count
            print(f"{n}: {count}")
        print(total)
    else:
        print(perft(board, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
