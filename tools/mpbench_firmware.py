# MicroPython side of tools/bench_firmware.py (not a bench script itself), loaded by
# tests/mp/heap.mjs as /lib/bench_fw.py: timing() prints scan/debounce figures;
# setup(name) builds a whole app on the fake backend with a scripted game and
# returns its number of steps; step(i) runs one of them (one app loop pass);
# check() reads what the device sent. Also imported on CPython by
# bench_firmware.py to count the steps (BOARDS set to the boards/ folder).
import json

import gc

from flagcore.ticks import ticks_diff, ticks_ms


def _per_pass(fn, ms_min=300):
    # the WebAssembly port's tick is coarse: repeat until at least ms_min ms have passed
    reps = 0
    t0 = ticks_ms()
    while True:
        for _ in range(200):
            fn()
        reps += 200
        dt = ticks_diff(ticks_ms(), t0)
        if dt >= ms_min:
            return dt * 1000.0 / reps


def timing():
    """Print per-pass costs of the debounce loop and of scan + debounce on fake pins."""
    from flagcore.scan import Scanner
    for rows, cols in ((8, 8), (10, 10)):
        n = rows * cols
        s = Scanner(rows, cols, debounce_ms=30)
        s.prime()
        t = [0]

        def quiet():
            t[0] += 1
            s.update(t[0])
        q = _per_pass(quiet)
        for i in range(n):
            s.raw[i] = 1
        s.debounce_ms = 1 << 28     # never settles: every pass walks every sensor
        b = _per_pass(quiet)
        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
        for i in range(300):
            s.update(i)
        alloc = gc.mem_alloc() - a
        gc.enable()
        print("debounce_%d_quiet: %.1f us per pass (no change pending)" % (n, q))
        print("debounce_%d_full: %.1f us per pass (every sensor pending: the worst case)" % (n, b))
        print("debounce_%d_alloc: %d bytes in 300 worst-case passes (gc disabled)" % (n, alloc))
    from device.app import App
    from device.fake.fakehw import FakeHAL
    # a 10x10 full matrix (100 sensors): pico-draughts10 with a sensor on every square
    with open("%s/pico-draughts10.json" % BOARDS) as f:
        full100 = json.load(f)
    full100["name"] = "matrix-100"
    full100["board"]["layout"] = "full"
    full100["sensors"]["cols"] = list(range(10, 20))
    full100["displays"] = []
    del full100["leds"]
    for name in ("pico-chess", "matrix-100", "pico-draughts10", "esp32-chess", "pico-minzu14"):
        if name == "matrix-100":
            p = full100
        else:
            with open("%s/%s.json" % (BOARDS, name)) as f:
                p = json.load(f)
        hal = FakeHAL(now=0)
        hal.attach_profile(p)
        app = App(p, hal, None)
        t = [0]

        def scan():
            t[0] += 1
            app.sensor.read_into(app.scanner.raw)
            app.scanner.update(t[0])
        us = _per_pass(scan, 200)
        print("scan_debounce_%s: %.0f us per pass (%d sensors, %s driver on fake pins + debounce)" % (
            name, us, app.scanner.n, p["sensors"]["type"]))


CHESS_START = list(range(16)) + list(range(48, 64))
CHESS_MOVES = [(52, 36), (12, 28), (62, 45), (1, 18), (61, 34), (6, 21), (60, 62), (4, 6)]
GAMES = {
    "pico-chess": (CHESS_START, CHESS_MOVES),
    "esp32-chess": (CHESS_START, CHESS_MOVES),
    "rpi-chess": (CHESS_START, CHESS_MOVES),
    "pico-minzu14": ([97, 98, 84], [(97, 83), (98, 112), (84, 70)]),
    # dark-square boards: sensor k is square k + 1 (English checkers 1-32, international draughts 1-50)
    "pico-checkers": (list(range(12)) + list(range(20, 32)), [(8, 12), (21, 16), (12, 17), (22, 13)]),
    "pico-draughts10": (list(range(20)) + list(range(30, 50)), [(31, 26), (18, 22), (26, 17), (11, 22)]),
}
rig = None
BOARDS = "/boards"

# every module of the app (all drivers), imported one by one for the code-size figure
APP_MODULES = ("flagcore", "flagcore._compat", "flagcore.ticks", "flagcore.timecontrol", "flagcore.clock",
               "flagcore.display", "flagcore.wire", "flagcore.scan", "device.buses", "device.hal",
               "device.menu", "device.presets", "device.factory", "device.faces", "device.app",
               "device.drivers.buttons", "device.drivers.matrix", "device.drivers.hc165",
               "device.drivers.mcp23017", "device.drivers.tm1637", "device.drivers.ssd1306",
               "device.drivers.buzzer", "device.drivers.leds")


