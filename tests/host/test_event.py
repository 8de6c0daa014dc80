"""`flagfall event`: a whole round on simulated boards, from a TRF and from a pairing PGN.

Each run is the real command in its own process: simulated boards (the real
firmware on fake hardware) playing bundled real games, a bridge per board,
the broadcast with its relay feed (delayed for the public), the arbiter's
dashboard, a result entered on a clock, kill -9 mid-round and resume, and the
round's files (PGN read back by python-chess and pgn-extract, the TRF of
results read back as pairings).
"""
import io
import os
import shutil
import subprocess
import time
from importlib import resources

import chess.pgn  # test oracle only

from flagfall.tournament import pairings
from processes import TOKEN, call
from repo import ROOT

DATA = os.path.join(ROOT, "tests", "data", "event")


def read_pgn(text):
    games = []
    stream = io.StringIO(text)
    while True:
        g = chess.pgn.read_game(stream)
        if g is None:
            return games
        games.append(g)


def pgn_extract_ok(path):
    exe = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")
    assert exe, "pgn-extract is missing: install it with `apt-get install pgn-extract` (make setup does)"
    r = subprocess.run([exe, "-s", "-r", path], capture_output=True, text=True)
    return r.returncode == 0 and "rror" not in r.stderr, r.stderr


def test_a_round_from_a_trf_on_nine_simulated_boards(tmp_path, event_process):
    trf = str(tmp_path / "open2026-r4-trf26.trf")          # TRF26: the time control comes from its 222 line
    shutil.copy(os.path.join(DATA, "open2026-r4-trf26.trf"), trf)
    rnd = pairings.read_pairings(trf, 4)
    out = str(tmp_path / "out")
    args = ["--pairings", trf, "--round", "4", "--sim", "9", "--autoplay", "--speed", "25", "--think", "0.3",
            "--delay", "4", "--out", out, "--quiet"]
    ev = event_process(*args)
    try:
        assert ev.lines[1].startswith("arbiter: %sarbiter" % ev.url) and TOKEN not in "".join(ev.lines)
        slug = rnd.slug()
        assert ev.lines[2].strip() == "relay feed: %sfeed/%s/4.pgn   (delayed 4 s)" % (ev.url, slug)
        # the dashboard needs the token; every board plays with its pairing
        assert call(ev.url + "api/event", token=None)[0] == 401
        d = ev.wait(lambda d: all(b["plies"] >= 8 for b in d["boards"]))
        assert [(b["board"], b["white"], b["black"]) for b in d["boards"]] == \
            [(p.board, p.white.name, p.black.name) for p in rnd.boards]
        # the public feed lags by the delay; the arbiter's view is live
        live = {b["board"]: b["plies"] for b in ev.dashboard()["boards"]}
        st, feed = call(ev.url + "feed/%s/4.pgn" % slug, token=None)
        public = read_pgn(feed) if st == 200 else []
        assert sum(len(list(g.mainline_moves())) for g in public) < sum(live.values())
        time.sleep(5)
        st, feed = call(ev.url + "feed/%s/4.pgn" % slug, token=None)
        games = read_pgn(feed)
        assert [g.headers["Round"] for g in games] == ["4.%d" % p.board for p in rnd.boards]
        for g, p in zip(games, rnd.boards):
            assert not g.errors and g.headers["White"] == p.white.name and g.headers["Black"] == p.black.name
            assert g.headers["Board"] == str(p.board) and g.headers["GameId"] == "%s-r4-b%d" % (slug, p.board)
            assert g.headers["TimeControl"] == rnd.time_control and g.headers["Date"] == time.strftime("%Y.%m.%d")
            if p.white.rating:
                assert g.headers["WhiteElo"] == str(p.white.rating)
            moves = list(g.mainline())
            assert len(moves) >= live[p.board] and all(n.clock() is not None for n in moves)
        # kill -9 mid-round: started again, every board resumes from its journal
        before = {b["board"]: b["plies"] for b in ev.dashboard()["boards"]}
        ev.kill9()
        ev = event_process(*args)
        d = ev.dashboard()
        assert all(b["plies"] >= before[b["board"]] for b in d["boards"]), (before, d["boards"])
        # a result entered on a clock (board 1's device menu) and the arbiter's for the others
        d = ev.wait(lambda d: all(b["status"] in ("playing", "finished") for b in d["boards"]))
        for b in d["boards"]:
            if b["status"] != "finished":
                st, reply = call(ev.url + "api/event/board/%d" % b["board"], {"action": "result", "result": "1/2-1/2"})
                assert st == 200 and reply["ok"], reply
        d = ev.wait(lambda d: d["finished"] == d["total"], timeout=30)
        ev.wait(lambda d: os.path.exists(os.path.join(out, "round-4-results.trf")), timeout=20)
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr
    # the round's PGN: every game, in board order, with results and clocks
    round_pgn = os.path.join(out, "round-4.pgn")
    games = read_pgn(open(round_pgn).read())
    assert [g.headers["Board"] for g in games] == [str(p.board) for p in rnd.boards]
    results = {int(g.headers["Board"]): g.headers["Result"] for g in games}
    assert all(r in ("1-0", "0-1", "1/2-1/2") for r in results.values())
    assert all(n.clock() is not None for g in games for n in g.mainline())
    ok, why = pgn_extract_ok(round_pgn)
    assert ok, why
    # the TRF of results reads back: round 4 complete, with these results
    back = pairings.read_pairings(os.path.join(out, "round-4-results.trf"), 4)
    assert {p.board: p.result for p in back.boards} == results


