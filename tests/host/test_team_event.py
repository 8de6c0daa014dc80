"""A team event end to end: 8 teams of 4 boards over 3 rounds, run by `flagfall event` on simulated
boards from its TRF26 file, round after round (the test plays the pairing program: it writes the next
round into the file and loads it). Round 2 has a board a team does not field, round 3 a match
forfeited whole (330). Every result is the test's; after each round the match scores, match points
and team standings the event serves equal the test's own computation (team_event_data), the results
TRF Flagfall writes is the generator's file with the round played and its 310 lines filled, the games
pushed to a local Lichess stand-in carry WhiteTeam/BlackTeam, and the page shows the matches and the
team table in headless Chromium at 1,400 and 400 px.

Fast simulated play: the boards play a few moves, then the arbiter enters each result."""
import os
import random
import re
import time

import pytest

from flagfall.tournament import pairings, trf
from lichess_standin import TOKEN as LICHESS_TOKEN
from lichess_standin import StandIn, parse_game, split_games
from team_event_data import expected_matches, expected_standings, schedule, team_name, team_trf
from processes import TOKEN, EventProcess, call, wait_until

N, SIZE, ROUNDS = 8, 4, 3
SLUG = "flagfall-team-cup-2026"
ROUND_ID = "TeamCup1"
WIDE, PHONE = 1400, 400
WHITE_RESULT = {"W": "1-0", "D": "1/2-1/2", "L": "0-1"}
OTHER = {"W": "L", "D": "D", "L": "W"}


def decisions():
    rng = random.Random(31)
    sched = schedule(N, ROUNDS)
    outcomes = {(r, b, h, a): rng.choice("WWDLL") for r in range(1, ROUNDS + 1) for h, a in sched[r - 1]
                for b in range(1, SIZE + 1)}
    unfielded = {(2, sched[1][2][1], 3)}                  # round 2: match 3's away team has no board 3
    forfeited = {3: sched[2][3] + ("+-",)}               # round 3: the last match forfeited, home wins
    return sched, outcomes, unfielded, forfeited


def patient_call(url, body=None, token=TOKEN):
    """processes.call, waiting longer for the answer: sixteen simulated boards share the test
    machine's cores with the event (and, in CI, with other tests), and loading a round writes the
    finished round's files and opens every board's new journal before it answers."""
    return call(url, body, token, timeout=90)


class TeamEventProcess(EventProcess):
    def dashboard(self):
        st, data = patient_call(self.url + "api/event")
        assert st == 200, data
        return data


def team_board(player):
    """(team, board) of a generated player's name "PlayerTB, TeamT"."""
    m = re.fullmatch(r"Player(\d)(\d), Team(\d)", player)
    assert m, player
    return int(m.group(1)), int(m.group(2))


def shoot(driver, path_base):
    for w in (WIDE, PHONE):
        driver.set_window_size(w, 1000 if w == WIDE else 1400)
        time.sleep(0.4)
        driver.save_screenshot("%s-%d.png" % (path_base, w))
        assert os.path.getsize("%s-%d.png" % (path_base, w)) > 1000


