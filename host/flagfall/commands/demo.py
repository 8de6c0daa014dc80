"""The two-board demo: two simulated boards, a bridge for each, and the live broadcast.

(`make run` is the event demo, `flagfall event --demo`: see commands/event.py.)

Board 1 plays a real chess game, board 2 a real international draughts game
(host/flagfall/demo_games/), each on a simulated device: the real firmware on
fake hardware, with its clock running. A bridge per board connects to its
device over the same serial protocol as to a board on USB (a TCP serial
line), rebuilds the moves from the sensor events, checks them and writes the
record; every state goes to the broadcast server, whose URL is printed.
When a game ends the board starts the next game of its file. Ctrl-C stops;
the PGN/PDN records and the bridges' journals stay in the output folder.

    flagfall demo [--port 8080] [--out out/demo] [--speed 1]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Coroutine, Optional

from flagfall.bridge import decisions as D
from flagfall.commands import tcp_port

if TYPE_CHECKING:
    from flagfall import live
    from flagfall.bridge.engine import BridgeEngine
    from flagfall.bridge.replay import GameSource
    from flagfall.bridge.session import Session

NAME = "demo"
HELP = "the demo: two simulated boards (chess, draughts) with clocks, bridges, live broadcast page"

from importlib import resources
BOARDS = (
    # board slug, game, profile, game file, time control
    ("1", "chess", "pico-chess", "chess.pgn", "5400+30"),
    ("2", "draughts", "pico-draughts10", "draughts.pdn", "5400+30"),
)
TOURNAMENT, ROUND = "demo", "1"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address of the web server (default 127.0.0.1)")
    p.add_argument("--port", type=tcp_port, default=8080,
                   help="web server port (default 8080; 0 picks a free one; `make run WEB_PORT=8090`)")
    p.add_argument("--out", default=os.path.join("out", "demo"), help="folder for records and journals (default out/demo)")
    p.add_argument("--speed", type=float, default=1.0,
                   help="time runs this many times faster on the simulated boards (default 1: real time)")
    p.add_argument("--think", type=float, default=4.0, help="average think time per move in seconds (default 4)")
    p.add_argument("--mqtt", metavar="URL", help="also publish every state to this MQTT broker "
                   "(HOST[:PORT] or mqtt://[user[:password]@]host[:port], mqtts://...)")
    p.add_argument("--token", help="arbiter token (visible in `ps`: prefer --token-file or $FLAGFALL_TOKEN; "
                                   "default: a random one, printed)")
    p.add_argument("--token-file", metavar="PATH", help="arbiter token from this file (its first line): "
                   "unlike --token it is not visible to other users in `ps`")
    p.add_argument("--seed", type=int, help="random seed for think times and handling noise")
    p.add_argument("--quiet", action="store_true", help="print only the URL and the token")


class DemoBoard:
    """One simulated device, its bridge, and the hand that plays the games of a file."""

    def __init__(self, slug: str, game: str, profile: str, path: str, tc: str, args: argparse.Namespace,
                 publish: Callable[[live.Message], None], log: Callable[[str], None]) -> None:
        from flagfall import sim as simm
        from flagfall.bridge.replay import load_games
        self.slug, self.game, self.tc, self.args = slug, game, tc, args
        self.publish_state = publish
        self.log = log
        self.games = list(load_games(game, path))
        if not self.games:
            raise ValueError("no games in %s" % path)
        seed = args.seed if args.seed is not None else random.randrange(1 << 30)
        self.rng = random.Random(seed * 7 + int(slug))
        self.sim = simm.Simulator(profile, speed=args.speed, tc=tc, seed=seed + int(slug), noise=0.08,
                                  log=lambda text: None)
        self.endpoint = self.sim.listen_tcp("127.0.0.1", 0)
        self.lock = threading.Lock()       # the engine is used by the session thread and arbiter actions
        self.stop = threading.Event()
        self.restart = threading.Event()
        self.engine: Optional[BridgeEngine] = None
        self.session: Optional[Session] = None
        self.index = 0
        self.seq = 0

    def key(self) -> tuple[str, str, str]:
        return (TOURNAMENT, ROUND, self.slug)

    def new_engine(self, source: GameSource) -> BridgeEngine:
        from flagfall.bridge.engine import BridgeEngine
        tags = {k: v for k, v in source.tags.items() if k not in ("Result", "PlyCount", "Annotator", "EventDate")}
        tags["Round"] = tags.get("Round", "?")
        name = "board%s-game%d" % (self.slug, self.index + 1)
        eng = BridgeEngine(self.game, journal_path=os.path.join(self.args.out, name + ".journal"),
                           out_dir=self.args.out, clock_mode=True, tags=tags, tc=self.tc,
                           publish=self._publish, identity=[TOURNAMENT, ROUND, self.slug], record_name=name)
        eng.seq = self.seq          # one board, one sequence: viewers never see it go back
        return eng

    def _publish(self, state: live.Message, decs: list[D.Decision]) -> None:
        self.seq = state["seq"]
        self.publish_state(state)
        for d in decs:
            if d.kind in (D.MOVE, D.RESULT, D.PENALTY, D.ALERT) and not self.args.quiet:
                self.log("board %s: %s" % (self.slug, d.describe()))

    def start(self) -> None:
        from flagfall.bridge.session import Session
        self.sim.start()
        self.engine = self.new_engine(self.games[0])
        self.session = Session(self.endpoint.url(), self.engine, retry_s=0.2, poll_s=0.02,
                               log=lambda text: None)
        threading.Thread(target=self._bridge_loop, name="demo-bridge-" + self.slug, daemon=True).start()
        threading.Thread(target=self._hand, name="demo-hand-" + self.slug, daemon=True).start()

    def _bridge_loop(self) -> None:
        session = self.session
        assert session is not None, "start() made the session"
        while not self.stop.is_set():
            with self.lock:
                session.step()
            time.sleep(0.02)

    def _wait(self, seconds: float) -> bool:
        """Sleep in real seconds; False if the demo is stopping."""
        return not self.stop.wait(seconds)

    def _pause_clock(self) -> None:
        from flagcore import clock as clockm
        if self.sim.app.clock.state == clockm.RUNNING:
            self.sim.press("start")

    def _hand(self) -> None:
        sim = self.sim
        while not self.stop.is_set():
            src = self.games[self.index % len(self.games)]
            eng = self.engine      # this thread alone replaces it (next_game)
            assert eng is not None, "start() made the engine"
            # the bridge must have the device's hello and snapshot before the clock starts
            for _ in range(200):
                if eng.started or self.stop.is_set():
                    break
                time.sleep(0.05)
            if not self._wait(1.0):
                return
            sim.press("start")
            for text in src.texts:
                if self.stop.is_set():
                    return
                if self.restart.is_set() or eng.game.result != "*":
                    break
                think = self.rng.uniform(0.3, 1.7) * self.args.think * 1000
                sim.play(text, think_ms=think)
            if self.restart.is_set():          # arbiter: the same game again from the start
                self.restart.clear()
                self._pause_clock()
                self.index -= 1
                self.next_game()
                continue
            if not self._wait(2.0):
                return
            with self.lock:
                if eng.game.result == "*" and src.result in ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1"):
                    eng.operator(int(time.time() * 1000), "result", src.result, "as in the record")
            self._pause_clock()         # the game is over
            if not self._wait(15.0):
                return
            self.next_game()

    def next_game(self) -> None:
        """Set the board up for the next game of the file, with a fresh clock and a new record."""
        self.index += 1
        src = self.games[self.index % len(self.games)]
        self.sim.new_game(self.tc)
        with self.lock:
            old, session = self.engine, self.session
            assert old is not None and session is not None, "start() made the engine and session"
            self.engine = eng = self.new_engine(src)
            session.engine = eng
            eng.send = session.send
            if session.link is not None:
                eng.link(int(time.time() * 1000), True)
            old.close()
            for what in ("hello", "snap", "clock"):
                session.send("REQ", [what])

    def arbiter(self, cmd: live.Message) -> dict[str, Any]:
        """An arbiter action from the broadcast page, carried out by this board's bridge."""
        from flagfall import live
        t = int(time.time() * 1000)
        a = cmd["action"]
        with self.lock:
            eng, session = self.engine, self.session
            if eng is None or session is None:
                raise ValueError("the board has not started yet")
            if a == "result":
                eng.operator(t, "result", cmd["result"], "arbiter")
            elif a == "clock":
                if not session.send("ADJ", [cmd["side"], cmd["delta_ms"]]):
                    raise ValueError("the device is not connected")
            elif a in ("promotion", "fix_move"):
                eng.command(t, cmd)     # the bridge's own arbiter path: ValueError (answered 422) if it refuses
            elif a == "restart":
                self.restart.set()
                return {"restarting": "the board is set up again and the game starts over"}
            else:
                raise ValueError("unknown action %r" % a)
            state = eng.next_state()
        self.publish_state(state)
        self.seq = state["seq"]
        live.validate_state(state)
        return {"moves": len(state["moves"]), "result": state["result"], "alert": state["alert"]}

    def close(self) -> None:
        self.stop.set()
        self.sim.stop()
        if self.engine is not None:
            with self.lock:
                self.engine.close()


