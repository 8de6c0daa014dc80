"""The whole device app on the fake backend: scripted buttons, squares and host
frames in, expected frames, displays, buzzer and LEDs out. Runs under pytest
and under MicroPython (the harness puts firmware/ at /lib and boards/ at /boards)."""
import json

from device.app import App
from device.fake.fakehw import FakeHAL, FakeStream
from flagcore import clock as clockmod
from flagcore import wire

START_CHESS = "FFFF00000000FFFF"


def profile(name):
    for base in ("boards", "/boards", "../boards"):
        try:
            with open(base + "/" + name + ".json") as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("boards/%s.json not found" % name)


class Rig:
    def __init__(self, name="pico-chess", chess_start=True, now=1000, prof=None, stream=True):
        self.p = prof or profile(name)
        self.hal = FakeHAL(now=now)
        self.board = self.hal.attach_profile(self.p)
        if chess_start:
            for i in list(range(16)) + list(range(48, 64)):
                self.board.place(i)
        self.st = FakeStream() if stream else None
        self.app = App(self.p, self.hal, self.st)
        self.host = wire.Link(wire.DEVICE_KINDS)

    def run(self, ms, step=10):
        t = 0
        while t < ms:
            self.hal.advance(step)
            self.app.step()
            t += step

    def frames(self):
        out = []
        for chunk in self.st.chunks():
            out += self.host.feed(chunk)
        return out

    def kinds(self):
        return [f[1] for f in self.frames()]

    def send(self, kind, fields=()):
        self.st.inbox.extend(self.host.frame(kind, fields))
        self.app.step()

    def pin(self, name):
        return self.p["buttons"][name]

    def hold(self, name, level=0):
        self.hal.set_input(self.pin(name), level)

    def click(self, name, ms=40):
        self.hold(name, 0)
        self.run(ms)
        self.hold(name, 1)
        self.run(ms)

    def faces(self):
        return (self.hal.tm1637["white"].text(), self.hal.tm1637["black"].text())


def last(frames, kind):
    got = [f for f in frames if f[1] == kind]
    assert got, "no %s frame in %r" % (kind, [f[1] for f in frames])
    return got[-1]


def test_boot_sends_hello_snapshot_and_clock():
    r = Rig()
    f = r.frames()
    assert [x[1] for x in f] == ["HELLO", "SNAP", "CLK"]
    assert [x[0] for x in f] == [0, 1, 2]
    # battery full, signal at 25 %; the protocol's revision last
    assert f[0][2] == ["0.1.0", 1, "pico-chess", "chess", 8, 8, "full", 100, 25, wire.REVISION]
    assert f[1][2] == [1000, 64, START_CHESS]
    clk = f[2][2]
    assert clk[:6] == [1000, clockmod.READY, 0, 5400000, 5400000, -1]
    assert clk[8] == "ready" and clk[9].startswith("C2|5400|")
    assert r.faces() == (" 1:30", " 1:30")


def test_start_button_moves_and_rocker_press():
    r = Rig()
    r.frames()
    r.hold("start")
    r.run(10)                            # pressed at tick 1010
    f = r.frames()
    assert f[0][2] == [1010, "start"]
    assert last(f, "CLK")[2][1:3] == [clockmod.RUNNING, 0]
    r.hold("start", 1)
    r.run(2000)
    r.board.lift(52)                     # e2 ...
    r.run(200)
    r.board.place(36)                    # ... e4
    r.run(200)
    f = r.frames()
    sq = [x[2] for x in f if x[1] == "SQ"]
    assert sq == [[3020, (52, 0)], [3220, (36, 1)]]   # first tick each change was seen
    r.hold("rocker", 0)                  # white's side of the lever goes down
    r.run(10)
    f = r.frames()
    assert f[0][1] == "BTN" and f[0][2] == [3420, "white"]
    c = last(f, "CLK")[2]
    assert c[2] == 1                                   # black to move
    assert c[3] == 5400000 - (3420 - 1010)             # exact to the millisecond
    assert r.app.clock.moves[0] == 1
    r.run(1500)
    assert r.faces() == (" 1:29", " 1:29")


