"""Time-control and arbiter menu driven by the clock's own buttons.

In the list: white = previous, black = next, start = choose, mode = leave.
After the presets comes "custom", which enters a time for each side:
minutes and increment seconds, each stepping through a list of usual values
(wrapping, so a rocker that only ever says "next" can reach every value);
white/black step the field being edited back/forward, mode moves to the next
field (white minutes, white increment, black minutes, black increment),
start chooses. Black's fields follow White's until one of them is changed:
"300+3" for 5 min + 3 s each, "W300+3-B240+3" for time odds (docs/clock.md).

With a game under way (the clock paused, flagged, adjourned or finished) the
list also holds the arbiter's entries, and opens on the first of them:
  edit    both times and both move counters, digit by digit (h, mm, ss;
          moves 000): white/black step the digit, mode moves to the next
          digit, start applies every value that was changed;
  bonus   from now on, an increment (or delay) of N s for both players
          (FIDE Laws, Guidelines III.4): mode switches increment/delay and
          seconds, start applies;
  result  1-0, 0-1, 1/2-1/2, 0-0 (or reopen a finished game): start applies.
press() returns None while the menu stays open, ("select", text),
("edit", [(what, side, value), ...]), ("bonus", kind, ms), ("result", text)
or ("cancel", None).
"""

from flagcore import timecontrol as tcm

CUSTOM = "custom"
EDIT = "edit"
BONUS = "bonus"
RESULT = "result"
ARBITER_ITEMS = (EDIT, BONUS, RESULT)
MINUTES = (1, 2, 3, 5, 10, 15, 20, 25, 30, 45, 60, 75, 90, 120, 150, 180)
INCREMENTS = (0, 1, 2, 3, 5, 10, 15, 20, 30, 60)
BONUS_SECONDS = (5, 10, 15, 30, 1, 2, 3)
RESULT_CHOICES = ("1-0", "0-1", "1/2-1/2", "0-0")
REOPEN = "*"
SIDE_WORDS = ("white", "black")
# edit positions: (what, side, digit); time digits h, m, m, s, s; move digits 000
_TIME_LIMITS = (10, 6, 10, 6, 10)
_POSITIONS = tuple([("time", 0, d) for d in range(5)] + [("time", 1, d) for d in range(5)]
                   + [("moves", 0, d) for d in range(3)] + [("moves", 1, d) for d in range(3)])


def _base_minutes(text):
    try:
        tc = tcm.parse(text)
    except ValueError:
        return 0
    if not tc.periods:
        return 0
    return tc.periods[0][1] // 60000


