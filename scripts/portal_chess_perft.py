#!/usr/bin/env python3
"""Independent perft for Event Chess with event #4* Portal Chess running from the start.

A cross-check of xpgn's Portal Chess, written from the rules text (the catalogue entry
and rulings PC-1..PC-10 in `docs/rules/event-4star-portal-chess.md`, whose portal rule
reads #36 Portals with rooks for bishops) on top of python-chess's orthodox moves,
sharing no code with xpgn:

- every orthodox pseudo-legal move (python-chess) but a rook's move other than castling
  (PC-2), a capture of a rook (PC-1) and a promotion to a rook (PC-3);
- for every piece of the side to move but its rooks (PC-5), while that side has two
  rooks or more, its moves through one of them: a leaper (knight, king) whose leap
  lands on an own rook makes the same leap from any other own rook; a rider slides over
  empty squares to an own rook and on from any other one, in the same direction,
  stopping on an empty square or taking the first enemy piece that is no rook; a pawn
  steps into an own rook and one step on from another (two from its second rank), or
  steps once and into a rook and once more from another, onto empty squares only, and
  captures along its diagonals into a rook and on from another one (an enemy piece but
  a rook, or en passant), promoting on its last rank to anything but a rook (PC-4,
  PC-6). A rook never exits from its own square, no move ends where it began, and after
  the exit an own rook stops the move. A move through a portal to a square an ordinary
  move reaches is that move (PC-8).
- rooks attack nothing (PC-2); the other pieces attack as python-chess says and through
  portals the same way (PC-7): a move is legal iff afterwards the mover's king is so
  attacked by no piece; a castling king may start on, cross or land on no such square.
- a pawn's two steps that both come after the portal leave the en-passant square on the
  square between exit and landing; the other two-steps through a portal leave none
  (PC-6). An enemy pawn attacking that square takes there, from whatever rank.

Usage (python-chess 1.11.2):

    portal_chess_perft.py tests/data/perft/portal_chess.perft   # recompute every count
    portal_chess_perft.py --fen FEN --depth D [--divide]        # one count
"""

import argparse
import sys

import chess

KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2))
KING = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
ROOK = ((1, 0), (-1, 0), (0, 1), (0, -1))
BISHOP = ((1, 1), (1, -1), (-1, 1), (-1, -1))
VECTORS = {
    chess.KNIGHT: [(d, False) for d in KNIGHT],
    chess.KING: [(d, False) for d in KING],
    chess.ROOK: [(d, True) for d in ROOK],
    chess.BISHOP: [(d, True) for d in BISHOP],
    chess.QUEEN: [(d, True) for d in ROOK + BISHOP],
}


def off(square, df, dr):
    if square is None:
        return None
    f, r = chess.square_file(square) + df, chess.square_rank(square) + dr
    return chess.square(f, r) if 0 <= f < 8 and 0 <= r < 8 else None


def occupied_set(board):
    return set(chess.SquareSet(board.occupied))


def through(board, frm, piece, occ, portals):
    """(quiet, attacks): where `piece` on `frm` goes through one of `portals`."""
    quiet, attacks = set(), set()
    if len(portals) < 2:
        return quiet, attacks
    occ = occ - {frm}
    if piece.piece_type == chess.PAWN:
        f = 1 if piece.color == chess.WHITE else -1
        may_double = chess.square_rank(frm) == (1 if piece.color == chess.WHITE else 6)
        step = off(frm, 0, f)
        if step in portals:
            for exit_ in portals - {step}:
                first = off(exit_, 0, f)
                if first is None or first in occ:
                    continue
                quiet.add(first)
                second = off(first, 0, f)
                if may_double and second is not None and second not in occ:
                    quiet.add(second)
        elif may_double and step is not None and step not in occ:
            entry = off(step, 0, f)
            if entry in portals:
                for exit_ in portals - {entry}:
                    second = off(exit_, 0, f)
                    if second is not None and second not in occ:
                        quiet.add(second)
        for df in (-1, 1):
            entry = off(frm, df, f)
            if entry in portals:
                for exit_ in portals - {entry}:
                    land = off(exit_, df, f)
                    if land is not None:
                        attacks.add(land)
    else:
        for (dx, dy), rider in VECTORS[piece.piece_type]:
            if not rider:
                entry = off(frm, dx, dy)
                if entry in portals:
                    for exit_ in portals - {entry}:
                        land = off(exit_, dx, dy)
                        if land is not None:
                            attacks.add(land)
                continue
            s = off(frm, dx, dy)
            while s is not None and s not in occ:
                s = off(s, dx, dy)
            if s not in portals:
                continue
            for exit_ in portals - {s}:
                t = off(exit_, dx, dy)
                while t is not None:
                    attacks.add(t)
                    if t in occ:
                        break
                    t = off(t, dx, dy)
    quiet.discard(frm)
    attacks.discard(frm)
    return quiet, attacks


