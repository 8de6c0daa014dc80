"""The simulator: the real firmware application on CPython, on fake hardware, as a serial device.

Simulator(profile) builds firmware/device/app.py's App on the fake hardware
backend (device/fake/fakehw.py: reed-switch matrix, shift registers, expanders,
TM1637 displays, buttons) exactly as a board profile wires it, runs its loop
in a thread, and exposes the device's serial line as

  * a TCP endpoint (pyserial URL socket://127.0.0.1:7777), and
  * a pseudo-terminal on Linux (/dev/pts/N, a serial port to pyserial),

so `flagfall bridge --port socket://127.0.0.1:7777` connects exactly as to
a board on USB (the line and its endpoints: sim_line.py; a small control page
to click the board and the buttons: sim_web.py). Nothing above the fake pins is simulated: the firmware
scans its matrix, debounces, runs the clock engine and speaks the wire
protocol as it does on a Pico.

The hand is simulated too: lift/place a piece by square, press the clock,
or play moves from a game file with think times and handling noise (the
bridge's virtualboard.py: pieces slid, knocked, adjusted, captures in any
order, late presses). Time runs at `speed` times real time; the firmware's
clock follows the same time source, so a game can be played faster.
"""
from __future__ import annotations

import json
import os
import random
import sys
import threading
import time
from typing import (TYPE_CHECKING, Any, Callable, Iterable, Optional, Protocol, Sequence, TypeVarTuple, Union,
                    Unpack, cast)

# the device package (firmware/device) is installed with flagfall (pyproject.toml)
from device.app import App  # noqa: E402
from device.fake.fakehw import FakeHAL  # noqa: E402

from flagfall import data  # noqa: E402
from flagfall.sim_line import Log, PtyEndpoint, SerialPort, TcpEndpoint

if TYPE_CHECKING:
    from flagcore.clock import Clock
    from flagfall.games.protocol import GameAdapter, Move, Square

Profile = dict[str, Any]
"""A board profile (boards/<name>.json) as loaded from its JSON."""
Pin = Union[int, str]
"""A pin of a board profile: a GPIO number (or a name on some backends)."""
Ts = TypeVarTuple("Ts")


# The device package is not annotated (mypy reads it silently, pyproject.toml): what the simulator uses of
# its fake hardware and of the firmware application, as protocols, and its two classes as typed factories.
class FakePin(Protocol):
    level: int


class FakeBoard(Protocol):
    """The sensor side of device.fake.fakehw.FakeBoard: one occupancy byte per sensor index."""

    n: int
    occ: bytearray

    def place(self, sensor: int) -> None: ...
    def lift(self, sensor: int) -> None: ...
    def set_all(self, bits: Sequence[int]) -> None: ...


class FakeHardware(Protocol):
    """What the simulator uses of device.fake.fakehw.FakeHAL."""

    pins: dict[Pin, FakePin]

    def attach_profile(self, profile: Profile) -> FakeBoard: ...
    def set_input(self, pin: Pin, level: int) -> None: ...


class DeviceApp(Protocol):
    """What the simulator uses of device.app.App, the firmware application."""

    clock: Clock
    last_error: Optional[str]

    def set_tc(self, text: str) -> None: ...
    def step_guarded(self) -> Optional[str]: ...
    def faces(self) -> tuple[str, str, Sequence[str]]: ...


_new_hal = cast("Callable[..., FakeHardware]", FakeHAL)          # FakeHAL(now=0, time_source=None)
_new_app = cast("Callable[[Profile, FakeHardware, SerialPort], DeviceApp]", App)   # App(profile, hal, stream)


def default_profile(game: str) -> Optional[str]:
    """The board profile the simulator uses for a game (GameSpec.sim_profile), or None."""
    from flagfall.games import registry
    return registry.spec(game).sim_profile or None
PRESS_HOLD_MS = 80     # a finger stays on a button longer than its debounce window


def load_profile(name: str) -> Profile:
    """A board profile by name (boards/<name>.json, from the package data) or by the path of a .json file."""
    if name.endswith(".json") or os.sep in name:
        try:
            with open(name) as f:
                profile: Profile = json.load(f)
                return profile
        except FileNotFoundError:
            raise ValueError("no board profile file %s" % name) from None
    if name not in data.names("boards"):
        raise ValueError("no board profile %r (profiles: %s)" % (name, ", ".join(data.names("boards"))))
    found: Profile = data.read_json("boards", name)
    return found


