"""The live page in a real headless Chromium: a move made on the simulated board shows within a second.

Chain under test: simulated device (real firmware, fake hardware) -> TCP serial
line -> bridge session (reconstruction, rules, clock) -> broadcast hub ->
Server-Sent Events -> the page's JavaScript -> the DOM.
"""
import asyncio
import os
import re
import shutil
import threading
import time

import pytest

from flagfall.broadcast import server

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTALL = ("the browser test needs Chromium and its driver from Debian: "
           "`sudo apt-get install chromium chromium-driver` (or `make setup`)")


class ServerThread:
    """The broadcast server on its own event loop in a thread, on a free loopback port."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "server did not start"

    def _run(self):
        asyncio.set_event_loop(self.loop)
        from flagfall.broadcast.hub import Hub
        self.hub = Hub(self.loop)
        self.app = server.make_app(self.hub, token="browser-test")
        self.runner = self.loop.run_until_complete(server.start(self.app, "127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % server.bound_port(self.runner)
        self.ready.set()
        self.loop.run_forever()

    def publish(self, state):
        self.loop.call_soon_threadsafe(self.hub.ingest, state)

    def close(self):
        fut = asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop)
        fut.result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


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


def make_driver(tmp_path):
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.fail(INSTALL)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--user-data-dir=%s" % (tmp_path / "chromium-profile")):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


def wait_until(fn, timeout, step=0.02):
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > end:
            return v
        time.sleep(step)


def clock_ms(text):
    """Milliseconds from a clock face text (h:mm:ss, m:ss or m:ss.t)."""
    m = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d)(?:\.(\d))?", text)
    assert m, text
    h, mi, s, t = m.groups()
    return ((int(h or 0) * 60 + int(mi)) * 60 + int(s)) * 1000 + int(t or 0) * 100


def test_move_on_simulated_board_reaches_the_page_within_a_second(tmp_path):
    srv = ServerThread()
    board = Board(srv, tmp_path)
    driver = None
    try:
        driver = make_driver(tmp_path)
        driver.get(srv.url + "/")
        card = '[data-board="browser/1/1"]'
        js_text = "var e = document.querySelector(arguments[0]); return e ? e.textContent : null;"
        assert wait_until(lambda: driver.execute_script(js_text, card), 15), "the board never appeared on the page"
        assert wait_until(lambda: driver.execute_script(js_text, "#conn") == "live", 5)
        text = driver.execute_script(js_text, card)
        assert "Anna Tester" in text and "Bob Browser" in text
        assert len(driver.find_elements("css selector", card + " .sq")) == 64
        assert len(driver.find_elements("css selector", card + " .pc")) == 32

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
