"""A whole tournament from one event file (issue #30, "Done means"): rounds 4, 5 and 6 of a TRF that already
holds rounds 1-3, on nine boards (two simulated, playing real games; the arbiter enters the others'
results), with the local Lichess stand-in. Checked: every round pushed to its own Lichess round without a
restart; a forfeit and an adjourned game shown as such in the API the page reads, the feeds, the round
files, the standings, the TRF and the terminal; the standings right after each round (and before the first
one broadcast: the TRF's alone); after a kill -9 mid-round the board page (headless Chromium) steps back
through every move, and the event log is still there.

The test plays the pairing program: between rounds it writes the round's results TRF, with the next
round's pairs added, over the pairings file, as Swiss-Manager or Vega rewrite theirs.
"""
import os

import pytest
import time

import chess as oracle  # python-chess, GPL: a test oracle only, never imported by host/

from chromium import running
from lichess_standin import TOKEN as STANDIN_TOKEN, StandIn, parse_game, split_games
from processes import EventProcess, wait_until
from repo import ROOT

pytestmark = pytest.mark.serial     # a kill -9 and its timing under load: run apart (pyproject.toml, markers)

TRF = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.trf")    # 19 players, rounds 1-3 played, 4 paired
TOUR = "Tour1234"
SLUG = "autumn"
PAIRS = {5: [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18)],
         6: [(2, 3), (4, 5), (6, 7), (8, 9), (10, 11), (12, 13), (14, 15), (16, 17), (18, 1)]}
ENTRY = 91          # 0-based column of round 1's entry on a TRF 001 line; each round's is 10 columns on


def with_round(text, rnd, pairs):
    """The TRF text with round `rnd` paired as `pairs` (white, black) by starting rank; the players left out
    get the pairing-allocated bye (U), as a pairing program writes them."""
    colour = {}
    for w, b in pairs:
        colour[w], colour[b] = (b, "w"), (w, "b")
    out = []
    for line in text.split("\r\n"):
        if line.startswith("001"):
            opp, c = colour.get(int(line[4:8]), (None, None))
            line = line.ljust(ENTRY + 10 * (rnd - 1)) + ("%4d %s" % (opp, c) if opp else "0000 - U")
        out.append(line)
    return "\r\n".join(out)


def trf_code(text, name, rnd):
    """The round-`rnd` result code (column 99 of its entry) of the player called `name` in a TRF text."""
    [line] = [x for x in text.split("\r\n") if x.startswith("001") and x[14:47].strip() == name]
    return line[ENTRY + 10 * (rnd - 1) + 7:ENTRY + 10 * (rnd - 1) + 8]


def read_trf(path):
    """A TRF's text as written: UTF-8, its CRLF line ends kept."""
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def standings(ev, rnd):
    st, data = ev.call("api/standings/%s/%d" % (SLUG, rnd))
    assert st == 200, (rnd, data)
    [table] = data["tables"]
    return data, {row["name"]: row for row in table["rows"]}


SCORES = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5), "+/-": (1, 0), "-/+": (0, 1), "-/-": (0, 0)}
BYES = {"H": 0.5, "U": 1.0, "F": 1.0, "Z": 0.0}      # FIDE's default points of the TRF's byes


def points_after(before, boards, trf_text, rnd):
    """The standings' points after round `rnd`: before's, plus each board's result by FIDE's scores (an
    unfinished game none), plus the bye (in the pairings TRF) of each player without a board."""
    want = {n: row["points"] for n, row in before.items()}
    for b in boards:
        w, bl = SCORES.get(b["result"], (0, 0))
        want[b["white"]] += w
        want[b["black"]] += bl
    seated = {b["white"] for b in boards} | {b["black"] for b in boards}
    for name in set(want) - seated:
        want[name] += BYES.get(trf_code(trf_text, name, rnd), 0.0)
    return want


def wait(cond, ev, what, timeout=45):
    assert wait_until(cond, timeout, 0.2), "timed out waiting for %s; output: %s" % (what, "".join(ev.lines)[-3000:])


