"""A round of 200 boards in one event process: move-to-feed latency and CPU time per board-move.

Every board is a virtual device (the wire frames a real board sends: square
changes, then the clock press as a CLK frame) playing a real game from
tests/data, followed by the event's own bridge per board (journal with
fsync, record rewritten) exactly as `flagfall event` follows serial devices.
The frames of all boards are delivered on one timeline in real time, at
about 2 moves a second per 10 boards (a fast round: 200 boards, ~40 moves a
second); the states go to the broadcast server of the same process, whose
relay feed `/feed/<t>/<R>.pgn` is polled by a relay every 0.2 s.

Figures:
  event_move_to_state: press frame -> the state with the move in the hub (median, p99)
  event_move_to_feed: press frame -> the move in the polled round feed (median, p99)
  event_cpu_per_board_move: process CPU time / moves (everything: devices' frames, bridges,
      journals, records, server, feed, relay)
Usage: python tools/bench_event.py [--boards 200] [--moves 20] [--rate 40]
"""
import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

from flagcore import wire  # noqa: E402
from flagfall.bridge import replay, virtualboard as vb  # noqa: E402
from flagfall.tournament import model  # noqa: E402
from flagfall.event.runner import Event  # noqa: E402

DATA = os.path.join(ROOT, "tests", "data", "chess", "hlotze-pgn2tex_Capablanca.pgn")


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100.0 * len(xs)))] if xs else float("nan")


def timeline(boards, moves, rate):
    """[(due_s, board, data, ply or None)]: every board's frames, a move every boards/rate seconds each."""
    games = [g for g in replay.load_games("chess", DATA, 400) if len(g.moves or ()) >= moves][:boards]
    while len(games) < boards:
        games += games[:boards - len(games)]
    out = []
    period = boards / float(rate)        # seconds between two moves of one board
    for b, src in enumerate(games, 1):
        dev = replay.VirtualDevice("chess", None, "5400+30", True)
        t0 = 0.5 + period * (b - 1) / boards      # boards staggered over one period
        out.append((0.0, b, dev.hello(), None))
        out.append((0.0, b, dev.snapshot(0), None))
        dev.clock.start(0, 0)
        out.append((0.0, b, dev.clock_frame(0), None))
        truth = dev.truth
        for ply, m in enumerate(src.moves[:moves]):
            due = t0 + ply * period
            steps = vb.events_for_move(truth, m)
            t = due - 0.05 * len(steps)
            for _dt, sq, down in steps:
                out.append((t, b, dev.square(int(t * 1000), sq, down), None))
                t += 0.05
            mover = truth.side()
            truth.push(m)
            dev.clock.press(mover, int(due * 1000))
            out.append((due, b, dev.clock_frame(int(due * 1000)), ply))
    out.sort(key=lambda x: x[0])
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--moves", type=int, default=20, help="moves per board")
    ap.add_argument("--rate", type=float, default=40.0, help="moves per second over the whole round")
    args = ap.parse_args(argv)
    from flagfall.broadcast import server
    from flagfall.broadcast.hub import Hub
    from flagfall.event import web

    players = [model.Player("Player %03d" % i, rating=2000 + i) for i in range(2 * args.boards)]
    rnd = model.Round("Bench Open", "Here", "2026.11.22", "5400+30", 1,
                      [model.Pairing(b, players[2 * b - 2], players[2 * b - 1]) for b in range(1, args.boards + 1)])
    tmp = tempfile.mkdtemp(prefix="bench_event_")
    print("event_timeline: building %d boards x %d moves" % (args.boards, args.moves), flush=True)
    frames = timeline(args.boards, args.moves, args.rate)
    press_at = {}          # (board, ply) -> perf_counter when the press frame was handed over
    in_hub = {}            # (board, ply) -> when the state with it reached the hub
    in_feed = {}           # (board, ply) -> when the relay first saw it

    loop = asyncio.new_event_loop()
    hub = Hub(loop)
    real_ingest = hub.ingest

    def ingest(state):
        now = time.perf_counter()
        b = int(state["board"])
        for ply in range(len(state["moves"])):
            in_hub.setdefault((b, ply), now)
        return real_ingest(state)
    hub.ingest = ingest
    feed = web.DelayedFeed(hub, loop, 0.0)
    event = Event(rnd, tournament="bench", out_dir=tmp, tc="5400+30", penalties="auto", publish=feed)
    for b in event.boards.values():
        b.open_engine()
    links = {n: wire.Link(wire.DEVICE_KINDS) for n in event.boards}
    app = server.make_app(hub, "bench-token")
    ready = threading.Event()
    box = {}

    async def serve():
        runner = await server.start(app, "127.0.0.1", 0)
        box["url"] = "http://127.0.0.1:%d/feed/bench/1.pgn" % server.bound_port(runner)
        box["runner"] = runner
        ready.set()
        import aiohttp
        async with aiohttp.ClientSession() as s:
            etag = None
            while not box.get("stop"):
                headers = {"If-None-Match": etag} if etag else {}
                async with s.get(box["url"], headers=headers) as r:
                    if r.status == 200:
                        etag = r.headers.get("ETag")
                        text = await r.text()
                        now = time.perf_counter()
                        for part in text.split("[Event ")[1:]:
                            board = int(part.split('[Board "', 1)[1].split('"', 1)[0])
                            n = part.count("{[%clk")
                            for ply in range(n):
                                in_feed.setdefault((board, ply), now)
                await asyncio.sleep(0.2)
        await runner.cleanup()

    th = threading.Thread(target=lambda: loop.run_until_complete(serve()), daemon=True)
    th.start()
    ready.wait(10)
    cpu0 = time.process_time()
    start = time.perf_counter()
    moves = 0
    for due, b, data, ply in frames:
        wait = start + due - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        board = event.boards[b]
        t = int((time.perf_counter() - start) * 1000) + 1000
        if ply is not None:
            press_at[(b, ply)] = time.perf_counter()
            moves += 1
        for seq, kind, values in links[b].feed(data):
            board.engine.frame(t, kind, values, data.decode().rstrip("\n"))
        board.engine.tick(t)
    end = time.perf_counter() + 5
    while len(in_feed) < len(press_at) and time.perf_counter() < end:
        time.sleep(0.1)
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - start
    box["stop"] = True
    th.join(5)
    event.stop()
    shutil.rmtree(tmp, ignore_errors=True)
    to_state = [(in_hub[k] - t) * 1000 for k, t in press_at.items() if k in in_hub]
    to_feed = [(in_feed[k] - t) * 1000 for k, t in press_at.items() if k in in_feed]
    missing = len(press_at) - len(to_feed)
    print("event_boards: %d boards, %d moves in %.1f s (%.1f moves/s)" % (args.boards, moves, wall, moves / wall))
    print("event_move_to_state_median: %.1f ms" % pct(to_state, 50))
    print("event_move_to_state_p99: %.1f ms" % pct(to_state, 99))
    print("event_move_to_feed_median: %.0f ms (relay polling every 0.2 s)" % pct(to_feed, 50))
    print("event_move_to_feed_p99: %.0f ms" % pct(to_feed, 99))
    print("event_cpu_per_board_move: %.2f ms (process CPU %.1f s over %d moves)" % (cpu * 1000 / max(moves, 1), cpu, moves))
    print("event_moves_missing_from_feed: %d" % missing)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
