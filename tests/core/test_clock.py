"""Clock engine scenarios. Runs under pytest and under MicroPython (tests/mp)."""

from flagcore import clock as ck
from flagcore import display
from flagcore.clock import Clock, ClockError, WHITE, BLACK
from flagcore.ticks import ticks_add, ticks_diff, PERIOD
from mptest import raises

MIN = 60000
HOUR = 3600000


class Game:
    """Drives a clock with times in ms from the game start, as ticks from `base`."""

    def __init__(self, tc, base=0, first=WHITE):
        self.c = Clock(tc)
        self.base = base
        self.c.start(first, self.tick(0))

    def tick(self, t):
        return ticks_add(self.base, t)

    def press(self, side, t):
        return self.c.press(side, self.tick(t))

    def update(self, t):
        return self.c.update(self.tick(t))

    def flag_at(self):
        return ticks_diff(self.c.flag_tick, self.base)


def play(g, t0, think_w, think_b, n):
    """n full moves from t0 with fixed think times; returns the time after them."""
    t = t0
    for _ in range(n):
        t += think_w
        assert g.press(WHITE, t) == ck.OK
        t += think_b
        assert g.press(BLACK, t) == ck.OK
    return t


def invariant(c):
    for s in (0, 1):
        assert c.allotted[s] == c.used[s] + c.remaining[s], (s, c.allotted[s], c.used[s], c.remaining[s])


# -- ticks -----------------------------------------------------------------

def test_ticks_wrap():
    assert ticks_add(PERIOD - 1, 1) == 0
    assert ticks_add(5, -10) == PERIOD - 5
    assert ticks_diff(3, PERIOD - 2) == 5
    assert ticks_diff(PERIOD - 2, 3) == -5


# -- modes -----------------------------------------------------------------

def test_sudden_death_flag_exact_tick():
    g = Game("300")
    assert g.press(WHITE, 1000) == ck.OK
    assert g.update(200000) is None
    assert g.c.remaining[BLACK] == 300000 - 199000
    assert g.update(299999 + 1000) is None
    assert g.update(400000) == BLACK
    assert g.c.flag == BLACK and g.flag_at() == 301000
    assert g.c.remaining[BLACK] == 0
    assert g.c.state == ck.FLAGGED
    assert g.press(BLACK, 400001) == ck.IGNORED_NOT_RUNNING
    invariant(g.c)


def test_press_at_zero_is_too_late():
    g = Game("60")
    assert g.press(WHITE, 60000) == ck.IGNORED_NOT_RUNNING
    assert g.c.flag == WHITE and g.flag_at() == 60000


def test_fischer_increment():
    g = Game("300+3")
    g.press(WHITE, 10000)
    assert g.c.remaining[WHITE] == 300000 - 10000 + 3000
    g.press(BLACK, 12000)
    assert g.c.remaining[BLACK] == 300000 - 2000 + 3000
    assert g.c.moves == [1, 1]
    invariant(g.c)


def test_bronstein_adds_back_at_most_delay():
    g = Game("300b5")
    g.press(WHITE, 3000)      # used 3 s, refunded 3 s
    assert g.c.remaining[WHITE] == 300000
    g.press(BLACK, 3000 + 8000)  # used 8 s, refunded 5 s
    assert g.c.remaining[BLACK] == 300000 - 3000
    invariant(g.c)


def test_bronstein_flag_falls_inside_delay_window():
    g = Game("2b5")
    assert g.update(2500) == WHITE
    assert g.flag_at() == 2000


def test_simple_delay_main_time_waits():
    g = Game("300d5")
    g.update(4000)
    assert g.c.remaining[WHITE] == 300000
    g.press(WHITE, 7000)
    assert g.c.remaining[WHITE] == 298000
    # flag only after delay + remaining
    g2 = Game("2d5")
    assert g2.update(6999) is None
    assert g2.update(8000) == WHITE
    assert g2.flag_at() == 7000


def test_delay_survives_pause():
    g = Game("300d5")
    g.c.pause(g.tick(3000))
    g.c.resume(g.tick(50000))
    g.update(50000 + 2000)
    assert g.c.remaining[WHITE] == 300000
    g.update(50000 + 4000)
    assert g.c.remaining[WHITE] == 298000


