#!/usr/bin/env python3
"""Differential check of `xpgn check` against python-chess on the shared corpus.

Run it through scripts/differential.sh, which sets up python-chess 1.11.2 in a venv, or
directly with python-chess installed:

    python3 scripts/differential.py [--corpus DIR] [--xpgn PATH] [--files NAME[:K] ...]
                                    [--sample K] [--corrupt N] [--seed S]

1. Game by game, on each file: xpgn's verdicts (`xpgn check --format json --jobs 1
   --quiet FILE`, one JSON object per game) against python-chess reading the same game
   on its own. Both must see the same number of games, flag the same games (python-chess:
   any error while reading, such as an illegal, ambiguous or unreadable move; xpgn: any
   diagnostic of severity "error") and replay the same number of main-line plies
   legally. python-chess accepts the null move `--` (odds games); xpgn only warns on it.
2. Corruption (--corrupt N): N games that python-chess finds clean, each with one
   main-line move spoiled: replaced by a SAN token from another game or by a random SAN
   token (a piece letter and a square, or a pawn move) that is not legal there, or
   swapped with the same side's next move. They are written to
   target/differential-corrupted.pgn, and both tools must put the first bad move at the
   same ply. The seed that chooses and spoils the games is fresh on every run unless
   --seed gives one; it is printed, so `--seed S` replays a failure.

Splitting: python-chess misreads some files read as one stream (a chess.com export with
no blank line between games), so each game is handed to it alone. A game starts at a line
beginning with `[Event `, and also ends after a movetext line whose last token is a
result (`1-0`, `0-1`, `1/2-1/2`, `*`) when a blank line or the end of the file follows;
this splits the tagless opening lines of openings.pgn. Text that has neither a tag nor a
move (a preface before the first game) is not a game. On the corpus this gives the
README's counts: human.pgn 12,782, openings.pgn 245,142, engine.pgn 27,608 games.

Defaults, for CI: --corpus ../shared/corpus/standard and --xpgn target/release/xpgn,
both relative to the repository root; every game of every .pgn file of the corpus;
--corrupt 300; a fresh --seed. python-chess reads the games on every core (a process
each), which is nearly all of the time: about five minutes of one core's time for the
285,532 games of the standard corpus. --sample K (or a NAME:K suffix) compares every
K-th game only, for quick runs by hand; xpgn always reads the whole file.

Prints one line per file with its game count, a `differential: N games, M disagreements`
line, a `corruption: ...` line and up to 20 disagreements. Exit status: 0 when the tools
agree on everything, 1 on any disagreement, 2 when xpgn cannot be run or read.
"""

import argparse
import io
import json
import logging
import multiprocessing
import random
import re
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import chess
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
# Kept after a run, to reproduce a disagreement on the corrupted games.
CORRUPTED = ROOT / "target" / "differential-corrupted.pgn"
RESULTS = {"1-0", "0-1", "1/2-1/2", "*"}
# A SAN move (or null move), to tell a game's movetext from a preface of prose.
MOVE_RE = re.compile(
    r"(?<!\S)(?:\d+\.+)?(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](?:x[a-h])?[1-8](?:=?[QRBN])?"
    r"|O-O(?:-O)?|0-0(?:-0)?|--)[+#]?[!?]*(?!\S)"
)
SHOWN = 20
# The default comparison's sampling, to keep CI's run near 85 s of python-chess time:
# every K-th game of these files; every game of any other file of the corpus.


def code_outside_comments(line, in_comment):
    """Returns (movetext of `line` outside {...} and ; comments, whether a {...} comment is
    still open at its end)."""
    if not in_comment and "{" not in line and ";" not in line:
        return line, False
    code = []
    pos = 0
    while pos < len(line):
        if in_comment:
            end = line.find("}", pos)
            if end < 0:
                return "".join(code), True
            in_comment, pos = False, end + 1
            code.append(" ")
        else:
            brace, semi = line.find("{", pos), line.find(";", pos)
            if semi >= 0 and (brace < 0 or semi < brace):
                code.append(line[pos:semi])
                return "".join(code), False
            if brace < 0:
                code.append(line[pos:])
                break
            code.append(line[pos:brace])
            in_comment, pos = True, brace + 1
    return "".join(code), in_comment


