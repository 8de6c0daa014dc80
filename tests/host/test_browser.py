"""The live page in a real headless Chromium: a move made on the simulated board shows within a second.

Chain under test: simulated device (real firmware, fake hardware) -> TCP serial
line -> bridge session (reconstruction, rules, clock) -> broadcast hub ->
Server-Sent Events -> the page's JavaScript -> the DOM.
"""
import os
import re
import shutil
import threading
import time

from chromium import clock_ms, inner_width
from processes import ServerThread, wait_until
from repo import ROOT


class Board:
    """A simulated chess device with a real bridge session feeding the server."""

    def __init__(self, srv, tmp):
        from flagfall import sim as simm
        from flagfall.bridge.engine import BridgeEngine
        from flagfall.bridge.session import Session
        self.sim = simm.Simulator("pico-chess", tc="300+2", seed=1, noise=0.0, log=lambda t: None).start()
        ep = self.sim.listen_tcp("127.0.0.1", 0)
        self.engine = BridgeEngine("chess", out_dir=str(tmp), clock_mode=True, tc="300+2",
                                   tags={"White": "Anna Tester", "Black": "Bob Browser", "Event": "Browser Open"},
                                   publish=lambda st, decs: srv.publish(st), identity=["browser", "1", "1"])
        self.session = Session(ep.url(), self.engine, retry_s=0.1, log=lambda t: None)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        while not self.stop.is_set():
            self.session.step()
            time.sleep(0.01)

    def close(self):
        self.stop.set()
        self.thread.join(3)
        self.sim.stop()
        self.engine.close()


def test_move_on_simulated_board_reaches_the_page_within_a_second(tmp_path, browser):
    srv = ServerThread()
    board = Board(srv, tmp_path)
    driver = None
    try:
        driver = browser()
        driver.get(srv.url + "/")
        card = '[data-board="browser/1/1"]'
        js_text = "var e = document.querySelector(arguments[0]); return e ? e.textContent : null;"
        assert wait_until(lambda: driver.execute_script(js_text, card), 15), "the board never appeared on the page"
        assert wait_until(lambda: driver.execute_script(js_text, "#conn") == "live", 5)
        text = driver.execute_script(js_text, card)
        assert "Anna Tester" in text and "Bob Browser" in text
        assert len(driver.find_elements("css selector", card + " .sq")) == 64
        assert len(driver.find_elements("css selector", card + " svg.piece")) == 32             # SVG pieces

        # start the clock on the device, then a move made on the simulated board:
        # lift e2, put it on e4, press the clock
        board.sim.press("start")
        time.sleep(0.5)
        last = card + " .lastmove"
        board.sim.play("e4", think_ms=0, noise=0.0, press=False)
        board.sim.press("white")
        pressed = time.monotonic()
        shown = wait_until(lambda: driver.execute_script(js_text, last) == "1. e4", 3, step=0.01)
        latency = time.monotonic() - pressed
        assert shown, "the move never appeared: %r" % driver.execute_script(js_text, last)
        assert latency < 1.0, "the move took %.2f s to appear" % latency
        hi = driver.execute_script(
            "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.getAttribute('data-sq'));",
            card + " .sq.hi")
        assert sorted(hi) == ["4,4", "6,4"]                                # e2 and e4 highlighted

        # black's clock now runs on the page, counted down locally with the display model's format
        black = card + ' .clock[data-side="black"]'
        assert wait_until(lambda: "running" in (driver.execute_script(
            "var e = document.querySelector(arguments[0]); return e && e.className;", black) or ""), 3)
        t1 = driver.execute_script(js_text, black)
        time.sleep(1.6)
        t2 = driver.execute_script(js_text, black)
        assert re.fullmatch(r"\d+:\d\d", t1) and re.fullmatch(r"\d+:\d\d", t2), (t1, t2)
        assert 500 <= clock_ms(t1) - clock_ms(t2) <= 3000, (t1, t2)     # the clock ticks down live
        white_text = driver.execute_script(js_text, card + ' .clock[data-side="white"]')
        assert 300000 <= clock_ms(white_text) <= 302000, white_text      # 5:00 + 2 s increment - time used

        # black replies; the page follows
        board.sim.play("c5", think_ms=0, noise=0.0)
        assert wait_until(lambda: driver.execute_script(js_text, last) == "1... c5", 3)

        os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
        shot = tmp_path / "live-page.png"
        assert driver.save_screenshot(str(shot)) and shot.stat().st_size > 5000
        shutil.copy(str(shot), os.path.join(ROOT, "build", "browser-live-page.png"))

        # the board page: move list with clock times
        driver.get(srv.url + "/board/browser/1/1")
        assert wait_until(lambda: driver.execute_script(
            "return Array.from(document.querySelectorAll('#movelist .san')).map(e => e.textContent).join(' ');")
            == "e4 c5", 10)
        assert driver.execute_script("return document.querySelectorAll('#movelist .t').length;") == 2
        assert driver.save_screenshot(str(tmp_path / "board-page.png"))
        shutil.copy(str(tmp_path / "board-page.png"), os.path.join(ROOT, "build", "browser-board-page.png"))
        print("move to page: %.0f ms; screenshots in %s and build/" % (latency * 1000, tmp_path))
    finally:
        if driver is not None:
            driver.quit()
        board.close()
        srv.close()