def test_clock_frame_every_second_while_running():
    r = Rig()
    r.send("START", ["white"])
    r.frames()
    r.run(5000, step=50)
    clks = [x for x in r.frames() if x[1] == "CLK"]
    assert 4 <= len(clks) <= 6
    ms = [x[2][3] for x in clks]
    assert ms == sorted(ms, reverse=True) and ms[-1] < 5400000 - 3900


def test_exact_time_without_a_host():
    r = Rig(stream=False)
    r.hold("start")
    r.run(7)
    t0 = 1007
    steps = (3, 17, 1, 250, 33, 999, 2, 41)
    total = 7
    for k in range(40):
        s = steps[k % len(steps)]
        r.hal.advance(s)
        r.app.step()
        total += s
    now = 1000 + total
    assert r.app.clock.remaining[0] == 5400000 - (now - t0)
    r.hold("rocker", 0)
    r.run(1, step=1)
    assert r.app.clock.remaining[0] == 5400000 - (now + 1 - t0)
    assert r.app.clock.to_move == 1


def test_host_commands_are_carried_out_and_acknowledged():
    r = Rig()
    r.frames()
    r.send("START", ["white"])
    f = r.frames()
    assert f[0][2] == [0, "ok", ""] and last(f, "CLK")[2][1] == clockmod.RUNNING
    r.send("TC", ["fide-blitz"])
    f = r.frames()
    assert f[0][1] == "ACK" and f[0][2][:2] == [1, "err"] and "pause" in f[0][2][2]
    r.send("PAUSE")
    r.send("TC", ["fide-blitz"])         # a preset name from seeds (not in this profile's menu)
    f = r.frames()
    assert [x[2][:2] for x in f if x[1] == "ACK"] == [[2, "ok"], [3, "ok"]]
    assert last(f, "CLK")[2][3:5] == [180000, 180000]
    r.send("TC", ["5x"])
    f = r.frames()
    assert f[0][2][1] == "err" and "column" in f[0][2][2]
    r.send("START", ["black"])
    r.run(1000)
    r.send("ADJ", ["black", 60000])
    c = last(r.frames(), "CLK")[2]
    assert c[4] == 180000 - 1000 + 60000
    r.send("PAUSE")
    snap = last(r.frames(), "CLK")[2][9]
    r.send("TC", ["300"])
    r.send("RESTORE", [snap])
    c = last(r.frames(), "CLK")[2]
    assert c[1] == clockmod.PAUSED and c[4] == 239000 and c[9] == snap.replace("|1|1|", "|2|1|", 1)
    r.send("REQ", ["snap"])
    f = r.frames()
    assert f[1][1] == "SNAP" and f[1][2][2] == START_CHESS
    r.send("REQ", ["hello"])
    assert [x[1] for x in r.frames()] == ["ACK", "HELLO"]
    r.send("REQ", ["nothing"])
    assert r.frames()[0][2][1] == "err"


def test_message_and_leds_from_host():
    r = Rig()
    r.send("MSG", [2, "HELLO"])
    r.run(50)
    assert r.faces() == ("HELL", "O   ")
    r.run(2000)
    assert r.faces() == (" 1:30", " 1:30")
    leds = r.app.leds
    r.send("START", ["white"])
    r.run(10)
    assert bytes(leds.on) == b"\x01\x00"
    assert r.hal.pins[27].level == 1 and r.hal.pins[28].level == 0
    r.send("LED", [0, 1])
    r.run(10)
    assert bytes(leds.on) == b"\x00\x01"
    r.send("LED", [-1, -1])
    r.run(10)
    assert bytes(leds.on) == b"\x01\x00"


def test_flag_frame_at_the_exact_tick_and_buzzer():
    r = Rig()
    r.send("TC", ["10"])
    r.send("START", ["white"])          # at tick 1000 (no time has passed)
    r.frames()
    r.run(9000, step=100)
    assert r.app.buzzer.count == 1      # the low-time beep below 10 s... once
    r.run(1500, step=70)
    f = r.frames()
    fl = last(f, "FLAG")[2]
    assert fl[1] == 0 and fl[2] == 11000
    assert r.hal.tones[26].freq == 2700
    c = last(f, "CLK")[2]
    assert c[1] == clockmod.FLAGGED and c[5] == 0 and c[3] == 0
    r.run(2000, step=100)
    assert r.hal.tones[26].freq == 0    # the beep ended by itself
    assert r.faces()[0] == "00:0 "      # 0:00.0


