"""A new time control entered with the clock's own buttons: every control the clock runs (docs/clock.md).

Opened from the menu's "custom" entry; the menu's module leaves the heap while this one is open and
this one leaves with it (device.unload), so the heap holds one screen's code at a time.

The flow follows the DGT 3000's and the Chronos's manual settings: first the type (the 4-digit faces
show FISC, TIME, DLAY, BRON, BYO, CANA, HOUR, UP), then period by period its moves (SD: sudden death),
its time h:mm digit by digit and its bonus; a period with a move count is followed by another (END:
none, the last one repeats); byo-yomi and Canadian overtime follow a sudden-death time. A last screen
shows the control: start uses it; black/white step to ODDS (Black's times, a minute a step from
White's, for time odds and Armageddon) or to ST 1..ST 5 (store it in a user slot, device/slots.py, and use it).

Buttons at every field: black = next value (+), white = previous (-), both wrap and repeat while held
(device/app.py); start = OK, on to the next field; mode = back one field (from the first, back to the
menu's list). press() returns None while the entry goes on, ("select", text) for the app to set, or
("list", text or None): the app opens the menu's list again (device.menu.open_list), on "custom",
with the control entered over a game under way waiting there for start held.
"""

from device import unload
from flagcore import timecontrol as tcm

# the types: the bonus character of the control text, or its overtime ("x" byo-yomi, "c" Canadian),
# hourglass "*", upcount "-"; "" periods without a bonus
KINDS = ("+", "", "d", "b", "x", "c", "*", "-")
BONUSES = ("+", "d", "b")                          # the types whose periods have a bonus
FACES = ("FISC", "TIME", "DLAY", "BRON", "BYO", "CANA", "HOUR", "UP")
WORDS = ("increment", "time only", "US delay", "Bronstein", "byo-yomi", "Canadian", "hourglass", "upcount")
# a period's moves, the usual ones nearest to sudden death (0) either way: FIDE's 40, FMJD's 50 and
# 25 forward, Armageddon's increment from move 61 back; -1 (a later period only, one step back from 0):
# none, the last period repeats
MOVES = (0, 40, 50, 25, 15, 16, 20, 30, 60, -1)
SECONDS = (0, 1, 2, 3, 5, 10, 15, 20, 30, 60)      # a period's bonus
OVERTIME = (10, 20, 30, 40, 60, 120, 180, 300, 600)  # a byo-yomi period or a Canadian block, seconds
CHOICES = ("USE", "ODDS")                          # the last screen; then ST 1..ST 5
MAX_PERIODS = 4
TIME_WRAP = (10, 6, 10)                            # h:mm digits


