"""The TCP guard in front of aiohttp: connections counted per client address, a request head that
is slow to arrive closed, aiohttp's own error answers as JSON; and the garbage collector tuned for a
server process.

`GuardedSite` is the site `server.start` listens with; `errors_middleware` (http_helpers) tells the
connection's `Guard` when a request's handler starts and ends.
"""
from __future__ import annotations

import gc
import asyncio
import json
from typing import Any, Callable, Optional, cast

from aiohttp import web, web_protocol

HEADER_TIMEOUT_S = 10       # a request head must be complete this soon after the connection opens / its first byte
MAX_PER_CLIENT = 64         # connections at once from one address (loopback, i.e. a local reverse proxy, is exempt)


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


def guard_of(request: web.BaseRequest) -> Optional[Guard]:
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
