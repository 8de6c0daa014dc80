"""The event on the web: the public broadcast (delayed if asked) and the arbiter's dashboard (live).

`attach(app, event)` mounts the dashboard, an aiohttp sub-application of its own (its page at
/arbiter, its API at /api/event), on the broadcast server's application
(flagfall.broadcast.server.make_app), whose middleware, token and hub it shares:

    GET  /arbiter                       the arbiter's dashboard (the page asks for the token)
    GET  /arbiter/{file}                its script and style
    GET  /api/event                     every board's status, alert, actions; the round's progress (token)
    GET  /api/event/stream              the same, pushed (token): Server-Sent Events, a `dashboard`
                                        message with the whole of GET /api/event each time it changes
    POST /api/event/start               start the clock on every board not yet started (token)
    POST /api/event/board/{b}           an arbiter action on a board, carried out live (token): a
                                        command of docs/live-state.md, a forfeit result (+/- -/+ -/-),
                                        pause or resume; 422 refused (an illegal result ...), 409 the
                                        device is unplugged or silent and cannot carry it out, or the
                                        board's state refuses it now (a penalty with no illegal-move
                                        alert up: the reason says so)
    POST /api/event/board/{b}/start-from-device   a board quarantined by a damaged journal: keep the
                                        journal aside, begin a new one, follow the device (token)
    POST /api/event/round-files         write OUT/round-R.pgn and the TRF of results now (token)
    POST /api/event/round               load the next round ({"round": R} optional) from the pairings
                                        file, which the pairing program has rewritten (token); 409
                                        with the unfinished boards listed while games go on, unless
                                        {"unfinished": "adjourn"|"forfeit"} says what becomes of them

Every board action names who did it ("X-Flagfall-Arbiter" header, else "arbiter") in the board's
history and journal.

States reach the public hub (pages, SSE, the relay feeds /feed/<t>/<R>.pgn)
`delay_s` seconds after they happen (FIDE events delay the public feed by
15 minutes against cheating); the dashboard reads the boards directly, so
the arbiter always sees the live game. The dashboard's page reads them pushed
over its stream (DashboardStream), never by polling. Arbiter actions sent to
/api/board/<t>/<r>/<b>/arbiter (the board page's arbiter panel) reach the same boards, checked by the
same rule (runner.board_action, EventBoard.actions): the page and the API allow the same actions.
"""
from __future__ import annotations

import asyncio
import json
from importlib import resources
from typing import Any, Optional

from aiohttp import web

from flagfall.bridge.arbiter import NotNow
from flagfall.bridge.journal import disk_full
from flagfall.broadcast import api as broadcast_api
from flagfall.broadcast.auth import arbiter_only
from flagfall.broadcast.http_helpers import HUB_KEY, error, read_json
from flagfall.broadcast.hub import BoardRules, Hub
from flagfall.broadcast.pages import CSP
from flagfall.broadcast.sse import HEARTBEAT_S
from flagfall.event import runner
from flagfall.event.board import DeviceUnavailable, EventBoard, State
from flagfall.event.runner import Event

EVENT_KEY = web.AppKey("event", Event)
STATIC = {"arbiter.html": "text/html", "arbiter.js": "application/javascript", "arbiter.css": "text/css"}
MAX_WHO = 40


def who(request: web.Request) -> str:
    """Who acts: the name the dashboard sends (X-Flagfall-Arbiter, percent-encoded UTF-8), else "arbiter"."""
    from urllib.parse import unquote
    text = unquote(request.headers.get("X-Flagfall-Arbiter", "")[:6 * MAX_WHO], errors="replace")
    name = "".join(c for c in text if c.isprintable()).strip()
    return name[:MAX_WHO] or "arbiter"


class DelayedFeed:
    """Hands states to the public hub `delay_s` seconds after they happen (0: at once), in order."""

    def __init__(self, hub: Hub, loop: asyncio.AbstractEventLoop, delay_s: float = 0.0) -> None:
        self.hub = hub
        self.loop = loop
        self.delay_s = delay_s

    def __call__(self, state: State) -> None:
        """Called from any thread with each new state of a board. A delayed state reaches the public
        with its times (`ts`, `clock.at_ms`) moved on by the delay: pages run its clocks, and count
        the time since its last move, from the moment the public sees it, not from the hall's."""
        if self.delay_s <= 0:
            self.loop.call_soon_threadsafe(self.hub.ingest, state)
        else:
            shift = int(self.delay_s * 1000)
            state = dict(state, ts=state["ts"] + shift)
            if isinstance(state.get("clock"), dict):
                state["clock"] = dict(state["clock"], at_ms=state["clock"]["at_ms"] + shift)
            # mypy cannot match the generic call_later (a TypeVarTuple callback) as call_soon_threadsafe's callback
            self.loop.call_soon_threadsafe(self.loop.call_later, self.delay_s, self.hub.ingest, state)  # type: ignore[arg-type]