def test_a_round_from_a_pairing_pgn_with_the_arbiter_finishing_it(tmp_path, event_process):
    rnd = pairings.read_pairings(os.path.join(DATA, "open2026-r4.pgn"), 4)
    out = str(tmp_path / "out")
    ev = event_process("--pairings", os.path.join(DATA, "open2026-r4.pgn"), "--round", "4", "--sim", "8",
                      "--autoplay", "--speed", "25", "--think", "0.3", "--out", out, "--tc", "5400+30", "--quiet",
                      "--tournament", "pgn-open")
    try:
        d = ev.wait(lambda d: all(b["plies"] >= 4 for b in d["boards"][:8]))
        assert d["total"] == len(rnd.boards) and d["tc"] == "5400+30"
        # boards beyond the 8 simulated ones wait for a device
        assert all(b["status"] == "waiting" for b in d["boards"][8:])
        st, feed = call(ev.url + "feed/pgn-open/4.pgn", token=None)
        games = read_pgn(feed)
        assert [g.headers["Round"] for g in games][:8] == ["4.%d" % p.board for p in rnd.boards][:8]
        assert all(g.headers["TimeControl"] == "5400+30" for g in games)
        for b in d["boards"]:
            st, reply = call(ev.url + "api/event/board/%d" % b["board"], {"action": "result", "result": "1-0"})
            assert st == 200, reply
        ev.wait(lambda d: d["finished"] == d["total"], timeout=30)
        ev.wait(lambda d: os.path.exists(os.path.join(out, "round-4.pgn")), timeout=20)
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr
    assert not os.path.exists(os.path.join(out, "round-4-results.trf"))      # a PGN's pairings: no TRF to fill
    games = read_pgn(open(os.path.join(out, "round-4.pgn")).read())
    assert len(games) == len(rnd.boards) and all(g.headers["Result"] == "1-0" for g in games)


def test_a_chess960_round_every_board_from_one_start_position(tmp_path, event_process):
    from flagcore import chess960
    ev = event_process("--pairings", os.path.join(DATA, "open2026-r4.csv"), "--round", "4", "--sim", "3",
                      "--autoplay", "--game", "chess960", "--position", "7", "--speed", "25", "--think", "0.2",
                      "--out", str(tmp_path / "out"), "--quiet")
    try:
        ev.wait(lambda d: all(b["plies"] >= 6 for b in d["boards"][:3]))
        st, feed = call(ev.url + "feed/open2026-r4/4.pgn", token=None)
        games = read_pgn(feed)[:3]
        assert len(games) == 3
        for g in games:
            assert not g.errors and g.headers["Variant"] == "Chess960" and g.headers["FEN"] == chess960.fen(7)
            assert len(list(g.mainline_moves())) >= 6
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr


