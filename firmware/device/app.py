"""The device application: scanning, clock, buttons, displays and the wire protocol.

App(profile, hal, stream) builds the drivers a board profile names (through
device.factory) and runs one loop pass per step(). Everything it touches
comes in from outside: the HAL (real or fake), the serial stream (anything with read() -> bytes|None
and write(bytes)) and the time source (hal.ticks_ms unless `ticks_ms` is
given), so the same code runs on a Pico, on a Raspberry Pi under Blinka,
in the tests under MicroPython and CPython, and in the simulator.

The clock keeps exact time with or without a host: every event and every
update passes the tick read at that moment to the clock engine, which
measures with ticks_diff; the loop's sleep never enters the arithmetic.
"""

import flagcore
from flagcore import display, wire
from flagcore import clock as clockmod
from flagcore.clock import Clock, ClockError
from flagcore.scan import Scanner
from flagcore.ticks import ticks_add, ticks_diff
from flagcore.timecontrol import COUNTUP

from device import unload
from device.presets import PRESETS

SIDES = ("white", "black")
REPORT_MS = 1000       # a CLK frame at least this often while the clock runs
SAVE_MS = 10000        # the snapshot kept for a power loss: at every change, and this often while running
SNAPSHOT = "clock"     # its name in the HAL's store
HOLD_MS = 2000         # start held this long replaces a game under way (in the menu)
REPEAT_MS = 600        # in the menu, white or black held this long steps again ...
REPEAT_EVERY_MS = 150  # ... and again this often (key repeat: a long list or a digit far away)
DISPLAY_MS = 50        # displays are refreshed at most this often
LOW_TIME_MS = 10000    # beep once when the running side drops below this
SQ_PER_FRAME = 12


def board_geometry(profile):
    """(rows, cols) of sensor indices: the board, or its dark squares only (cols halved)."""
    b = profile["board"]
    if b.get("layout") == "dark":
        return b["rows"], b["cols"] // 2
    return b["rows"], b["cols"]


def load_presets(profile):
    """(name, tc) pairs for the menu: the profile's choice, in its order, else all."""
    names = profile.get("presets")
    if not names:
        return list(PRESETS)
    table = dict(PRESETS)
    return [(n, table[n]) for n in names if n in table]


def _score4(score):
    """A side's score for a 4-digit face ('1/2' has no 7-segment slash: 'HALF')."""
    return "HALF" if score == "1/2" else "   " + score


