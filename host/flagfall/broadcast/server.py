"""The broadcast web server (aiohttp): pages, live stream, feeds, JSON API, arbiter actions.

    GET  /                                 tournament page (every board; ?t=&r= to narrow)
    GET  /board/<t>/<r>/<b>                one board with its move list
    GET  /static/<file>                    the page files (a fixed list)
    GET  /api/boards[?t=&r=]               every board's state without record text
    GET  /api/board/<t>/<r>/<b>            one board's full state
    GET  /api/stream[?t=&r=&b=]            Server-Sent Events: `hello`, then `s` per board change
    GET  /api/health                       counters
    GET  /feed/<t>/<r>.pgn | .pdn          live record of every chess / draughts game of a round
    GET  /feed/<t>/<r>/<b>.pgn | .pdn      one game; .txt gives the bridge's own record text
    POST /api/board/<t>/<r>/<b>/arbiter    arbiter action; needs `Authorization: Bearer <token>`

Viewing needs nothing; arbiter actions need the token. Every rejected request
gets a JSON body {"error": "..."} saying why.
"""
import asyncio
import hashlib
import hmac
import json
import logging
import os
import secrets

from aiohttp import web

from flagfall import live
from flagfall.broadcast import feeds
from flagfall.broadcast.hub import Hub

log = logging.getLogger("flagfall.broadcast")

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
STATIC_FILES = {
    "index.html": "text/html", "board.html": "text/html",
    "app.js": "application/javascript", "clockfmt.js": "application/javascript",
    "style.css": "text/css", "favicon.svg": "image/svg+xml",
}
MAX_BODY = 4096             # bytes of an arbiter request
MAX_REQUEST = 16 * 1024     # any request body at all
HEARTBEAT_S = 15
SLUG = "{%s:[A-Za-z0-9_-]{1,64}}"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")

HUB_KEY = web.AppKey("hub", Hub)
TOKEN_KEY = web.AppKey("token", str)
CACHE_KEY = web.AppKey("static_cache", dict)


def error(status, text, headers=None):
    """A JSON error response: {"error": text}."""
    return web.json_response({"error": text}, status=status, headers=headers)


@web.middleware
async def errors_middleware(request, handler):
    """Turn every HTTP error (unknown route, wrong method, oversized body) into a JSON error."""
    try:
        resp = await handler(request)
    except web.HTTPException as e:
        if e.status < 400:
            raise
        text = e.text if e.text and not e.text.startswith("%d:" % e.status) else None
        if e.status == 404:
            text = text or "not found: %s (see / for the boards, /api/boards for the API)" % request.path[:200]
        elif e.status == 405:
            text = text or "method %s not allowed on %s" % (request.method, request.path[:200])
        elif e.status == 413:
            text = "request body too large (limit %d bytes)" % MAX_REQUEST
        return error(e.status, text or e.reason, headers={k: v for k, v in e.headers.items()
                                                           if k in ("Allow", "WWW-Authenticate")})
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    return resp


def _key(request):
    m = request.match_info
    return (m["t"], m["r"], m["b"])


def _query_filter(request):
    out = []
    for name in ("t", "r", "b"):
        v = request.query.get(name)
        if v is not None and not live.SLUG.fullmatch(v):
            raise web.HTTPBadRequest(text="query %s=%r is not a slug (A-Z a-z 0-9 _ -, 1-64)" % (name, v[:80]))
        out.append(v)
    return out


def _cors(resp):
    resp.headers["Access-Control-Allow-Origin"] = "*"
    return resp


# -- pages -----------------------------------------------------------------

def _static_bytes(app, name):
    cache = app[CACHE_KEY]
    if name not in cache:
        with open(os.path.join(STATIC_DIR, name), "rb") as f:
            data = f.read()
        cache[name] = (data, '"%s"' % hashlib.sha256(data).hexdigest()[:16])
    return cache[name]


def _serve_static(request, name):
    data, etag = _static_bytes(request.app, name)
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers={"ETag": etag})
    resp = web.Response(body=data, content_type=STATIC_FILES[name], headers={"ETag": etag, "Cache-Control": "no-cache"})
    if name.endswith(".html"):
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


async def index_page(request):
    return _serve_static(request, "index.html")


async def board_page(request):
    return _serve_static(request, "board.html")


async def static_file(request):
    name = request.match_info["name"]
    if name not in STATIC_FILES:
        return error(404, "no such page file: %r" % name[:80])
    return _serve_static(request, name)


# -- JSON API --------------------------------------------------------------

