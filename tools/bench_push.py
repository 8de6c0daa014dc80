"""Pushing a round to Lichess: move-to-push latency and pushes per minute for a 64-board round.

The uploader (flagfall.broadcast.lichess_push) follows a broadcast hub in this
process, exactly as `flagfall event --lichess-round` does; 64 boards replay
real games (host/flagfall/demo_games) as live states, a move every
`--interval` seconds per board on average, for `--duration` seconds. The
pushes go to the local stand-in of Lichess's push endpoint
(tests/host/lichess_standin.py, on 127.0.0.1, moves not replayed so that the
uploader is measured, not the stand-in).

Figures:
  push_move_to_push: a move's state accepted by the hub -> the stand-in has received a push holding
      it (median, p99); the window (at most one push per window) is most of it
  push_pushes_per_minute: pushes the stand-in accepted per minute (the window's bound: 60 / window)
  push_bytes_per_push: the size of one push (the whole round's PGN)
  push_moves_missing: moves never pushed (must be 0)
Goal: p99 <= 2 s with the default window.
Usage: python tools/bench_push.py [--boards 64] [--duration 30] [--interval 10] [--window 1.5]
"""
import argparse
import asyncio
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "host")]

from flagfall.broadcast import lichess_push, synthetic  # noqa: E402
from flagfall.broadcast.hub import Hub  # noqa: E402
from flagfall.games import chess as pgn  # noqa: E402
from lichess_standin import TOKEN, StandIn  # noqa: E402

ROUND_ID = "Bench064"


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(len(v) * p / 100))] * 1000 if v else float("nan")


async def run(args, standin):
    hub = Hub(asyncio.get_running_loop())
    games = list(pgn.read_file(os.path.join(ROOT, "host", "flagfall", "demo_games", "chess.pgn")))
    fen, grid = synthetic.chess_start()
    boards = []
    for b in range(1, args.boards + 1):
        g = games[b % len(games)]
        tags = {k: v for k, v in g.tags.items() if k in ("Event", "Site", "Date", "White", "Black")}
        tags["GameId"] = "bench-r1-b%d" % b
        sm = synthetic.StateMaker("bench", "1", str(b), "chess", tags, "5400+30", fen, grid)
        boards.append((b, sm, synthetic.chess_plies(g.sans)))
        hub.ingest(sm.state())
    pusher = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), TOKEN, "bench", "1",
                                 window_s=args.window)
    pusher.attach(hub)
    await pusher.start()
    rng = random.Random(1)
    made = []           # (board index, moves after it, time accepted)
    end = time.monotonic() + args.duration
    next_at = {b: time.monotonic() + rng.expovariate(1 / args.interval) for b, _, _ in boards}
    while time.monotonic() < end:
        now = time.monotonic()
        for i, (b, sm, plies) in enumerate(boards):
            if next_at[b] <= now and len(sm.moves) < len(plies):
                hub.ingest(sm.move(*plies[len(sm.moves)]))
                made.append((i, len(sm.moves), time.monotonic()))
                next_at[b] = now + rng.expovariate(1 / args.interval)
        await asyncio.sleep(0.01)
    await asyncio.sleep(args.window + 2)        # the last moves' push
    await pusher.close()
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=64)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--interval", type=float, default=10.0, help="average seconds between a board's moves")
    ap.add_argument("--window", type=float, default=lichess_push.DEFAULT_WINDOW_S,
                    help="the uploader's window (--lichess-window; default: its default, %g s)"
                         % lichess_push.DEFAULT_WINDOW_S)
    args = ap.parse_args(argv)
    standin = StandIn([ROUND_ID], replay=False)
    try:
        made = asyncio.run(run(args, standin))
    finally:
        standin.close()
    pushes = standin.accepted(ROUND_ID)
    latencies, missing = [], 0
    for i, n, t in made:
        got = next((p["t"] for p in pushes if p["t"] >= t and len(p["moves"]) > i and p["moves"][i] >= n), None)
        if got is None:
            missing += 1
        else:
            latencies.append(got - t)
    span = (pushes[-1]["t"] - pushes[0]["t"]) if len(pushes) > 1 else 0.0
    per_min = (len(pushes) - 1) * 60 / span if span else float("nan")
    print("push_round: %d boards, %d moves in %.0f s, window %g s" % (args.boards, len(made), args.duration, args.window))
    print("push_move_to_push_median: %.0f ms" % pct(latencies, 50))
    print("push_move_to_push_p99: %.0f ms" % pct(latencies, 99))
    print("push_pushes_per_minute: %.1f (at most %.0f by the window)" % (per_min, 60 / args.window))
    print("push_bytes_per_push: %.0f (%d games)" % (sum(p["bytes"] for p in pushes) / max(len(pushes), 1),
                                                    max((p["games"] for p in pushes), default=0)))
    print("push_moves_missing: %d" % missing)
    return 1 if missing or not pushes else 0


if __name__ == "__main__":
    sys.exit(main())
