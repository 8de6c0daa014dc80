"""Pushing a round to Lichess (flagfall.broadcast.lichess_push) against a local stand-in of the endpoint.

The stand-in (tests/host/lichess_standin.py) implements the documented push
contract on 127.0.0.1: bearer token, per-game answers, 429 with Retry-After,
5xx, dropped connections. The event tests run the real `flagfall event`
(simulated boards playing real games) with --lichess-round pointed at it.
"""
import asyncio
import errno
import json
import os
import subprocess
import sys
import time

import pytest

from flagfall.broadcast import lichess_push, lichess_round
from flagfall.broadcast.hub import Hub
from flagfall.broadcast.synthetic import StateMaker, chess_plies, chess_start
from lichess_standin import TOKEN as STANDIN_TOKEN, StandIn, parse_game, split_games
from processes import EventProcess
from repo import ROOT, flagfall_env

PAIRINGS = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.pgn")     # nine boards, round 4
ARBITER = "push-arbiter-token"
ROUND_ID = "Abcd1234"
GAME = ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O"]


# -- the command line ------------------------------------------------------------

def test_round_ids_and_board_ranges():
    [t] = lichess_push.lichess_targets("Abcd1234", "http://127.0.0.1:9")
    assert (t.name, t.first, t.last, t.url) == ("Abcd1234", 1, 100, "http://127.0.0.1:9/api/broadcast/round/Abcd1234/push")
    a, b = lichess_push.lichess_targets("Abcd1234:1-100,Efgh5678:101-200")
    assert (a.first, a.last, b.first, b.last) == (1, 100, 101, 200) and b.url.startswith("https://lichess.org/")
    for bad, why in [("abc", "not a Lichess round id"), ("Abcd1234:1-150", "at most 100"),
                     ("Abcd1234:1-100,Efgh5678:50-120", "overlap"), ("Abcd1234,Efgh5678", "give each its boards"),
                     ("Abcd1234:9-3", "upwards"), ("Abcd1234:x", "FIRST-LAST")]:
        with pytest.raises(ValueError, match=why):
            lichess_push.lichess_targets(bad)
    with pytest.raises(ValueError, match="https://"):
        lichess_push.lichess_targets("Abcd1234", "lichess.org")
    with pytest.raises(ValueError, match="unencrypted"):
        lichess_push.lichess_targets("Abcd1234", "http://lichess.org")


def test_the_token_comes_from_a_file_or_the_environment_never_the_command_line(tmp_path):
    f = tmp_path / "token"
    f.write_text("lip_secret\nsecond line\n")
    assert lichess_push.read_token(str(f), environ={}) == "lip_secret"
    assert lichess_push.read_token(None, environ={lichess_push.TOKEN_ENV: "lip_env"}) == "lip_env"
    with pytest.raises(ValueError, match="study:write"):
        lichess_push.read_token(None, environ={})
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(ValueError, match="empty"):
        lichess_push.read_token(str(tmp_path / "empty"), environ={})
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "event", "--help"], capture_output=True, text=True,
                       env=flagfall_env())
    assert "--lichess-round" in r.stdout and "--lichess-token " not in r.stdout and "--lichess-token-file" in r.stdout
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "event", "--demo", "--lichess-round", ROUND_ID],
                       capture_output=True, text=True, env=flagfall_env(FLAGFALL_LICHESS_TOKEN=""), timeout=60)
    assert r.returncode == 2 and "--lichess-token-file" in r.stderr and "never on the command line" in r.stderr


def test_retry_after_in_seconds_or_as_a_date():
    assert lichess_push.retry_after("7") == 7.0
    assert lichess_push.retry_after(None) == 60.0 and lichess_push.retry_after("soon") == 60.0
    import email.utils
    later = email.utils.formatdate(time.time() + 30, usegmt=True)
    assert 25 <= lichess_push.retry_after(later) <= 31


# -- the uploader in-process, fed by a hub with synthetic boards -------------------

