"""Broadcast server: pages, JSON API, the live stream (full states and deltas), feeds, arbiter forwarding."""
import asyncio
import io
import json

import chess.pgn  # test oracle only

from broadcast_helpers import (TOKEN, ViewerModel, board_messages, chess_board, get_json, read_sse,
                               real_chess_game, running_server, session)
from flagfall import live
from flagfall.broadcast import feeds, synthetic
from flagfall.broadcast.hub import TICK_S, Hub


def run(coro):
    return asyncio.run(coro)


def draughts_board(board="9", moves=("32-28", "17-22", "28x17", "12x21")):
    start = "W:W31-50:B1-20"
    sm = synthetic.StateMaker("open", "1", board, "draughts", {"White": "Sijbrands", "Black": "Baljakin"},
                              "5400+30", start, live.grid_from_pdn_fen(start))
    states = [sm.state(now=0)]
    for i, m in enumerate(moves):
        states.append(sm.move(m, start, sm.grid, [], now=1000 + 4000 * i))
    return states


def test_pages_and_api():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            sm, plies = chess_board()
            hub.ingest(sm.state())
            for p in plies[:6]:
                hub.ingest(sm.move(*p))
            async with s.get(base + "/") as r:
                html = await r.text()
                assert r.status == 200 and "text/html" in r.headers["Content-Type"]
                assert "script-src 'self'" in r.headers["Content-Security-Policy"]
                assert '/static/app.js' in html and '/static/clockfmt.js' in html
            async with s.get(base + "/board/open/1/1") as r:
                assert r.status == 200 and 'data-page="board"' in await r.text()
            async with s.get(base + "/static/clockfmt.js") as r:
                assert r.status == 200 and "formatMs" in await r.text()
                etag = r.headers["ETag"]
            async with s.get(base + "/static/clockfmt.js", headers={"If-None-Match": etag}) as r:
                assert r.status == 304
            st, body = await get_json(s, base + "/api/boards")
            assert st == 200 and len(body["boards"]) == 1 and "pgn" not in body["boards"][0]
            assert body["boards"][0]["moves"] == [p[0] for p in plies[:6]]
            st, body = await get_json(s, base + "/api/board/open/1/1")
            assert st == 200 and body["seq"] == 6 and live.validate_state(body)
            st, body = await get_json(s, base + "/api/board/open/1/2")
            assert st == 404 and "no board open/1/2" in body["error"]
            st, body = await get_json(s, base + "/api/health")
            assert body["boards"] == 1 and body["received"] == 7
    run(go())


def test_stream_full_then_deltas_rebuild_every_state_exactly():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            sm, plies = chess_board()
            hub.ingest(sm.state())
            async with s.get(base + "/api/stream") as r:
                assert r.headers["Content-Type"].startswith("text/event-stream")
                assert r.headers["X-Content-Type-Options"] == "nosniff"
                ev = await read_sse(r, lambda e: len(e) >= 2, frames=True)
                assert ev[0][0] == "hello" and abs(ev[0][1]["now"] - live.now_ms()) < 5000
                assert ev[1][0] == "u" and len(ev[1][1]) == 1
                first = ev[1][1][0]
                assert first["full"] == 1 and first["seq"] == 0
                model = ViewerModel()
                model.apply(first)
                for p in plies[:8]:
                    hub.ingest(sm.move(*p))
                    await asyncio.sleep(TICK_S + 0.05)   # one state per tick: each goes out as a delta
                # an arbiter fix: back to ply 5 (the common prefix shrinks)
                sm.moves, sm.clocks = sm.moves[:5], sm.clocks[:5]
                hub.ingest(sm.state())
                await asyncio.sleep(TICK_S + 0.05)
                for p in plies[5:9]:
                    hub.ingest(sm.move(*p))
                # these four arrive within one tick: the viewer gets one full state for them
                last = hub.get(("open", "1", "1"))["seq"]
                ev = await read_sse(r, lambda e: e and e[-1][1][-1]["seq"] == last, frames=True)
                assert all(name == "u" and len(items) == 1 for name, items in ev)   # one board: one item a frame
                msgs = board_messages(ev)
                kinds = [("full" if m.get("full") else "delta") for m in msgs]
                assert kinds == ["delta"] * 9 + ["full"], kinds
                assert msgs[8]["from"] == 5 and msgs[8]["moves"] == []
                assert all(msgs[i]["from"] == i and len(msgs[i]["moves"]) == 1 for i in range(8))
                for m in msgs:
                    model.apply(m)
                want = dict(hub.get(("open", "1", "1")))
                want.pop("pgn")
                got = model.boards["open/1/1"]
                got.pop("k")
                assert got == want and not model.refetch
                assert len(got["moves"]) == 9
    run(go())


