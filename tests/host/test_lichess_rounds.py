"""Every round of an event pushed to its own Lichess round without a restart (issue #30, item 2), against
the local Lichess stand-in: round 1 to the round the map gives, rounds 2 and 3 made through the
round-creation endpoint as the dashboard loads them, and a restart that makes none twice."""
import json
import os

from lichess_standin import TOKEN as STANDIN_TOKEN, StandIn, parse_game, split_games
from processes import EventProcess
from repo import ROOT

PAIRINGS = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.pgn")     # nine boards, round 4

ARBITER = "rounds-arbiter-token"
ROUND_1 = "Rnd1abcd"
TOUR = "Tour1234"


def _pgn_games(path):
    """GameId -> moves of the chess games of a round file."""
    return {parse_game(g)["tags"]["GameId"]: parse_game(g)["moves"] for g in split_games(open(path).read())}


def _finish_round(ev):
    """The arbiter enters a draw on every board still playing (a board may end by itself meanwhile)."""
    for b in ev.dashboard()["boards"]:
        if b["result"] == "*":
            draw = "1/2-1/2" if b["game"] in ("chess", "chess960") else "1-1"     # the demo's draughts boards: 2-1-0
            st, reply = ev.call("api/event/board/%d" % b["board"], {"action": "result", "result": draw})
            assert st == 200 or (st == 422 and "already has a result" in reply.get("error", "")), (st, reply)


def _wait(cond, ev, what, timeout=90):
    import time
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.2)
    raise AssertionError("timed out waiting for %s; output: %s" % (what, "".join(ev.lines)[-3000:]))


def test_three_rounds_each_pushed_to_its_own_lichess_round_and_a_restart_makes_none_twice(tmp_path):
    standin = StandIn([ROUND_1], tours=(TOUR,))
    tok = tmp_path / "lichess-token"
    tok.write_text(STANDIN_TOKEN + "\n")
    out = tmp_path / "out"
    args = ("--demo", "--out", str(out), "--speed", "25", "--think", "0.3", "--quiet",
            "--lichess-rounds", "1=%s" % ROUND_1, "--lichess-tournament", TOUR, "--lichess-url", standin.url,
            "--lichess-token-file", str(tok), "--lichess-window", "0.3")
    ev = EventProcess(*args, token=ARBITER)
    try:
        for number in (1, 2, 3):
            rid = ROUND_1 if number == 1 else standin.tours[TOUR][number - 2]
            _wait(lambda: sum(len(g["moves"]) for g in standin.games(rid).values()) >= 4, ev,
                  "round %d's moves on Lichess round %s" % (number, rid))
            _finish_round(ev)
            path = out / ("round-%d.pgn" % number)
            _wait(lambda: path.exists() and standin.finished[rid], ev, "round %d finished on Lichess" % number)
            # every chess game of the round, as its round file has it, on its own Lichess round: nothing else
            _wait(lambda: {k: g["moves"] for k, g in standin.games(rid).items()} == _pgn_games(path), ev,
                  "round %d's games whole on %s" % (number, rid))
            assert all(("-r%d-" % number) in k for k in standin.games(rid)), list(standin.games(rid))
            if number < 3:
                st, reply = ev.call("api/event/round", {})
                assert st == 200, reply
                _wait(lambda: len(standin.tours[TOUR]) == number, ev, "round %d made on Lichess" % (number + 1))
        assert [x for x in ev.lines if "lichess push: boards 1-100 to" in x and "(round 3)" in x]
    finally:
        code, _, err = ev.stop()
    assert code == 0, err
    assert len(standin.tours[TOUR]) == 2
    kept = json.load(open(out / "lichess-rounds.json"))
    assert sorted(kept[TOUR].values()) == sorted(standin.tours[TOUR])
    standin.close()


def test_a_restart_pushes_to_the_round_it_made_and_makes_none_twice(tmp_path):
    standin = StandIn([], tours=(TOUR,))
    tok = tmp_path / "lichess-token"
    tok.write_text(STANDIN_TOKEN + "\n")
    args = ("--pairings", PAIRINGS, "--round", "4", "--sim", "2", "--autoplay", "--speed", "25", "--think", "0.3",
            "--out", str(tmp_path / "out"), "--quiet", "--lichess-tournament", TOUR, "--lichess-url", standin.url,
            "--lichess-token-file", str(tok), "--lichess-window", "0.3")
    ev = EventProcess(*args, token=ARBITER)
    try:
        _wait(lambda: len(standin.tours[TOUR]) == 1 and standin.accepted(standin.tours[TOUR][0]), ev, "a first push")
        [rid] = standin.tours[TOUR]
        ev.kill9()
        before = len(standin.accepted(rid))
        ev.start()
        _wait(lambda: len(standin.accepted(rid)) > before, ev, "a push after the restart")
        assert standin.tours[TOUR] == [rid]
        assert any("round/%s/push" % rid in x and "(round 4)" in x for x in ev.lines), ev.lines
    finally:
        ev.stop()
        standin.close()
