"""The simulator's small control page (a board to click, the clock's buttons, its displays), and the
thread that serves a tool's aiohttp page (the simulator's, the self-test's).
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Awaitable, Callable, Optional

if TYPE_CHECKING:
    from flagfall.games.protocol import Square
    from flagfall.sim import Simulator


WEB_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Flagfall simulator</title>
<style>
body{font:15px "DejaVu Sans",sans-serif;margin:1em;background:#f4f4f2}
#b{display:grid;gap:0;border:2px solid #5d4037;width:min(90vw,480px);aspect-ratio:1}
.c{border:0;padding:0;cursor:pointer;display:flex;align-items:center;justify-content:center}
.l{background:#f0d9b5}.d{background:#b58863}.p::after{content:"";width:60%;height:60%;border-radius:50%;background:#333}
#faces{font:bold 1.6em "DejaVu Sans Mono",monospace;margin:.5em 0}#lines{font-family:monospace;white-space:pre}
button.k{font-size:1.1em;margin:.2em;padding:.3em .8em}
</style></head><body><h1>Flagfall simulator</h1>
<p>Click a square to lift or place a piece; press the clock buttons; or type a move.</p>
<div id="b"></div><div id="faces"></div><div id="lines"></div><div id="btns"></div>
<p><input id="mv" size="10" placeholder="move, e.g. e4"> <button id="play">play</button> <span id="msg"></span></p>
<script>
"use strict";
let shape = null;
function post(path, body) {
  return fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)})
    .then(r => r.json()).then(j => { document.getElementById("msg").textContent = j.error || ""; });
}
function draw(s) {
  const b = document.getElementById("b");
  if (shape !== s.rows + "x" + s.cols) {
    shape = s.rows + "x" + s.cols;
    b.textContent = "";
    b.style.gridTemplateColumns = "repeat(" + s.cols + ",1fr)";
    for (let r = 0; r < s.rows; r++) for (let c = 0; c < s.cols; c++) {
      const e = document.createElement("button");
      e.className = "c " + ((r + c) % 2 ? "d" : "l");
      e.dataset.rc = r + "," + c;
      e.onclick = () => post("/api/square", {row: r, col: c});
      b.appendChild(e);
    }
    const bt = document.getElementById("btns");
    bt.textContent = "";
    for (const n of s.buttons) {
      const e = document.createElement("button");
      e.className = "k"; e.textContent = n; e.onclick = () => post("/api/press", {button: n});
      bt.appendChild(e);
    }
  }
  const on = new Set(s.occupied.map(x => x[0] + "," + x[1]));
  const sensor = new Set(s.squares.map(x => x[0] + "," + x[1]));
  for (const e of b.children) {
    e.classList.toggle("p", on.has(e.dataset.rc));
    e.disabled = !sensor.has(e.dataset.rc);
  }
  document.getElementById("faces").textContent = "white " + s.faces[0] + "   black " + s.faces[1];
  document.getElementById("lines").textContent = s.faces[2].join("\\n");
}
function poll() { fetch("/api/state").then(r => r.json()).then(draw).finally(() => setTimeout(poll, 200)); }
document.getElementById("play").onclick = () => post("/api/play", {move: document.getElementById("mv").value});
poll();
</script></body></html>
"""


def cell_of(sim: Simulator, sq: Square) -> tuple[int, int]:
    """(row, col) on the board, top row first as the first player sees it, of a game square."""
    row, col = sim.adapter.cell(sq)
    return (row, col)


def serve_web(sim: Simulator, host: str = "127.0.0.1", port: int = 7780) -> str:
    """A small control page for the simulator (board, clock buttons, displays) in a thread; returns its URL."""
    import asyncio
    from aiohttp import web

    squares = {cell_of(sim, sq): sq for sq in sim.sensor_of}
    buttons = [n for n in ("white", "black", "start", "mode") if n in sim.profile["buttons"]
               or (n in ("white", "black") and "rocker" in sim.profile["buttons"])]
    b = sim.profile["board"]

    async def page(request: web.Request) -> web.Response:
        return web.Response(text=WEB_PAGE, content_type="text/html")

    async def state(request: web.Request) -> web.Response:
        occ = set(sim.occupied())
        w, bl, lines = sim.faces()
        return web.json_response({
            "game": sim.game, "rows": b["rows"], "cols": b["cols"], "buttons": buttons,
            "squares": [list(rc) for rc in squares], "occupied": [list(rc) for rc, sq in squares.items() if sq in occ],
            "faces": [w, bl, [x for x in lines if x]]})

    async def body(request: web.Request) -> dict[str, Any]:
        if request.content_length is None or request.content_length > 1024:
            raise web.HTTPRequestEntityTooLarge(max_size=1024, actual_size=request.content_length or 0)
        try:
            obj = await request.json()
        except ValueError:
            obj = None
        if not isinstance(obj, dict):
            raise ValueError("the body must be a JSON object")
        return obj

    def guarded(fn: Callable[[dict[str, Any]], Awaitable[Optional[dict[str, Any]]]]
                ) -> Callable[[web.Request], Awaitable[web.Response]]:
        async def handler(request: web.Request) -> web.Response:
            try:
                return web.json_response(await fn(await body(request)) or {"ok": True})
            except ValueError as e:
                return web.json_response({"error": str(e)}, status=400)
        return handler

    async def square(obj: dict[str, Any]) -> None:
        cell: tuple[Any, Any] = (obj.get("row"), obj.get("col"))    # JSON values: a wrong one finds no sensor
        sq = squares.get(cell)
        if sq is None:
            raise ValueError("no sensor at that cell")
        if sq in sim.occupied():
            sim.lift(sq)
        else:
            sim.place(sq)
        # answered once the device has scanned it: the next click sees the square as it now is
        await asyncio.get_running_loop().run_in_executor(None, sim.wait, 0)

    async def press(obj: dict[str, Any]) -> None:
        if obj.get("button") not in buttons:
            raise ValueError("no such button")
        await asyncio.get_running_loop().run_in_executor(None, sim.press, obj["button"])

    async def play(obj: dict[str, Any]) -> dict[str, Any]:
        mv = obj.get("move")
        if not isinstance(mv, str) or not 0 < len(mv) <= 32:
            raise ValueError("a move text, please")
        text = await asyncio.get_running_loop().run_in_executor(None, lambda: sim.play(mv.strip(), think_ms=0))
        return {"ok": True, "played": text}

    app = web.Application(client_max_size=4096)
    app.router.add_get("/", page)
    app.router.add_get("/api/state", state)
    app.router.add_post("/api/square", guarded(square))
    app.router.add_post("/api/press", guarded(press))
    app.router.add_post("/api/play", guarded(play))
    return serve_in_thread(app, host, port, "sim-web")


def serve_in_thread(app: Any, host: str, port: int, name: str) -> str:
    """Serve an aiohttp application on its own thread and event loop; returns its URL once it listens
    (raises OSError if the port is taken). For the small pages of tools (the simulator, the self-test)."""
    import asyncio

    from aiohttp import web
    ready = threading.Event()
    urls: list[str] = []             # the page's URL once listening,
    errors: list[OSError] = []       # or why it could not listen

    def run() -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        runner = web.AppRunner(app, access_log=None)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, host, port)
        try:
            loop.run_until_complete(site.start())
            urls.append("http://%s:%d/" % (host, runner.addresses[0][1]))
        except OSError as e:
            errors.append(e)
        ready.set()
        if urls:
            loop.run_forever()

    threading.Thread(target=run, name=name, daemon=True).start()
    ready.wait(10)
    if errors:
        raise errors[0]
    return urls[0]
