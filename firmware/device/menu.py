"""Time-control and arbiter menu driven by the clock's own buttons.

In the list: white = previous, black = next, start = choose, mode = leave.
The list opens on the user's stored controls (U1..U5, device/slots.py: U1 is two presses from the
clock's face, mode then start) when there are any, else on the control in use; the presets follow,
then "custom", which enters any control the clock runs (device/tcentry.py: this module leaves the
heap while it is open; press() returns ("custom", None) for the app to open it). White and black
repeat while held (device/app.py).

With no game under way "test" comes just before "custom": start enters the
self-test for bringing up a board (device/selftest.py, docs/firmware.md).

With a game under way (the clock paused, flagged, adjourned or finished) the
list also holds the arbiter's entries, and opens on the first of them:
  edit    both times and both move counters, digit by digit (h:mm:ss, then
          moves 000): white/black step the digit, mode moves to the next
          digit, start applies every value that was changed;
  bonus   from now on an increment (+) or a delay (d) of N s for both
          players (FIDE Laws, Guidelines III.4): white/black step through
          the choices, start applies;
  result  1-0, 0-1, 1/2-1/2, 0-0 (or reopen a finished game): start chooses, then
          both players confirm it with their own buttons (each face shows YES
          once its player has pressed; mode withdraws it) and it applies.
A game under way (paused, flagged or adjourned, not finished) is never
replaced by a press: choosing a preset or a custom control then asks for
start to be held (HOLD_MS in device/app.py, which watches the button);
any other button keeps the game.
press() returns None while the menu stays open, ("select", text), ("custom", None),
("edit", [(what, side, value), ...]), ("bonus", kind, ms), ("result", text),
("test", None) or ("cancel", None).
"""

from flagcore import timecontrol as tcm

CUSTOM = "custom"
EDIT = "edit"
BONUS = "bonus"
RESULT = "result"
CONFIRM = "confirm"    # a result chosen, waiting for both players' buttons
TEST = "test"
ERASE = "erase"        # a new control chosen over a game under way: start must be held
BONUSES = ("+5", "d5", "+10", "d10", "+30", "+2", "+3")
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0")
REOPEN = "*"
SIDE_WORDS = ("white", "black")
# edit: digits 0-4 h:mm:ss of white, 5-9 of black, 10-12 white's moves, 13-15 black's
TIME_WRAP = (10, 6, 10, 6, 10)


def _base_minutes(text):
    try:
        tc = tcm.parse(text)
    except ValueError:
        return 0
    if not tc.periods:
        return 0
    return tc.periods[0][1] // 60000


