"""The arbiter's entries of the clock's menu, with a game under way (the clock paused, flagged,
adjourned or finished): opened from the list (device/menu.py) in its place in the heap.

  edit    both times and both move counters, digit by digit (h:mm:ss, then
          moves 000): white/black step the digit, mode moves to the next
          digit, start applies every value that was changed;
  bonus   from now on an increment (+) or a delay (d) of N s for both
          players (FIDE Laws, Guidelines III.4): white/black step through
          the choices, start applies;
  result  1-0, 0-1, 1/2-1/2, 0-0 (or reopen a finished game): start chooses, then
          both players confirm it with their own buttons (each face shows YES
          once its player has pressed; mode withdraws it) and it applies.
press() returns None while the entry stays open, ("edit", [(what, side, value), ...]),
("bonus", kind, ms), ("result", text) or ("cancel", None).
"""

EDIT = "edit"
BONUS = "bonus"
RESULT = "result"
CONFIRM = "confirm"    # a result chosen, waiting for both players' buttons
BONUSES = ("+5", "d5", "+10", "d10", "+30", "+2", "+3")
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0")
REOPEN = "*"
SIDE_WORDS = ("white", "black")
# edit: digits 0-4 h:mm:ss of white, 5-9 of black, 10-12 white's moves, 13-15 black's
TIME_WRAP = (10, 6, 10, 6, 10)


def edit_digits(ms, moves):
    """[h, m, m, s, s] of a time (seconds rounded up as shown, 9:59:59 at most) and [d, d, d] of moves."""
    secs = min((ms + 999) // 1000, 35999)
    m = secs // 60 % 60
    s = secs % 60
    moves = min(moves, 999)
    return [secs // 3600, m // 10, m % 10, s // 10, s % 10], [moves // 100, moves // 10 % 10, moves % 10]


class Arbiter:
    """One of the arbiter's entries (EDIT, BONUS or RESULT) over the clock of the game under way."""

    def __init__(self, mode, clock):
        self.mode = mode
        self.clock = clock
        self.field = 0
        self.agreed = [False, False]
        c = clock
        if mode == EDIT:
            self.digits = list(edit_digits(c.shown_ms(0), c.moves[0])) + list(edit_digits(c.shown_ms(1), c.moves[1]))
            self.before = [list(d) for d in self.digits]
        elif mode == BONUS:
            self.choices = BONUSES
        else:
            self.choices = RESULTS + ((REOPEN,) if c.result is not None else ())

    def erasing(self):
        """Never: nothing here replaces the game."""
        return False

    def confirming(self):
        """True while a chosen result waits for both players' buttons (a rocker's side counts)."""
        return self.mode == CONFIRM

    def press(self, name):
        """Handle a button; see the module docstring for what it returns."""
        step = 1 if name == "black" else -1 if name == "white" else 0
        mode = self.mode
        if mode == EDIT:
            return self._edit_press(name, step)
        if mode == CONFIRM:
            # each player presses their own button to agree to the result; mode withdraws it
            if name == "mode":
                return ("cancel", None)
            if name in SIDE_WORDS:
                self.agreed[SIDE_WORDS.index(name)] = True
                if self.agreed[0] and self.agreed[1]:
                    return (RESULT, self.choices[self.field])
            return None
        if step:                             # BONUS or RESULT: a list of choices
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
        if mode == EDIT:
            what, s, k, d = self.where()
            parts = [str(x) for x in self.digits[k]]
            parts[d] = "[%s]" % parts[d]
            v = "%s:%s%s:%s%s" % tuple(parts) if what == "time" else "".join(parts)
            return ("edit %s %s" % (SIDE_WORDS[s], what), v, "start: apply")
        c = self.choices[self.field]
        if mode == BONUS:
            return ("both, from now", ("increment %s s" if c[0] == "+" else "delay %s s") % c[1:], "start: apply")
        return ("result", "reopen" if c == REOPEN else c, "start: apply")

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
        c = self.choices[self.field]
        if mode == BONUS:
            return ("INC" if c[0] == "+" else "DEL", "%4s" % c[1:])
        if mode == RESULT:
            return ("RES", "OPEN" if c == REOPEN else "HALF" if c == "1/2-1/2" else c)
        # CONFIRM: each face: the result, then YES once its player has pressed (no K on 7 segments)
        word = "HALF" if c == "1/2-1/2" else c
        return ("YES " if self.agreed[0] else word, "YES " if self.agreed[1] else word)
