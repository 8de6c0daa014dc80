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
from test_browser import ServerThread, _occupied, make_driver, wait_until

from flagfall import live
from flagfall.broadcast import server, synthetic
from flagfall.broadcast.hub import PUBLIC_ALERT, Hub
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
def test_alert_text_never_reaches_the_public_with_or_without_delay_the_arbiter_reads_it(tmp_path, delay_s):
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
        driver = make_driver(tmp_path)
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
