# Chess benchmark body for MicroPython (run by tools/bench_chess.py through
# node tests/mp/run.mjs --script); also runs on CPython. Prints 'name: value unit'.
import sys

if "/lib" not in sys.path:
    sys.path.insert(0, "/lib")
from flagcore.ticks import ticks_diff as us_diff, ticks_us  # noqa: E402  (the core's one ticks shim)
from flagcore import chess  # noqa: E402

RUNTIME = "micropython" if sys.implementation.name == "micropython" else "cpython"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

nodes = 0
us = 0
for fen, depth, want in ((chess.START_FEN, 3, 8902), (KIWIPETE, 2, 2039)):
    b = chess.Board(fen)
    t = ticks_us()
    n = b.perft(depth)
    us += us_diff(ticks_us(), t)
    if n != want:
        print("perft mismatch: %s depth %d gave %d, want %d" % (fen, depth, n, want))
        sys.exit(1)
    nodes += n
print("%s_perft_nodes: %d nodes" % (RUNTIME, nodes))
print("%s_perft_nps: %d nodes/s" % (RUNTIME, nodes * 1000000 // max(us, 1)))


def pushpop(b, depth):
    if depth == 0:
        return 1
    n = 0
    for m in b.legal_moves():
        b.push(m)
        n += pushpop(b, depth - 1)
        b.pop()
    return n


# the same trees through push/pop (repetition hash kept at every node)
nodes = 0
us = 0
for fen, depth, want in ((chess.START_FEN, 3, 8902), (KIWIPETE, 2, 2039)):
    b = chess.Board(fen)
    t = ticks_us()
    n = pushpop(b, depth)
    us += us_diff(ticks_us(), t)
    if n != want:
        print("push/pop perft mismatch: %s depth %d gave %d, want %d" % (fen, depth, n, want))
        sys.exit(1)
    nodes += n
print("%s_pushpop_nps: %d nodes/s" % (RUNTIME, nodes * 1000000 // max(us, 1)))

# one full legality check of a move from the start position: generate the
# legal moves and find the move in them (parse_move reads UCI, then checks)
b = chess.Board()
N = 200
t = ticks_us()
for _ in range(N):
    b.parse_move("g1f3")
print("%s_legality_check_start: %d us/check" % (RUNTIME, us_diff(ticks_us(), t) // N))
t = ticks_us()
for _ in range(N):
    b.parse_san("Nf3")
print("%s_san_legality_check_start: %d us/check" % (RUNTIME, us_diff(ticks_us(), t) // N))
