"""Broadcast security: arbiter actions need the token, bodies are validated and bounded,
no path leaves the page files, and every refusal says why and changes nothing."""
import asyncio
import json

from broadcast_helpers import TOKEN, chess_board, running_server, session

BOARD = ("open", "1", "1")
URL = "/api/board/open/1/1/arbiter"
GOOD = {"action": "result", "result": "1-0"}


def run(coro):
    return asyncio.run(coro)


async def raw_request(base, text):
    """Send raw bytes (paths no client would normalise); returns (status, headers+body text)."""
    host, port = base[len("http://"):].split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(text.encode("latin-1") if isinstance(text, str) else text)
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head = data.split(b"\r\n", 1)[0].decode()
    return int(head.split()[1]), data.decode("utf-8", "replace")


async def setup_board(hub):
    sm, plies = chess_board()
    hub.ingest(sm.state())
    for p in plies[:4]:
        hub.ingest(sm.move(*p))
    calls = []
    hub.command_handlers[BOARD] = lambda cmd: calls.append(cmd) or {"applied": True}
    return calls


def snapshot(hub):
    return json.dumps(hub.get(BOARD), sort_keys=True)


def test_arbiter_refuses_missing_and_wrong_tokens_and_changes_nothing():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            calls = await setup_board(hub)
            before = snapshot(hub)
            cases = [
                ({}, 401, "need a token"),
                ({"Authorization": ""}, 401, "need a token"),
                ({"Authorization": "Bearer"}, 401, "Bearer <token>"),
                ({"Authorization": "Basic " + TOKEN}, 401, "Bearer <token>"),
                ({"Authorization": "Bearer wrong"}, 403, "wrong arbiter token"),
                ({"Authorization": "Bearer " + TOKEN + "x"}, 403, "wrong arbiter token"),
                ({"Authorization": "Bearer " + TOKEN[:-1]}, 403, "wrong arbiter token"),
                ({"Authorization": "Bearer " + TOKEN.upper()}, 403, "wrong arbiter token"),
            ]
            for headers, status, why in cases:
                async with s.post(base + URL, json=GOOD, headers=headers) as r:
                    body = await r.json()
                    assert r.status == status, (headers, r.status, body)
                    assert why in body["error"]
                    if status == 401:
                        assert r.headers["WWW-Authenticate"].startswith("Bearer")
            assert calls == [] and snapshot(hub) == before
            async with s.post(base + URL, json=GOOD, headers={"Authorization": "Bearer " + TOKEN}) as r:
                assert r.status == 200
            assert calls == [GOOD]          # the same request with the token goes through
    run(go())


def test_arbiter_refuses_malformed_bodies_and_changes_nothing():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            calls = await setup_board(hub)
            before = snapshot(hub)
            auth = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}
            bodies = [
                (b"", 400, "not valid JSON"),
                (b"{", 400, "not valid JSON"),
                (b"\xff\xfe{}", 400, "not valid JSON"),
                (b"[1, 2]", 400, "JSON object"),
                (b'"result"', 400, "JSON object"),
                (b"{}", 400, "'action'"),
                (b'{"action": "drop_table"}', 400, "'action' must be one of"),
                (b'{"action": "result"}', 400, "needs field 'result'"),
                (b'{"action": "result", "result": "5-0"}', 400, "'result' must be"),
                (b'{"action": "result", "result": "1-0", "sneak": 1}', 400, "unexpected field 'sneak'"),
                (b'{"action": "clock", "side": "white", "delta_ms": "9e9"}', 400, "'delta_ms'"),
                (b'{"action": "clock", "side": "white", "delta_ms": 1e3}', 400, "'delta_ms'"),
                (b'{"action": "clock", "side": "nobody", "delta_ms": 1000}', 400, "'side'"),
                (b'{"action": "fix_move", "ply": "3", "move": "e4"}', 400, "'ply'"),
                (b'{"action": "fix_move", "ply": 3, "move": null}', 400, "'move'"),
                (b'{"action": "promotion", "piece": "king"}', 400, "'piece'"),
                (b'{"action": "restart", "id": ' + b'"' + b"x" * 100 + b'"}', 400, "'id'"),
            ]
            for body, status, why in bodies:
                async with s.post(base + URL, data=body, headers=auth) as r:
                    got = await r.json()
                    assert r.status == status, (body, r.status, got)
                    assert why in got["error"], (body, got)
            # wrong content type
            async with s.post(base + URL, data=json.dumps(GOOD), headers={"Authorization": "Bearer " + TOKEN,
                                                                           "Content-Type": "text/plain"}) as r:
                assert r.status == 415 and "Content-Type: application/json" in (await r.json())["error"]
            # unknown board
            async with s.post(base + "/api/board/open/1/99/arbiter", json=GOOD, headers=auth) as r:
                assert r.status == 404 and "no board open/1/99" in (await r.json())["error"]
            # wrong method
            async with s.get(base + URL, headers=auth) as r:
                assert r.status == 405 and "not allowed" in (await r.json())["error"]
            assert calls == [] and snapshot(hub) == before
    run(go())