class Boards:
    """Synthetic chess boards of one round, their states ingested into a hub."""

    def __init__(self, hub, n, tournament="t", round_="1"):
        fen, grid = chess_start()
        self.hub = hub
        self.plies = chess_plies(GAME)
        self.makers = {b: StateMaker(tournament, round_, str(b), "chess",
                                     {"White": "W%d" % b, "Black": "B%d" % b, "GameId": "%s-r%s-b%d" % (tournament, round_, b)},
                                     "5400+30", fen, grid) for b in range(1, n + 1)}
        for m in self.makers.values():
            hub.ingest(m.state())

    def move(self, b):
        m = self.makers[b]
        san, fen, grid, last = self.plies[len(m.moves)]
        self.hub.ingest(m.move(san, fen, grid, last))

    def takeback(self, b, n):
        """Moves taken back (a correction): the board's state from n plies fewer."""
        m = self.makers[b]
        m.moves, m.clocks = m.moves[:-n], m.clocks[:-n]
        m.to_move = len(m.moves) % 2
        self.hub.ingest(m.state())

    def finish(self, b, result="1-0"):
        self.hub.ingest(self.makers[b].finish(result))


async def until(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


@pytest.fixture
def standin():
    s = StandIn([ROUND_ID, "Efgh5678"])
    yield s
    s.close()


def test_a_correction_replaces_the_main_line_and_a_finished_round_needs_every_board(standin):
    async def main():
        hub = Hub(asyncio.get_running_loop())
        boards = Boards(hub, 3)
        expected = [1, 2, 3, 4]          # board 4 has no state yet: pushed as its pairing with no moves

        def placeholder(b):
            return '[Event "t"]\n[Round "1.%d"]\n[White "W%d"]\n[Black "B%d"]\n[GameId "t-r1-b%d"]\n[Result "*"]\n\n*\n' % (b, b, b, b)
        p = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "1",
                                window_s=0.2, boards=expected, placeholder=placeholder)
        p.attach(hub)
        await p.start()
        for _ in range(6):
            for b in (1, 2, 3):
                boards.move(b)
        await until(lambda: [len(g["moves"]) for g in standin.games(ROUND_ID).values()] == [6, 6, 6, 0])
        assert sorted(standin.games(ROUND_ID)) == ["t-r1-b%d" % b for b in expected]
        # a correction: board 2 loses its last two moves, then plays on. Lichess deletes no move it was
        # given, so the round is emptied (reset) and pushed whole: the held main line is replaced
        boards.takeback(2, 2)

        def moves(gid):         # a round being emptied holds no game for a moment
            return standin.games(ROUND_ID).get(gid, {}).get("moves")
        await until(lambda: moves("t-r1-b2") == GAME[:4] and len(standin.games(ROUND_ID)) == 4)
        assert standin.resets == [ROUND_ID] and [len(moves("t-r1-b%d" % b)) for b in (1, 3, 4)] == [6, 6, 0]
        boards.move(2)
        await until(lambda: moves("t-r1-b2") == GAME[:5])
        assert standin.resets == [ROUND_ID]           # a move that continues the line needs no reset
        assert all(g["variations"] == 0 for g in standin.games(ROUND_ID).values())
        # every pushed game finished but board 4 still unplayed: the round is not presented as finished
        for b in (1, 2, 3):
            boards.finish(b)
        await until(lambda: standin.games(ROUND_ID)["t-r1-b3"]["result"] == "1-0")
        await asyncio.sleep(0.5)
        assert not standin.finished[ROUND_ID]
        assert all(push["ids"].count(gid) <= 1 for push in standin.accepted() for gid in push["ids"])
        await p.close()
    run(main())


