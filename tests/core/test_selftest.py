"""The device's self-test mode (device/selftest.py) and the fake board's injected faults,
on the fake backend. Runs under pytest and under MicroPython (node tests/mp/run.mjs selftest)."""
import sys

from device.fake.fakehw import FakeHAL
from device.fake.faults import inject_faults
from flagcore import clock as clockmod

from test_app import Rig, last


def enter(r):
    r.frames()
    r.send("TEST", [1])
    f = r.frames()
    assert f[0][1] == "ACK" and f[0][2][1] == "ok", f[0]
    return f


def test_host_starts_the_test_pattern_then_counts():
    r = Rig()
    beeps = r.app.buzzer.count
    f = enter(r)
    assert [x[1] for x in f] == ["ACK", "SNAP", "CLK"]
    assert last(f, "CLK")[2][8] == "test"
    assert "device.selftest" in sys.modules
    assert r.faces() == ("88:88", "88:88")           # every segment and the colon
    assert r.app.buzzer.count == beeps + 1
    r.run(1600)
    assert r.faces() == ("  32", "----")             # 32 closed sensors (chess start), nothing changed yet
    assert r.hal.pins[27].level == 1 and r.hal.pins[28].level == 0   # white LED: something closed
    r.board.lift(0)
    r.run(40)
    assert r.hal.pins[28].level == 1                 # black LED flashes for a change
    r.run(300)
    assert r.hal.pins[28].level == 0


def test_every_change_is_reported_shown_and_beeped():
    r = Rig()
    enter(r)
    r.run(1600)
    beeps = r.app.buzzer.count
    r.board.lift(52)
    r.run(100)
    r.board.place(36)
    r.run(100)
    f = r.frames()
    assert [x[2][1:] for x in f if x[1] == "SQ"] == [[(52, 0)], [(36, 1)]]
    assert r.faces() == ("  32", " 36 ")
    assert r.app.buzzer.count == beeps + 2
    lines = r.app.faces()[2]
    assert lines[0] == "TEST closed 32" and lines[1] == "last r4c4 on", lines
    r.board.lift(36)
    r.run(100)
    assert r.faces() == ("  31", " 36-")


def test_buttons_are_reported_but_leave_the_clock_alone():
    r = Rig()
    enter(r)
    r.click("start")
    r.hold("rocker", 0)
    r.run(50)
    f = r.frames()
    assert [x[2][1] for x in f if x[1] == "BTN"] == ["start", "white"]
    assert r.app.clock.state == clockmod.READY
    assert r.app.faces()[2][2] == "btn white"
    r.click("mode")
    r.click("mode")
    assert r.app.selftest is not None
    r.click("mode")                                   # the third "mode" in a row leaves
    assert r.app.selftest is None and "device.selftest" not in sys.modules
    import device
    assert "selftest" not in dir(device)
    assert last(r.frames(), "CLK")[2][8] == "ready"
    r.run(100)
    assert r.faces() == (" 1:30", " 1:30")


def test_host_stops_it_and_bad_requests_are_refused():
    r = Rig()
    enter(r)
    r.send("TEST", [0])
    f = r.frames()
    assert f[0][2][1] == "ok" and last(f, "CLK")[2][8] == "ready"
    r.send("TEST", [2])
    a = r.frames()[0][2]
    assert a[1] == "err" and "1 (start) or 0 (stop)" in a[2]
    r.send("START", ["white"])
    r.frames()
    r.send("TEST", [1])
    a = r.frames()[0][2]
    assert a[1] == "err" and "pause" in a[2]
    assert r.app.selftest is None


def test_menu_entry_enters_the_test():
    r = Rig("esp32-chess", chess_start=False)
    r.frames()
    r.click("mode")
    r.click("white")                                  # back from the first preset: custom
    r.click("white")                                  # ... then test
    assert r.app.displays[0].lines[1] == "test"
    sent = []
    drv = r.app.displays[0].driver
    write_cmd = drv.write_cmd
    drv.write_cmd = lambda c: (sent.append(c) if c in (0xA4, 0xA5) else None, write_cmd(c))
    r.click("start")
    assert r.app.selftest is not None
    f = r.frames()
    assert "SNAP" in [x[1] for x in f] and last(f, "CLK")[2][8] == "test"
    assert sent == [0xA5], sent                          # every pixel lit ("entire display on")
    r.run(1600)
    assert sent == [0xA5, 0xA4]                          # the display shows its RAM again
    assert r.app.displays[0].lines[0] == "TEST closed 0"


def test_fault_stuck_sensor_reads_closed():
    r = Rig(chess_start=False)
    inject_faults(r.hal, r.p["sensors"], stuck=[9])
    r.run(100)
    r.board.lift(9)
    r.run(100)
    assert [x[2][1:] for x in r.frames() if x[1] == "SQ"] == [[(9, 1)]]
    r.board.set_all([0] * 64)
    assert r.board.occ[9] == 1


def test_fault_dead_row_never_reads():
    r = Rig(chess_start=False)
    inject_faults(r.hal, r.p["sensors"], dead_rows=[3])
    r.frames()
    for k in (24, 25, 31, 16):
        r.board.place(k)
        r.run(100)
    assert [x[2][1:] for x in r.frames() if x[1] == "SQ"] == [[(16, 1)]]


def test_fault_missing_diode_ghosts_the_fourth_corner():
    r = Rig(chess_start=False)
    # switch (1, 5) without its diode: with (1, 2) and (6, 5) closed, (6, 2) reads closed too
    inject_faults(r.hal, r.p["sensors"], missing_diodes=[1 * 8 + 5])
    r.frames()
    for k in (1 * 8 + 2, 1 * 8 + 5):
        r.board.place(k)
        r.run(100)
    r.board.place(6 * 8 + 5)
    r.run(100)
    sq = [x[2] for x in r.frames() if x[1] == "SQ"]
    assert sq[-1][1:] == [(6 * 8 + 2, 1), (6 * 8 + 5, 1)], sq   # one scan, one tick: together
    r.board.lift(1 * 8 + 5)
    r.run(100)
    sq = [x[2][1:] for x in r.frames() if x[1] == "SQ"]
    assert sq == [[(1 * 8 + 5, 0), (6 * 8 + 2, 0)]], sq


def test_faults_are_checked():
    hal = FakeHAL()
    s = {"type": "hc165", "load": 1, "clk": 2, "data": 3, "chips": 8}
    hal.attach_profile({"board": {"rows": 8, "cols": 8}, "sensors": s})
    for kw in ({"dead_rows": [1]}, {"stuck": [64]}, {"missing_diodes": [-1]}):
        try:
            inject_faults(hal, s, **kw)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (kw,))