def test_1975_scheme_one_carry_over_and_repeat():
    # 40 moves in 2h30, then 16 moves every hour [001 ch.2 s.4]
    g = Game("40/9000:16/3600")
    t = play(g, 0, 3 * MIN, 3 * MIN, 40)  # 120 min each of the 150
    assert g.c.period == [1, 1]
    assert g.c.remaining[WHITE] == 30 * MIN + 60 * MIN  # carry-over + 1h
    t = play(g, t, 5 * MIN, 1 * MIN, 16)
    assert g.c.period == [2, 2]
    assert g.c.remaining[WHITE] == 90 * MIN - 80 * MIN + 60 * MIN
    assert g.c.remaining[BLACK] == 90 * MIN - 16 * MIN + 60 * MIN
    invariant(g.c)


def test_1975_scheme_two_and_three():
    # 40/2h then 20/1h; 40/1h30 then 20/45min [001 ch.2 s.4]
    g = Game("40/7200:20/3600")
    t = play(g, 0, 2 * MIN, 1 * MIN, 40)
    assert g.c.remaining == [100 * MIN, 140 * MIN]
    t = play(g, t, 2 * MIN, 2 * MIN, 20)
    assert g.c.period == [2, 2]
    assert g.c.remaining == [120 * MIN, 160 * MIN]
    g3 = Game("40/5400:20/2700")
    t = play(g3, 0, 2 * MIN, 2 * MIN, 40)
    assert g3.c.remaining == [55 * MIN, 55 * MIN]
    t = play(g3, t, 1 * MIN, 3 * MIN, 18)
    assert g3.c.remaining == [37 * MIN, 1 * MIN]
    g3.press(WHITE, t + MIN)
    assert g3.update(t + 4 * MIN) == BLACK
    assert g3.flag_at() == t + 2 * MIN
    assert g3.c.moves == [59, 58] and g3.c.period == [1, 1]


def test_flag_in_period_one_with_39_moves():
    g = Game("40/9000:16/3600")
    t = play(g, 0, 3 * MIN, 3 * MIN, 39)   # 117 min each
    assert g.c.moves == [39, 39]
    assert g.update(t + 33 * MIN - 1) is None
    assert g.update(t + 34 * MIN) == WHITE
    assert g.flag_at() == t + 33 * MIN
    assert g.c.moves[WHITE] == 39 and g.c.period[WHITE] == 0


def test_multi_period_increment_from_move_one():
    g = Game("40/5400+30:1800+30")
    t = play(g, 0, MIN, MIN, 40)
    # 90 - 40 + 40 * 0.5 + 30 min
    assert g.c.remaining[WHITE] == 90 * MIN - 40 * MIN + 20 * MIN + 30 * MIN
    g.press(WHITE, t + MIN)
    assert g.c.remaining[WHITE] == 100 * MIN - MIN + 30000
    invariant(g.c)


def test_increment_only_in_second_period():
    g = Game("40/7200:1800+30")
    t = play(g, 0, MIN, MIN, 40)
    assert g.c.remaining[WHITE] == 80 * MIN + 30 * MIN
    g.press(WHITE, t + MIN)
    assert g.c.remaining[WHITE] == 110 * MIN - MIN + 30000


def test_byoyomi_periods_used_only_when_exceeded():
    g = Game("60:3x30")
    g.press(WHITE, 70000)        # 60 s main + 10 s into the first period
    assert g.c.overtime[WHITE] and g.c.byo[WHITE] == 3
    assert g.c.remaining[WHITE] == 30000  # period not used up: reset
    t = 70000 + 1000
    g.press(BLACK, t)
    t += 29999
    g.press(WHITE, t)
    assert g.c.byo[WHITE] == 3
    t += 1000
    g.press(BLACK, t)
    t += 45000                    # exceeds one period
    g.press(WHITE, t)
    assert g.c.byo[WHITE] == 2
    assert g.c.remaining[WHITE] == 30000
    t += 1000
    g.press(BLACK, t)
    assert g.update(t + 45000) is None    # uses one more, 1 left
    assert g.c.byo[WHITE] == 1 and g.c.remaining[WHITE] == 15000
    assert g.update(t + 90000) == WHITE
    assert g.flag_at() == t + 60000
    assert g.c.byo[WHITE] == 0