def test_429_waits_for_retry_after_5xx_backs_off_and_a_refused_game_is_reported(standin):
    async def main():
        hub = Hub(asyncio.get_running_loop())
        boards = Boards(hub, 2)
        lines = []
        p = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "1",
                                window_s=0.1, retry_base_s=0.2, log=lines.append)
        p.attach(hub)
        await p.start()
        await until(lambda: len(standin.accepted()) == 1)
        standin.rate_limit(1, "1")
        boards.move(1)
        await until(lambda: len(standin.accepted()) == 2)
        t429 = [x["t"] for x in standin.pushes if x["status"] == 429][0]
        assert standin.accepted()[-1]["t"] - t429 >= 0.95
        assert any("rate limited (429), next push in 1 s" in x for x in lines)
        standin.fail(2, 503)
        boards.move(1)
        await until(lambda: len(standin.accepted()) == 3)
        fails = [x["t"] for x in standin.pushes if x["status"] == 503]
        assert len(fails) == 2 and fails[1] - fails[0] >= 0.19 and standin.accepted()[-1]["t"] - fails[1] >= 0.39
        # Lichess refuses one game: shown in the status (the dashboard's "lichess" key) and on the terminal
        standin.refuse["t-r1-b2"] = "Invalid move: Nxe5"
        boards.move(2)
        await until(lambda: p.status()["refused"])
        st = p.status()
        assert st["refused"] == [{"round": ROUND_ID, "board": 2, "game_id": "t-r1-b2", "white": "W2", "black": "B2",
                                  "error": "Invalid move: Nxe5"}]
        assert st["rounds"][0]["state"] == "refused" and st["last_push"] is not None
        assert any("refused board 2 (W2 - B2): Invalid move: Nxe5" in x for x in lines)
        del standin.refuse["t-r1-b2"]
        boards.move(2)
        await until(lambda: not p.status()["refused"])
        assert any("took board 2 again" in x for x in lines) and p.status()["rounds"][0]["state"] == "live"
        # a wrong token: said once, with what to do
        standin.token = "another"
        boards.move(1)
        await until(lambda: any("401" in x for x in lines))
        assert any("study:write" in x for x in lines if "401" in x)
        await p.close()
    run(main())


def test_a_round_of_120_boards_is_split_across_two_lichess_rounds(standin):
    async def main():
        hub = Hub(asyncio.get_running_loop())
        Boards(hub, 120)
        targets = lichess_push.lichess_targets("%s:1-100,Efgh5678:101-200" % ROUND_ID, standin.url)
        p = lichess_push.Pusher(targets, STANDIN_TOKEN, "t", "1", window_s=0.1)
        p.attach(hub)
        await p.start()
        await until(lambda: len(standin.games("Efgh5678")) == 20 and len(standin.games(ROUND_ID)) == 100)
        assert max(x["games"] for x in standin.pushes) == 100
        assert sorted(standin.games("Efgh5678")) == sorted("t-r1-b%d" % b for b in range(101, 121))
        await p.close()
    run(main())


def test_a_round_over_lilas_body_limit_is_split_by_size_and_a_413_never_brings_a_bigger_body(standin):
    """100 long games pass lila's 512 KiB: each push stays under it, and a move sends only its part."""
    async def main():
        hub = Hub(asyncio.get_running_loop())
        boards = Boards(hub, 100)
        for b, m in boards.makers.items():           # a long game's record (about 185 plies: 6 KB)
            m.tags.update(("Note%d" % i, "x" * 200) for i in range(30))
            hub.ingest(m.state())
        p = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "1",
                                window_s=0.1)
        p.attach(hub)
        await p.start()
        await until(lambda: len(standin.games(ROUND_ID)) == 100)
        first = list(standin.pushes)
        assert all(x["status"] == 200 and x["bytes"] <= lichess_push.MAX_BODY_BYTES for x in first), \
            [(x["status"], x["bytes"]) for x in first]
        assert len(first) == 2 and sum(x["games"] for x in first) == 100       # 600 KB: two bodies
        boards.move(1)
        await until(lambda: standin.games(ROUND_ID)["t-r1-b1"]["moves"] == GAME[:1])
        await asyncio.sleep(0.3)
        later = standin.pushes[len(first):]
        assert [x["ids"][0] for x in later] == ["t-r1-b1"] and later[0]["games"] < 100     # only its part
        # a server that takes less than lila (413): the bodies only get smaller until they pass
        standin.max_body = 100 * 1024
        for b in range(1, 101):
            boards.move(b)
        await until(lambda: [len(g["moves"]) for g in standin.games(ROUND_ID).values()] == [2] + [1] * 99,
                    timeout=20)
        after = standin.pushes[len(first) + len(later):]
        refused = [x["bytes"] for x in after if x["status"] == 413]
        assert refused and refused == sorted(refused, reverse=True), [(x["status"], x["bytes"]) for x in after]
        assert all(x["bytes"] <= 100 * 1024 for x in after if x["status"] == 200)
        await p.close()
    run(main())


