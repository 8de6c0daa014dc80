"""Chess engine benchmark: speed against python-chess, the deep perft proofs, MicroPython speed and heap.

Prints 'name: value unit' lines; exits non-zero if a perft count is wrong,
Board.push/pop is slower than python-chess's push/pop, or a MicroPython peak
heap (a standard game, a Chess960 game) reaches 40 KB. Both engines play and
take back every leaf move (no bulk counting at the last ply), measured side by
side in this one process: our make/unmake (search) and push/pop (the path
that keeps repetition history, used by replay and the bridge) against
python-chess's push/pop. python-chess (GPL-3.0) is imported here only as the
yardstick.
"""
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "host")]

import chess as oracle  # noqa: E402

from flagcore import chess  # noqa: E402
from flagcore import chess960  # noqa: E402

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
SIDE_BY_SIDE = [
    ("start", chess.START_FEN, 4),
    ("kiwipete", KIWIPETE, 3),
    ("position3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("position4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
    ("position5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3),
    ("position6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 3),
]
DEEP = [("start", chess.START_FEN, 5, 4865609), ("kiwipete", KIWIPETE, 4, 4085603)]
HEAP_LIMIT = 40 * 1024



CHESS_HEAP_REPORT = ("print('mp_import_peak_heap: %d bytes' % import_peak)\n"
                     "print('mp_import_retained_heap: %d bytes' % imported)\n"
                     "print('mp_replay_plies: %d' % plies)\n"
                     "print('mp_replay_peak_heap: %d bytes' % peak)\n"
                     "print('mp_replay_retained_heap: %d bytes' % retained)\n"
                     "print('mp_replay_final_fen: %s' % b.fen())")


def pushpop_perft(board, depth):
    """Our perft through Board.push/pop (repetition history kept at every node)."""
    if depth == 0:
        return 1
    n = 0
    push = board.push
    pop = board.pop
    for m in board.legal_moves():
        push(m)
        n += pushpop_perft(board, depth - 1)
        pop()
    return n


def oracle_perft(board, depth):
    """python-chess perft with push/pop of every move, leaves included."""
    if depth == 0:
        return 1
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += oracle_perft(board, depth - 1)
        board.pop()
    return n


def timed(fn, *args):
    t = time.perf_counter()
    n = fn(*args)
    return n, time.perf_counter() - t


def random_960_game(plies=200):
    """UCI moves of a seeded random Chess960 game of `plies` plies that castles whenever it can (half the time)."""
    import random
    rng = random.Random(960)
    while True:
        n = rng.randrange(960)
        b = chess960.board(n)
        moves = []
        while len(moves) < plies:
            legal = b.legal_moves()
            if not legal or b.halfmove >= 100:
                break
            cs = [m for m in legal if b.is_castling(m)]
            m = rng.choice(cs) if cs and rng.random() < 0.5 else rng.choice(legal)
            moves.append(b.san(m, legal))
            b.push(m)
        if len(moves) == plies:
            return n, moves


def long_game():
    """SAN moves of a real game of at least 200 plies from the test data (cut to 200)."""
    from flagfall.games import chess as pgn
    path = os.path.join(ROOT, "tests", "data", "chess", "hlotze-pgn2tex_Capablanca.pgn")
    for g in pgn.read_file(path):
        if len(g.sans) >= 200:
            return g.name(), g.sans[:200]
    raise SystemExit("no 200-ply game in %s" % path)


def main():
    failed = False
    ours_n = ours_t = theirs_n = theirs_t = 0
    for name, fen, depth in SIDE_BY_SIDE:
        n1, t1 = timed(chess.Board(fen).perft, depth)
        n2, t2 = timed(oracle_perft, oracle.Board(fen), depth)
        if n1 != n2:
            print("perft mismatch on %s depth %d: ours %d, python-chess %d" % (name, depth, n1, n2))
            failed = True
        print("cpython_perft_%s_d%d: %d nodes, ours %d nodes/s, python-chess %d nodes/s"
              % (name, depth, n1, n1 / t1, n2 / t2))
        ours_n += n1
        ours_t += t1
        theirs_n += n2
        theirs_t += t2
    print("cpython_perft_nps_flagfall: %d nodes/s" % (ours_n / ours_t))
    print("cpython_perft_nps_python_chess: %d nodes/s" % (theirs_n / theirs_t))
    print("cpython_perft_speed_ratio: %.2f x python-chess" % ((ours_n / ours_t) / (theirs_n / theirs_t)))
    # push/pop: the same trees through Board.push/pop, python-chess timed again right after each
    # (the machine's load changes; interleaving keeps the comparison fair)
    pp_n = pp_t = th_n = th_t = 0
    for name, fen, depth in SIDE_BY_SIDE:
        n1, t1 = timed(pushpop_perft, chess.Board(fen), depth)
        n2, t2 = timed(oracle_perft, oracle.Board(fen), depth)
        if n1 != n2:
            print("push/pop perft mismatch on %s depth %d: ours %d, python-chess %d" % (name, depth, n1, n2))
            failed = True
        print("cpython_pushpop_%s_d%d: %d nodes, ours %d nodes/s, python-chess %d nodes/s"
              % (name, depth, n1, n1 / t1, n2 / t2))
        pp_n += n1
        pp_t += t1
        th_n += n2
        th_t += t2
    ratio = (pp_n / pp_t) / (th_n / th_t)
    print("cpython_pushpop_nps_flagfall: %d nodes/s" % (pp_n / pp_t))
    print("cpython_pushpop_nps_python_chess: %d nodes/s" % (th_n / th_t))
    print("cpython_pushpop_speed_ratio: %.2f x python-chess (%s: at least 1.00)"
          % (ratio, "ok" if ratio >= 1 else "TOO SLOW"))
    failed |= ratio < 1
    n1, t1 = timed(chess960.board(0).perft, 3)
    n2, t2 = timed(oracle_perft, oracle.Board(chess960.fen(0), chess960=True), 3)
    failed |= n1 != n2
    print("cpython_perft_chess960_pos0_d3: %d nodes (python-chess %d, %s), ours %d nodes/s, python-chess %d nodes/s"
          % (n1, n2, "match" if n1 == n2 else "MISMATCH", n1 / t1, n2 / t2))
    for name, fen, depth, want in DEEP:
        n, t = timed(chess.Board(fen).perft, depth)
        ok = n == want
        failed |= not ok
        print("cpython_perft_%s_d%d: %d nodes (published %d, %s) in %.1f s, %d nodes/s"
              % (name, depth, n, want, "match" if ok else "MISMATCH", t, n / t))
    sys.stdout.flush()

    node = os.environ.get("NODE", "node")
    r = subprocess.run([node, os.path.join(ROOT, "tests", "mp", "run.mjs"), "--script",
                        os.path.join(ROOT, "tools", "mpbench_chess.py")], cwd=ROOT,
                       capture_output=True, text=True)
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
        failed = True

    game, sans = long_game()
    import mpheap
    steps = ["from flagcore import chess\nimport_peak = gc.mem_alloc() - base",
             "imported = gc.mem_alloc() - base\nb = chess.Board()\nplies = 0\nply_peak = 0"]
    steps += ["b.push(b.parse_san(%r))\nb.status()\nplies += 1\nply_peak = max(ply_peak, gc.mem_alloc() - base)"
              % s for s in sans]
    r = mpheap.measure(steps, CHESS_HEAP_REPORT + "\nprint('mp_replay_ply_peak_heap: %d bytes' % ply_peak)")
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
        failed = True
    print("mp_replay_game: %s" % game)
    print("mp_heap_method: gc.collect() then gc.mem_alloc() before the import = base; each step "
          "(import, board, each ply: parse_san legality check + push + status) is one runPython call "
          "starting with gc.collect(); peak = max over steps of mem_alloc() - base (retained state plus "
          "all the step allocated: an upper bound); ply_peak = the same over the ply steps only (the import, "
          "which compiles the module from source, excluded; on the device the module is precompiled .mpy)")
    failed |= _heap_limit(r.stdout, "mp_replay_peak_heap:")

    # a Chess960 game: flagcore.chess960 is imported too (castling field, castling moves), as its
    # own top-level import (the WebAssembly port collects the first import's garbage in between)
    n, sans = random_960_game()
    steps = ["from flagcore import chess\nimport_peak = gc.mem_alloc() - base",
             "from flagcore import chess960\nimport_peak = max(import_peak, gc.mem_alloc() - base)",
             "imported = gc.mem_alloc() - base\nb = chess960.board(%d)\nplies = 0\nply_peak = 0" % n]
    steps += ["b.push(b.parse_san(%r))\nb.status()\nplies += 1\nply_peak = max(ply_peak, gc.mem_alloc() - base)"
              % s for s in sans]
    r = mpheap.measure(steps, CHESS_HEAP_REPORT.replace("mp_", "mp960_")
                       + "\nprint('mp960_replay_ply_peak_heap: %d bytes' % ply_peak)")
    sys.stdout.write(r.stdout)
    if r.returncode:
        sys.stdout.write(r.stderr)
        failed = True
    print("mp960_replay_game: Chess960 position %d, %d plies of seeded random play that castles half the "
          "time it can (tools/bench_chess.py random_960_game)" % (n, len(sans)))
    failed |= _heap_limit(r.stdout, "mp960_replay_peak_heap:")
    return 1 if failed else 0


def _heap_limit(out, key):
    for line in out.splitlines():
        if line.startswith(key):
            peak = int(line.split()[1])
            print("%s: %d bytes (%s)" % (key[:-len("_replay_peak_heap:")] + "_heap_limit", HEAP_LIMIT,
                                          "ok" if peak < HEAP_LIMIT else "EXCEEDED"))
            return peak >= HEAP_LIMIT
    print("%s missing from the MicroPython output" % key)
    return True


if __name__ == "__main__":
    sys.exit(main())