class DashboardStream:
    """The dashboard pushed to every arbiter's page over Server-Sent Events: a `dashboard` message with
    the whole of Event.dashboard() (GET /api/event's answer) each time it changes.

    The event says when it may have changed (Event.changed: a board's state published, an incident, an
    arbiter's action); the dashboard is then made once, at most every MIN_S, for all the pages open, and
    sent only if it differs from the last one sent (its `now` aside). It is also made every IDLE_S while
    nothing is said, for what changes with time alone (a port that never answers, a device silent).
    Made only while a page listens."""

    MIN_S = 0.1
    IDLE_S = 1.0

    def __init__(self, event: Event) -> None:
        self.event = event
        self.message = b""              # the last `dashboard` message, as sent
        self.version = 0                # counts the messages made
        self.listeners = 0
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.nudge = asyncio.Event()
        self.updated = asyncio.Event()  # set (and replaced) when a new message is made
        self.fresh = False              # a page has joined: send the next one even if nothing changed
        self.closed = False             # the server stops: every page's stream ends
        self.task: Optional[asyncio.Task[None]] = None
        event.on_change.append(self.changed)

    def changed(self) -> None:
        """From any thread: the dashboard may have changed."""
        loop = self.loop
        if loop is not None and self.listeners > 0:
            try:
                loop.call_soon_threadsafe(self.nudge.set)
            except RuntimeError:     # the loop has closed (the server stopped): no page to tell
                pass

    def join(self) -> None:
        """A page listens (on the event loop): the dashboard is made for it at once."""
        self.loop = asyncio.get_running_loop()
        self.listeners += 1
        self.fresh = True
        self.nudge.set()
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self._run())

    def leave(self) -> None:
        self.listeners -= 1
        self.nudge.set()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        last: Optional[str] = None
        while self.listeners > 0 and not self.closed:
            self.nudge.clear()
            d = await loop.run_in_executor(None, self.event.dashboard)
            now = d.pop("now")
            same = json.dumps(d)
            if same != last or self.fresh:
                self.fresh = False
                last = same
                d["now"] = now
                self.message = ("event: dashboard\ndata: %s\n\n" % json.dumps(d)).encode()
                self.version += 1
                self.updated.set()
                self.updated = asyncio.Event()
            try:
                await asyncio.wait_for(self.nudge.wait(), self.IDLE_S)
            except asyncio.TimeoutError:
                pass
            await asyncio.sleep(self.MIN_S)

    async def close(self) -> None:
        """End every page's stream and stop making the dashboard (the server stops)."""
        self.closed = True
        self.updated.set()
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - closing: its failure is no news
                pass


STREAM_KEY = web.AppKey("dashboard_stream", DashboardStream)


def _file(name: str) -> bytes:
    return resources.files("flagfall.event").joinpath("static", name).read_bytes()


async def arbiter_page(request: web.Request) -> web.Response:
    return web.Response(body=_file("arbiter.html"), content_type="text/html",
                        headers={"Content-Security-Policy": CSP, "Cache-Control": "no-cache"})


async def arbiter_static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC:
        raise web.HTTPNotFound(text="no file %s" % name[:80])
    return web.Response(body=_file(name), content_type=STATIC[name], headers={"Cache-Control": "no-cache"})


@arbiter_only
async def api_event(request: web.Request) -> web.Response:
    ev = request.app[EVENT_KEY]
    data = await asyncio.get_running_loop().run_in_executor(None, ev.dashboard)
    return web.json_response(data, headers={"Cache-Control": "no-store"})


@arbiter_only
async def api_event_stream(request: web.Request) -> web.StreamResponse:
    """The dashboard pushed (DashboardStream); a heartbeat comment keeps an idle stream open."""
    stream = request.app[STREAM_KEY]
    resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                       "X-Content-Type-Options": "nosniff", "X-Accel-Buffering": "no"})
    stream.join()
    try:
        await resp.prepare(request)
        await resp.write(b"retry: 2000\n\n")
        sent = 0
        while not stream.closed:
            waiter = stream.updated
            if stream.version != sent:
                sent = stream.version
                await resp.write(stream.message)
                continue
            try:
                await asyncio.wait_for(waiter.wait(), HEARTBEAT_S)
            except asyncio.TimeoutError:
                await resp.write(b": heartbeat\n\n")
    except (ConnectionResetError, asyncio.CancelledError, RuntimeError):
        pass
    finally:
        stream.leave()
    return resp


@arbiter_only
async def api_start(request: web.Request) -> web.Response:
    ev = request.app[EVENT_KEY]
    n = await asyncio.get_running_loop().run_in_executor(None, ev.start_clocks)
    return web.json_response({"ok": True, "started": n})


@arbiter_only
async def api_round_files(request: web.Request) -> web.Response:
    ev = request.app[EVENT_KEY]
    try:
        paths = await asyncio.get_running_loop().run_in_executor(None, ev.write_round_files)
    except OSError as e:        # a full disk: 507 Insufficient Storage (the games are kept; ask again later)
        return error(507 if disk_full(e) else 500, "cannot write the round's files: %s" % (e.strerror or e))
    return web.json_response({"ok": True, "written": paths})


