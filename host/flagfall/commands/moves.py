"""List the legal moves (or next decisions) in a position, one per line, sorted."""
from __future__ import annotations

import argparse
import sys

from flagfall import games

NAME = "moves"
HELP = "list legal moves of a position"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="chess, chess960, draughts, brazilian, russian, checkers or minzu")
    p.add_argument("--fen", help="position (FEN for chess; X-FEN or Shredder-FEN for chess960; PDN FEN for draughts)")
    p.add_argument("--position", help="minzu tiaoqi position text; for chess960 a start position number 0..959")
    p.add_argument("--size", help="minzu tiaoqi board size: 6, 7, 8, 9, 14 or 7x8")


def run(args: argparse.Namespace) -> int:
    try:
        fam = games.family(args.game)
        opts: dict[str, str] = {}
        if args.size is not None:
            opts["size"] = args.size
        if args.position is not None:
            opts["position"] = args.position
        lines = fam.moves(args.game, args.fen, **opts)
    except ValueError as e:
        print("moves: %s" % e, file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return 0