def test_byoyomi_display():
    g = Game("10:2x5")
    g.update(12000)
    v = display.side_view(g.c, WHITE)
    assert v["overtime"] and v["byo"] == 2 and v["time"] == "0:03.0"


def test_canadian_byoyomi_blocks():
    g = Game("60:c3/30")
    t = 61000
    g.press(WHITE, t)                  # 1 s into the block
    assert g.c.overtime[WHITE] and g.c.byo[WHITE] == 1
    assert g.c.remaining[WHITE] == 29000
    for _ in range(2):
        t += 1000
        g.press(BLACK, t)
        t += 5000
        g.press(WHITE, t)
    assert g.c.byo[WHITE] == 0 and g.c.remaining[WHITE] == 30000  # new block
    t += 1000
    g.press(BLACK, t)
    assert g.update(t + 30000) == WHITE
    v = display.side_view(g.c, WHITE)
    assert v["byo"] == 3 and v["flag"]


def test_hourglass_conserves_time():
    g = Game("*60")
    g.press(WHITE, 10000)
    assert g.c.remaining == [50000, 70000]
    g.press(BLACK, 10000 + 30000)
    assert g.c.remaining == [80000, 40000]
    assert g.c.remaining[0] + g.c.remaining[1] == 120000
    assert g.update(10000 + 30000 + 80000) == WHITE
    assert g.c.remaining == [0, 120000]
    invariant(g.c)


def test_countup_never_flags():
    g = Game("-")
    g.press(WHITE, 5 * HOUR)
    assert g.update(20 * HOUR) is None
    assert g.c.used == [5 * HOUR, 15 * HOUR]
    assert display.side_view(g.c, BLACK)["time"] == "15:00:00"


# -- events ----------------------------------------------------------------

def test_press_by_wrong_side_ignored():
    g = Game("300+2")
    g.press(WHITE, 1000)
    before = g.c.snapshot(g.tick(2000))
    assert g.press(WHITE, 2000) == ck.IGNORED_NOT_ON_MOVE
    assert g.c.snapshot(g.tick(2000)) == before
    assert g.c.to_move == BLACK and g.c.moves == [1, 0]


def test_late_arrival_either_side_starts():
    g = Game("600", first=BLACK)
    assert g.c.to_move == BLACK
    g.update(30000)
    assert g.c.remaining == [600000, 570000]
    assert raises(ClockError, g.c.start, WHITE, 0)


def test_late_white_clock_runs_from_start():
    g = Game("600")
    assert g.press(WHITE, 5 * MIN) == ck.OK  # arrives 5 min late and moves at once
    assert g.c.remaining[WHITE] == 5 * MIN


def test_pause_resume():
    g = Game("300")
    g.c.pause(g.tick(10000))
    assert g.press(WHITE, 20000) == ck.IGNORED_NOT_RUNNING
    g.c.resume(g.tick(100000))
    g.update(101000)
    assert g.c.remaining[WHITE] == 289000


def test_arbiter_adjust_and_move_correction():
    g = Game("40/5400:1800")
    t = play(g, 0, MIN, MIN, 39)
    g.c.adjust(BLACK, 120000, g.tick(t))
    assert g.c.remaining[BLACK] == 51 * MIN + 2 * MIN
    assert raises(ClockError, g.c.adjust, WHITE, -100 * MIN, g.tick(t))
    # the arbiter counts and finds white has made 40 moves: period 2 time follows
    g.c.set_moves(WHITE, 40, g.tick(t))
    assert g.c.period[WHITE] == 1 and g.c.remaining[WHITE] == 51 * MIN + 30 * MIN
    g.c.set_moves(WHITE, 39, g.tick(t))
    assert g.c.period[WHITE] == 0 and g.c.remaining[WHITE] == 51 * MIN
    invariant(g.c)


def test_illegal_move_fide_2000_policy():
    g = Game("5400")
    now = g.tick(1000)
    assert g.c.illegal_move(WHITE, now, 120000, 3) == ck.PENALTY
    assert g.c.remaining[BLACK] == 5400000 + 120000
    assert g.c.illegal_move(WHITE, now, 120000, 3) == ck.PENALTY
    assert g.c.illegal_move(WHITE, now, 120000, 3) == ck.LOSS
    assert g.c.illegal == [3, 0]