class Entry:
    """The entry's state: what each field holds and the path of fields walked (mode walks it back)."""

    def __init__(self, app, slots=5):
        self.app = app         # the app whose menu this is: its store, its clock
        self.slots = slots
        self.kind = 0
        self.moves = [0] * MAX_PERIODS     # index in MOVES
        self.mins = [0] * MAX_PERIODS      # each period's time in minutes (White's)
        self.black = None                  # Black's minutes once ODDS was chosen
        self.bonus = [0] * MAX_PERIODS     # index in SECONDS
        self.count = 5                     # byo-yomi periods
        self.block = 3                     # Canadian moves per block: index in MOVES (25)
        self.over = 2                      # index in OVERTIME (30 s)
        self.over_kind = "x"               # the type self.over was last given its default for
        self.periods = 1
        self.seen = 1                      # periods given their defaults so far
        self.choice = 0
        self.error = None
        self.path = [("type", 0, 0)]

    def confirming(self):
        """Never: only the menu's result waits for the players' buttons (the app asks every menu)."""
        return False

    def erasing(self):
        """Never: a control entered over a game under way goes back to the menu to wait for start held."""
        return False

    def field(self):
        """The field being entered: (what, period, digit)."""
        return self.path[-1]

    # -- buttons -----------------------------------------------------------
    def press(self, name):
        """Handle a button; see the module docstring for what it returns."""
        f = self.path[-1]
        if name == "black" or name == "white":
            self._step(f, 1 if name == "black" else -1)
        elif name == "mode":
            if len(self.path) == 1:
                return ("list", None)            # back to the menu's list, on "custom"
            self.path.pop()
        elif name == "start":
            if f[0] == "review":
                return self._choose()
            f = self._next(f)
            self.path.append(f)
            if f[0] == "review":
                self.choice = 0
                try:
                    tcm.parse(self.text())
                    self.error = None
                except ValueError as e:
                    self.error = str(e)
        return None

    def _entered(self, slot, text):
        """A control entered: stored in slot first (if not 0: written now only, flash wear), then chosen as a
        preset is: ("select", text) for the app, or over a game under way ("list", text): the list again,
        waiting for start held (device.menu.Menu.choose)."""
        app = self.app
        if slot:
            from device import slots
            app.stored = slots.write(app.hal, slot, text)
            unload("slots")
        c = app.clock
        if c.state == 0 or c.result is not None:     # 0: READY; nothing under way to keep
            return ("select", text)
        return ("list", text)

    def _choose(self):
        if self.error:
            return None
        c = self.choice
        if c == 0:
            return self._entered(0, self.text())
        if c == 1:
            if self.black is None:
                self.black = list(self.mins)
            f = self._black_after(-1)
            if f is not None:
                self.path.append(f)
            return None
        return self._entered(c - 1, self.text())

    def _step(self, f, step):
        what, p, d = f
        if what == "type":
            self.kind = (self.kind + step) % len(KINDS)
        elif what == "moves":
            n = len(MOVES) if p else len(MOVES) - 1     # the first period cannot be "none"
            self.moves[p] = (self.moves[p] + step) % n
        elif what == "time":
            v = self.mins[p]
            digits = [v // 60 % 10, v % 60 // 10, v % 10]
            digits[d] = (digits[d] + step) % TIME_WRAP[d]
            self.mins[p] = digits[0] * 60 + digits[1] * 10 + digits[2]
        elif what == "black":
            # Black's time: a minute a step from White's, from 0 to twice White's (odds are small; a rocker,
            # whose every flip means "next", gets round in a few flips)
            self.black[p] = (self.black[p] + step) % (2 * self.mins[p] + 1)
        elif what == "bonus":
            self.bonus[p] = (self.bonus[p] + step) % len(SECONDS)
        elif what == "count":
            if KINDS[self.kind] == "x":
                self.count = (self.count - 1 + step) % 10 + 1
            else:
                self.block = (self.block - 1 + step) % (len(MOVES) - 2) + 1
        elif what == "over":
            self.over = (self.over + step) % len(OVERTIME)
        else:
            self.choice = (self.choice + step) % (len(CHOICES) + self.slots)

    def _next(self, f):
        what, p, d = f
        k = KINDS[self.kind]
        if what == "type":
            if k == "-":
                return ("review", 0, 0)
            if k in ("*", "x", "c"):
                self.moves[0] = 0            # one sudden-death time (and its overtime)
                return ("time", 0, 0)
            return ("moves", 0, 0)
        if what == "moves":
            if MOVES[self.moves[p]] < 0:     # no more periods: the one before repeats
                self.periods = p
                return ("review", 0, 0)
            return ("time", p, 0)
        if what == "time":
            if d < 2:
                return ("time", p, d + 1)
            if k == "*":
                return ("review", 0, 0)
            if k in BONUSES:
                return ("bonus", p, 0)
            return self._after(p)
        if what == "bonus":
            return self._after(p)
        if what == "count":
            return ("over", 0, 0)
        if what == "black":
            f = self._black_after(p)
            return f or ("review", 0, 0)
        return ("review", 0, 0)

    def _after(self, p):
        """The field after period p: the next period if p has a move count, else overtime or the end."""
        self.periods = p + 1
        if MOVES[self.moves[p]] > 0 and p + 1 < MAX_PERIODS:
            if self.seen <= p + 1:           # a new period: sudden death, the same bonus
                self.seen = p + 2
                self.moves[p + 1] = 0
                self.mins[p + 1] = 0
                self.bonus[p + 1] = self.bonus[p]
            return ("moves", p + 1, 0)
        k = KINDS[self.kind]
        if k in ("x", "c"):
            if k != self.over_kind:          # a byo-yomi period 30 s, a Canadian block 10 minutes; kept
                self.over_kind = k           # when the player walks back and forth
                self.over = 2 if k == "x" else len(OVERTIME) - 1
            return ("count", 0, 0)
        return ("review", 0, 0)

    def _black_after(self, p):
        """Black's first time digit of the next period after p that has a time (a bonus-only one has none)."""
        for q in range(p + 1, self.periods):
            if self.mins[q]:
                return ("black", q, 0)
        return None

    # -- the control -----------------------------------------------------------
    def _side(self, mins):
        k = KINDS[self.kind]
        parts = []
        for p in range(self.periods):
            mv = MOVES[self.moves[p]]
            s = ("%d/" % mv if mv > 0 else "") + str(mins[p] * 60)
            b = SECONDS[self.bonus[p]]
            if b and k in BONUSES:
                s += k + str(b)
            parts.append(s)
        if k == "x":
            parts.append("%dx%d" % (self.count, OVERTIME[self.over]))
        elif k == "c":
            parts.append("c%d/%d" % (MOVES[self.block], OVERTIME[self.over]))
        return ":".join(parts)

    def text(self):
        """The control entered so far, as time-control text ('W...-B...' when Black's times differ)."""
        k = KINDS[self.kind]
        if k == "-":
            return "-"
        if k == "*":
            return "*%d" % (self.mins[0] * 60)
        w = self._side(self.mins)
        if self.black is None:
            return w
        b = self._side(self.black)
        return w if w == b else "W%s-B%s" % (w, b)

    # -- faces -------------------------------------------------------------------
    def _show(self):
        """(4-digit label, 4-digit value, text head, text value) of the field being entered."""
        what, p, d = self.path[-1]
        k = KINDS[self.kind]
        n = p + 1
        if what == "type":
            return ("TYPE", FACES[self.kind], "new: " + WORDS[self.kind], WORDS[self.kind])
        if what == "moves":
            mv = MOVES[self.moves[p]]
            v = " END" if mv < 0 else "  SD" if mv == 0 else "%4d" % mv
            return ("P%d N" % n, v, "P%d moves" % n,
                    "none: P%d repeats" % p if mv < 0 else "sudden death" if mv == 0 else "%d moves" % mv)
        if what == "time" or what == "black":
            m = (self.mins if what == "time" else self.black)[p]
            t = "%d:%d%d" % (m // 60 % 10, m % 60 // 10, m % 10)
            if what == "black":
                return ("B%d T" % n, t, "black P%d time" % n, "[%s]" % t)
            i = d + (d > 0)                  # the digit's place in "h:mm"
            return ("P%dT%d" % (n, d + 1), t, "P%d time" % n, t[:i] + "[" + t[i] + "]" + t[i + 1:])
        if what == "bonus":
            v = SECONDS[self.bonus[p]]
            return ("P%d %s" % (n, "I" if k == "+" else k.upper()), "%4d" % v, "P%d bonus" % n, "%d s" % v)
        if what == "count":
            v = self.count if k == "x" else MOVES[self.block]
            return (FACES[self.kind], "%4d" % v, WORDS[self.kind], ("%d periods" if k == "x" else "%d moves") % v)
        if what == "over":
            v = OVERTIME[self.over]
            return (FACES[self.kind][:3] + "S", "%d:%02d" % (v // 60, v % 60) if v >= 60 else "%4d" % v,
                    WORDS[self.kind], "%d s" % v)
        c = self.choice
        v = CHOICES[c] if c < len(CHOICES) else "ST %d" % (c - 1)
        return ("ERR" if self.error else "SET", v, self.text(),
                v.lower() if c < len(CHOICES) else "store in U%d" % (c - 1))

    def faces(self):
        """(white, black) texts for two 4-digit displays: what the field is, then its value."""
        f = self._show()
        return (f[0], f[1])

    def lines(self):
        """Text lines for a display that shows several lines: the field, its value, the buttons."""
        if self.error and self.path[-1][0] == "review":
            e = self.error
            return (e[:16], e[16:32], "mode: back")
        f = self._show()
        return (f[2], f[3], "start: ok" if self.path[-1][0] == "review" else "ok: start back: mode")
