"""Bring-up self-test of a newly built board: what the device reports, judged square by square.

The device's self-test mode (firmware/device/selftest.py, entered by the host
frame TEST 1) reports every settled sensor change as SQ frames and every
button press as BTN, and shows a test pattern on its displays. `Session`
takes those frames (no I/O here; `flagfall selftest` owns the serial line)
and keeps, for every sensor, whether it was seen closed and seen open; from
that it finds

  * stuck-closed sensors: closed at the start and never open;
  * never-closed sensors: a dead reed, a broken joint; when a whole matrix
    row (or column) never closed, the row's line itself (`lines` in the report);
  * ghosting: several squares closing in one scan at the corners of an
    all-closed rectangle (a matrix switch without its diode, or one reversed),
    and the device's own WARN ghost on boards built without diodes;
  * buttons never pressed, and whether the maker saw the display pattern.

Every sensor is named by its square ('e4', '32') and by its wiring: matrix
row and column (with the pins), 74HC165 chip and input, MCP23017 address and
pin, as tools/gen_hardware.py labels them in hardware/<profile>/.
report() gives the pass/fail summary as a dict (saved as JSON) and
report_text() as text.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from flagcore import wire

BUTTON_ORDER = ("white", "black", "start", "mode")


@dataclass(frozen=True)
class Sensor:
    """One sensor: its index, the square above it and where it is wired."""

    index: int
    square: Optional[str]          # the game's square name, None for a sensor under no playing square
    cell: tuple[int, int]          # (row, col) on the board, top row first as the first player sees it
    wiring: str                    # 'R3C4' / '2.D5' / '0A5', as hardware/<profile>/ labels it
    where: str                     # the same in words, pins included
    line: Optional[tuple[int, int]] = None   # matrix (row, col) of the sensor grid, None off a matrix

    def name(self) -> str:
        """'e4 (sensor 36, R4C4)' for messages."""
        sq = self.square if self.square is not None else "no square"
        return "%s (sensor %d, %s)" % (sq, self.index, self.wiring)


def sensor_grid(profile: dict[str, Any]) -> tuple[int, int]:
    """(rows, cols) of the sensor indices: the board, or its dark squares only (cols halved)."""
    b = profile["board"]
    return (b["rows"], b["cols"] // 2) if b.get("layout") == "dark" else (b["rows"], b["cols"])


def _cell(profile: dict[str, Any], k: int) -> tuple[int, int]:
    b = profile["board"]
    if b.get("layout") == "dark":
        half = b["cols"] // 2
        r, i = divmod(k, half)
        return r, 2 * i + (1 if r % 2 == 0 else 0)      # dark squares: (row + col) odd
    r, c = divmod(k, b["cols"])
    return r, c


def wiring(profile: dict[str, Any], k: int) -> tuple[str, str, Optional[tuple[int, int]]]:
    """(label, words, matrix (row, col) or None) of where sensor k is wired."""
    s = profile.get("sensors") or {}
    t = s.get("type")
    if t == "matrix":
        nc = len(s["cols"])
        r, c = divmod(k, nc)
        return ("R%dC%d" % (r, c), "matrix row %d (pin %s), column %d (pin %s)" % (
            r, s["rows"][r], c, s["cols"][c]), (r, c))
    if t == "hc165":
        return ("%d.D%d" % (k // 8, 7 - k % 8),
                "74HC165 chip %d (0 = nearest the MCU), input D%d" % (k // 8, 7 - k % 8), None)
    if t == "mcp23017":
        a = s["addresses"][k // 16]
        i = k % 16
        port = "A" if i < 8 else "B"
        return ("%X%s%d" % (a & 7, port, i % 8), "MCP23017 at 0x%02X, pin GP%s%d" % (a, port, i % 8), None)
    return ("S%d" % k, "sensor %d" % k, None)


def sensor_table(profile: dict[str, Any]) -> list[Sensor]:
    """Every sensor of a profile, by index, with its square name and wiring."""
    from flagfall.games import registry
    rows, cols = sensor_grid(profile)
    b = profile["board"]
    adapter = registry.make_adapter(profile.get("game", "chess"))
    squares = adapter.sensor_map(b["rows"], b["cols"], b.get("layout", "full"))
    out = []
    for k in range(rows * cols):
        sq = squares[k] if k < len(squares) else None
        label, words, line = wiring(profile, k)
        out.append(Sensor(k, None if sq is None else adapter.name(sq), _cell(profile, k), label, words, line))
    return out


def expected_buttons(profile: dict[str, Any]) -> list[str]:
    """The button names the device reports for this profile (a rocker reports white and black)."""
    cfg = profile.get("buttons") or {}
    have = set(k for k in cfg if k in BUTTON_ORDER)
    if "rocker" in cfg:
        have |= {"white", "black"}
    return [n for n in BUTTON_ORDER if n in have]


class Session:
    """What the device reported during one self-test (see the module docstring)."""

    def __init__(self, profile: dict[str, Any]) -> None:
        self.profile = profile
        self.sensors = sensor_table(profile)
        self.n = len(self.sensors)
        self.matrix = (profile.get("sensors") or {}).get("type") == "matrix"
        self.cols = len(profile["sensors"]["cols"]) if self.matrix else 0
        self.now = bytearray(self.n)
        self.start: Optional[bytearray] = None
        self.seen_closed = bytearray(self.n)
        self.seen_open = bytearray(self.n)
        self.ghosts: list[dict[str, Any]] = []
        self.ghost_sensors: set[int] = set()
        self.buttons: dict[str, int] = {}
        self.display_ok: Optional[bool] = None
        self.changes = 0
        self.warnings: list[str] = []
        self.started = time.time()
        self.log: list[str] = []           # what happened, in words (for the terminal)

    # -- frames ---------------------------------------------------------------
    def feed(self, frame: tuple[int, str, list[Any]]) -> list[str]:
        """Take one device frame; returns lines worth telling the maker."""
        _, kind, v = frame
        out: list[str] = []
        if kind == "SNAP":
            if v[1] != self.n:
                raise ValueError("the device reports %d sensors, the profile %s has %d"
                                 % (v[1], self.profile.get("name"), self.n))
            bits = wire.unhexbits(v[2], self.n)
            if self.start is None:
                self.start = bytearray(bits)
            for k in range(self.n):
                self._set(k, bits[k])
        elif kind == "SQ":
            closing = []
            for k, down in v[1:]:
                if k >= self.n:
                    continue
                self.changes += 1
                self._set(k, down)
                s = self.sensors[k]
                if down:
                    closing.append(k)
                out.append("%s %s" % (s.square or "sensor %d" % k, "closed" if down else "opened"))
            if len(closing) > 1 and self.matrix:
                out += self._rectangles(closing, v[0])
        elif kind == "BTN":
            self.buttons[v[1]] = self.buttons.get(v[1], 0) + 1
            out.append("button %s pressed" % v[1])
        elif kind == "WARN":
            if v[0] == "ghost" and v[1] != "cleared":
                ks = [int(x) for x in re.findall(r"\d+", v[1].split(":")[0]) if int(x) < self.n]
                if ks:
                    out.append(self._ghost(ks, [], "device", None))
            elif v[0] != "ghost":
                self.warnings.append("%s: %s" % (v[0], v[1]))
                out.append("device warns: %s: %s" % (v[0], v[1]))
        self.log += out
        return out

    def _set(self, k: int, v: int) -> None:
        self.now[k] = 1 if v else 0
        if v:
            self.seen_closed[k] = 1
        else:
            self.seen_open[k] = 1

    def _rectangles(self, closing: list[int], tick: int) -> list[str]:
        """Squares that closed in one scan at corners of an all-closed rectangle: ghosting."""
        nc = self.cols
        now = self.now
        rows = self.n // nc
        together: set[int] = set()
        corners: set[int] = set()
        for k in closing:
            r, c = divmod(k, nc)
            for r2 in range(rows):
                if r2 == r or not now[r2 * nc + c]:
                    continue
                for c2 in range(nc):
                    if c2 != c and now[r * nc + c2] and now[r2 * nc + c2]:
                        rect = {k, r * nc + c2, r2 * nc + c, r2 * nc + c2}
                        both = [x for x in closing if x in rect]
                        if len(both) > 1:
                            together.update(both)
                            corners |= rect
        if together:
            return [self._ghost(sorted(together), sorted(corners), "rectangle", tick)]
        return []

    def _ghost(self, ks: list[int], corners: list[int], source: str, tick: Optional[int]) -> str:
        names = [self.sensors[k].name() for k in ks]
        self.ghost_sensors.update(ks)
        self.ghosts.append({"sensors": ks, "names": names, "corners": corners, "source": source, "tick": tick})
        if source == "device":
            return "GHOST: the device holds back %s (matrix without diodes)" % ", ".join(names)
        return "GHOST: %s closed together at corners of a closed rectangle %s" % (
            ", ".join(names), " ".join(self.sensors[x].square or str(x) for x in corners))

    # -- progress ---------------------------------------------------------------
    def to_check(self) -> list[int]:
        """Sensors under a playing square (the ones the maker is asked to close)."""
        return [s.index for s in self.sensors if s.square is not None]

    def ticked(self, k: int) -> bool:
        """Seen closed and seen open."""
        return bool(self.seen_closed[k] and self.seen_open[k])

    def squares_done(self) -> bool:
        """Every sensor under a square seen both closed and open."""
        return all(self.ticked(k) for k in self.to_check())

    def progress(self) -> tuple[int, int]:
        """(ticked, to check)."""
        ks = self.to_check()
        return sum(1 for k in ks if self.ticked(k)), len(ks)

    def buttons_missing(self) -> list[str]:
        """Buttons of the profile not pressed yet."""
        return [b for b in expected_buttons(self.profile) if b not in self.buttons]

    def map_text(self, final: bool = False) -> str:
        """The board as the maker sees it: '+' ticked, '#' closed now, '.' not yet, '!' ghost; final: 'S'
        for a sensor closed from the start and never opened (stuck), '.' for one never closed."""
        b = self.profile["board"]
        grid = [[" "] * b["cols"] for _ in range(b["rows"])]
        for s in self.sensors:
            k = s.index
            if s.square is None:
                ch = " "
            elif k in self.ghost_sensors:
                ch = "!"
            elif self.start is not None and self.start[k] and not self.seen_open[k]:
                ch = "S" if final else "#"
            elif self.now[k]:
                ch = "#"
            elif self.ticked(k):
                ch = "+"
            else:
                ch = "."
            r, c = s.cell
            grid[r][c] = ch
        return "\n".join("%2d  %s" % (r, " ".join(grid[r])) for r in range(b["rows"]))

    # -- result -------------------------------------------------------------------
    def lines_dead(self) -> list[str]:
        """Matrix rows or columns none of whose sensors ever closed (the line, not the reeds)."""
        if not self.matrix:
            return []
        s = self.profile["sensors"]
        nc = self.cols
        nr = self.n // nc
        out = []
        check = set(self.to_check())
        for r in range(nr):
            ks = [r * nc + c for c in range(nc) if r * nc + c in check]
            if len(ks) > 1 and not any(self.seen_closed[k] for k in ks):
                out.append("matrix row %d (pin %s): none of its %d sensors ever closed" % (r, s["rows"][r], len(ks)))
        for c in range(nc):
            ks = [r * nc + c for r in range(nr) if r * nc + c in check]
            if len(ks) > 1 and not any(self.seen_closed[k] for k in ks):
                out.append("matrix column %d (pin %s): none of its %d sensors ever closed"
                           % (c, s["cols"][c], len(ks)))
        return out

    def report(self) -> dict[str, Any]:
        """The pass/fail summary as a JSON-ready dict."""
        def entry(k: int, why: str) -> dict[str, Any]:
            s = self.sensors[k]
            d: dict[str, Any] = {"sensor": k, "square": s.square, "wiring": s.wiring, "where": s.where, "fault": why}
            if s.line is not None:
                d["matrix_row"], d["matrix_col"] = s.line
            elif s.wiring[0].isdigit() and "." in s.wiring:
                d["chip"], d["input"] = k // 8, "D%d" % (7 - k % 8)
            return d
        start = self.start or bytearray(self.n)
        bad: list[dict[str, Any]] = []
        for k in self.to_check():
            if start[k] and not self.seen_open[k]:
                bad.append(entry(k, "stuck closed: closed at the start and never opened"))
            elif not self.seen_closed[k]:
                bad.append(entry(k, "never closed"))
        for k in sorted(self.ghost_sensors):
            bad.append(entry(k, "ghost: closed with others at corners of a closed rectangle (a diode missing "
                                "or reversed at one of the corners)"))
        missing = self.buttons_missing()
        display = {True: "ok", False: "FAILED", None: "not confirmed"}[self.display_ok]
        ok = not bad and not missing and self.display_ok is True and self.start is not None
        ticked, total = self.progress()
        return {
            "result": "pass" if ok else "fail",
            "profile": self.profile.get("name"), "game": self.profile.get("game"),
            "sensors": self.n, "checked": total, "ticked": ticked, "changes": self.changes,
            "bad_sensors": bad, "lines": self.lines_dead(), "ghosts": self.ghosts,
            "buttons": {"expected": expected_buttons(self.profile), "pressed": self.buttons, "missing": missing},
            "display": display, "warnings": self.warnings,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.started)),
            "seconds": round(time.time() - self.started, 1),
        }


def report_text(rep: dict[str, Any], board_map: Optional[str] = None) -> str:
    """The summary as text: the verdict first, then every bad sensor by square and wiring."""
    out = ["Flagfall self-test of %s (%s): %s" % (rep["profile"], rep["game"], rep["result"].upper()),
           "sensors: %d ticked of %d (%d changes seen)" % (rep["ticked"], rep["checked"], rep["changes"])]
    if rep["bad_sensors"]:
        out.append("bad sensors:")
        for b in rep["bad_sensors"]:
            out.append("  %-4s sensor %-3d %-6s %s: %s" % (b["square"] or "-", b["sensor"], b["wiring"],
                                                         b["where"], b["fault"]))
    else:
        out.append("bad sensors: none")
    for line in rep["lines"]:
        out.append("line: %s (check its wire and pin)" % line)
    for g in rep["ghosts"]:
        out.append("ghost: %s%s" % (", ".join(g["names"]),
                                    "" if not g["corners"] else " (rectangle corners: sensors %s)"
                                    % " ".join(str(x) for x in g["corners"])))
    bt = rep["buttons"]
    out.append("buttons: %s" % ("all pressed (%s)" % ", ".join(bt["expected"]) if not bt["missing"]
                                else "never pressed: %s" % ", ".join(bt["missing"])))
    out.append("display pattern: %s" % rep["display"])
    for w in rep["warnings"]:
        out.append("device warning: %s" % w)
    if board_map:
        out += ["", "board ('+' ok, '.' never closed, 'S' stuck, '!' ghost, '#' closed at the end):", board_map]
    return "\n".join(out) + "\n"


# -- faults for the simulator (flagfall sim --fault) --------------------------------

FAULT_HELP = ("stuck:SQUARE (a reed that reads closed whatever the hand does), dead-row:N (matrix row N "
              "never reads), no-diode:SQUARE (that matrix switch has no diode: ghosting)")


def apply_faults(sim: Any, specs: Sequence[str]) -> None:
    """Break a Simulator's fake board ('stuck:e4', 'dead-row:3', 'no-diode:c5'; device/fake/faults.py)
    before its start(); ValueError for a fault text or a fault the board cannot have."""
    from device.fake.faults import inject_faults
    kw = parse_faults(sim, specs)
    # the device package is untyped (it runs on MicroPython): the fault injector's signature, here
    inject: Callable[..., None] = inject_faults
    inject(sim.hal, sim.profile.get("sensors"), kw["stuck"], kw["dead_rows"], kw["missing_diodes"])


def parse_faults(sim: Any, specs: Sequence[str]) -> dict[str, list[int]]:
    """device.fake.faults.inject_faults() keywords from texts like 'stuck:e4', 'dead-row:3', 'no-diode:c5' (squares by name)."""
    out: dict[str, list[int]] = {"stuck": [], "dead_rows": [], "missing_diodes": []}
    for spec in specs:
        kind, _, arg = spec.partition(":")
        if not arg:
            raise ValueError("fault %r: use %s" % (spec, FAULT_HELP))
        if kind == "dead-row":
            if not arg.isdigit():
                raise ValueError("fault %r: dead-row takes a matrix row number (0 = the top row)" % spec)
            out["dead_rows"].append(int(arg))
        elif kind in ("stuck", "no-diode"):
            k = int(arg[1:]) if arg.startswith("#") and arg[1:].isdigit() else sim.sensor(sim.square(arg))
            out["stuck" if kind == "stuck" else "missing_diodes"].append(k)
        else:
            raise ValueError("unknown fault %r: use %s" % (spec, FAULT_HELP))
    return out


# -- the live page (flagfall selftest --web) ------------------------------------------

def state(session: Session) -> dict[str, Any]:
    """What the live page shows: the board's cells with their marks, progress, buttons, recent events."""
    b = session.profile["board"]
    marks = session.map_text().splitlines()
    cells = [[line[4 + 2 * c] if 4 + 2 * c < len(line) else " " for c in range(b["cols"])] for line in marks]
    ticked, total = session.progress()
    return {"profile": session.profile.get("name"), "rows": b["rows"], "cols": b["cols"], "cells": cells,
            "ticked": ticked, "total": total, "buttons": sorted(session.buttons),
            "missing": session.buttons_missing(), "log": session.log[-8:], "ghosts": len(session.ghosts)}