def test_oversized_bodies_are_refused():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            calls = await setup_board(hub)
            before = snapshot(hub)
            auth = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}
            big = json.dumps({"action": "fix_move", "ply": 1, "move": "e4", "pad": "x" * 5000}).encode()
            async with s.post(base + URL, data=big, headers=auth) as r:
                assert r.status == 413 and "too large" in (await r.json())["error"]

            async def chunks():
                for _ in range(10):
                    yield b" " * 1000
                yield json.dumps(GOOD).encode()
            async with s.post(base + URL, data=chunks(), headers=auth) as r:   # chunked: no Content-Length
                assert r.status == 413 and "too large" in (await r.json())["error"]
            huge = b"x" * (200 * 1024)
            async with s.post(base + URL, data=huge, headers=auth) as r:
                assert r.status == 413
            # without the token, size does not matter: refused first, before reading
            async with s.post(base + URL, data=huge, headers={"Content-Type": "application/json"}) as r:
                assert r.status == 401
            assert calls == [] and snapshot(hub) == before
    run(go())


def test_no_path_traversal():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            await setup_board(hub)
            paths = [
                "/static/../server.py", "/static/..%2fserver.py", "/static/%2e%2e/%2e%2e/live.py",
                "/static/..%5cserver.py", "/static/....//server.py", "/static/../../../../etc/passwd",
                "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd", "/static/", "/static/app.js%00.html",
                "/static/.%2e/hub.py", "/static/style.css/..", "/static//etc/passwd",
                "/board/open/1/../../../etc/passwd", "/feed/open/1/..%2f..%2fetc%2fpasswd.pgn",
                "/api/board/open/1/%2e%2e", "/feed/%2e%2e/1.pgn", "/../../etc/passwd",
            ]
            for p in paths:
                status, text = await raw_request(base, "GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" % p)
                assert status in (400, 404), (p, status)
                assert "root:" not in text and "import " not in text and "def " not in text, p
                body = text.split("\r\n\r\n", 1)[1]
                assert json.loads(body)["error"], p
            async with s.get(base + "/static/app.js") as r:
                assert r.status == 200           # the legitimate file still works
    run(go())


def test_viewing_needs_no_token_and_bad_slugs_are_refused_clearly():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            await setup_board(hub)
            for p in ("/", "/api/boards", "/api/board/open/1/1", "/feed/open/1.pgn", "/feed/open/1/1.pgn",
                      "/board/open/1/1", "/api/health"):
                async with s.get(base + p) as r:
                    assert r.status == 200, p
            async with s.get(base + "/api/boards?t=" + "x" * 65) as r:
                assert r.status == 400 and "not a slug" in (await r.json())["error"]
            async with s.get(base + "/api/board/open/1/" + "y" * 65) as r:
                assert r.status == 404 and "not found" in (await r.json())["error"]
    run(go())


def test_deeply_nested_json_is_a_400_not_a_500():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            calls = await setup_board(hub)
            before = snapshot(hub)
            auth = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}
            for body in (b"[" * 2000 + b"]" * 2000, b"[" * 4000):
                async with s.post(base + URL, data=body, headers=auth) as r:
                    got = await r.json()
                    assert r.status == 400 and "nested too deep" in got["error"], (r.status, got)
                    assert r.headers["X-Content-Type-Options"] == "nosniff"
            assert calls == [] and snapshot(hub) == before
    run(go())


def test_every_response_says_nosniff():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            await setup_board(hub)
            for method, path, status in (("GET", "/", 200), ("GET", "/nowhere", 404), ("DELETE", "/api/boards", 405),
                                         ("GET", "/api/board/open/1/99", 404), ("POST", URL, 401),
                                         ("GET", "/static/nope.js", 404), ("GET", "/feed/open/1.pgn", 200),
                                         ("GET", "/api/boards?t=" + "x" * 70, 400)):
                async with s.request(method, base + path) as r:
                    assert r.status == status, (method, path, r.status)
                    assert r.headers.get("X-Content-Type-Options") == "nosniff", (method, path, dict(r.headers))
                    if status >= 400:
                        assert (await r.json())["error"]
            async with s.get(base + "/static/app.js") as r:
                etag = r.headers["ETag"]
            async with s.get(base + "/static/app.js", headers={"If-None-Match": etag}) as r:
                assert r.status == 304 and r.headers["X-Content-Type-Options"] == "nosniff"
            async with s.get(base + "/api/stream") as r:
                assert r.status == 200 and r.headers["X-Content-Type-Options"] == "nosniff"
    run(go())


def test_oversized_header_is_a_json_400():
    async def go():
        async with running_server() as (base, hub, app):
            status, text = await raw_request(base, "GET / HTTP/1.1\r\nHost: x\r\nX-Big: %s\r\n\r\n" % ("y" * 20000))
            head, body = text.split("\r\n\r\n", 1)
            assert status == 400 and "application/json" in head.lower() and "nosniff" in head.lower(), head
            assert "bad request" in json.loads(body)["error"]
            status, text = await raw_request(base, "GARBAGE\r\n\r\n")
            assert status == 400 and json.loads(text.split("\r\n\r\n", 1)[1])["error"]
    run(go())


