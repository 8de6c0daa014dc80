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


def test_the_arbiter_hands_a_stopped_clock_to_the_side_to_move():
    g = Game("300")
    g.press(WHITE, 10000)                      # an illegal move pressed: Black's clock runs
    assert raises(ClockError, g.c.hand_to, BLACK, g.tick(11000))     # running: pause first
    g.c.pause(g.tick(12000))
    assert g.c.hand_to("white", g.tick(20000)) == ck.OK and g.c.to_move == WHITE
    assert g.c.moves == [1, 0]                  # the counters are the host's to reconcile
    g.c.resume(g.tick(30000))
    g.update(40000)
    assert g.c.remaining == [5 * MIN - 20000, 5 * MIN - 2000]    # White's clock runs again, Black's stood
    assert g.c.turn_used == 10000


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


# -- time odds (a control per side) -------------------------------------------

def test_armageddon_sides_start_with_their_own_time():
    g = Game("W300-B240")
    assert g.c.remaining == [300000, 240000] and g.c.allotted == [300000, 240000]
    g.press(WHITE, 10000)
    g.press(BLACK, 30000)
    assert g.c.remaining == [290000, 220000]
    assert g.update(30000 + 290000) == WHITE
    assert g.c.state == ck.FLAGGED     # flag_ends is off: the arbiter decides
    invariant(g.c)


def test_each_side_its_own_bonus():
    g = Game("W300+2-B240d3")
    g.press(WHITE, 10000)               # +2 s for white
    assert g.c.remaining[WHITE] == 292000
    g.press(BLACK, 15000)               # 5 s thought, the first 3 s cost nothing
    assert g.c.remaining[BLACK] == 238000
    g.press(WHITE, 16000)
    assert g.c.remaining[WHITE] == 293000
    invariant(g.c)


def test_each_side_its_own_periods():
    g = Game("W40/5400+30:1800+30-B40/4800+30:1800+30")
    t = play(g, 0, MIN, MIN, 40)
    assert g.c.period == [1, 1]
    assert g.c.remaining[WHITE] == 5400000 - 40 * MIN + 40 * 30000 + 1800000
    assert g.c.remaining[BLACK] == 4800000 - 40 * MIN + 40 * 30000 + 1800000
    assert g.c.completed_time(WHITE) == 5400000 and g.c.completed_time(BLACK) == 4800000
    invariant(g.c)


def test_increment_from_move_61_world_cup_armageddon():
    g = Game("W60/300:0+3-B60/240:0+3")
    t = play(g, 0, 2000, 1000, 60)      # no increment in the first 60 moves
    assert g.c.remaining == [300000 - 120000, 240000 - 60000]
    t += 2000
    g.press(WHITE, t)                   # move 61 earns 3 s
    assert g.c.remaining[WHITE] == 180000 - 2000 + 3000
    invariant(g.c)


def test_snapshot_carries_a_control_per_side():
    g = Game("W300+2-B240+2")
    g.press(WHITE, 5000)
    s = g.c.snapshot(g.tick(6000))
    assert s.startswith("C2|W300+2-B240+2|")
    c = ck.restore(s, 0)
    assert c.tcs[BLACK].periods[0][1] == 240000 and c.remaining == g.c.remaining
    c.resume(0)
    c.press(BLACK, 1000)
    assert c.remaining[BLACK] == g.c.remaining[BLACK] - 1000 + 2000


# -- a decided game ----------------------------------------------------------------

def test_third_illegal_move_finishes_the_game():
    g = Game("300+2")
    g.press(WHITE, 1000)
    now = g.tick(2000)
    for _ in range(2):
        assert g.c.illegal_move(BLACK, now, 120000, 3) == ck.PENALTY
    assert g.c.illegal_move(BLACK, now, 120000, 3) == ck.LOSS
    assert g.c.state == ck.FINISHED and g.c.result == "1-0" and g.c.reason == ck.BY_ILLEGAL
    left = list(g.c.remaining)
    assert g.update(100000) is None and g.c.remaining == left    # black's clock stopped
    assert g.press(BLACK, 100000) == ck.IGNORED_NOT_RUNNING
    assert g.c.moves == [1, 0]
    assert raises(ClockError, g.c.resume, g.tick(100000))
    assert raises(ClockError, g.c.adjust, WHITE, 1000, g.tick(100000))
    assert raises(ClockError, g.c.set_moves, WHITE, 3, g.tick(100000))
    assert g.c.pause(g.tick(100000)) == ck.IGNORED_NOT_RUNNING
    invariant(g.c)


def test_flag_ends_the_game_when_the_ruleset_says_so():
    c = Clock("W60-B50", flag_ends=True)
    c.start(BLACK, 0)
    assert c.update(50000) == BLACK
    assert c.state == ck.FINISHED and c.result == "1-0" and c.reason == ck.BY_FLAG
    assert c.flag == BLACK and c.flag_tick == 50000
    assert c.press(BLACK, 50001) == ck.IGNORED_NOT_RUNNING
    # the arbiter takes it back (e.g. the opponent could not mate): flagged, time to add
    c.reopen(60000)
    assert c.state == ck.FLAGGED
    assert raises(ClockError, c.resume, 60000)
    c.set_time(BLACK, 10000, 60000)
    assert c.flags[BLACK] is None
    c.resume(61000)
    assert c.update(70000) is None and c.remaining[BLACK] == 1000
    invariant(c)