def test_one_frame_per_tick_carries_every_board_changed_and_is_shared():
    """Coalescing: states of many boards within a tick reach a viewer as one write; viewers share its bytes."""
    class FakeWriter:
        def __init__(self):
            self.chunks = []
            self.full = False

        def closing(self):
            return False

        def busy(self):
            return self.full

        def write_chunk(self, data):
            self.chunks.append(data)

    hub = Hub()
    boards = [chess_board(str(b)) for b in range(1, 21)]
    for sm, _ in boards:
        hub.ingest(sm.state())
    a, b = hub.subscribe("open", "1"), hub.subscribe("open", "1")
    wa, wb = FakeWriter(), FakeWriter()
    hub.attach_writer(a, wa)
    hub.attach_writer(b, wb)
    hub.flush()                                   # first write: every board whole, one chunk each
    assert len(wa.chunks) == len(wb.chunks) == 1 and wa.chunks[0].count(b'"full":1') == 20
    for sm, plies in boards:
        hub.ingest(sm.move(*plies[0]))
    hub.flush()
    assert len(wa.chunks) == 2 and wa.chunks[1] is wb.chunks[1]     # encoded once, the same bytes for both
    assert wa.chunks[1].count(b"event: u\n") == 1 and wa.chunks[1].count(b'"from":0') == 20
    assert hub.frames == 1 and hub.writes == 4
    # a summary viewer of the same round: no move lists
    c = hub.subscribe("open", "1", mode="summary")
    wc = FakeWriter()
    hub.attach_writer(c, wc)
    hub.flush()
    assert b'"moves"' not in wc.chunks[0] and wc.chunks[0].count(b'"n":1') == 20


def test_old_and_invalid_states_are_dropped():
    hub = Hub()
    sm, plies = chess_board()
    s0 = sm.state()
    s1 = sm.move(*plies[0])
    assert hub.ingest(s1) is True
    assert hub.ingest(s0) is False and hub.get(("open", "1", "1"))["seq"] == 1
    assert hub.ingest(dict(s1)) is False            # same seq again
    bad = dict(sm.move(*plies[1]))
    bad["grid"] = ["x"]
    bad["seq"] = 5
    assert hub.ingest(bad) is False and hub.rejected == 1
    assert hub.ingest_json(b"{not json") is False and hub.rejected == 2
    # a payload nested thousands deep (a forged MQTT state) is rejected, not a crash
    assert hub.ingest_json(b"[" * 5000 + b"]" * 5000) is False and hub.rejected == 3
    assert hub.get(("open", "1", "1"))["seq"] == 1
    # a bridge restarted without its journal: seq starts low again, but its states are newer
    v = hub.subscribe()                             # without a writer: written from take() (HTTP/1.0)
    v.take(hub)
    again = dict(s0, ts=s1["ts"] + 60000)
    assert hub.ingest(again) is True and hub.restarts == 1 and hub.get(("open", "1", "1"))["seq"] == 0
    hub.flush()
    assert b'"full":1' in v.take(hub)               # viewers get it whole, not as a delta
    assert hub.ingest(dict(again)) is False         # the same state again (a retained copy) stays out
    assert hub.ingest(dict(s1, ts=again["ts"] + 100)) is True
    hub.flush()
    assert b'"from":0' in v.take(hub)               # and the restarted bridge's next state is a delta again