def test_a_round_id_holding_another_rounds_games_is_refused_and_the_same_round_is_taken_again(standin):
    async def main():
        lines = []
        hub = Hub(asyncio.get_running_loop())
        old = Boards(hub, 3, round_="3")              # last round's games went to this Lichess round
        for b in (1, 2, 3):
            old.move(b)
        p3 = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "3",
                                 window_s=0.1)
        p3.attach(hub)
        await p3.start()
        await until(lambda: len(standin.games(ROUND_ID)) == 3)
        await p3.close()
        n = len(standin.accepted())
        # round 4, other players, started with round 3's id: refused, said, nothing pushed
        hub4 = Hub(asyncio.get_running_loop())
        new = Boards(hub4, 3, round_="4")
        for b, m in new.makers.items():
            m.tags.update(White="Other%d" % b, Black="Player%d" % b)
            hub4.ingest(m.state())
        p4 = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "4",
                                 window_s=0.1, log=lines.append)
        p4.attach(hub4)
        await p4.start()
        await until(lambda: p4.status()["rounds"][0]["state"] == "refused")
        new.move(1)
        await asyncio.sleep(0.4)
        assert len(standin.accepted()) == n and sorted(standin.games(ROUND_ID)) == ["t-r3-b%d" % b for b in (1, 2, 3)]
        [said] = [x for x in lines if "already holds" in x]
        assert "3 games that are not round 4's" in said and "W1 - B1" in said and "round 4's own Lichess round" in said
        assert "already holds" in p4.status()["rounds"][0]["last_answer"]
        await p4.close()
        assert len(standin.accepted()) == n
        # round 3 started again (a restart) with its own id: its games are its own, pushed on
        p3b = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "3",
                                  window_s=0.1)
        p3b.attach(hub)
        await p3b.start()
        old.move(2)
        await until(lambda: standin.games(ROUND_ID)["t-r3-b2"]["moves"] == GAME[:2])
        await p3b.close()
    run(main())


def test_lilas_answers_are_shown_as_lila_gives_them_and_the_client_names_itself(standin):
    async def main():
        lines = []
        hub = Hub(asyncio.get_running_loop())
        boards = Boards(hub, 2)
        standin.upstream.add(ROUND_ID)
        p = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "1",
                                window_s=0.1, retry_max_s=0.5, log=lines.append)
        p.attach(hub)
        await p.start()
        await until(lambda: any("refused the push" in x for x in lines))
        said = [x for x in lines if "refused" in x]
        assert said == ["lichess: round %s refused the push: The relay has an upstream URL, and cannot be pushed to. "
                        "(clear the round's source URL on Lichess: a round with a source cannot be pushed to)"
                        % ROUND_ID], said
        st = p.status()
        assert st["rounds"][0]["state"] == "refused" and "upstream URL" in st["rounds"][0]["last_answer"]
        assert st["refused"] == [] and st["last_push"] is None
        standin.upstream.discard(ROUND_ID)
        boards.move(1)
        await until(lambda: p.status()["rounds"][0]["state"] == "live")
        assert any("takes the push again" in x for x in lines) and len(standin.games(ROUND_ID)) == 2
        assert standin.user_agents == {"Flagfall/%s (broadcast push)" % lichess_round.VERSION}
        await p.close()
    run(main())