class App:
    """One clock-and-board device."""

    # device.selftest.SelfTest while the self-test runs (imported then only); a class
    # attribute until then, so that a device playing games holds nothing more for it
    selftest = None

    def __init__(self, profile, hal, stream=None, ticks_ms=None):
        self.profile = profile
        self.hal = hal
        self.stream = stream
        self.ticks_ms = ticks_ms or hal.ticks_ms
        hal.set_buses(profile.get("buses"))
        now = self.ticks_ms()
        self.presets = load_presets(profile)
        self.rows, self.cols = board_geometry(profile)
        self.sensor = None
        self.scanner = None
        # device/factory.py builds the parts and leaves the heap again: nothing uses it after boot
        from device import factory
        s = profile.get("sensors")
        if s:
            self.sensor = factory.sensors(hal, s)
            self.scanner = Scanner(self.rows, self.cols, s.get("debounce_ms", 30),
                                   s.get("diodes", True) or s["type"] != "matrix")
            self.sensor.read_into(self.scanner.raw)
            self.scanner.prime()
        self.buttons = factory.buttons(hal, profile["buttons"])
        self.displays = [factory.display(hal, d) for d in profile.get("displays", ())]
        self.buzzer = factory.buzzer(hal, profile["buzzer"]) if profile.get("buzzer") else None
        self.leds = factory.leds(hal, profile["leds"]) if profile.get("leds") else None
        self.battery = factory.battery(hal, profile["battery"]) if profile.get("battery") else None
        factory = None
        unload("factory")
        self.led_override = [-1, -1]
        self.link = wire.Link(wire.HOST_KINDS)
        self.errors_seen = 0
        self.lost_seen = 0
        tc = profile.get("default_tc") or (self.presets[0][1] if self.presets else "300")
        # "flag_ends_game": the ruleset makes a flag decide the game (the clock finishes); otherwise
        # play goes on after a flag until it is claimed ("flag_play_on", FIDE Laws 6.8), so both can fall
        self.clock = Clock(tc, bool(profile.get("flag_ends_game")), profile.get("flag_play_on", True))
        self.flags_seen = [None, None]   # the flag tick of each side already reported
        self.saved = None
        self.stored = None         # the user's stored controls [(slot, text)], read when the menu first opens
        self.next_save = now
        self.view = None           # (from, until) ticks while the settings view shows (device/view.py)
        # after a power loss the game under way comes back from the store, paused, times kept
        # (device/resume.py, imported at boot only)
        from device import resume
        resume.saved_game(self, SNAPSHOT, now)
        unload("resume")
        if self.battery is not None:
            self.battery.read()
            self.battery.due = now       # ticks wrap: "due" is measured from now, never from 0
        self.menu = None           # the menu, control entry or arbiter's entry while open (imported then only)
        self.repeated = 0          # key repeats already made for the button held in the menu
        self.message = None
        self.message_until = 0
        self.next_report = now
        self.next_display = now
        self.low_warned = [False, False]
        self.steps = 0
        self.last_error = None
        self.send_hello()
        self.send_snapshot(now)
        self.send_clock(now)
        self.refresh(now, True)

    # -- output ----------------------------------------------------------
    def send(self, kind, fields):
        """Send one frame to the host (dropped when no stream is attached)."""
        if self.stream is None:
            return
        try:
            b = self.link.frame(kind, fields)
        except wire.WireError as e:
            b = self.link.frame("WARN", ["encode", str(e)[:120]])
        self.stream.write(b)

    def send_hello(self):
        """HELLO: firmware and protocol versions, profile, game, sensor grid, battery level and threshold,
        and the protocol's revision (wire.REVISION)."""
        p = self.profile
        b = self.battery
        self.send("HELLO", [flagcore.VERSION, wire.VERSION, p.get("name", "?"), p.get("game", "?"),
                            self.rows, self.cols, p["board"].get("layout", "full"),
                            -1 if b is None else b.pct, -1 if b is None else b.low_pct, wire.REVISION])

    def send_snapshot(self, now):
        """SNAP: the whole reported occupancy."""
        if self.scanner is None:
            self.send("SNAP", [now, 0, ""])
            return
        self.send("SNAP", [now, self.scanner.n, wire.hexbits(self.scanner.snapshot(), self.scanner.n)])

    def status(self):
        """Short state word for the host and the OLED."""
        if self.selftest is not None:
            return "test"
        if self.menu is not None:
            # a result chosen on the clock, waiting for the second player's button
            return "confirm" if self.menu.confirming() else "menu"
        return clockmod.STATE_NAMES[self.clock.state]

    def send_clock(self, now, event=True):
        """CLK: times, display text, a restorable snapshot of the clock, the battery and a second flag.

        The snapshot is also kept in the HAL's store for a power loss: at every event, and every
        SAVE_MS while the clock runs (event=False: the periodic report)."""
        c = self.clock
        snap = c.snapshot()
        flag = -1 if c.flag is None else c.flag
        second = c.second_flag()
        b = self.battery
        fields = [now, c.state, c.to_move, c.shown_ms(0), c.shown_ms(1), flag,
                  display.line(c, 0), display.line(c, 1), self.status(), snap,
                  -1 if b is None else b.pct, 1 if b is not None and b.low else 0,
                  -1 if second is None else second]
        try:
            f = self.link.frame("CLK", fields)
        except wire.WireError:
            fields[9] = ""  # a very long time control: send without the snapshot
            f = self.link.frame("CLK", fields)
        if self.stream is not None:
            self.stream.write(f)
        self.next_report = ticks_add(now, REPORT_MS)
        if event or ticks_diff(now, self.next_save) >= 0:
            self.save_snapshot(snap, now)

    def save_snapshot(self, snap, now):
        """Keep the clock's snapshot in the HAL's store (flash on a device) when it changed."""
        self.next_save = ticks_add(now, SAVE_MS)
        if snap == self.saved:
            return
        if self.clock.state == clockmod.READY and self.saved is None:
            return          # nothing under way, nothing kept yet: no write
        self.hal.save(SNAPSHOT, snap)
        self.saved = snap

    # -- the loop --------------------------------------------------------
    def step(self):
        """One pass: buttons, clock, sensors, host frames, buzzer, LEDs, displays."""
        now = self.ticks_ms()
        self.steps += 1
        changed = False
        if self.buttons.poll(now):
            ev = self.buttons.events
            while ev:
                name, t = ev.pop(0)
                self.send("BTN", [t, name])
                self.on_button(name, t)
            changed = True
        c = self.clock
        if c.state == clockmod.RUNNING:
            c.update(now)
            if c.state == clockmod.RUNNING:
                self.check_low_time(now)
        if self.check_flag(now):   # fallen in update(), or in a press or pause just handled
            changed = True
        if self.scanner is not None:
            self.scan(now)
        if self.stream is not None:
            data = self.stream.read()
            if data:
                for f in self.link.feed(data):
                    self.on_host(f, now)
                    changed = True
                self.check_link()
                self.check_flag(now)
        if self.message is not None and ticks_diff(now, self.message_until) >= 0:
            self.message = None
            changed = True
        if self.clock.state == clockmod.RUNNING and ticks_diff(now, self.next_report) >= 0:
            self.send_clock(now, False)
        if self.battery is not None:
            from device import power         # loaded with the battery (device.factory.battery)
            changed = power.check(self, now) or changed
        if self.view is not None and (ticks_diff(now, self.view[1]) >= 0 or self.clock.state != clockmod.RUNNING):
            self.end_view()              # over, or the clock stopped (a flag must show at once)
            changed = True
        if self.menu is not None and not self.menu.confirming():
            self.repeat_keys(now)
        if self.menu is not None and self.menu.erasing() and self.buttons.held("start", now) >= HOLD_MS:
            text = self.menu.pending         # start held: the deliberate action that replaces a game
            self.close_menu()
            self.set_tc(text)
            self.send_clock(now)
            changed = True
        if self.buzzer is not None:
            self.buzzer.update(now)
        self.update_leds()
        self.refresh(now, changed)

    def run(self, period_ms=5, steps=None):
        """Step forever (the device's main loop); time comes from ticks, not from the sleeps."""
        while steps is None or steps > 0:
            self.step_guarded()
            self.hal.sleep_ms(period_ms)
            if steps is not None:
                steps -= 1

    def step_guarded(self):
        """One step that survives a failing part; returns the error text, or None.

        An OLED unplugged mid-game (OSError on I2C) must not stop the clock:
        the error is reported once as WARN and the loop goes on.
        """
        try:
            self.step()
        except KeyboardInterrupt:
            raise
        except Exception as e:
            msg = "%s: %s" % (type(e).__name__, e)
            if msg != self.last_error:
                self.last_error = msg
                try:
                    self.send("WARN", ["error", msg[:150]])
                except Exception:
                    pass
            return msg
        return None

    # -- sensors -----------------------------------------------------------
    def scan(self, now):
        """Read every sensor, debounce, and send settled changes as SQ frames."""
        sc = self.scanner
        self.sensor.read_into(sc.raw)
        if sc.update(now) or sc.count:
            group = []
            tick = None
            while sc.count:
                sq, v, t = sc.pop()
                if group and (t != tick or len(group) >= SQ_PER_FRAME):
                    self.send("SQ", [tick] + group)
                    group = []
                tick = t
                group.append((sq, v))
                if self.selftest is not None:
                    self.selftest.change(sq, v, now)
            if group:
                self.send("SQ", [tick] + group)
        if sc.ghost_changed:
            sc.ghost_changed = False
            g = sc.ghost_squares()
            if g:
                self.send("WARN", ["ghost", "possible ghost on squares %s (matrix without diodes): "
                                   "not reported until a corner piece is lifted" % " ".join([str(x) for x in g])])
            else:
                self.send("WARN", ["ghost", "cleared"])
        if sc.overflow:
            self.send("WARN", ["overflow", "%d square events dropped: snapshot follows" % sc.overflow])
            sc.overflow = 0
            self.send_snapshot(now)

    # -- buttons -------------------------------------------------------------
    def on_button(self, name, t):
        """A debounced press at tick t."""
        if self.selftest is not None:
            if self.selftest.button(name, t):
                self.test_mode(0, t)
                self.send_clock(t)
            return
        if self.menu is not None:
            self.menu_press(name, t)
            return
        c = self.clock
        if self.view is not None and name != "mode":
            self.end_view()            # any other button: the times are back at once
        if name in SIDES:
            s = SIDES.index(name)
            if c.state == clockmod.READY:
                c.start(1 - s, t)  # pressing one's own button starts the opponent's clock
            else:
                c.press(s, t)
            self.low_warned[s] = False
        elif name == "start":
            if c.state == clockmod.READY:
                c.start(0, t)
            elif c.state == clockmod.RUNNING:
                c.pause(t)
            elif c.state in (clockmod.PAUSED, clockmod.ADJOURNED):
                try:
                    c.resume(t)
                except ClockError:
                    pass
        elif name == "mode":
            if c.state == clockmod.RUNNING:
                # the settings view (device/view.py, imported while it shows): the clock keeps
                # running under it; another press of mode ends it
                if self.view is None:
                    from device import view
                    view.start(self, t)
                else:
                    self.end_view()
            else:
                from device.menu import open_list     # imported while the menu is open only
                open_list(self)
        if not self.check_flag(t):
            self.send_clock(t)

    def menu_press(self, name, t):
        """A press (or a key repeat) while the menu or the control entry is open."""
        confirming = self.menu.confirming()
        if self.buttons.rocker is not None and name in SIDES and not confirming:
            name = "black"  # a rocker alternates sides: in the menu every flip means "next"
        r = self.menu.press(name)
        if r is None and self.menu.confirming() != confirming:
            self.send_clock(t)      # the host sees a result waiting for the players' buttons
        if r is not None and r[0] == "list":
            # the control entry hands back to the menu's list (on "custom"): the two take turns in the heap
            self.close_menu()
            from device.menu import open_list
            m = open_list(self, True)
            r = None if r[1] is None else m.choose(r[1])
        if r is None:
            return                  # still open (or another screen took its place: device/menu.py)
        self.close_menu()
        if r[0] == "select":
            self.set_tc(r[1])
        elif r[0] == "test":
            self.test_mode(1, t)
            self.send_snapshot(t)
        else:
            self.arbiter(r, t)
        self.send_clock(t)

    def repeat_keys(self, now):
        """White or black held in the menu steps again after REPEAT_MS, then every REPEAT_EVERY_MS."""
        for name in SIDES:
            h = self.buttons.held(name, now)
            if h >= REPEAT_MS:
                n = (h - REPEAT_MS) // REPEAT_EVERY_MS + 1
                while self.repeated < n and self.menu is not None:
                    self.repeated += 1
                    self.menu_press(name, now)
                return
        self.repeated = 0

    def close_menu(self):
        """Leave the menu or the control entry (if open); its module leaves the heap with it."""
        self.menu = None
        unload("menu")
        unload("tcentry")
        unload("arbiter")

    def arbiter(self, r, t):
        """Carry out what the arbiter entered in the menu; every change goes to the host as EDIT.

        r: ("edit", [(what, side, value)...]), ("bonus", kind, ms) or
        ("result", text) from Menu.press. A refused change shows as a message.
        """
        c = self.clock
        try:
            if r[0] == "edit":
                for what, s, v in r[1]:
                    if what == "time":
                        old = c.remaining[s]
                        c.set_time(s, v, t)
                    else:
                        old = c.moves[s]
                        c.set_moves(s, v, t)
                    self.send("EDIT", [t, what, SIDES[s], old, v, "arbiter"])
                    self.low_warned[s] = False
            elif r[0] == "bonus":
                old = c.bonus[1] if c.bonus else 0
                c.set_bonus(r[1], r[2], t)
                self.send("EDIT", [t, "bonus", "both", old, r[2], r[1]])
            elif r[0] == "result":
                if r[1] == "*":
                    c.reopen(t)
                else:
                    c.finish(r[1], clockmod.BY_ARBITER, t)
                self.send("EDIT", [t, "result", "-", 0, 0, r[1]])
        except ClockError as e:        # refused: said on the displays for 3 s
            self.message = str(e)
            self.message_until = ticks_add(t, 3000)

    def set_tc(self, text):
        """A fresh clock for a preset name or time-control text; raises ValueError."""
        for name, tc in self.presets:
            if name == text:
                text = tc
        for name, tc in PRESETS:
            if name == text:
                text = tc
        self.clock = Clock(text, self.clock.flag_ends, self.clock.play_on)
        self.flags_seen = [None, None]
        self.low_warned = [False, False]

    def check_flag(self, now):
        """Report a flag the clock has found since the last check (the first, then a second one after
        play went on: one per update); True if there was one."""
        f = self.clock.flags
        seen = self.flags_seen
        for s in (0, 1):
            if f[s] is not None and f[s] != seen[s]:
                seen[s] = f[s]
                self.on_flag(s, f[s], now)
                return True
        return False

    def on_flag(self, side, tick, now):
        """A flag fell at `tick`: tell the host, sound the buzzer."""
        self.send("FLAG", [now, side, tick])
        self.send_clock(now)
        if self.buzzer is not None:
            self.buzzer.beep(now, 1500)

    def check_low_time(self, now):
        """One short beep when the running side's time drops below LOW_TIME_MS."""
        c = self.clock
        s = c.to_move
        if c.tc.kind == COUNTUP:
            return
        low = c.remaining[s] < LOW_TIME_MS
        if low and not self.low_warned[s]:
            self.low_warned[s] = True
            if self.buzzer is not None:
                self.buzzer.beep(now, 120)
        elif not low:
            self.low_warned[s] = False

    def test_mode(self, on, now):
        """Enter (1) or leave (0) the self-test: device/selftest.py, imported for it only."""
        from device.selftest import switch
        switch(self, on, now)

    # -- host ------------------------------------------------------------------
    def check_link(self):
        """Report bad frames and sequence gaps from the host."""
        lk = self.link
        if lk.errors != self.errors_seen:
            self.errors_seen = lk.errors
            self.send("WARN", ["bad-frame", (lk.error or "")[:120]])
        if lk.lost != self.lost_seen:
            self.send("WARN", ["lost", "%d host frames lost" % (lk.lost - self.lost_seen)])
            self.lost_seen = lk.lost
        lk.resync = False

    def on_host(self, frame, now):
        """Carry out one host command: ACK first, then any frames it asks for."""
        seq, kind, v = frame
        c = self.clock
        reply = "clock"
        try:
            if kind == "TC":
                if c.state == clockmod.RUNNING:
                    raise ClockError("clock running: pause it first")
                self.set_tc(v[0])
                self.close_menu()
            elif kind == "START":
                c.start(v[0], now)
            elif kind == "PAUSE":
                if c.pause(now) != clockmod.OK:
                    raise ClockError("clock not running")
            elif kind == "RESUME":
                if c.resume(now) != clockmod.OK:
                    raise ClockError("clock already running")
            elif kind == "ADJ":
                c.adjust(v[0], v[1], now)
            elif kind == "TIME":
                c.set_time(v[0], v[1], now)
            elif kind == "MOVES":
                if c.state == clockmod.RUNNING:
                    raise ClockError("pause the clock before setting a move counter")
                c.set_moves(v[0], v[1], now)
            elif kind == "BONUS":
                c.set_bonus(v[0], v[1], now)
            elif kind == "RESULT":
                if v[0] == "*":
                    c.reopen(now)
                else:
                    c.finish(v[0], v[1] or clockmod.BY_HOST, now)
                self.close_menu()
            elif kind == "RESTORE":
                rc = clockmod.restore(v[0], now)
                for side in (0, 1):
                    if rc.tc.kind != COUNTUP and rc.allotted[side] != rc.used[side] + rc.remaining[side]:
                        raise ClockError("inconsistent snapshot: %s's times do not add up" % SIDES[side])
                rc.play_on = self.clock.play_on
                self.clock = rc
                self.flags_seen = list(rc.flags)
            elif kind == "REQ":
                reply = v[0]
                if reply not in ("snap", "hello", "clock"):
                    raise ValueError("unknown request %r (snap, hello, clock)" % reply)
            elif kind == "MSG":
                self.message = v[1]
                self.message_until = ticks_add(now, v[0] * 1000)
                reply = None
            elif kind == "TEST":
                self.test_mode(v[0], now)
                reply = "snap"
            elif kind == "LED":
                self.led_override[0] = v[0]
                self.led_override[1] = v[1]
                reply = None
        except Exception as e:  # any refusal is an answer: the clock must keep running
            self.send("ACK", [seq, "err", (str(e) or type(e).__name__)[:150]])
            return
        self.send("ACK", [seq, "ok", ""])
        if reply == "snap":
            self.send_snapshot(now)
        elif reply == "hello":
            self.send_hello()
        if reply is not None and reply != "hello":
            self.send_clock(now)

    # -- faces -----------------------------------------------------------------
    def update_leds(self):
        """Side LEDs: the host's setting, else lit while that side's clock runs."""
        if self.leds is None:
            return
        if self.selftest is not None:
            self.selftest.leds(self.leds, self.ticks_ms())
            return
        c = self.clock
        for s in (0, 1):
            o = self.led_override[s]
            if o >= 0:
                self.leds.set(s, o)
            else:
                self.leds.set(s, c.state == clockmod.RUNNING and c.to_move == s)

    def faces(self):
        """(white 4-digit text, black 4-digit text, lines for a text display)."""
        if self.message is not None:
            m = self.message
            return (m, m[4:] or m, (m[:16], m[16:32], m[32:48]))
        if self.selftest is not None:
            return self.selftest.faces()
        if self.menu is not None:
            w, b = self.menu.faces()
            return (w, b, self.menu.lines())
        c = self.clock
        bat = self.battery
        pct = None if bat is None else bat.pct
        if self.view is not None:
            from device import view
            return view.faces(self, pct)
        v = display.view(c)
        status = self.status()
        # the level, or "?" while the battery's monitor does not answer (-1: flagcore/battery.py)
        power = () if bat is None else (("BATTERY LOW %s" if bat.low else "battery %s") % (
            "?" if pct < 0 else "%d%%" % pct),)
        if c.result is not None:
            status = "%s %s" % (c.result, c.reason)
            return (_score4(v[0]["score"]), _score4(v[1]["score"]),
                    (status, "W " + display.line(c, 0, v[0]), "B " + display.line(c, 1, v[1])) + power)
        w, b = v[0]["time"], v[1]["time"]
        if c.flag is not None:
            status = "%s flag" % SIDES[c.flag]
            if v[0]["flag_order"]:
                status += " 1st"        # both fell: the faces say which fell first
                w, b = "FL %d" % v[0]["flag_order"], "FL %d" % v[1]["flag_order"]
        return (w, b, ("%s %s" % (c.tc.text()[:10], status), "W " + display.line(c, 0, v[0]),
                       "B " + display.line(c, 1, v[1])) + power)

    def end_view(self):
        """End the settings view; its module leaves the heap with it."""
        self.view = None
        unload("view")

    def refresh(self, now, force=False):
        """Redraw the displays (each face skips unchanged text)."""
        if not force and ticks_diff(now, self.next_display) < 0:
            return
        self.next_display = ticks_add(now, DISPLAY_MS)
        if not self.displays or (self.selftest is not None and self.selftest.pattern(now)):
            return
        w, b, lines = self.faces()
        for d in self.displays:
            d.show(w, b, lines)
