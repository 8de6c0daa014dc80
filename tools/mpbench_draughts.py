# Run inside MicroPython by tools/bench_draughts.py (node tests/mp/run.mjs --script):
# legal-move generation time on each "variant|fen" in ARGS, in milliseconds.
from flagcore.draughts import Rules
from flagcore.ticks import ticks_diff, ticks_us

worst = 0
for item in ARGS:
    v, fen = item.split("|")
    r = Rules(v)
    b, side = r.parse_fen(fen)
    reps = 20
    t = ticks_us()
    for _ in range(reps):
        n = len(r.moves(b, side))
    ms = ticks_diff(ticks_us(), t) / 1000 / reps
    print("movegen_micropython_%s_%dmoves: %.3f ms" % (v, n, ms))
    worst = max(worst, ms)
print("movegen_worst_micropython: %.3f ms" % worst)
