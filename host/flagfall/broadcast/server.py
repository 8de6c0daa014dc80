"""The broadcast web server (aiohttp): pages, live stream, feeds, JSON API, arbiter actions.

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
    GET  /api/board/<t>/<r>/<b>/alert      the full text of a board's alert (token; the public sees
                                           only "arbiter at the board")
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
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
from typing import Any, Awaitable, Callable, Mapping, Optional, TypeVar, cast

from aiohttp import web, web_protocol
from aiohttp.typedefs import Handler

from flagfall import live, records
from flagfall.secretfile import read_secret
from flagfall.broadcast import feeds
from flagfall.broadcast.hub import BoardKey, Entry, History, Hub
from flagfall.broadcast.hub import chunked as hub_chunked
from flagfall.tournament import pairings, standings, trf

log = logging.getLogger("flagfall.broadcast")

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
STATIC_FILES = {
    "index.html": "text/html", "board.html": "text/html",
    "app.js": "application/javascript", "clockfmt.js": "application/javascript",
    "pieces.js": "application/javascript",
    "style.css": "text/css", "favicon.svg": "image/svg+xml",
}
MAX_BODY = 4096             # bytes of an arbiter request
MAX_REQUEST = 16 * 1024     # any request body at all
HEARTBEAT_S = 15
HEADER_TIMEOUT_S = 10       # a request head must be complete this soon after the connection opens / its first byte
BODY_TIMEOUT_S = 10         # an arbiter request's body must arrive within this
MAX_PER_CLIENT = 64         # connections at once from one address (loopback, i.e. a local reverse proxy, is exempt)
SLUG = "{%s:[A-Za-z0-9_-]{1,64}}"
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
EMBED_ANCESTORS = "*"
"""Who may frame a page asked for with ?embed=1 (a board or a round overview) unless make_app is told
otherwise: any site (the embedded view has no arbiter panel); the pages without ?embed=1 are never framed."""
FLAGS_DIR = os.path.join(STATIC_DIR, "flags")
COMPRESS_MIN = 512          # static files smaller than this are sent as they are
ROUNDS_MIN_S = 1.0          # the list of rounds is made at most this often

HUB_KEY = web.AppKey("hub", Hub)
TOKEN_KEY = web.AppKey("token", str)
CACHE_KEY: web.AppKey[dict[str, StaticFile]] = web.AppKey("static_cache", dict)   # name -> the file, read once
ANCESTORS_KEY = web.AppKey("frame_ancestors", str)
STANDINGS_CACHE_KEY: web.AppKey[dict[object, Any]] = web.AppKey("standings_cache", dict)   # TRF, tables, rounds made
STANDINGS_TRF_KEY = web.AppKey("standings_trf", str)   # the event's pairing file: a TRF's results start the standings
FEED_KEY: web.AppKey[dict[tuple[str, str, str], FeedCache]] = web.AppKey("feed_cache", dict)   # (t, r, fmt) -> feed

_R = TypeVar("_R", bound=web.StreamResponse)


def error(status: int, text: str, headers: Optional[Mapping[str, str]] = None) -> web.Response:
    """A JSON error response: {"error": text}."""
    return web.json_response({"error": text}, status=status, headers=headers)


@web.middleware
async def errors_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every HTTP error (unknown route, wrong method, oversized body) into a JSON error; nosniff on all."""
    guard = _guard_of(request)
    if guard is not None:
        guard.request_started()
    try:
        resp = await _handle(request, handler)
    finally:
        if guard is not None:
            guard.request_done()
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    return resp


async def _handle(request: web.Request, handler: Handler) -> web.StreamResponse:
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
    return resp


def _key(request: web.Request) -> BoardKey:
    m = request.match_info
    return (m["t"], m["r"], m["b"])


def _query_filter(request: web.Request) -> list[Optional[str]]:
    out: list[Optional[str]] = []
    for name in ("t", "r", "b"):
        v = request.query.get(name)
        if v is not None and not live.SLUG.fullmatch(v):
            raise web.HTTPBadRequest(text="query %s=%r is not a slug (A-Z a-z 0-9 _ -, 1-64)" % (name, v[:80]))
        out.append(v)
    return out


