#!/usr/bin/env python3
"""Independent perft for Event Chess with event #83 Smaller Board started in the given
position. A cross-check of xpgn, written from the rules page
(`docs/rules/event-83-smaller-board.md`, rulings SB-1..SB-5) on top of python-chess's
orthodox legal moves, sharing no code with xpgn:
- the start (SB-1, SB-5): rank by rank, the piece on the a-file moves one square toward
  h and every piece next to it in a row moves along, up to the first empty square of
  files b to g; then the same from the h-file toward a. With no such square the edge
  piece leaves the board. Castling rights are gone (SB-4); an en-passant square on file
  a or h, or whose pawn was pushed, is gone.
- afterwards (SB-2): python-chess's legal moves without those that end on file a or h.
  Nothing stands on those files, so no line runs through them and every attack
  python-chess sees is one the smaller board has too.
Usage (python-chess 1.11.2):
    smaller_board_perft.py tests/data/perft/smaller-board.perft   # recompute, compare
    smaller_board_perft.py --fen FEN --depth D                    # one count
"""

import argparse
import sys

import chess

EDGES = (0, 7)


def push_inward(board, edge, df, pushed):
    """SB-1, SB-5: pushes the piece on `edge` along its rank by `df`."""
    if board.piece_at(edge) is None:
        return
    rank = chess.square_rank(edge)
    chain = [edge]
    f = chess.square_file(edge) + df
    while f not in EDGES and board.piece_at(chess.square(f, rank)) is not None:
        chain.append(chess.square(f, rank))
        f += df
    if f in EDGES:
        board.remove_piece_at(edge)
        pushed.add(edge)
        return
    free = chess.square(f, rank)
    for sq in reversed(chain):
        board.set_piece_at(free, board.remove_piece_at(sq))
        pushed.add(sq)
        free = sq


def start(fen):
    board = chess.Board(fen)
    pushed = set()
    for rank in range(8):
        push_inward(board, chess.square(0, rank), 1, pushed)
        push_inward(board, chess.square(7, rank), -1, pushed)
    board.castling_rights = chess.BB_EMPTY
    ep = board.ep_square
    if ep is not None:
        pawn = ep - 8 if board.turn == chess.WHITE else ep + 8
        if chess.square_file(ep) in EDGES or pawn in pushed:
            board.ep_square = None
    return board


def moves(board):
    return [m for m in board.legal_moves if chess.square_file(m.to_square) not in EDGES]


def perft(board, depth):
    if depth == 0:
        return 1
    found = moves(board)
    if depth == 1:
        return len(found)
    total = 0
    for m in found:
        board.push(m)
        total += perft(board, depth - 1)
        board.pop()
    return total


def check(path):
    failed = 0
    fen = None
    for line in open(path, encoding="utf-8"):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "fen":
            fen = " ".join(words[1:])
        elif words[0] == "events" and words[1:] != ["83"]:
            sys.exit(f"{path}: only `events 83` is read here, not {words[1:]}")
        elif words[0] == "perft":
            depth, expected = int(words[1]), int(words[2])
            got = perft(start(fen), depth)
            mark = "ok" if got == expected else "DIFFERS"
            failed += got != expected
            print(f"{mark}: {fen} depth {depth}: file {expected}, python {got}")
    return failed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file", nargs="?")
    parser.add_argument("--fen")
    parser.add_argument("--depth", type=int)
    args = parser.parse_args()
    if args.file:
        sys.exit(1 if check(args.file) else 0)
    print(perft(start(args.fen), args.depth))


if __name__ == "__main__":
    main()
