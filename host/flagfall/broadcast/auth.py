"""The arbiter token: where it comes from (a file, the command line, $FLAGFALL_TOKEN or a new random
one), and the check every arbiter-only route goes through (`arbiter_only`): viewing needs nothing,
arbiter actions need `Authorization: Bearer <token>`.
"""
from __future__ import annotations

import hmac
import os
import secrets
from typing import Mapping, Optional

from aiohttp import web
from aiohttp.typedefs import Handler

from flagfall.broadcast.http_helpers import error
from flagfall.secretfile import read_secret

TOKEN_KEY = web.AppKey("token", str)


def check_token(request: web.Request) -> Optional[web.Response]:
    """None if the request carries the arbiter token, else the error response to send (the token of the
    application, or of the one a sub-application such as the dashboard is mounted in)."""
    auth = request.headers.get("Authorization", "")
    if not auth:
        return error(401, "arbiter actions need a token: send 'Authorization: Bearer <token>'",
                     headers={"WWW-Authenticate": 'Bearer realm="flagfall arbiter"'})
    scheme, _, given = auth.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return error(401, "the Authorization header must be 'Bearer <token>'",
                     headers={"WWW-Authenticate": 'Bearer realm="flagfall arbiter"'})
    if not hmac.compare_digest(given.strip().encode(), request.config_dict[TOKEN_KEY].encode()):
        return error(403, "wrong arbiter token")
    return None


def arbiter_only(handler: Handler) -> Handler:
    """The handler, answered only for requests that carry the arbiter token (check_token)."""
    async def checked(request: web.Request) -> web.StreamResponse:
        bad = check_token(request)
        return bad if bad is not None else await handler(request)
    checked.__doc__ = handler.__doc__
    return checked


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
