"""Time-control text: the PGN TimeControl tag grammar plus Flagfall extensions.

Grammar (all times in seconds, up to three decimals; the PGN standard, 9.6.1):

    tc       := "-"                      count-up, no limit
              | "*" secs                 hourglass ("sandclock")
              | period (":" period)* [":" overtime]
    period   := [moves "/"] secs [bonus] moves/secs is "N moves in T";
                                         a bare secs is sudden death
    bonus    := "+" secs                 Fischer increment after each move
              | "d" secs                 simple (US) delay
              | "b" secs                 Bronstein delay
    overtime := k "x" secs               byo-yomi: k periods of secs each
              | "c" moves "/" secs       Canadian byo-yomi: moves in each block

Periods are cumulative: unused time carries over. If the last period has a
move count it repeats ("40/9000:16/3600" is 40 moves in 2h30, then 16 moves
every hour). A later period may add no time, only a bonus ("60/300:0+3": an
increment of 3 s from move 61). Overtime follows a sudden-death main time ("3600:5x30").

Time odds (Armageddon) give each side its own control, in the form of FIDE's
Tournament Report File 2026, tag 222 ("W300-B240": White 5 minutes, Black 4):

    split    := "W" control "-B" control    each control any of the above
                                            except "-" and "*" (docs/clock.md)
"""

COUNTUP = 0
STANDARD = 1
HOURGLASS = 2

BONUS_NONE = 0
BONUS_INCREMENT = 1
BONUS_BRONSTEIN = 2
BONUS_DELAY = 3

OVERTIME_NONE = 0
OVERTIME_BYOYOMI = 1
OVERTIME_CANADIAN = 2

_BONUS_CHARS = {"+": BONUS_INCREMENT, "b": BONUS_BRONSTEIN, "d": BONUS_DELAY}
_BONUS_TEXT = {BONUS_INCREMENT: "+", BONUS_BRONSTEIN: "b", BONUS_DELAY: "d"}


class TimeControlError(ValueError):
    """Malformed time-control text; the message names what and where."""

    def __init__(self, text, pos, what):
        super().__init__("time control %r, column %d: %s" % (text, pos + 1, what))
        self.text = text
        self.pos = pos
        self.what = what


class TimeControl:
    """A parsed time control.

    periods: list of (moves, ms, bonus_kind, bonus_ms); moves 0 = sudden death.
    overtime: (kind, count, ms): byo-yomi (periods, period ms) or
    Canadian (moves per block, block ms).
    """

    def __init__(self, kind, periods=None, overtime=None, sides=None):
        self.kind = kind
        self.periods = periods or []
        self.overtime = overtime or (OVERTIME_NONE, 0, 0)
        self.sides = sides     # (white's, black's) controls for time odds, else None

    def side(self, s):
        """The control side s plays under (itself unless the sides differ)."""
        return self.sides[s] if self.sides else self

    def period(self, i):
        """Period i, the last one standing for all later ones."""
        p = self.periods
        return p[i] if i < len(p) else p[-1]

    def moves_before(self, i):
        """Moves a side must have completed before period i begins."""
        n = 0
        for k in range(i):
            n += self.period(k)[0]
        return n

    def text(self):
        """Canonical text for this control (parses back to an equal one)."""
        if self.sides:
            return "W%s-B%s" % (self.sides[0].text(), self.sides[1].text())
        if self.kind == COUNTUP:
            return "-"
        if self.kind == HOURGLASS:
            return "*" + _secs_text(self.periods[0][1])
        parts = []
        for moves, ms, bk, bms in self.periods:
            s = ("%d/" % moves if moves else "") + _secs_text(ms)
            if bk:
                s += _BONUS_TEXT[bk] + _secs_text(bms)
            parts.append(s)
        ok, n, ms = self.overtime
        if ok == OVERTIME_BYOYOMI:
            parts.append("%dx%s" % (n, _secs_text(ms)))
        elif ok == OVERTIME_CANADIAN:
            parts.append("c%d/%s" % (n, _secs_text(ms)))
        return ":".join(parts)

    def __eq__(self, other):
        return isinstance(other, TimeControl) and self.text() == other.text()

    def __repr__(self):
        return "TimeControl(%r)" % self.text()


