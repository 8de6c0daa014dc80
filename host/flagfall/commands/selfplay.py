"""Play games between two copies of the computer player and print a summary.

    flagfall selfplay minzu --size 9 --games 100 --seed 1 --record games.txt

Every decision is checked against the legal list and the game's invariants
(pieces on board + captured + in hand = total, phase changes only when the
rules allow, the side to move always has a legal decision until the end);
any failure is reported and the exit status is 1. Turns without a capture
are adjudicated a draw after --quiet-draw turns (an arbiter's draw, rule 70).
Progress goes to stderr on long runs.
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import IO, Optional, TypedDict

NAME = "selfplay"
HELP = "play computer-vs-computer games and summarise them (minzu)"


class Summary(TypedDict):
    """What soak() returns: counts over the games played."""

    size: str
    games: int
    light: int                  # light (first side) wins
    dark: int
    draws: int
    decisions: int
    turns: int
    failures: int               # games with an invariant or legality failure
    endings: dict[int, int]     # rule article of the ending -> games
    first_failures: list[str]   # the first five failures, described
    seconds: float
    kinds: list[int]            # decisions of each kind (flagcore.minzu KIND_NAMES index)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="minzu")
    p.add_argument("--size", default="9", help="board size: 6, 7, 8, 9, 14 or 7x8 (default 9)")
    p.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    p.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (default 1)")
    p.add_argument("--record", metavar="FILE", help="write every game to FILE in the minzu record format")
    p.add_argument("--quiet-draw", type=int, default=100, metavar="N",
                   help="arbiter draw after N turns in a row without a capture (default 100; 0 = never)")
    p.add_argument("--no-check", action="store_true", help="skip the per-decision legality and invariant checks")
    p.add_argument("--options", default="", help="ruleset options, e.g. slide=off,compulsory=on")


def soak(size: int | str, games: int, seed: int = 1, quiet_draw: int = 100, check: bool = True, options: str = "",
         record: Optional[IO[str]] = None, progress: Optional[IO[str]] = None) -> Summary:
    """Play the games; returns a summary dict (and writes records to the open file `record`)."""
    from flagcore import minzu as core
    from flagcore import minzu_player as player
    from flagfall.games import minzu as host

    rules = host.parse_options(options)
    rules.quiet_draw = quiet_draw
    core.parse_size(size)
    s: Summary = {"size": str(size), "games": 0, "light": 0, "dark": 0, "draws": 0, "decisions": 0,
         "turns": 0, "failures": 0, "endings": {}, "first_failures": [], "seconds": 0.0,
         "kinds": [0] * 10}
    t0 = time.time()
    last = t0
    for i in range(games):
        texts: Optional[list[str]] = [] if record is not None else None
        g, n, fails = player.play_game(size, seed + i, rules, check, texts, kinds=s["kinds"])
        s["games"] += 1
        s["decisions"] += n
        s["turns"] += g.turns
        if g.winner == 0:
            s["light"] += 1
        elif g.winner == 1:
            s["dark"] += 1
        else:
            s["draws"] += 1
        s["endings"][g.reason] = s["endings"].get(g.reason, 0) + 1
        if fails:
            s["failures"] += 1
            if len(s["first_failures"]) < 5:
                s["first_failures"].append("game %d (seed %d): %s" % (i + 1, seed + i, fails[0]))
        if record is not None:
            rec = host.record_of(size, texts, g.result or "*", g.reason, rules,
                                 {"Event": "flagfall selfplay", "Round": str(i + 1),
                                  "Light": "flagfall player seed %d" % (seed + i),
                                  "Dark": "flagfall player seed %d" % (seed + i)})
            record.write(host.write_game(rec))
            record.write("\n")
        now = time.time()
        if progress is not None and now - last >= 5:
            last = now
            print("selfplay %s: %d/%d games, %.0f s" % (size, i + 1, games, now - t0), file=progress, flush=True)
    s["seconds"] = time.time() - t0
    return s


def print_summary(s: Summary, out: Optional[IO[str]] = None) -> None:
    """The summary lines of a soak."""
    from flagcore import minzu as core
    out = out or sys.stdout
    g = s["games"] or 1
    print("size: %s" % s["size"], file=out)
    print("games: %d" % s["games"], file=out)
    print("light wins: %d" % s["light"], file=out)
    print("dark wins: %d" % s["dark"], file=out)
    print("draws: %d" % s["draws"], file=out)
    print("average length: %.1f turns, %.1f decisions" % (s["turns"] / g, s["decisions"] / g), file=out)
    print("decisions: %d" % s["decisions"], file=out)
    print("decision kinds: %s" % ", ".join("%s %d" % (core.KIND_NAMES[k], s["kinds"][k])
                                           for k in range(1, 10)), file=out)
    print("endings: %s" % ", ".join("rule %d: %d" % (k, v) for k, v in sorted(s["endings"].items())), file=out)
    print("invariant failures: %d" % s["failures"], file=out)
    for f in s["first_failures"]:
        print("  %s" % f, file=out)
    print("time: %.1f s" % s["seconds"], file=out)


def run(args: argparse.Namespace) -> int:
    if args.game != "minzu":
        print("selfplay: only minzu has a computer player (got %r)" % args.game, file=sys.stderr)
        return 2
    if args.games < 1:
        print("selfplay: --games must be 1 or more", file=sys.stderr)
        return 2
    rec = None
    try:
        if args.record:
            rec = open(args.record, "w", encoding="utf-8")
        s = soak(args.size, args.games, args.seed, args.quiet_draw, not args.no_check, args.options,
                 rec, sys.stderr if args.games > 1 else None)
    except ValueError as e:
        print("selfplay: %s" % e, file=sys.stderr)
        return 2
    finally:
        if rec is not None:
            rec.close()
    print_summary(s)
    return 1 if s["failures"] else 0
