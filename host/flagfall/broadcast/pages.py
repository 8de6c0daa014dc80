"""The pages and their files: the tournament page, the board page, the page files (a fixed list,
read once, gzip-compressed once when worth it, with an ETag) and the federations' flags; the
Content-Security-Policy of every page and who may frame the ?embed=1 ones.
"""
from __future__ import annotations

import gzip
import hashlib
import os
import re
from typing import Optional

from aiohttp import web

from flagfall.broadcast.http_helpers import SLUG, error, etag_matches

STATIC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "static")
STATIC_FILES = {
    "index.html": "text/html", "board.html": "text/html",
    "app.js": "application/javascript", "board.js": "application/javascript",
    "clockfmt.js": "application/javascript", "pieces.js": "application/javascript",
    "style.css": "text/css", "favicon.svg": "image/svg+xml",
}
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
EMBED_ANCESTORS = "*"
"""Who may frame a page asked for with ?embed=1 (a board or a round overview) unless make_app is told
otherwise: any site (the embedded view has no arbiter panel); the pages without ?embed=1 are never framed."""
FLAGS_DIR = os.path.join(STATIC_DIR, "flags")
COMPRESS_MIN = 512          # static files smaller than this are sent as they are

CACHE_KEY: web.AppKey[dict[str, StaticFile]] = web.AppKey("static_cache", dict)   # name -> the file, read once
ANCESTORS_KEY = web.AppKey("frame_ancestors", str)


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
    if etag_matches(request, f.etag):
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


def add_routes(app: web.Application, frame_ancestors: Optional[str] = None) -> None:
    """The pages, their files and the flags; frame_ancestors: who may frame the ?embed=1 pages
    (check_frame_ancestors; default EMBED_ANCESTORS)."""
    app[ANCESTORS_KEY] = check_frame_ancestors(frame_ancestors) if frame_ancestors else EMBED_ANCESTORS
    app[CACHE_KEY] = {}
    tb = "/%s/%s/%s" % (SLUG % "t", SLUG % "r", SLUG % "b")
    app.router.add_get("/", index_page)
    app.router.add_get("/board" + tb, board_page)
    app.router.add_get("/static/{name}", static_file)
    app.router.add_get("/static/flags/{code:[A-Z]{3}}.svg", flag_file)
    app.router.add_get("/static/flags/LICENSE", flag_licence)
