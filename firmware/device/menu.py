"""Time-control menu driven by the clock's own buttons.

In the list: white = previous, black = next, start = choose, mode = leave.
The last entry, "custom", enters a time: minutes and increment seconds,
each stepping through a list of usual values (wrapping, so a rocker that
only ever says "next" can reach every value); white/black step the field
being edited back/forward, mode moves to the other field, start chooses
("300+3" for 5 min + 3 s, or "300", sudden death, when the increment is 0).
press() returns None while the menu stays open, ("select", text) or
("cancel", None).
"""

from flagcore import timecontrol as tcm

CUSTOM = "custom"
MINUTES = (1, 2, 3, 5, 10, 15, 20, 25, 30, 45, 60, 75, 90, 120, 150, 180)
INCREMENTS = (0, 1, 2, 3, 5, 10, 15, 20, 30, 60)


def _base_minutes(text):
    try:
        tc = tcm.parse(text)
    except ValueError:
        return 0
    if not tc.periods:
        return 0
    return tc.periods[0][1] // 60000


class Menu:
    """The menu over a list of (name, time-control text) presets."""

    def __init__(self, presets, current=None):
        self.items = list(presets)
        self.i = 0
        for k in range(len(self.items)):
            if self.items[k][1] == current:
                self.i = k
        self.custom = False
        self.field = 0
        self.mi = 3   # 5 minutes
        self.ii = 3   # + 3 s

    def press(self, name):
        """Handle a button; returns None, ("select", tc text) or ("cancel", None)."""
        if self.custom:
            return self._custom_press(name)
        n = len(self.items) + 1
        if name == "white":
            self.i = (self.i - 1) % n
        elif name == "black":
            self.i = (self.i + 1) % n
        elif name == "mode":
            return ("cancel", None)
        elif name == "start":
            if self.i == len(self.items):
                self.custom = True
                self.field = 0
                return None
            return ("select", self.items[self.i][1])
        return None

    def _custom_press(self, name):
        step = 1 if name == "black" else -1 if name == "white" else 0
        if step:
            if self.field == 0:
                self.mi = (self.mi + step) % len(MINUTES)
            else:
                self.ii = (self.ii + step) % len(INCREMENTS)
        elif name == "mode":
            self.field = 1 - self.field
        elif name == "start":
            return ("select", self.custom_text())
        return None

    def custom_text(self):
        """The entered time control as time-control text."""
        secs = MINUTES[self.mi] * 60
        inc = INCREMENTS[self.ii]
        return "%d+%d" % (secs, inc) if inc else "%d" % secs

    def lines(self):
        """Text lines for a display that shows several lines."""
        if self.custom:
            m = MINUTES[self.mi]
            inc = INCREMENTS[self.ii]
            mark = ("[%d] min" % m, "+%d s" % inc)
            if self.field == 1:
                mark = ("%d min" % m, "[+%d] s" % inc)
            return ("custom time", mark[0], mark[1])
        if self.i == len(self.items):
            return ("menu %d/%d" % (self.i + 1, len(self.items) + 1), CUSTOM, "enter a time")
        name, text = self.items[self.i]
        return ("menu %d/%d" % (self.i + 1, len(self.items) + 1), name, text)

    def faces(self):
        """(white, black) texts for two 4-digit displays."""
        if self.custom:
            return ("%4d" % MINUTES[self.mi], "%4d" % INCREMENTS[self.ii])
        if self.i == len(self.items):
            return ("P%3d" % (self.i + 1), "CUST")
        return ("P%3d" % (self.i + 1), "%4d" % _base_minutes(self.items[self.i][1]))