def split_games(text):
    """Splits a PGN text into games as the module docstring says.

    Returns a list of (number of the game's first non-blank line, game text)."""
    lines = text.splitlines(keepends=True)
    games = []
    start, has_game, in_comment = 0, False, False

    def close(end):
        if has_game:
            first = next(j for j in range(start, end) if lines[j].strip())
            games.append((first + 1, "".join(lines[start:end])))

    for i, line in enumerate(lines):
        if not in_comment and line.startswith("[Event "):
            close(i)
            start, has_game = i, False
        if not in_comment and line.startswith("["):
            has_game = True
            continue
        if not in_comment and line.startswith("%"):
            continue
        code, in_comment = code_outside_comments(line, in_comment)
        if not has_game and MOVE_RE.search(code):
            has_game = True
        tokens = code.split()
        if (
            not in_comment
            and tokens
            and tokens[-1] in RESULTS
            and (i + 1 == len(lines) or not lines[i + 1].strip())
        ):
            close(i + 1)
            start, has_game = i + 1, False
    close(len(lines))
    return games


class Verdict:
    """One tool's reading of one game."""

    def __init__(self, flagged, plies, first_bad=None, detail=""):
        self.flagged = flagged
        self.plies = plies
        self.first_bad = first_bad  # 1-based ply of the first bad main-line move
        self.detail = detail

    def __str__(self):
        if not self.flagged:
            return f"ok, {self.plies} plies"
        return f"error ({self.detail}), {self.plies} plies legal"


def python_chess_verdict(game_text):
    game = chess.pgn.read_game(io.StringIO(game_text))
    if game is None:
        return Verdict(True, 0, None, "python-chess read no game")
    plies = sum(1 for _ in game.mainline())
    if not game.errors:
        return Verdict(False, plies)
    # Reading stops a line at its first bad move, so in a game without variations the
    # first bad ply is the one after the last that was replayed.
    return Verdict(True, plies, plies + 1, str(game.errors[0]))


def xpgn_verdict(obj):
    errors = [d for d in obj.get("diagnostics", []) if d.get("severity") == "error"]
    if not errors:
        return Verdict(False, obj.get("plies"))
    main_line = [d["ply"] for d in errors if d.get("ply") is not None and "variation" not in d]
    first = min(main_line) if main_line else None
    codes = sorted({d.get("code", "?") for d in errors})
    where = f" at ply {first}" if first is not None else ""
    return Verdict(True, obj.get("plies"), first, ",".join(codes) + where)


class XpgnFailed(Exception):
    pass


