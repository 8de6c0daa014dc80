"""The relay feeds over HTTP: a round's live record of every chess / draughts game
(/feed/<t>/<r>.pgn | .pdn, made at most every FEED_MIN_S, gzip-compressed once for every relay) and
one game's (/feed/<t>/<r>/<b>.pgn | .pdn | .txt); the record text is flagfall.broadcast.feeds'.
"""
from __future__ import annotations

import gzip
import asyncio
import hashlib
from typing import Optional

from aiohttp import web

from flagfall.broadcast import feeds
from flagfall.broadcast.http_helpers import HUB_KEY, SLUG, board_key, error, etag_matches

FEED_MIN_S = 0.5            # a round's feed is rebuilt at most this often (relays poll every few seconds)
FEED_TYPES = {"pgn": "application/x-chess-pgn", "pdn": "text/plain", "txt": "text/plain"}

FEED_KEY: web.AppKey[dict[tuple[str, str, str], FeedCache]] = web.AppKey("feed_cache", dict)   # (t, r, fmt) -> feed


def _feed_response(request: web.Request, text: str, fmt: str) -> web.Response:
    etag = '"%s"' % hashlib.sha256(text.encode()).hexdigest()[:20]
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Access-Control-Allow-Origin": "*"}
    if etag_matches(request, etag):
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
            self.gzipped = gzip.compress(self.body, compresslevel=5, mtime=0)
        return self.gzipped


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
    if etag_matches(request, c.etag):
        return web.Response(status=304, headers=headers)
    if "gzip" in request.headers.get("Accept-Encoding", ""):
        # a 1,000-game round is some 230 kB, ten times less compressed: compressed once, sent to all
        headers["Content-Encoding"] = "gzip"
        return web.Response(body=c.gzip(), content_type=FEED_TYPES[fmt], charset="utf-8", headers=headers)
    return web.Response(body=c.body, content_type=FEED_TYPES[fmt], charset="utf-8", headers=headers)


async def feed_board(request: web.Request) -> web.Response:
    fmt = request.match_info["fmt"]
    st = request.app[HUB_KEY].get(board_key(request))
    if st is None:
        return error(404, "no board %s" % "/".join(board_key(request)))
    if fmt == "txt":
        return _feed_response(request, st["pgn"], fmt)
    want = feeds.format_for(st["game"])
    if want != fmt:
        return error(404, "board %s plays %s: its record is %s" % (
            "/".join(board_key(request)), st["game"], ("/feed/%s.%s" % ("/".join(board_key(request)), want)) if want else "the .txt feed"))
    return _feed_response(request, feeds.record_text(st), fmt)


def add_routes(app: web.Application) -> None:
    app[FEED_KEY] = {}
    app.router.add_get("/feed/%s/%s.{fmt:pgn|pdn}" % (SLUG % "t", SLUG % "r"), feed_round)
    app.router.add_get("/feed/%s/%s/%s.{fmt:pgn|pdn|txt}" % (SLUG % "t", SLUG % "r", SLUG % "b"), feed_board)
