"""Scanner: debounce window, event timestamps, snapshot, ghost suspects."""
import gc

from flagcore.scan import DOWN, UP, Scanner


def drain(s):
    out = []
    while True:
        e = s.pop()
        if e is None:
            return out
        out.append(e)


def test_change_counts_after_window_with_first_tick():
    s = Scanner(8, 8, debounce_ms=30)
    s.prime()
    s.raw[12] = 1
    assert s.update(1000) == 0
    assert s.update(1029) == 0
    assert s.update(1030) == 1
    assert drain(s) == [(12, DOWN, 1000)]
    assert s.snapshot()[12] == 1


def test_bounce_shorter_than_window_is_ignored():
    s = Scanner(8, 8, debounce_ms=30)
    s.prime()
    for t, v in ((0, 1), (5, 0), (10, 1), (14, 0), (20, 0), (60, 0), (100, 0)):
        s.raw[3] = v
        s.update(t)
    assert drain(s) == []
    assert s.npending == 0


def test_bounce_restarts_window():
    s = Scanner(2, 2, debounce_ms=20)
    s.prime()
    s.raw[0] = 1
    s.update(0)
    s.raw[0] = 0
    s.update(10)      # bounced back: the window restarts
    s.raw[0] = 1
    s.update(15)
    s.update(30)      # 15 ms after the last change: not yet
    assert drain(s) == []
    s.update(35)
    assert drain(s) == [(0, DOWN, 15)]


def test_lift_and_place_is_two_events_in_order():
    s = Scanner(8, 8, debounce_ms=10)
    s.raw[8] = 1
    s.prime()
    s.raw[8] = 0
    s.update(100)
    s.update(110)
    s.raw[16] = 1
    s.update(200)
    s.update(215)
    assert drain(s) == [(8, UP, 100), (16, DOWN, 200)]


def test_zero_window_reports_at_once():
    s = Scanner(1, 4, debounce_ms=0)
    s.prime()
    s.raw[2] = 1
    assert s.update(7) == 1
    assert drain(s) == [(2, DOWN, 7)]


def test_window_measured_across_tick_wrap():
    s = Scanner(1, 1, debounce_ms=30)
    s.prime()
    s.raw[0] = 1
    s.update((1 << 30) - 10)
    assert s.update(5) == 0
    assert s.update(20) == 1
    assert drain(s) == [(0, DOWN, (1 << 30) - 10)]


def test_prime_takes_board_without_events():
    s = Scanner(8, 8)
    for i in range(16):
        s.raw[i] = 1
    s.prime()
    assert s.update(0) == 0 and drain(s) == []
    assert sum(s.snapshot()) == 16


def test_queue_overflow_counts_drops():
    s = Scanner(4, 4, debounce_ms=0, queue=4)
    s.prime()
    for i in range(6):
        s.raw[i] = 1
    s.update(1)
    assert len(drain(s)) == 4 and s.overflow == 2


def test_ghost_corner_held_and_warned_without_diodes():
    s = Scanner(8, 8, debounce_ms=0, diodes=False)
    s.prime()
    for sq in (0, 1, 8):      # three corners of a rectangle
        s.raw[sq] = 1
    s.update(1)
    assert sorted(e[0] for e in drain(s)) == [0, 1, 8]
    assert not s.ghost_changed
    s.raw[9] = 1              # the fourth corner: a real piece or a ghost?
    s.update(2)
    assert drain(s) == []
    assert s.ghost_changed and s.ghost_squares() == [9]
    s.ghost_changed = False
    s.raw[0] = 0              # lifting a corner resolves it: 9 is real
    s.update(3)
    ev = drain(s)
    assert (0, UP, 3) in ev and (9, DOWN, 3) in ev
    assert s.ghost_changed and s.ghost_squares() == []


def test_ghost_check_off_with_diodes():
    s = Scanner(8, 8, debounce_ms=0, diodes=True)
    s.prime()
    for sq in (0, 1, 8, 9):
        s.raw[sq] = 1
    s.update(1)
    assert len(drain(s)) == 4 and not s.ghost_changed


def test_sizes_from_32_to_196():
    for rows, cols in ((8, 4), (8, 8), (10, 5), (10, 10), (14, 14)):
        s = Scanner(rows, cols, debounce_ms=5)
        s.prime()
        last = rows * cols - 1
        s.raw[last] = 1
        s.update(0)
        s.update(5)
        assert drain(s) == [(last, DOWN, 0)]


def test_quiet_and_busy_scans_allocate_nothing():
    s = Scanner(10, 10, debounce_ms=20)
    s.prime()
    s.raw[5] = 1
    s.update(0)               # a change is pending: the slow path runs
    gc.collect()
    gc.disable()
    try:
        before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        for t in range(1, 15):
            s.update(t)
        s.raw[5] = 0
        for t in range(15, 30):
            s.update(t)
        after = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
    finally:
        gc.enable()
    assert after - before == 0, after - before
