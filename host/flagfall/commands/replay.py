"""Replay every game of a record file through a virtual board and the real bridge.

Each move becomes the lifts and placements a hand would make (with --noise
SEED: random lift orders, slides, lift-and-return, knocked pieces, removal
orders the rules allow, late clock presses), sent as wire frames to the
bridge engine, which rebuilds the moves from occupancy alone. The
reconstructed records go to stdout (--quiet leaves them out); progress goes
to stderr. The last line is
`replayed G games, M moves, K mismatches (S skipped: 2 null move, 1 illegal move)`
(K counts plies that differ from the source; S the games of the file that
cannot be replayed, each reported on stderr with its reason: a null move,
a variant or start position the engine does not play, an illegal move; the
other games go on). The exit status is 1 if K > 0, 2 if the file cannot be
read or holds no game, else 0 (skipped games alone do not fail the run).
A game the rules end before its source does (mate, dead position, a
draughts draw rule the source ignored) is reported on stderr; its moves
after the end are not replayed and not counted.

FILE is a PGN (chess), PDN (draughts, brazilian, russian, checkers) or minzu
record file (the size comes from its Size tag), or random:N[:SEED] for N
games of random legal play (minzu: give the size, e.g. minzu6).
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:
    from flagfall.records import RecordError

NAME = "replay"
HELP = "replay a PGN/PDN file through a virtual board and the bridge; count mismatches"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="chess, draughts, brazilian, russian, checkers, or minzu (minzu6, minzu7x8 ...)")
    p.add_argument("file", help="PGN/PDN file, or random:N[:SEED]")
    p.add_argument("--noise", type=int, metavar="SEED", help="add realistic handling noise from this seed")
    p.add_argument("--noise-level", type=float, default=0.35,
                   help="probability of each kind of handling per move with --noise (default 0.35)")
    p.add_argument("--limit", type=int, metavar="N", help="replay only the first N games")
    p.add_argument("--no-clock", action="store_true",
                   help="no clock attached: moves are committed when the board settles")
    p.add_argument("--settle-ms", type=int, default=1500, help="settle time without a clock (default 1500)")
    p.add_argument("--quiet", action="store_true", help="do not print the reconstructed records")


def check_random_spec(text: str) -> Optional[str]:
    """None if text is a file name or a well-formed random:N[:SEED]; else what is wrong with it."""
    if not text.startswith("random:"):
        return None
    parts = text.split(":")[1:]
    if 1 <= len(parts) <= 2 and all(p.isdigit() for p in parts):
        return None
    return ("%r: random games are written random:N or random:N:SEED with whole numbers, N the number of "
            "games and SEED the random seed (default 1), e.g. random:10 or random:10:7" % text)


def run(args: argparse.Namespace) -> int:
    from flagfall.bridge import replay
    from flagfall.games import registry
    try:
        registry.lookup(args.game)
    except ValueError as e:
        print("replay: %s" % e, file=sys.stderr)
        return 2
    from flagfall import records
    problem = check_random_spec(args.file)
    if problem:
        print("replay: %s" % problem, file=sys.stderr)
        return 2
    ended = [0, 0]
    skipped: list[tuple[int, RecordError]] = []
    try:
        g, m, k = replay.run(args.game, args.file, seed=args.noise,
                             noise=args.noise_level if args.noise is not None else 0.0,
                             clock=not args.no_clock, limit=args.limit, out=sys.stdout, err=sys.stderr,
                             settle_ms=args.settle_ms, print_records=not args.quiet, stats=ended,
                             skipped=skipped)
    except (OSError, ValueError) as e:
        print("replay: %s" % e, file=sys.stderr)
        return 2
    if ended[0]:
        print("replay: %d games ended by the rules before their source did (%d source moves after "
              "the end not replayed)" % tuple(ended), file=sys.stderr)
    if g == 0 and not skipped and not args.file.startswith("random:") and args.limit != 0:
        print("replay: no game found in %s" % args.file, file=sys.stderr)
        return 2
    detail = records.skip_summary([e.reason for _, e in skipped])
    print("replayed %d games, %d moves, %d mismatches (%d skipped%s)"
          % (g, m, k, len(skipped), ": " + detail if detail else ""))
    return 1 if k else 0
