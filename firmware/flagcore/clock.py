"""The tournament clock engine: every time control, driven by ticks passed in.

The engine never reads a clock itself. Every event takes `now`, a tick from
time.ticks_ms() (wrapping at 2**30), and elapsed time is always measured
with ticks_diff, so a game may run across the wrap point.

Accounting is exact to the millisecond: for each side
    allotted == used + remaining
where allotted counts base times, period additions, increments, delay
refunds, byo-yomi resets, hourglass inflow and arbiter adjustments.

Sides are 0 (white / the side that moves first in the rules' naming) and 1.
Flag rule: a flag falls when a side's time reaches zero while its clock runs
(a press at that very tick is too late). A byo-yomi period is used up the
same way: only when its time reaches zero, never by a move made inside it.

Each side runs under its own control (tc.side(s)): the same one, or for time
odds ("W300-B240") a different one. A decided game (finish(): the third
illegal move, a flag where the ruleset ends the game, or a result given by
the arbiter or the host) leaves the clock FINISHED: it shows the result and
accepts no press. docs/clock.md describes the states, editing and snapshots.
"""

from flagcore import timecontrol as tcm
from flagcore.ticks import ticks_add, ticks_diff

WHITE = 0
BLACK = 1
SIDE_NAMES = ("white", "black")

# clock states
READY = 0
RUNNING = 1
PAUSED = 2
FLAGGED = 3
ADJOURNED = 4
FINISHED = 5
STATE_NAMES = ("ready", "running", "paused", "flagged", "adjourned", "finished")

# results a finished clock can hold (PGN notation, and the forms Lichess
# broadcasts accept for arbiter decisions: both lose, or one side scores half)
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0", "1/2-0", "0-1/2")
WINS = ("1-0", "0-1")   # WINS[s]: side s wins
# why a game finished (snapshot words, no spaces)
BY_FLAG = "flag"
BY_ILLEGAL = "illegal"
BY_ARBITER = "arbiter"   # result entered on the device
BY_HOST = "host"         # result sent by the host

# results of events
OK = "ok"
IGNORED_NOT_ON_MOVE = "ignored: side not on move"
IGNORED_NOT_RUNNING = "ignored: clock not running"

# illegal-move outcomes
WARNING = "warning"
PENALTY = "penalty"
LOSS = "loss"


class ClockError(ValueError):
    """An event that the clock cannot accept in its present state."""


def side_index(side):
    """0 or 1 from a side given as 0/1, 'white'/'black', 'w'/'b'."""
    if side in (0, 1):
        return side
    s = str(side).lower()
    if s in ("white", "w", "0", "red", "light", "first"):
        return 0
    if s in ("black", "b", "1", "dark", "second"):
        return 1
    raise ClockError("unknown side %r (use white or black)" % (side,))