def test_flag_found_by_a_late_press_is_reported():
    r = Rig("esp32-chess")
    r.send("TC", ["10"])
    r.send("START", ["white"])
    r.frames()
    r.hold("white")
    r.hal.advance(12000)                # the loop stalled: the press comes after the flag
    r.app.step()
    f = r.frames()
    assert [x[1] for x in f] == ["BTN", "FLAG", "CLK"]
    assert f[1][2][1:] == [0, 11000]    # white's flag, at its exact tick
    assert r.app.clock.moves[0] == 0    # the late press did not complete the move
    r.send("PAUSE")
    assert [x[1] for x in r.frames()] == ["ACK"] and r.app.buzzer.count == 1
    snap = r.app.clock.snapshot()
    r.send("RESTORE", [snap])           # a restored flagged clock is not a new flag
    assert "FLAG" not in [x[1] for x in r.frames()]


def test_menu_with_a_rocker():
    r = Rig()
    r.frames()
    r.click("mode")
    assert r.app.menu is not None
    assert r.faces() == ("P  1", "  90")   # fide-classical: 90 minutes
    r.hold("rocker", 0)                    # any flip is "next" in the menu
    r.run(40)
    r.hold("rocker", 1)
    r.run(40)
    assert r.faces() == ("P  3", "   3")   # fide-blitz
    r.click("start")
    assert r.app.menu is None
    c = last(r.frames(), "CLK")[2]
    assert c[1] == clockmod.READY and c[3] == 180000 and c[9].startswith("C2|180+2|")
    assert r.faces() == (" 3:00", " 3:00")


def enter_10_plus_2(r):
    """From the clock's face: the menu's custom entry, then 10 minutes + 2 s a move (device/tcentry.py)."""
    r.click("mode")
    r.click("white")                       # back from the first preset to "custom"
    assert r.app.displays[0].lines[1] == "custom"
    r.click("start")
    assert r.app.displays[0].lines[:2] == ("new: increment", "increment")
    r.click("start")                       # the type: increment (Fischer)
    assert r.app.displays[0].lines[:2] == ("P1 moves", "sudden death")
    r.click("start")
    assert r.app.displays[0].lines[:2] == ("P1 time", "[0]:00")
    r.click("start")                       # hours 0
    r.click("black")                       # tens of minutes 1
    assert r.app.displays[0].lines[:2] == ("P1 time", "0:[1]0")
    r.click("start")
    r.click("start")                       # minutes 0
    r.click("black")
    r.click("black")                       # 0 -> 1 -> 2 s
    assert r.app.displays[0].lines[:2] == ("P1 bonus", "2 s")
    r.click("start")


def test_menu_custom_time_with_two_buttons():
    r = Rig("esp32-chess")
    enter_10_plus_2(r)
    assert r.app.displays[0].lines == ("600+2", "use", "start: ok")
    r.click("start")
    assert r.app.clock.tc.text() == "600+2"
    assert r.app.displays[0].lines[1].startswith("W 10:00")


def test_menu_is_closed_while_the_clock_runs():
    r = Rig("esp32-chess")
    r.click("start")
    r.click("mode")
    assert r.app.menu is None and r.app.clock.state == clockmod.RUNNING
    r.click("start")                       # pause
    assert r.app.clock.state == clockmod.PAUSED
    r.click("mode")
    assert r.app.menu is not None
    r.click("mode")                        # leave without a change
    assert r.app.menu is None and r.app.clock.tc.text() == "900+10"


def test_menu_code_is_in_the_heap_only_while_the_menu_is_open():
    import sys
    import device
    device.unload("menu")                        # as on a fresh device (other tests import device.menu)
    r = Rig("esp32-chess")
    r.click("start")
    r.click("black")
    assert "device.menu" not in sys.modules      # a game never holds the menu's code
    r.click("start")                             # paused
    r.click("mode")
    assert r.app.menu is not None and "device.menu" in sys.modules
    r.click("mode")
    assert r.app.menu is None and "device.menu" not in sys.modules and "menu" not in dir(device)
    r.click("mode")                              # imported again on the next visit
    assert r.app.menu is not None and r.app.menu.entry() == "edit"      # a game under way: the arbiter
    r.send("RESULT", ["1-0", ""])                # the host's result closes it as well
    assert r.app.menu is None and "device.menu" not in sys.modules


