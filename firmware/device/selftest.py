"""Self-test mode for bringing up a newly built board (docs/firmware.md, "Self-test").

Imported only when the test is entered (the clock's menu entry "test", or the
host frame TEST 1), so a device playing games never holds this code in its
heap; the app drops it again when the test ends.

While it runs:
  * every settled sensor change still goes to the host as an SQ frame at
    once (the scanner's debounce, no other grouping), and every button
    press as a BTN frame; the clock is left alone (presses do not reach it);
  * the displays start with a test pattern for PATTERN_MS (every segment of
    a 4-digit display with its colon, every pixel of a text display), then
    show the number of closed sensors (white's face) and the last sensor
    that changed with '-' after it when it opened (black's face), and on a text
    display also its matrix row/column and the last button pressed;
  * the buzzer beeps once per sensor change (short) and per button (longer);
    the white LED is lit while any sensor is closed, the black LED flashes
    for each change.
Pressing "mode" EXIT_PRESSES times in a row leaves the test (the host ends it
with TEST 0).
"""

from device import unload
from flagcore import clock as clockmod
from flagcore._compat import const
from flagcore.ticks import ticks_add, ticks_diff

PATTERN_MS = const(1500)
_ENTIRE_ON = const(0xA4)    # SSD1306: | 1 lights every pixel, 0xA4 shows the RAM again
FLASH_MS = const(150)
EXIT_PRESSES = const(3)


def switch(app, on, now):
    """Enter (on=1) or leave (on=0) the self-test on an App; raises ValueError/ClockError if refused."""
    if on not in (0, 1):
        raise ValueError("TEST takes 1 (start) or 0 (stop), not %d" % on)
    if on:
        if app.clock.state == clockmod.RUNNING:
            raise clockmod.ClockError("clock running: pause it before the self-test")
        if app.selftest is None:
            app.close_menu()
            app.selftest = SelfTest(app, now)
    else:
        app.selftest = None
        for d in app.displays:
            d.lines = None            # redraw the clock in full
        unload("selftest")            # this code leaves the heap too (device.unload)
    app.refresh(now, True)


class SelfTest:
    """The test's state: counts and last events; the app calls change(), button() and faces()."""

    def __init__(self, app, now):
        self.app = app
        sc = app.scanner
        self.closed = 0
        if sc is not None:
            snap = sc.snapshot()
            for i in range(sc.n):
                if snap[i]:
                    self.closed += 1
        self.last = -1
        self.last_v = 0
        self.button_name = ""
        self.mode_presses = 0
        self.changes = 0
        self.presses = 0
        self.pattern_until = ticks_add(now, PATTERN_MS)
        self.flash_until = now
        self.lit = False
        for d in app.displays:            # the app does not redraw them until the pattern is over
            drv = d.driver
            if hasattr(d, "rows"):        # a text display: every pixel lit, whatever its RAM holds
                drv.write_cmd(_ENTIRE_ON | 1)
                self.lit = True
            else:                         # a 4-digit display: every segment and the colon
                drv.show("8888", True)
            d.lines = None                # redrawn in full after the pattern
        if app.buzzer is not None:
            app.buzzer.beep(now, 200)

    def change(self, sq, v, now):
        """A settled sensor change (already sent as SQ)."""
        self.closed += 1 if v else -1
        self.last = sq
        self.last_v = v
        self.changes += 1
        self.flash_until = ticks_add(now, FLASH_MS)
        if self.app.buzzer is not None:
            self.app.buzzer.beep(now, 25)

    def button(self, name, now):
        """A button press (already sent as BTN); True when the test should end."""
        self.button_name = name
        self.presses += 1
        self.flash_until = ticks_add(now, FLASH_MS)
        if self.app.buzzer is not None:
            self.app.buzzer.beep(now, 80, 1800)
        if name == "mode":
            self.mode_presses += 1
            return self.mode_presses >= EXIT_PRESSES
        self.mode_presses = 0
        return False

    def pattern(self, now):
        """True while the start-up test pattern is shown."""
        return ticks_diff(now, self.pattern_until) < 0

    def leds(self, leds, now):
        """White: some sensor closed; black: a change or press just now."""
        leds.set(0, self.closed > 0)
        leds.set(1, ticks_diff(now, self.flash_until) < 0)

    def where(self):
        """The last changed sensor as text ('r3c4' on a matrix, 's12' otherwise)."""
        if self.last < 0:
            return "-"
        sc = self.app.scanner
        s = self.app.profile.get("sensors") or {}
        if s.get("type") == "matrix":
            return "r%dc%d" % (self.last // sc.cols, self.last % sc.cols)
        return "s%d" % self.last

    def faces(self):
        """(white 4-digit text, black 4-digit text, text-display lines) for the app."""
        if self.lit:                       # the pattern is over: text displays show their RAM again
            self.lit = False
            for d in self.app.displays:
                if hasattr(d, "rows"):
                    d.driver.write_cmd(_ENTIRE_ON)
        last = "----" if self.last < 0 else ("%3d%s" % (self.last, " " if self.last_v else "-"))
        return ("%4d" % self.closed, last,
                ("TEST closed %d" % self.closed,
                 "last %s %s" % (self.where(), ("" if self.last < 0 else "on" if self.last_v else "off")),
                 "btn %s" % (self.button_name or "-")))
