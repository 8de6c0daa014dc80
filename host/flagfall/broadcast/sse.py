"""The live stream: Server-Sent Events, one `hello` then a `u` frame per tick of changes. Over HTTP/1.1
the hub writes each viewer's socket itself (ChunkWriter); a heartbeat keeps idle streams open.
"""
from __future__ import annotations

import asyncio
import json

from aiohttp import web

from flagfall import live
from flagfall.broadcast.http_helpers import HUB_KEY, error, query_filter
from flagfall.broadcast.hub import chunked as hub_chunked

HEARTBEAT_S = 15
HIGH_WATER = 256 * 1024     # bytes queued for one viewer before it counts as slow


async def api_stream(request: web.Request) -> web.StreamResponse:
    """Server-Sent Events: one `hello` with the server time, then `u` frames (every board changed, per tick)."""
    t, r, b = query_filter(request)
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


def add_routes(app: web.Application) -> None:
    app.router.add_get("/api/stream", api_stream)
