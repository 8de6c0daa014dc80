"""A round from a FIDE TRF scores on its own scale (issue 34 item 3): a draughts round counts a win 2 and
a draw 1 (FMJD), a chess event with its own scoring (`--scoring 3-1-0`, an event file's [tournament]
scoring) 3 and 1, everywhere the standings are shown - the public page (headless Chromium),
/api/standings and the round's results TRF, which a pairing engine reads back on the same scale
(test_event_pairings.engine_misreads).

The expected points are added up here from the pairing file's columns and the results entered, apart
from Flagfall's reader.
"""
import os
import shutil

import pytest

from flagfall.tournament import standings
from processes import EventProcess, call, wait_until
from repo import ROOT
from test_broadcast_event_page import standings_on_page
from test_event_pairings import engine_misreads

TRF = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.trf")    # 19 players, rounds 1-3 played, 4 paired
SLUG = "flagfall-autumn-open-2026"
RESULTS = ["W", "D", "L", "W", "D", "W", "L", "W", "D"]      # round 4, board by board: White's result
WRITTEN = {"draughts": {"W": "2-0", "D": "1-1", "L": "0-2"}, "chess": {"W": "1-0", "D": "1/2-1/2", "L": "0-1"}}
CATEGORY = {"1": "W", "+": "W", "W": "W", "F": "W", "U": "W", "=": "D", "D": "D", "H": "D"}   # a TRF's codes


def expected_points(trf_text, boards, win, draw):
    """{name: points after round 4}: every result code of the file's rounds 1-4 (round 4's byes) at `win`
    and `draw` points, plus the points of round 4's boards as entered."""
    value = {"W": win, "D": draw, "L": 0.0}
    pts = {}
    for line in trf_text.splitlines():
        if line.startswith("001"):
            codes = [line.ljust(140)[91 + 10 * r + 7] for r in range(4)]
            pts[line[14:47].strip()] = sum(value[CATEGORY.get(c, "L")] for c in codes)
    for b, result in zip(boards, RESULTS):
        pts[b["white"]] += value[result]
        pts[b["black"]] += value[{"W": "L", "D": "D", "L": "W"}[result]]
    return pts


@pytest.mark.parametrize("game, scoring, win, draw", [
    ("draughts", None, 2.0, 1.0),           # the game's own scale: FMJD's 2-1-0
    ("chess", "3-1-0", 3.0, 1.0),           # the event's own scoring (an event file's [tournament] scoring)
])
def test_a_round_scores_on_its_scale_on_the_page_the_api_and_the_trf(tmp_path, browser, game, scoring, win, draw):
    pairings = tmp_path / "open.trf"
    shutil.copy(TRF, pairings)
    out = tmp_path / "out"
    ev = EventProcess("--pairings", str(pairings), "--round", "4", "--game", game, "--sim", "9",
                      "--out", str(out), "--quiet", *(["--scoring", scoring] if scoring else []))
    try:
        d = ev.wait(lambda d: len(d["boards"]) == 9)
        boards = sorted(d["boards"], key=lambda b: b["board"])
        for b, result in zip(boards, RESULTS):
            st, reply = call(ev.url + "api/event/board/%d" % b["board"],
                             {"action": "result", "result": WRITTEN[game][result]})
            assert st == 200 and reply["ok"], reply
        ev.wait(lambda d: d["finished"] == d["total"], timeout=30)
        results_trf = out / "round-4-results.trf"
        assert wait_until(results_trf.exists, 20), "no round-4-results.trf; output: %s" % "".join(ev.lines)[-2000:]
        with open(TRF, encoding="utf-8", newline="") as f:
            want = expected_points(f.read(), boards, win, draw)
        assert want["Bauer, Felix"] == 4 * win        # three wins before the round and board 1's win
        # the API, once every result of the round has reached the public side
        def standings_now():
            st, data = call(ev.url + "api/standings/%s/4" % SLUG, token=None)
            assert st == 200, data
            return data
        data = wait_until(lambda: (lambda data: data if data["complete"] else None)(standings_now()), 10)
        assert data, standings_now()
        [table] = data["tables"]
        assert table["game"] == game
        st, served = call(ev.url + "api/boards?t=%s&r=4" % SLUG, token=None)
        assert {row["name"]: row["points"] for row in table["rows"]} == want, sorted(
            (b["board"], b["result"], b["tags"]["White"], b["tags"]["Black"]) for b in served["boards"])
        # the TRF: the scale declared, every column on it, read back as written by a pairing engine
        with open(results_trf, encoding="utf-8", newline="") as f:
            text = f.read()
        assert "\r\n162  W %3.1f    D %3.1f\r\n" % (win, draw) in text
        assert {ln[14:47].strip(): float(ln[80:84]) for ln in text.splitlines() if ln.startswith("001")} == want
        assert engine_misreads(text) == {}
        # the public page
        driver = browser()
        driver.get(ev.url + "?t=%s&r=4" % SLUG)
        js = driver.execute_script
        assert wait_until(lambda: standings_on_page(js)[1] == "Standings after round 4", 15), standings_on_page(js)
        assert standings_on_page(js)[0] == want
    finally:
        code, _, stderr = ev.stop()
    assert code == 0, stderr


@pytest.mark.parametrize("text, points", [("3-1-0", (3.0, 1.0)), ("1-\u00bd-0", (1.0, 0.5)), ("2-1", (2.0, 1.0))])
def test_the_events_scoring_is_read_as_win_draw_loss(text, points):
    assert standings.parse_scoring(text) == points


@pytest.mark.parametrize("text, why", [("3-1-1", "a loss scores 0"), ("1-1-0", "more than a draw"),
                                       ("three", "not WIN-DRAW-LOSS"), ("12-1-0", "less than 10")])
def test_a_scoring_that_cannot_be_is_refused_saying_why(text, why):
    with pytest.raises(ValueError, match=why):
        standings.parse_scoring(text)


def test_an_events_scoring_under_a_trf_with_its_own_is_said_to_give_way(tmp_path):
    """The TRF26 file's 162 (W 1.0, D 0.5) stands above --scoring 3-1-0: the terminal says so at the start."""
    pairings = tmp_path / "open.trf"
    shutil.copy(os.path.join(ROOT, "tests", "data", "event", "open2026-r4-trf26.trf"), pairings)
    ev = EventProcess("--pairings", str(pairings), "--round", "4", "--sim", "1", "--scoring", "3-1-0",
                      "--out", str(tmp_path / "out"), "--quiet")
    code, _, stderr = ev.stop()
    assert code == 0, stderr
    assert "event: WARN --scoring 3-1-0: %s gives its own points, which stand in the standings and the results " \
           "TRF: a win 1, a draw 0.5" % pairings in stderr