async def api_boards(request):
    t, r, b = _query_filter(request)
    hub = request.app[HUB_KEY]
    out = []
    for key in hub.matching(t, r, b):
        st = dict(hub.get(key))
        st.pop("pgn", None)
        out.append(st)
    return _cors(web.json_response({"now": live.now_ms(), "boards": out}, dumps=live.dumps))


async def api_board(request):
    st = request.app[HUB_KEY].get(_key(request))
    if st is None:
        return error(404, "no board %s" % "/".join(_key(request)))
    return _cors(web.json_response(st, dumps=live.dumps))


async def api_health(request):
    d = request.app[HUB_KEY].stats()
    d["now"] = live.now_ms()
    return web.json_response(d)


async def api_stream(request):
    """Server-Sent Events: one `hello` with the server time, then `s` for every board change."""
    t, r, b = _query_filter(request)
    hub = request.app[HUB_KEY]
    try:
        viewer = hub.subscribe(t, r, b)
    except OverflowError as e:
        return error(503, str(e))
    resp = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache",
        "X-Accel-Buffering": "no", "Access-Control-Allow-Origin": "*"})
    direct = request.version >= (1, 1)
    if direct:
        resp.enable_chunked_encoding()
    try:
        await resp.prepare(request)
        hello = {"now": live.now_ms(), "filter": {"t": t, "r": r, "b": b}}
        # this first write also sends the headers; after it the hub may write the socket itself
        await resp.write(("retry: 2000\nevent: hello\ndata: %s\n\n" % json.dumps(hello)).encode())
        transport = request.transport
        if direct and transport is not None:
            hub.attach_writer(viewer, _chunk_writer(hub, transport))
        while not viewer.closed:
            try:
                await asyncio.wait_for(viewer.wake.wait(), HEARTBEAT_S)
            except asyncio.TimeoutError:
                if direct:
                    if transport.is_closing():
                        break
                    _write_chunk(transport, (": %d\n\n" % live.now_ms()).encode())
                else:
                    await resp.write((": %d\n\n" % live.now_ms()).encode())
                continue
            viewer.wake.clear()
            if not direct:
                data = viewer.take(hub)
                if data:
                    await resp.write(data)
    except (ConnectionResetError, asyncio.CancelledError, RuntimeError):
        pass
    finally:
        hub.unsubscribe(viewer)
    return resp


HIGH_WATER = 256 * 1024     # bytes queued for one viewer before it counts as slow


def _write_chunk(transport, data):
    # the response uses chunked transfer encoding: frame the bytes as aiohttp would
    transport.write(b"%x\r\n%s\r\n" % (len(data), data))


def _chunk_writer(hub, transport):
    def write(viewer):
        if transport.is_closing():
            viewer.closed = True
            viewer.wake.set()
            return True
        if transport.get_write_buffer_size() > HIGH_WATER:
            return False
        data = viewer.take(hub)
        if data:
            _write_chunk(transport, data)
        return True
    return write


# -- feeds -----------------------------------------------------------------

def _feed_response(request, text, fmt):
    etag = '"%s"' % hashlib.sha256(text.encode()).hexdigest()[:20]
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*"}
    if request.headers.get("If-None-Match") == etag:
        return web.Response(status=304, headers=headers)
    ctype = {"pgn": "application/x-chess-pgn", "pdn": "text/plain", "txt": "text/plain"}[fmt]
    return web.Response(text=text, content_type=ctype, charset="utf-8", headers=headers)


async def feed_round(request):
    m = request.match_info
    fmt = m["fmt"]
    hub = request.app[HUB_KEY]
    keys = hub.matching(m["t"], m["r"])
    if not keys:
        return error(404, "no boards in round %s/%s" % (m["t"], m["r"]))
    states = [hub.get(k) for k in keys]
    states = [s for s in states if feeds.format_for(s["game"]) == fmt]
    return _feed_response(request, feeds.feed_text(states), fmt)


async def feed_board(request):
    fmt = request.match_info["fmt"]
    st = request.app[HUB_KEY].get(_key(request))
    if st is None:
        return error(404, "no board %s" % "/".join(_key(request)))
    if fmt == "txt":
        return _feed_response(request, st["pgn"], fmt)
    want = feeds.format_for(st["game"])
    if want != fmt:
        return error(404, "board %s plays %s: its record is %s" % (
            "/".join(_key(request)), st["game"], ("/feed/%s.%s" % ("/".join(_key(request)), want)) if want else "the .txt feed"))
    return _feed_response(request, feeds.record_text(st), fmt)


# -- arbiter ---------------------------------------------------------------