def test_a_slow_request_head_is_cut_off_but_a_live_stream_is_not():
    async def go():
        async with running_server(header_timeout=0.5) as (base, hub, app), session() as s:
            await setup_board(hub)
            host, port = base[len("http://"):].split(":")
            # slowloris: a header line now and then, never the blank line that ends the head
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            t0 = asyncio.get_running_loop().time()
            closed = None
            for _ in range(40):
                await asyncio.sleep(0.1)
                try:
                    writer.write(b"X-Slow: 1\r\n")
                    await writer.drain()
                except (ConnectionError, OSError):
                    pass
                if reader.at_eof() or writer.is_closing():
                    closed = asyncio.get_running_loop().time() - t0
                    break
                try:
                    data = await asyncio.wait_for(reader.read(100), 0.01)
                    if data == b"":
                        closed = asyncio.get_running_loop().time() - t0
                        break
                except asyncio.TimeoutError:
                    pass
            writer.close()
            assert closed is not None and closed < 2.0, "a head trickled for %s s was not cut off" % closed
            # an idle connection that never says anything is closed too
            reader, writer = await asyncio.open_connection(host, int(port))
            assert await asyncio.wait_for(reader.read(100), 3) == b""
            writer.close()
            # a keep-alive connection idle after its answer is left to the keep-alive timeout (a proxy's pool),
            # but the next head must again come whole in time
            reader, writer = await asyncio.open_connection(host, int(port))
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 3)
            assert head.startswith(b"HTTP/1.1 200")
            n = int([h for h in head.split(b"\r\n") if h.lower().startswith(b"content-length:")][0].split(b":")[1])
            await reader.readexactly(n)
            await asyncio.sleep(1.2)
            assert not reader.at_eof()
            writer.write(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")      # a head begun, never finished
            assert await asyncio.wait_for(reader.read(100), 3) == b""
            writer.close()
            # a stream stays open for as long as the viewer watches (its head was complete)
            async with s.get(base + "/api/stream") as r:
                await asyncio.sleep(1.5)
                sm, plies = chess_board("2")
                hub.ingest(sm.state())
                line = b""
                while b'"open/1/2"' not in line:
                    line = await asyncio.wait_for(r.content.readline(), 3)
    run(go())


def test_connections_per_client_are_limited():
    async def go():
        async with running_server(max_per_client=3, exempt_loopback=False) as (base, hub, app), session() as s:
            await setup_board(hub)
            streams = []
            for _ in range(3):
                r = await s.get(base + "/api/stream")
                assert r.status == 200
                streams.append(r)
            status, text = await raw_request(base, "GET /api/boards HTTP/1.1\r\nHost: x\r\n\r\n")
            head, body = text.split("\r\n\r\n", 1)
            assert status == 503 and "nosniff" in head.lower()
            assert "too many connections" in json.loads(body)["error"]
            streams.pop().close()
            await asyncio.sleep(0.2)
            status, text = await raw_request(base, "GET /api/boards HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert status == 200                      # a slot is free again
            for r in streams:
                r.close()
    run(go())


def test_token_from_file_or_environment(tmp_path):
    from flagfall.broadcast import auth
    f = tmp_path / "token"
    f.write_text("file-token-123\n")
    assert auth.resolve_token("arg", str(f), {"FLAGFALL_TOKEN": "env"}) == ("file-token-123", "file")
    assert auth.resolve_token(None, None, {"FLAGFALL_TOKEN": "env-token"}) == ("env-token", "env")
    assert auth.resolve_token("arg", None, {"FLAGFALL_TOKEN": "env-token"}) == ("arg", "argument")
    tok, where = auth.resolve_token(None, None, {})
    assert where == "random" and len(tok) >= 20
    (tmp_path / "empty").write_text("\n")
    for bad, why in ((str(tmp_path / "empty"), "is empty"), (str(tmp_path / "missing"), "cannot read")):
        try:
            auth.resolve_token(None, bad, {})
        except ValueError as e:
            assert why in str(e)
        else:
            raise AssertionError("no error for %s" % bad)


def test_serve_takes_the_token_from_a_file_and_it_is_not_in_ps(tmp_path):
    import re
    import subprocess
    import sys

    from repo import flagfall_env
    f = tmp_path / "token"
    f.write_text("secret-from-file-42\n")
    env = flagfall_env()
    env.pop("FLAGFALL_TOKEN", None)
    proc = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "serve", "--port", "0", "--quiet",
                             "--token-file", str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env)
    try:
        line = proc.stdout.readline()
        assert re.match(r"broadcast: http://127\.0\.0\.1:\d+/", line), (line, proc.stderr.read() if proc.poll() else "")
        assert proc.stdout.readline().strip() == "arbiter token: secret-from-file-42"
        with open("/proc/%d/cmdline" % proc.pid, "rb") as c:
            assert b"secret-from-file-42" not in c.read()
    finally:
        proc.terminate()
        proc.communicate(timeout=20)
