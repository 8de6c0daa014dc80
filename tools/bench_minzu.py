"""Minzu tiaoqi benchmarks: MicroPython peak heap of a full 9x9 game, and the self-play soak.

    python tools/bench_minzu.py                  # both, 1,000 games per board size
    python tools/bench_minzu.py --games 100      # a shorter soak
    python tools/bench_minzu.py --no-soak        # memory and speed only

Memory: 10 full 9x9 self-play games are generated on CPython, then each is
replayed inside MicroPython (tests/mp/heap.mjs), every decision checked
against the legal list. Method: gc.collect(); base = gc.mem_alloc() before
importing flagcore.minzu; each decision is its own top-level step:
gc.collect(); step; peak = max(peak, gc.mem_alloc() - base). No collection
happens inside a step, so this is the retained state plus every byte the step
allocated: an upper bound on the true peak (module bytecode included).
Hard limit: 40 KB.

Soak: K games per board size with the computer player, the legality of every
decision and the invariants checked after each (flagfall selfplay does the
same); exits non-zero on any failure.
"""
import os
import subprocess
import sys
import time

import mpheap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host")]

from flagcore import minzu as core  # noqa: E402
from flagcore import minzu_player as player  # noqa: E402
from flagfall.commands import selfplay  # noqa: E402

LIMIT = 40 * 1024
MEM_GAMES = 10


def memory():
    """Worst peak heap over MEM_GAMES 9x9 games; returns True if within the limit."""
    worst = 0
    worst_import = 0
    decisions = 0
    ok = True
    for seed in range(1, MEM_GAMES + 1):
        texts = []
        g, n, fails = player.play_game("9", seed, core.Ruleset(quiet_draw=100), True, texts)
        steps = ["from flagcore import minzu\nimport_peak = gc.mem_alloc() - base",
                 "imported = gc.mem_alloc() - base\ng = minzu.Game('9')\nplies = 0"]
        steps += ["g.play(minzu.STOP)\nplies += 1" if d == "stop" else "g.play(%r)\nplies += 1" % d for d in texts]
        r = mpheap.measure(steps, "print('mp_import_peak_heap: %d bytes' % import_peak)\n"
                                  "print('mp_import_retained_heap: %d bytes' % imported)\n"
                                  "print('mp_game_decisions: %d' % plies)\n"
                                  "print('mp_game_result: %s' % g.result)\n"
                                  "print('mp_game_result_ok: %d' % (g.result == " + repr(g.result) + "))\n"
                                  "print('mp_game_peak_heap: %d bytes' % peak)\n"
                                  "print('mp_game_retained_heap: %d bytes' % retained)")
        vals = {}
        for line in r.stdout.splitlines():
            k, _, v = line.partition(": ")
            vals[k] = v.split()[0] if v else ""
        if r.returncode or vals.get("mp_game_result_ok") != "1" or int(vals.get("mp_game_decisions", 0)) != n:
            print("minzu_mp_replay_failed: seed %d: %s" % (seed, (r.stderr or r.stdout)[-500:]))
            ok = False
            continue
        worst = max(worst, int(vals["mp_game_peak_heap"]))
        worst_import = max(worst_import, int(vals["mp_import_peak_heap"]))
        decisions += n
    print("minzu_mp_method: gc.collect + gc.mem_alloc above a base taken before the import, one top-level step per decision (upper bound)")
    print("minzu_mp_9x9_games: %d games" % MEM_GAMES)
    print("minzu_mp_9x9_decisions: %d decisions" % decisions)
    print("minzu_mp_import_peak_heap: %d bytes" % worst_import)
    print("minzu_mp_9x9_game_peak_heap: %d bytes (limit %d)" % (worst, LIMIT))
    return ok and worst <= LIMIT and worst_import <= LIMIT


def speed():
    """Decisions per second of self-play with checks on CPython, one 9x9 game under MicroPython."""
    t0 = time.time()
    n = 0
    for seed in range(1, 21):
        g, k, f = player.play_game("9", seed, core.Ruleset(quiet_draw=100))
        n += k
    dt = time.time() - t0
    print("minzu_cpython_selfplay_9x9: %.0f decisions/s (checked, player included)" % (n / dt))
    body = ("import time\nfrom flagcore import minzu as mz, minzu_player as mp\n"
            "t = time.ticks_ms()\ng, n, f = mp.play_game('9', 1, mz.Ruleset(quiet_draw=100))\n"
            "dt = time.ticks_diff(time.ticks_ms(), t)\n"
            "print('minzu_mp_selfplay_9x9_game: %d ms (%d decisions, %d failures)' % (dt, n, len(f)))\n")
    path = os.path.join(ROOT, "build", "mpbench_minzu_speed.py")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(body)
    r = subprocess.run(["node", os.path.join(ROOT, "tests", "mp", "run.mjs"), "--script", path], cwd=ROOT,
                       capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    return r.returncode == 0 and "0 failures" in r.stdout


def soak(games):
    """games per size; returns True if no invariant failed."""
    ok = True
    total = 0
    total_dec = 0
    for size in core.SIZES:
        s = selfplay.soak(size, games, seed=1, progress=sys.stderr)
        total += s["games"]
        total_dec += s["decisions"]
        tag = size.replace("x", "by")
        print("minzu_soak_%s_games: %d games (light %d, dark %d, draws %d)" % (tag, s["games"], s["light"], s["dark"], s["draws"]))
        print("minzu_soak_%s_decisions: %d decisions (%.1f per game)" % (tag, s["decisions"], s["decisions"] / s["games"]))
        print("minzu_soak_%s_invariant_failures: %d games" % (tag, s["failures"]))
        print("minzu_soak_%s_time: %.1f s" % (tag, s["seconds"]))
        for f in s["first_failures"]:
            print("  %s" % f)
        sys.stdout.flush()
        if s["failures"]:
            ok = False
    print("minzu_soak_total: %d games, %d decisions" % (total, total_dec))
    return ok


def main(argv):
    games = 1000
    if "--games" in argv:
        games = int(argv[argv.index("--games") + 1])
    ok = memory()
    ok = speed() and ok
    if "--no-soak" not in argv:
        ok = soak(games) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
