"""FIDE's standard for electronic clocks (in force from 1 March 2026), point by point, on the real
app, menu and fake hardware (docs/clock.md, the FIDE table). Runs under pytest and MicroPython."""

import sys

from device.app import App, HOLD_MS, SNAPSHOT
from device.fake.fakehw import FakeHAL, FakeStream, voltage
from device.presets import PRESETS
from flagcore import battery as batmod
from flagcore import clock as clockmod
from flagcore import display
from flagcore.clock import Clock, BLACK, WHITE
from mptest import raises
from test_app import Rig, last, profile

MIN = 60000
HOUR = 3600000


# -- the battery ---------------------------------------------------------------------------------

def test_level_curve_and_its_inverse():
    curve = batmod.CURVES["li-ion"]
    last_pct = -1
    for mv in range(2900, 4301, 25):
        p = batmod.level(mv, curve)
        assert 0 <= p <= 100 and p >= last_pct       # never falls as the voltage rises
        last_pct = p
    assert batmod.level(4200, curve) == 100 and batmod.level(3000, curve) == 0
    for pct in range(0, 101):
        assert abs(batmod.level(voltage(pct, curve), curve) - pct) <= 1


class _Pin:
    def __init__(self, mv):
        self.mv = mv

    def read_u16(self):
        return (self.mv * 65535 + 1650) // 3300


