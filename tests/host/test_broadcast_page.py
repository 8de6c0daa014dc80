"""The public page of an event in headless Chromium, and the server calls behind it.

Alerts never reach the public (the page, the overview, the API, the stream: only "arbiter at
the board"), with or without a delay, while the arbiter still reads the full text; draughts
square numbers, the position as text, clocks and footer that follow the move viewed, the
result with its reason, embedding and sharing, compressed static files and the overview's
weight. The event's three demo rounds (round selector, archive, standings, flags and titles,
screenshots) are in test_broadcast_event_page.py.
"""
import asyncio
import gzip
import json
import os
import re
import time
import urllib.request

import pytest
from selenium.webdriver.common.keys import Keys

from broadcast_helpers import chess_board
from processes import ServerThread, wait_until

from flagfall import live
from flagfall.broadcast import api, pages, server, synthetic
from flagfall.broadcast.hub import Hub
from flagfall.live import PUBLIC_ALERT
from flagfall.event import web as event_web

ALERT = "illegal move by White: the arbiter applies the penalty (FIDE 7.5.5) and restores Nf3"


def fetch(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


def _alerting_board(srv_publish, round_="1", board="1"):
    sm, plies = chess_board(board, round_=round_)
    for p in plies[:6]:
        srv_publish(sm.move(*p))
    sm.alert, sm.status = ALERT, "alert"
    srv_publish(sm.state())
    return sm


def _page_text(driver):
    return driver.execute_script("return document.body.innerText + ' ' + Array.from(document.querySelectorAll('[title],[aria-label]'))"
                                 ".map(e => (e.title || '') + ' ' + (e.getAttribute('aria-label') || '')).join(' ');")


@pytest.mark.parametrize("delay_s", [0.0, 0.3])
def test_alert_text_never_reaches_the_public_with_or_without_delay_the_arbiter_reads_it(tmp_path, delay_s, browser):
    srv = ServerThread()
    driver = None
    try:
        feed = event_web.DelayedFeed(srv.hub, srv.loop, delay_s)      # the event's way into the public hub
        _alerting_board(feed)
        time.sleep(delay_s + 0.3)
        # the API and the stream: the public text only
        st, _, body = fetch(srv.url + "/api/board/open/1/1")
        board = json.loads(body)
        assert st == 200 and board["alert"] == PUBLIC_ALERT and board["status"] == "alert"
        for url in ("/api/boards", "/api/round/open/1", "/api/board/open/1/1/plies"):
            st, _, body = fetch(srv.url + url)
            assert st == 200 and b"illegal" not in body and b"penalty" not in body, url
        # the arbiter's call: refused without the token, the full text with it
        st, _, _ = fetch(srv.url + "/api/board/open/1/1/alert")
        assert st == 401
        st, _, body = fetch(srv.url + "/api/board/open/1/1/alert", {"Authorization": "Bearer browser-test"})
        assert st == 200 and json.loads(body)["alert"] == ALERT
        driver = browser()
        js = driver.execute_script
        for page in ("/", "/?view=list", "/?t=open&r=1", "/board/open/1/1", "/board/open/1/1?embed=1"):
            driver.get(srv.url + page)
            assert wait_until(lambda: js("return document.querySelector('[data-board=\"open/1/1\"]') !== null;"), 10), page
            assert wait_until(lambda: PUBLIC_ALERT in _page_text(driver), 5), (page, _page_text(driver)[:500])
            text = _page_text(driver)
            assert not any(w in text for w in ("illegal", "penalty", "7.5.5", "restores")), (page, text[:800])
        # the arbiter, once the token is in, sees the full text on the board page
        driver.get(srv.url + "/board/open/1/1")
        assert wait_until(lambda: js("return document.querySelector('[data-board=\"open/1/1\"]') !== null;"), 10)
        driver.find_element("css selector", "#arb-open").click()
        assert wait_until(lambda: driver.find_element("css selector", "#arb-token").is_displayed(), 3)
        driver.find_element("css selector", "#arb-token").send_keys("browser-test", Keys.ENTER)
        assert wait_until(lambda: ALERT in js("return document.getElementById('arb-alert').textContent;"), 5), \
            js("return document.getElementById('arb-out').textContent + ' | ' + document.getElementById('arb-alert').outerHTML;")
    finally:
        if driver is not None:
            driver.quit()
        srv.close()


def test_hub_keeps_the_alert_text_for_the_arbiter_and_records_when_the_last_move_was_made():
    hub = Hub()
    sm, plies = chess_board("1")
    hub.ingest(sm.move(*plies[0], now=1000))
    first = hub.get(("open", "1", "1"))
    assert first["moved_at"] == first["ts"] and first["alert"] is None
    sm.alert, sm.status = ALERT, "alert"
    st = sm.state(now=2000)
    hub.ingest(st)
    e = hub.boards[("open", "1", "1")]
    assert e.alert == ALERT and e.state["alert"] == PUBLIC_ALERT
    assert st["alert"] == ALERT                              # the publisher's own state is left as it was
    assert e.state["moved_at"] == first["moved_at"]          # no move since: the same moment
    assert ALERT.encode() not in e.full() + e.sfull() + e.delta() + e.sdelta()
    sm.alert, sm.status = None, "playing"
    hub.ingest(sm.move(*plies[1], now=3000))
    e = hub.boards[("open", "1", "1")]
    assert e.alert is None and e.state["alert"] is None and e.state["moved_at"] == e.state["ts"]


from repo import ROOT as ROOT_DIR

TRF_EXERCISE = os.path.join(ROOT_DIR, "tests", "data", "event", "fide-c07-2023-swiss5.trf")
CODE_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


def _trf_rounds(path):
    """{name: [(opponent rank, colour, code) per round]} read here column by column (an oracle)."""
    out = {}
    for line in open(path, encoding="utf-8"):
        if line.startswith("001"):
            name = line[14:47].strip()
            out[name] = [(line[91 + 10 * r:95 + 10 * r].strip(), line[96 + 10 * r], line[98 + 10 * r])
                         for r in range(5) if 98 + 10 * r < len(line.rstrip("\n"))]
    return out


def test_standings_start_from_the_trf_and_the_games_played_take_over():
    from flagfall import records
    from flagfall.tournament import standings, trf
    base = trf.parse_trf(records.read_text(TRF_EXERCISE), TRF_EXERCISE)
    rounds = _trf_rounds(TRF_EXERCISE)
    points_column = {line[14:47].strip(): float(line[80:84]) for line in open(TRF_EXERCISE) if line.startswith("001")}
    # after the last round: every player's points as the TRF's own points column says
    rows = standings.table([], 5, trf=base)
    assert {r["name"]: r["points"] for r in rows} == points_column
    assert [r["points"] for r in rows] == sorted((r["points"] for r in rows), reverse=True)
    # after round 3: the first three result columns
    after3 = {n: sum(CODE_POINTS.get(c[2], 0.0) for c in rs[:3]) for n, rs in rounds.items()}
    assert {r["name"]: r["points"] for r in standings.table([], 3, trf=base)} == after3
    # Buchholz: the opponents' points (games played over the board), Sonneborn-Berger and wins from them
    bruno = next(r for r in rows if r["name"] == "Bruno")
    names = {str(p.start_rank): p.name for p in (pl.player() for pl in base.players.values())}
    opp = [(names[o], code) for o, _, code in rounds["Bruno"] if code in "1=0"]
    assert bruno["buchholz"] == sum(points_column[o] for o, _ in opp)
    assert bruno["sb"] == sum(points_column[o] * {"1": 1.0, "=": 0.5, "0": 0.0}[c] for o, c in opp)
    assert bruno["wins"] == sum(c[2] in "1+WFU" and c[2] != "U" for c in rounds["Bruno"])
    # a round played here (round 5 broadcast): its games' results replace the TRF's column for it
    seat = {p.name: standings.Seat(p.name, p.title, p.federation, p.rating) for p in base.players.values()}
    assert rounds["Bruno"][4][2] == "="                                     # the TRF: Bruno drew Charline
    played = standings.Game(5, seat["Bruno"], seat["Charline"], "0-1")     # here Charline won it
    rows = standings.table([played], 5, trf=base)
    got = {r["name"]: r["points"] for r in rows}
    assert got["Bruno"] == points_column["Bruno"] - 0.5
    assert got["Charline"] == points_column["Charline"] + 0.5
    assert rows[0]["name"] == "Charline" and rows[0]["rank"] == 1
    # a game still being played counts nothing yet
    playing = standings.Game(5, seat["Bruno"], seat["Charline"], None)
    got = {r["name"]: r["points"] for r in standings.table([playing], 5, trf=base)}
    assert got["Bruno"] == points_column["Bruno"] - CODE_POINTS[rounds["Bruno"][4][2]]


def test_standings_of_a_mixed_event_are_one_table_per_game_served_by_the_api(tmp_path):
    srv = ServerThread()
    try:
        sm, plies = chess_board("1", tournament="cup")
        sm.tags.update({"WhiteTitle": "GM", "WhiteFed": "NOR", "BlackFed": "USA"})
        srv.publish(sm.move(*plies[0]))
        srv.publish(sm.finish("0-1"))
        start = "W:W31-50:B1-20"
        dm = synthetic.StateMaker("cup", "1", "2", "draughts", {"White": "Sijbrands", "Black": "Baljakin"},
                                  "5400+30", start, live.grid_from_pdn_fen(start))
        srv.publish(dm.state())
        srv.publish(dm.finish("1-1"))
        dw = synthetic.StateMaker("cup", "1", "3", "draughts", {"White": "Georgiev", "Black": "Schwarzman"},
                                  "5400+30", start, live.grid_from_pdn_fen(start))
        srv.publish(dw.state())
        srv.publish(dw.finish("2-0"))
        time.sleep(0.3)
        st, _, body = fetch(srv.url + "/api/standings/cup/1")
        data = json.loads(body)
        assert st == 200 and data["complete"] is True
        tables = {t["game"]: t["rows"] for t in data["tables"]}
        assert set(tables) == {"chess", "draughts"}
        white, black = sm.tags["White"], sm.tags["Black"]
        assert [(r["rank"], r["name"], r["points"]) for r in tables["chess"]] == [(1, black, 1.0), (2, white, 0.0)]
        assert tables["chess"][1]["title"] == "GM" and tables["chess"][1]["federation"] == "NOR"
        # draughts on the FMJD scale (the registry's 2-0 / 1-1): a win 2, a draw 1 (issue 34)
        assert [(r["rank"], r["name"], r["points"]) for r in tables["draughts"]] == [
            (1, "Georgiev", 2.0), (2, "Baljakin", 1.0), (2, "Sijbrands", 1.0), (4, "Schwarzman", 0.0)]
        st, _, body = fetch(srv.url + "/api/standings/cup/x")
        assert st == 400 and "round number" in json.loads(body)["error"]
        st, _, body = fetch(srv.url + "/api/rounds?t=cup")
        assert json.loads(body)["rounds"] == [{"t": "cup", "r": "1", "boards": 3, "finished": 3, "adjourned": 0,
                                               "games": ["chess", "draughts"], "playing": 0, "status": "finished"}]
    finally:
        srv.close()


def test_static_files_compressed_and_cached_flags_shipped_embedding_configurable():
    srv = ServerThread()
    try:
        static_dir = pages.STATIC_DIR
        for name in ("app.js", "style.css", "index.html", "pieces.js"):
            st, headers, body = fetch(srv.url + "/static/" + name, {"Accept-Encoding": "gzip"})
            plain = open(os.path.join(static_dir, name), "rb").read()
            assert st == 200 and headers["Content-Encoding"] == "gzip" and gzip.decompress(body) == plain, name
            assert len(body) < len(plain) / 2 and "Accept-Encoding" in headers["Vary"]
            st, headers, body = fetch(srv.url + "/static/" + name)
            assert st == 200 and "Content-Encoding" not in headers and body == plain
            st, _, _ = fetch(srv.url + "/static/" + name, {"If-None-Match": headers["ETag"]})
            assert st == 304
        # flags: shipped with their licence, served by FIDE code; a code with no flag is a clear 404
        flags = sorted(f[:-4] for f in os.listdir(os.path.join(static_dir, "flags")) if f.endswith(".svg"))
        assert "POL" in flags and "NED" in flags and len(flags) > 100
        assert "MIT" in open(os.path.join(static_dir, "flags", "LICENSE")).read()
        st, headers, body = fetch(srv.url + "/static/flags/POL.svg")
        assert st == 200 and headers["Content-Type"] == "image/svg+xml" and body.startswith(b"<svg")
        st, headers, body = fetch(srv.url + "/static/flags/LICENSE")         # linked from the page's footer
        assert st == 200 and b"MIT" in body and headers["Content-Type"].startswith("text/plain")
        st, _, body = fetch(srv.url + "/static/flags/XYZ.svg")
        assert st == 404 and "no flag" in json.loads(body)["error"]
        # framing: never without ?embed=1; with it, any site by default, or only those configured
        for page in ("/", "/board/a/1/1"):
            _, headers, _ = fetch(srv.url + page)
            assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
            _, headers, _ = fetch(srv.url + page + "?embed=1")
            assert "frame-ancestors *;" in headers["Content-Security-Policy"]
        app = server.make_app(Hub(), token="t", frame_ancestors="https://club.example self")
        assert app[pages.ANCESTORS_KEY] == "https://club.example 'self'"
        with pytest.raises(ValueError, match="frame ancestor"):
            server.make_app(Hub(), token="t", frame_ancestors="javascript:alert(1)")
    finally:
        srv.close()


CONTRAST = """
function lum(c) { var v = c.map(function (x) { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; }
function rgba(s) { var m = s.match(/[\\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; }
function over(top, under) { var a = top[3]; return [0, 1, 2].map(function (i) { return top[i] * a + under[i] * (1 - a); }); }
function background(e) {      // the colour behind e: its own and its ancestors' backgrounds, blended
  var layers = [];
  for (var n = e; n && n.nodeType === 1; n = n.parentElement) {
    var b = rgba(getComputedStyle(n).backgroundColor);
    if (b[3] > 0) { layers.push(b); if (b[3] >= 1) break; }
  }
  var c = [255, 255, 255];
  for (var i = layers.length - 1; i >= 0; i--) c = over(layers[i], c);
  return c;
}
return Array.from(document.querySelectorAll(arguments[0])).filter(function (e) { return e.offsetParent && e.textContent.trim(); })
  .map(function (e) { var f = rgba(getComputedStyle(e).color), b = background(e), fg = over(f, b);
    var l1 = lum(fg), l2 = lum(b); return [e.className + ' ' + e.textContent.slice(0, 12), (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05)]; });
"""


def test_text_contrast_at_least_4_5_to_1_and_a_labelled_board(tmp_path, browser):
    srv = ServerThread()
    driver = None
    try:
        sm, plies = chess_board("1")
        sm.tags.update({"WhiteTitle": "GM", "WhiteFed": "XYZ", "WhiteElo": "2700"})
        for p in plies[:8]:
            srv.publish(sm.move(*p))
        start = "W:W31-50:B1-20"
        dm = synthetic.StateMaker("open", "1", "2", "draughts", {"White": "Sijbrands", "Black": "Baljakin"},
                                  "5400+30", start, live.grid_from_pdn_fen(start))
        srv.publish(dm.state())
        driver = browser()
        js = driver.execute_script
        text = ".movelist .num, .movelist .t, .sq i, .elo, .fed, .since, .navstate, .hint, .card-foot span, .card-head span, " \
               ".views a, .conn, abbr.title, .meta, .clock, footer, .share label"
        for page, ready in (("/board/open/1/1", "#movelist .num"), ("/board/open/1/2", ".sq i.num"), ("/?t=open&r=1", ".card")):
            driver.get(srv.url + page)
            assert wait_until(lambda: js("return document.querySelector(arguments[0]) !== null;", ready), 10), page
            time.sleep(0.3)
            got = js(CONTRAST, text)
            assert len(got) > 10, got
            low = [(what, round(ratio, 2)) for what, ratio in got if ratio < 4.5]
            assert low == [], (page, low)
        # the board: a role and a label that reads the position; the federation without a flag shows its code
        driver.get(srv.url + "/board/open/1/1")
        assert wait_until(lambda: js("return document.querySelector('#board-area .board-img[role=img]') !== null;"), 10)
        # its 64 squares stay out of the accessibility tree (they were 64 generic nodes, the pieces more)
        tree = driver.execute_cdp_cmd("Accessibility.getFullAXTree", {})["nodes"]
        generic = [n for n in tree if (n.get("role") or {}).get("value") == "generic"]
        assert len(generic) < 40, len(generic)
        assert [(n.get("name") or {}).get("value", "") for n in tree
                if (n.get("role") or {}).get("value") == "image"][:1][0].startswith("Board 1, chess, ")
        label = js("return document.querySelector('#board-area .board-img').getAttribute('aria-label');")
        assert label.startswith("Board 1, chess,") and re.search(r"white king [a-h][1-8]; ", label), label
        assert "; black king " in label and "white pawns " in label
        assert wait_until(lambda: js("return Array.from(document.querySelectorAll('.fed')).map(e => e.textContent);")[:1] == ["XYZ"], 5)
        driver.get(srv.url + "/board/open/1/2")
        assert wait_until(lambda: "white men 31 32 33" in (js("return (document.querySelector('#board-area .board-img') || {getAttribute: () => ''}).getAttribute('aria-label');") or ""), 10)
    finally:
        if driver is not None:
            driver.quit()
        srv.close()


def test_a_delayed_state_reaches_the_public_with_its_clock_moved_on_by_the_delay():
    loop = asyncio.new_event_loop()
    try:
        hub = Hub(loop)
        sm, plies = chess_board("1")
        st = sm.move(*plies[0])
        before = json.dumps(st, sort_keys=True)
        event_web.DelayedFeed(hub, loop, 0.2)(st)
        loop.run_until_complete(asyncio.sleep(0.35))
        held = hub.get(("open", "1", "1"))
        assert held is not None, "the state never reached the hub"
        assert held["clock"]["at_ms"] == st["clock"]["at_ms"] + 200 and held["ts"] == st["ts"] + 200
        assert held["moves"] == st["moves"] and held["clock"]["black_ms"] == st["clock"]["black_ms"]
        assert json.dumps(st, sort_keys=True) == before          # the hall's own state is left alone
    finally:
        loop.close()


def test_the_flags_and_their_licence_are_package_data():
    import fnmatch
    import tomllib
    with open(os.path.join(ROOT_DIR, "pyproject.toml"), "rb") as f:
        st = tomllib.load(f)["tool"]["setuptools"]
    assert "flagfall.broadcast.static.flags" in st["packages"]
    patterns = st["package-data"]["flagfall.broadcast.static.flags"]
    for name in os.listdir(os.path.join(pages.STATIC_DIR, "flags")):
        assert any(fnmatch.fnmatch(name, pat) for pat in patterns), (name, patterns)


def test_square_names_draughts_8x8_numbers_and_minzu_coordinates(tmp_path, browser):
    srv = ServerThread()
    driver = None
    try:
        start = "W:W21-32:B1-12"
        rm = synthetic.StateMaker("open", "1", "1", "russian", {"White": "A", "Black": "B"}, "600+5", start,
                                  live.grid_from_pdn_fen(start, 8))
        srv.publish(rm.state())
        grid = ["x.....", "......", "..o...", "......", "......", ".....o"]
        mm = synthetic.StateMaker("open", "1", "2", "minzu", {"White": "C", "Black": "D"}, "600+5", "x", grid)
        srv.publish(mm.state())
        driver = browser()
        js = driver.execute_script
        driver.get(srv.url + "/board/open/1/1")
        nums = "return Array.from(document.querySelectorAll('#board-area .sq i.num')).map(e => e.textContent);"
        assert wait_until(lambda: js(nums) == [str(n) for n in range(1, 33)], 10), js(nums)
        assert js("return document.querySelector('#board-area .sq[data-sq=\"0,1\"] i.num').textContent;") == "1"
        assert js("return document.querySelector('#board-area .sq[data-sq=\"7,6\"] i.num').textContent;") == "32"
        label = js("return document.querySelector('#board-area .board-img').getAttribute('aria-label');")
        assert "white men 21 22 23" in label and "black men 1 2 3" in label, label
        driver.get(srv.url + "/board/open/1/2")
        assert wait_until(lambda: js("return document.querySelectorAll('#board-area .sq').length;") == 36, 10)
        rows = js("return Array.from(document.querySelectorAll('#board-area .sq i.rank')).map(e => e.textContent);")
        cols = js("return Array.from(document.querySelectorAll('#board-area .sq i.file')).map(e => e.textContent);")
        assert rows == list("ABCDEF") and cols == [str(c) for c in range(6)], (rows, cols)
        label = js("return document.querySelector('#board-area .board-img').getAttribute('aria-label');")
        assert "light stone A0" in label and "dark stones C2 F5" in label, label
        assert "light stone A0" in js("return document.getElementById('position-pieces').textContent;")
    finally:
        if driver is not None:
            driver.quit()
        srv.close()


def test_standings_api_starts_from_the_event_trf_and_reads_it_again_when_it_changes(tmp_path):
    import shutil

    import aiohttp
    path = str(tmp_path / "pairings.trf")
    shutil.copy(TRF_EXERCISE, path)
    points_column = {line[14:47].strip(): float(line[80:84]) for line in open(TRF_EXERCISE) if line.startswith("001")}

    async def main():
        app = server.make_app(token="t")
        app[api.STANDINGS_TRF_KEY] = path          # as flagfall.event.web.attach sets it
        runner = await server.start(app, "127.0.0.1", 0)
        url = "http://127.0.0.1:%d/api/standings/ex/5" % server.bound_port(runner)
        try:
            fen, grid = synthetic.chess_start()
            sm = synthetic.StateMaker("ex", "5", "1", "chess", {"White": "Bruno", "Black": "Charline"}, "5400+30", fen, grid)
            server.hub_of(app).ingest(sm.state())
            async with aiohttp.ClientSession() as s:
                async def table():
                    async with s.get(url) as r:
                        assert r.status == 200
                        d = await r.json()
                        return d["complete"], {x["name"]: x["points"] for x in d["tables"][0]["rows"]}
                done, pts = await table()
                # round 5 being played here: Bruno and Charline's round 5 not counted yet, everyone else's from the TRF
                assert not done and len(pts) == 16 and pts["Alyx"] == points_column["Alyx"]
                assert pts["Bruno"] == points_column["Bruno"] - 0.5 and pts["Charline"] == points_column["Charline"] - 0.5
                server.hub_of(app).ingest(sm.finish("0-1"))
                done, pts = await table()
                assert done and pts["Bruno"] == points_column["Bruno"] - 0.5 and pts["Charline"] == points_column["Charline"] + 0.5
                # the pairing program rewrites the file: Alyx's round 5 becomes a loss (the TRF is read again)
                lines = open(path).read().splitlines(True)
                i = next(n for n, line in enumerate(lines) if "Alyx" in line)
                assert lines[i][138] == "="
                lines[i] = lines[i][:138] + "0" + lines[i][139:]
                open(path, "w").write("".join(lines))
                os.utime(path, (time.time() + 5, time.time() + 5))
                done, pts = await table()
                assert pts["Alyx"] == points_column["Alyx"] - 0.5
        finally:
            await runner.cleanup()

    asyncio.run(main())
