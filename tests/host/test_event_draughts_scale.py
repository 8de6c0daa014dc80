"""A draughts round from a FIDE TRF (issue 34 item 3): its standings count a win 2 and a draw 1 (FMJD)
everywhere they are shown - the public page (headless Chromium), /api/standings and the round's results
TRF, which a pairing engine reads back on the same scale (test_event_pairings.engine_misreads).

The expected points are added up here from the pairing file's columns and the results entered, on the
draughts scale, apart from Flagfall's reader.
"""
import os
import shutil

from processes import EventProcess, call, wait_until
from repo import ROOT
from test_broadcast_event_page import standings_on_page
from test_event_pairings import engine_misreads

TRF = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.trf")    # 19 players, rounds 1-3 played, 4 paired
SLUG = "flagfall-autumn-open-2026"
RESULTS = ["2-0", "1-1", "0-2", "2-0", "1-1", "2-0", "0-2", "2-0", "1-1"]      # round 4, board by board
DRAUGHTS = {"1": 2.0, "+": 2.0, "W": 2.0, "F": 2.0, "U": 2.0, "=": 1.0, "D": 1.0, "H": 1.0}   # FMJD: win 2, draw 1


def expected_points(trf_text, boards):
    """{name: points after round 4}: every result code of the file's rounds 1-4 (round 4's byes) on the
    draughts scale, plus the points of round 4's boards as entered."""
    pts = {}
    for line in trf_text.splitlines():
        if line.startswith("001"):
            codes = [line.ljust(140)[91 + 10 * r + 7] for r in range(4)]
            pts[line[14:47].strip()] = sum(DRAUGHTS.get(c, 0.0) for c in codes)
    for b, result in zip(boards, RESULTS):
        white, black = (float(x) for x in result.split("-"))
        pts[b["white"]] += white
        pts[b["black"]] += black
    return pts


def test_a_draughts_round_scores_2_1_0_on_the_page_the_api_and_the_trf(tmp_path, browser):
    pairings = tmp_path / "open.trf"
    shutil.copy(TRF, pairings)
    out = tmp_path / "out"
    ev = EventProcess("--pairings", str(pairings), "--round", "4", "--game", "draughts", "--sim", "9",
                      "--out", str(out), "--quiet")
    try:
        d = ev.wait(lambda d: len(d["boards"]) == 9)
        boards = sorted(d["boards"], key=lambda b: b["board"])
        for b, result in zip(boards, RESULTS):
            st, reply = call(ev.url + "api/event/board/%d" % b["board"], {"action": "result", "result": result})
            assert st == 200 and reply["ok"], reply
        ev.wait(lambda d: d["finished"] == d["total"], timeout=30)
        results_trf = out / "round-4-results.trf"
        assert wait_until(results_trf.exists, 20), "no round-4-results.trf; output: %s" % "".join(ev.lines)[-2000:]
        with open(TRF, encoding="utf-8", newline="") as f:
            want = expected_points(f.read(), boards)
        assert want["Bauer, Felix"] == 8.0         # three wins before the round and board 1's 2-0: 4 x 2
        # the API
        st, data = call(ev.url + "api/standings/%s/4" % SLUG, token=None)
        assert st == 200, data
        [table] = data["tables"]
        assert table["game"] == "draughts"
        assert {row["name"]: row["points"] for row in table["rows"]} == want
        # the TRF: the scale declared, every column on it, read back as written by a pairing engine
        with open(results_trf, encoding="utf-8", newline="") as f:
            text = f.read()
        assert "\r\n162  W 2.0    D 1.0\r\n" in text
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