def test_result_given_to_the_clock():
    g = Game("600")
    g.press(WHITE, 3000)
    g.c.finish("1/2-1/2", ck.BY_HOST, g.tick(4000))
    assert g.c.state == ck.FINISHED and g.c.remaining[BLACK] == 599000
    g.c.finish("0-1", ck.BY_ARBITER, g.tick(5000))        # the arbiter corrects it
    assert g.c.result == "0-1" and g.c.remaining[BLACK] == 599000
    assert raises(ClockError, g.c.finish, "2-0", ck.BY_HOST, g.tick(5000))
    assert raises(ClockError, g.c.finish, "1-0", "two words", g.tick(5000))
    g.c.reopen(g.tick(6000))
    assert g.c.state == ck.PAUSED and g.c.result is None
    g.c.resume(g.tick(7000))
    g.update(8000)
    assert g.c.remaining[BLACK] == 598000
    # a result before the start (a forfeit) finishes a ready clock
    c = Clock("300")
    c.finish("1-0", ck.BY_HOST, 0)
    assert c.state == ck.FINISHED
    assert raises(ClockError, c.start, WHITE, 0)


def test_finished_snapshot_round_trip_and_old_snapshots():
    g = Game("W300-B240", base=PERIOD - 1000)
    g.press(WHITE, 2000)
    g.c.finish("0-1/2", ck.BY_HOST, g.tick(3000))
    s = g.c.snapshot()
    assert s.endswith("|0-1/2,host,-,0")
    c = ck.restore(s, 77)
    assert c.state == ck.FINISHED and c.result == "0-1/2" and c.reason == "host"
    assert c.snapshot() == s
    assert raises(ClockError, ck.restore, s.replace("0-1/2,host", "-,-"), 0)   # finished needs a result
    assert raises(ClockError, ck.restore, s.replace("0-1/2,", "2-0,"), 0)
    # a snapshot written before the finished state (C1) still restores
    old = "C1|300|2|1|0|0|-|299000,1000,300000,1,0,0,0,0|300000,0,300000,0,0,0,0,0"
    c = ck.restore(old, 5)
    assert c.state == ck.PAUSED and c.result is None and c.remaining == [299000, 300000]
    assert c.snapshot().startswith("C2|300|2|1|")


def test_display_shows_the_result():
    g = Game("300")
    g.press(WHITE, 1000)
    g.c.finish("1/2-1/2", ck.BY_ARBITER, g.tick(2000))
    w, b = display.view(g.c)
    assert w["score"] == "1/2" and b["score"] == "1/2" and not b["running"]
    assert display.line(g.c, WHITE) == "1/2 4:59 m1"
    g.c.finish("1-0", ck.BY_ARBITER, g.tick(2000))
    assert display.view(g.c)[1]["score"] == "0"
    assert display.view(Game("300").c)[0]["score"] is None


# -- the arbiter's edits -------------------------------------------------------------

def test_arbiter_sets_times_in_pause():
    g = Game("W300-B240")
    g.press(WHITE, 10000)
    assert raises(ClockError, g.c.set_time, WHITE, 60000, g.tick(11000))   # running
    g.c.pause(g.tick(20000))
    g.c.set_time(WHITE, 60000, g.tick(20000))
    g.c.set_time("black", 230500, g.tick(20000))
    assert g.c.remaining == [60000, 230500]
    assert raises(ClockError, g.c.set_time, WHITE, -1, g.tick(20000))
    invariant(g.c)
    g.c.resume(g.tick(30000))
    g.update(31000)
    assert g.c.remaining[BLACK] == 229500
    assert raises(ClockError, Clock("-").set_time, WHITE, 1000, 0)


def test_arbiter_adds_an_increment_for_both_from_now_on():
    # FIDE Guidelines III.4: a quickplay finish gets an extra 5 s per move for both
    g = Game("300")
    t = play(g, 0, 1000, 1000, 3)
    assert g.c.remaining == [297000, 297000]
    g.c.pause(g.tick(t))
    g.c.set_bonus("+", 5000, g.tick(t))
    assert g.c.snapshot().endswith("|-,-,+5,0")
    g.c.resume(g.tick(t))
    t = play(g, t, 1000, 2000, 2)
    assert g.c.remaining == [297000 - 2000 + 10000, 297000 - 4000 + 10000]
    c = ck.restore(g.c.snapshot(), 0)
    assert c.bonus == g.c.bonus
    g.c.set_bonus("+", 0, g.tick(t))     # removed
    assert g.c.bonus is None
    invariant(g.c)


def test_arbiter_delay_starts_with_the_next_turn():
    g = Game("W300+2-B300")
    g.press(WHITE, 1000)
    g.c.set_bonus("d", 5000, g.tick(2000))   # black is thinking: charged as before
    g.press(BLACK, 4000)
    assert g.c.remaining[BLACK] == 297000
    g.press(WHITE, 10000)                    # 6 s, 5 s of delay; the delay replaces white's +2
    assert g.c.remaining[WHITE] == 301000 - 1000
    assert raises(ClockError, g.c.set_bonus, "x", 5000, g.tick(10000))
    assert raises(ClockError, Clock("*60").set_bonus, "+", 5000, 0)
    invariant(g.c)
