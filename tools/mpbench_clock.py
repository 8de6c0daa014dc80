# Clock benchmark body; runs unchanged on CPython and inside MicroPython.
# Prints 'name: value unit' lines. The accuracy run checks the engine against
# an independent model: time allotted is computed from the time control and
# the move count, time used from the simulated think times.
import sys

if "/lib" not in sys.path:
    sys.path.insert(0, "/lib")
from flagcore.clock import Clock  # noqa: E402
from flagcore.ticks import PERIOD, ticks_add, ticks_diff as us_diff, ticks_us  # noqa: E402  (the one ticks shim)

RUNTIME = "micropython" if sys.implementation.name == "micropython" else "cpython"


class Lcg:
    """A small deterministic generator, identical on both runtimes."""

    def __init__(self, seed):
        self.x = seed

    def below(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.x >> 4) % n


def cost(n):
    c = Clock("40/5400+30:1800+30")
    now = 0
    c.start(0, now)
    t0 = ticks_us()
    for i in range(n):
        now = ticks_add(now, 7)
        c.update(now)
    t_update = us_diff(ticks_us(), t0) / n
    t0 = ticks_us()
    side = 0
    for i in range(n):
        now = ticks_add(now, 11)
        c.press(side, now)
        side = 1 - side
    t_press = us_diff(ticks_us(), t0) / n
    return t_update, t_press


TC = "40/7200:20/3600:1800+30"
PERIODS = ((40, 7200000, 0), (20, 3600000, 0), (0, 1800000, 30000))


def allotted_model(moves):
    """Time allotted after `moves` completed moves, from the control alone."""
    total = PERIODS[0][1]
    done = 0
    for i, (n, ms, inc) in enumerate(PERIODS):
        if n == 0:
            total += inc * (moves - done)
            break
        in_period = min(moves - done, n)
        total += inc * in_period
        done += in_period
        if done < sum(p[0] for p in PERIODS[:i + 1]):
            break
        total += PERIODS[i + 1][1]
    return total


def accuracy(seed, moves_each=150, hours=6):
    """Play a game of moves_each moves a side lasting about `hours`; return (max error ms, game ms, wraps)."""
    rnd = Lcg(seed)
    mean = hours * 3600000 // (2 * moves_each)
    base = PERIOD - hours * 3600000 // 2  # the counter wraps mid-game
    c = Clock(TC)
    now = base
    c.start(0, now)
    used = [0, 0]
    worst = 0
    t = 0
    wraps = 0
    for m in range(2 * moves_each):
        side = m % 2
        think = 1 + rnd.below(2 * mean)
        # a few updates inside the move, as a device loop would
        for k in (3, 2, 1):
            nxt = ticks_add(now, think // (k + 1))
            assert c.update(nxt) is None
        prev = now
        now = ticks_add(now, think)
        if now < prev:
            wraps += 1
        t += think
        assert c.press(side, now) == "ok", "flag at move %d" % m
        used[side] += think
        for s in (0, 1):
            err = allotted_model(c.moves[s]) - (used[s] + c.remaining[s])
            if err < 0:
                err = -err
            if err > worst:
                worst = err
    assert c.moves == [moves_each, moves_each]
    return worst, t, wraps


n = 20000 if RUNTIME == "cpython" else 3000
u, p = cost(n)
print("clock update (%s): %.2f us" % (RUNTIME, u))
print("clock press (%s): %.2f us" % (RUNTIME, p))
worst = 0
for seed in (1, 2, 3):
    err, t, wraps = accuracy(seed)
    worst = max(worst, err)
print("accuracy (%s): 3 games x 150 moves a side, %.2f h each, tick wraps %d; max |allotted - used - left| = %d ms"
      % (RUNTIME, t / 3600000.0, wraps, worst))
if worst:
    raise SystemExit(1)