def test_bad_frames_and_gaps_from_the_host_are_reported():
    r = Rig()
    r.frames()
    r.st.inbox.extend(b"\x00\xffnonsense\n" + b"z" * 600 + b"\n")
    r.app.step()
    f = r.frames()
    assert [x[1] for x in f] == ["WARN"]
    assert f[0][2][0] == "bad-frame" and "exceeds" in f[0][2][1]
    assert r.app.link.errors == 2
    r.send("REQ", ["clock"])
    assert [x[1] for x in r.frames()] == ["ACK", "CLK"]
    r.host.tx_seq += 3                     # three host frames never arrive
    r.send("REQ", ["clock"])
    f = r.frames()
    assert f[0][1] == "ACK" and f[0][2][:2] == [4, "ok"]   # the command is still carried out
    assert ["lost", "3 host frames lost"] in [x[2] for x in f if x[1] == "WARN"]


def test_ghost_on_a_matrix_without_diodes_is_a_warning_not_a_move():
    p = profile("pico-chess")
    p["sensors"]["diodes"] = False
    r = Rig(prof=p, chess_start=False)
    r.frames()
    for sq in (0, 1):
        r.board.place(sq)
        r.run(60)
    r.board.place(8)                       # a third corner: the fake matrix shows 9 as well
    r.run(60)
    assert r.app.scanner.raw[9] == 1 and r.board.occ[9] == 0
    f = r.frames()
    sq = sorted(c[0] for x in f if x[1] == "SQ" for c in x[2][1:])
    assert sq == [0, 1]                    # 8 and 9 cannot be told apart: neither is a move
    w = last(f, "WARN")[2]
    assert w[0] == "ghost" and "squares 8 9 " in w[1]
    r.board.lift(0)                        # the sneak path is broken: 9 reads empty again
    r.run(60)
    f = r.frames()
    assert sorted(c for x in f if x[1] == "SQ" for c in x[2][1:]) == [(0, 0), (8, 1)]
    assert last(f, "WARN")[2] == ["ghost", "cleared"]


def test_a_failing_display_does_not_stop_the_clock():
    r = Rig("esp32-chess")
    r.send("START", ["white"])
    r.frames()
    del r.hal.i2c_devices[60]           # the OLED is unplugged: every write raises OSError
    r.app.run(period_ms=100, steps=30)  # the fake sleep moves time on
    f = r.frames()
    warns = [x[2] for x in f if x[1] == "WARN"]
    assert len(warns) == 1 and warns[0][0] == "error" and "OSError" in warns[0][1]
    assert r.app.clock.remaining[0] == 900000 - 2900   # 30 passes, 100 ms apart, the first at once
    assert len([x for x in f if x[1] == "CLK"]) >= 2


def test_shift_register_board_with_oled():
    r = Rig("esp32-chess")
    oled = r.app.displays[0]
    # the fourth row: the battery's level (its fake cell is full)
    assert oled.lines == ("900+10 ready", "W 15:00 m0 p1", "B 15:00 m0 p1", "battery 100%")
    r.frames()
    r.board.lift(12)
    r.board.place(28)
    r.run(50)
    f = r.frames()
    assert [x[2] for x in f if x[1] == "SQ"] == [[1010, (12, 0), (28, 1)]]
    model = r.hal.i2c_devices[60]
    assert model.data_bytes >= 1024 and len(model.frame) == 1024
    if oled.driver.fb is not None:      # MicroPython's framebuf draws the text
        assert model.frame == bytes(oled.driver.buf[1:])
        lit = [sum(1 for b in model.frame[pg * 128:(pg + 1) * 128] if b) for pg in range(8)]
        assert lit[0] and lit[2] and lit[4] and lit[6] and not lit[7]


