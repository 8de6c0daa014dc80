"""Broadcast load test on loopback: 200 boards, 1,000 concurrent viewers, bounded in time.

Three processes. The *server* process runs the broadcast server (aiohttp) and
the simulated boards: each replays a real game (host/flagfall/demo_games)
through the state contract with a real clock engine, a move every few
seconds (random think times), states going into the hub in-process as the
bridge's do. Two *viewer* processes open 1,000 Server-Sent-Events streams on
127.0.0.1 between them and apply every message as the page does (full states
and deltas). At the end each viewer's final state of every board is compared
with the server's: a single missing or different move fails the run.

Latency is event-to-viewer: from the state's `ts` (made on the board) to the
moment a viewer has parsed it, both read from the same host clock. Printed
as `name: value unit` lines; exit status 1 if a move is missing or a viewer
lost its stream.

    python tools/bench_broadcast.py [--boards 200] [--viewers 1000] [--duration 30] [--interval 10] [--procs 2]

Server and viewers share the host's CPUs, so the figures are for everything on
one machine; the load average printed at the end says how busy it was.
"""
import argparse
import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

WATCHDOG_S = 240


# -- server process ----------------------------------------------------------

def load_games():
    from flagfall.broadcast import synthetic
    from flagfall.games import chess as pgn
    games = []
    for g in pgn.read_file(os.path.join(ROOT, "host", "flagfall", "demo_games", "chess.pgn")):
        tags = {k: v for k, v in g.tags.items() if k in ("Event", "Site", "Date", "White", "Black", "WhiteElo", "BlackElo")}
        games.append((tags, synthetic.chess_plies(g.sans)))
    return games