def _cors(resp: _R) -> _R:
    resp.headers["Access-Control-Allow-Origin"] = "*"
    return resp


# -- pages -----------------------------------------------------------------

class StaticFile:
    """A page file read once: its bytes, their gzip form (made once, when worth it) and its ETag."""

    __slots__ = ("data", "gzipped", "etag", "content_type")

    def __init__(self, path: str, content_type: str) -> None:
        with open(path, "rb") as f:
            self.data = f.read()
        self.content_type = content_type
        self.etag = '"%s"' % hashlib.sha256(self.data).hexdigest()[:16]
        self.gzipped: Optional[bytes] = None
        if len(self.data) >= COMPRESS_MIN:
            import gzip
            packed = gzip.compress(self.data, compresslevel=9, mtime=0)
            if len(packed) < len(self.data):
                self.gzipped = packed


def _static_file(app: web.Application, name: str, path: str, content_type: str) -> StaticFile:
    cache = app[CACHE_KEY]
    f = cache.get(name)
    if f is None:
        f = cache[name] = StaticFile(path, content_type)
    return f


def _send_static(request: web.Request, f: StaticFile) -> web.Response:
    headers = {"ETag": f.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    if _etag_matches(request, f.etag):
        return web.Response(status=304, headers=headers)
    if f.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
        headers["Content-Encoding"] = "gzip"
        return web.Response(body=f.gzipped, content_type=f.content_type, headers=headers)
    return web.Response(body=f.data, content_type=f.content_type, headers=headers)


def _serve_static(request: web.Request, name: str) -> web.Response:
    resp = _send_static(request, _static_file(request.app, name, os.path.join(STATIC_DIR, name), STATIC_FILES[name]))
    if name.endswith(".html"):
        embed = request.query.get("embed") == "1"
        ancestors = request.app[ANCESTORS_KEY] if embed else "'none'"
        resp.headers["Content-Security-Policy"] = CSP.replace("frame-ancestors 'none'", "frame-ancestors " + ancestors)
        resp.headers["Referrer-Policy"] = "no-referrer" if not embed else "strict-origin-when-cross-origin"
    return resp


async def index_page(request: web.Request) -> web.Response:
    return _serve_static(request, "index.html")


async def board_page(request: web.Request) -> web.Response:
    return _serve_static(request, "board.html")


async def static_file(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    if name not in STATIC_FILES:
        return error(404, "no such page file: %r" % name[:80])
    return _serve_static(request, name)


async def flag_licence(request: web.Request) -> web.Response:
    """The licence of the shipped flags (flag-icons, MIT)."""
    return _send_static(request, _static_file(request.app, "flags/LICENSE", os.path.join(FLAGS_DIR, "LICENSE"),
                                              "text/plain"))


async def flag_file(request: web.Request) -> web.Response:
    """A federation's flag, by its FIDE code (flags/index.json says which are shipped)."""
    code = request.match_info["code"]
    path = os.path.join(FLAGS_DIR, code + ".svg")
    if not os.path.isfile(path):
        return error(404, "no flag for %r" % code[:10])
    resp = _send_static(request, _static_file(request.app, "flags/" + code, path, "image/svg+xml"))
    resp.headers["Cache-Control"] = "public, max-age=86400"     # a flag does not change while a server runs
    return resp


# -- JSON API --------------------------------------------------------------

async def api_boards(request: web.Request) -> web.Response:
    t, r, b = _query_filter(request)
    hub = request.app[HUB_KEY]
    out = []
    for key in hub.matching(t, r, b):
        st = dict(hub.boards[key].state)
        st.pop("pgn", None)
        out.append(st)
    return _cors(web.json_response({"now": live.now_ms(), "boards": out}, dumps=live.dumps))


async def api_board(request: web.Request) -> web.Response:
    st = request.app[HUB_KEY].get(_key(request))
    if st is None:
        return error(404, "no board %s" % "/".join(_key(request)))
    return _cors(web.json_response(st, dumps=live.dumps))


def _entry(request: web.Request) -> Entry:
    e = request.app[HUB_KEY].boards.get(_key(request))
    if e is None:
        raise web.HTTPNotFound(text="no board %s" % "/".join(_key(request)))
    return e


def _plies(history: History) -> list[Optional[dict[str, Any]]]:
    return [None if p is None else {"grid": p[0].split("/"), "last_move": p[1]} for p in history]


async def api_plies(request: web.Request) -> web.Response:
    """The position after each ply of the board's game, as far as the states seen tell (null where not)."""
    e = _entry(request)
    return _cors(web.json_response({"k": e.k, "seq": e.seq, "plies": _plies(e.history)}, dumps=live.dumps))


def _game_line(st: live.Message, index: Optional[int] = None) -> dict[str, Any]:
    tags = st.get("tags") or {}
    d = {"White": tags.get("White", "?"), "Black": tags.get("Black", "?"), "result": st["result"],
         "status": st["status"], "moves": len(st["moves"]), "ts": st["ts"]}
    if index is not None:
        d["index"] = index
    return d


async def api_games(request: web.Request) -> web.Response:
    """A board's finished earlier games (oldest first) and the current one."""
    e = _entry(request)
    return _cors(web.json_response({"k": e.k, "games": [_game_line(st, i) for i, (st, _) in enumerate(e.archive)],
                                    "current": _game_line(e.state)}))


async def api_game(request: web.Request) -> web.Response:
    """One of a board's earlier games: its last state (with the record text) and `plies` (as /plies)."""
    e = _entry(request)
    i = request.match_info["n"]
    if not i.isdigit() or int(i) >= len(e.archive):
        return error(404, "board %s has no earlier game %s (it has %d)" % (e.k, i[:10], len(e.archive)))
    st, hist = e.archive[int(i)]
    st = dict(st)
    st["k"] = e.k
    st["plies"] = _plies(hist)
    return _cors(web.json_response(st, dumps=live.dumps))


async def api_round(request: web.Request) -> web.Response:
    """Every board of a round, in board order: players, result, clocks, and its earlier games."""
    m = request.match_info
    hub = request.app[HUB_KEY]
    out = []
    for key in hub.matching(m["t"], m["r"]):
        e = hub.boards[key]
        line = _game_line(e.state)
        line.update({"k": e.k, "board": key[2], "clock": e.state["clock"], "game": e.state["game"],
                     "side_names": e.state.get("side_names"),
                     "earlier": [_game_line(st, i) for i, (st, _) in enumerate(e.archive)]})
        out.append(line)
    if not out:
        return error(404, "no boards in round %s/%s" % (m["t"], m["r"]))
    return _cors(web.json_response({"now": live.now_ms(), "boards": out}, dumps=live.dumps))


async def api_rounds(request: web.Request) -> web.Response:
    """The rounds held (of one tournament with ?t=), in order: boards, finished games, games playing."""
    t, _, _ = _query_filter(request)
    hub = request.app[HUB_KEY]
    cache = request.app[STANDINGS_CACHE_KEY]
    now = asyncio.get_running_loop().time()
    made = cache.get(("rounds", t))
    if made is not None and now - made[0] < ROUNDS_MIN_S:     # every page asks every 20-30 s: made once a second
        return _cors(web.Response(body=made[1], content_type="application/json"))
    rounds: dict[tuple[str, str], dict[str, Any]] = {}
    for key in hub.matching(t):
        st = hub.boards[key].state
        d = rounds.setdefault(key[:2], {"t": key[0], "r": key[1], "boards": 0, "finished": 0, "games": []})
        d["boards"] += 1
        d["finished"] += st["result"] != "*"
        if st["game"] not in d["games"]:
            d["games"].append(st["game"])
    out = list(rounds.values())
    for d in out:
        d["playing"] = d["boards"] - d["finished"]
    body = json.dumps({"rounds": out}).encode()
    cache[("rounds", t)] = (now, body)
    return _cors(web.Response(body=body, content_type="application/json"))


def _standings_trf(app: web.Application) -> tuple[Optional[Any], object]:
    """(the event's TRF parsed, or None; what identifies its version): read again only when it changes."""
    path = app.get(STANDINGS_TRF_KEY)
    if not path:
        return None, None
    cache = app[STANDINGS_CACHE_KEY]
    try:
        st = os.stat(path)
        version = (path, st.st_mtime_ns, st.st_size)
        if cache.get("trf-version") != version:
            text = records.read_text(path)
            cache["trf"] = trf.parse_trf(text, path) if pairings.kind_of(path, text) == "trf" else None
            cache["trf-version"] = version
        return cache["trf"], version
    except (OSError, ValueError) as e:
        log.warning("standings: cannot read the TRF %s: %s", path, e)
        return None, None


async def api_standings(request: web.Request) -> web.Response:
    """The standings after round r: one table per game played in the tournament (flagfall.tournament.standings)."""
    m = request.match_info
    if not m["r"].isdigit():
        return error(400, "standings need a round number, not %r" % m["r"])
    hub = request.app[HUB_KEY]
    keys = [k for k in hub.matching(m["t"]) if k[1].isdigit() and int(k[1]) <= int(m["r"])]
    if not keys:
        return error(404, "no boards in tournament %s up to round %s" % (m["t"], m["r"]))
    base, base_version = _standings_trf(request.app)
    # made again only when a result (or a pairing) of these rounds changed, not at every move
    fingerprint = (base_version, tuple((k, st["result"], st.get("decision"), st["tags"].get("White"),
                                        st["tags"].get("Black")) for k in keys for st in (hub.boards[k].state,)))
    cache = request.app[STANDINGS_CACHE_KEY]
    made = cache.get(("body",) + _round_of(m))
    if made is not None and made[0] == fingerprint:
        return _cors(web.Response(body=made[1], content_type="application/json"))
    games = standings.games_from_states(hub.boards[k].state for k in keys)
    kinds: list[str] = []
    for g in games:
        if g.game not in kinds:
            kinds.append(g.game)
    tables = [{"game": kind, "rows": standings.table(games, int(m["r"]), base if len(kinds) == 1 else None,
                                                      kind if len(kinds) > 1 else None)} for kind in kinds]
    done = all(hub.boards[k].state["result"] != "*" for k in keys if k[1] == m["r"])
    body = json.dumps({"t": m["t"], "r": m["r"], "complete": done, "tables": tables}).encode()
    cache[("body",) + _round_of(m)] = (fingerprint, body)
    return _cors(web.Response(body=body, content_type="application/json"))


def _round_of(m: Mapping[str, str]) -> tuple[str, str]:
    """(tournament, round) of a matched /api/standings/<t>/<r>."""
    return (m["t"], m["r"])


def check_token(request: web.Request) -> Optional[web.Response]:
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


def arbiter_only(handler: Handler) -> Handler:
    """The handler, answered only for requests that carry the arbiter token (check_token)."""
    async def checked(request: web.Request) -> web.StreamResponse:
        bad = check_token(request)
        return bad if bad is not None else await handler(request)
    checked.__doc__ = handler.__doc__
    return checked


@arbiter_only
async def api_arbiter_check(request: web.Request) -> web.Response:
    """200 if the request carries the arbiter token (the page shows its arbiter panel then), with the
    results each game may end with (the registry's scoring; '*' takes a result back)."""
    from flagfall.games import registry
    return web.json_response({"ok": True, "results": {name: list(spec.results) for name, spec in registry.GAMES.items()}})


@arbiter_only
async def api_board_alert(request: web.Request) -> web.Response:
    """The full text of a board's alert (null without one): the arbiter's, never the public's."""
    e = _entry(request)
    return web.json_response({"k": e.k, "alert": e.alert, "status": e.state["status"]},
                             headers={"Cache-Control": "no-store"})


async def api_health(request: web.Request) -> web.Response:
    d = request.app[HUB_KEY].stats()
    d["now"] = live.now_ms()
    return web.json_response(d)


async def api_stream(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: one `hello` with the server time, then `u` frames (every board changed, per tick)."""
    t, r, b = _query_filter(request)
    mode = request.query.get("view", "full")
    if mode not in ("full", "summary"):
        return error(400, "query view=%r: must be full (with move lists) or summary (positions and clocks)" % mode[:40])
    hub = request.app[HUB_KEY]
    try:
        viewer = hub.subscribe(t, r, b, mode)
    except OverflowError as e:
        return error(503, str(e))
    resp = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff",
        "X-Accel-Buffering": "no", "Access-Control-Allow-Origin": "*"})
    direct = request.version >= (1, 1)
    if direct:
        resp.enable_chunked_encoding()
    try:
        await resp.prepare(request)
        hello = {"now": live.now_ms(), "filter": {"t": t, "r": r, "b": b}, "view": mode}
        # this first write also sends the headers; after it the hub may write the socket itself
        await resp.write(("retry: 2000\nevent: hello\ndata: %s\n\n" % json.dumps(hello)).encode())
        transport = request.transport
        if direct and transport is not None:
            hub.attach_writer(viewer, ChunkWriter(transport))
        while not viewer.closed:
            try:
                await asyncio.wait_for(viewer.wake.wait(), HEARTBEAT_S)
            except asyncio.TimeoutError:
                if direct:
                    if transport is None or transport.is_closing():
                        break
                    transport.write(hub_chunked((": %d\n\n" % live.now_ms()).encode()))
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


class ChunkWriter:
    """How the hub writes one viewer's socket directly (the response is chunked: bytes come framed)."""

    __slots__ = ("transport",)

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport

    def closing(self) -> bool:
        return self.transport.is_closing()

    def busy(self) -> bool:
        return self.transport.get_write_buffer_size() > HIGH_WATER

    def write_chunk(self, data: bytes) -> None:
        self.transport.write(data)


# -- feeds -----------------------------------------------------------------

def _feed_response(request: web.Request, text: str, fmt: str) -> web.Response:
    etag = '"%s"' % hashlib.sha256(text.encode()).hexdigest()[:20]
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*"}
    if _etag_matches(request, etag):
        return web.Response(status=304, headers=headers)
    return web.Response(text=text, content_type=FEED_TYPES[fmt], charset="utf-8", headers=headers)


class FeedCache:
    """A round's combined record, made at most every FEED_MIN_S and only when a board of the round changed."""

    __slots__ = ("version", "made", "body", "etag", "gzipped")

    def __init__(self, version: int, made: float, body: bytes, etag: str) -> None:
        self.version, self.made, self.body, self.etag = version, made, body, etag
        self.gzipped: Optional[bytes] = None

    def gzip(self) -> bytes:
        """The body gzip-compressed, made once per version and shared by every relay that accepts it."""
        if self.gzipped is None:
            import gzip
            self.gzipped = gzip.compress(self.body, compresslevel=5, mtime=0)
        return self.gzipped


FEED_MIN_S = 0.5            # a round's feed is rebuilt at most this often (relays poll every few seconds)
FEED_TYPES = {"pgn": "application/x-chess-pgn", "pdn": "text/plain", "txt": "text/plain"}


async def feed_round(request: web.Request) -> web.Response:
    m = request.match_info
    fmt = m["fmt"]
    rk: tuple[str, str] = (m["t"], m["r"])
    hub = request.app[HUB_KEY]
    version = hub.round_version.get(rk)
    if version is None:
        return error(404, "no boards in round %s/%s" % rk)
    cache = request.app[FEED_KEY]
    c = cache.get(rk + (fmt,))
    now = asyncio.get_running_loop().time()
    if c is None or (c.version != version and now - c.made >= FEED_MIN_S):
        entries = [hub.boards[k] for k in hub.matching(rk[0], rk[1])]
        if not entries:
            return error(404, "no boards in round %s/%s" % rk)
        # each board's record is made once per state (Entry.record), the round's text once per change
        body = "\n".join(e.record(feeds.record_text) for e in entries
                         if feeds.format_for(e.state["game"]) == fmt).encode()
        etag = '"%s"' % hashlib.blake2b(body, digest_size=12).hexdigest()
        c = cache[rk + (fmt,)] = FeedCache(version, now, body, etag)
    headers = {"ETag": c.etag, "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*",
               "Vary": "Accept-Encoding"}
    if _etag_matches(request, c.etag):
        return web.Response(status=304, headers=headers)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        # a 1,000-game round is some 230 kB, ten times less compressed: compressed once, sent to all
        headers["Content-Encoding"] = "gzip"
        return web.Response(body=c.gzip(), content_type=FEED_TYPES[fmt], charset="utf-8", headers=headers)
    return web.Response(body=c.body, content_type=FEED_TYPES[fmt], charset="utf-8", headers=headers)


def _etag_matches(request: web.Request, etag: str) -> bool:
    given = request.headers.get("If-None-Match")
    if not given:
        return False
    return given.strip() == "*" or etag in [x.strip() for x in given.split(",")]


async def feed_board(request: web.Request) -> web.Response:
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

async def read_json(request: web.Request, empty_ok: bool = False) -> tuple[Any, Optional[web.Response]]:
    """(the request's JSON body, None), or (None, the error response to send): JSON only, at most
    MAX_BODY bytes, arriving within BODY_TIMEOUT_S, nested within reason. With empty_ok an empty
    body is (None, None)."""
    not_json = error(415, "the body must be JSON (Content-Type: application/json)")
    is_json = request.headers.get("Content-Type", "").split(";")[0].strip().lower() == "application/json"
    if not (is_json or empty_ok):
        return None, not_json
    if request.content_length is not None and request.content_length > MAX_BODY:
        return None, error(413, "arbiter request body too large (limit %d bytes)" % MAX_BODY)
    try:
        body = await asyncio.wait_for(request.content.read(MAX_BODY + 1), BODY_TIMEOUT_S)
    except asyncio.TimeoutError:
        return None, error(408, "the request body did not arrive within %d s" % BODY_TIMEOUT_S,
                           headers={"Connection": "close"})
    if empty_ok and not body.strip():
        return None, None
    if not is_json:
        return None, not_json
    if len(body) > MAX_BODY:
        return None, error(413, "arbiter request body too large (limit %d bytes)" % MAX_BODY)
    try:
        return json.loads(body.decode("utf-8")), None
    except (UnicodeDecodeError, ValueError) as e:
        return None, error(400, "the body is not valid JSON: %s" % str(e)[:200])
    except RecursionError:
        return None, error(400, "the body is not valid JSON: nested too deep")


async def read_command(request: web.Request) -> tuple[Optional[dict[str, Any]], Optional[web.Response]]:
    """(a validated arbiter command of docs/live-state.md, None), or (None, the error response)."""
    obj, bad = await read_json(request)
    if bad is not None:
        return None, bad
    try:
        return live.validate_command(obj), None
    except ValueError as e:
        return None, error(400, str(e))


@arbiter_only
async def arbiter(request: web.Request) -> web.Response:
    key = _key(request)
    hub = request.app[HUB_KEY]
    if hub.get(key) is None:
        return error(404, "no board %s" % "/".join(key))
    cmd, bad = await read_command(request)
    if bad is not None:
        return bad
    assert cmd is not None
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

def make_app(hub: Optional[Hub] = None, token: Optional[str] = None,
             frame_ancestors: Optional[str] = None) -> web.Application:
    """The aiohttp application around a hub; token is the arbiter token (random if not given);
    frame_ancestors the CSP sources that may frame the ?embed=1 pages (default EMBED_ANCESTORS)."""
    app = web.Application(middlewares=[errors_middleware], client_max_size=MAX_REQUEST)
    app[HUB_KEY] = hub if hub is not None else Hub()
    app[TOKEN_KEY] = token or new_token()
    app[ANCESTORS_KEY] = check_frame_ancestors(frame_ancestors) if frame_ancestors else EMBED_ANCESTORS
    app[CACHE_KEY] = {}
    app[STANDINGS_CACHE_KEY] = {}
    app[FEED_KEY] = {}
    tb = "/%s/%s/%s" % (SLUG % "t", SLUG % "r", SLUG % "b")
    app.router.add_get("/", index_page)
    app.router.add_get("/board" + tb, board_page)
    app.router.add_get("/static/{name}", static_file)
    app.router.add_get("/static/flags/{code:[A-Z]{3}}.svg", flag_file)
    app.router.add_get("/static/flags/LICENSE", flag_licence)
    app.router.add_get("/api/boards", api_boards)
    app.router.add_get("/api/board" + tb, api_board)
    app.router.add_get("/api/board" + tb + "/plies", api_plies)
    app.router.add_get("/api/board" + tb + "/games", api_games)
    app.router.add_get("/api/board" + tb + "/games/{n:[0-9]{1,4}}", api_game)
    app.router.add_get("/api/round/%s/%s" % (SLUG % "t", SLUG % "r"), api_round)
    app.router.add_get("/api/rounds", api_rounds)
    app.router.add_get("/api/standings/%s/%s" % (SLUG % "t", SLUG % "r"), api_standings)
    app.router.add_get("/api/board" + tb + "/alert", api_board_alert)
    app.router.add_get("/api/arbiter/check", api_arbiter_check)
    app.router.add_get("/api/stream", api_stream)
    app.router.add_get("/api/health", api_health)
    app.router.add_get("/feed/%s/%s.{fmt:pgn|pdn}" % (SLUG % "t", SLUG % "r"), feed_round)
    app.router.add_get("/feed" + tb + ".{fmt:pgn|pdn|txt}", feed_board)
    app.router.add_post("/api/board" + tb + "/arbiter", arbiter)
    app.on_shutdown.append(_close_viewers)
    return app


async def _close_viewers(app: web.Application) -> None:
    hub = app[HUB_KEY]
    for v in hub.viewers():
        hub.unsubscribe(v)


def check_frame_ancestors(text: str) -> str:
    """The CSP frame-ancestors sources of a --frame-ancestors option ('*', 'self', origins such as
    https://club.example), checked; ValueError says what is wrong."""
    parts = text.split()
    for p in parts:
        if p in ("*", "'self'", "'none'") or p == "self":
            continue
        if not re.fullmatch(r"(https?://)?(\*\.)?[A-Za-z0-9.-]+(:[0-9]{1,5})?|https?:", p):
            raise ValueError("frame ancestor %r is not '*', 'self' or an origin like https://club.example" % p[:80])
    if not parts:
        raise ValueError("give at least one frame ancestor ('*', 'self' or an origin)")
    return " ".join("'self'" if p == "self" else p for p in parts)


def new_token() -> str:
    """A fresh random arbiter token."""
    return secrets.token_urlsafe(18)


def resolve_token(token: Optional[str] = None, token_file: Optional[str] = None,
                  environ: Optional[Mapping[str, str]] = None) -> tuple[str, str]:
    """(token, where it came from): --token-file, else --token, else $FLAGFALL_TOKEN, else a new random one.

    ValueError (the text says why) for a file that cannot be read or holds no token.
    """
    environ = os.environ if environ is None else environ
    if token_file:
        return read_secret(token_file, "token"), "file"
    if token:
        return token, "argument"
    if environ.get("FLAGFALL_TOKEN"):
        return environ["FLAGFALL_TOKEN"], "env"
    return new_token(), "random"


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


GC_THRESHOLDS = (20000, 20, 100)


def tune_gc() -> None:
    """Make the cyclic garbage collector run less often in a server process.

    A broadcast server holds hundreds of thousands of long-lived containers (every
    board's state, move and clock lists, positions per ply) and makes a few
    short-lived ones per message; with the default thresholds it spends a large
    part of its time walking them (half of it at 1,000 boards, as bench_broadcast
    measured). States are trees, not cycles: reference counting frees them, so
    collecting far less often costs little memory.
    """
    import gc
    if gc.get_threshold()[0] < GC_THRESHOLDS[0]:
        gc.freeze()            # what exists at start (modules, the app) is never collected anyway
        gc.set_threshold(*GC_THRESHOLDS)


class Limits:
    """Connection limits shared by a site's connections; `count` is connections per address."""

    def __init__(self, max_per_client: int, exempt_loopback: bool, header_timeout: float) -> None:
        self.max_per_client = max_per_client
        self.exempt_loopback = exempt_loopback
        self.header_timeout = header_timeout
        self.count: dict[str, int] = {}
        self.refused = 0
        self.timed_out = 0

    def exempt(self, ip: str) -> bool:
        if not self.max_per_client:
            return True
        return self.exempt_loopback and (ip.startswith("127.") or ip in ("::1", "::ffff:127.0.0.1"))


class Guard(asyncio.Protocol):
    """One connection: counted per client address, closed if a request head is slow; aiohttp inside.

    The head-read timer runs from the connection's opening and from the first byte of each
    later request until that request's handler starts (its head is complete then).
    """

    def __init__(self, limits: Limits, factory: Callable[[], web_protocol.RequestHandler]) -> None:
        self.limits = limits
        self.factory = factory
        self.inner: Optional[web_protocol.RequestHandler] = None
        self.transport: Optional[asyncio.Transport] = None
        self.ip: Optional[str] = None
        self.active = 0
        self.timer: Optional[asyncio.TimerHandle] = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # a stream server's connections come with a full (read and write) transport
        transport = cast(asyncio.Transport, transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        ip = peer[0] if isinstance(peer, tuple) and peer else None
        lim = self.limits
        if ip is not None and not lim.exempt(ip):
            n = lim.count.get(ip, 0)
            if n >= lim.max_per_client:
                lim.refused += 1
                body = json.dumps({"error": "too many connections from %s at once (limit %d)"
                                   % (ip, lim.max_per_client)}).encode()
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; "
                                b"charset=utf-8\r\nContent-Length: %d\r\nX-Content-Type-Options: nosniff\r\n"
                                b"Retry-After: 10\r\nConnection: close\r\n\r\n%s" % (len(body), body))
                transport.close()
                return
            lim.count[ip] = n + 1
            self.ip = ip
        self.inner = self.factory()
        _json_error_pages(self.inner)
        self.inner.connection_made(transport)
        self._arm()

    def _arm(self) -> None:
        if self.limits.header_timeout and self.timer is None:
            self.timer = asyncio.get_running_loop().call_later(self.limits.header_timeout, self._expire)

    def _expire(self) -> None:
        self.timer = None
        if self.active == 0 and self.transport is not None and not self.transport.is_closing():
            self.limits.timed_out += 1
            self.transport.close()

    def request_started(self) -> None:
        self.active += 1
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def request_done(self) -> None:
        # an idle keep-alive connection is aiohttp's to time out (keepalive_timeout): a proxy's
        # pool of upstream connections must not be cut every few seconds; a new head that
        # starts arriving is timed again (data_received)
        self.active -= 1

    def data_received(self, data: bytes) -> None:
        if self.active == 0 and self.timer is None:
            self._arm()
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> None:
        if self.inner is not None:
            self.inner.eof_received()

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Optional[BaseException]) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.ip is not None:
            n = self.limits.count.get(self.ip, 1) - 1
            if n > 0:
                self.limits.count[self.ip] = n
            else:
                self.limits.count.pop(self.ip, None)
            self.ip = None
        if self.inner is not None:
            self.inner.connection_lost(exc)


def _guard_of(request: web.BaseRequest) -> Optional[Guard]:
    tr = request.transport
    if tr is None:
        return None
    p = tr.get_protocol()
    return p if isinstance(p, Guard) else None


class JsonErrorHandler(web_protocol.RequestHandler):
    """aiohttp's connection handler, with its own error answers (bad request line, header too long, ...)
    as JSON like ours, with nosniff."""

    __slots__ = ()

    def handle_error(self, request: web.BaseRequest, status: int = 500, exc: Optional[BaseException] = None,
                     message: Optional[str] = None) -> web.StreamResponse:
        super().handle_error(request, status, exc, message)    # logs, and refuses if a response has started
        if status >= 500:
            text = "internal server error"
        else:
            text = "bad request: %s" % (message or (exc and str(exc)) or "malformed HTTP")
            text = " ".join(text.split())[:300]
        out = web.json_response({"error": text}, status=status, headers={"X-Content-Type-Options": "nosniff"})
        out.force_close()
        return out


def _json_error_pages(handler: web_protocol.RequestHandler) -> None:
    if type(handler) is web_protocol.RequestHandler:
        handler.__class__ = JsonErrorHandler     # same layout (no slots of its own): only handle_error differs


class GuardedSite(web.TCPSite):
    """A TCP site whose connections go through Guard (limits per client, header-read timeout)."""

    def __init__(self, runner: web.BaseRunner, limits: Limits, *args: Any, **kwargs: Any) -> None:
        super().__init__(runner, *args, **kwargs)
        self.limits = limits

    async def start(self) -> None:
        await web.BaseSite.start(self)
        loop = asyncio.get_running_loop()
        factory = self._runner.server
        assert factory is not None, "the runner is set up"      # (as aiohttp's TCPSite.start has it)
        limits = self.limits
        self._server = srv = await loop.create_server(lambda: Guard(limits, factory), self._host, self._port,
                                                      ssl=self._ssl_context, backlog=self._backlog)
        self._bound_port = srv.sockets[0].getsockname()[1] if srv.sockets else self._port


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
    import signal
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