def test_three_rounds_from_one_event_file_forfeit_adjourned_standings_and_a_kill_9(tmp_path, browser):
    standin = StandIn([], tours=(TOUR,))
    (tmp_path / "lichess-token").write_text(STANDIN_TOKEN + "\n")
    pairings = tmp_path / "open.trf"
    pairings.write_bytes(open(TRF, "rb").read())
    (tmp_path / "event.toml").write_text(
        '[tournament]\nslug = "%s"\ntime-control = "5400+30"\n\n[pairings]\nfile = "open.trf"\nround = 4\n\n'
        '[boards]\nsim = 2\nautoplay = true\nspeed = 25\nthink = 0.3\n\n[storage]\nout = "out"\n\n'
        '[lichess]\ntournament = "%s"\nurl = "%s"\ntoken-file = "lichess-token"\nwindow = 0.3\n'
        % (SLUG, TOUR, standin.url))
    out = tmp_path / "out"
    ev = EventProcess(str(tmp_path / "event.toml"), token="tournament-arbiter")
    driver = None
    try:
        # the standings before the first round broadcast: the TRF's rounds alone (a 404 once)
        wait(lambda: ev.call("api/rounds?t=%s" % SLUG)[1]["rounds"], ev, "round 4 served")
        _, before = standings(ev, 3)
        assert len(before) == 19 and sum(r["points"] for r in before.values()) > 0
        # -- round 4: board 2 forfeited (-/+) while its game goes on, the others drawn by the arbiter
        wait(lambda: ev.board(2)["plies"] >= 3, ev, "moves on board 2")
        st, reply = ev.act(2, {"action": "result", "result": "-/+"})
        assert st == 200, reply
        forfeited = ev.board(2)
        assert forfeited["status"] == "finished" and forfeited["result"] == "-/+"
        plies = forfeited["plies"]
        wait(lambda: ev.board(2)["clock"]["running"] is None, ev, "board 2's clock stopped")
        time.sleep(1.5)         # its players play on (the clock refuses their presses): nothing is recorded
        assert ev.board(2)["plies"] == plies
        for b in ev.dashboard()["boards"]:
            if b["result"] == "*":
                assert ev.act(b["board"], {"action": "result", "result": "1/2-1/2"})[0] in (200, 422)
        wait(lambda: (out / "round-4-results.trf").exists(), ev, "round 4's files")
        boards4 = ev.dashboard()["boards"]
        data, after4 = standings(ev, 4)
        assert data["complete"]
        assert {n: r["points"] for n, r in after4.items()} == points_after(before, boards4, read_trf(TRF), 4)
        w2, b2 = forfeited["white"], forfeited["black"]
        assert after4[b2]["played"] == before[b2]["played"] and after4[w2]["played"] == before[w2]["played"]
        # the forfeit everywhere: the page's API, the feed, the round file, the TRF, the terminal
        st, page = ev.call("api/board/%s/4/2" % SLUG)
        assert (page["result"], page["status"], page["tags"]["Termination"]) == ("0-1", "finished", "forfeit")
        st, feed = ev.call("feed/%s/4.pgn" % SLUG)
        game = [parse_game(g) for g in split_games(feed) if parse_game(g)["tags"]["Board"] == "2"][0]
        assert game["result"] == "0-1" and game["tags"]["Termination"] == "forfeit"
        assert [g for g in split_games((out / "round-4.pgn").read_text()) if '[Board "2"]' in g] == \
            [g for g in split_games(feed) if '[Board "2"]' in g]
        results4 = read_trf(out / "round-4-results.trf")
        assert (trf_code(results4, w2, 4), trf_code(results4, b2, 4)) == ("-", "+")
        assert any("board 2: forfeit -/+ (0-1)" in x for x in ev.lines), ev.lines
        # the pairing program reads the results and pairs round 5
        pairings.write_text(with_round(results4, 5, PAIRS[5]), encoding="utf-8", newline="")
        st, reply = ev.call("api/event/round", {})
        assert st == 200, reply

        # -- round 5: board 1 adjourned, the others decisive
        wait(lambda: ev.dashboard()["round"] == 5 and ev.board(1)["plies"] >= 2, ev, "round 5's moves")
        for b in ev.dashboard()["boards"]:
            if b["board"] != 1 and b["result"] == "*":
                assert ev.act(b["board"], {"action": "result", "result": "1-0"})[0] in (200, 422)
        boards5 = ev.dashboard()["boards"]
        assert [b["board"] for b in boards5 if b["result"] == "*"] == [1]
        st, files = ev.call("api/event/round-files", {})
        assert st == 200, files
        results5 = read_trf(out / "round-5-results.trf")
        pairings.write_text(with_round(results5, 6, PAIRS[6]), encoding="utf-8", newline="")
        st, reply = ev.call("api/event/round", {"unfinished": "adjourn"})
        assert st == 200, reply
        wait(lambda: ev.call("api/board/%s/5/1" % SLUG)[1]["status"] == "adjourned", ev, "board 1 adjourned")
        wait(lambda: len(ev.call("api/rounds?t=%s" % SLUG)[1]["rounds"]) == 3, ev, "round 6 served")
        st, rounds = ev.call("api/rounds?t=%s" % SLUG)
        assert {d["r"]: d["status"] for d in rounds["rounds"]} == {"4": "finished", "5": "adjourned", "6": "live"}
        assert [d["adjourned"] for d in rounds["rounds"]] == [0, 1, 0]
        data, after5 = standings(ev, 5)
        assert not data["complete"]            # the adjourned game has no result
        assert {n: r["points"] for n, r in after5.items()} == points_after(after4, boards5, results5, 5)
        st, feed5 = ev.call("feed/%s/5.pgn" % SLUG)
        assert [parse_game(g)["result"] for g in split_games(feed5) if '[Board "1"]' in g] == ["*"]
        # printed by the event's supervising loop, which looks for a new round every second
        wait(lambda: any(x.startswith("relay feed: ") and x.rstrip().endswith("/feed/%s/6.pgn" % SLUG)
                         for x in ev.lines), ev, "round 6's feed URL printed")

        # -- round 6: kill -9 mid-round, the same command again
        wait(lambda: ev.dashboard()["round"] == 6 and ev.board(1)["plies"] >= 6, ev, "round 6's moves")
        ev.kill9()
        ev.start()
        assert ev.dashboard()["round"] == 6
        # the event log (the dashboard's) is kept in the out folder: round 4's forfeit is still in it
        assert any(e["text"] == "forfeit -/+" and e["round"] == 4 for e in ev.dashboard()["incidents"])
        assert (out / "event-log.jsonl").exists()
        # the earlier rounds are served again from their journals: results, the adjourned game, standings
        wait(lambda: len(ev.call("api/rounds?t=%s" % SLUG)[1]["rounds"]) == 3, ev, "rounds 4-6 served again")
        st, rounds = ev.call("api/rounds?t=%s" % SLUG)
        assert {d["r"]: d["status"] for d in rounds["rounds"]} == {"4": "finished", "5": "adjourned", "6": "live"}
        assert {n: r["points"] for n, r in standings(ev, 5)[1].items()} == {n: r["points"] for n, r in after5.items()}
        wait(lambda: ev.call("api/board/%s/6/1" % SLUG)[0] == 200, ev, "board 1 served again")
        driver = browser()
        driver.get(ev.url + "board/%s/6/1" % SLUG)
        js = driver.execute_script
        sans = "return Array.from(document.querySelectorAll('#movelist .san')).map(e => e.textContent);"
        assert wait_until(lambda: len(js(sans)) >= 6, 15), js(sans)
        moves = js(sans)[:6]
        board = oracle.Board()
        positions = [dict(board.piece_map())]
        for san in moves:
            board.push_san(san)
            positions.append(dict(board.piece_map()))
        names = {"p": "pawn", "n": "knight", "b": "bishop", "r": "rook", "q": "queen", "k": "king"}
        card = '[data-board="%s/6/1"]' % SLUG

        def shown():
            got = js("return Array.from(document.querySelectorAll(arguments[0] + ' .sq')).map(function (s) {"
                     " var p = s.querySelector('svg.piece'); return [s.getAttribute('data-sq'),"
                     " p ? p.getAttribute('data-piece') : null]; });", card)
            return {tuple(int(x) for x in sq.split(",")): p for sq, p in got if p}

        def expected(ply):
            return {(7 - oracle.square_rank(sq), oracle.square_file(sq)):
                    ("white " if p.color else "black ") + names[p.symbol().lower()] for sq, p in positions[ply].items()}
        # every move made before the kill, stepped to from the first: its own position, never the live one
        driver.find_element("css selector", "#nav-first").click()
        for ply in range(0, 7):
            assert wait_until(lambda: js("return window.flagfall.nav().view;") == ply and shown() == expected(ply), 5), \
                (ply, js("return window.flagfall.nav();"), shown(), expected(ply))
            driver.find_element("css selector", "#nav-next").click()
        # the rounds as the page lists them
        driver.get(ev.url + "?t=%s" % SLUG)
        labels = "return Array.from(document.querySelectorAll('#rounds a')).map(e => e.textContent);"
        # round 6 is live while a game the hub holds goes on: its two simulated games (its other boards have
        # no device and publish nothing) may both have ended under load by now, and then it is finished
        def round_6_live():
            return {d["r"]: d["status"] for d in ev.call("api/rounds?t=%s" % SLUG)[1]["rounds"]}["6"] == "live"
        assert wait_until(lambda: js(labels)[:2] == ["Round 4", "Round 5 \u00b7 adjourned"] and (
            js(labels)[2:] == ["Round 6 \u00b7 live"] or (js(labels)[2:] == ["Round 6"] and not round_6_live())), 10), \
            (js(labels), ev.call("api/rounds?t=%s" % SLUG)[1])
        # the forfeit on its board's page
        driver.get(ev.url + "board/%s/4/2" % SLUG)
        status = "var s = document.querySelector('.card .status'); return s ? s.textContent : null;"
        assert wait_until(lambda: js(status) == "0-1 \u00b7 Black wins by forfeit", 10), js(status)
        # every round pushed to its own Lichess round, made as it was loaded and never twice after the kill
        rids = standin.tours[TOUR]
        assert len(rids) == 3, rids
        for number, rid in zip((4, 5, 6), rids):
            wait(lambda: standin.games(rid), ev, "round %d on Lichess" % number)
            assert all("-r%d-" % number in k for k in standin.games(rid)), (number, list(standin.games(rid)))
        wait(lambda: [g["result"] for k, g in standin.games(rids[0]).items() if k.endswith("-b2")] == ["0-1"], ev,
             "the forfeit on Lichess")
        assert [g["tags"].get("Termination") for k, g in standin.games(rids[0]).items() if k.endswith("-b2")] == \
            ["forfeit"]
    finally:
        if driver is not None and running(driver):
            driver.quit()
        code, _, err = ev.stop()
        standin.close()
    assert code == 0, err