def test_a_game_in_progress_carries_the_stopped_clock_in_lilas_format_and_a_finished_one_none(standin):
    async def main():
        hub = Hub(asyncio.get_running_loop())
        boards = Boards(hub, 1)
        p = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID, standin.url), STANDIN_TOKEN, "t", "1",
                                window_s=0.1)
        p.attach(hub)
        await p.start()
        await until(lambda: "t-r1-b1" in standin.games(ROUND_ID))
        tags = standin.games(ROUND_ID)["t-r1-b1"]["tags"]
        assert (tags["WhiteClock"], tags["BlackClock"]) == ("1:30:00", "1:30:00")      # not started: both read
        boards.move(1)
        await until(lambda: len(standin.games(ROUND_ID)["t-r1-b1"]["moves"]) == 1)
        tags = standin.games(ROUND_ID)["t-r1-b1"]["tags"]
        m = boards.makers[1]
        white_s = m.clock.shown_ms(0) // 1000
        assert tags["WhiteClock"] == "%d:%02d:%02d" % (white_s // 3600, white_s // 60 % 60, white_s % 60)
        assert "BlackClock" not in tags         # Black's clock runs: Lichess counts it from the last move
        boards.finish(1)
        await until(lambda: standin.games(ROUND_ID)["t-r1-b1"]["result"] == "1-0")
        assert not {"WhiteClock", "BlackClock"} & set(standin.games(ROUND_ID)["t-r1-b1"]["tags"])
        await p.close()
    run(main())


def test_a_draughts_round_given_a_lichess_round_is_refused_at_start(tmp_path):
    with pytest.raises(ValueError, match="draughts round .*takes chess games only.*/feed/t/2.pdn"):
        lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID), "tok", "t", "2", boards=[],
                            other_boards={1: "draughts", 2: "draughts"})
    lines = []
    p = lichess_push.Pusher(lichess_push.lichess_targets(ROUND_ID), "tok", "t", "2", boards=[1], log=lines.append,
                            other_boards={2: "draughts"})           # a mixed round: its chess games are pushed
    assert p.expected == [1] and lines == ["lichess: boards 2 (draughts) are not pushed: a Lichess broadcast takes "
                                           "chess games only"]
    tok = tmp_path / "lichess-token"
    tok.write_text("lip_x\n")
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "event", "--port", "0", "--game", "draughts",
                        "--pairings", PAIRINGS, "--round", "4", "--sim", "2", "--out", str(tmp_path / "out"),
                        "--tournament", "dr", "--lichess-round", ROUND_ID, "--lichess-url", "http://127.0.0.1:9",
                        "--lichess-token-file", str(tok)], capture_output=True, text=True, env=flagfall_env(), timeout=60)
    assert r.returncode == 2 and "is a draughts round" in r.stderr and "/feed/dr/4.pdn" in r.stderr, (r.stdout, r.stderr)