def _time_digits(ms):
    """[h, m, m, s, s] of a time in ms, seconds rounded up as the display shows them (9:59:59 at most)."""
    secs = (ms + 999) // 1000
    if secs > 35999:
        secs = 35999
    h, rest = secs // 3600, secs % 3600
    m, s = rest // 60, rest % 60
    return [h, m // 10, m % 10, s // 10, s % 10]


def _digits_ms(d):
    return ((d[0] * 60 + d[1] * 10 + d[2]) * 60 + d[3] * 10 + d[4]) * 1000


class Menu:
    """The menu over a list of (name, time-control text) presets.

    clock: the clock of a game under way, to offer the arbiter's entries
    (edit, bonus, result) with its present values; None for the list alone.
    """

    def __init__(self, presets, current=None, clock=None):
        self.items = list(presets)
        self.entries = [CUSTOM]
        self.i = 0
        for k in range(len(self.items)):
            if self.items[k][1] == current:
                self.i = k
        self.clock = clock
        if clock is not None:
            self.entries += list(ARBITER_ITEMS)
            self.i = len(self.items) + 1     # open on "edit"
        self.mode = None       # None (the list), CUSTOM, EDIT, BONUS or RESULT
        self.field = 0
        self.mi = [3, 3]       # 5 minutes for each side
        self.ii = [3, 3]       # + 3 s for each side
        self.linked = True     # black's control follows white's

    @property
    def custom(self):
        """True while a custom control is being entered."""
        return self.mode == CUSTOM

    def entry(self):
        """Name of the entry under the cursor in the list (a preset's name, 'custom', 'edit', ...)."""
        if self.i < len(self.items):
            return self.items[self.i][0]
        return self.entries[self.i - len(self.items)]

    def press(self, name):
        """Handle a button; see the module docstring for what it returns."""
        if self.mode == CUSTOM:
            return self._custom_press(name)
        if self.mode == EDIT:
            return self._edit_press(name)
        if self.mode == BONUS:
            return self._bonus_press(name)
        if self.mode == RESULT:
            return self._result_press(name)
        n = len(self.items) + len(self.entries)
        if name == "white":
            self.i = (self.i - 1) % n
        elif name == "black":
            self.i = (self.i + 1) % n
        elif name == "mode":
            return ("cancel", None)
        elif name == "start":
            if self.i < len(self.items):
                return ("select", self.items[self.i][1])
            self._enter(self.entries[self.i - len(self.items)])
        return None

    def _enter(self, entry):
        self.mode = entry
        self.field = 0
        c = self.clock
        if entry == EDIT:
            self.digits = [_time_digits(c.shown_ms(0)), _time_digits(c.shown_ms(1)),
                           self._move_digits(c.moves[0]), self._move_digits(c.moves[1])]
            self.start_digits = [list(d) for d in self.digits]
        elif entry == BONUS:
            self.bkind = "+"
            self.bi = 0
        elif entry == RESULT:
            self.choices = RESULT_CHOICES + ((REOPEN,) if c.result is not None else ())
            self.ri = 0

    @staticmethod
    def _move_digits(n):
        n = n if n < 999 else 999
        return [n // 100, (n // 10) % 10, n % 10]

    # -- custom control ------------------------------------------------------
    def _custom_press(self, name):
        step = 1 if name == "black" else -1 if name == "white" else 0
        if step:
            s = self.field >> 1
            if s == 1:
                self.linked = False
            if self.field & 1:
                self.ii[s] = (self.ii[s] + step) % len(INCREMENTS)
            else:
                self.mi[s] = (self.mi[s] + step) % len(MINUTES)
            if self.linked:
                self.mi[1] = self.mi[0]
                self.ii[1] = self.ii[0]
        elif name == "mode":
            self.field = (self.field + 1) % 4
        elif name == "start":
            return ("select", self.custom_text())
        return None

    def _side_text(self, s):
        secs = MINUTES[self.mi[s]] * 60
        inc = INCREMENTS[self.ii[s]]
        return "%d+%d" % (secs, inc) if inc else "%d" % secs

    def custom_text(self):
        """The entered time control as time-control text ('W...-B...' when the sides differ)."""
        w = self._side_text(0)
        b = self._side_text(1)
        return w if w == b else "W%s-B%s" % (w, b)

    # -- arbiter: times and move counters --------------------------------------
    def _edit_press(self, name):
        step = 1 if name == "black" else -1 if name == "white" else 0
        what, s, d = _POSITIONS[self.field]
        if step:
            k = s if what == "time" else 2 + s
            lim = _TIME_LIMITS[d] if what == "time" else 10
            self.digits[k][d] = (self.digits[k][d] + step) % lim
        elif name == "mode":
            self.field = (self.field + 1) % len(_POSITIONS)
        elif name == "start":
            return ("edit", self.changes())
        return None

    def changes(self):
        """[(what, side, value)] for every value edited: ('time', s, ms) or ('moves', s, count)."""
        out = []
        for k in range(4):
            d = self.digits[k]
            if d == self.start_digits[k]:
                continue
            if k < 2:
                out.append(("time", k, _digits_ms(d)))
            else:
                out.append(("moves", k - 2, d[0] * 100 + d[1] * 10 + d[2]))
        return out

    def _edit_value(self, k, mark):
        """Text of value k (0, 1 times; 2, 3 moves) with the digit `mark` bracketed (-1: none)."""
        d = self.digits[k]
        parts = [str(x) for x in d]
        if 0 <= mark:
            parts[mark] = "[%s]" % parts[mark]
        if k < 2:
            return "%s:%s%s:%s%s" % tuple(parts)
        return "".join(parts)

    # -- arbiter: bonus and result -----------------------------------------------
    def _bonus_press(self, name):
        step = 1 if name == "black" else -1 if name == "white" else 0
        if step:
            if self.field == 0:
                self.bkind = "d" if self.bkind == "+" else "+"
            else:
                self.bi = (self.bi + step) % len(BONUS_SECONDS)
        elif name == "mode":
            self.field = 1 - self.field
        elif name == "start":
            return ("bonus", self.bkind, BONUS_SECONDS[self.bi] * 1000)
        return None

    def _result_press(self, name):
        step = 1 if name == "black" else -1 if name == "white" else 0
        if step:
            self.ri = (self.ri + step) % len(self.choices)
        elif name == "mode":
            return ("cancel", None)
        elif name == "start":
            return ("result", self.choices[self.ri])
        return None

    # -- faces ---------------------------------------------------------------------
    def lines(self):
        """Text lines for a display that shows several lines."""
        if self.mode == CUSTOM:
            s = self.field >> 1
            m = MINUTES[self.mi[s]]
            inc = INCREMENTS[self.ii[s]]
            mark = ("[%d] min" % m, "+%d s" % inc)
            if self.field & 1:
                mark = ("%d min" % m, "[+%d] s" % inc)
            head = "custom time" if self.linked and s == 0 else "custom " + SIDE_WORDS[s]
            return (head, mark[0], mark[1])
        if self.mode == EDIT:
            what, s, d = _POSITIONS[self.field]
            k = s if what == "time" else 2 + s
            return ("edit %s %s" % (SIDE_WORDS[s], what), self._edit_value(k, d), "start: apply")
        if self.mode == BONUS:
            kind = "increment" if self.bkind == "+" else "delay"
            secs = BONUS_SECONDS[self.bi]
            if self.field == 0:
                return ("bonus, both", "[%s]" % kind, "%d s" % secs)
            return ("bonus, both", kind, "[%d] s" % secs)
        if self.mode == RESULT:
            r = self.choices[self.ri]
            return ("result", "reopen" if r == REOPEN else r, "start: apply")
        head = "menu %d/%d" % (self.i + 1, len(self.items) + len(self.entries))
        if self.i >= len(self.items):
            e = self.entry()
            return (head, e, {CUSTOM: "enter a time", EDIT: "times, moves",
                              BONUS: "add +N s", RESULT: "end the game"}[e])
        name, text = self.items[self.i]
        return (head, name, text)

    def faces(self):
        """(white, black) texts for two 4-digit displays."""
        if self.mode == CUSTOM:
            s = self.field >> 1          # minutes and increment of the side being entered
            return (("B%3d" if s else "%4d") % MINUTES[self.mi[s]], "%4d" % INCREMENTS[self.ii[s]])
        if self.mode == EDIT:
            what, s, d = _POSITIONS[self.field]
            if what == "time":
                t = self.digits[s]
                value = ("%d:%d%d" % (t[0], t[1], t[2])) if d < 3 else ("%d%d:%d%d" % (t[1], t[2], t[3], t[4]))
                label = "T  %d" % (d + 1)
            else:
                m = self.digits[2 + s]
                value = " %d%d%d" % (m[0], m[1], m[2])
                label = "N  %d" % (d + 1)
            return (value, label) if s == 0 else (label, value)
        if self.mode == BONUS:
            return ("INC" if self.bkind == "+" else "DEL", "%4d" % BONUS_SECONDS[self.bi])
        if self.mode == RESULT:
            r = self.choices[self.ri]
            return ("RES", {REOPEN: "OPEN", "1/2-1/2": "HALF"}.get(r, r))
        if self.i >= len(self.items):
            e = self.entry()
            return ("P%3d" % (self.i + 1), {CUSTOM: "CUST", EDIT: "EDIT", BONUS: "ADD", RESULT: "RES"}[e])
        return ("P%3d" % (self.i + 1), "%4d" % _base_minutes(self.items[self.i][1]))