def check_token(request):
    """None if the request carries the arbiter token, else the error response to send."""
    auth = request.headers.get("Authorization", "")
    if not auth:
        return error(401, "arbiter actions need a token: send 'Authorization: Bearer <token>'",
                     headers={"WWW-Authenticate": 'Bearer realm="flagfall arbiter"'})
    scheme, _, given = auth.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return error(401, "the Authorization header must be 'Bearer <token>'",
                     headers={"WWW-Authenticate": 'Bearer realm="flagfall arbiter"'})
    if not hmac.compare_digest(given.strip().encode(), request.app[TOKEN_KEY].encode()):
        return error(403, "wrong arbiter token")
    return None


async def arbiter(request):
    bad = check_token(request)
    if bad is not None:
        return bad
    key = _key(request)
    hub = request.app[HUB_KEY]
    if hub.get(key) is None:
        return error(404, "no board %s" % "/".join(key))
    ctype = request.headers.get("Content-Type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        return error(415, "the body must be JSON (Content-Type: application/json)")
    if request.content_length is not None and request.content_length > MAX_BODY:
        return error(413, "arbiter request body too large (limit %d bytes)" % MAX_BODY)
    body = await request.content.read(MAX_BODY + 1)
    if len(body) > MAX_BODY:
        return error(413, "arbiter request body too large (limit %d bytes)" % MAX_BODY)
    try:
        obj = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        return error(400, "the body is not valid JSON: %s" % str(e)[:200])
    try:
        cmd = live.validate_command(obj)
    except ValueError as e:
        return error(400, str(e))
    try:
        reply = await asyncio.wait_for(hub.command(key, cmd), 10)
    except LookupError as e:
        return error(409, str(e))
    except ValueError as e:
        return error(422, "the bridge refused the action: %s" % e)
    except asyncio.TimeoutError:
        return error(504, "the bridge did not answer within 10 s")
    log.info("arbiter %s on %s: %s", cmd["action"], "/".join(key), reply)
    return web.json_response({"ok": True, "board": "/".join(key), "action": cmd["action"], "reply": reply})


# -- the application -------------------------------------------------------

def make_app(hub=None, token=None):
    """The aiohttp application around a hub; token is the arbiter token (random if not given)."""
    app = web.Application(middlewares=[errors_middleware], client_max_size=MAX_REQUEST)
    app[HUB_KEY] = hub if hub is not None else Hub()
    app[TOKEN_KEY] = token or new_token()
    app[CACHE_KEY] = {}
    tb = "/%s/%s/%s" % (SLUG % "t", SLUG % "r", SLUG % "b")
    app.router.add_get("/", index_page)
    app.router.add_get("/board" + tb, board_page)
    app.router.add_get("/static/{name}", static_file)
    app.router.add_get("/api/boards", api_boards)
    app.router.add_get("/api/board" + tb, api_board)
    app.router.add_get("/api/stream", api_stream)
    app.router.add_get("/api/health", api_health)
    app.router.add_get("/feed/%s/%s.{fmt:pgn|pdn}" % (SLUG % "t", SLUG % "r"), feed_round)
    app.router.add_get("/feed" + tb + ".{fmt:pgn|pdn|txt}", feed_board)
    app.router.add_post("/api/board" + tb + "/arbiter", arbiter)
    app.on_shutdown.append(_close_viewers)
    return app


async def _close_viewers(app):
    hub = app[HUB_KEY]
    for vs in list(hub.subs.values()):
        for v in list(vs):
            hub.unsubscribe(v)


def new_token():
    """A fresh random arbiter token."""
    return secrets.token_urlsafe(18)


def hub_of(app):
    """The hub of an application made by make_app."""
    return app[HUB_KEY]


def token_of(app):
    """The arbiter token of an application made by make_app."""
    return app[TOKEN_KEY]


async def start(app, host="127.0.0.1", port=8080):
    """Start serving app; returns the AppRunner (await runner.cleanup() to stop)."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port, backlog=2048)
    await site.start()
    if app[HUB_KEY].loop is None:
        app[HUB_KEY].loop = asyncio.get_running_loop()
    return runner


def bound_port(runner):
    """The TCP port a started runner listens on (useful with port 0)."""
    for site in runner.sites:
        return site._server.sockets[0].getsockname()[1]
    raise RuntimeError("runner has no site")


async def until_stopped(coro):
    """Run coro until it ends or SIGINT/SIGTERM cancels it; a signal is a clean stop, not an error."""
    import signal
    task = asyncio.ensure_future(coro)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, task.cancel)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await task
    except asyncio.CancelledError:
        pass