def profile_game(profile: Profile) -> str:
    """The game a profile's board is built for (its registry name)."""
    from flagfall.games import registry
    return registry.spec(profile.get("game", "chess")).name


class Simulator:
    """One simulated clock-and-board device (see the module docstring)."""

    def __init__(self, profile: Union[str, Profile] = "pico-chess", speed: float = 1.0, tc: Optional[str] = None,
                 fen: Optional[str] = None, seed: Optional[int] = None, noise: float = 0.1,
                 log: Optional[Log] = None, step_ms: int = 4, game: Optional[str] = None) -> None:
        self.profile = load_profile(profile) if isinstance(profile, str) else profile
        self.game = profile_game(self.profile)
        if game is not None:
            # another game on this board (chess960 on a chess board, russian on a checkers board)
            from flagfall.games import registry
            spec = registry.spec(game)
            b = self.profile["board"]
            if (b["rows"], b["cols"]) not in spec.board_sizes or b.get("layout", "full") not in spec.layouts:
                raise ValueError("board profile %s (%dx%d %s) does not fit %s" % (
                    self.profile.get("name", "?"), b["rows"], b["cols"], b.get("layout", "full"), spec.title))
            self.game = spec.name
        self.speed = float(speed)
        if self.speed <= 0:
            raise ValueError("speed must be above 0")
        self.log: Log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.rng = random.Random(seed)
        self.noise = noise
        self.step_ms = step_ms
        self.t_real0 = time.monotonic()
        self.hal = _new_hal(time_source=self.ticks)
        self.fake = self.hal.attach_profile(self.profile)
        from flagfall.bridge.engine import sensor_map
        from flagfall.games import registry
        self.adapter: GameAdapter = registry.make_adapter(self.game, fen=fen)
        self.start_fen = fen
        b = self.profile["board"]
        smap = sensor_map(self.adapter, b["rows"], b["cols"], b.get("layout", "full"))
        self.sensor_of = {sq: i for i, sq in enumerate(smap) if sq is not None}
        self.set_position(self.adapter.occupancy())
        self.port = SerialPort()
        self.app = _new_app(self.profile, self.hal, self.port)
        if tc:
            self.app.set_tc(tc)
        self.actions: list[tuple[Callable[..., object], tuple[Any, ...]]] = []   # (fn, args) for the loop thread
        self.queued = 0              # hand actions queued so far
        self.applied = 0             # ... and applied by the loop
        self.applied_tick = -1 << 40  # device tick just after the latest were applied and scanned
        self.scanned_tick = 0        # device tick of the latest scan
        self.settle_ms: int = max(self.profile.get("sensors", {}).get("debounce_ms", 0),
                             self.profile.get("buttons", {}).get("debounce_ms", 0)) + 1
        self.alock = threading.Lock()
        self.running = False
        self.thread: Optional[threading.Thread] = None
        self.endpoints: list[Union[TcpEndpoint, PtyEndpoint]] = []
        self.moves_played: list[str] = []

    # -- time -------------------------------------------------------------
    def ticks(self) -> int:
        """The device's millisecond ticks: real time times `speed` (wrapped by the HAL)."""
        return int((time.monotonic() - self.t_real0) * 1000 * self.speed)

    def wait(self, device_ms: float) -> None:
        """Sleep for device_ms of device time, and until the device has seen the hand's last action.

        Sped up, one loop step spans many device milliseconds; a hand quicker
        than that would lift and replace a piece between two scans, which no
        real hand does against a device scanning every few milliseconds. So the
        hand waits until its last action was applied and a scan came more than
        the debounce window after it.
        """
        if device_ms > 0:
            time.sleep(device_ms / 1000.0 / self.speed)
        end = time.monotonic() + 1.0
        while (self.running and time.monotonic() < end
               and (self.applied < self.queued or self.scanned_tick - self.applied_tick < self.settle_ms)):
            time.sleep(self.step_ms / 4000.0)

    # -- endpoints --------------------------------------------------------
    def listen_tcp(self, host: str = "127.0.0.1", port: int = 7777) -> TcpEndpoint:
        """Expose the serial line on TCP; returns the endpoint (its url() for pyserial)."""
        ep = TcpEndpoint(self.port, host, port, self.log)
        self.endpoints.append(ep)
        return ep

    def open_pty(self) -> PtyEndpoint:
        """Expose the serial line on a pseudo-terminal; returns the endpoint (its .path)."""
        ep = PtyEndpoint(self.port)
        self.endpoints.append(ep)
        return ep

    # -- the loop ---------------------------------------------------------
    def start(self) -> Simulator:
        """Run the firmware loop in a thread."""
        self.running = True
        self.thread = threading.Thread(target=self._loop, name="sim-loop", daemon=True)
        self.thread.start()
        return self

    def _loop(self) -> None:
        period = self.step_ms / 1000.0
        while self.running:
            with self.alock:
                todo, self.actions = self.actions, []
            for fn, args in todo:
                try:
                    fn(*args)
                except Exception as e:      # a bad hand action must not stop the device
                    self.log("sim: %s failed: %s: %s" % (getattr(fn, "__name__", fn), type(e).__name__, e))
            before = self.ticks()
            last = self.app.last_error
            err = self.app.step_guarded()   # as on the device: an error is reported, the clock goes on
            if err is not None and err != last:
                self.log("sim: firmware error: %s" % err)
            if todo:
                self.applied_tick = self.ticks()    # no later than the scan that first saw them
                self.applied += len(todo)
            self.scanned_tick = before              # no earlier than this step's scan
            time.sleep(period)

    def stop(self) -> None:
        """Stop the loop and close the endpoints."""
        self.running = False
        if self.thread is not None:
            self.thread.join(2)
        for ep in self.endpoints:
            ep.close()

    def _do(self, fn: Callable[[Unpack[Ts]], object], *args: Unpack[Ts]) -> None:
        if self.running:
            with self.alock:
                self.actions.append((fn, args))
                self.queued += 1
        else:
            fn(*args)

    # -- the hand ---------------------------------------------------------
    def square(self, name: Union[str, Square]) -> Square:
        """A game square from its name: 'e4' (chess), '32' (draughts), or a number."""
        if isinstance(name, int):
            return name
        name = str(name).strip()
        try:
            return self.adapter.square(name)
        except ValueError:
            pass
        raise ValueError("square %r: use a square number" % name)

    def sensor(self, sq: Square) -> int:
        """The sensor index under a game square."""
        try:
            return self.sensor_of[sq]
        except KeyError:
            raise ValueError("square %r has no sensor on this board" % (sq,)) from None

    def set_position(self, occupied: Iterable[Square]) -> None:
        """Put pieces on exactly these squares (setting up the board)."""
        bits = [0] * self.fake.n
        for sq in occupied:
            bits[self.sensor(sq)] = 1
        self.fake.set_all(bits)

    def lift(self, sq: Union[str, Square]) -> None:
        """Take the piece off a square."""
        self._do(self.fake.lift, self.sensor(self.square(sq)))

    def place(self, sq: Union[str, Square]) -> None:
        """Put a piece on a square."""
        self._do(self.fake.place, self.sensor(self.square(sq)))

    def occupied(self) -> list[Square]:
        """Game squares with a piece on their sensor."""
        return sorted(sq for sq, i in self.sensor_of.items() if self.fake.occ[i])

    def _set_button(self, name: str, closed: bool) -> None:
        cfg = self.profile["buttons"]
        active_low = cfg.get("active_low", True)
        level = (0 if closed else 1) if active_low else (1 if closed else 0)
        self.hal.set_input(cfg[name], level)

    def press(self, name: str) -> None:
        """Press a clock button: 'white', 'black' (a rocker is flipped to that side), 'start', 'mode'."""
        cfg = self.profile["buttons"]
        if name in ("white", "black") and "rocker" in cfg:
            # the rocker's contact closes when white's side is pressed down
            self._do(self._set_button, "rocker", name == "white")
            return
        if name not in cfg:
            raise ValueError("this board has no %r button (buttons: %s)"
                             % (name, ", ".join(k for k in cfg if k in ("white", "black", "start", "mode", "rocker"))))
        self._do(self._set_button, name, True)
        self.wait(PRESS_HOLD_MS)
        self._do(self._set_button, name, False)

    def _lever_side(self) -> Optional[str]:
        """The side a rocker lever is down on ("white" or "black"), or None without a rocker."""
        cfg = self.profile["buttons"]
        if "rocker" not in cfg:
            return None
        closed = self.hal.pins[cfg["rocker"]].level == (0 if cfg.get("active_low", True) else 1)
        return "white" if closed else "black"

    def next_in_menu(self) -> None:
        """One "next" in the clock's menu: black, or a flip of the rocker to its other side."""
        self.press("white" if self._lever_side() == "black" else "black")
        self.wait(PRESS_HOLD_MS)

    def new_game(self, tc: Optional[str] = None, fen: Optional[str] = None) -> None:
        """The table set for the next game: the lever back on Black's side (White moves first and
        presses its own), while the finished clock ignores it; a fresh clock; the pieces back."""
        if self._lever_side() == "white":
            self.press("black")
            self.wait(PRESS_HOLD_MS)
        if tc:
            self._do(self.app.set_tc, tc)
        self.reset(fen)
        self.wait(200)

    def enter_result(self, result: str) -> None:
        """The players enter a result on the clock (pause, mode, the menu's result entry, start, and
        both players' buttons to confirm): 1-0, 0-1 or 1/2-1/2 as the device's menu words it."""
        from device.arbiter import RESULTS
        if result not in RESULTS:
            raise ValueError("the clock's menu offers %s, not %r" % (", ".join(RESULTS), result))
        from flagcore import clock as clockm
        if self.app.clock.state == clockm.RUNNING:
            self.press("start")
            self.wait(PRESS_HOLD_MS)
        self.press("mode")                 # the menu opens on "edit"
        self.wait(PRESS_HOLD_MS)
        self.next_in_menu()                # bonus
        self.next_in_menu()                # result
        self.press("start")
        self.wait(PRESS_HOLD_MS)
        for _ in range(RESULTS.index(result)):
            self.next_in_menu()
        self.press("start")
        self.wait(PRESS_HOLD_MS)
        # both players confirm it with their own buttons (a rocker: one flip to each side)
        first = "white" if self._lever_side() == "black" else "black"
        self.press(first)
        self.wait(PRESS_HOLD_MS)
        self.press("black" if first == "white" else "white")

    def play(self, move: Union[str, Move], think_ms: Optional[float] = None, noise: Optional[float] = None,
             press: bool = True) -> str:
        """Make a legal move with the hand (lifts and placements with noise), then press the clock.

        move is text in the game's notation or a rules-level move; blocks for the
        move's duration (think time, handling, press delay), in device time.
        """
        from flagfall.bridge import virtualboard as vb
        a = self.adapter
        m = a.parse(move) if isinstance(move, str) else move
        text = a.text(m)
        noise = self.noise if noise is None else noise
        rng = self.rng if noise > 0 else None
        mover = "white" if a.side() == 0 else "black"
        steps = vb.events_for_move(a, m, rng, noise)
        self.wait(vb.think_time(self.rng) if think_ms is None else think_ms)
        for dt, sq, down in steps:
            self.wait(dt)
            if down:
                self._do(self.fake.place, self.sensor(sq))
            else:
                self._do(self.fake.lift, self.sensor(sq))
        a.push(m)
        self.moves_played.append(text)
        if press:
            self.wait(vb.press_delay(rng, noise))
            self.press(mover)
        return text

    def reset(self, fen: Optional[str] = None) -> None:
        """A fresh start position on the board and the rules (the clock is left alone)."""
        from flagfall.games import registry
        self.adapter = registry.make_adapter(self.game, fen=fen)
        self.moves_played = []
        self._do(self.set_position, self.adapter.occupancy())

    def faces(self) -> tuple[str, str, Sequence[str]]:
        """What the clock's displays show: (white text, black text, status lines)."""
        return self.app.faces()


def play_game(sim: Simulator, texts: Iterable[str], stop: Optional[Callable[[], bool]] = None,
              think_ms: Optional[float] = None, on_move: Optional[Callable[[int, str], object]] = None) -> int:
    """Play a list of move texts on a simulator (blocking); returns how many were played."""
    n = 0
    for t in texts:
        if stop is not None and stop():
            break
        text = sim.play(t, think_ms=think_ms)
        n += 1
        if on_move:
            on_move(n, text)
    return n


def game_moves(game: str, path: str, index: int = 0) -> tuple[dict[str, str], list[str], Optional[str]]:
    """(tags, move texts, result) of game number `index` in a PGN/PDN file."""
    from flagfall.bridge.replay import load_games
    for i, g in enumerate(load_games(game, path, limit=index + 1)):
        if i == index:
            return dict(g.tags), list(g.texts), g.result
    raise ValueError("%s has no game number %d" % (path, index + 1))