class Rig:
    def __init__(self, name):
        from device.fake.fakehw import FakeHAL, FakeStream
        from flagcore import wire
        with open("%s/%s.json" % (BOARDS, name)) as f:
            p = json.load(f)
        self.p = p
        self.hal = FakeHAL(now=1000)
        self.board = self.hal.attach_profile(p)
        start, moves = GAMES[name]
        for sq in start:
            self.board.place(sq)
        self.st = FakeStream()
        self.app = None
        self.host = wire.Link(wire.DEVICE_KINDS)
        self.frames = 0
        btn = p["buttons"]
        sc = [("host", "TC", ["60+1"]), ("host", "START", ["white"])]
        side = 0
        for frm, to in moves:
            sc.append(("lift", frm))
            sc.append(("place", to))
            if "rocker" in btn:
                sc.append(("pin", btn["rocker"], 0 if side == 0 else 1))
            else:
                name = "white" if side == 0 else "black"
                sc.append(("pin", btn[name], 0))
                sc.append(("pin", btn[name], 1))
            side = 1 - side
        # mode while the clock runs opens the settings view (device/view.py, imported while it shows),
        # so the game's peak counts it
        sc += [("host", "REQ", ["snap"]), ("host", "MSG", [2, "bench"]), ("host", "LED", [1, 0]),
               ("mode", btn["mode"])]
        # each action then 3 loop passes of 20 ms; then 80 passes of 1 s run the clock to its flag
        self.todo = []
        for a in sc:
            self.todo.append(a)
            self.todo.append(("run", 20))
            self.todo.append(("run", 20))
            self.todo.append(("run", 20))
        for _ in range(80):
            self.todo.append(("run", 1000))

    def step(self, i):
        a = self.todo[i]
        k = a[0]
        if k == "host":
            self.st.inbox.extend(self.host.frame(a[1], a[2]))
            self.hal.advance(1)
        elif k == "lift":
            self.board.lift(a[1])
        elif k == "place":
            self.board.place(a[1])
        elif k == "pin":
            self.hal.set_input(a[1], a[2])
        elif k == "mode":
            self.hal.set_input(a[1], 0)
        else:
            self.hal.advance(a[1])
        self.app.step()


def setup(name):
    """Load a profile and its fake hardware; returns the number of scripted steps."""
    global rig
    rig = Rig(name)
    return len(rig.todo)


def build():
    """Build the app (drivers, scanner, clock, link) and send the boot frames."""
    from device.app import App
    rig.app = App(rig.p, rig.hal, rig.st)


def step(i):
    """One scripted action and one loop pass."""
    rig.step(i)


# sensor changes a self-test run makes (tools/bench_firmware.py and tools/mcu.py)
SELFTEST_STEPS = 80


def selftest(on):
    """The host frame TEST 1 (enter the self-test: device/selftest.py is imported now) or TEST 0, one pass."""
    rig.st.inbox.extend(rig.host.frame("TEST", [on]))
    rig.hal.advance(1)
    rig.app.step()


def selftest_step(i):
    """In the self-test: sensor i % n lifted or placed (each one in turn), every 8th step a button; one pass."""
    n = rig.board.n
    k = i % n
    if rig.board.occ[k]:
        rig.board.lift(k)
    else:
        rig.board.place(k)
    if i % 8 == 7:
        pin = rig.p["buttons"]["start"]
        rig.hal.set_input(pin, 0 if i % 16 == 7 else 1)
    rig.hal.advance(40)
    rig.app.step()


# the clock's menu (device/menu.py, imported while it is open), on a board with white and black buttons or a
# rocker: a new control entered with the buttons (device/tcentry.py, taking the menu's turn in the heap) and
# stored in the user slot U1 (device/slots.py); then a game started and paused, and the arbiter's entries:
# a time edited digit by digit and applied, a bonus chosen and applied. "custom": the list's way from where
# it opens to its "custom" entry (menu_presses)
MENU_PRESSES = ("mode", "custom", "start",                                         # the list: custom
                "start", "start", "start", "black", "start", "start",              # increment, SD, 0:10
                "black", "black", "start", "black", "black", "start",              # + 2 s, stored in U1
                "start", "start",                                                  # start, pause
                "mode", "start", "black", "mode", "black", "start",                # edit white's time
                "mode", "black", "start", "black", "start")                        # bonus: d5


def menu_presses(name):
    """MENU_PRESSES as board `name`'s buttons make them (on CPython, by the tools that write the device's
    steps): "custom" becomes the presses from where the list opens (on the control in use) to its custom
    entry, the shorter way round; on a rocker (pico-chess) every flip is "next" (black), so it is the way
    forward."""
    from device.menu import open_list
    setup(name)
    build()
    m = open_list(rig.app)
    n = len(m.items) + len(m.entries)
    up = (len(m.items) + m.entries.index("custom") - m.i) % n
    rocker = "rocker" in rig.p["buttons"]
    way = ["black"] * up if up <= n - up or rocker else ["white"] * (n - up)
    out = []
    for x in MENU_PRESSES:
        out += way if x == "custom" else [x]
    return tuple(out)


def menu_press(name):
    """A press of button name (white, black, start, mode) in the menu: pressed, one pass 40 ms later,
    released, one pass 40 ms later; on a rocker white and black are a flip of the lever, one pass 40 ms later."""
    btn = rig.p["buttons"]
    if "rocker" in btn and name in ("white", "black"):
        pin = btn["rocker"]
        rig.hal.set_input(pin, 1 - rig.hal.pins[pin].level)
    else:
        pin = btn[name]
        rig.hal.set_input(pin, 0)
        rig.hal.advance(40)
        rig.app.step()
        rig.hal.set_input(pin, 1)
    rig.hal.advance(40)
    rig.app.step()


def check():
    """Decode what the device sent (host side, outside the measured steps)."""
    rig.frames += len(rig.host.feed(rig.st.take()))


def summary(name):
    """One line about the finished run."""
    c = rig.app.clock
    return "%s: %d frames, %d host-side errors, clock state %d, flag %r" % (
        name, rig.frames, rig.host.errors, c.state, c.flag)
