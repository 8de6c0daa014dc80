"""Draughts benchmark and proofs (run by `make bench`, or: python tools/bench_draughts.py [--games N] [--quick]).

1. Perft from the start positions to the published depths (international 7,
   the 8x8 variants 8); exits non-zero on a wrong count.
2. Perft speed against pydraughts on the same positions and depths (start
   positions and king-heavy positions): nodes (leaves) per second and the
   ratio; the target is 100x on every variant. Both count the leaves of the
   last ply without playing them, and both count one capture taken by two
   routes once (pydraughts' duplicates are merged), so the trees are the same.
3. Differential test: N random games per variant (default 1,000) comparing
   the legal-move sets with pydraughts at every ply; prints the numbers
   compared and the mismatches, exits non-zero on a mismatch.
4. Worst case: the slowest legal-move generation among dense king-capture
   positions, CPython and MicroPython, in milliseconds.
5. MicroPython heap: import plus replay of a 60-move international game with
   legality checks (tests/mp/heap.mjs); must stay under 40 KB.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host"), os.path.join(ROOT, "tests", "host")]

from flagcore.draughts import Game, Rules  # noqa: E402

PUBLISHED = {  # shared/perft-reference.md
    "international": (7, 1049442),
    "checkers": (8, 845931),
    "russian": (8, 929899),
    "brazilian": (8, 907830),
}
SPEED = [  # (variant, fen or None, depth) measured with both engines
    ("international", None, 4),
    ("checkers", None, 5),
    ("russian", None, 5),
    ("brazilian", None, 5),
    ("international", "W:WK5,K38,K46,K48,K49:B9,10,13,17,18,27,28,31,33,39,40,41,42", 1),
    ("russian", "W:WK1,K3,K4,K14,K29,K30:B7,8,9,10,16,17,18,23,24,25", 2),
    ("brazilian", "W:WK1,K5,K13,K28,K31,K32:B2,10,11,14,16,17,20,21,24,25,26,27", 2),
    ("checkers", "W:WK5,K9,K12,K17,K20,K29:B6,7,8,14,15,16,22,23,24", 2),
]
DENSE = [  # dense king-capture positions for the worst case (the first has 139 maximum captures)
    ("international", "W:WK5,K38,K46,K48,K49:B9,10,13,17,18,27,28,31,33,39,40,41,42"),
    ("international", "W:WK8,K21,K22:B1,10,14,18,19,24,28,38,39,43,45"),
    ("international", "W:WK7,K42,K48,K49:B9,12,13,18,19,22,24,27,30,31,40,41,44"),
    ("russian", "W:WK1,K3,K4,K14,K29,K30:B7,8,9,10,16,17,18,23,24,25"),
    ("brazilian", "W:WK1,K5,K13,K28,K31,K32:B2,10,11,14,16,17,20,21,24,25,26,27"),
    ("checkers", "W:WK5,K9,K12,K17,K20,K29:B6,7,8,14,15,16,22,23,24"),
]
HEAP_LIMIT = 40 * 1024


def _ours(variant, fen, depth):
    g = Game(variant, fen)
    r = g.rules
    reps = 0
    t0 = time.perf_counter()
    while True:
        n = r.perft(g.board, g.side, depth)
        reps += 1
        dt = time.perf_counter() - t0
        if dt > 0.5:
            return n, n * reps / dt


def _theirs(variant, fen, depth):
    import draughts_oracle as oracle
    board = oracle.pyd_board(variant, fen)
    t0 = time.perf_counter()
    n = oracle.pyd_perft(board, depth, oracle.square_map(variant))
    return n, n / (time.perf_counter() - t0)


def bench_published():
    ok = True
    for v, (depth, want) in PUBLISHED.items():
        r = Rules(v)
        t0 = time.perf_counter()
        n = r.perft(r.start(), r.first, depth)
        dt = time.perf_counter() - t0
        good = n == want
        ok = ok and good
        print("perft_%s_depth%d: %d nodes (published %d, %s) in %.1f s = %.0f nodes/s"
              % (v, depth, n, want, "ok" if good else "MISMATCH", dt, n / dt), flush=True)
    return ok


def bench_speed():
    ok = True
    worst = {}
    for v, fen, depth in SPEED:
        n1, ours = _ours(v, fen, depth)
        n2, theirs = _theirs(v, fen, depth)
        ratio = ours / theirs
        where = "start" if fen is None else "kings"
        print("perft_speed_%s_%s_d%d: flagfall %.0f nodes/s, pydraughts %.0f nodes/s, ratio %.0fx (%d nodes%s)"
              % (v, where, depth, ours, theirs, ratio, n1, "" if n1 == n2 else ", COUNTS DIFFER %d" % n2),
              flush=True)
        ok = ok and n1 == n2
        worst[v] = min(worst.get(v, ratio), ratio)
    for v in sorted(worst):
        print("perft_speed_ratio_min_%s: %.0f x (target 100)" % (v, worst[v]))
        ok = ok and worst[v] >= 100
    return ok


def bench_differential(games):
    import draughts_oracle as oracle
    ok = True
    for v in ("international", "brazilian", "russian", "checkers"):
        stats = {}
        t0 = time.perf_counter()
        mism = oracle.random_games(v, games, seed=4, stats=stats)
        print("pydraughts_diff_%s: %d games, %d plies, %d legal moves compared, %d captures played, "
              "%d pydraughts duplicate routes merged (FMJD 4.8/4.13), %d mismatches, %.0f s"
              % (v, stats["games"], stats["plies"], stats["moves"], stats["captures"], stats["pyd_duplicates"],
                 len(mism), time.perf_counter() - t0), flush=True)
        for m in mism[:5]:
            print("  mismatch: " + m)
        ok = ok and not mism
    return ok


def bench_worst_case():
    worst = 0.0
    for v, fen in DENSE:
        r = Rules(v)
        b, side = r.parse_fen(fen)
        reps = 200
        t0 = time.perf_counter()
        for _ in range(reps):
            n = len(r.moves(b, side))
        ms = (time.perf_counter() - t0) * 1000 / reps
        worst = max(worst, ms)
        print("movegen_cpython_%s_%dmoves: %.3f ms" % (v, n, ms))
    print("movegen_worst_cpython: %.3f ms" % worst)
    args = ["node", os.path.join(ROOT, "tests", "mp", "run.mjs"), "--script",
            os.path.join(ROOT, "tools", "mpbench_draughts.py")] + ["%s|%s" % (v, f) for v, f in DENSE]
    r = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, timeout=600)
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
    return r.returncode == 0


def _sixty_move_game():
    # the first human game of 60 moves or more in the test data, cut at 60 moves
    from flagfall.games import draughts as pdn
    folder = os.path.join(ROOT, "tests", "data", "international")
    for name in sorted(os.listdir(folder)):
        if not name.startswith("wiegerw-"):
            continue
        for g in pdn.read_file(os.path.join(folder, name)):
            if len(g.moves) >= 120:
                end, played = g.replay()
                replay = Game("international")
                texts = []
                for m in played[:120]:
                    texts.append(replay.move_text(m))
                    replay.push(m)
                return name, g.name(), texts
    raise SystemExit("no 60-move game in tests/data/international")


def bench_heap():
    name, game, texts = _sixty_move_game()
    print("mp_heap_game: %s, %s, %d plies" % (name, game, len(texts)))
    import mpheap
    steps = ["from flagcore.draughts import Game\nimport_peak = gc.mem_alloc() - base",
             "imported = gc.mem_alloc() - base\ng = Game('international')\nplies = 0"]
    steps += ["g.push(g.parse(%r))\ng.outcome()\nplies += 1" % m for m in texts]
    r = mpheap.measure(steps, "print('mp_import_peak_heap: %d bytes' % import_peak)\n"
                              "print('mp_import_retained_heap: %d bytes' % imported)\n"
                              "print('mp_replay_plies: %d' % plies)\n"
                              "print('mp_replay_peak_heap: %d bytes' % peak)\n"
                              "print('mp_replay_retained_heap: %d bytes' % retained)")
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
        return False
    print("mp_heap_method: base gc.mem_alloc() before the import; each step (import, each ply: parse with "
          "legality check, push, outcome) is its own top-level MicroPython call after gc.collect(); "
          "no collection inside a step, so the peak is retained state + all bytes the step allocated "
          "(an upper bound)")
    peak = [int(line.split()[1]) for line in r.stdout.splitlines() if line.startswith("mp_replay_peak_heap:")]
    ok = bool(peak) and peak[0] < HEAP_LIMIT
    print("mp_heap_limit: %d bytes (%s)" % (HEAP_LIMIT, "ok" if ok else "EXCEEDED"))
    return ok


def main(argv):
    games = 1000
    if "--games" in argv:
        games = int(argv[argv.index("--games") + 1])
    quick = "--quick" in argv
    results = {}
    if not quick:
        results["published perft"] = bench_published()
    results["speed"] = bench_speed()
    results["worst case"] = bench_worst_case()
    results["heap"] = bench_heap()
    results["differential"] = bench_differential(games if not quick else 20)
    failed = [k for k, v in results.items() if not v]
    print("draughts_bench: %s" % ("ok" if not failed else "FAILED " + ", ".join(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