async def main(args: argparse.Namespace,
               ready: Callable[[str, str, list[DemoBoard]], None]) -> None:
    from flagfall.broadcast import auth, server
    from flagfall.broadcast.hub import Hub
    loop = asyncio.get_running_loop()
    hub = Hub(loop)
    token = getattr(args, "resolved_token", None) or auth.resolve_token(args.token, getattr(args, "token_file", None))[0]
    app = server.make_app(hub, token)
    runner = await server.start(app, args.host, args.port)
    pub: Optional[mqtt.Publisher] = None
    if args.mqtt:
        from flagfall import mqtt
        pub = mqtt.Publisher(broker=mqtt.parse_broker(args.mqtt))   # mqtt://[user[:password]@]host[:port]
        await loop.run_in_executor(None, pub.start)

    def publish(state: live.Message) -> None:
        loop.call_soon_threadsafe(hub.ingest, state)
        if pub is not None:
            pub.publish_state(state)

    log = (lambda text: None) if args.quiet else (lambda text: print(text, flush=True))
    boards: list[DemoBoard] = []
    try:
        for slug, game, profile, fname, tc in BOARDS:
            b = DemoBoard(slug, game, profile, str(resources.files("flagfall.demo_games").joinpath(fname)), tc, args, publish, log)
            boards.append(b)
            hub.command_handlers[b.key()] = _async_handler(loop, b)
        for b in boards:
            b.start()
        url = "http://%s:%d/" % (args.host if args.host != "0.0.0.0" else "127.0.0.1", server.bound_port(runner))
        ready(url, token, boards)
        await asyncio.Event().wait()
    finally:
        for b in boards:
            b.close()
        if pub is not None:
            pub.stop()
        await runner.cleanup()