def test_slow_viewer_gets_only_the_newest_state_per_board():
    class Writer:
        def __init__(self):
            self.chunks, self.full = [], False

        def closing(self):
            return False

        def busy(self):
            return self.full

        def write_chunk(self, data):
            self.chunks.append(data)

    hub = Hub()
    boards = [chess_board(str(b)) for b in range(1, 4)]
    for sm, _ in boards:
        hub.ingest(sm.state())
    fast, slow = hub.subscribe("open", "1"), hub.subscribe("open", "1")
    wf, ws = Writer(), Writer()
    hub.attach_writer(fast, wf)
    hub.attach_writer(slow, ws)
    hub.flush()
    assert ws.chunks[0].count(b'"full":1') == 3
    ws.full = True                                  # the slow viewer's socket fills up
    for i in range(40):
        for sm, plies in boards:
            hub.ingest(sm.move(*plies[i]))
        hub.flush()
    assert len(wf.chunks) == 41                     # the fast one is not held back: every tick written
    assert len(ws.chunks) == 1 and len(slow.pending) == 3   # bounded: one entry per board, not 120 messages
    assert slow in hub.lagging and not slow.in_step
    ws.full = False
    hub.flush()
    data = ws.chunks[-1].decode()
    assert data.count("event: u\n") == 1 and data.count('"full":1') == 3   # jumped ahead: full states
    assert slow.in_step and not slow.pending
    for sm, plies in boards:
        hub.ingest(sm.move(*plies[40]))
    hub.flush()
    assert ws.chunks[-1] is wf.chunks[-1]           # back in step: the shared frame, deltas
    assert b'"full"' not in ws.chunks[-1] and ws.chunks[-1].count(b'"from":40') == 3
    model = ViewerModel()
    for chunk in ws.chunks:
        body = chunk.split(b"\r\n", 1)[1][:-2]
        for block in body.decode().split("\n\n")[:-1]:
            for m in json.loads(block.split("data: ", 1)[1]):
                model.apply(m)
    for sm, _ in boards:
        want = dict(hub.get(sm.ident))
        want.pop("pgn")
        got = dict(model.boards["/".join(sm.ident)])
        got.pop("k")
        assert got == want
    other = hub.subscribe("open", "2")
    assert not other.pending
    for v in (fast, slow, other):
        hub.unsubscribe(v)
    assert hub.nviewers == 0 and not hub.groups and not hub.lagging


def test_stream_filter_one_board():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            a, pa = chess_board("1")
            b, pb = chess_board("2")
            hub.ingest(a.state())
            hub.ingest(b.state())
            async with s.get(base + "/api/stream?t=open&r=1&b=2") as r:
                hub.ingest(a.move(*pa[0]))
                hub.ingest(b.move(*pb[0]))
                ev = await read_sse(r, lambda e: any(m.get("seq") == 1 for m in board_messages(e)), frames=True)
                keys = set(m["k"] for m in board_messages(ev))
                assert keys == {"open/1/2"}
            async with s.get(base + "/api/stream?t=open&b=2&r=x%2Fy") as r:
                assert r.status == 400 and "not a slug" in (await r.json())["error"]
            async with s.get(base + "/api/stream?view=everything") as r:
                assert r.status == 400 and "summary" in (await r.json())["error"]
    run(go())