def run_xpgn(xpgn, path):
    """Runs `xpgn check` on one file; returns its games' verdicts in input order."""
    cmd = [str(xpgn), "check", "--format", "json", "--jobs", "1", "--quiet", str(path)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, encoding="utf-8")
    except OSError as e:
        raise XpgnFailed(f"cannot run {xpgn}: {e}") from e
    if proc.returncode not in (0, 1):
        raise XpgnFailed(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr.strip()}")
    verdicts = []
    for number, line in enumerate(proc.stdout.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise XpgnFailed(f"{path}: xpgn output line {number} is not JSON: {e}") from e
        if obj.get("game") != len(verdicts) + 1:
            raise XpgnFailed(
                f"{path}: xpgn output line {number} has game {obj.get('game')}, "
                f"expected {len(verdicts) + 1}"
            )
        verdicts.append(xpgn_verdict(obj))
    return verdicts


def quiet_worker():
    # python-chess logs every error it collects; the verdicts report them instead.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)


def check_file(path, every, xpgn, disagreements, clean_games, pool):
    """Compares the two tools on every `every`-th game of `path`; returns games compared."""
    text = path.read_text(encoding="utf-8", errors="replace")
    games = split_games(text)
    started = time.monotonic()
    xpgn_verdicts = run_xpgn(xpgn, path)
    xpgn_time = time.monotonic() - started

    started = time.monotonic()
    compared = flagged_py = flagged_xpgn = 0
    found = len(disagreements)
    if len(xpgn_verdicts) != len(games):
        disagreements.append(
            f"{path.name}: python-chess split {len(games)} games, xpgn read {len(xpgn_verdicts)}"
        )
    indices = range(0, min(len(games), len(xpgn_verdicts)), every)
    python_verdicts = pool.map(
        python_chess_verdict, [games[i][1] for i in indices], chunksize=512
    )
    for index, ours in zip(indices, python_verdicts):
        line, game_text = games[index]
        theirs = xpgn_verdicts[index]
        compared += 1
        flagged_py += ours.flagged
        flagged_xpgn += theirs.flagged
        if ours.flagged != theirs.flagged or ours.plies != theirs.plies:
            disagreements.append(
                f"{path.name} game {index + 1} (line {line}): python-chess {ours}; xpgn {theirs}"
            )
        elif not ours.flagged:
            clean_games.append(game_text)
    print(
        f"{path.name}: {len(games)} games; compared {compared} (every {every}), "
        f"flagged by python-chess {flagged_py}, by xpgn {flagged_xpgn}; "
        f"{len(disagreements) - found} disagreements "
        f"(python-chess {time.monotonic() - started:.1f} s, xpgn {xpgn_time:.1f} s)",
        flush=True,
    )
    return compared


def main_line_sans(game):
    board = game.board()
    sans = []
    for move in game.mainline_moves():
        sans.append(board.san(move))
        board.push(move)
    return sans


def replays(game, sans):
    """Whether python-chess can play all of `sans` from the game's start."""
    board = game.board()
    try:
        for san in sans:
            board.push_san(san)
    except ValueError:
        return False
    return True


def random_san(rng):
    """A token that reads as SAN but names a random move: a piece letter (or a pawn) and a
    square, sometimes with a capture or a promotion."""
    files = "abcdefgh"
    square = rng.choice(files) + rng.choice("12345678")
    piece = rng.choice(["", "N", "B", "R", "Q", "K"])
    capture = rng.choice(["", "x"]) if piece else ""
    if not piece and rng.random() < 0.3:
        file = files.index(square[0])
        beside = [files[f] for f in (file - 1, file + 1) if 0 <= f < 8]
        return f"{rng.choice(beside)}x{square}"
    if not piece and square[1] in "18":
        return f"{square}={rng.choice('NBRQ')}"
    return f"{piece}{capture}{square}"


def corrupt(sans, game, pool, rng):
    """Returns a copy of `sans` (at least 3 moves) with one move spoiled, and how.

    Tries for a main line that no longer replays: swapping two moves of one side is often
    a mere transposition, and a game that stays legal tests little."""
    for _ in range(20):
        spoiled = list(sans)
        kind = rng.random()
        if kind < 0.4:
            i = rng.randrange(len(sans) - 2)
            spoiled[i], spoiled[i + 2] = sans[i + 2], sans[i]
            how = f"plies {i + 1} and {i + 3} swapped"
        else:
            i = rng.randrange(len(sans))
            spoiled[i] = rng.choice(pool) if kind < 0.7 else random_san(rng)
            how = f"ply {i + 1} {sans[i]} replaced by {spoiled[i]}"
        if not replays(game, spoiled):
            break
    return spoiled, how


def escape_tag(value):
    return value.replace("\\", "\\\\").replace('"', '\\"')


def write_game(game, sans):
    """A PGN game with the tags of `game` (Result set to `*`) and `sans` as its main line."""
    tags = dict(game.headers)
    tags["Result"] = "*"
    out = [f'[{key} "{escape_tag(value)}"]' for key, value in tags.items()]
    board = game.board()
    number, white = board.fullmove_number, board.turn == chess.WHITE
    words = [] if white else [f"{number}..."]
    for san in sans:
        if white:
            words.append(f"{number}.")
        else:
            number += 1
        words.append(san)
        white = not white
    words.append("*")
    movetext = textwrap.fill(
        " ".join(words), width=79, break_on_hyphens=False, break_long_words=False
    )
    return "\n".join(out) + "\n\n" + movetext + "\n\n"


def check_corruptions(count, seed, clean_games, xpgn, disagreements):
    """Spoils `count` of the clean games and checks that both tools agree on them."""
    rng = random.Random(seed)
    games, lines = [], []
    for text in rng.sample(clean_games, len(clean_games)):
        if len(games) == count:
            break
        game = chess.pgn.read_game(io.StringIO(text))
        sans = main_line_sans(game)
        if len(sans) >= 3:  # room to swap two moves of one side
            games.append(game)
            lines.append(sans)
    pool = [san for sans in lines for san in sans if san != "--"]
    written, how = [], []
    for game, sans in zip(games, lines):
        spoiled, change = corrupt(sans, game, pool, rng)
        written.append(write_game(game, spoiled))
        how.append(change)
    CORRUPTED.parent.mkdir(parents=True, exist_ok=True)
    CORRUPTED.write_text("".join(written), encoding="utf-8")
    xpgn_verdicts = run_xpgn(xpgn, CORRUPTED)
    found = len(disagreements)
    if len(xpgn_verdicts) != len(written):
        disagreements.append(
            f"{CORRUPTED.name}: {len(written)} games written, xpgn read {len(xpgn_verdicts)}"
        )
    ours_all = [python_chess_verdict(text) for text in written]
    for index, (ours, theirs) in enumerate(zip(ours_all, xpgn_verdicts)):
        if ours.first_bad != theirs.first_bad or ours.flagged != theirs.flagged:
            disagreements.append(
                f"{CORRUPTED.name} game {index + 1} ({how[index]}): python-chess first bad ply "
                f"{ours.first_bad} ({ours}); xpgn {theirs.first_bad} ({theirs})"
            )
    # Rarely a corrupted game stays legal (see corrupt()); both must then find it clean.
    illegal = sum(ours.flagged for ours in ours_all)
    print(
        f"corruption: {len(written)} games, {illegal} of them illegal for python-chess; "
        f"{len(disagreements) - found} disagreements",
        flush=True,
    )


def parse_file_arg(value):
    name, _, every = value.partition(":")
    try:
        every = int(every) if every else 1
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r}: expected NAME or NAME:K") from None
    if every < 1:
        raise argparse.ArgumentTypeError(f"{value!r}: K must be at least 1")
    return name, every


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--corpus", type=Path, default=ROOT.parent / "shared/corpus/standard", metavar="DIR"
    )
    parser.add_argument(
        "--xpgn", type=Path, default=ROOT / "target/release/xpgn", metavar="PATH"
    )
    parser.add_argument(
        "--files", nargs="+", type=parse_file_arg, metavar="NAME[:K]",
        help="files under --corpus; :K compares every K-th game only (default: every .pgn"
        " file of --corpus, every game)",
    )
    parser.add_argument(
        "--sample", type=int, metavar="K", help="compare every K-th game of every file"
    )
    parser.add_argument(
        "--corrupt", type=int, default=300, metavar="N", help="corrupted games to check (0: none)"
    )
    parser.add_argument(
        "--seed", type=int, help="seed for choosing and corrupting games (default: a fresh one)"
    )
    args = parser.parse_args()
    if args.sample is not None and args.sample < 1:
        parser.error("--sample must be at least 1")
    if not args.xpgn.exists():
        print(f"error: {args.xpgn} not found; build it with cargo build --release", file=sys.stderr)
        return 2

    quiet_worker()
    disagreements, clean_games = [], []
    pool = multiprocessing.Pool(initializer=quiet_worker)
    try:
        compared = 0
        files = args.files or [(path.name, 1) for path in sorted(args.corpus.glob("*.pgn"))]
        for name, every in files:
            path = args.corpus / name
            if not path.is_file():
                print(f"error: {path} not found", file=sys.stderr)
                return 2
            every = args.sample or every
            compared += check_file(path, every, args.xpgn, disagreements, clean_games, pool)
        print(f"differential: {compared} games, {len(disagreements)} disagreements", flush=True)
        if args.corrupt > 0:
            if args.seed is None:
                args.seed = random.SystemRandom().randrange(2**32)
            print(f"corruption seed: {args.seed} (replay with --seed {args.seed})", flush=True)
            check_corruptions(args.corrupt, args.seed, clean_games, args.xpgn, disagreements)
    except XpgnFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    finally:
        pool.close()
    for line in disagreements[:SHOWN]:
        print(f"  {line}")
    if len(disagreements) > SHOWN:
        print(f"  ... and {len(disagreements) - SHOWN} more")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