def edit_digits(ms, moves):
    """[h, m, m, s, s] of a time (seconds rounded up as shown, 9:59:59 at most) and [d, d, d] of moves."""
    secs = min((ms + 999) // 1000, 35999)
    m = secs // 60 % 60
    s = secs % 60
    moves = min(moves, 999)
    return [secs // 3600, m // 10, m % 10, s // 10, s % 10], [moves // 100, moves // 10 % 10, moves % 10]


class Menu:
    """The menu over a list of (name, time-control text) presets.

    clock: the clock of a game under way, to offer the arbiter's entries
    (edit, bonus, result) with its present values; None for the list alone.
    stored: the user's controls [(slot, text)] (device/slots.py), listed first as U1..U5.
    """

    entering = False       # not the control entry (device/tcentry.py): what it returns has passed choose()

    def __init__(self, presets, current=None, clock=None, stored=()):
        self.items = [("U%d" % k, tc) for k, tc in stored] + list(presets)
        self.stored = len(stored)
        self.entries = (TEST, CUSTOM) if clock is None else (CUSTOM, EDIT, BONUS, RESULT)
        self.i = 0
        if not stored:
            for k in range(len(self.items)):
                if self.items[k][1] == current:
                    self.i = k
        if clock is not None:
            self.i = len(self.items) + 1     # open on "edit"
        self.clock = clock
        self.mode = None       # None (the list), CUSTOM, EDIT, BONUS, RESULT or CONFIRM
        self.agreed = [False, False]
        self.field = 0

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
        """True while a chosen result waits for both players' buttons (a rocker's side counts)."""
        return self.mode == CONFIRM

    def press(self, name):
        """Handle a button; see the module docstring for what it returns."""
        step = 1 if name == "black" else -1 if name == "white" else 0
        mode = self.mode
        if mode == EDIT:
            return self._edit_press(name, step)
        if mode == ERASE:
            # only holding start replaces the game (the app watches it); mode or a player's button keeps it
            if name != "start":
                self.mode = None
            return None
        if mode == CONFIRM:
            # each player presses their own button to agree to the result; mode withdraws it
            if name == "mode":
                return ("cancel", None)
            if name in SIDE_WORDS:
                self.agreed[SIDE_WORDS.index(name)] = True
                if self.agreed[0] and self.agreed[1]:
                    return (RESULT, self.choices[self.field])
            return None
        if mode is not None:                 # BONUS or RESULT: a list of choices
            if step:
                self.field = (self.field + step) % len(self.choices)
            elif name == "mode":
                return ("cancel", None)
            elif name == "start":
                c = self.choices[self.field]
                if mode == BONUS:
                    return (BONUS, c[0], int(c[1:]) * 1000)
                if c == REOPEN:
                    return (RESULT, c)
                self.mode = CONFIRM              # a result needs both players' buttons
                self.agreed = [False, False]
            return None
        n = len(self.items)
        if step:
            self.i = (self.i + step) % (n + len(self.entries))
        elif name == "mode":
            return ("cancel", None)
        elif name == "start":
            if self.i < n:
                return self.choose(self.items[self.i][1])
            self.mode = self.entries[self.i - n]
            if self.mode == TEST or self.mode == CUSTOM:
                return (self.mode, None)
            self.field = 0
            c = self.clock
            if self.mode == EDIT:
                self.digits = list(edit_digits(c.shown_ms(0), c.moves[0])) + list(edit_digits(c.shown_ms(1), c.moves[1]))
                self.before = [list(d) for d in self.digits]
            elif self.mode == BONUS:
                self.choices = BONUSES
            elif self.mode == RESULT:
                self.choices = RESULTS + ((REOPEN,) if c.result is not None else ())
        return None

    # -- arbiter: times and move counters --------------------------------------
    def where(self, field=None):
        """(what, side, index in self.digits, digit) of an edit field (default: the one being edited)."""
        f = self.field if field is None else field
        if f < 10:
            return ("time", f // 5, 2 * (f // 5), f % 5)
        f -= 10
        return ("moves", f // 3, 2 * (f // 3) + 1, f % 3)

    def _edit_press(self, name, step):
        if step:
            what, s, k, d = self.where()
            lim = TIME_WRAP[d] if what == "time" else 10
            self.digits[k][d] = (self.digits[k][d] + step) % lim
        elif name == "mode":
            self.field = (self.field + 1) % 16
        elif name == "start":
            return ("edit", self.changes())
        return None

    def changes(self):
        """[(what, side, value)] for every value edited: ('time', s, ms) or ('moves', s, count)."""
        out = []
        for k in range(4):
            d = self.digits[k]
            if d == self.before[k]:
                continue
            if k & 1:
                out.append(("moves", k >> 1, d[0] * 100 + d[1] * 10 + d[2]))
            else:
                out.append(("time", k >> 1, ((d[0] * 60 + d[1] * 10 + d[2]) * 60 + d[3] * 10 + d[4]) * 1000))
        return out

    # -- faces ---------------------------------------------------------------------
    def lines(self):
        """Text lines for a display that shows several lines."""
        mode = self.mode
        if mode == ERASE:
            return ("new: " + self.pending, "hold start: yes", "else: keep game")
        if mode == EDIT:
            what, s, k, d = self.where()
            parts = [str(x) for x in self.digits[k]]
            parts[d] = "[%s]" % parts[d]
            v = "%s:%s%s:%s%s" % tuple(parts) if what == "time" else "".join(parts)
            return ("edit %s %s" % (SIDE_WORDS[s], what), v, "start: apply")
        if mode is not None:
            c = self.choices[self.field]
            if mode == BONUS:
                return ("both, from now", ("increment %s s" if c[0] == "+" else "delay %s s") % c[1:], "start: apply")
            return ("result", "reopen" if c == REOPEN else c, "start: apply")
        head = "menu %d/%d" % (self.i + 1, len(self.items) + len(self.entries))
        if self.i < len(self.items):
            return (head,) + tuple(self.items[self.i])
        e = self.entry()
        return (head, e, "enter a control" if e == CUSTOM else "times, moves" if e == EDIT
                else "+N s for both" if e == BONUS else "sensors, buttons" if e == TEST else "end the game")

    def faces(self):
        """(white, black) texts for two 4-digit displays."""
        mode = self.mode
        if mode == EDIT:
            what, s, k, d = self.where()
            t = self.digits[k]
            if what == "time":
                value = "%d:%d%d" % (t[0], t[1], t[2]) if d < 3 else "%d%d:%d%d" % (t[1], t[2], t[3], t[4])
                label = "T  %d" % (d + 1)
            else:
                value = " %d%d%d" % (t[0], t[1], t[2])
                label = "N  %d" % (d + 1)
            return (label, value) if s else (value, label)
        if mode == ERASE:
            return ("HOLD", "STRT")
        if mode == BONUS:
            c = self.choices[self.field]
            return ("INC" if c[0] == "+" else "DEL", "%4s" % c[1:])
        if mode == RESULT:
            c = self.choices[self.field]
            return ("RES", "OPEN" if c == REOPEN else "HALF" if c == "1/2-1/2" else c)
        if mode == CONFIRM:
            # each face: the result, then YES once its player has pressed (no K on 7 segments)
            c = self.choices[self.field]
            word = "HALF" if c == "1/2-1/2" else c
            return ("YES " if self.agreed[0] else word, "YES " if self.agreed[1] else word)
        head = "P%3d" % (self.i + 1 - self.stored)
        if self.i < self.stored:         # a user slot: U and its number
            head = "U%3s" % self.items[self.i][0][1:]
        if self.i < len(self.items):
            return (head, "%4d" % _base_minutes(self.items[self.i][1]))
        e = self.entry()
        return (head, "CUST" if e == CUSTOM else "EDIT" if e == EDIT else "ADD" if e == BONUS
                else "TEST" if e == TEST else "RES")