def test_the_demo_round_to_its_end_then_the_next_round_without_a_restart(tmp_path, event_process):
    out = str(tmp_path / "out")
    ev = event_process("--demo", "--speed", "30", "--think", "0.2", "--out", out, "--quiet")
    try:
        d = ev.dashboard()
        assert d["round"] == 1 and d["total"] == 6 and [b["game"] for b in d["boards"]] == ["chess"] * 4 + ["draughts"] * 2
        assert all(b["white_rating"] for b in d["boards"])
        d = ev.wait(lambda d: d["finished"] == d["total"], timeout=120)
        # results entered on the clocks by the players, scored as each game scores
        assert {b["result"] for b in d["boards"][4:]} <= {"2-0", "0-2", "1-1"}
        ev.wait(lambda d: os.path.exists(os.path.join(out, "round-1.pgn")) and
                os.path.exists(os.path.join(out, "round-1.pdn")), timeout=20)
        assert len(read_pgn(open(os.path.join(out, "round-1.pgn")).read())) == 4
        st, reply = call(ev.url + "api/event/round", {"round": 9})
        assert st == 422 and "round 9" in reply["error"]
        st, reply = call(ev.url + "api/event/round", {"round": 1})
        assert st == 422 and "being played" in reply["error"]
        # the arbiter loads round 2 without a restart: the same devices, the pieces back, fresh clocks,
        # the new pairings; the finished round stays served
        st, reply = call(ev.url + "api/event/round", {"round": 2})
        assert st == 200 and reply["round"] == 2 and reply["boards"] == 6, reply
        d = ev.wait(lambda d: d["round"] == 2 and all(b["plies"] >= 4 for b in d["boards"]), timeout=90)
        assert all(b["alert"] is None for b in d["boards"]), [b["alert"] for b in d["boards"]]
        names2 = [(b["white"], b["black"]) for b in d["boards"]]
        st, feed = call(ev.url + "feed/demo/2.pgn", token=None)
        assert [(g.headers["White"], g.headers["Black"]) for g in read_pgn(feed)] == names2[:4]
        st, feed1 = call(ev.url + "feed/demo/1.pgn", token=None)
        assert st == 200 and len(read_pgn(feed1)) == 4
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr


def test_the_token_survives_restarts_and_the_round_in_play_is_resumed(tmp_path, event_process):
    out = tmp_path / "out"
    demo = str(resources.files("flagfall.demo_games").joinpath("demo-round.pgn"))
    args = ["--pairings", demo, "--round", "1", "--sim", "6", "--autoplay", "--tc", "5400+30", "--speed", "30",
            "--think", "0.2", "--out", str(out), "--tournament", "demo"]
    ev = event_process(*args, token=None)
    try:
        path = out / "arbiter-token"
        token = path.read_text().strip()
        assert (path.stat().st_mode & 0o777) == 0o600 and len(token) >= 20
        assert token not in "".join(ev.lines) and "token: %s" % path in ev.lines[1]
        assert call(ev.url + "api/event", token=token)[0] == 200
        # mid-round, "Load next round" lists the unfinished games; adjourning them loads round 2
        st, reply = call(ev.url + "api/event/round", {}, token=token)
        assert st == 409 and [b["board"] for b in reply["unfinished"]] == [1, 2, 3, 4, 5, 6], reply
        # (loading a round writes the finished round's files and opens every board's journal: seconds on a busy machine)
        st, reply = call(ev.url + "api/event/round", {"unfinished": "adjourn"}, token=token, timeout=60)
        assert st == 200 and reply["round"] == 2, reply
        # the new round from fresh clocks and clean boards: every board plays, none inherits an alert
        def playing(d):
            assert all(b["alert"] is None for b in d["boards"]), [b["alert"] for b in d["boards"]]
            return all(b["plies"] >= 4 for b in d["boards"])
        end = time.monotonic() + 60
        while not playing(call(ev.url + "api/event", token=token)[1]):
            assert time.monotonic() < end, "round 2 did not get going"
            time.sleep(0.3)
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr
    assert "round 2 loaded" in stdout and "move 1 " not in stdout          # quiet: no line per move
    # the same command again: the same token, round 2 (the round in play), not round 1
    ev = event_process(*args, token=None)
    try:
        assert any("resuming round 2" in line for line in ev.lines), ev.lines
        assert call(ev.url + "api/event", token=token)[1]["round"] == 2
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr
    # a token file given by --token-file is used as it is
    f = tmp_path / "tok"
    f.write_text("from-a-file-0123456789\n")
    ev = event_process(*args, "--token-file", str(f), token=None)
    try:
        assert call(ev.url + "api/event", token="from-a-file-0123456789")[0] == 200
        assert call(ev.url + "api/event", token=token)[0] == 403
    finally:
        ev.stop()