def test_expander_board_and_minzu_chain():
    r = Rig("rpi-chess")
    r.frames()
    r.board.place(40)
    r.run(50)
    assert [x[2] for x in r.frames() if x[1] == "SQ"] == [[1010, (40, 1)]]
    m = Rig("pico-minzu14", chess_start=False)
    f = m.frames()
    assert f[0][2][4:] == [14, 14, "full", 100, 32, wire.REVISION] and f[1][2][1] == 196
    m.board.place(195)
    m.board.place(97)
    m.run(50)
    assert [x[2] for x in m.frames() if x[1] == "SQ"] == [[1010, (97, 1), (195, 1)]]


# -- time odds, the arbiter's edits and a decided game (docs/clock.md) -------------

def test_menu_custom_control_per_side():
    r = Rig("esp32-chess")
    enter_10_plus_2(r)
    r.click("black")                       # the last screen: odds, Black's times
    assert r.app.displays[0].lines[1] == "odds"
    r.click("start")
    assert r.app.displays[0].lines[:2] == ("black P1 time", "[0:10]")
    for _ in range(5):
        r.click("white")                   # black: 5 min
    r.click("start")
    assert r.app.displays[0].lines == ("W600+2-B300+2", "use", "start: ok")
    r.click("start")
    assert r.app.clock.tc.text() == "W600+2-B300+2"
    assert r.app.clock.remaining == [600000, 300000]
    c = last(r.frames(), "CLK")[2]
    assert c[3:5] == [600000, 300000] and c[9].startswith("C2|W600+2-B300+2|")


def test_host_sets_a_control_per_side():
    r = Rig()
    r.send("TC", ["armageddon-5-4"])      # a preset from seeds: W300-B240
    c = last(r.frames(), "CLK")[2]
    assert c[3:5] == [300000, 240000]
    r.send("TC", ["W300-B"])
    a = r.frames()[0][2]
    assert a[1] == "err" and "column 7" in a[2]


def test_arbiter_edits_times_and_moves_in_pause():
    r = Rig("esp32-chess")
    r.send("START", ["white"])            # at 1000
    r.run(5000)
    r.send("PAUSE")                        # white has 895 s left: 0:14:55
    r.frames()
    r.click("mode")
    assert r.app.displays[0].lines == ("menu 12/14", "edit", "times, moves")
    r.click("start")
    assert r.app.displays[0].lines == ("edit white time", "[0]:14:55", "start: apply")
    r.click("mode")
    r.click("mode")                        # minutes: 4 -> 0
    for _ in range(4):
        r.click("white")
    r.click("mode")                        # tens of seconds: 5 -> 0
    for _ in range(5):
        r.click("white")
    r.click("mode")                        # seconds: 5 -> 0
    for _ in range(5):
        r.click("white")
    assert r.app.displays[0].lines[1] == "0:10:0[0]"
    for _ in range(8):                     # through black's time to white's move counter
        r.click("mode")
    assert r.app.displays[0].lines[:2] == ("edit white moves", "00[0]")
    r.click("black")
    r.click("black")
    r.click("start")
    f = r.frames()
    edits = [x[2] for x in f if x[1] == "EDIT"]
    assert [e[1:] for e in edits] == [["time", "white", 895000, 600000, "arbiter"],
                                      ["moves", "white", 0, 2, "arbiter"]]
    assert [x[1] for x in f][-1] == "CLK"
    c = r.app.clock
    assert c.remaining == [600000, 900000] and c.moves == [2, 0] and c.state == clockmod.PAUSED
    assert c.allotted[0] == c.used[0] + c.remaining[0]
    # from now on +5 s a move for both (FIDE Guidelines III.4)
    r.click("mode")
    r.click("black")                       # "bonus"
    r.click("start")
    assert r.app.displays[0].lines == ("both, from now", "increment 5 s", "start: apply")
    r.click("start")
    e = last(r.frames(), "EDIT")[2]
    assert e[1:] == ["bonus", "both", 0, 5000, "+"]
    r.click("start")                       # resume
    r.run(1000)
    r.click("white")
    assert c.remaining[0] == 600000 - 1000 - 80 + 5000  # 1 s, the click's 80 ms, +5 s
    assert c.snapshot().endswith(",+5,0")


def flip(r):
    """One flip of the rocker (one "next" in the menu)."""
    level = r.hal.pins[r.pin("rocker")].level
    r.hold("rocker", 1 - level)
    r.run(40)