def _async_handler(loop: asyncio.AbstractEventLoop,
                   board: DemoBoard) -> Callable[[live.Message], Coroutine[Any, Any, live.Message]]:
    async def handler(cmd: live.Message) -> live.Message:
        return await loop.run_in_executor(None, board.arbiter, cmd)
    return handler


def run(args: argparse.Namespace) -> int:
    if args.speed <= 0 or args.think < 0:
        print("demo: --speed must be above 0 and --think 0 or more", file=sys.stderr)
        return 2
    from flagfall.broadcast import auth
    try:
        args.resolved_token, source = auth.resolve_token(args.token, args.token_file)
    except ValueError as e:
        print("demo: %s" % e, file=sys.stderr)
        return 2
    if source == "argument":
        print("demo: warning: --token is visible to every user in `ps`; use --token-file or FLAGFALL_TOKEN",
              file=sys.stderr)
    os.makedirs(args.out, exist_ok=True)

    def ready(url: str, token: str, boards: list[DemoBoard]) -> None:
        print("Flagfall demo: open %s" % url, flush=True)
        print("arbiter token: %s" % token, flush=True)
        if not args.quiet:
            for b in boards:
                print("board %s: %s on a simulated %s (%s), time control %s, serial line %s"
                      % (b.slug, b.game, b.sim.profile["name"], "real firmware, fake hardware", b.tc, b.endpoint.url()),
                      flush=True)
            print("records and journals: %s   (Ctrl-C to stop)" % os.path.abspath(args.out), flush=True)

    try:
        from flagfall.broadcast import server
        asyncio.run(server.until_stopped(main(args, ready)))
    except OSError as e:
        print("demo: cannot serve on %s:%d: %s (try --port)" % (args.host, args.port, e.strerror or e), file=sys.stderr)
        return 1
    except ConnectionError as e:
        print("demo: %s" % e, file=sys.stderr)
        return 1
    print("demo stopped; records in %s" % os.path.abspath(args.out), flush=True)
    return 0
