"""Bring up a newly built board: every sensor, button and display checked, with a pass/fail report.

    flagfall selftest --port /dev/ttyACM0

Puts the device in its self-test mode (the host frame TEST; on the clock
itself: mode, then the menu entry "test") and walks you through it:

  1. the displays show every segment and every pixel for 1.5 s: watch them;
  2. take every piece off, then put a piece (or hold a magnet) on every
     square in turn. Leave the pieces on as you go to test for ghosting,
     then clear the board. The live map ticks each square off once it has
     been seen closed and open ('+'); Enter ends the step early;
  3. press each clock button once (white, black, start, mode);
  4. say whether the displays lit fully (or give --yes).

The live map is in the terminal, and with --web HOST:PORT also on a page
in the browser.

Then the device leaves the test and the summary is printed and saved as
PREFIX.json and PREFIX.txt (--out): every bad sensor by square name and by
wiring (matrix row and column with their pins, 74HC165 chip and input,
MCP23017 address and pin), stuck-closed sensors (closed at the start and
never open), never-closed sensors, matrix rows or columns that never read,
ghosting (squares closing together at corners of a closed rectangle: a diode
missing or reversed), buttons never pressed. Exit status 0 if everything
passed, 1 if not, 2 if the test could not run.

Try it on the simulator with a broken board:

    flagfall sim --fault stuck:e4 --fault dead-row:3 --fault no-diode:c7
    flagfall selftest --port socket://127.0.0.1:7777
"""
from __future__ import annotations

import argparse
import json
import os
import select
import sys
import time
from typing import Any, Callable, Optional, TextIO

NAME = "selftest"
HELP = "bring up a newly built board: sensors, buttons and displays checked, pass/fail report saved"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", required=True,
                   help="serial port of the device (/dev/ttyACM0, COM3) or a pyserial URL (socket://127.0.0.1:7777)")
    p.add_argument("--baud", type=int, default=115200, help="serial speed in baud (default 115200, as the firmware)")
    p.add_argument("--profile", help="board profile (a name in boards/ or a .json file) if the device's own "
                                     "profile name is not one of the shipped ones")
    p.add_argument("--out", metavar="PREFIX",
                   help="write the summary to PREFIX.json and PREFIX.txt (default selftest-PROFILE-DATE-TIME in "
                        "the current folder)")
    p.add_argument("--yes", action="store_true",
                   help="answer yes to the display question (the displays lit every segment and pixel)")
    p.add_argument("--idle", type=float, default=120.0, metavar="SECONDS",
                   help="end a step after this long with nothing new (default 120)")
    p.add_argument("--web", metavar="HOST:PORT",
                   help="also show the live map on a page in the browser (e.g. 127.0.0.1:8090; port 0 picks one)")
    p.add_argument("--wait", type=float, default=30.0, metavar="SECONDS",
                   help="give up if no device answers within this long (default 30)")


def _load_profile(name: str) -> dict[str, Any]:
    from flagfall import data
    if name.endswith(".json") or os.sep in name:
        with open(name) as f:
            prof: dict[str, Any] = json.load(f)
        return prof
    if name not in data.names("boards"):
        raise ValueError("the device's profile %r is not a shipped one (%s): give its file with --profile"
                         % (name, ", ".join(data.names("boards"))))
    shipped: dict[str, Any] = data.read_json("boards", name)
    return shipped


def _stdin_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def _enter_pressed() -> Optional[bool]:
    """True if the maker pressed Enter, None at the end of the input (a terminal only; never blocks)."""
    try:
        r, _, _ = select.select([sys.stdin], [], [], 0)
    except (ValueError, OSError, TypeError):
        return False
    if r:
        return True if sys.stdin.readline() else None
    return False


class Walk:
    """The walk-through over an open link: steps, live map, report."""

    def __init__(self, link: Any, session: Any, idle: float, out: TextIO, live: bool,
                 interactive: bool) -> None:
        self.link = link
        self.s = session
        self.idle = idle
        self.out = out
        self.live = live
        self.interactive = interactive
        self.drawn = 0.0
        self.in_test = False       # a CLK with status 'test' seen since the test was (re-)entered
        self.reentered = 0

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def pump(self) -> bool:
        """Take the frames waiting; True if something new came."""
        new = False
        for f in self.link.poll():
            if f[1] == "CLK":
                if f[2][8] == "test":
                    self.in_test = True
                elif self.in_test:         # mode pressed three times in a row on the device: back in
                    self.in_test = False
                    self.reentered += 1
                    self.link.send("TEST", [1])
                    self.s.log.append("the device left its self-test (mode three times in a row): entered again")
                    if not self.live:
                        self.say("  " + self.s.log[-1])
            lines = self.s.feed(f)
            if f[1] in ("SQ", "BTN") or lines:
                new = True
            if not self.live:
                for line in lines:
                    self.say("  " + line)
        return new

    def draw(self, head: str, force: bool = False) -> None:
        if not self.live or (not force and time.monotonic() - self.drawn < 0.2):
            return
        self.drawn = time.monotonic()
        ticked, total = self.s.progress()
        recent = self.s.log[-4:]
        self.out.write("\x1b[H\x1b[J%s\n\n%s\n\n%d of %d squares ticked; buttons pressed: %s\n%s\n" % (
            head, self.s.map_text(), ticked, total, ", ".join(sorted(self.s.buttons)) or "none",
            "\n".join("  " + x for x in recent)))
        self.out.flush()

    def step(self, head: str, done: Callable[[], bool]) -> str:
        """Pump frames until done(), nothing new for `idle` seconds, or Enter; returns why it ended."""
        last = time.monotonic()
        self.draw(head, True)
        while True:
            if self.pump():
                last = time.monotonic()
                self.draw(head)
            if done():
                self.draw(head, True)
                return "done"
            if time.monotonic() - last > self.idle:
                return "idle"
            if self.interactive:
                key = _enter_pressed()
                if key is None:
                    self.interactive = False      # the input ended: no Enter will come
                elif key:
                    return "enter"
            time.sleep(0.02)


