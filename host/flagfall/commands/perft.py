"""Count the leaves of the legal-move tree to a depth (perft).

The last line printed is the node count. --divide prints the count below
each first move, one per line, before it.
"""
from __future__ import annotations

import argparse
import sys

from flagfall import games

NAME = "perft"
HELP = "count legal-move tree leaves (chess, chess960, draughts, brazilian, russian, checkers)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="chess, chess960, draughts (international), brazilian, russian or checkers")
    p.add_argument("depth", type=int, help="depth in plies")
    p.add_argument("--fen", help="start from this position (FEN for chess; X-FEN or Shredder-FEN for chess960, "
                   "default its position 518 = the standard array; PDN FEN for draughts)")
    p.add_argument("--divide", action="store_true", help="print the count below each first move")


def run(args: argparse.Namespace) -> int:
    if args.depth < 0:
        print("perft: depth must be 0 or more", file=sys.stderr)
        return 2
    try:
        fam = games.family(args.game)
        n = fam.perft(args.game, args.depth, args.fen, args.divide, sys.stdout)
    except ValueError as e:
        print("perft: %s" % e, file=sys.stderr)
        return 2
    print(n)
    return 0