def test_each_round_is_created_once_through_lichesss_api_and_kept_in_the_out_folder(tmp_path, monkeypatch):
    standin = StandIn([], tours=("Tour0001",))
    out = str(tmp_path / "out")
    try:
        r1 = lichess_round.create_round(standin.url, STANDIN_TOKEN, "Tour0001", "Round 1", out)
        r2 = lichess_round.create_round(standin.url, STANDIN_TOKEN, "Tour0001", "Round 2", out)
        assert r1 != r2 and standin.tours["Tour0001"] == [r1, r2]
        # a restart asks again: the ids kept in the out folder, nothing created twice
        assert lichess_round.create_round(standin.url, STANDIN_TOKEN, "Tour0001", "Round 1", out) == r1
        assert standin.tours["Tour0001"] == [r1, r2]
        with open(os.path.join(out, lichess_round.ROUNDS_FILE)) as f:
            assert json.load(f) == {"Tour0001": {"Round 1": r1, "Round 2": r2}}
        # the round made is one the uploader pushes to
        assert lichess_push.lichess_targets(r2, standin.url)[0].url == standin.url + "/api/broadcast/round/%s/push" % r2
        with pytest.raises(ValueError, match=r"\(404\): Not found \(no such broadcast tournament"):
            lichess_round.create_round(standin.url, STANDIN_TOKEN, "Nope0001", "Round 1", out)
        with pytest.raises(ValueError, match=r"\(401\): No such token \(the token is not valid"):
            lichess_round.create_round(standin.url, "wrong", "Tour0001", "Round 3", out)
        with pytest.raises(ValueError, match="not a Lichess broadcast tournament id"):
            lichess_round.create_round(standin.url, STANDIN_TOKEN, "x", "Round 3", out)
        assert standin.tours["Tour0001"] == [r1, r2]
        # a full disk refusing the kept file loses no round made: its id is pushed to, and the terminal told
        from flagfall.bridge import records

        def full(path, text, fsync=True):
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(records, "write_atomic", full)
        said = []
        r4 = lichess_round.create_round(standin.url, STANDIN_TOKEN, "Tour0001", "Round 4", out, warn=said.append)
        assert standin.tours["Tour0001"] == [r1, r2, r4] and len(said) == 1, said
        assert r4 in said[0] and "not kept" in said[0] and "No space left" in said[0] and "--lichess-rounds" in said[0]
    finally:
        standin.close()


def test_the_same_uploader_pushes_a_draughts_round_to_a_given_url(standin):
    """No draughts platform documents a push endpoint (docs/broadcast.md); the uploader is ready for one."""
    from flagcore import draughts as dr

    async def main():
        hub = Hub(asyncio.get_running_loop())
        start = dr.Game("international").fen()
        grid = ["." * 10] * 10          # the uploader reads the record only; the grid is not looked at
        m = StateMaker("t", "1", "5", "draughts", {"White": "A", "Black": "B", "GameId": "t-r1-b5"}, "5400+30",
                       start, grid)
        hub.ingest(m.state())
        for text in ("32-28", "19-23", "28x19", "14x23"):
            hub.ingest(m.move(text, start, grid, []))
        url = standin.url + "/api/broadcast/round/%s/push" % ROUND_ID
        p = lichess_push.Pusher([lichess_push.Target("draughts-hall", url, 1, 100)], STANDIN_TOKEN, "t", "1",
                                fmt="pdn", window_s=0.1, service="draughts")
        p.attach(hub)
        await p.start()
        await until(lambda: "t-r1-b5" in standin.games(ROUND_ID))
        g = standin.games(ROUND_ID)["t-r1-b5"]
        assert g["tags"]["GameType"].startswith("20") and g["moves"] == ["32-28", "19-23", "28x19", "14x23"]
        await p.close()
    run(main())


def test_the_stand_in_reads_pgn_as_lichess_does():
    games = split_games('[White "a"]\n[GameId "x"]\n\n1. e4 {[%clk 1:00:00]} e5 (1... c5) 2. Nf3 *\n\n'
                        '[White "b"]\n\n1. d4 1-0\n')
    assert len(games) == 2
    g = parse_game(games[0])
    assert g["moves"] == ["e4", "e5", "c5", "Nf3"] and g["variations"] == 1 and g["tags"]["GameId"] == "x"
    assert parse_game(games[1])["result"] == "1-0"


# -- the real event ---------------------------------------------------------------