async def server_main(args):
    from flagfall.broadcast import server, synthetic
    from flagfall.broadcast.hub import Hub
    hub = Hub(asyncio.get_running_loop())
    app = server.make_app(hub, token="bench")
    runner = await server.start(app, "127.0.0.1", 0)
    games = load_games()
    fen, grid = synthetic.chess_start()
    rng = random.Random(args.seed)
    boards = []
    for b in range(args.boards):
        tags, plies = games[b % len(games)]
        sm = synthetic.StateMaker("bench", str(1 + b // 100), str(1 + b % 100), "chess", tags, "5400+30", fen, grid)
        hub.ingest(sm.state())
        boards.append((sm, plies))
    print("port %d" % server.bound_port(runner), flush=True)
    loop = asyncio.get_running_loop()
    line = await loop.run_in_executor(None, sys.stdin.readline)
    if line.strip() != "go":
        return
    t_end = time.monotonic() + args.duration
    published = [0]

    async def board(sm, plies, i):
        # start staggered, then think times uniform around the mean interval
        await asyncio.sleep(rng.uniform(0, args.interval))
        k = 0
        while time.monotonic() < t_end and k < len(plies):
            hub.ingest(sm.move(*plies[k]), validate=False)
            published[0] += 1
            k += 1
            await asyncio.sleep(min(rng.uniform(0.2, 1.8) * args.interval, max(0.0, t_end - time.monotonic())))
        if k == len(plies):
            hub.ingest(sm.finish("1/2-1/2"), validate=False)
            published[0] += 1

    t0 = time.monotonic()
    await asyncio.gather(*(board(sm, plies, i) for i, (sm, plies) in enumerate(boards)))
    print("done %d %.1f" % (published[0], time.monotonic() - t0), flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)   # wait until the viewers have checked
    await runner.cleanup()


# -- viewer process ----------------------------------------------------------

class Viewer:
    __slots__ = ("boards", "lat", "msgs", "errors", "hello", "last_at")

    def __init__(self):
        self.boards = {}
        self.lat = []
        self.msgs = 0
        self.errors = 0
        self.hello = False
        self.last_at = 0.0

    def apply(self, msg, now_ms):
        k = msg["k"]
        if msg.get("full"):
            self.boards[k] = msg
        else:
            cur = self.boards.get(k)
            if cur is None:
                self.errors += 1
                return
            f = msg["from"]
            del cur["moves"][f:]
            del cur["clocks"][f:]
            cur["moves"].extend(msg["moves"])
            cur["clocks"].extend(msg["clocks"])
            for x, y in msg.items():
                if x not in ("moves", "clocks", "from"):
                    cur[x] = y
        self.msgs += 1
        self.lat.append(now_ms - msg["ts"])
        self.last_at = now_ms


class SSEClient(asyncio.Protocol):
    """One viewer's connection: GET /api/stream, then chunked transfer decoding and SSE parsing.

    A bare asyncio protocol rather than aiohttp's client: 1,000 of these in one
    process must cost little per message, or the load generator, not the
    server, sets the latency.
    """

    def __init__(self, viewer, path):
        self.v = viewer
        self.path = path
        self.buf = b""
        self.head = True
        self.chunk_left = -1     # bytes of chunk data still expected (-1: reading a size line)
        self.sse = b""
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport):
        self.transport = transport
        transport.write(("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"
                         % self.path).encode())

    def connection_lost(self, exc):
        if not self.closed.done():
            self.closed.set_result(exc)

    def data_received(self, data):
        now = time.time() * 1000
        buf = self.buf + data
        if self.head:
            i = buf.find(b"\r\n\r\n")
            if i < 0:
                self.buf = buf
                return
            head = buf[:i].lower()
            if not head.startswith(b"http/1.1 200") or b"transfer-encoding: chunked" not in head:
                self.v.errors += 1
                self.transport.close()
                return
            buf = buf[i + 4:]
            self.head = False
        out = []
        while True:
            if self.chunk_left < 0:
                i = buf.find(b"\r\n")
                if i < 0:
                    break
                self.chunk_left = int(buf[:i], 16)
                buf = buf[i + 2:]
            if len(buf) < self.chunk_left + 2:
                break
            out.append(buf[:self.chunk_left])
            buf = buf[self.chunk_left + 2:]
            self.chunk_left = -1
        self.buf = buf
        if not out:
            return
        sse = self.sse + b"".join(out)
        blocks = sse.split(b"\n\n")
        self.sse = blocks.pop()
        for block in blocks:
            if block.startswith(b"event: s\ndata: "):
                self.v.apply(json.loads(block[15:]), now)
            elif block.startswith(b"retry:") or block.startswith(b"event: hello"):
                self.v.hello = True


async def worker_main(args):
    """A group of viewers in one process: connect, say 'ready', play, then check and report JSON."""
    loop = asyncio.get_running_loop()
    # The viewers hold 200 boards each, a few hundred thousand containers: Python's
    # cyclic collector would stop this process for seconds to walk them, and that
    # pause would be measured as broadcast latency. They make no cycles: no collector.
    gc.disable()
    port = args.port
    views = [Viewer() for _ in range(args.viewers)]
    clients = []
    for i, v in enumerate(views):
        _, proto = await loop.create_connection(lambda v=v: SSEClient(v, "/api/stream"), "127.0.0.1", port)
        clients.append(proto)
        if i % 50 == 49:
            await asyncio.sleep(0.01)
    t0 = time.monotonic()
    # connected, and every viewer holds every board's first state
    while sum(1 for v in views if len(v.boards) == args.boards) < args.viewers:
        if time.monotonic() - t0 > 120:
            print(json.dumps({"error": "only %d viewers had every board after 120 s"
                              % sum(1 for v in views if len(v.boards) == args.boards)}), flush=True)
            return 1
        await asyncio.sleep(0.1)
    for v in views:          # the initial full states are not events: measure from here
        v.lat.clear()
        v.msgs = 0
    print("ready", flush=True)
    line = await loop.run_in_executor(None, sys.stdin.readline)   # the final states, as JSON
    final = {"%s/%s/%s" % (b["tournament"], b["round"], b["board"]): b for b in json.loads(line)}
    t_wait = time.monotonic()
    while time.monotonic() - t_wait < 30:      # let every viewer catch up with the final states (bounded)
        behind = sum(1 for v in views for k, b in final.items()
                     if k not in v.boards or v.boards[k]["seq"] != b["seq"])
        if not behind:
            break
        await asyncio.sleep(0.1)
    lost = sum(1 for c in clients if c.closed.done())
    for c in clients:
        c.transport.close()
    missing = wrong_viewers = 0
    for v in views:
        bad = False
        for k, b in final.items():
            got = v.boards.get(k)
            if got is None:
                missing += len(b["moves"]) or 1
                bad = True
                continue
            if got["moves"] != b["moves"] or got["clocks"] != b["clocks"] or got["seq"] != b["seq"]:
                n = 0
                for i, m in enumerate(b["moves"]):
                    if i >= len(got["moves"]) or got["moves"][i] != m:
                        n += 1
                missing += max(n, 1)
                bad = True
        wrong_viewers += bad
    print(json.dumps({"lat": [round(x, 1) for v in views for x in v.lat], "missing": missing,
                      "wrong_viewers": wrong_viewers, "errors": sum(v.errors for v in views) + lost,
                      "last_at_ms": max(v.last_at for v in views)}), flush=True)
    return 0


def _spawn(args, role, extra=()):
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--role", role,
                             "--boards", str(args.boards), "--duration", str(args.duration),
                             "--interval", str(args.interval), "--seed", str(args.seed)] + list(extra),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)


