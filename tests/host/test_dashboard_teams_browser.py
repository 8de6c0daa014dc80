"""The arbiter's dashboard of a team event in a real headless Chromium: the boards grouped under
their match's row, the match score following the games' results as the arbiter enters them, and no
way to enter a match result by hand (a match is scored from its games only).

The event is the generated 4-team cup's round 1 (tests/host/team_event_data.py: 4 boards a match,
colours WBWB, the away team of match 2 not fielding board 4), its boards waiting for devices."""
import json
import os
import re
import urllib.request

from flagfall.tournament import pairings
from processes import ServedEvent, wait_until
from team_event_data import team_name, team_trf
from test_dashboard_browser import TOKEN, WIDE, choose_result, css, login, row

N, SIZE = 4, 4


def match_rows(driver):
    """The dashboard's rows in order: ("match", text) for a match's row, ("board", n) for a board's."""
    out = []
    for tr in driver.find_elements("css selector", "#boards tbody tr"):
        cls = tr.get_attribute("class") or ""
        out.append(("match", " ".join(tr.text.split())) if "match-row" in cls else ("board", int(tr.get_attribute("data-board"))))
    return out


def match_text(driver, number):
    return [t for kind, t in match_rows(driver) if kind == "match"][number - 1]


def test_the_dashboard_groups_boards_by_match_and_scores_each_match_from_its_games(tmp_path, browser):
    # round 1: Club A - Club D and Club C - Club B; Club B does not field board 4
    path = tmp_path / "cup.trf"
    path.write_text(team_trf(N, SIZE, 1, {}, {}, {(1, 2, 4)}))
    ev = ServedEvent(pairings.read_pairings(str(path), 1), str(tmp_path / "out"), simulated=(), token=TOKEN,
                     public=True, open_all=True, tournament="cup", tc="5400+30", penalties="confirm",
                     pairings_path=str(path), games={}, team_tiebreaks=("MPTS", "GPTS", "BC"))
    driver = browser()
    driver.set_window_size(WIDE, 1000)
    try:
        login(driver, ev.url)
        assert wait_until(lambda: len(match_rows(driver)) == 2 + 7, 15), match_rows(driver)
        rows = match_rows(driver)
        # each match's row, then its boards in board order: match 1's four, match 2's three
        assert [k for k, _ in rows] == ["match"] + ["board"] * 4 + ["match"] + ["board"] * 3, rows
        assert [v for k, v in rows if k == "board"] == list(range(1, 8))
        a, d, c, b = (team_name(n) for n in (1, 4, 3, 2))
        assert rows[0][1] == "Match 1: %s 0 \u2013 0 %s (playing)" % (a, d), rows[0]
        # the board Club B did not field is in its match's score from the start, and named
        assert re.fullmatch(r"Match 2: %s 1 \u2013 0 %s \(playing; board 4 not fielded: [-+]/[-+]\)" % (c, b),
                            rows[5][1]), rows[5]
        # a match's row has no control: only its games take a result
        for tr in driver.find_elements("css selector", "#boards tbody tr.match-row"):
            assert not tr.find_elements("css selector", "input, select, button, a"), tr.get_attribute("outerHTML")
        # the arbiter sets board 1's result (Club A has White there): the match row follows
        choose_result(driver, 1, "1-0")
        css(driver, "#confirm-buttons button.primary").click()
        assert wait_until(lambda: row(driver, 1, ".c-result").text == "1-0", 10)
        assert wait_until(lambda: match_text(driver, 1) == "Match 1: %s 1 \u2013 0 %s (playing)" % (a, d), 10), \
            match_text(driver, 1)
        # board 2 drawn, board 3 lost by Club A (White there), board 4 won by Club A (Black there):
        # 2½ - 1½, and the match is finished once its last game has a result
        for board, result in ((2, "1/2-1/2"), (3, "0-1"), (4, "0-1")):
            ev.event.board(board).command({"action": "result", "result": result}, "test")
        assert wait_until(lambda: match_text(driver, 1) == "Match 1: %s 2\u00bd \u2013 1\u00bd %s (finished)" % (a, d),
                          10), match_text(driver, 1)
        assert match_text(driver, 2).startswith("Match 2: %s 1 \u2013 0 %s (playing" % (c, b))
        # the event's tie-breaks (flagfall event --team-tiebreaks) rank the served team standings: match 1
        # counts (A 2 MP 2.5 GP, D 0 and 1.5), match 2 not yet (no MP, no GP); board count of the board
        # points so far: A 1x1 + 2x.5 + 4x1 = 6, D 2x.5 + 3x1 = 4, C 4x1 (the board B did not field), B 0
        with urllib.request.urlopen(ev.url + "/api/standings/cup/1", timeout=10) as r:
            served = json.loads(r.read().decode())["teams"]
        assert served["tiebreaks"] == ["MPTS", "GPTS", "BC"]
        assert [(t["rank"], t["name"], t["mp"], t["gp"], t["tiebreaks"]["BC"]) for t in served["rows"]] == [
            (1, a, 2, 2.5, 6), (2, d, 0, 1.5, 4), (3, b, 0, 0, 0), (4, c, 0, 0, 4)]
        # with FLAGFALL_DOCS_SHOTS=DIR (tools/docs_screenshots.py) the state docs/event.md shows
        docs = os.environ.get("FLAGFALL_DOCS_SHOTS")
        if docs:
            driver.set_window_size(1100, 900)
            assert wait_until(lambda: driver.save_screenshot(os.path.join(docs, "dashboard-teams.png")), 5)
    finally:
        driver.quit()
        ev.close()
