"""One board state: the bridge's state is a query, its alert is computed once (in one order) and read by
the public state and the dashboard alike, the public sees it through one projection, and the dashboard
is pushed to the arbiter's page over SSE (GET /api/event/stream) with GET /api/event's content.

No devices: the boards' engines are fed frames by hand, and the event is served in a thread on a free port.
"""
import asyncio
import json
import os
import threading
import time
import urllib.error
import urllib.request

from flagfall import live
from flagfall.broadcast import server
from flagfall.broadcast.hub import Hub
from flagfall.bridge import boardstate
from flagfall.event import runner, web
from flagfall.tournament import model

TOKEN = "board-state-test-token"


def event(tmp_path, publish=None):
    players = [model.Player("P%d" % i, rating=2000 + i) for i in range(4)]
    rnd = model.Round("Club", "Here", None, "300+2", 1, [model.Pairing(1, players[0], players[1]),
                                                         model.Pairing(2, players[2], players[3])])
    ev = runner.Event(rnd, tournament="club", out_dir=str(tmp_path), penalties="auto", publish=publish)
    for b in ev.boards.values():
        b.open_engine()
    return ev


def ready(eng, t=1):
    eng.frame(t, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
    eng.frame(t + 1, "SNAP", [2, 64, "FFFF00000000FFFF"])


def test_state_is_a_query_and_each_published_state_is_newer(tmp_path):
    published = []
    ev = event(tmp_path, publish=published.append)
    eng = ev.board(1).engine
    ready(eng)
    first, again = eng.state(), eng.state()
    assert first["seq"] == again["seq"], "state() must not advance the sequence number"
    assert first["pgn"] == again["pgn"]
    eng.frame(3, "SQ", [1, [52, 0]])
    eng.frame(4, "SQ", [2, [36, 1]])
    eng.tick(4000)                                   # the board settles: e4 is committed and published
    seqs = [s["seq"] for s in published]
    assert seqs and seqs == sorted(set(seqs)), seqs
    assert eng.state()["seq"] == seqs[-1] and eng.state()["moves"] == ["e4"]
    # the record's text the state carries is the record file's (built once for both)
    with open(ev.board(1).record_path, encoding="utf-8") as f:
        assert published[-1]["pgn"] == f.read()
    ev.stop()


def test_the_one_alert_in_its_order_for_the_state_and_the_dashboard(tmp_path):
    ev = event(tmp_path)
    b = ev.board(1)
    eng = b.engine
    ready(eng)
    assert eng.alert() is None and b.summary()["alert"] is None
    # the record cannot be written (a folder stands where the file goes): a storage alert
    os.remove(b.record_path)
    os.mkdir(b.record_path)
    eng.write_record()
    assert eng.alert() and "cannot write" in eng.alert()
    # a flag with no clock reading to check it against is refused: it would have decided the game
    eng.frame(5, "FLAG", [5, 0, 5])
    refused = eng.alert()
    assert refused.startswith("refused: "), refused          # before the storage alert
    assert eng.state()["alert"] == refused and b.summary()["alert"] == refused
    assert b.status() == boardstate.ALERT and eng.state()["status"] == "alert"
    # the game's own alert comes first
    eng.game.set_alert(6, "check the board")
    game_alert = eng.game.alert
    assert game_alert and eng.alert() == game_alert and b.summary()["alert"] == game_alert
    ev.stop()


def test_the_public_view_is_one_projection():
    st = live.make_state("t", "1", "1", 3, "chess", "8/8/8/8/8/8/8/8 w - - 0 1", ["........"] * 8,
                         alert="White's illegal move: Ke2", alert_kind="illegal",
                         penalty={"side": "white", "text": "2:00 to Black"})
    pub = live.public_view(st)
    assert pub["alert"] == live.PUBLIC_ALERT and "alert_kind" not in pub and "penalty" not in pub
    assert st["alert"] == "White's illegal move: Ke2" and st["penalty"]["side"] == "white"   # a copy
    hub = Hub()
    assert hub.ingest(st)
    e = hub.boards[("t", "1", "1")]
    assert e.state == dict(pub, moved_at=e.state["moved_at"])
    assert (e.alert, e.alert_kind, e.penalty) == (st["alert"], "illegal", st["penalty"])


class Served:
    """The event's dashboard on a broadcast application, in a thread, on a free port."""

    def __init__(self, ev):
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.event = ev
        threading.Thread(target=self._run, daemon=True).start()
        assert self.ready.wait(10), "the server did not start"

    def _run(self):
        asyncio.set_event_loop(self.loop)
        app = server.make_app(Hub(self.loop), token=TOKEN)
        web.attach(app, self.event)
        self.runner = self.loop.run_until_complete(server.start(app, "127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d/" % server.bound_port(self.runner)
        self.ready.set()
        self.loop.run_forever()

    def request(self, path, body=None, token=TOKEN):
        headers = {"Authorization": "Bearer " + token} if token else {}
        if body is not None:
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url + path, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers)
        return urllib.request.urlopen(req, timeout=10)

    def close(self):
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)


def messages(resp):
    """The stream's `dashboard` messages, as they come (heartbeats and the retry line passed over)."""
    kind, data = None, []
    for raw in resp:
        line = raw.decode().rstrip("\n")
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data.append(line[6:])
        elif not line:
            if kind == "dashboard":
                yield json.loads("\n".join(data))
            kind, data = None, []


def test_the_dashboard_is_pushed_with_the_content_of_the_api(tmp_path):
    ev = event(tmp_path)
    srv = Served(ev)
    try:
        try:
            srv.request("api/event/stream", token=None)
            raise AssertionError("the stream answered without the token")
        except urllib.error.HTTPError as e:
            assert e.code == 401
        resp = srv.request("api/event/stream")
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        stream = messages(resp)
        pushed = next(stream)
        asked = json.load(srv.request("api/event"))
        assert {k: v for k, v in pushed.items() if k != "now"} == {k: v for k, v in asked.items() if k != "now"}
        # an action: its outcome comes over the stream, nothing asked
        t0 = time.monotonic()
        srv.request("api/event/board/1", {"action": "forfeit", "forfeit": "+/-"}).read()
        after = next(stream)
        assert after["boards"][0]["result"] == "+/-" and after["boards"][0]["status"] == boardstate.FINISHED, \
            after["boards"][0]
        assert time.monotonic() - t0 < 5
        resp.close()
    finally:
        srv.close()
        ev.stop()