def coordinator(args):
    """Start the server process and the viewer processes, run the play, print the figures."""
    import urllib.request
    procs = []
    server = _spawn(args, "server")
    procs.append(server)
    try:
        line = server.stdout.readline()
        if not line.startswith("port "):
            print("bench_broadcast: server did not start: %r" % line, file=sys.stderr)
            return 1
        port = int(line.split()[1])
        t0 = time.monotonic()
        n = args.procs
        groups = [args.viewers // n + (1 if i < args.viewers % n else 0) for i in range(n)]
        workers = [_spawn(args, "worker", ["--port", str(port), "--viewers", str(g)]) for g in groups]
        procs += workers
        for w in workers:
            line = w.stdout.readline()
            if line.strip() != "ready":
                print("bench_broadcast: viewers failed: %r" % line[:300], file=sys.stderr)
                return 1
        connect_s = time.monotonic() - t0
        server.stdin.write("go\n")
        server.stdin.flush()
        parts = server.stdout.readline().split()
        if not parts or parts[0] != "done":
            print("bench_broadcast: server failed: %r" % parts, file=sys.stderr)
            return 1
        published, played_s = int(parts[1]), float(parts[2])
        done_ms = time.time() * 1000
        with urllib.request.urlopen("http://127.0.0.1:%d/api/boards" % port, timeout=60) as r:
            final = json.loads(r.read())["boards"]
        text = json.dumps(final)
        for w in workers:
            w.stdin.write(text + "\n")
            w.stdin.flush()
        reports = [json.loads(w.stdout.readline()) for w in workers]
    finally:
        for p in procs:
            try:
                p.stdin.write("bye\n")
                p.stdin.flush()
            except (BrokenPipeError, ValueError, OSError):
                pass
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
    lat = sorted(x for r in reports for x in r["lat"])
    missing = sum(r["missing"] for r in reports)
    errors = sum(r["errors"] for r in reports)
    moves_total = sum(len(b["moves"]) for b in final)

    def pct(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")
    print("broadcast_boards: %d boards (each a real game, a move every %.0f s on average)" % (len(final), args.interval))
    print("broadcast_viewers: %d viewers (SSE, %d client processes; all connected with every board in %.1f s)"
          % (args.viewers, args.procs, connect_s))
    print("broadcast_play: %.1f s, %d states published, %d moves on the boards, %.1f states/s"
          % (played_s, published, moves_total, published / max(played_s, 1e-9)))
    print("broadcast_messages: %d messages received by viewers (%.0f/s)" % (len(lat), len(lat) / max(played_s, 1e-9)))
    print("broadcast_latency_median: %.1f ms" % pct(0.5))
    print("broadcast_latency_p99: %.1f ms" % pct(0.99))
    print("broadcast_latency_max: %.1f ms" % (lat[-1] if lat else float("nan")))
    print("broadcast_catchup: %.0f ms from the end of play to the last message a viewer applied"
          % max(0.0, max(r["last_at_ms"] for r in reports) - done_ms))
    try:
        print("broadcast_host_load: %.2f (1-minute load average at the end; the host has %d CPUs)"
              % (os.getloadavg()[0], os.cpu_count() or 0))
    except OSError:
        pass
    print("broadcast_missing_moves: %d moves (viewers with a wrong final state: %d; stream errors: %d)"
          % (missing, sum(r["wrong_viewers"] for r in reports), errors))
    return 1 if missing or errors else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--role", default="main", choices=("main", "server", "worker"))
    ap.add_argument("--procs", type=int, default=2, help="viewer processes (default 2)")
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--viewers", type=int, default=1000)
    ap.add_argument("--duration", type=float, default=30.0, help="seconds of play (bounded)")
    ap.add_argument("--interval", type=float, default=10.0, help="mean seconds between a board's moves (default 10)")
    ap.add_argument("--seed", type=int, default=8)
    args = ap.parse_args()
    args.duration = min(args.duration, 120.0)
    if args.role == "server":
        asyncio.run(server_main(args))
        return 0
    if args.role == "worker":
        return asyncio.run(worker_main(args))
    import signal

    def watchdog(*_):
        print("bench_broadcast: watchdog: still running after %d s, stopped" % WATCHDOG_S, file=sys.stderr, flush=True)
        os._exit(3)   # the server process sees its stdin close and stops too
    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(WATCHDOG_S)
    return coordinator(args)


if __name__ == "__main__":
    sys.exit(main())
