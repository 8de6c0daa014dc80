"""The clock's faces in a terminal, as a player sees them: the device's app on the fake hardware, the
buttons pressed one by one, and after each press the two 4-digit faces drawn from the segments the
TM1637 models decoded (or the text display's lines). `flagfall clock --walk` prints it, so a set-up from
the clock's own buttons can be walked without a device (docs/clock.md shows the FIDE standard control).

A walk is button names separated by spaces: white, black, start, mode (a rocker profile: rocker);
NAME*N presses it N times; hold:NAME:MS holds it MS milliseconds (start held over a game under way,
or white/black held for key repeat).
"""
from __future__ import annotations

from typing import Any, Iterator

from device.app import App
from device.fake.fakehw import FakeHAL

from flagfall.sim import load_profile

# the firmware's classes carry no annotations (MicroPython code): used here as Any
_new_hal: Any = FakeHAL
_new_app: Any = App

PRESS_MS = 40          # a press held this long, then released as long: one press for the debounce
STEP_MS = 10

# 7-segment bits: a=1 (top) b=2 (upper right) c=4 (lower right) d=8 (bottom) e=16 (lower left)
# f=32 (upper left) g=64 (middle); bit 7 of the second digit lights the colon
_A, _B, _C, _D, _E, _F, _G = 1, 2, 4, 8, 16, 32, 64


def digits(segs: bytes | bytearray) -> list[str]:
    """Three text rows drawing four 7-segment digits (and the colon) from their segment bytes."""
    rows = ["", "", ""]
    for i in range(4):
        s = segs[i]
        rows[0] += " %s " % ("_" if s & _A else " ")
        rows[1] += "%s%s%s" % ("|" if s & _F else " ", "_" if s & _G else " ", "|" if s & _B else " ")
        rows[2] += "%s%s%s" % ("|" if s & _E else " ", "_" if s & _D else " ", "|" if s & _C else " ")
        if i == 1:
            colon = segs[1] & 0x80
            rows[0] += " "
            rows[1] += "." if colon else " "
            rows[2] += "." if colon else " "
        elif i < 3:
            for k in range(3):
                rows[k] += " "
    return rows


class Walk:
    """A device booted on the fake hardware of a profile; press() a button, faces() draws them."""

    def __init__(self, profile: str, now: int = 1000) -> None:
        self.profile = load_profile(profile)
        self.hal = _new_hal(now=now)
        self.hal.attach_profile(self.profile)
        self.app = _new_app(self.profile, self.hal, None)
        self.presses = 0

    def _run(self, ms: int) -> None:
        for _ in range(ms // STEP_MS):
            self.hal.advance(STEP_MS)
            self.app.step()

    def press(self, name: str, hold_ms: int = PRESS_MS) -> None:
        """Press a button of the profile (held hold_ms) and release it."""
        pin = self.profile["buttons"].get(name)
        if pin is None:
            raise ValueError("profile %s has no %r button (%s)" % (
                self.profile["name"], name, ", ".join(k for k in self.profile["buttons"] if k in
                                                      ("white", "black", "start", "mode", "rocker"))))
        if name == "rocker":                 # a flip: the lever to its other side
            level = self.hal.pins[pin].level
            self.hal.set_input(pin, 1 - level)
            self._run(2 * hold_ms)
        else:
            self.hal.set_input(pin, 0)
            self._run(hold_ms)
            self.hal.set_input(pin, 1)
            self._run(PRESS_MS)
        self.presses += 1

    def faces(self) -> list[str]:
        """The faces now: two 4-digit displays side by side (white's left), or the text display's lines."""
        tm = self.hal.tm1637
        if tm:
            w = digits(tm["white"].segments) if "white" in tm else ["", "", ""]
            b = digits(tm["black"].segments) if "black" in tm else ["", "", ""]
            return ["  %s    %s" % (w[k], b[k]) for k in range(3)]
        lines = self.app.displays[0].lines if self.app.displays else ()
        width = max([16] + [len(x) for x in lines])
        return ["+" + "-" * (width + 2) + "+"] + ["| %-*s |" % (width, x) for x in lines] + \
            ["+" + "-" * (width + 2) + "+"]


def parse(walk: str) -> list[tuple[str, int]]:
    """[(button, hold ms)] from a walk's text; ValueError on a bad word."""
    out = []
    for word in walk.split():
        if word.startswith("hold:"):
            parts = word.split(":")
            if len(parts) != 3 or not parts[2].isdigit():
                raise ValueError("hold takes hold:NAME:MS, not %r" % word)
            out.append((parts[1], int(parts[2])))
            continue
        name, _, n = word.partition("*")
        if n and not n.isdigit():
            raise ValueError("a repeated press is NAME*N, not %r" % word)
        out += [(name, PRESS_MS)] * (int(n) if n else 1)
    return out


def walk(profile: str, text: str) -> Iterator[str]:
    """The faces at power-on, then after each press of the walk (a header line, then the faces)."""
    w = Walk(profile)
    yield "power-on (%s)" % profile
    yield from w.faces()
    for name, hold in parse(text):
        w.press(name, hold)
        yield ""
        yield "press %d: %s%s" % (w.presses, name, "" if hold == PRESS_MS else " held %d ms" % hold)
        yield from w.faces()
    yield ""
    yield "control: %s (%s)" % (w.app.clock.tc.text(), "menu open" if w.app.menu is not None else
                                 "clock " + ("ready" if w.app.clock.state == 0 else "not ready"))