WEB_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flagfall self-test</title>
<style>
body{font:15px "DejaVu Sans",sans-serif;margin:1em;background:#f4f4f2}
#b{display:grid;border:2px solid #5d4037;width:min(90vw,480px);aspect-ratio:1}
#b div{display:flex;align-items:center;justify-content:center;font:bold 1.2em monospace;border:1px solid #c8b9a6}
.k{background:#9ccc65}.c{background:#455a64;color:#fff}.n{background:#fff}.g{background:#e53935;color:#fff}
.s{background:#ff9800}.x{background:transparent;border:0}
#log{font-family:monospace;white-space:pre}
</style></head><body><h1>Flagfall self-test</h1>
<p>Green: ticked (seen closed and open). Dark: closed now. White: not seen closed yet. Red: ghost.</p>
<div id="b"></div><p id="p"></p><div id="log"></div>
<script>
"use strict";
const cls = {"+": "k", "#": "c", ".": "n", "!": "g", "S": "s", " ": "x"};
function draw(s) {
  const b = document.getElementById("b");
  b.style.gridTemplateColumns = "repeat(" + s.cols + ",1fr)";
  b.textContent = "";
  for (const row of s.cells) for (const m of row) {
    const e = document.createElement("div");
    e.className = cls[m] || "x";
    e.textContent = m === "+" ? "\\u2713" : m === "!" ? "!" : m === "S" ? "S" : "";
    b.appendChild(e);
  }
  document.getElementById("p").textContent = s.ticked + " of " + s.total + " squares ticked; buttons pressed: " +
    (s.buttons.join(", ") || "none") + (s.missing.length ? "; still to press: " + s.missing.join(", ") : "") +
    (s.ghosts ? "; ghosting seen " + s.ghosts + " times" : "");
  document.getElementById("log").textContent = s.log.join("\\n");
}
function poll() { fetch("api/state").then(r => r.json()).then(draw).finally(() => setTimeout(poll, 300)); }
poll();
</script></body></html>
"""


def serve_web(session: Session, host: str = "127.0.0.1", port: int = 0) -> str:
    """Serve the live page of a session in a thread; returns its URL (raises OSError if the port is taken)."""
    from aiohttp import web

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=WEB_PAGE, content_type="text/html")

    async def api(request: web.Request) -> web.Response:
        return web.json_response(state(session))

    app = web.Application()
    app.router.add_get("/", page)
    app.router.add_get("/api/state", api)
    from flagfall.sim_web import serve_in_thread
    return serve_in_thread(app, host, port, "selftest-web")
