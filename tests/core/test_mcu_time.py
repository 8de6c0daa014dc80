"""What a microcontroller build shows and a PC does not: ticks_ms wrapping at 2**30 in the middle of a long
game, floats of single precision, a heap with no room for garbage in the scan loop. These run under
pytest, in MicroPython's WebAssembly build and on the qemu port's Cortex-M3 and Cortex-M0 (tools/mcu.py,
where floats are single precision and ticks come from the MCU's own time module)."""
import gc
import json
import sys

from device.app import App
from device.fake.fakehw import FakeHAL
from flagcore import clock as clockmod
from flagcore import display
from flagcore import timecontrol as tcm
from flagcore.ticks import PERIOD, ticks_add, ticks_diff

# 40 moves in 90 minutes, then 20 moves in 60 minutes, each with 30 s added per move, then 60 minutes for
# the rest of the game with a 5 s (simple, US) delay: FIDE's classical control with a delay at the end
CONTROL = "40/5400+30:20/3600+30:3600d5"
MOVES = 80            # each side's moves: 60 in the first two periods, 20 in the last
HOUR = 3600000


def _think_times():
    """Each move's time in ms, odd milliseconds included: a fixed linear congruential sequence."""
    x = 12345
    out = []
    for _ in range(2 * MOVES):
        x = (1103515245 * x + 12345) & 0x7FFFFFFF
        out.append(1001 + x % 289993)
    return out


def _expected(think):
    """Each side's remaining ms after each of its moves, by the rules of CONTROL in plain integers."""
    periods = [(40, 5400000, "+", 30000), (20, 3600000, "+", 30000), (0, 3600000, "d", 5000)]
    rem = [periods[0][1], periods[0][1]]
    period = [0, 0]
    moves = [0, 0]
    due = [40, 60]
    out = []
    for i, t in enumerate(think):
        s = i & 1
        _, _, kind, bonus = periods[period[s]]
        rem[s] -= t - bonus if kind == "d" and t > bonus else (0 if kind == "d" else t)
        if kind == "+":
            rem[s] += bonus
        moves[s] += 1
        if period[s] < 2 and moves[s] == due[period[s]]:
            period[s] += 1
            rem[s] += periods[period[s]][1]
        out.append(rem[s])
    return out


def test_a_six_hour_game_is_exact_to_the_millisecond_across_the_ticks_wrap():
    think = _think_times()
    expected = _expected(think)
    total = sum(think)
    assert total > 6 * HOUR, total
    start = PERIOD - 2 * HOUR - 321     # ticks_ms wraps to 0 two hours into the game
    c = clockmod.Clock(CONTROL)
    now = start
    c.start("white", now)
    wrapped = False
    for i, t in enumerate(think):
        s = i & 1
        before = c.remaining[s]
        mid = ticks_add(now, t // 2)
        c.update(mid)              # a display refresh half way through the move
        assert ticks_diff(mid, now) == t // 2
        kind = c.tcs[s].period(c.period[s])[2]
        charged = t // 2 - 5000 if kind == tcm.BONUS_DELAY else t // 2
        assert c.remaining[s] == before - (charged if charged > 0 else 0), (i, c.remaining[s], before)
        nxt = ticks_add(now, t)
        wrapped = wrapped or nxt < now
        assert c.press(s, nxt) == clockmod.OK, i
        now = nxt
        assert c.remaining[s] == expected[i], (i, c.remaining[s], expected[i])
        assert type(c.remaining[s]) is int and type(c.used[s]) is int and type(c.last) is int
        assert c.state == clockmod.RUNNING and c.flag is None
    assert wrapped and ticks_diff(now, start) == total
    assert c.moves == [MOVES, MOVES] and c.period == [2, 2]
    assert [c.used[0] + c.used[1]] == [total - sum(min(t, 5000) for i, t in enumerate(think) if i >= 120)]
    # the figures a face shows are made from these integers alone
    assert display.format_ms(c.remaining[0]) == display.format_ms(expected[-2])
    assert display.format_ms(c.remaining[1]) == display.format_ms(expected[-1])


def test_the_floats_here_are_those_of_the_build_the_clock_does_not_use_them():
    # on the qemu port floats are single precision (MICROPY_FLOAT_IMPL=float, as on a Pico or an ESP32):
    # 2**24 + 1 is not a single-precision number. The game above ran on that build with exact figures.
    if sys.platform == "qemu":
        assert float(2 ** 24 + 1) == float(2 ** 24)
    else:
        assert float(2 ** 24 + 1) != float(2 ** 24)


def _profile(name):
    for base in ("boards", "/boards", "../boards"):
        try:
            with open(base + "/" + name + ".json") as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("boards/%s.json not found" % name)


PROFILES = ("pico-chess", "pico-checkers", "pico-draughts10", "pico-minzu14", "esp32-chess", "rpi-chess")


def test_each_profiles_scan_and_debounce_pass_allocates_nothing():
    """The pass App.step() makes for the sensors (the profile's driver fills the scanner's bytearray, the
    scanner debounces it) allocates nothing: gc.mem_alloc() is unchanged over 80 passes with pieces placed
    and lifted, on MicroPython (WebAssembly and the qemu port). CPython allocates an object for every
    integer above 256, so there only the events are checked."""
    for name in PROFILES:
        p = _profile(name)
        hal = FakeHAL(now=0)
        board = hal.attach_profile(p)
        app = App(p, hal, None)
        n = app.scanner.n
        for t in range(1, 40):         # settle, then one piece on and off: both paths of the loop
            if t == 10:
                board.place(n - 1)
            if t == 25:
                board.lift(n - 1)
            app.sensor.read_into(app.scanner.raw)
            app.scanner.update(t * 10)
        while app.scanner.pop() is not None:
            pass
        gc.collect()
        gc.disable()
        try:
            before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else None
            for t in range(40, 120):
                if t == 50:
                    board.place(0)
                if t == 90:
                    board.lift(0)
                app.sensor.read_into(app.scanner.raw)
                app.scanner.update(t * 10)
            after = gc.mem_alloc() if hasattr(gc, "mem_alloc") else None
        finally:
            gc.enable()
        if before is not None:
            assert after - before == 0, (name, after - before)
        assert app.scanner.pop() == (0, 1, 500) and app.scanner.pop() == (0, 0, 900), name
