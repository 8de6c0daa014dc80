"""What every route of the broadcast server shares: the JSON error answer and the middleware that
turns every HTTP error into one, the board a URL names, the ?t=&r=&b= filter, CORS and ETag
helpers, and the reading of a JSON request body within its limits.
"""
from __future__ import annotations

import asyncio
import json
from typing import Any, Mapping, Optional, TypeVar

from aiohttp import web
from aiohttp.typedefs import Handler

from flagfall import live
from flagfall.broadcast.guard import guard_of
from flagfall.broadcast.hub import BoardKey, Entry, Hub

MAX_BODY = 4096             # bytes of an arbiter request
MAX_REQUEST = 16 * 1024     # any request body at all
BODY_TIMEOUT_S = 10         # an arbiter request's body must arrive within this
SLUG = "{%s:[A-Za-z0-9_-]{1,64}}"

HUB_KEY = web.AppKey("hub", Hub)

_R = TypeVar("_R", bound=web.StreamResponse)


def error(status: int, text: str, headers: Optional[Mapping[str, str]] = None) -> web.Response:
    """A JSON error response: {"error": text}."""
    return web.json_response({"error": text}, status=status, headers=headers)


@web.middleware
async def errors_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Turn every HTTP error (unknown route, wrong method, oversized body) into a JSON error; nosniff on all."""
    guard = guard_of(request)
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


def board_key(request: web.Request) -> BoardKey:
    m = request.match_info
    return (m["t"], m["r"], m["b"])


def query_filter(request: web.Request) -> list[Optional[str]]:
    out: list[Optional[str]] = []
    for name in ("t", "r", "b"):
        v = request.query.get(name)
        if v is not None and not live.SLUG.fullmatch(v):
            raise web.HTTPBadRequest(text="query %s=%r is not a slug (A-Z a-z 0-9 _ -, 1-64)" % (name, v[:80]))
        out.append(v)
    return out


def cors(resp: _R) -> _R:
    resp.headers["Access-Control-Allow-Origin"] = "*"
    return resp


def etag_matches(request: web.Request, etag: str) -> bool:
    given = request.headers.get("If-None-Match")
    if not given:
        return False
    return given.strip() == "*" or etag in [x.strip() for x in given.split(",")]


def board_entry(request: web.Request) -> Entry:
    e = request.app[HUB_KEY].boards.get(board_key(request))
    if e is None:
        raise web.HTTPNotFound(text="no board %s" % "/".join(board_key(request)))
    return e


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
