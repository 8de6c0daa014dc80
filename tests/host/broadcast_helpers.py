"""Shared helpers for the broadcast tests: a server on a free loopback port, states from real games."""
import asyncio
import contextlib
import json
import os

import aiohttp

from flagfall.broadcast import server, synthetic
from flagfall.games import chess as pgn

from repo import ROOT
TOKEN = "test-token-0123456789"


def real_chess_game(index=0):
    """A real game from the project's demo copy (tags, SAN moves)."""
    path = os.path.join(ROOT, "host", "flagfall", "demo_games", "chess.pgn")
    games = list(pgn.read_file(path))
    return games[index % len(games)]


def chess_board(board="1", tournament="open", round_="1", tc="5400+30", game=None):
    """(StateMaker, plies) of a real chess game on a board."""
    g = game or real_chess_game()
    tags = {k: v for k, v in g.tags.items() if k != "Result"}
    fen, grid = synthetic.chess_start()
    sm = synthetic.StateMaker(tournament, round_, board, "chess", tags, tc, fen, grid)
    return sm, synthetic.chess_plies(g.sans)


@contextlib.asynccontextmanager
async def running_server(token=TOKEN, **start_options):
    """(base_url, hub, app) of a broadcast server on 127.0.0.1 and a free port (options: see server.start)."""
    app = server.make_app(token=token)
    runner = await server.start(app, "127.0.0.1", 0, **start_options)
    try:
        yield "http://127.0.0.1:%d" % server.bound_port(runner), server.hub_of(app), app
    finally:
        await runner.cleanup()


async def read_sse(resp, want, timeout=15.0, frames=False):
    """Read SSE events until want(events) is true; returns [(event, data)].

    A `u` frame carries a list of board items; unless frames=True each item is
    listed on its own as ("s", item), one per board change.
    """
    events = []
    ev, data = None, []

    async def loop():
        nonlocal ev, data
        while not want(events):
            line = await resp.content.readline()
            if not line:
                return
            line = line.decode().rstrip("\n")
            if line.startswith("event:"):
                ev = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "":
                if ev is not None:
                    obj = json.loads("\n".join(data))
                    if ev == "u" and not frames:
                        events.extend(("s", item) for item in obj)
                    else:
                        events.append((ev, obj))
                ev, data = None, []
    await asyncio.wait_for(loop(), timeout)
    return events


def board_messages(events):
    """The board items of SSE events, in order: each `u` frame carries a list of them."""
    out = []
    for name, data in events:
        if name == "u":
            assert isinstance(data, list) and data, data
            out.extend(data)
    return out


class ViewerModel:
    """What a page holds after applying stream messages, as app.js does."""

    def __init__(self):
        self.boards = {}
        self.refetch = []

    def apply(self, msg):
        k = msg["k"]
        if msg.get("full"):
            self.boards[k] = {x: y for x, y in msg.items() if x != "full"}
            return
        cur = self.boards.get(k)
        if cur is None:
            self.refetch.append(k)
            return
        if "from" in msg:
            f = msg["from"]
            cur["moves"] = cur["moves"][:f] + msg["moves"]
            cur["clocks"] = cur["clocks"][:f] + msg["clocks"]
        for x, y in msg.items():
            if x not in ("moves", "clocks", "from"):
                cur[x] = y


async def get_json(session, url):
    async with session.get(url) as r:
        return r.status, await r.json(content_type=None)


def session():
    return aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=20))