def test_pgn_feed_with_clock_comments_reads_back_in_python_chess():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            sm1, p1 = chess_board("1")
            sm2, p2 = chess_board("2", game=real_chess_game(3))
            hub.ingest(sm1.state(now=0))
            hub.ingest(sm2.state(now=0))
            t = 0
            for i in range(30):
                t += 1000 + 137 * i
                hub.ingest(sm1.move(*p1[i], now=t))
                hub.ingest(sm2.move(*p2[i], now=t + 50))
            hub.ingest(sm2.finish("1-0", now=t + 100))
            for st in draughts_board():
                hub.ingest(st)
            async with s.get(base + "/feed/open/1.pgn") as r:
                assert r.status == 200 and r.headers["Content-Type"].startswith("application/x-chess-pgn")
                text = await r.text()
                etag = r.headers["ETag"]
            async with s.get(base + "/feed/open/1.pgn", headers={"If-None-Match": etag}) as r:
                assert r.status == 304
            stream = io.StringIO(text)
            games = []
            while True:
                g = chess.pgn.read_game(stream)
                if g is None:
                    break
                games.append(g)
            assert len(games) == 2                                  # the draughts board is not in the PGN
            for g, sm in zip(games, (sm1, sm2)):
                assert not g.errors
                st = hub.get(sm.ident)
                board = g.board()
                sans, clks = [], []
                for node in g.mainline():
                    sans.append(board.san(node.move))
                    board.push(node.move)
                    clks.append(node.clock())
                assert sans == st["moves"]
                want = [st["clocks"][i][i % 2] // 1000 for i in range(len(sans))]
                assert [int(c) for c in clks] == want
                assert g.headers["Result"] == st["result"]
                assert g.headers["White"] == st["tags"]["White"]
            assert games[1].headers["Result"] == "1-0"
            async with s.get(base + "/feed/open/1/1.pgn") as r:
                one = await r.text()
                assert one.count("[Event ") == 1 and "{[%clk " in one
            async with s.get(base + "/feed/open/1/9.pdn") as r:
                pdn = await r.text()
                assert r.status == 200 and '[GameType "20"]' in pdn
                # black moves carry no number: pydraughts (and Lidraughts) read "12... 7-12" wrongly
                assert "1. 32-28 {[%clk 1:30:30]} 17-22 {[%clk 1:30:26]}" in pdn
            async with s.get(base + "/feed/open/1.pdn") as r:
                assert (await r.text()).count("[Event ") == 1
            async with s.get(base + "/feed/open/1/9.pgn") as r:
                assert r.status == 404 and "/feed/open/1/9.pdn" in (await r.json())["error"]
            async with s.get(base + "/feed/open/7.pgn") as r:
                assert r.status == 404
    run(go())


def test_record_text_black_first_and_numbers():
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 37"
    st = live.make_state("t", "1", "1", 2, "chess", fen, live.grid_from_fen(fen), ["Kd7", "e4"],
                         [[60000, 59000], [61000, 59000]], tags={"FEN": fen, "SetUp": "1"})
    text = feeds.record_text(st)
    assert "37... Kd7 {[%clk 0:00:59]} 38. e4 {[%clk 0:01:01]} *" in text
    g = chess.pgn.read_game(io.StringIO(text))
    assert [m.uci() for m in g.mainline_moves()] == ["e8d7", "e2e4"]


def test_arbiter_action_reaches_the_bridge_handler():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            sm, plies = chess_board()
            hub.ingest(sm.state())
            seen = []

            def handler(cmd):
                seen.append(cmd)
                if cmd["action"] == "fix_move":
                    raise ValueError("Qh9 is not a legal move at ply 3")
                hub.ingest(sm.finish(cmd["result"]))
                return {"applied": cmd["action"]}
            hub.command_handlers[("open", "1", "1")] = handler
            auth = {"Authorization": "Bearer " + TOKEN}
            async with s.post(base + "/api/board/open/1/1/arbiter", json={"action": "result", "result": "0-1"},
                              headers=auth) as r:
                body = await r.json()
                assert r.status == 200 and body["ok"] and body["reply"] == {"applied": "result"}
            assert seen == [{"action": "result", "result": "0-1"}]
            assert hub.get(("open", "1", "1"))["result"] == "0-1"
            async with s.post(base + "/api/board/open/1/1/arbiter", json={"action": "fix_move", "ply": 2, "move": "Qh9"},
                              headers=auth) as r:
                assert r.status == 422 and "not a legal move" in (await r.json())["error"]
            hub.ingest(chess_board("2")[0].state())
            async with s.post(base + "/api/board/open/1/2/arbiter", json={"action": "restart"}, headers=auth) as r:
                assert r.status == 409 and "no bridge" in (await r.json())["error"]
    run(go())


def test_positions_per_ply_and_finished_games_stay_reachable():
    async def go():
        async with running_server() as (base, hub, app), session() as s:
            sm, plies = chess_board()
            first = sm.state()
            hub.ingest(first)
            for p in plies[:6]:
                hub.ingest(sm.move(*p))
            st, body = await get_json(s, base + "/api/board/open/1/1/plies")
            assert st == 200 and len(body["plies"]) == 7
            assert body["plies"][0]["grid"] == first["grid"] and body["plies"][0]["last_move"] == []
            for i in range(6):
                assert body["plies"][i + 1]["grid"] == plies[i][2]        # the grid after each move
                assert body["plies"][i + 1]["last_move"] == plies[i][3]
            # two moves at once (a catch-up): the position between, which no state showed, is replayed
            # from the moves by the rules (the moves are on the server)
            sm.move(*plies[6])
            hub.ingest(sm.move(*plies[7]))
            st, body = await get_json(s, base + "/api/board/open/1/1/plies")
            assert body["plies"][7] == {"grid": plies[6][2], "last_move": plies[6][3]}
            assert body["plies"][8]["grid"] == plies[7][2]
            # the game ends; the board's next game starts: the finished one stays reachable
            hub.ingest(sm.finish("1-0"))
            done = hub.get(("open", "1", "1"))
            sm.tags["White"], sm.tags["Black"] = "Next, White", "Next, Black"
            hub.ingest(sm.restart())
            st, body = await get_json(s, base + "/api/board/open/1/1/games")
            assert st == 200 and body["games"] == [{"index": 0, "White": done["tags"]["White"],
                                                    "Black": done["tags"]["Black"], "result": "1-0",
                                                    "status": "finished", "moves": 8, "ts": done["ts"]}]
            assert body["current"]["White"] == "Next, White" and body["current"]["moves"] == 0
            st, old = await get_json(s, base + "/api/board/open/1/1/games/0")
            assert st == 200 and old["moves"] == done["moves"] and old["result"] == "1-0" and "pgn" in old
            assert len(old["plies"]) == 9 and old["plies"][8]["grid"] == done["grid"]
            st, err = await get_json(s, base + "/api/board/open/1/1/games/1")
            assert st == 404 and "no earlier game 1" in err["error"]
            st, body = await get_json(s, base + "/api/board/open/1/1/plies")
            assert len(body["plies"]) == 1                                 # the new game's history
            hub.ingest(chess_board("2")[0].state())
            st, rnd = await get_json(s, base + "/api/round/open/1")
            assert [b["board"] for b in rnd["boards"]] == ["1", "2"]
            assert rnd["boards"][0]["earlier"][0]["result"] == "1-0" and rnd["boards"][1]["earlier"] == []
            st, _ = await get_json(s, base + "/api/round/open/9")
            assert st == 404
            # the arbiter check the page makes before it shows its panel
            st, _ = await get_json(s, base + "/api/arbiter/check")
            assert st == 401
            async with s.get(base + "/api/arbiter/check", headers={"Authorization": "Bearer nope"}) as r:
                assert r.status == 403
            async with s.get(base + "/api/arbiter/check", headers={"Authorization": "Bearer " + TOKEN}) as r:
                assert r.status == 200
    run(go())


def test_round_feed_is_made_once_per_change_and_answers_304_when_nothing_changed():
    from flagfall.broadcast import feed_routes

    async def go():
        async with running_server() as (base, hub, app), session() as s:
            boards = [chess_board(str(b)) for b in range(1, 6)]
            for sm, plies in boards:
                hub.ingest(sm.state())
                hub.ingest(sm.move(*plies[0]))
            made = []
            plain = feeds.record_text
            feeds.record_text = lambda st: made.append(st["board"]) or plain(st)
            try:
                async with s.get(base + "/feed/open/1.pgn") as r:
                    text, etag = await r.text(), r.headers["ETag"]
                assert sorted(made) == ["1", "2", "3", "4", "5"] and text.count("[Event ") == 5
                # a relay that accepts gzip gets the round compressed; the same text either way
                async with s.get(base + "/feed/open/1.pgn", headers={"Accept-Encoding": "gzip"}) as r:
                    assert r.headers.get("Content-Encoding") == "gzip" and await r.text() == text
                async with s.get(base + "/feed/open/1.pgn", headers={"Accept-Encoding": "identity"}) as r:
                    assert "Content-Encoding" not in r.headers and await r.text() == text
                for _ in range(5):                       # relays polling: the same bytes, or 304
                    async with s.get(base + "/feed/open/1.pgn", headers={"If-None-Match": etag}) as r:
                        assert r.status == 304 and r.headers["ETag"] == etag
                    async with s.get(base + "/feed/open/1.pgn") as r:
                        assert await r.text() == text
                assert len(made) == 5                    # no record made again
                sm, plies = boards[2]
                hub.ingest(sm.move(*plies[1]))
                await asyncio.sleep(feed_routes.FEED_MIN_S + 0.05)
                async with s.get(base + "/feed/open/1.pgn", headers={"If-None-Match": etag}) as r:
                    assert r.status == 200 and r.headers["ETag"] != etag
                    assert ("2. " + plies[1][0]) not in text and plies[1][0] in await r.text()
                assert sorted(made) == ["1", "2", "3", "3", "4", "5"]   # only the changed board's record again
            finally:
                feeds.record_text = plain
    run(go())


def _dechunk(data):
    """The body of a chunked HTTP response (after its head), as far as whole chunks go."""
    out, i = [], 0
    while True:
        j = data.find(b"\r\n", i)
        if j < 0:
            break
        n = int(data[i:j], 16)
        if len(data) < j + 2 + n + 2:
            break
        out.append(data[j + 2:j + 2 + n])
        i = j + 2 + n + 2
    return b"".join(out)


def test_a_viewer_that_stops_reading_holds_nobody_back_and_catches_up_whole(monkeypatch):
    import socket
    from flagfall.broadcast import sse
    monkeypatch.setattr(sse, "HIGH_WATER", 16 * 1024)

    async def go():
        async with running_server() as (base, hub, app), session() as s:
            boards = [chess_board(str(b)) for b in range(1, 21)]
            for sm, _ in boards:
                hub.ingest(sm.state())
            host, port = base[len("http://"):].split(":")
            raw = socket.socket()
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            raw.connect((host, int(port)))
            raw.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\n\r\n")
            raw.setblocking(False)
            for _ in range(100):
                if any(v.writer for v in hub.viewers()):
                    break
                await asyncio.sleep(0.02)
            (slow_viewer,) = hub.viewers()
            # small kernel buffers on both ends, so that the server's own buffer fills soon
            slow_viewer.writer.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            async with s.get(base + "/api/stream") as r:
                model = ViewerModel()
                ev = await read_sse(r, lambda e: sum(1 for n, _ in e if n == "s") == 20)
                for n, m in ev:
                    if n == "s":
                        model.apply(m)
                lagged = False
                for i in range(45):                          # 900 states while the slow one reads nothing
                    for sm, plies in boards:
                        hub.ingest(sm.move(*plies[i]))
                    want = hub.get(boards[-1][0].ident)["seq"]
                    ev = await read_sse(r, lambda e: any(m["k"] == "open/1/20" and m["seq"] == want for n, m in e
                                                         if n == "s"), timeout=3)
                    for n, m in ev:
                        if n == "s":
                            model.apply(m)
                    lagged = lagged or slow_viewer in hub.lagging
                    assert all(len(v.pending) <= 20 for v in hub.viewers())        # bounded, whatever it misses
                assert lagged, "the slow viewer's socket never filled: the test proves nothing"
                for sm, _ in boards:                          # the reading viewer has every move, in time
                    assert model.boards["/".join(sm.ident)]["moves"] == hub.get(sm.ident)["moves"]
            # now the slow one reads: it gets the newest state of every board, whole, and is in step again
            data = b""
            loop = asyncio.get_running_loop()
            end = loop.time() + 10
            slow = ViewerModel()
            while loop.time() < end:
                try:
                    chunk = await asyncio.wait_for(loop.sock_recv(raw, 65536), 0.5)
                except asyncio.TimeoutError:
                    chunk = None
                if chunk:
                    data += chunk
                body = _dechunk(data.split(b"\r\n\r\n", 1)[1]) if b"\r\n\r\n" in data else b""
                slow = ViewerModel()
                for block in body.decode().split("\n\n"):
                    if block.startswith("event: u\ndata: "):
                        for m in json.loads(block[len("event: u\ndata: "):]):
                            slow.apply(m)
                if len(slow.boards) == 20 and all(slow.boards["/".join(sm.ident)]["seq"] == hub.get(sm.ident)["seq"]
                                                  for sm, _ in boards):
                    break
            raw.close()
            assert not slow.refetch
            for sm, _ in boards:
                got = slow.boards["/".join(sm.ident)]
                assert got["moves"] == hub.get(sm.ident)["moves"] and got["seq"] == hub.get(sm.ident)["seq"]
    run(go())
