"""Time-control and arbiter menu driven by the clock's own buttons.

In the list: white = previous, black = next, start = choose, mode = leave.
The list opens on the user's stored controls (U1..U5, device/slots.py) when there are any: on the
one in use, else on U1 (two presses from the clock's face, mode then start); else on the control in
use; the presets follow,
then "custom", which enters any control the clock runs (device/tcentry.py: this module leaves the
heap while it is open). White and black
repeat while held (device/app.py).

With no game under way "test" comes just before "custom": start enters the
self-test for bringing up a board (device/selftest.py, docs/firmware.md).

With a game under way (the clock paused, flagged, adjourned or finished) the
list also holds the arbiter's entries (edit, bonus, result: device/arbiter.py,
which takes this module's turn in the heap), and opens on the first of them.
A game under way (paused, flagged or adjourned, not finished) is never
replaced by a press: choosing a preset or a custom control then asks for
start to be held (HOLD_MS in device/app.py, which watches the button);
any other button keeps the game.
press() returns None while the menu stays open (or the control entry or the
arbiter's entry has taken its place as the app's menu), ("select", text),
("test", None) or ("cancel", None); with no app, ("custom", None) or
("edit"/"bonus"/"result", None) for the entry chosen.
"""

from device import unload
from flagcore import timecontrol as tcm

CUSTOM = "custom"
EDIT = "edit"
BONUS = "bonus"
RESULT = "result"
TEST = "test"
ERASE = "erase"        # a new control chosen over a game under way: start must be held


def _base_minutes(text):
    try:
        tc = tcm.parse(text)
    except ValueError:
        return 0
    if not tc.periods:
        return 0
    return tc.periods[0][1] // 60000


def open_list(app, at_custom=False):
    """Open the list on app's faces (the clock stopped), with the arbiter's entries over a game under way
    and the user's stored controls first (app.stored: read the first time, kept after); returns it."""
    c = app.clock
    if app.stored is None:          # the first time: read from the store (device/slots.py), then kept
        from device import slots
        app.stored = slots.read(app.hal)
        unload("slots")
    m = Menu(app.presets, c.tc.text(), None if c.state == 0 else c, app.stored, app)     # 0: READY
    if at_custom:
        m.i = len(m.items) + m.entries.index(CUSTOM)
    app.menu = m
    return m


class Menu:
    """The menu over a list of (name, time-control text) presets.

    clock: the clock of a game under way, to offer the arbiter's entries
    (edit, bonus, result) with its present values; None for the list alone.
    stored: the user's controls [(slot, text)] (device/slots.py), listed first as U1..U5.
    """

    def __init__(self, presets, current=None, clock=None, stored=(), app=None):
        self.items = [("U%d" % k, tc) for k, tc in stored] + list(presets)
        self.stored = len(stored)
        self.entries = (TEST, CUSTOM) if clock is None else (CUSTOM, EDIT, BONUS, RESULT)
        self.i = 0
        # open on the control in use: among the stored ones when there are any (else on U1), so the
        # control of the last round is mode then start again
        for k in range(len(stored) or len(self.items)):
            if self.items[k][1] == current:
                self.i = k
        if clock is not None:
            self.i = len(self.items) + 1     # open on "edit"
        self.clock = clock
        self.app = app         # the app whose menu this is: the control entry and the arbiter take its place
        self.mode = None       # None (the list) or ERASE

    def entry(self):
        """Name of the entry under the cursor in the list (a preset's name, 'custom', 'edit', ...)."""
        n = len(self.items)
        return self.items[self.i][0] if self.i < n else self.entries[self.i - n]

    def erasing(self):
        """True while a new control chosen over a game under way waits for start to be held."""
        return self.mode == ERASE

    def choose(self, text):
        """("select", text), or over a game under way the wait for start to be held (None)."""
        c = self.clock
        if c is not None and c.result is None:
            self.mode = ERASE
            self.pending = text
            return None
        return ("select", text)

    def confirming(self):
        """Never here: a result waits for the players' buttons in device/arbiter.py."""
        return False

    def press(self, name):
        """Handle a button; see the module docstring for what it returns."""
        step = 1 if name == "black" else -1 if name == "white" else 0
        if self.mode == ERASE:
            # only holding start replaces the game (the app watches it); mode or a player's button keeps it
            if name != "start":
                self.mode = None
            return None
        n = len(self.items)
        if step:
            self.i = (self.i + step) % (n + len(self.entries))
        elif name == "mode":
            return ("cancel", None)
        elif name == "start":
            if self.i < n:
                return self.choose(self.items[self.i][1])
            e = self.entries[self.i - n]
            app = self.app
            if e == TEST or app is None:
                return (e, None)
            # the control entry or the arbiter's entries take this module's place in the heap
            app.menu = None
            unload("menu")
            if e == CUSTOM:
                from device.tcentry import Entry
                app.menu = Entry(app)
            else:
                from device.arbiter import Arbiter
                app.menu = Arbiter(e, self.clock)
        return None

    # -- faces ---------------------------------------------------------------------
    def lines(self):
        """Text lines for a display that shows several lines."""
        if self.mode == ERASE:
            return ("new: " + self.pending, "hold start: yes", "else: keep game")
        head = "menu %d/%d" % (self.i + 1, len(self.items) + len(self.entries))
        if self.i < len(self.items):
            return (head,) + tuple(self.items[self.i])
        e = self.entry()
        return (head, e, "enter a control" if e == CUSTOM else "times, moves" if e == EDIT
                else "+N s for both" if e == BONUS else "sensors, buttons" if e == TEST else "end the game")

    def faces(self):
        """(white, black) texts for two 4-digit displays."""
        if self.mode == ERASE:
            return ("HOLD", "STRT")
        head = "P%3d" % (self.i + 1 - self.stored)
        if self.i < self.stored:         # a user slot: U and its number
            head = "U%3s" % self.items[self.i][0][1:]
        if self.i < len(self.items):
            return (head, "%4d" % _base_minutes(self.items[self.i][1]))
        e = self.entry()
        return (head, "CUST" if e == CUSTOM else "EDIT" if e == EDIT else "ADD" if e == BONUS
                else "TEST" if e == TEST else "RES")
