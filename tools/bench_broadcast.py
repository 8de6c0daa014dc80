"""Broadcast load test on loopback: boards x concurrent viewers, bounded in time (no options: the scale table).

The *server* process runs the broadcast server (aiohttp) and
the simulated boards: each replays a real game (host/flagfall/demo_games)
through the state contract with a real clock engine, a move every few
seconds (random think times), states going into the hub in-process as the
bridge's do. Four *viewer* processes open the Server-Sent-Events streams on
127.0.0.1 between them (as pages would: one board, a round's overview, every
board; --mix) and apply every message as the page does (full states and
deltas), while relay threads poll a round's PGN. At the end each viewer's
final view of every board it follows is compared with the server's: a
single missing or different move fails the run.

Latency is event-to-viewer: from the state's `ts` (made on the board) to the
moment a viewer has parsed it, both read from the same host clock. Printed
as `name: value unit` lines; exit status 1 if a move is missing or a viewer
lost its stream.

    python tools/bench_broadcast.py [--table] [--boards 200] [--viewers 1000] [--duration 30] [--interval 10]
                                    [--procs 4] [--mix board=6,round=3,overview=1] [--per-round 100] [--relays 20]

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
TRACE = [] if os.environ.get("BENCH_TRACE") else None   # (ts, latency, kind) per update, for diagnosis


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
        sm = synthetic.StateMaker("bench", str(1 + b // args.per_round), str(1 + b % args.per_round), "chess", tags, "5400+30", fen, grid)
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

    gc_s = [0.0, 0.0]
    if TRACE is not None:             # diagnosis: how late each frame leaves the server, per kind of group
        from flagfall.broadcast import hub as hubm
        plain = hubm.Group.frame
        lags = {}

        def traced(g, hub_, keys):
            now = time.time() * 1000
            kind = "board" if g.filter[2] else ("round" if g.filter[1] else "overview")
            for k in keys:
                e = hub_.boards.get(k)
                if e is not None:
                    lags.setdefault(kind, []).append(now - e.state["ts"])
            return plain(g, hub_, keys)
        hubm.Group.frame = traced

    def gc_watch(phase, info):
        if phase == "start":
            gc_s[1] = time.perf_counter()
        else:
            gc_s[0] += time.perf_counter() - gc_s[1]
    gc.callbacks.append(gc_watch)
    t0 = time.monotonic()
    c0 = time.process_time()
    await asyncio.gather(*(board(sm, plies, i) for i, (sm, plies) in enumerate(boards)))
    if TRACE is not None:
        for kind, v in lags.items():
            v.sort()
            print("server frame lag %s: median %.0f p99 %.0f max %.0f ms" % (kind, v[len(v) // 2], v[int(.99 * len(v))], v[-1]),
                  file=sys.stderr, flush=True)
    print("done %d %.1f %.2f %.2f" % (published[0], time.monotonic() - t0, time.process_time() - c0, gc_s[0]),
          flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)   # wait until the viewers have checked
    await runner.cleanup()


# -- viewer process ----------------------------------------------------------

class Viewer:
    __slots__ = ("boards", "lat", "msgs", "errors", "hello", "last_at", "kind", "keys")

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
            if "from" in msg:           # a full-view delta: the moves from index `from` on
                f = msg.pop("from")
                moves, clocks = cur["moves"], cur["clocks"]
                del moves[f:]
                del clocks[f:]
                moves.extend(msg.pop("moves"))
                clocks.extend(msg.pop("clocks"))
            cur.update(msg)             # every other key as sent
        self.msgs += 1
        self.lat.append(now_ms - msg["ts"])
        if TRACE is not None:
            TRACE.append((msg["ts"], now_ms - msg["ts"], self.kind))
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
            if block.startswith(b"event: u\ndata: "):     # one frame: every board changed this tick
                for msg in json.loads(block[15:]):
                    self.v.apply(msg, now)
            elif block.startswith(b"retry:") or block.startswith(b"event: hello"):
                self.v.hello = True


KINDS = {
    # kind: (what a page of that kind follows, view)
    "board": ("one board", "full"),        # a board page: one board with its move list
    "round": ("one round", "summary"),     # a round overview: positions and clocks of a round's boards
    "overview": ("every board", "summary"),  # the tournament page / a hall screen
    "all": ("every board", "full"),        # an API client taking every board with its moves (the old page)
}


def board_keys(args):
    return ["bench/%d/%d" % (1 + b // args.per_round, 1 + b % args.per_round) for b in range(args.boards)]


def parse_mix(text):
    """[(kind, weight)] from 'board=6,round=3,overview=1' or a bare kind."""
    out = []
    for part in text.split(","):
        name, _, w = part.partition("=")
        name = name.strip()
        if name not in KINDS:
            raise SystemExit("bench_broadcast: --mix: unknown kind %r (one of %s)" % (name, ", ".join(KINDS)))
        out.append((name, int(w) if w else 1))
    return out


def viewer_plan(args, index):
    """(kind, stream path, keys followed) of the viewer with this global index."""
    pattern = [k for k, w in parse_mix(args.mix) for _ in range(w)]
    kind = pattern[index % len(pattern)]
    keys = board_keys(args)
    if kind == "board":
        key = keys[(index * 7919) % len(keys)]
        t, r, b = key.split("/")
        return kind, "/api/stream?t=%s&r=%s&b=%s" % (t, r, b), [key]
    if kind == "round":
        nrounds = (args.boards + args.per_round - 1) // args.per_round
        r = str(1 + index % nrounds)
        return kind, "/api/stream?t=bench&r=%s&view=summary" % r, [k for k in keys if k.split("/")[1] == r]
    if kind == "overview":
        return kind, "/api/stream?view=summary", keys
    return kind, "/api/stream", keys


def _behind(v, final):
    return any(k not in v.boards or v.boards[k]["seq"] != final[k]["seq"] for k in v.keys)


def _missing(v, final):
    """Moves a viewer lacks or has wrong at the end (0 if its final view equals the server's)."""
    missing = 0
    for k in v.keys:
        b = final[k]
        got = v.boards.get(k)
        if got is None:
            missing += len(b["moves"]) or 1
            continue
        if v.kind in ("round", "overview"):      # summary: the count, the last move, the clock
            clock = {f: x for f, x in b["clock"].items() if not f.endswith("_display")}
            ok = (got["seq"] == b["seq"] and got["n"] == len(b["moves"]) and got["clock"] == clock
                  and got["last"] == (b["moves"][-1] if b["moves"] else None) and got["grid"] == b["grid"])
            missing += 0 if ok else max(1, abs(len(b["moves"]) - got["n"]))
            continue
        if got["moves"] != b["moves"] or got["clocks"] != b["clocks"] or got["seq"] != b["seq"]:
            n = 0
            for i, m in enumerate(b["moves"]):
                if i >= len(got["moves"]) or got["moves"][i] != m:
                    n += 1
            missing += max(n, 1)
    return missing


async def worker_main(args):
    """A group of viewers in one process: connect, say 'ready', play, then check and report JSON."""
    loop = asyncio.get_running_loop()
    # The viewers hold 200 boards each, a few hundred thousand containers: Python's
    # cyclic collector would stop this process for seconds to walk them, and that
    # pause would be measured as broadcast latency. They make no cycles: no collector.
    gc.disable()
    port = args.port
    views = []
    clients = []
    for i in range(args.viewers):
        kind, path, keys = viewer_plan(args, args.first + i)
        v = Viewer()
        v.kind, v.keys = kind, keys
        views.append(v)
        _, proto = await loop.create_connection(lambda v=v, path=path: SSEClient(v, path), "127.0.0.1", port)
        clients.append(proto)
        if i % 50 == 49:
            await asyncio.sleep(0.01)
    t0 = time.monotonic()
    # connected, and every viewer holds every board it follows
    while sum(1 for v in views if len(v.boards) == len(v.keys)) < args.viewers:
        if time.monotonic() - t0 > 120:
            print(json.dumps({"error": "only %d viewers had every board after 120 s"
                              % sum(1 for v in views if len(v.boards) == len(v.keys))}), flush=True)
            return 1
        await asyncio.sleep(0.1)
    for v in views:          # the initial full states are not events: measure from here
        v.lat.clear()
        v.msgs = 0
    print("ready", flush=True)
    c0 = time.process_time()
    line = await loop.run_in_executor(None, sys.stdin.readline)   # the final states, as JSON
    cpu = time.process_time() - c0
    final = {"%s/%s/%s" % (b["tournament"], b["round"], b["board"]): b for b in json.loads(line)}
    t_wait = time.monotonic()
    while time.monotonic() - t_wait < 30:      # let every viewer catch up with the final states (bounded)
        if not any(_behind(v, final) for v in views):
            break
        await asyncio.sleep(0.1)
    if TRACE is not None:
        with open("%s.%d" % (os.environ["BENCH_TRACE"], os.getpid()), "w") as f:
            json.dump(TRACE, f)
    lost = sum(1 for c in clients if c.closed.done())
    for c in clients:
        c.transport.close()
    missing = wrong_viewers = 0
    for v in views:
        m = _missing(v, final)
        missing += m
        wrong_viewers += bool(m)
    print(json.dumps({"lat": [round(x, 1) for v in views for x in v.lat], "missing": missing,
                      "wrong_viewers": wrong_viewers, "errors": sum(v.errors for v in views) + lost,
                      "last_at_ms": max(v.last_at for v in views), "cpu": cpu,
                      "kinds": {k: sum(1 for v in views if v.kind == k) for k in KINDS},
                      "kind_lat": {k: [round(x, 1) for v in views if v.kind == k for x in v.lat][::7] for k in KINDS}}),
          flush=True)
    return 0


def _spawn(args, role, extra=()):
    return subprocess.Popen([sys.executable, os.path.abspath(__file__), "--role", role,
                             "--boards", str(args.boards), "--duration", str(args.duration),
                             "--interval", str(args.interval), "--seed", str(args.seed),
                             "--per-round", str(args.per_round), "--mix", args.mix] + list(extra),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)


class Relays:
    """Broadcast relays polling the round's combined PGN every `period` s with If-None-Match (threads)."""

    def __init__(self, port, n, period, rounds):
        import threading
        self.port, self.period, self.rounds = port, period, rounds
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.ok = self.not_modified = self.failed = 0
        self.bytes = 0
        self.times = []
        self.threads = [threading.Thread(target=self.run, args=(i,), daemon=True) for i in range(n)]
        for t in self.threads:
            t.start()

    def run(self, i):
        import http.client
        etag = None
        url = "/feed/bench/%s.pgn" % self.rounds[i % len(self.rounds)]
        time.sleep(self.period * i / max(1, len(self.threads)))
        while not self.stop.is_set():
            t0 = time.monotonic()
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                # relays (Lichess's among them) take the feed gzip-compressed
                headers = {"Accept-Encoding": "gzip"}
                if etag:
                    headers["If-None-Match"] = etag
                c.request("GET", url, headers=headers)
                r = c.getresponse()
                body = r.read()
                if r.getheader("Content-Encoding") == "gzip":
                    import gzip
                    body = gzip.decompress(body)
                c.close()
                with self.lock:
                    if r.status == 200:
                        self.ok += 1
                        self.bytes += len(body)
                        etag = r.getheader("ETag")
                    elif r.status == 304:
                        self.not_modified += 1
                    else:
                        self.failed += 1
                    self.times.append(time.monotonic() - t0)
            except OSError:
                with self.lock:
                    self.failed += 1
            self.stop.wait(max(0.0, self.period - (time.monotonic() - t0)))

    def close(self):
        self.stop.set()
        for t in self.threads:
            t.join(35)


def coordinator(args):
    """Start the server process and the viewer processes, run the play, print the figures; a dict."""
    import urllib.request
    procs = []
    relays = None
    server = _spawn(args, "server")
    procs.append(server)
    try:
        line = server.stdout.readline()
        if not line.startswith("port "):
            print("bench_broadcast: server did not start: %r" % line, file=sys.stderr)
            return None
        port = int(line.split()[1])
        t0 = time.monotonic()
        n = args.procs
        groups = [args.viewers // n + (1 if i < args.viewers % n else 0) for i in range(n)]
        firsts = [sum(groups[:i]) for i in range(n)]
        workers = [_spawn(args, "worker", ["--port", str(port), "--viewers", str(g), "--first", str(f)])
                   for g, f in zip(groups, firsts)]
        procs += workers
        for w in workers:
            line = w.stdout.readline()
            if line.strip() != "ready":
                print("bench_broadcast: viewers failed: %r" % line[:300], file=sys.stderr)
                return None
        connect_s = time.monotonic() - t0
        if args.relays:
            relays = Relays(port, args.relays, args.relay_period, ["1"])
        server.stdin.write("go\n")
        server.stdin.flush()
        parts = server.stdout.readline().split()
        if not parts or parts[0] != "done":
            print("bench_broadcast: server failed: %r" % parts, file=sys.stderr)
            return None
        published, played_s, server_cpu, server_gc = int(parts[1]), float(parts[2]), float(parts[3]), float(parts[4])
        done_ms = time.time() * 1000
        if relays is not None:
            relays.close()
        with urllib.request.urlopen("http://127.0.0.1:%d/api/boards" % port, timeout=60) as r:
            final = json.loads(r.read())["boards"]
        text = json.dumps(final)
        for w in workers:
            w.stdin.write(text + "\n")
            w.stdin.flush()
        reports = [json.loads(w.stdout.readline()) for w in workers]
    finally:
        if relays is not None:
            relays.close()
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
    kinds = {k: sum(r["kinds"][k] for r in reports) for k in KINDS}

    def pct(p):
        return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    res = {"boards": len(final), "viewers": args.viewers, "msgs_s": len(lat) / max(played_s, 1e-9),
           "p99": pct(0.99), "median": pct(0.5), "missing": missing, "errors": errors, "load": load}
    if args.quiet:
        return res
    print("broadcast_boards: %d boards (each a real game, a move every %.0f s on average; %d boards a round)"
          % (len(final), args.interval, args.per_round))
    print("broadcast_viewers: %d viewers (SSE, %d client processes; %s; all connected with every board in %.1f s)"
          % (args.viewers, args.procs, ", ".join("%d %s" % (n, k) for k, n in kinds.items() if n), connect_s))
    print("broadcast_play: %.1f s, %d states published, %d moves on the boards, %.1f states/s"
          % (played_s, published, moves_total, published / max(played_s, 1e-9)))
    print("broadcast_messages: %d board updates received by viewers (%.0f/s)" % (len(lat), res["msgs_s"]))
    print("broadcast_latency_median: %.1f ms" % pct(0.5))
    print("broadcast_latency_p99: %.1f ms" % pct(0.99))
    print("broadcast_latency_max: %.1f ms" % (lat[-1] if lat else float("nan")))
    for k in KINDS:
        kl = sorted(x for r in reports for x in r["kind_lat"][k])
        if kl:
            print("broadcast_latency_%s: median %.0f ms, p99 %.0f ms (%s viewers, sampled)"
                  % (k, kl[len(kl) // 2], kl[min(len(kl) - 1, int(0.99 * len(kl)))], k))
    print("broadcast_catchup: %.0f ms from the end of play to the last message a viewer applied"
          % max(0.0, max(r["last_at_ms"] for r in reports) - done_ms))
    if relays is not None:
        ts = sorted(relays.times) or [float("nan")]
        print("broadcast_relays: %d relays polling /feed/bench/1.pgn every %.0f s: %d x 200 (%.0f kB each), "
              "%d x 304, %d failed; slowest answer %.0f ms"
              % (args.relays, args.relay_period, relays.ok, relays.bytes / 1000.0 / max(1, relays.ok),
                 relays.not_modified, relays.failed, ts[-1] * 1000))
    print("broadcast_cpu: server %.1f s (%.2f s in garbage collection), viewer processes %s s of CPU during %.1f s of play"
          % (server_cpu, server_gc, " + ".join("%.1f" % r["cpu"] for r in reports), played_s))
    print("broadcast_host_load: %.2f (1-minute load average at the end; the host has %d CPUs)"
          % (load, os.cpu_count() or 0))
    print("broadcast_missing_moves: %d moves (viewers with a wrong final state: %d; stream errors: %d)"
          % (missing, sum(r["wrong_viewers"] for r in reports), errors))
    return res


TABLE = ((200, 1000), (1000, 200), (1000, 1000), (1000, 2000))


def table(args):
    """The scale table: each size run in turn (shorter play), one line each."""
    rows = []
    print("broadcast_table: boards x viewers, %s viewers (--mix %s), %.0f s of play each, %d relays"
          % ("page-like" if args.mix != "all" else "every-board", args.mix, args.duration, args.relays))
    print("| boards x viewers | board updates/s | p99 | median | missing | host load |")
    print("|---|---|---|---|---|---|")
    bad = False
    for nb, nv in TABLE:
        a = argparse.Namespace(**vars(args))
        a.boards, a.viewers, a.quiet = nb, nv, True
        r = coordinator(a)
        if r is None:
            print("| %d x %d | failed to run | | | | |" % (nb, nv))
            bad = True
            continue
        print("| %d x %d | %.0f | %.0f ms | %.0f ms | %d | %.1f |"
              % (nb, nv, r["msgs_s"], r["p99"], r["median"], r["missing"], r["load"]), flush=True)
        rows.append(r)
        bad = bad or r["missing"] or r["errors"]
    for r in rows:              # the same figures as `name: value unit` lines
        name = "broadcast_%dx%d" % (r["boards"], r["viewers"])
        print("%s_p99: %.0f ms" % (name, r["p99"]))
        print("%s_median: %.0f ms" % (name, r["median"]))
        print("%s_updates: %.0f /s" % (name, r["msgs_s"]))
        print("%s_missing: %d moves" % (name, r["missing"]))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--role", default="main", choices=("main", "server", "worker"))
    ap.add_argument("--procs", type=int, default=4, help="viewer processes (default 4)")
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--boards", type=int, default=200, help="boards (default 200)")
    ap.add_argument("--viewers", type=int, default=1000, help="SSE viewers (default 1000)")
    ap.add_argument("--duration", type=float, help="seconds of play (default 30; 20 per size of the table; at most 120)")
    ap.add_argument("--interval", type=float, default=10.0, help="mean seconds between a board's moves (default 10)")
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--per-round", type=int, default=100, help="boards in a round (default 100)")
    ap.add_argument("--mix", default="board=6,round=3,overview=1",
                    help="what the viewers watch, as weights of kinds: board (a board page: one board with "
                         "its moves), round (a round overview: positions and clocks), overview (every board, "
                         "positions and clocks), all (every board with its moves, as the page did before). "
                         "Default board=6,round=3,overview=1")
    ap.add_argument("--relays", type=int, default=20, help="relays polling a round's PGN (default 20)")
    ap.add_argument("--relay-period", type=float, default=2.0, help="seconds between a relay's polls (default 2)")
    ap.add_argument("--table", action="store_true",
                    help="run the scale table (200x1000, 1000x200, 1000x1000, 1000x2000) instead of one size; "
                         "this is what `make bench` does when no size is given")
    ap.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    table_run = args.table or len(sys.argv) == 1
    args.duration = min(args.duration or (20.0 if table_run else 30.0), 120.0)
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
    if table_run:
        signal.alarm(WATCHDOG_S * len(TABLE))
        return table(args)
    signal.alarm(WATCHDOG_S)
    r = coordinator(args)
    return 1 if r is None or r["missing"] or r["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