class Clock:
    """Two-sided game clock for one time control."""

    def __init__(self, tc, flag_ends=False, play_on=False):
        if isinstance(tc, str):
            tc = tcm.parse(tc)
        self.tc = tc
        self.tcs = (tc.side(0), tc.side(1))   # the control each side plays under
        self.flag_ends = flag_ends  # a flag decides the game (the ruleset says so)
        # play goes on after a flag until someone claims it (FIDE Laws 6.8): the flagged side's next
        # press starts the opponent's clock, so both flags can fall, and `flag` keeps the first
        self.play_on = play_on
        self.result = None     # result text once FINISHED
        self.reason = None     # why (BY_FLAG, BY_ILLEGAL, BY_ARBITER, BY_HOST)
        self.bonus = None      # arbiter's (bonus kind, ms) for both sides from now on
        self.state = READY
        self.to_move = WHITE
        self.last = 0          # tick up to which time has been charged
        self.turn_used = 0     # main time charged in the current turn
        self.delay_left = 0    # simple-delay window left in the current turn
        self.flag = None       # first side whose flag fell
        self.flag_tick = None  # tick at which it fell
        self.flags = [None, None]  # tick of each side's flag, if fallen
        self.remaining = [0, 0]
        self.used = [0, 0]
        self.allotted = [0, 0]
        self.moves = [0, 0]
        self.period = [0, 0]
        self.overtime = [False, False]
        self.byo = [0, 0]      # byo-yomi: periods left; Canadian: moves in block
        self.illegal = [0, 0]
        self.adjourn_charge = None
        for s in (0, 1):
            self._init_side(s)

    def _init_side(self, s):
        tc = self.tcs[s]
        if tc.kind == tcm.COUNTUP:
            return
        ms = tc.periods[0][1]
        self.remaining[s] = ms
        self.allotted[s] = ms
        if tc.kind == tcm.STANDARD and ms == 0:
            self._enter_overtime(s)

    # -- time flow -------------------------------------------------------

    def _bonus(self, s):
        """(kind, ms) of the side's current period (or the arbiter's bonus), none in overtime."""
        tc = self.tcs[s]
        if self.overtime[s] or tc.kind != tcm.STANDARD:
            return (tcm.BONUS_NONE, 0)
        if self.bonus is not None:
            return self.bonus
        p = tc.period(self.period[s])
        return (p[2], p[3])

    def _enter_overtime(self, s):
        kind, n, ms = self.tcs[s].overtime
        self.overtime[s] = True
        self.byo[s] = n if kind == tcm.OVERTIME_BYOYOMI else 0
        self.remaining[s] += ms
        self.allotted[s] += ms

    def _consume(self, dt):
        """Charge dt ms to the running side.

        Returns -1 if time remains, else the ms of dt left after the flag fell.
        """
        s = self.to_move
        tc = self.tcs[s]
        if tc.kind == tcm.COUNTUP:
            self.used[s] += dt
            self.allotted[s] += dt
            return -1
        if self.delay_left:
            d = dt if dt < self.delay_left else self.delay_left
            self.delay_left -= d
            dt -= d
        while dt > 0:
            rem = self.remaining[s]
            if rem > dt:
                self.remaining[s] = rem - dt
                self.used[s] += dt
                self.turn_used += dt
                if tc.kind == tcm.HOURGLASS:
                    self.remaining[1 - s] += dt
                    self.allotted[1 - s] += dt
                return -1
            # time reaches zero within dt
            self.remaining[s] = 0
            self.used[s] += rem
            self.turn_used += rem
            if tc.kind == tcm.HOURGLASS:
                self.remaining[1 - s] += rem
                self.allotted[1 - s] += rem
            dt -= rem
            kind = tc.overtime[0] if tc.kind == tcm.STANDARD else tcm.OVERTIME_NONE
            if kind and not self.overtime[s] and self._in_last_period(s):
                self._enter_overtime(s)
                continue
            if kind == tcm.OVERTIME_BYOYOMI and self.overtime[s] and self.byo[s] > 1:
                self.byo[s] -= 1
                self.remaining[s] = tc.overtime[2]
                self.allotted[s] += tc.overtime[2]
                continue
            if kind == tcm.OVERTIME_BYOYOMI and self.overtime[s]:
                self.byo[s] = 0
            return dt
        return -1

    def _in_last_period(self, s):
        p = self.tcs[s].periods
        return self.period[s] >= len(p) - 1 and p[-1][0] == 0

    def update(self, now):
        """Charge time up to tick `now`; return the side whose flag fell, else None."""
        if self.state != RUNNING:
            return None
        dt = ticks_diff(now, self.last)
        if dt <= 0:
            return None
        left = self._consume(dt)
        if left < 0:
            self.last = now
            return None
        s = self.to_move
        tick = ticks_add(now, -left)
        self.last = tick
        self.flags[s] = tick
        if self.flag is None:
            self.flag = s
            self.flag_tick = tick
        self.state = FLAGGED
        if self.flag_ends:
            self.result = WINS[1 - s]
            self.reason = BY_FLAG
            self.state = FINISHED
        return s

    # -- events ----------------------------------------------------------

    def start(self, side, now):
        """Start the game with `side`'s clock running (a late player's runs from the start)."""
        s = side_index(side)
        if self.state != READY:
            raise ClockError("clock already started (state %s)" % STATE_NAMES[self.state])
        self.to_move = s
        self._begin_turn(now)
        self.state = RUNNING
        return OK

    def _begin_turn(self, now):
        self.last = now
        self.turn_used = 0
        kind, ms = self._bonus(self.to_move)
        self.delay_left = ms if kind == tcm.BONUS_DELAY else 0

    def press(self, side, now):
        """A side presses its button, completing its move; returns OK or why ignored.

        With play_on, a press by the side whose flag has fallen (in an earlier event: the press
        that finds the flag is too late) completes its move without any bonus and starts the
        opponent's clock, unless the opponent's flag is down too or the period has a bonus per
        move (then the clock freezes at the flag, as FIDE asks of increment and delay clocks).
        """
        s = side_index(side)
        was = self.state
        self.update(now)
        if self.state == FLAGGED and was == FLAGGED and self.play_on and s == self.to_move \
                and self.flags[s] is not None and self.flags[1 - s] is None \
                and self._bonus(s)[0] == tcm.BONUS_NONE:
            self.moves[s] += 1      # a move made after the flag earns nothing
            self.to_move = 1 - s
            self._begin_turn(now)
            self.state = RUNNING
            return OK
        if self.state != RUNNING:
            return IGNORED_NOT_RUNNING
        if s != self.to_move:
            return IGNORED_NOT_ON_MOVE
        self._complete_move(s)
        self.to_move = 1 - s
        self._begin_turn(now)
        return OK

    def _complete_move(self, s):
        """Credit what a completed move earns: increment, refund, period time, overtime reset."""
        kind, ms = self._bonus(s)
        if kind == tcm.BONUS_INCREMENT:
            self._credit(s, ms)
        elif kind == tcm.BONUS_BRONSTEIN:
            self._credit(s, ms if ms < self.turn_used else self.turn_used)
        self.moves[s] += 1
        tc = self.tcs[s]
        if tc.kind != tcm.STANDARD:
            return
        if self.overtime[s]:
            okind, n, oms = tc.overtime
            if okind == tcm.OVERTIME_BYOYOMI:
                self._credit(s, oms - self.remaining[s])
            else:
                self.byo[s] += 1
                if self.byo[s] >= n:
                    self.byo[s] = 0
                    self._credit(s, oms - self.remaining[s])
            return
        p = tc.period(self.period[s])
        if p[0] and self.moves[s] >= tc.moves_before(self.period[s] + 1):
            self.period[s] += 1
            self._credit(s, tc.period(self.period[s])[1])

    def _credit(self, s, ms):
        self.remaining[s] += ms
        self.allotted[s] += ms

    def pause(self, now):
        """Stop both clocks (arbiter)."""
        self.update(now)
        if self.state != RUNNING:
            return IGNORED_NOT_RUNNING
        self.state = PAUSED
        return OK

    def resume(self, now):
        """Restart after a pause, a flag with time added, or an adjournment."""
        if self.state == RUNNING:
            return IGNORED_NOT_RUNNING
        if self.state == READY:
            raise ClockError("clock not started: use start")
        self._over()
        s = self.to_move
        if self.state == FLAGGED and self.tcs[s].kind != tcm.COUNTUP and self.remaining[s] <= 0:
            raise ClockError("%s's flag has fallen: add time before resuming" % SIDE_NAMES[s])
        if self.state == ADJOURNED:
            self._begin_turn(now)
        else:
            self.last = now
        self.state = RUNNING
        return OK

    def hand_to(self, side, now):
        """The arbiter gives the move to `side` on a stopped clock (after an illegal move and the
        position before it reinstated, FIDE 7.5.1; after a result withdrawn): its turn begins afresh,
        as after the other side's press. The move counters stay as they are."""
        if self.state == RUNNING:
            raise ClockError("pause the clock before handing it over")
        if self.state in (READY, FINISHED):
            raise ClockError("clock %s: nothing to hand over" % STATE_NAMES[self.state])
        self.to_move = side_index(side)
        self._begin_turn(now)
        return OK

    def adjust(self, side, delta_ms, now):
        """Arbiter adds (or with a negative delta removes) time for a side."""
        s = side_index(side)
        self._over()
        self.update(now)
        if self.tcs[s].kind == tcm.COUNTUP:
            raise ClockError("a count-up clock has no time to adjust")
        if self.remaining[s] + delta_ms < 0:
            raise ClockError("cannot remove %d ms: %s has only %d ms" % (-delta_ms, SIDE_NAMES[s], self.remaining[s]))
        self._credit(s, delta_ms)
        return OK

    def set_moves(self, side, count, now):
        """Arbiter corrects a side's move counter; period time follows the count."""
        s = side_index(side)
        if count < 0:
            raise ClockError("move count cannot be negative")
        self._over()
        self.update(now)
        tc = self.tcs[s]
        self.moves[s] = count
        if tc.kind != tcm.STANDARD or self.overtime[s]:
            return OK
        want = 0
        while tc.period(want)[0] and count >= tc.moves_before(want + 1):
            want += 1
        while self.period[s] < want:
            self.period[s] += 1
            self._credit(s, tc.period(self.period[s])[1])
        while self.period[s] > want:
            self._credit(s, -tc.period(self.period[s])[1])
            self.period[s] -= 1
        return OK

    def illegal_move(self, side, now, opponent_bonus_ms=0, loses_at=0, first_is_warning=False):
        """Record an illegal move by `side` and apply a penalty policy.

        Returns WARNING, PENALTY or LOSS. The policy comes from seeds/
        (e.g. FIDE 2000: 2 minutes to the opponent, the third loses).
        """
        s = side_index(side)
        self.update(now)
        self.illegal[s] += 1
        n = self.illegal[s]
        if loses_at and n >= loses_at:
            self.finish(WINS[1 - s], BY_ILLEGAL, now)
            return LOSS
        if first_is_warning and n == 1:
            return WARNING
        if opponent_bonus_ms and self.tcs[1 - s].kind != tcm.COUNTUP:
            self._credit(1 - s, opponent_bonus_ms)
            return PENALTY
        return WARNING

    def seal(self, now, early=False, session_ms=None):
        """The side to move seals its move: its clock stops and the game is adjourned.

        With early=True (sealing before the session ends, 1975 rules ch.2 s.5)
        the sealer is charged the total prescribed for both sides minus the
        opponent's used time, if that is more than his own used time.
        session_ms defaults to the time of the periods both sides have
        completed (each side's share), e.g. 2 x 2h30 after 40 moves each.
        """
        self.update(now)
        if self.state not in (RUNNING, PAUSED):
            raise ClockError("cannot seal: clock is %s" % STATE_NAMES[self.state])
        s = self.to_move
        self._complete_move(s)
        self.state = ADJOURNED
        self.to_move = 1 - s
        self.adjourn_charge = None
        if early:
            if session_ms is None:
                session_ms = self.completed_time(0) + self.completed_time(1)
            charge = session_ms - self.used[1 - s]
            extra = charge - self.used[s]
            if extra > 0:
                self.remaining[s] -= extra
                self.used[s] += extra
            self.adjourn_charge = self.used[s]
        return OK

    def completed_time(self, s):
        """Base time of the periods side s has completed (its prescribed limit so far)."""
        tc = self.tcs[s]
        if tc.kind != tcm.STANDARD:
            return 0
        n = self.period[s]
        if n == 0:
            return tc.periods[0][1]
        t = 0
        for i in range(n):
            t += tc.period(i)[1]
        return t

    # -- the end of a game and the arbiter ------------------------------

    def finish(self, result, reason, now):
        """The game is decided: both clocks stop, the result shows and no press counts.

        result is one of RESULTS; reason a word (BY_FLAG, BY_ILLEGAL,
        BY_ARBITER, BY_HOST). A finished game may be given another result
        (an arbiter's correction) or reopened.
        """
        if result not in RESULTS:
            raise ClockError("unknown result %r (%s)" % (result, " ".join(RESULTS)))
        if not reason or not reason.replace("-", "").isalpha():
            raise ClockError("bad reason %r: one word" % (reason,))
        self.update(now)
        self.result = result
        self.reason = reason
        self.state = FINISHED
        return OK

    def reopen(self, now):
        """Take a result back (an arbiter's mistake): the clock comes back paused (flagged if out of time)."""
        if self.state != FINISHED:
            raise ClockError("the game is not finished")
        self.result = self.reason = None
        s = self.to_move
        self.state = FLAGGED if self.flags[s] is not None and self.remaining[s] <= 0 else PAUSED
        self.last = now
        return OK

    def _over(self):
        if self.state == FINISHED:
            raise ClockError("the game is over (%s): reopen it first" % self.result)

    def set_time(self, side, ms, now):
        """Arbiter sets a side's time (the time shown) while the clock is stopped."""
        s = side_index(side)
        self._over()
        if self.state == RUNNING or ms < 0 or self.tcs[s].kind == tcm.COUNTUP:
            raise ClockError("a time is set in pause, 0 or more, on a clock with a limit")
        self._credit(s, ms - self.remaining[s])
        if ms:
            self.flags[s] = None      # time given back: this side's flag is up again
        return OK

    def set_bonus(self, kind, ms, now):
        """From now on every move of both sides earns this bonus (FIDE Guidelines III.4).

        kind: '+' increment, 'd' delay or 'b' Bronstein (or tcm.BONUS_*); it
        replaces the control's own bonus for the rest of the game. A delay
        applies from the next turn; ms 0 removes the arbiter's bonus.
        """
        kind = tcm._BONUS_CHARS.get(kind, kind)
        self._over()
        if kind not in (1, 2, 3) or ms < 0 or self.tcs[0].kind != tcm.STANDARD:
            raise ClockError("bonus: '+', 'd' or 'b', 0 ms or more, on a clock with a limit per move")
        self.update(now)
        self.bonus = (kind, ms) if ms else None
        return OK

    def bonus_text(self):
        """The arbiter's bonus as text ('+5', 'd5'), or '' if none."""
        b = self.bonus
        return tcm._BONUS_TEXT[b[0]] + tcm._secs_text(b[1]) if b else ""

    # -- reading ---------------------------------------------------------

    def second_flag(self):
        """The side whose flag fell after the other's (both are down), else None."""
        if self.flag is None or self.flags[1 - self.flag] is None:
            return None
        return 1 - self.flag

    def shown_ms(self, s):
        """Milliseconds a side's display counts: time left, or time used on a count-up clock."""
        if self.tcs[s].kind == tcm.COUNTUP:
            return self.used[s]
        return self.remaining[s]

    def snapshot(self, now=None):
        """State as a short printable string (settled at `now` if given)."""
        if now is not None:
            self.update(now)
        side = []
        for s in (0, 1):
            side.append("%d,%d,%d,%d,%d,%d,%d,%d" % (
                self.remaining[s], self.used[s], self.allotted[s], self.moves[s],
                self.period[s], 1 if self.overtime[s] else 0, self.byo[s], self.illegal[s]))
        fl = "-" if self.flag is None else "%d@%d" % (self.flag, self.flag_tick)
        extra = "%s,%s,%s,%d" % (self.result or "-", self.reason or "-", self.bonus_text() or "-",
                                 1 if self.flag_ends else 0)
        second = self.second_flag()
        if second is not None:          # both flags have fallen: the second one's side and tick too
            extra += ",%d@%d" % (second, self.flags[second])
        return "C2|%s|%d|%d|%d|%d|%s|%s|%s|%s" % (
            self.tc.text(), self.state, self.to_move, self.turn_used, self.delay_left,
            fl, side[0], side[1], extra)