def run(args: argparse.Namespace) -> int:
    from flagfall import serial_link
    from flagfall import selftest as st
    out = sys.stdout
    give_up = time.monotonic() + args.wait
    wait_for_device: Any = serial_link.wait_for_device       # (typed or not: the serial link is being annotated)
    link = wait_for_device(args.port, args.baud, log=lambda t: print("selftest: " + t, file=sys.stderr),
                           stop=lambda: time.monotonic() > give_up)
    if link is None:
        print("selftest: no device answered on %s within %.0f s" % (args.port, args.wait), file=sys.stderr)
        return 2
    try:
        return _run(link, args, st, out)
    except (serial_link.LinkError, ValueError, OSError) as e:
        print("selftest: %s" % e, file=sys.stderr)
        return 2
    finally:
        link.close()


def _hello(link: Any, timeout: float = 5.0) -> list[Any]:
    link.send("REQ", ["hello"])
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for f in link.poll():
            if f[1] == "HELLO":
                fields: list[Any] = f[2]
                return fields
        time.sleep(0.01)
    raise ValueError("the device does not say HELLO")


def _run(link: Any, args: argparse.Namespace, st: Any, out: TextIO) -> int:
    from flagfall import serial_link
    hello = _hello(link)
    profile = _load_profile(args.profile or hello[2])
    rows, cols = st.sensor_grid(profile)
    if (rows, cols) != (hello[4], hello[5]):
        raise ValueError("the device scans %dx%d sensors, profile %s has %dx%d: give the right one with --profile"
                         % (hello[4], hello[5], profile.get("name"), rows, cols))
    session = st.Session(profile)
    if args.web:
        host, _, port = args.web.rpartition(":")
        if not port.isdigit() or int(port) > 65535:
            raise ValueError("--web wants HOST:PORT (got %r)" % args.web)
        print("selftest: live map on %s" % st.serve_web(session, host or "127.0.0.1", int(port)), flush=True)
    interactive = _stdin_tty()
    live = interactive and out.isatty()
    walk = Walk(link, session, args.idle, out, live, interactive)
    try:
        link.request("TEST", [1])
    except serial_link.LinkError as e:
        if "unknown frame kind" in str(e) or "not accepted" in str(e):
            raise ValueError("the device's firmware %s has no self-test: flash a newer one (make deploy)"
                             % hello[0]) from None
        raise
    walk.say("Self-test of %s (%s, firmware %s): %d sensors." % (profile.get("name"), profile.get("game"),
                                                                 hello[0], session.n))
    try:
        _steps(walk, session, profile, args, interactive, live, st)
    except KeyboardInterrupt:
        walk.say("\ninterrupted: the report covers what was seen so far")
    walk.pump()
    try:
        link.request("TEST", [0])
    except Exception as e:     # noqa: BLE001 - the report matters more than a lost ACK
        print("selftest: leaving the test: %s" % e, file=sys.stderr)
    rep = session.report()
    text = st.report_text(rep, session.map_text(final=True))
    prefix = args.out or "selftest-%s-%s" % (profile.get("name", "board"), time.strftime("%Y%m%d-%H%M%S"))
    with open(prefix + ".json", "w") as f:
        json.dump(rep, f, indent=1)
        f.write("\n")
    with open(prefix + ".txt", "w") as f:
        f.write(text)
    walk.say("")
    out.write(text)
    walk.say("saved %s.json and %s.txt" % (prefix, prefix))
    return 0 if rep["result"] == "pass" else 1


def _steps(walk: Walk, session: Any, profile: dict[str, Any], args: argparse.Namespace, interactive: bool,
           live: bool, st: Any) -> None:
    """The maker's steps: displays, every square, buttons, the display question."""
    walk.say("1. The displays show every segment (88:88) and every pixel now, for 1.5 s: watch them.")
    end = time.monotonic() + 1.6
    while time.monotonic() < end:
        walk.pump()
        time.sleep(0.02)
    head = ("2. Take every piece off, then put a piece (or a magnet) on every square in turn; leave them on\n"
            "   to test for ghosting, then clear the board. '+' ticked, '.' not yet, '#' closed, '!' ghost."
            + ("\n   Enter ends this step." if interactive else ""))
    if not live:
        walk.say(head)
    why = walk.step(head, session.squares_done)
    ticked, total = session.progress()
    walk.say("   squares: %d of %d ticked (%s)" % (ticked, total, {
        "done": "all", "idle": "nothing new for %.0f s" % args.idle, "enter": "ended by Enter"}[why]))
    names = st.expected_buttons(profile)
    head = "3. Press each clock button once: %s." % ", ".join(names)
    if not live:
        walk.say(head)
    walk.step(head, lambda: not session.buttons_missing())
    if args.yes:
        session.display_ok = True
    elif walk.interactive:
        a = input("4. Did every segment and every pixel of the displays light at the start? [y/n] ")
        session.display_ok = a.strip().lower().startswith("y")
    else:
        walk.say("4. Display pattern not confirmed (no terminal to ask: give --yes if it lit fully).")