def _secs_text(ms):
    if ms % 1000 == 0:
        return str(ms // 1000)
    s = "%d.%03d" % (ms // 1000, ms % 1000)
    return s.rstrip("0")


class _Reader:
    def __init__(self, text, pos=0, end=None):
        self.text = text
        self.pos = pos
        self.end = len(text) if end is None else end

    def peek(self):
        return self.text[self.pos] if self.pos < self.end else ""

    def fail(self, what, pos=None):
        raise TimeControlError(self.text, self.pos if pos is None else pos, what)

    def integer(self, what):
        start = self.pos
        while self.peek().isdigit():
            self.pos += 1
        if start == self.pos:
            got = self.peek()
            self.fail("expected %s, found %s" % (what, repr(got) if got else "end of text"))
        return int(self.text[start:self.pos])

    def seconds(self, what):
        """Seconds with up to three decimals, returned in milliseconds."""
        whole = self.integer(what)
        ms = whole * 1000
        if self.peek() == ".":
            self.pos += 1
            start = self.pos
            while self.peek().isdigit():
                self.pos += 1
            frac = self.text[start:self.pos]
            if not frac or len(frac) > 3:
                self.fail("%s: one to three decimals after '.'" % what, start)
            ms += int((frac + "00")[:3])
        return ms


def parse(text):
    """Parse time-control text into a TimeControl; raises TimeControlError."""
    if not isinstance(text, str):
        raise TimeControlError(str(text), 0, "time control must be text")
    t = text.strip()
    r = _Reader(t)
    if not t:
        r.fail("empty time control")
    if t[0] in "WB":
        return _split(t)
    return _one(_Reader(t))


def _split(t):
    """'W<control>-B<control>': a control for each side (time odds)."""
    r = _Reader(t)
    if t[0] != "W":
        r.fail("a control per side starts with White's: 'W<control>-B<control>', e.g. 'W300-B240'")
    dash = t.find("-B")
    if dash < 0:
        r.pos = len(t)
        r.fail("expected '-B' and Black's control after White's, e.g. 'W300-B240'")
    sides = []
    for start, end in ((1, dash), (dash + 2, len(t))):
        if start == end:
            r.fail("expected %s's control after %r" % ("White" if start == 1 else "Black", t[start - 1]), start)
        part = _one(_Reader(t, start, end))
        if part.kind != STANDARD:
            r.fail("each side's control needs a time limit (count-up '-' and hourglass '*' "
                   "cannot differ per side)", start)
        sides.append(part)
    w = sides[0]
    return TimeControl(STANDARD, w.periods, w.overtime, (sides[0], sides[1]))


def _one(r):
    """One control from r.pos to r.end (column numbers count in the whole text)."""
    t = r.text
    end = r.end
    if r.pos == end:
        r.fail("empty time control")
    if t[r.pos:end] == "?":
        r.fail("'?' (unknown) cannot run a clock")
    if t[r.pos:end] == "-":
        return TimeControl(COUNTUP)
    if t[r.pos] == "*":
        r.pos += 1
        at = r.pos
        ms = r.seconds("hourglass seconds after '*'")
        if r.pos != end:
            r.fail("unexpected %r after hourglass time" % r.peek())
        if ms <= 0:
            r.fail("hourglass time must be positive", at)
        return TimeControl(HOURGLASS, [(0, ms, BONUS_NONE, 0)])
    first = r.pos
    periods = []
    overtime = None
    while True:
        start = r.pos
        if periods and periods[-1][0] == 0:
            # only overtime may follow a sudden-death period
            overtime = _overtime(r, start)
            if overtime is None:
                r.fail("nothing may follow a sudden-death period except byo-yomi "
                       "('5x30') or Canadian overtime ('c25/600')", start)
            if r.pos != end:
                r.fail("overtime must be the last part, found %r" % r.peek())
            break
        n = r.integer("moves or seconds")
        moves = 0
        if r.peek() == "/":
            r.pos += 1
            if n <= 0:
                r.fail("move count must be at least 1", start)
            moves = n
            ms = r.seconds("seconds after '/'")
        elif r.peek() == "x":
            r.fail("byo-yomi needs a main time before it, e.g. '3600:5x30'", start)
        else:
            r.pos = start
            ms = r.seconds("seconds")
        bk, bms = BONUS_NONE, 0
        c = r.peek()
        if c in _BONUS_CHARS:
            r.pos += 1
            bk = _BONUS_CHARS[c]
            bms = r.seconds("seconds after %r" % c)
        periods.append((moves, ms, bk, bms))
        if r.pos == end:
            break
        if r.peek() != ":":
            r.fail("expected ':' between periods, found %r" % r.peek())
        r.pos += 1
    for i, (moves, ms, bk, bms) in enumerate(periods):
        # a later period may bring only a bonus ("60/300:0+3": +3 s from move 61)
        if ms == 0 and not (overtime and i == len(periods) - 1) and not (i and bms):
            r.fail("period %d has no time" % (i + 1), first)
    return TimeControl(STANDARD, periods, overtime)


def _overtime(r, start):
    if r.peek() == "c":
        r.pos += 1
        n = r.integer("moves per Canadian block after 'c'")
        if n <= 0:
            r.fail("Canadian block needs at least 1 move", start)
        if r.peek() != "/":
            r.fail("expected '/' in Canadian overtime 'cMOVES/SECS'")
        r.pos += 1
        ms = r.seconds("seconds per Canadian block")
        if ms <= 0:
            r.fail("Canadian block time must be positive", start)
        return (OVERTIME_CANADIAN, n, ms)
    if r.peek().isdigit():
        k = r.integer("number of byo-yomi periods")
        if r.peek() != "x":
            r.fail("nothing may follow a sudden-death period except byo-yomi "
                   "('5x30') or Canadian overtime ('c25/600')", start)
        r.pos += 1
        if k <= 0:
            r.fail("byo-yomi needs at least 1 period", start)
        ms = r.seconds("seconds per byo-yomi period")
        if ms <= 0:
            r.fail("byo-yomi period must be positive", start)
        return (OVERTIME_BYOYOMI, k, ms)
    return None