def restore(text, now):
    """Rebuild a clock from snapshot(); a running clock comes back paused at `now`.

    Reads C2 (this version: its last field has a fifth part once both flags
    have fallen) and C1 (before the finished state and the arbiter's bonus:
    C2 without its last field). Whether play goes on after a flag (play_on)
    is the device's setting, not the game's: the caller sets it again.
    """
    parts = text.split("|")
    if not ((len(parts) == 9 and parts[0] == "C1") or (len(parts) == 10 and parts[0] == "C2")):
        raise ClockError("not a clock snapshot: %r" % text[:40])
    try:
        c = Clock(parts[1])
        state = int(parts[2])
        c.to_move = int(parts[3])
        c.turn_used = int(parts[4])
        c.delay_left = int(parts[5])
        if parts[6] != "-":
            f, t = parts[6].split("@")
            c.flag = int(f)
            c.flag_tick = int(t)
            c.flags[c.flag] = c.flag_tick
        for s in (0, 1):
            v = [int(x) for x in parts[7 + s].split(",")]
            if len(v) != 8:
                raise ValueError("side %d has %d fields" % (s, len(v)))
            (c.remaining[s], c.used[s], c.allotted[s], c.moves[s],
             c.period[s], ov, c.byo[s], c.illegal[s]) = v
            c.overtime[s] = bool(ov)
        if len(parts) == 10:
            x = parts[9].split(",")
            if len(x) not in (4, 5):
                raise ValueError("extra field has %d parts" % len(x))
            if x[0] != "-":
                if x[0] not in RESULTS:
                    raise ValueError("unknown result %r" % x[0])
                c.result = x[0]
                c.reason = x[1]
            if x[2] != "-":
                b = tcm.parse("1" + x[2]).periods[0]
                c.bonus = (b[2], b[3])
            c.flag_ends = x[3] == "1"
            if len(x) == 5:
                f, t = x[4].split("@")
                c.flags[int(f)] = int(t)
    except ValueError as e:
        raise ClockError("bad clock snapshot: %s" % e)
    if (state not in (READY, RUNNING, PAUSED, FLAGGED, ADJOURNED, FINISHED) or c.to_move not in (0, 1)
            or (state == FINISHED) != (c.result is not None)):
        raise ClockError("bad clock snapshot: state %d, to_move %d" % (state, c.to_move))
    c.state = PAUSED if state == RUNNING else state
    c.last = now
    return c