def test_gauge_smooths_and_the_low_signal_does_not_flicker():
    curve = batmod.CURVES["li-ion"]
    pin = _Pin(voltage(60, curve) // 3)
    g = batmod.Gauge(pin, {"divider": 3, "low_pct": 25})
    assert g.read() and 58 <= g.pct <= 60 and not g.low
    pin.mv = voltage(20, curve) // 3          # a sudden dip (the buzzer): one reading moves little
    g.read()
    assert g.pct > 50 and not g.low
    for _ in range(40):
        g.read()
    assert g.pct <= 21 and g.low
    pin.mv = voltage(28, curve) // 3          # just above the threshold: the signal stays
    for _ in range(40):
        g.read()
    assert 25 < g.pct < 25 + batmod.RECOVER_PCT and g.low
    pin.mv = voltage(90, curve) // 3          # charged: it clears
    for _ in range(40):
        g.read()
    assert not g.low
    raises(ValueError, batmod.Gauge, pin, {"chemistry": "lead", "low_pct": 25})


def test_the_fake_battery_drains_to_the_low_signal_shown_on_faces_and_frames():
    r = Rig("esp32-chess")
    boot = r.frames()
    r.send("TC", ["-"])                                  # counting up: no flag, no low-time beep
    low = r.p["battery"]["low_pct"]
    assert boot[0][2][7:9] == [100, low]                  # HELLO: level and threshold (then the revision)
    assert last(boot, "CLK")[2][10:] == [100, 0, -1]      # CLK: level, low, no second flag
    # a cell that empties in 2 hours of fake time; on the qemu port (tools/mcu.py, an emulated Cortex-M, where
    # these 6,000 passes took half of this module's time) in 30 minutes: the same signal in a quarter of them
    r.hal.battery.hours = 0.5 if sys.platform == "qemu" else 2.0
    r.send("START", ["white"])
    beeps = r.app.buzzer.count
    seen_low = None
    for _ in range(100):                                  # 100 minutes of play, a CLK frame every second
        for _ in range(6):                                # read every 10 s (a minute's frames held at once
            r.run(10000, step=1000)                       # took 9 KB in one block: tools/mcu.py's heap)
            for f in r.frames():
                if f[1] == "CLK" and f[2][11] and seen_low is None:
                    seen_low = f[2][10]
        if seen_low is not None:
            break
    assert seen_low is not None and seen_low <= low       # the signal came at the threshold
    assert r.hal.battery.pct() <= low + 2                 # ... when the cell got there (smoothing lags a little)
    assert r.app.buzzer.count == beeps + 1
    assert r.app.displays[0].lines[-1].startswith("BATTERY LOW")
    assert r.app.clock.state == clockmod.RUNNING          # the clock keeps running


def test_the_battery_is_read_whatever_the_tick_at_boot():
    for boot in (1000, (1 << 29) + 5, (1 << 30) - 300):      # before, past half of and at the wrap
        r = Rig("esp32-chess", now=boot)
        r.hal.battery.set(50)
        r.run(60000, step=500)
        assert 45 <= r.app.battery.pct <= 51, (boot, r.app.battery.pct)


def test_the_level_on_the_4_digit_faces_in_the_settings_view():
    r = Rig("pico-draughts10", chess_start=False)
    r.hal.battery.set(73)
    r.run(120000, step=500)                # enough readings for the smoothing
    r.send("TC", ["50/7200:25/3600"])
    r.send("START", ["white"])
    r.run(1000)
    r.click("mode")                        # mid-game, the clock running
    pages = [r.faces()]
    for _ in range(3):
        r.run(1500, step=50)
        pages.append(r.faces())
    assert pages[0] == ("P  1", "P  1")
    assert pages[1] == ("N 50", "N 50")
    assert pages[2] == ("I  0", "I  0")
    assert pages[3][0] == "BATT" and 71 <= int(pages[3][1]) <= 73
    r.run(1500, step=50)
    assert r.faces()[0] != "BATT"          # back to the times
    assert r.app.clock.state == clockmod.RUNNING


# -- a power loss ------------------------------------------------------------------------------------

def _reboot(r, after_ms):
    """The device loses power and boots again `after_ms` later: the same store, fresh everything else."""
    hal = FakeHAL(now=r.hal.now + after_ms)
    hal.files = r.hal.files
    hal.attach_profile(r.p)
    for i in list(range(16)) + list(range(48, 64)):
        hal.board.place(i)
    r.hal = hal
    r.st = FakeStream()
    r.app = App(r.p, hal, r.st)
    return r.app


def test_a_power_loss_mid_game_resumes_paused_with_the_times_kept():
    r = Rig("esp32-chess")
    r.send("TC", ["900+10"])
    r.click("black")                       # black presses: white's clock runs
    for side in ("white", "black", "white", "black", "white"):
        r.run(7000)
        r.click(side)
    r.run(4000)                            # black thinks for 4 s, then the power fails
    before = r.app.clock
    saved = r.hal.files[SNAPSHOT]
    app = _reboot(r, 60000)
    c = app.clock
    assert c.state == clockmod.PAUSED and c.to_move == BLACK
    assert c.moves == before.moves and c.remaining[WHITE] == before.remaining[WHITE]
    # black loses no more than what ran since the last save (every event, and every 10 s running)
    assert 0 <= c.remaining[BLACK] - before.remaining[BLACK] <= 10000
    assert saved.split("|")[3:] == c.snapshot().split("|")[3:]     # all but the state: running, now paused
    boot = r.frames()
    assert last(boot, "CLK")[2][1] == clockmod.PAUSED and "FLAG" not in [f[1] for f in boot]
    # start resumes the side that was on move, and adds no increment
    left = list(c.remaining)
    r.click("start")
    assert c.state == clockmod.RUNNING and c.to_move == BLACK
    assert c.remaining[WHITE] == left[WHITE] and left[BLACK] - 80 <= c.remaining[BLACK] <= left[BLACK]
    r.run(2000)
    r.click("black")                       # black's move: the increment comes with the move, once
    assert c.to_move == WHITE and c.moves[BLACK] == before.moves[BLACK] + 1
    assert c.allotted[BLACK] == c.used[BLACK] + c.remaining[BLACK]


def test_a_resumed_clock_restarts_the_right_side_and_adds_no_increment():
    c = Clock("300+5")
    c.start(WHITE, 0)
    c.press(WHITE, 10000)                  # white +5 s
    c.pause(14000)                         # in black's turn
    before = (list(c.remaining), list(c.allotted), list(c.moves))
    c.resume(60000)
    assert c.to_move == BLACK and c.state == clockmod.RUNNING
    assert (c.remaining, c.allotted, c.moves) == (before[0], before[1], before[2])
    c.update(61000)
    assert c.remaining[BLACK] == before[0][BLACK] - 1000 and c.remaining[WHITE] == before[0][WHITE]


# -- both flags ------------------------------------------------------------------------------------

def test_both_flags_fall_and_the_clock_shows_which_fell_first():
    r = Rig("pico-draughts10", chess_start=False)
    r.send("TC", ["W10-B15"])
    r.send("START", ["white"])
    r.frames()
    r.run(10500, step=50)                  # white's flag falls at 10 s
    r.run(500)
    r.click("white")                       # play goes on: white completes the move, black's clock runs
    c = r.app.clock
    assert c.state == clockmod.RUNNING and c.to_move == BLACK and c.moves == [1, 0]
    assert c.remaining[WHITE] == 0         # nothing earned after the flag
    r.run(16000, step=50)
    f = r.frames()
    flags = [x[2][1:] for x in f if x[1] == "FLAG"]
    assert [x[0] for x in flags] == [WHITE, BLACK] and flags[0][1] < flags[1][1]
    clk = last(f, "CLK")[2]
    assert clk[1] == clockmod.FLAGGED and clk[5] == WHITE and clk[12] == BLACK
    assert r.faces() == ("FL 1", "FL 2")
    assert display.line(c, 0).startswith("F1 ") and display.line(c, 1).startswith("F2 ")
    # a restore keeps both, the first still first
    rc = clockmod.restore(c.snapshot(), 0)
    assert rc.flag == WHITE and rc.second_flag() == BLACK and rc.flags == c.flags
    # nothing runs any more
    r.click("black")
    r.click("white")
    assert c.state == clockmod.FLAGGED and c.flag == WHITE


def test_with_an_increment_the_clock_freezes_at_the_flag():
    r = Rig("pico-draughts10", chess_start=False)
    r.send("TC", ["10+2"])
    r.send("START", ["white"])
    r.run(11000, step=50)
    r.click("white")
    c = r.app.clock
    assert c.state == clockmod.FLAGGED and c.moves == [0, 0] and c.second_flag() is None


# -- arbiter corrections within 60 s ------------------------------------------------------------------

def _digit_presses(now, want, wrap):
    """The presses that turn one digit from now to want: white steps down, black up (the fewer)."""
    up = (want - now) % wrap
    return ["black"] * up if up <= wrap - up else ["white"] * (wrap - up)


def _edit_presses(app, targets):
    """Presses in the open edit screen that set {(what, side): value}, then start (apply)."""
    from device import arbiter as menumod
    m = app.menu
    out = []
    field = 0
    for f in range(16):
        what, s, k, d = m.where(f)
        if (what, s) not in targets:
            continue
        want = targets[(what, s)]
        ms = want if what == "time" else 0
        tdig, mdig = menumod.edit_digits(ms, want if what == "moves" else 0)
        goal = (tdig if what == "time" else mdig)[d]
        now = m.digits[k][d]
        steps = _digit_presses(now, goal, menumod.TIME_WRAP[d] if what == "time" else 10)
        if steps:
            out += ["mode"] * (f - field) + steps
            field = f
    return out + ["start"]


def _correct(r, targets):
    """Pause, open the menu's edit screen, set the targets, apply, resume: every press counted."""
    presses = ["start", "mode", "start"]        # pause; the menu opens on "edit"; enter it
    for name in presses:
        r.click(name)
    more = _edit_presses(r.app, targets)
    for name in more:
        r.click(name)
    r.click("start")                            # resume
    return len(presses) + len(more) + 1


def _game(moves=39):
    r = Rig("esp32-chess")
    r.send("TC", ["40/5400:1800"])
    r.send("START", ["white"])
    for _ in range(moves):
        r.run(20000, step=1000)
        r.click("white")
        r.run(17000, step=1000)
        r.click("black")
        r.st.chunks()      # what a host would have read: a device keeps none (tools/mcu.py's heap neither)
    return r


def test_arbiter_corrections_take_fewer_presses_than_60_seconds():
    # 39 moves each, then the usual corrections, each through the real menu at the clock's buttons;
    # docs/clock.md gives these counts as the time at one press a second
    r = _game()
    c = r.app.clock
    assert c.moves == [39, 39] and c.to_move == WHITE
    counts = {}
    w = c.remaining[WHITE]
    counts["add 2 minutes to white"] = _correct(r, {("time", WHITE): (w + 999) // 1000 * 1000 + 2 * MIN})
    assert c.state == clockmod.RUNNING and (w + 999) // 1000 * 1000 + 2 * MIN - c.remaining[WHITE] < 1000
    counts["white's move counter 39 -> 40"] = _correct(r, {("moves", WHITE): 40})
    assert c.moves[WHITE] == 40 and c.period[WHITE] == 1           # the second period's time came with it
    both = "set both times (%s and %s to 0:30:00 and 0:25:00)" % (display.format_ms(c.remaining[WHITE]),
                                                                   display.format_ms(c.remaining[BLACK]))
    counts[both] = _correct(r, {("time", WHITE): 30 * MIN, ("time", BLACK): 25 * MIN})
    assert c.state == clockmod.RUNNING and 30 * MIN - c.remaining[WHITE] < 2000 and c.remaining[BLACK] == 25 * MIN
    for what, n in counts.items():
        print("presses: %s: %d (%d s at one press a second)" % (what, n, n))
        assert n < 60, (what, n)


def test_the_settings_view_shows_mid_game_without_stopping_the_clock():
    r = Rig("esp32-chess")
    r.send("TC", ["40/5400+30:1800+30"])
    r.send("START", ["white"])
    r.run(3000)
    r.click("white")
    t0 = r.app.clock.remaining[BLACK]
    r.click("mode")
    assert r.app.displays[0].lines == ("40/5400+30:1800+30", "W p1/2 n39 +30", "B p1/2 n40 +30",
                                       "battery %d%%" % r.app.battery.pct) and r.app.battery.pct >= 99
    r.run(2000)
    c = r.app.clock
    assert c.state == clockmod.RUNNING and c.remaining[BLACK] < t0 - 2000 and r.app.menu is None
    r.run(5000)
    assert r.app.displays[0].lines[1].startswith("W ") and "p1/2" not in r.app.displays[0].lines[1]
    r.click("mode")
    assert r.app.view is not None
    r.click("black")                       # a player's move: the times come back at once
    assert r.app.view is None and r.app.displays[0].lines[1].startswith("W ")
    # a flag during the view ends it: the flag shows at once
    f = Rig("pico-draughts10", chess_start=False)
    f.send("TC", ["10"])
    f.send("START", ["white"])
    f.run(9000)
    f.click("mode")
    assert f.faces() == ("P  1", "P  1")
    f.run(1500)
    assert f.app.view is None and f.faces()[0] == "00:0 "


# -- stray presses -------------------------------------------------------------------------------

BUTTONS = ("white", "black", "start", "mode")


def _states():
    """(name, rig) for every state a game under way can be in."""
    out = []
    r = Rig("esp32-chess")
    r.send("TC", ["W60-B120"])
    r.send("START", ["white"])
    r.run(3000)
    r.click("white")
    r.run(2000)
    out.append(("running", r))
    p = Rig("esp32-chess")
    p.send("TC", ["300+3"])
    p.send("START", ["white"])
    p.run(2000)
    p.click("white")
    p.click("start")
    out.append(("paused", p))
    f = Rig("esp32-chess")
    f.send("TC", ["10+1"])
    f.send("START", ["white"])
    f.run(12000, step=100)
    out.append(("flagged", f))
    return out


def test_stray_presses_cannot_erase_a_game_under_way():
    # every sequence of four presses (each button, short) from every state of a game under way:
    # the game stays (its control, its moves); a new control needs start held (HOLD_MS). On the qemu port
    # (tools/mcu.py, an emulated Cortex-M: these 768 games took a third of its core tests' time) every
    # sequence of three; the app's code is the same bytecode on every MicroPython.
    depth = 3 if sys.platform == "qemu" else 4
    tried = 0
    for name, r in _states():
        snap = r.app.clock.snapshot()
        tc = r.app.clock.tc.text()
        moves = sum(r.app.clock.moves)
        state = r.app.clock.state
        for i in range(len(BUTTONS) ** depth):
            presses = [BUTTONS[i // len(BUTTONS) ** k % len(BUTTONS)] for k in range(depth)]
            r.app.close_menu()
            r.app.view = None
            r.app.message = None
            r.app.clock = clockmod.restore(snap, r.hal.ticks_ms())
            r.app.clock.play_on = True
            if state == clockmod.RUNNING:
                r.app.clock.resume(r.hal.ticks_ms())
            for x in presses:
                r.click(x)
            r.st.chunks()
            k = r.app.clock
            assert k.tc.text() == tc and sum(k.moves) >= moves and k.state != clockmod.READY, \
                (name, presses, k.tc.text(), k.moves)
            tried += 1
    assert tried == 3 * 4 ** depth


def test_a_new_control_over_a_paused_game_needs_start_held():
    r = Rig("esp32-chess")
    r.send("TC", ["300+3"])
    r.send("START", ["white"])
    r.run(2000)
    r.click("start")                       # paused
    r.click("mode")
    r.click("white")                       # "custom"
    r.click("white")                       # the last preset
    r.click("start")                       # chosen: the menu asks for start held
    assert r.app.menu.erasing() and r.app.displays[0].lines[1] == "hold start: yes"
    assert r.app.clock.tc.text() == "300+3"
    r.hold("start")
    r.run(HOLD_MS // 2)
    assert r.app.clock.tc.text() == "300+3"          # not yet
    r.run(HOLD_MS // 2 + 100)
    r.hold("start", 1)
    r.run(100)
    assert r.app.menu is None and r.app.clock.tc.text() == r.app.presets[-1][1]
    assert r.app.clock.state == clockmod.READY


# -- FMJD's exact controls -----------------------------------------------------------------------

def _preset(name):
    return [tc for n, tc in PRESETS if n == name][0]


def test_fmjd_cumulative_2h_for_50_moves_then_1h_per_25_to_the_millisecond():
    tc = _preset("fmjd-cumulative")
    assert tc == "50/7200:25/3600"
    c = Clock(tc)
    t = 0
    c.start(WHITE, t)
    used = [0, 0]
    think = (61237, 97001)                 # odd times, so a rounding would show
    for move in range(1, 101):
        for s in (WHITE, BLACK):
            t += think[s]
            used[s] += think[s]
            assert c.press(s, t) == clockmod.OK
            extra = 0 if move < 50 else (1 + (move - 50) // 25) * HOUR
            assert c.remaining[s] == 2 * HOUR + extra - used[s], (move, s)
            assert c.allotted[s] == c.used[s] + c.remaining[s]
    # the flag falls at the exact millisecond the time runs out
    t0 = t
    left = c.remaining[WHITE]
    assert c.update(t0 + left - 1) is None
    assert c.update(t0 + left + 5000) == WHITE and c.flag_tick == t0 + left


def test_fmjd_fischer_80_minutes_plus_1_minute_a_move_to_the_millisecond():
    tc = _preset("fmjd-fischer")
    assert tc == "4800+60"
    c = Clock(tc)
    t = 0
    c.start(WHITE, t)
    used = [0, 0]
    think = (83333, 59999)
    for move in range(1, 121):
        for s in (WHITE, BLACK):
            t += think[s]
            used[s] += think[s]
            c.press(s, t)
            assert c.remaining[s] == 80 * MIN + move * MIN - used[s], (move, s)
    assert display.side_view(c, WHITE)["ms"] == c.remaining[WHITE]


def test_every_profile_shows_a_battery_level():
    # FIDE's battery point on every board: the Raspberry Pi through its INA219 (an I2C monitor), the others
    # through an analog pin; the level shown on the text display, or in the 4-digit faces' settings view
    import os
    names = sorted([n[:-5] for n in os.listdir(_boards_dir()) if n.endswith(".json")])
    assert len(names) >= 6, names
    for name in names:
        r = Rig(name, chess_start=False)
        b = r.app.battery
        assert b is not None and 0 < b.pct <= 100, (name, "no battery level")
        if r.hal.tm1637:
            r.click("start")
            r.click("mode")                      # the settings view: its last page is the battery
            r.run(4500, step=500)
            assert r.faces() == ("BATT", "%4d" % b.pct), (name, r.faces())
        else:
            assert r.app.faces()[2][-1] == "battery %d%%" % b.pct, (name, r.app.faces())


def test_a_battery_monitor_that_does_not_answer_shows_an_unknown_level():
    # the Raspberry Pi's INA219 on I2C (here the fake gauge) gone: the level is unknown ("?", -1 to the host),
    # not the last reading, and comes back with the monitor; the 4-digit faces' page would show "  --"
    r = Rig("rpi-chess", chess_start=False)
    cell = r.hal.battery
    level = r.app.battery.pct
    assert 0 < level <= 100 and r.app.faces()[2][-1] == "battery %d%%" % level
    r.hal.battery = None                         # the monitor stops answering
    r.run(2500, step=500)
    assert r.app.battery.pct == -1 and r.app.faces()[2][-1] == "battery ?"
    assert last(r.frames(), "CLK")[2][10:12] == [-1, 0]
    r.hal.battery = cell
    r.run(2500, step=500)
    assert r.app.battery.pct == level and r.app.faces()[2][-1] == "battery %d%%" % level
    from device import view
    assert view.pages(r.app.clock, -1)[-1] == ("BATT", "  --")
    assert view.lines(r.app.clock, -1)[-1] == "battery ?"


def _boards_dir():
    import os
    for base in ("boards", "/boards", "../boards"):
        try:
            os.listdir(base)
            return base
        except OSError:
            pass
    raise OSError("boards/ not found")