def rooks(board, color):
    return set(board.pieces(chess.ROOK, color))


def portal_attacked(board, sq, by):
    own = rooks(board, by)
    if len(own) < 2:
        return False
    occ = occupied_set(board)
    for frm in chess.SquareSet(board.occupied_co[by] & ~board.rooks):
        piece = board.piece_at(frm)
        if sq in through(board, frm, piece, occ, own - {frm})[1]:
            return True
    return False


def attacked(board, sq, by):
    """Rooks attack nothing (PC-2): python-chess's attackers but the rooks."""
    return bool(board.attackers_mask(by, sq) & ~board.rooks) or portal_attacked(board, sq, by)


def allowed(board, mv):
    """PC-1..PC-3 on an orthodox move."""
    if board.piece_type_at(mv.from_square) == chess.ROOK and not board.is_castling(mv):
        return False
    if board.piece_type_at(mv.to_square) == chess.ROOK and not board.is_castling(mv):
        return False
    return mv.promotion != chess.ROOK


def castles(board):
    """The castlings whose squares between king and rook are empty; python-chess's own
    leave out those a rook attacks, which attacks nothing here (PC-2)."""
    us = board.turn
    rank = 0 if us == chess.WHITE else 7
    king = board.king(us)
    out = []
    if king != chess.square(4, rank):
        return out
    for rook_file, king_file, between in ((7, 6, (5, 6)), (0, 2, (1, 2, 3))):
        rook = chess.square(rook_file, rank)
        if not board.castling_rights & chess.BB_SQUARES[rook]:
            continue
        if board.piece_at(rook) != chess.Piece(chess.ROOK, us):
            continue
        if any(board.piece_at(chess.square(f, rank)) for f in between):
            continue
        out.append(chess.Move(king, chess.square(king_file, rank)))
    return out


def ordinary_moves(board):
    plain = [mv for mv in board.generate_pseudo_legal_moves()
             if not board.is_castling(mv) and allowed(board, mv)]
    return plain + castles(board)


def king_safe(after, us):
    king = after.king(us)
    return king is None or not attacked(after, king, not us)


def finish(board, after, us, frm, to):
    after.castling_rights &= ~(chess.BB_SQUARES[frm] | chess.BB_SQUARES[to])
    if board.piece_type_at(frm) == chess.KING:
        after.castling_rights &= ~chess.BB_RANK_1 if us == chess.WHITE else ~chess.BB_RANK_8
    if us == chess.BLACK:
        after.fullmove_number += 1
    after.turn = not us