def test_result_entered_on_the_device_stops_the_clock():
    r = Rig()
    r.send("START", ["white"])
    r.run(2000)
    r.send("PAUSE")
    r.frames()
    r.click("mode")
    assert r.faces() == ("P 12", "EDIT")
    flip(r)
    assert r.faces() == ("P 13", "ADD ")
    flip(r)
    r.click("start")
    assert r.faces() == ("RE5 ", "1-0 ")     # S and 5 share their segments
    flip(r)
    r.click("start")
    # both players confirm the result with their own side of the rocker; each face says YES
    f = r.frames()
    assert r.faces() == ("0-1 ", "0-1 ") and not [x for x in f if x[1] == "EDIT"]
    assert last(f, "CLK")[2][8] == "confirm"            # the host sees a result waiting to be confirmed
    flip(r)
    assert "YE5 " in r.faces() and r.app.clock.state != clockmod.FINISHED    # S and 5 share segments
    flip(r)
    f = r.frames()
    assert last(f, "EDIT")[2][1:] == ["result", "-", 0, 0, "0-1"]
    c = last(f, "CLK")[2]
    assert c[1] == clockmod.FINISHED and c[8] == "finished" and c[9].endswith("|0-1,arbiter,-,0")
    assert r.faces() == ("   0", "   1")
    moves = list(r.app.clock.moves)
    r.click("start")                       # no resume
    flip(r)                                # no press
    flip(r)
    assert r.app.clock.state == clockmod.FINISHED and r.app.clock.moves == moves
    assert r.faces() == ("   0", "   1")
    # the arbiter reopens the game: back to a paused clock
    r.click("mode")
    flip(r)
    flip(r)
    r.click("start")
    for _ in range(4):                     # 1-0, 0-1, 1/2-1/2, 0-0, reopen
        flip(r)
    assert r.faces()[1] == "OPEN"
    r.click("start")
    assert r.app.clock.state == clockmod.PAUSED and r.app.clock.result is None
    assert last(r.frames(), "EDIT")[2][5] == "*"


def test_host_edits_and_results():
    r = Rig()
    r.send("START", ["white"])
    r.frames()
    r.send("TIME", ["black", 60000])
    a = r.frames()[0][2]
    assert a[1] == "err" and "pause" in a[2]
    r.run(1000)
    r.send("PAUSE")
    r.send("TIME", ["black", 60000])
    r.send("MOVES", ["white", 12])
    r.send("BONUS", ["d", 5000])
    f = r.frames()
    assert [x[2][1] for x in f if x[1] == "ACK"] == ["ok", "ok", "ok", "ok"]
    c = r.app.clock
    assert c.remaining[1] == 60000 and c.moves[0] == 12 and c.bonus == (3, 5000)
    assert "EDIT" not in [x[1] for x in f]  # the host knows what it sent
    r.send("RESULT", ["1/2-1/2", "agreed"])
    c = last(r.frames(), "CLK")[2]
    assert c[1] == clockmod.FINISHED and c[9].endswith("|1/2-1/2,agreed,d5,0")
    assert r.faces() == ("HALF", "HALF")
    r.send("TIME", ["black", 1000])
    assert r.frames()[0][2][1] == "err"
    r.send("RESULT", ["2-0", "host"])
    a = r.frames()[0][2]
    assert a[1] == "err" and "unknown result" in a[2]
    r.send("RESULT", ["*", ""])
    assert last(r.frames(), "CLK")[2][1] == clockmod.PAUSED


def test_flag_ends_the_game_where_the_profile_says_so():
    p = profile("pico-chess")
    p["flag_ends_game"] = True
    r = Rig(prof=p)
    r.send("TC", ["W10-B20"])
    r.send("START", ["white"])
    r.frames()
    r.run(11000, step=100)
    f = r.frames()
    assert last(f, "FLAG")[2][1:] == [0, 11000]
    c = last(f, "CLK")[2]
    assert c[1] == clockmod.FINISHED and c[9].endswith("|0-1,flag,-,1")
    assert r.faces() == ("   0", "   1")
    r.send("TC", ["300"])                  # a new game keeps the profile's rule
    assert r.app.clock.flag_ends and r.app.clock.state == clockmod.READY
