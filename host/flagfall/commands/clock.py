"""Run a scripted clock scenario.

Script lines are `<ms> <event> [args]`, times in ms from the script's start
(non-decreasing); `#` starts a comment. Events:

  start white|black          start the game with that side's clock running
  press white|black          a side presses its button (a press by the side
                             not on move is ignored and reported)
  pause | resume             arbiter stops / restarts the clock; resume also
                             restarts an adjourned game
  adjust white|black +-MS    add or remove time
  time white|black MS        set a side's time (clock stopped: arbiter's edit)
  moves white|black N        correct a move counter
  bonus +|d|b MS             from now on an increment (+), delay (d) or
                             Bronstein delay (b) of MS for both sides
                             (FIDE Guidelines III.4); MS 0 removes it
  illegal white|black POLICY illegal move with a penalty policy from
                             seeds/penalties.json (fide-2000, checkers, minzu, fmjd)
  seal [early]               the side to move seals its move (adjournment)
  result 1-0|0-1|1/2-1/2|0-0|1/2-0|0-1/2 [REASON]
                             the game is decided: the clock stops for good
  reopen                     take the result back (the clock comes back paused)
  show                       print the state at that time

--tc takes any time-control text, a control per side for time odds
("W300-B240", docs/clock.md) or a preset name (armageddon-5-4, ...).
--flag-ends makes a flag decide the game (the clock finishes, as when the
ruleset says a flag loses).

With --json each event prints one JSON object, and a flag falling between
events prints one at the exact tick it fell.

--walk "BUTTONS" runs the device instead (its app on the fake hardware of
--profile) and draws its faces in the terminal after every press, as a player
sees them: e.g. the FIDE standard control entered from the buttons,
  flagfall clock --walk "mode white start start black start ..." (docs/clock.md).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable, Iterator, Optional, TypedDict, Union

from flagcore import clock as ck
from flagcore import display
from flagcore.ticks import ticks_add, ticks_diff, wrap
from flagcore.timecontrol import TimeControl

from flagfall import presets

NAME = "clock"
HELP = "run a scripted clock scenario (every time control)"


Event = tuple[int, int, str, list[str]]
"""A parsed script line: (line number, ms from the start, event word, its arguments)."""


class Record(TypedDict):
    """The state after one event (or a flag fall): a line of text, or one JSON object with --json."""

    t: int
    event: str
    result: str
    white_ms: int
    black_ms: int
    to_move: Optional[str]
    state: str
    moves_white: int
    moves_black: int
    period_white: int
    period_black: int
    flag: Optional[str]
    white_display: str
    black_display: str
    game_result: Optional[str]
    game_reason: Optional[str]
    bonus: Optional[str]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tc", help="time-control text (e.g. 40/9000:16/3600, 300+3) or a preset name")
    p.add_argument("--script", help="scenario file ('-' for standard input)")
    p.add_argument("--walk", metavar="BUTTONS",
                   help="press the device's buttons (white black start mode rocker, NAME*N, hold:NAME:MS) and "
                        "draw its faces after each press, instead of a script")
    p.add_argument("--profile", default="pico-checkers",
                   help="board profile of --walk (default pico-checkers: two 4-digit faces, white and black buttons)")
    p.add_argument("--json", action="store_true", help="one JSON object per event")
    p.add_argument("--base-tick", type=int, default=0,
                   help="tick counter value at script time 0 (to test the 2**30 wrap)")
    p.add_argument("--flag-ends", action="store_true",
                   help="a flag decides the game: the clock finishes with the opponent winning")


class ScriptError(ValueError):
    """A bad script line; the message names the line."""


def parse_script(lines: Iterable[str]) -> list[Event]:
    """[(lineno, ms, event, args)] from script text lines; raises ScriptError."""
    out: list[Event] = []
    last: Optional[int] = None
    for n, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        parts = line.split()
        if len(parts) < 2:
            raise ScriptError("line %d: expected '<ms> <event> [args]', got %r" % (n, raw.rstrip()))
        try:
            ms = int(parts[0])
        except ValueError:
            raise ScriptError("line %d: time %r is not an integer number of ms" % (n, parts[0])) from None
        if ms < 0 or (last is not None and ms < last):
            raise ScriptError("line %d: time %d goes backwards (previous %d)" % (n, ms, last or 0))
        last = ms
        out.append((n, ms, parts[1].lower(), parts[2:]))
    return out


def _record(c: ck.Clock, t: int, event: str, result: str) -> Record:
    w, b = display.view(c)
    return {
        "t": t, "event": event, "result": result,
        "white_ms": c.shown_ms(0), "black_ms": c.shown_ms(1),
        "to_move": ck.SIDE_NAMES[c.to_move] if c.state != ck.READY else None,
        "state": ck.STATE_NAMES[c.state],
        "moves_white": c.moves[0], "moves_black": c.moves[1],
        "period_white": c.period[0] + 1, "period_black": c.period[1] + 1,
        "flag": None if c.flag is None else ck.SIDE_NAMES[c.flag],
        "white_display": w["time"], "black_display": b["time"],
        "game_result": c.result, "game_reason": c.reason, "bonus": c.bonus_text() or None,
    }


def _text(rec: Record) -> str:
    s = "%9d  %-22s %-28s W %-9s B %-9s moves %d-%d" % (
        rec["t"], rec["event"], rec["result"], rec["white_display"], rec["black_display"],
        rec["moves_white"], rec["moves_black"])
    if rec["flag"]:
        s += "  FLAG %s" % rec["flag"]
    if rec["game_result"]:
        s += "  RESULT %s (%s)" % (rec["game_result"], rec["game_reason"])
    return s


def _need(args: list[str], k: int, n: int, what: str) -> None:
    if len(args) < k:
        raise ScriptError("line %d: %s" % (n, what))


def apply_event(c: ck.Clock, now: int, n: int, event: str, args: list[str]) -> str:
    """Apply one script event to clock c at tick now; returns the result text."""
    if event == "start":
        _need(args, 1, n, "start needs a side")
        return c.start(args[0], now)
    if event == "press":
        _need(args, 1, n, "press needs a side")
        return c.press(args[0], now)
    if event == "pause":
        return c.pause(now)
    if event == "resume":
        return c.resume(now)
    if event == "adjust":
        _need(args, 2, n, "adjust needs a side and +-ms")
        try:
            delta = int(args[1])
        except ValueError:
            raise ScriptError("line %d: adjust amount %r is not an integer (ms)" % (n, args[1])) from None
        return c.adjust(args[0], delta, now)
    if event == "moves":
        _need(args, 2, n, "moves needs a side and a count")
        return c.set_moves(args[0], int(args[1]), now)
    if event == "time":
        _need(args, 2, n, "time needs a side and ms")
        return c.set_time(args[0], int(args[1]), now)
    if event == "bonus":
        _need(args, 2, n, "bonus needs a kind (+, d or b) and ms")
        return c.set_bonus(args[0], int(args[1]), now)
    if event == "result":
        _need(args, 1, n, "result needs a result (1-0, 0-1, 1/2-1/2, 0-0, 1/2-0, 0-1/2)")
        return c.finish(args[0], args[1] if len(args) > 1 else ck.BY_ARBITER, now)
    if event == "reopen":
        return c.reopen(now)
    if event == "illegal":
        _need(args, 2, n, "illegal needs a side and a penalty policy")
        bonus, loses_at, warn = presets.penalty_policy(args[1])
        return c.illegal_move(args[0], now, bonus, loses_at, warn)
    if event == "seal":
        early = bool(args) and args[0] == "early"
        if args and not early:
            raise ScriptError("line %d: seal takes only 'early'" % n)
        return c.seal(now, early=early)
    if event == "show":
        c.update(now)
        return ck.OK
    raise ScriptError("line %d: unknown event %r" % (n, event))


def run_script(tc: Union[TimeControl, str], events: Iterable[Event], base_tick: int = 0,
               flag_ends: bool = False) -> Iterator[Record]:
    """Run parsed events on a fresh clock; yields one record dict per event or flag."""
    c = ck.Clock(tc, flag_ends)
    base = wrap(base_tick)
    for n, ms, event, args in events:
        now = ticks_add(base, ms)
        flagged = c.update(now)
        if flagged is not None:
            tick = c.flags[flagged]     # update() sets it before returning the side: never None here
            t_flag = ms if tick is None else ms - ticks_diff(now, tick)
            rec = _record(c, t_flag, "flag", ck.SIDE_NAMES[flagged])
            rec["white_ms"], rec["black_ms"] = c.shown_ms(0), c.shown_ms(1)
            yield rec
        try:
            result = apply_event(c, now, n, event, args)
        except ck.ClockError as e:
            result = "error: %s" % e
        except ValueError as e:
            raise ScriptError("line %d: %s" % (n, e)) from None
        yield _record(c, ms, event + (" " + " ".join(args) if args else ""), result)


def run(args: argparse.Namespace) -> int:
    if args.walk is not None:
        from flagfall import clockwalk
        try:
            for line in clockwalk.walk(args.profile, args.walk):
                print(line)
        except (ValueError, FileNotFoundError) as e:
            print("clock: %s" % e, file=sys.stderr)
            return 2
        return 0
    if args.tc is None or args.script is None:
        print("clock: give --tc and --script (a scripted scenario), or --walk (the device's buttons)", file=sys.stderr)
        return 2
    try:
        tc = presets.time_control(args.tc)
    except ValueError as e:
        from flagfall.commands._hints import tc_hint
        print("clock: %s%s" % (e, tc_hint(args.tc)), file=sys.stderr)
        return 2
    try:
        if args.script == "-":
            lines = sys.stdin.read().splitlines()
        else:
            with open(args.script, encoding="utf-8") as f:
                lines = f.read().splitlines()
    except OSError as e:
        print("clock: cannot read script: %s" % e, file=sys.stderr)
        return 2
    try:
        events = parse_script(lines)
        if not args.json:
            print("time control %s" % tc.text())
        for rec in run_script(tc, events, args.base_tick, args.flag_ends):
            print(json.dumps(rec) if args.json else _text(rec))
    except ScriptError as e:
        print("clock: %s" % e, file=sys.stderr)
        return 2
    return 0
