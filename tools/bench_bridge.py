"""Bridge benchmarks and the replay acceptance run.

1. Latency: host time from the frame that completes a move (the clock press's
   CLK frame) to the committed move, through the whole engine as it runs live:
   wire frame decoded, journaled and fsync'd, move matched and checked, journal
   decision fsync'd, PGN record rewritten (fsync + rename). Median and p99 over
   every move of 100 real games; also without journal and record (pure logic).
2. Replay speed: games and moves per second of `flagfall replay` with noise.
3. Acceptance: 2,000 real chess games and 500 games of each draughts variant
   replayed with noise through the virtual board and the bridge (real PDN where
   it exists, random play for Brazilian and to complete Russian): zero mismatches
   required (exit 1 otherwise). Also without a clock (commit on settle) for
   chess, international and checkers samples, and minzu random games (6x6, 9x9,
   7x8 turns: placements, marks, clearing, removal, moves, jumps, captures).

Data: tests/data (copied from the shared collection, see tests/data/README.md).
"""
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from flagfall.bridge import replay  # noqa: E402
from flagfall.bridge.engine import BridgeEngine  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))]


class Timed(BridgeEngine):
    """An engine that times each frame that commits a move."""

    lat = None

    def frame(self, t, kind, values, raw=None):
        t0 = time.perf_counter()
        decs = BridgeEngine.frame(self, t, kind, values, raw)
        dt = time.perf_counter() - t0
        if any(d.kind == "move" for d in decs):
            self.lat.append(dt * 1000.0)
        return decs


def latency_logic():
    """Latency of the engine alone (no journal, no record file)."""
    lat = []
    Timed.lat = lat
    orig = replay.BridgeEngine
    replay.BridgeEngine = Timed
    try:
        path = os.path.join(DATA, "chess", "hlotze-pgn2tex_Capablanca.pgn")
        for i, src in enumerate(replay.load_games("chess", path, 100)):
            replay.replay_game("chess", src, seed=i, noise=0.35)
    finally:
        replay.BridgeEngine = orig
    return lat


def latency_fsync():
    """Latency with fsync on (replay_game opens journals without fsync; reopen with it)."""
    lat = []
    tmp = tempfile.mkdtemp(prefix="bench_bridge_")
    try:
        path = os.path.join(DATA, "chess", "hlotze-pgn2tex_Capablanca.pgn")
        for i, src in enumerate(replay.load_games("chess", path, 100)):
            # drive an fsync'ing engine with the frames a virtual device sends
            frames = []

            class Capture(BridgeEngine):
                def frame(self, t, kind, values, raw=None):
                    frames.append((t, kind, values, raw))
                    return BridgeEngine.frame(self, t, kind, values, raw)
            orig = replay.BridgeEngine
            replay.BridgeEngine = Capture
            try:
                replay.replay_game("chess", src, seed=i, noise=0.35)
            finally:
                replay.BridgeEngine = orig
            eng = BridgeEngine("chess", journal_path=os.path.join(tmp, "g%d.journal" % i), out_dir=tmp,
                               record_name="g%d" % i, tc="5400+30", fsync=True)
            for t, kind, values, raw in frames:
                eng.tick(t)
                t0 = time.perf_counter()
                decs = eng.frame(t, kind, values, raw)
                dt = time.perf_counter() - t0
                if any(d.kind == "move" for d in decs):
                    lat.append(dt * 1000.0)
            eng.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return lat


def accept(game, path, count, seed, stats):
    t0 = time.time()
    g, m, k = replay.run(game, path, seed=seed, noise=0.35, clock=True, limit=count, out=None,
                         err=None, stats=stats)
    return g, m, k, time.time() - t0


def main():
    ok = True
    lat = latency_fsync()
    print("bridge_latency_median: %.2f ms (press frame -> committed move, journal fsync + PGN rewrite)"
          % pct(lat, 50))
    print("bridge_latency_p99: %.2f ms (%d moves)" % (pct(lat, 99), len(lat)))
    lat = latency_logic()
    print("bridge_latency_logic_median: %.3f ms (no journal, no record file)" % pct(lat, 50))
    print("bridge_latency_logic_p99: %.3f ms" % pct(lat, 99))

    runs = []
    chess_files = ["serhiis21-chess_1575-1861.pgn", "hlotze-pgn2tex_Capablanca.pgn"]
    need = 2000
    for f in chess_files:
        if need <= 0:
            break
        st = [0, 0]
        g, m, k, dt = accept("chess", os.path.join(DATA, "chess", f), need, 1, st)
        runs.append(("chess", f, g, m, k, dt, st))
        need -= g
    for game, files in (
            ("draughts", [("international/" + f, None) for f in sorted(os.listdir(os.path.join(DATA, "international")))
                          if f.endswith(".pdn")]),
            ("russian", [("russian/" + f, None) for f in sorted(os.listdir(os.path.join(DATA, "russian")))
                         if f.endswith(".pdn")] + [("random:500:7", None)]),
            ("checkers", [("checkers/eric-joyce_ACF_archive_first1000.pdn", None)]),
            ("brazilian", [("random:500:3", None)])):
        need = 500
        for f, _ in files:
            if need <= 0:
                break
            path = f if f.startswith("random:") else os.path.join(DATA, f)
            st = [0, 0]
            g, m, k, dt = accept(game, path, need, 2, st)
            runs.append((game, f, g, m, k, dt, st))
            need -= g
    # without a clock (moves committed when the board settles) and minzu (random play)
    for game, f, count, clock in (("chess", "chess/hlotze-pgn2tex_Capablanca.pgn", 500, False),
                                  ("draughts", "international/eric-joyce_tdl_selfplay_first300.pdn", 200, False),
                                  ("checkers", "checkers/eric-joyce_ACF_archive_first1000.pdn", 200, False),
                                  ("minzu6", "random:100:1", 100, True), ("minzu9", "random:50:2", 50, True),
                                  ("minzu7x8", "random:50:3", 50, False)):
        path = f if f.startswith("random:") else os.path.join(DATA, f)
        t0 = time.time()
        g, m, k = replay.run(game, path, seed=5, noise=0.35, clock=clock, limit=count, out=None, err=None,
                             stats=[0, 0])
        dt = time.time() - t0
        name = ("international" if game == "draughts" else game) + ("" if clock else "_noclock")
        print("replay_%s: %d games, %d moves, %d mismatches (%s)" % (name, g, m, k,
                                                                     "clock presses" if clock else "settle 1500 ms"))
        print("replay_%s_speed: %.1f games/s (%.0f moves/s)" % (name, g / dt, m / dt))
        if k or g < count:
            ok = False
    totals = {}
    for game, f, g, m, k, dt, st in runs:
        tg = totals.setdefault(game, [0, 0, 0, 0.0, 0, 0])
        tg[0] += g
        tg[1] += m
        tg[2] += k
        tg[3] += dt
        tg[4] += st[0]
        tg[5] += st[1]
        if k:
            print("MISMATCH in %s %s: %d" % (game, f, k))
    for game in ("chess", "draughts", "russian", "checkers", "brazilian"):
        g, m, k, dt, eg, em = totals[game]
        name = "international" if game == "draughts" else game
        print("replay_%s: %d games, %d moves, %d mismatches (noise, clock presses)" % (name, g, m, k))
        print("replay_%s_speed: %.1f games/s (%.0f moves/s)" % (name, g / dt, m / dt))
        if eg:
            print("replay_%s_ended_by_rules: %d games (%d source moves after the rules' end)" % (name, eg, em))
        if k or (game == "chess" and g < 2000) or (game != "chess" and g < 500):
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