def _publish_game(srv, board="1", n=10, white=None, tournament="open", round_="1"):
    """A real game's first n moves on a board, one state per move (as a bridge publishes); returns plies."""
    from broadcast_helpers import chess_board
    sm, plies = chess_board(board, tournament=tournament, round_=round_)
    if white:
        sm.tags["White"] = white
    srv.publish(sm.state())
    for p in plies[:n]:
        srv.publish(sm.move(*p))
    return sm, plies


def _occupied(driver, card):
    """{(row, col): piece description} of a drawn board, from the SVG pieces' data-piece."""
    got = driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' .sq')).map(function (s) {"
        " var p = s.querySelector('svg.piece'); return [s.getAttribute('data-sq'), p ? p.getAttribute('data-piece') : null]; });",
        card)
    return {tuple(int(x) for x in sq.split(",")): p for sq, p in got if p}


def _grid_pieces(grid):
    names = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
    return {(r, c): ("white " if ch.isupper() else "black ") + names[ch.lower()]
            for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "."}


def test_board_page_steps_through_moves_by_clicks_and_keys_flips_and_gates_the_arbiter_panel(tmp_path, browser):
    from selenium.webdriver.common.keys import Keys
    srv = ServerThread()
    driver = None
    try:
        sm, plies = _publish_game(srv, n=10)
        driver = browser()
        driver.get(srv.url + "/board/open/1/1")
        js = driver.execute_script
        sans = "return Array.from(document.querySelectorAll('#movelist .san')).map(e => e.textContent);"
        assert wait_until(lambda: len(js(sans)) == 10, 10), js(sans)
        card = '[data-board="open/1/1"]'
        assert _occupied(driver, card) == _grid_pieces(plies[9][2])          # live: the position after 10 moves
        assert js("return window.flagfall.nav().view;") is None

        def at(ply):
            want = _grid_pieces(plies[ply - 1][2]) if ply else _grid_pieces(sm.start[1])
            return wait_until(lambda: js("return window.flagfall.nav().view;") == ply
                              and _occupied(driver, card) == want, 3)

        # a click on a move shows the position after it, with that move highlighted
        driver.find_element("css selector", '#movelist .san[data-ply="4"]').click()
        assert at(4), js("return window.flagfall.nav();")
        hi = js("return Array.from(document.querySelectorAll(arguments[0])).map(e => e.getAttribute('data-sq'));",
                card + " .sq.hi")
        assert sorted(tuple(int(x) for x in h.split(",")) for h in hi) == sorted(tuple(c) for c in plies[3][3])
        assert js("return document.querySelector('#movelist .san.cur').getAttribute('data-ply');") == "4"
        assert "after 2... " in js("return document.getElementById('nav-state').textContent;")
        body = driver.find_element("css selector", "body")
        body.send_keys(Keys.ARROW_LEFT)
        assert at(3)
        body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
        assert at(5)
        body.send_keys(Keys.HOME)
        assert at(0)
        body.send_keys(Keys.END)
        assert wait_until(lambda: js("return window.flagfall.nav().view;") is None, 3)
        assert _occupied(driver, card) == _grid_pieces(plies[9][2])
        # browsing stays put while the game goes on; the live button brings the newest position back
        driver.find_element("css selector", "#nav-prev").click()
        assert at(9)
        srv.publish(sm.move(*plies[10]))
        assert wait_until(lambda: len(js(sans)) == 11, 5)
        assert at(9)
        driver.find_element("css selector", "#nav-live").click()
        assert wait_until(lambda: js("return window.flagfall.nav().view;") is None
                          and _occupied(driver, card) == _grid_pieces(plies[10][2]), 3)

        # flip: black at the bottom, the a8 corner bottom right; 'f' flips back
        first_sq = "return document.querySelector(arguments[0] + ' .sq').getAttribute('data-sq');"
        top_side = "return document.querySelector(arguments[0] + ' .player .clock').getAttribute('data-side');"
        assert js(first_sq, card) == "0,0" and js(top_side, card) == "black"
        driver.find_element("css selector", "#nav-flip").click()
        assert wait_until(lambda: js(first_sq, card) == "7,7", 3) and js(top_side, card) == "white"
        assert _occupied(driver, card) == _grid_pieces(plies[10][2])        # the same position, turned round
        body.send_keys("f")
        assert wait_until(lambda: js(first_sq, card) == "0,0", 3)

        # the arbiter panel: nothing to act with until the token is entered and accepted
        shown = lambda sel: driver.find_element("css selector", sel).is_displayed()   # noqa: E731
        assert not shown("#arb-actions") and not shown("#arb-login") and not shown("#arb-result-go")
        driver.find_element("css selector", "#arb-open").click()
        assert wait_until(lambda: shown("#arb-login"), 3)
        tok = driver.find_element("css selector", "#arb-token")
        tok.send_keys("wrong-token")
        driver.find_element("css selector", "#arb-unlock").click()
        assert wait_until(lambda: "refused (403)" in js("return document.getElementById('arb-out').textContent;"), 3)
        assert not shown("#arb-actions")
        tok.clear()
        tok.send_keys("browser-test", Keys.ENTER)
        assert wait_until(lambda: shown("#arb-actions") and shown("#arb-result-go"), 3)
        driver.find_element("css selector", "#arb-lock").click()
        assert wait_until(lambda: not shown("#arb-actions"), 3)
    finally:
        if driver is not None:
            driver.quit()
        srv.close()


def test_layout_at_phone_and_hall_screen_widths(tmp_path, browser):
    srv = ServerThread()
    driver = None
    long_name = "Karpov, Anatoly Yevgenyevich, Grandmaster of the Soviet Union"
    try:
        _publish_game(srv, "1", n=40, white=long_name)
        for b in range(2, 9):
            _publish_game(srv, str(b), n=b)
        driver = browser()
        os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
        js = driver.execute_script
        rect = "var r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.width, r.height];"
        for width in (400, 1400):
            inner_width(driver, width)
            driver.get(srv.url + "/board/open/1/1")
            assert wait_until(lambda: js("return document.querySelectorAll('#movelist .san').length;") == 40, 10)
            assert js("return document.documentElement.scrollWidth;") <= width, "the page scrolls sideways"
            # each move pair on one line: every row as tall as the first, a clock beside each move
            heights = js("return Array.from(document.querySelectorAll('#movelist li.mv')).map(e => e.getBoundingClientRect().height);")
            assert len(heights) == 20 and max(heights) < 1.5 * min(heights), heights
            lines = js("return Array.from(document.querySelectorAll('#movelist .ply')).map(function (p) {"
                       " var a = p.children[0].getBoundingClientRect(), b = p.children[1].getBoundingClientRect();"
                       " return [a.top, b.top, a.bottom, b.bottom, b.right <= p.getBoundingClientRect().right + 0.5]; });")
            assert all(abs(a_top - b_top) < 8 and fits for a_top, b_top, _, _, fits in lines), lines[:3]
            # the long name wraps, and past two lines is cut, whole in the title; the clock stays beside it
            who = '[data-board="open/1/1"] .player.white .who'
            if width == 400:
                assert js("var e = document.querySelector(arguments[0]); return e.scrollHeight > e.clientHeight + 1;", who)
            assert long_name in js("return document.querySelector(arguments[0]).title;", who)
            w, c = js(rect, who), js(rect, '[data-board="open/1/1"] .player.white .clock')
            assert w[0] + w[2] <= c[0] + 0.5 and abs(w[1] - c[1]) < 12, (w, c)
            board, aside = js(rect, "#board-area .grid"), js(rect, "main.single aside")
            assert board[2] <= width and abs(board[2] - board[3]) < 2          # square, within the screen
            if width == 400:
                assert aside[1] >= board[1] + board[3] - 1                       # the moves below the board
                assert board[2] >= 0.8 * width                                   # and the board uses the width
            else:
                assert aside[0] >= board[0] + board[2] - 1 and aside[1] < board[1] + board[3]   # side by side
            # the round: the card, the header line and the info agree (the broadcast's round, not the source game's)
            assert "round 1" in js("return document.querySelector('.card-head .round').textContent;")
            assert "round 1, board 1" in js("return document.getElementById('info').textContent;")
            assert "16" not in js("return document.querySelector('.card-head .round').textContent;")

            # the round overview: a row per board, players, clocks, by board number
            driver.get(srv.url + "/?t=open&r=1&view=list")
            assert wait_until(lambda: js("return document.querySelectorAll('#boards .row').length;") == 8, 10)
            order = js("return Array.from(document.querySelectorAll('#boards .row .bno')).map(e => e.textContent);")
            assert order == [str(b) for b in range(1, 9)]
            assert js("return document.documentElement.scrollWidth;") <= width
            lefts = js("return Array.from(document.querySelectorAll('#boards .row')).map(e => Math.round(e.getBoundingClientRect().left));")
            if width == 400:
                assert len(set(lefts)) == 1                                       # one column on a phone
            else:
                assert len(set(lefts)) >= 2                                       # several on a hall screen
            clocks = js("return Array.from(document.querySelectorAll('#boards .row .clock')).map(e => e.textContent);")
            assert len(clocks) == 16 and all(re.fullmatch(r"\d+:\d\d(:\d\d)?", t) for t in clocks), clocks
            driver.save_screenshot(str(tmp_path / ("overview-%d.png" % width)))
            shutil.copy(str(tmp_path / ("overview-%d.png" % width)), os.path.join(ROOT, "build", "browser-overview-%d.png" % width))
    finally:
        if driver is not None:
            driver.quit()
        srv.close()


def test_finished_games_stay_reachable_and_draughts_are_drawn_as_discs(tmp_path, browser):
    from flagfall import live
    from flagfall.broadcast import synthetic
    srv = ServerThread()
    driver = None
    try:
        sm, plies = _publish_game(srv, "1", n=12)
        srv.publish(sm.finish("1-0"))
        sm.tags["White"], sm.tags["Black"] = "Tal, Mikhail", "Botvinnik, Mikhail"
        srv.publish(sm.restart())                       # the board's next game begins
        srv.publish(sm.move(*plies[0]))
        start = "W:WK46,31-45:BK16,1-15"                # draughts with a king each
        dm = synthetic.StateMaker("open", "1", "2", "draughts", {"White": "Sijbrands", "Black": "Baljakin"},
                                  "5400+30", start, live.grid_from_pdn_fen(start))
        srv.publish(dm.state())
        driver = browser()
        js = driver.execute_script
        driver.get(srv.url + "/?t=open&r=1")
        assert wait_until(lambda: js("return document.querySelectorAll('#finished-list a').length;") == 1, 10)
        link = driver.find_element("css selector", "#finished-list a")
        assert "1-0" in link.text and link.get_attribute("href").endswith("/board/open/1/1?game=0")
        pieces = js("return Array.from(document.querySelectorAll('[data-board=\"open/1/2\"] svg.piece'))"
                    ".map(e => e.getAttribute('data-piece'));")
        assert len(pieces) == 32 and pieces.count("light king") == 1 and pieces.count("dark king") == 1
        assert pieces.count("light man") == 15 and pieces.count("dark man") == 15
        # the finished game: its moves, its result, stepping works on it too; the game now played is a link away
        link.click()
        sans = "return Array.from(document.querySelectorAll('#movelist .san')).map(e => e.textContent);"
        assert wait_until(lambda: js(sans) == [p[0] for p in plies[:12]], 10), js(sans)
        assert "Result: 1-0" in js("return document.getElementById('info').textContent;")
        assert not driver.find_element("css selector", "#arbiter").is_displayed()
        driver.find_element("css selector", '#movelist .san[data-ply="3"]').click()
        assert wait_until(lambda: _occupied(driver, '[data-board="open/1/1"]') == _grid_pieces(plies[2][2]), 3)
        assert wait_until(lambda: any("the game being played now" in e.text
                                      for e in driver.find_elements("css selector", "#games-list a")), 5)
        driver.get(srv.url + "/board/open/1/1")
        assert wait_until(lambda: js(sans) == [plies[0][0]], 10)
        assert wait_until(lambda: len(driver.find_elements("css selector", "#games-list a")) == 1, 5)
        assert "1-0" in driver.find_element("css selector", "#games-list a").text
    finally:
        if driver is not None:
            driver.quit()
        srv.close()
