"""The broadcast web server (aiohttp): pages, live stream, feeds, JSON API, arbiter actions.

`make_app` puts together the routes of each concern, each in its own module: the pages and their
files (pages.py), the JSON API and the arbiter's actions (api.py), the live stream (sse.py), the
relay feeds (feed_routes.py), the token (auth.py), with the errors and request helpers every route
shares (http_helpers.py); `start` serves it behind the TCP guard (guard.py).

    GET  /                                 tournament page (every board; ?t=&r= to narrow)
    GET  /board/<t>/<r>/<b>                one board with its move list
    GET  /static/<file>                    the page files (a fixed list), gzip-compressed when accepted
    GET  /static/flags/<code>.svg          a federation's flag (flagfall/broadcast/static/flags)
    GET  /api/boards[?t=&r=]               every board's state without record text
    GET  /api/board/<t>/<r>/<b>            one board's full state
    GET  /api/board/<t>/<r>/<b>/plies      the position after each ply (for stepping through the moves)
    GET  /api/board/<t>/<r>/<b>/games[/<n>]  the board's earlier (finished) games
    GET  /api/round/<t>/<r>                every board of a round: players, result, clocks, earlier games
    GET  /api/rounds[?t=]                  the rounds held, newest last: boards, finished, playing
    GET  /api/standings/<t>/<r>            the standings after round r (flagfall.tournament.standings)
    GET  /api/board/<t>/<r>/<b>/alert      the full text of a board's alert and the penalty it proposes
                                           (token; the public sees only "arbiter at the board")
    GET  /api/arbiter/check                200 with the arbiter token (the page's panel opens then) and
                                           each game's results (the panel offers the board's only)
    GET  /api/stream[?t=&r=&b=&view=]      Server-Sent Events: `hello`, then a `u` frame per tick of changes
    GET  /api/health                       counters
    GET  /feed/<t>/<r>.pgn | .pdn          live record of every chess / draughts game of a round
    GET  /feed/<t>/<r>/<b>.pgn | .pdn      one game; .txt gives the bridge's own record text
    POST /api/board/<t>/<r>/<b>/arbiter    arbiter action; needs `Authorization: Bearer <token>`

Viewing needs nothing; arbiter actions need the token. Every rejected request
gets a JSON body {"error": "..."} saying why.
"""
from __future__ import annotations

import asyncio
import signal
from typing import Awaitable, Optional, TypeVar, cast

from aiohttp import web

from flagfall.broadcast import api, feed_routes, pages, sse
from flagfall.broadcast.auth import TOKEN_KEY, new_token
from flagfall.broadcast.guard import HEADER_TIMEOUT_S, MAX_PER_CLIENT, GuardedSite, Limits, tune_gc
from flagfall.broadcast.http_helpers import HUB_KEY, MAX_REQUEST, errors_middleware
from flagfall.broadcast.hub import Hub


def make_app(hub: Optional[Hub] = None, token: Optional[str] = None,
             frame_ancestors: Optional[str] = None) -> web.Application:
    """The aiohttp application around a hub; token is the arbiter token (random if not given);
    frame_ancestors the CSP sources that may frame the ?embed=1 pages (default pages.EMBED_ANCESTORS)."""
    app = web.Application(middlewares=[errors_middleware], client_max_size=MAX_REQUEST)
    app[HUB_KEY] = hub if hub is not None else Hub()
    app[TOKEN_KEY] = token or new_token()
    pages.add_routes(app, frame_ancestors)
    api.add_routes(app)
    sse.add_routes(app)
    feed_routes.add_routes(app)
    app.on_shutdown.append(_close_viewers)
    return app


async def _close_viewers(app: web.Application) -> None:
    hub = app[HUB_KEY]
    for v in hub.viewers():
        hub.unsubscribe(v)


def hub_of(app: web.Application) -> Hub:
    """The hub of an application made by make_app."""
    return app[HUB_KEY]


async def start(app: web.Application, host: str = "127.0.0.1", port: int = 8080,
                max_per_client: int = MAX_PER_CLIENT, exempt_loopback: bool = True,
                header_timeout: float = HEADER_TIMEOUT_S) -> web.AppRunner:
    """Start serving app; returns the AppRunner (await runner.cleanup() to stop).

    max_per_client bounds the connections open at once from one address (0: no
    bound; loopback addresses are exempt unless exempt_loopback is False: a
    reverse proxy on the same host brings every viewer from there). A connection
    that has not sent a whole request head within header_timeout seconds of
    opening, or of the first byte of a later request, is closed.
    """
    tune_gc()
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    limits = Limits(max_per_client, exempt_loopback, header_timeout)
    site = GuardedSite(runner, limits, host, port, backlog=2048)
    await site.start()
    if app[HUB_KEY].loop is None:
        app[HUB_KEY].loop = asyncio.get_running_loop()
    return runner


def bound_port(runner: web.BaseRunner) -> int:
    """The TCP port a started runner listens on (useful with port 0)."""
    for site in runner.sites:
        srv = cast(asyncio.Server, site._server)   # a started site's listening server (asyncio's, with sockets)
        port: int = srv.sockets[0].getsockname()[1]
        return port
    raise RuntimeError("runner has no site")


_T = TypeVar("_T")


async def until_stopped(coro: Awaitable[_T]) -> Optional[_T]:
    """Run coro until it ends or SIGINT/SIGTERM cancels it; a signal is a clean stop, not an error.
    Returns what coro returned (a command's exit status), None after a signal."""
    task = asyncio.ensure_future(coro)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, task.cancel)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        return await task
    except asyncio.CancelledError:
        return None