class Event(EventProcess):
    """`flagfall event` on eight simulated boards of the nine-board round 4, pushing to the stand-in."""

    def __init__(self, tmp_path, standin, *extra):
        tok = tmp_path / "lichess-token"
        tok.write_text(STANDIN_TOKEN + "\n")
        super().__init__("--pairings", PAIRINGS, "--round", "4", "--sim", "8", "--autoplay", "--speed", "25",
                         "--think", "0.3", "--out", str(tmp_path / "out"), "--quiet", "--tournament", "push-open",
                         "--lichess-round", ROUND_ID, "--lichess-url", standin.url, "--lichess-token-file", str(tok),
                         *extra, token=ARBITER)

    def wait(self, cond, timeout=90, what="condition"):
        """Until cond() holds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if cond():
                return
            time.sleep(0.2)
        raise AssertionError("timed out waiting for %s; output: %s" % (what, "".join(self.lines)[-3000:]))

    def finish_all(self):
        for b in self.dashboard()["boards"]:
            if b["result"] == "*":
                st, reply = self.call("api/event/board/%d" % b["board"], {"action": "result", "result": "1/2-1/2"})
                # the game may have ended on its board between the read and the call: that result stands
                assert st == 200 or (st == 422 and "already has a result" in reply.get("error", "")), (st, reply)


def _round_pgn_moves(path):
    return {parse_game(g)["tags"]["GameId"]: parse_game(g)["moves"] for g in split_games(open(path).read())}


def test_a_round_of_eight_boards_pushed_live_one_push_per_window_and_a_refused_game_on_the_dashboard(tmp_path):
    standin = StandIn([ROUND_ID])
    standin.refuse["push-open-r4-b3"] = "Invalid move: Bxh7"
    window = 1.0
    ev = Event(tmp_path, standin, "--lichess-window", str(window), "--delay", "2")
    try:
        # printed once the uploader has started, a moment after the page's address
        ev.wait(lambda: any(("lichess push: boards 1-100 to %s/api/broadcast/round/%s/push" % (standin.url, ROUND_ID))
                            in x and "delayed 2 s" in x for x in ev.lines), timeout=30, what="the push's line")
        ev.wait(lambda: len(standin.accepted()) >= 6, what="six pushes")
        # the push lags by --delay like the public page; the arbiter's dashboard is live
        live = sum(b["plies"] for b in ev.dashboard()["boards"])
        pushed = sum(len(g["moves"]) for g in standin.games(ROUND_ID).values())
        assert pushed < live, (pushed, live)
        # every board of the round (the ninth has no device: its pairing with no moves), each with its GameId
        assert sorted(standin.games(ROUND_ID)) == sorted("push-open-r4-b%d" % b for b in range(1, 10))
        # coalesced: at most one push per window, far fewer pushes than moves
        accepted = standin.accepted()
        gaps = [b["t"] - a["t"] for a, b in zip(accepted, accepted[1:])]
        assert len(gaps) >= 5 and min(gaps) >= window * 0.9, gaps
        assert len(accepted) * 3 < pushed, (len(accepted), pushed)
        assert all(len(x["ids"]) == 9 and len(set(x["ids"])) == 9 for x in accepted)
        # the refused game: in the event's dashboard JSON and on the terminal
        ev.wait(lambda: ev.dashboard().get("lichess", {}).get("refused"), what="a refused game on the dashboard")
        lich = ev.dashboard()["lichess"]
        assert [(r["board"], r["game_id"], r["error"]) for r in lich["refused"]] == \
            [(3, "push-open-r4-b3", "Invalid move: Bxh7")]
        assert lich["last_push"] and lich["rounds"][0]["round"] == ROUND_ID
        ev.wait(lambda: any("refused board 3" in x and "Invalid move: Bxh7" in x for x in ev.lines), what="terminal")
        # the round is over only when every game is: then Lichess holds every game as played
        ev.finish_all()
        out = str(tmp_path / "out" / "round-4.pgn")
        ev.wait(lambda: os.path.exists(out) and standin.finished[ROUND_ID], timeout=30, what="the round finished")
        ev.wait(lambda: {k: g["moves"] for k, g in standin.games(ROUND_ID).items()} == _round_pgn_moves(out),
                timeout=15, what="the pushed games equal the round's PGN")
        assert all(g["variations"] == 0 for g in standin.games(ROUND_ID).values())
    finally:
        code, out_text, err = ev.stop()
        standin.close()
    assert code == 0, err


def test_an_outage_with_moves_made_during_it_loses_nothing_and_pushes_nothing_twice(tmp_path):
    standin = StandIn([ROUND_ID])
    outage_s = float(os.environ.get("FLAGFALL_PUSH_OUTAGE_S", "6"))     # a 60 s outage, time compressed
    ev = Event(tmp_path, standin, "--lichess-window", "0.5", "--lichess-retry-max", "1")
    try:
        ev.wait(lambda: sum(len(g["moves"]) for g in standin.games(ROUND_ID).values()) >= 20, what="moves pushed")
        standin.offline = True
        t0 = time.monotonic()
        before = {k: list(g["moves"]) for k, g in standin.games(ROUND_ID).items()}
        live0 = sum(b["plies"] for b in ev.dashboard()["boards"])
        ev.wait(lambda: ev.dashboard()["lichess"]["rounds"][0]["state"] == "offline", timeout=20, what="offline")
        time.sleep(max(0.0, outage_s - (time.monotonic() - t0)))
        live1 = sum(b["plies"] for b in ev.dashboard()["boards"])
        assert live1 > live0 + 8, "moves were made during the outage"
        dropped = [x for x in standin.pushes if x["status"] == 0]
        assert len(dropped) >= 2
        assert {k: g["moves"] for k, g in standin.games(ROUND_ID).items()} == before      # nothing got through
        ev.wait(lambda: any("unreachable" in x and "kept" in x for x in ev.lines), timeout=10, what="the outage's line")
        ev.finish_all()          # the games end during the outage
        time.sleep(1.0)
        standin.offline = False
        out = str(tmp_path / "out" / "round-4.pgn")
        ev.wait(lambda: os.path.exists(out) and standin.finished[ROUND_ID], timeout=30, what="reconnected")
        ev.wait(lambda: {k: g["moves"] for k, g in standin.games(ROUND_ID).items()} == _round_pgn_moves(out),
                timeout=15, what="every move held once")
        ev.wait(lambda: any("reached again" in x for x in ev.lines), timeout=10, what="the reconnection's line")
        assert all(len(x["ids"]) == len(set(x["ids"])) for x in standin.accepted())
        assert ev.dashboard()["lichess"]["rounds"][0]["state"] == "live"
    finally:
        code, out_text, err = ev.stop()
        standin.close()
    assert code == 0, err


def test_flagfall_serve_pushes_a_round_fed_from_mqtt(tmp_path):
    from broadcast_helpers import chess_board
    from mqtt_broker import mosquitto
    from flagfall import mqtt
    standin = StandIn([ROUND_ID])
    tok = tmp_path / "lichess-token"
    tok.write_text(STANDIN_TOKEN + "\n")
    with mosquitto() as port:
        pub = mqtt.Publisher("127.0.0.1", port).start()
        proc = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "serve", "--mqtt", "127.0.0.1:%d" % port,
                                 "--port", "0", "--token", "s3cret", "--quiet", "--tournament", "open", "--round", "1",
                                 "--lichess-round", ROUND_ID, "--lichess-url", standin.url, "--lichess-token-file",
                                 str(tok), "--lichess-window", "0.3"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=flagfall_env())
        try:
            line = proc.stdout.readline()
            assert line.startswith("lichess push: boards 1-100 to %s/" % standin.url), \
                (line, proc.stderr.read() if proc.poll() is not None else "")
            sm, plies = chess_board("3")          # tournament "open", round "1"
            pub.publish_state(sm.state())
            for p in plies[:5]:
                pub.publish_state(sm.move(*p))
            end = time.monotonic() + 20
            while time.monotonic() < end and sum(len(g["moves"]) for g in standin.games(ROUND_ID).values()) < 5:
                time.sleep(0.05)
            [game] = standin.games(ROUND_ID).values()
            assert game["moves"] == [p[0] for p in plies[:5]]
        finally:
            proc.terminate()
            proc.wait(10)
            pub.stop()
            standin.close()
    assert proc.returncode in (0, -15)
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "serve", "--lichess-round", ROUND_ID],
                       capture_output=True, text=True, env=flagfall_env(), timeout=60)
    assert r.returncode == 2 and "give --tournament and --round" in r.stderr