def portal_moves(board):
    """(name, after) for every pseudo-legal move through a portal not already ordinary."""
    us = board.turn
    own = rooks(board, us)
    if len(own) < 2:
        return []
    occ = occupied_set(board)
    ordinary = {(m.from_square, m.to_square, m.promotion) for m in ordinary_moves(board)}
    out = []
    for frm in chess.SquareSet(board.occupied_co[us] & ~board.rooks):
        piece = board.piece_at(frm)
        quiet, attacks = through(board, frm, piece, occ, own - {frm})
        targets = []
        if piece.piece_type == chess.PAWN:
            f = 1 if us == chess.WHITE else -1
            targets += [(t, None) for t in quiet if t not in occ]
            targets += [(t, None) for t in attacks
                        if t in occ and board.color_at(t) != us and board.piece_type_at(t) != chess.ROOK]
            ep = board.ep_square
            if ep is not None and ep in attacks and ep not in occ:
                victim = off(ep, 0, -f)
                vp = board.piece_at(victim) if victim is not None else None
                if vp is not None and vp.color != us and vp.piece_type == chess.PAWN:
                    targets.append((ep, victim))
        else:
            targets += [(t, None) for t in attacks
                        if board.color_at(t) != us and board.piece_type_at(t) != chess.ROOK]
        for to, ep_victim in targets:
            last = chess.square_rank(to) == (7 if us == chess.WHITE else 0)
            promotions = ([chess.QUEEN, chess.BISHOP, chess.KNIGHT]
                          if piece.piece_type == chess.PAWN and last else [None])
            for promo in promotions:
                if (frm, to, promo) in ordinary:
                    continue
                after = board.copy(stack=False)
                after.remove_piece_at(frm)
                if ep_victim is not None:
                    after.remove_piece_at(ep_victim)
                after.set_piece_at(to, chess.Piece(promo or piece.piece_type, us))
                after.ep_square = None
                if piece.piece_type == chess.PAWN:
                    after.halfmove_clock = 0
                    f = 1 if us == chess.WHITE else -1
                    crossed, exit_ = off(to, 0, -f), off(to, 0, -2 * f)
                    entry = off(frm, 0, f)
                    if (board.piece_at(to) is None and ep_victim is None and entry in own
                            and crossed is not None and crossed not in occ
                            and exit_ in own and exit_ != entry and exit_ != frm):
                        after.ep_square = crossed
                elif board.piece_at(to) is not None:
                    after.halfmove_clock = 0
                else:
                    after.halfmove_clock += 1
                finish(board, after, us, frm, to)
                name = f"{chess.square_name(frm)}{chess.square_name(to)}"
                if promo:
                    name += chess.piece_symbol(promo)
                out.append((name + "~", after))
    return out


def far_en_passant(board):
    """(name, after) for the en-passant captures onto a square a two-step through a
    portal left (PC-6), whose capturer python-chess looks for on the orthodox rank only."""
    us, ep = board.turn, board.ep_square
    if ep is None or board.piece_at(ep) is not None:
        return []
    ordinary = {(m.from_square, m.to_square) for m in ordinary_moves(board)}
    f = 1 if us == chess.WHITE else -1
    victim = off(ep, 0, -f)
    vp = board.piece_at(victim) if victim is not None else None
    if vp is None or vp.color == us or vp.piece_type != chess.PAWN:
        return []
    out = []
    for frm in chess.SquareSet(chess.BB_PAWN_ATTACKS[not us][ep] & board.pawns & board.occupied_co[us]):
        if (frm, ep) in ordinary:
            continue
        after = board.copy(stack=False)
        after.remove_piece_at(frm)
        after.remove_piece_at(victim)
        after.set_piece_at(ep, chess.Piece(chess.PAWN, us))
        after.ep_square = None
        after.halfmove_clock = 0
        finish(board, after, us, frm, ep)
        out.append((f"{chess.square_name(frm)}{chess.square_name(ep)}ep", after))
    return out


def legal_moves(board):
    us = board.turn
    out = []
    for mv in ordinary_moves(board):
        if board.is_castling(mv):
            step = 1 if chess.square_file(mv.to_square) > chess.square_file(mv.from_square) else -1
            king_to = chess.square(6 if step == 1 else 2, chess.square_rank(mv.from_square))
            squares = {mv.from_square}
            s = mv.from_square
            while s != king_to:
                s = off(s, step, 0)
                squares.add(s)
            if any(attacked(board, s, not us) for s in squares):
                continue
        after = board.copy(stack=False)
        after.push(mv)
        if king_safe(after, us):
            out.append((mv.uci(), after))
    for name, after in portal_moves(board) + far_en_passant(board):
        if king_safe(after, us):
            out.append((name, after))
    return out


def perft(board, depth):
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for _, after in moves)


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
            elif key != "events":
                raise SystemExit(f"{path}: unknown key {key!r}")
    return cases


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", help="a .perft file to recompute")
    ap.add_argument("--fen", default=chess.STARTING_FEN)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--divide", action="store_true")
    args = ap.parse_args()
    if args.file:
        bad = 0
        for case in read_cases(args.file):
            board = chess.Board(case["fen"])
            for depth, expected in case["counts"]:
                got = perft(board, depth)
                bad += got != expected
                print(f"{'ok  ' if got == expected else 'DIFF'} {case['id']} depth {depth}: "
                      f"{got} (file: {expected})", flush=True)
        return 1 if bad else 0
    if args.depth is None:
        ap.error("give a .perft file or --depth")
    board = chess.Board(args.fen)
    if args.divide:
        for name, after in sorted(legal_moves(board)):
            print(f"{name}: {perft(after, args.depth - 1)}")
    print(perft(board, args.depth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