def _board_of(request: web.Request) -> tuple[Optional[EventBoard], Optional[web.Response]]:
    """(the board the URL names, None), or (None, a 404 saying why)."""
    try:
        return request.app[EVENT_KEY].board(int(request.match_info["b"])), None
    except (KeyError, ValueError) as e:
        return None, error(404, str(e).strip("'\""))


@arbiter_only
async def api_board_action(request: web.Request) -> web.Response:
    board, missing = _board_of(request)
    if missing is not None:
        return missing
    assert board is not None
    obj, bad = await read_json(request)
    if bad is not None:
        return bad
    try:
        cmd = runner.board_action(obj)
    except ValueError as e:
        return error(400, str(e))
    try:
        reply = await asyncio.get_running_loop().run_in_executor(None, board.command, cmd, who(request))
    except (DeviceUnavailable, NotNow) as e:
        return error(409, str(e).strip("'\""))
    except ValueError as e:
        return error(422, "board %d refused the action: %s" % (board.number, e))
    return web.json_response({"ok": True, "board": board.number, "action": cmd["action"], "reply": reply})


@arbiter_only
async def api_board_start_from_device(request: web.Request) -> web.Response:
    board, missing = _board_of(request)
    if missing is not None:
        return missing
    assert board is not None
    try:
        reply = await asyncio.get_running_loop().run_in_executor(None, board.start_from_device)
    except (OSError, ValueError) as e:
        return error(422, str(e)[:500])
    return web.json_response({"ok": True, "board": board.number, "action": "start_from_device", "reply": reply})


@arbiter_only
async def api_round(request: web.Request) -> web.Response:
    ev = request.app[EVENT_KEY]
    obj, bad = await read_json(request, empty_ok=True)
    if bad is not None:
        return bad
    number = obj.get("round") if isinstance(obj, dict) else None
    if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
        return error(400, "'round' must be a round number (1 or more)")
    unfinished = obj.get("unfinished") if isinstance(obj, dict) else None
    if unfinished is not None and unfinished not in runner.UNFINISHED_CHOICES:
        return error(400, "'unfinished' must be one of %s" % ", ".join(runner.UNFINISHED_CHOICES))
    try:
        rnd = await asyncio.get_running_loop().run_in_executor(None, ev.next_round, number, unfinished,
                                                               who(request))
    except runner.RoundUnfinished as e:
        return web.json_response({"error": str(e), "unfinished": e.boards}, status=409)
    except (OSError, ValueError) as e:
        return error(422, str(e)[:500])
    return web.json_response({"ok": True, "round": rnd.round, "boards": len(rnd.boards)})


def _register_boards(app: web.Application, event: Event) -> None:
    hub = app[HUB_KEY]
    for n, b in event.boards.items():
        key = (event.tournament, str(event.round.round), str(n))

        async def handler(cmd: dict[str, Any], board: EventBoard = b) -> dict[str, Any]:
            return await asyncio.get_running_loop().run_in_executor(None, board.command, cmd)
        hub.command_handlers[key] = handler
        # the board page's arbiter panel takes the dashboard's actions, by the same rule (forfeits too)
        hub.command_rules[key] = BoardRules(runner.board_action, b.actions)


def dashboard_page_app() -> web.Application:
    """The dashboard's page and its files, mounted at /arbiter (the page asks for the token itself)."""
    app = web.Application()
    app.router.add_get("", arbiter_page)
    app.router.add_get("/{name}", arbiter_static)
    return app


def dashboard_api_app(event: Event) -> web.Application:
    """The dashboard's API on an event's boards (token), mounted at /api/event."""
    app = web.Application()
    app[EVENT_KEY] = event
    stream = app[STREAM_KEY] = DashboardStream(event)

    async def close_stream(_: web.Application) -> None:
        await stream.close()
    app.on_shutdown.append(close_stream)
    app.router.add_get("", api_event)
    app.router.add_get("/stream", api_event_stream)
    app.router.add_post("/start", api_start)
    app.router.add_post("/round-files", api_round_files)
    app.router.add_post("/board/{b:[0-9]{1,4}}", api_board_action)
    app.router.add_post("/round", api_round)
    app.router.add_post("/board/{b:[0-9]{1,4}}/start-from-device", api_board_start_from_device)
    return app


def attach(app: web.Application, event: Event) -> None:
    """Mount the dashboard (its page and its API) on a broadcast application, and route each board's
    arbiter actions from /api/board/<t>/<r>/<b>/arbiter to the board."""
    if event.pairings_path:         # a TRF's earlier results start the public standings
        app[broadcast_api.STANDINGS_TRF_KEY] = event.pairings_path
    if event.team_tiebreaks:
        app[broadcast_api.TEAM_TIEBREAKS_KEY] = event.team_tiebreaks
    if event.scoring:
        app[broadcast_api.STANDINGS_SCORING_KEY] = event.scoring
    app.add_subapp("/arbiter", dashboard_page_app())
    app.add_subapp("/api/event", dashboard_api_app(event))
    _register_boards(app, event)
    event.on_round.append(lambda ev: _register_boards(app, ev))