def test_a_team_event_of_three_rounds_on_simulated_boards(tmp_path, browser):
    sched, outcomes, unfielded, forfeited = decisions()
    cup = tmp_path / "cup.trf"
    cup.write_text(team_trf(N, SIZE, 1, {}, forfeited, unfielded))
    standin = StandIn([ROUND_ID])
    tok = tmp_path / "lichess.token"
    tok.write_text(LICHESS_TOKEN + "\n")
    out = tmp_path / "out"
    ev = TeamEventProcess("--pairings", str(cup), "--round", "1", "--sim", str(N // 2 * SIZE), "--autoplay",
                      "--speed", "25", "--think", "0.2", "--delay", "0", "--out", str(out), "--quiet",
                      "--lichess-round", ROUND_ID, "--lichess-url", standin.url, "--lichess-token-file", str(tok),
                      "--lichess-window", "0.5")
    per_round = []
    try:
        for r in range(1, ROUNDS + 1):
            if r > 1:
                cup.write_text(team_trf(N, SIZE, r, {k: v for k, v in outcomes.items() if k[0] < r}, forfeited,
                                        unfielded))
                st, reply = patient_call(ev.url + "api/event/round", {"round": r})
                assert st == 200, reply
            want_games = N // 2 * SIZE - (SIZE if r in forfeited else 0) - sum(1 for u in unfielded if u[0] == r)
            d = ev.wait(lambda d: d["round"] == r and len(d["boards"]) == want_games
                        and all(b["plies"] >= 2 for b in d["boards"]), timeout=120)
            # the dashboard groups the boards by match, each match's boards in board order under it
            assert sorted((m["home"], m["away"]) for m in d["matches"]) == \
                sorted((team_name(h), team_name(a)) for h, a in sched[r - 1])
            numbers = [b["board"] for m in d["matches"] for b in m["boards"] if b["board"] is not None]
            assert numbers == [b["board"] for b in d["boards"]] == list(range(1, want_games + 1))
            home_of = {h: a for h, a in sched[r - 1]}
            for b in d["boards"]:
                (wt, wb), (bt, bb) = team_board(b["white"]), team_board(b["black"])
                assert wb == bb, b                               # a match's board k: both teams' k-th player
                home, away = (wt, bt) if wt in home_of else (bt, wt)
                home_res = outcomes[(r, wb, home, away)]
                result = WHITE_RESULT[home_res if wt == home else OTHER[home_res]]
                st, reply = patient_call(ev.url + "api/event/board/%d" % b["board"], {"action": "result", "result": result})
                assert st == 200 and reply["ok"], reply
            ev.wait(lambda d: d["finished"] == d["total"], timeout=60)
            # match scores, match points and standings as the test computes them
            want = expected_matches(N, SIZE, r, outcomes, forfeited, unfielded)
            f = forfeited.get(r)
            per_round.append([(k, v, f[2] if f and k == f[:2] else None) for k, v in want.items()])
            expected = expected_standings(per_round)

            def served():
                st, s = patient_call(ev.url + "api/standings/%s/%d" % (SLUG, r), token=None)
                return s if st == 200 and s.get("complete") and "teams" in s else None
            end = time.monotonic() + 20
            while served() is None and time.monotonic() < end:
                time.sleep(0.3)
            s = served()
            assert s is not None, "no team standings for round %d" % r
            got = {(next(n for n in range(1, N + 1) if team_name(n) == m["home"]),
                    next(n for n in range(1, N + 1) if team_name(n) == m["away"])): (m["home_gp"], m["away_gp"])
                   for m in s["teams"]["matches"]}
            assert got == want
            rows = {row["name"]: (row["mp"], row["gp"], row["tiebreaks"]["ESB:MG/C1"], row["tiebreaks"]["BH:MP/C1"])
                    for row in s["teams"]["rows"]}
            assert rows == {team_name(t): v for t, v in expected.items()}
            # the results TRF: the generator's file with the round played, its 310 lines filled by Flagfall
            results = out / ("round-%d-results.trf" % r)
            ev.wait(lambda d: results.exists(), timeout=20)
            written = results.read_text()
            played = team_trf(N, SIZE, r, {k: v for k, v in outcomes.items() if k[0] <= r}, forfeited, unfielded)
            diff = [(a, b) for a, b in zip(played.splitlines(), written.splitlines()) if a != b]
            assert len(played.splitlines()) == len(written.splitlines())
            assert all(a.startswith("310") and a[:54] == b[:54] and a[71:] == b[71:] for a, b in diff), diff[:3]
            back = trf.parse_trf(written, str(results))
            assert {n: (tm.mp, tm.gp) for n, tm in back.team_event.teams.items()} == \
                {t: v[:2] for t, v in expected.items()}
            assert all(p.result for p in pairings.read_pairings(str(results), r).boards)
        # the games pushed to Lichess (round 1) carry both teams
        pushed = standin.games(ROUND_ID)
        assert sum(1 for k in pushed if "-r1-" in k) == N // 2 * SIZE, sorted(pushed)
        for g in pushed.values():
            (wt, _), (bt, _) = team_board(g["tags"]["White"]), team_board(g["tags"]["Black"])
            assert (g["tags"]["WhiteTeam"], g["tags"]["BlackTeam"]) == (team_name(wt), team_name(bt))
        # the round's PGN too
        games = [parse_game(x) for x in split_games(open(out / "round-3.pgn").read())]
        assert len(games) == N // 2 * SIZE - SIZE and all("WhiteTeam" in g["tags"] and "BlackTeam" in g["tags"] for g in games)
        page_shots(browser, ev.url, tmp_path, forfeited[3][1])
    finally:
        code, stdout, stderr = ev.stop()
        standin.close()
    assert code == 0, stderr


def page_shots(browser, url, tmp_path, forfeited_away):
    """The page in headless Chromium (browser: conftest's fixture): round 3's matches with their boards
    and the team table, at 1,400 and 400 px and embedded; a board page names both teams."""
    from selenium.webdriver.common.by import By

    driver = browser()
    # with FLAGFALL_DOCS_SHOTS=DIR (tools/docs_screenshots.py) the round and the table docs/event.md shows
    docs = os.environ.get("FLAGFALL_DOCS_SHOTS") or str(tmp_path)
    try:
        for query, name in (("?t=%s&r=3" % SLUG, "team-round"), ("?t=%s&r=3&embed=1" % SLUG, "team-round-embed")):
            driver.get(url + query)
            assert wait_until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#matches .match")) == N // 2
                              and driver.find_elements(By.CSS_SELECTOR, "table.standings.teams tbody tr"), 20)
            heads = [" ".join(e.text.split()) for e in driver.find_elements(By.CSS_SELECTOR, "#matches .match-head")]
            assert len(heads) == N // 2 and all(re.fullmatch(r"Club . [0-4\u00bd]\S* \u2013 [0-4\u00bd]\S* Club .( forfeited)?", h)
                                                for h in heads), heads
            assert sum(h.endswith("4 \u2013 0 Club %s forfeited" % "ABCDEFGH"[forfeited_away - 1]) for h in heads) == 1
            assert len(driver.find_elements(By.CSS_SELECTOR, "table.standings.teams tbody tr")) == N
            shoot(driver, os.path.join(docs if name == "team-round" else str(tmp_path), name))
            if name == "team-round":
                driver.execute_script("document.getElementById('standings').scrollIntoView()")
                shoot(driver, os.path.join(docs, "team-standings"))
                driver.execute_script("window.scrollTo(0, 0)")
        link = driver.find_element(By.CSS_SELECTOR, "#matches .match-board a").get_attribute("href")
        driver.get(link)
        assert wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "#info .teams"), 20)
        assert " \u2013 " in driver.find_element(By.CSS_SELECTOR, "#info .teams").text
    finally:
        driver.quit()


if __name__ == "__main__":
    pytest.main([__file__])