def test_illegal_move_checkers_warning_then_forfeit():
    g = Game("3600")
    now = g.tick(1000)
    assert g.c.illegal_move(BLACK, now, 0, 2, True) == ck.WARNING
    assert g.c.illegal_move(BLACK, now, 0, 2, True) == ck.LOSS


def test_flag_then_add_time_and_resume():
    g = Game("10")
    assert g.update(11000) == WHITE
    assert raises(ClockError, g.c.resume, g.tick(12000))
    g.c.adjust(WHITE, 5000, g.tick(12000))
    g.c.resume(g.tick(12000))
    g.press(WHITE, 13000)
    assert g.c.remaining[WHITE] == 4000 and g.c.flag == WHITE


def test_seal_early_charge_1975_example():
    # 40 moves in 2h30 each; after 40 moves white used 2:05, black 1:50 [001 ch.2 s.5]
    g = Game("40/9000:16/3600")
    t = 0
    for i in range(40):
        t += 125 * MIN // 40
        g.press(WHITE, t)
        t += 110 * MIN // 40
        g.press(BLACK, t)
    assert g.c.used == [125 * MIN, 110 * MIN]
    g.c.seal(g.tick(t), early=True)
    assert g.c.state == ck.ADJOURNED
    assert g.c.adjourn_charge == 190 * MIN        # 5:00 - 1:50 = 3:10
    assert g.c.used[WHITE] == 190 * MIN
    assert g.c.remaining[WHITE] == 150 * MIN + 60 * MIN - 190 * MIN
    assert g.c.moves[WHITE] == 41 and g.c.to_move == BLACK
    invariant(g.c)
    # resumption: the sealed move is made on the board, black's clock starts
    g.c.resume(g.tick(t + 20 * HOUR))
    g.update(t + 20 * HOUR + 1000)
    assert g.c.remaining[BLACK] == 40 * MIN + 60 * MIN - 1000


def test_seal_normal_keeps_real_time():
    g = Game("40/9000:16/3600")
    g.press(WHITE, 1000)
    g.c.seal(g.tick(3000))
    assert g.c.used == [1000, 2000] and g.c.adjourn_charge is None


def test_snapshot_restore_round_trip():
    g = Game("40/5400+30:1800+30")
    t = play(g, 0, MIN, 2 * MIN, 12)
    g.update(t + 5000)
    s = g.c.snapshot()
    c2 = ck.restore(s, 12345)
    assert c2.state == ck.PAUSED
    assert c2.snapshot().split("|")[3:] == s.split("|")[3:]
    c2.resume(12345)
    c2.press(WHITE, 12345 + 10000)
    assert c2.remaining[WHITE] == g.c.remaining[WHITE] - 10000 + 30000
    assert raises(ClockError, ck.restore, "C1|garbage", 0)
    assert raises(ClockError, ck.restore, s.replace("|1|", "|9|", 1), 0)


def test_full_game_across_tick_wrap():
    base = PERIOD - 30 * MIN  # the counter wraps half an hour into the game
    g = Game("40/7200:20/3600:1800", base=base)
    t = play(g, 0, 90000, 100000, 60)
    assert g.c.period == [2, 2]
    assert g.c.used == [60 * 90000, 60 * 100000]
    assert g.c.remaining == [3 * HOUR + 30 * MIN - 90 * MIN, 3 * HOUR + 30 * MIN - 100 * MIN]
    # the flag falls at the exact tick, reported across the wrap too
    assert g.update(t + 200 * MIN) == WHITE
    assert g.flag_at() == t + 120 * MIN
    invariant(g.c)


def test_display_formats():
    f = display.format_ms
    assert f(2 * HOUR + 5 * MIN + 7000) == "2:05:07"
    assert f(59 * MIN + 59001) == "1:00:00"
    assert f(20000) == "0:20"
    assert f(19999) == "0:20.0"
    assert f(19901) == "0:20.0"
    assert f(19900) == "0:19.9"
    assert f(1) == "0:00.1"
    assert f(0) == "0:00.0"
    assert f(61500, countup=True) == "1:01"


def test_display_view_and_line():
    g = Game("40/9000:16/3600")
    g.press(WHITE, 2000)
    w, b = display.view(g.c)
    assert w["time"] == "2:29:58" and w["moves"] == 1 and w["period"] == 1
    assert b["running"] and not w["running"]
    assert display.line(g.c, WHITE) == "2:29:58 m1 p1"
