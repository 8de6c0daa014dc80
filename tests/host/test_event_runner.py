"""The event's board statuses for the arbiter's dashboard, from the board's engine (no devices needed)."""
import os

from flagfall.bridge import boardstate
from flagfall.event import board, runner
from flagfall.tournament import model


def event(tmp_path):
    players = [model.Player("P%d" % i, rating=2000 + i) for i in range(4)]
    rnd = model.Round("Club", "Here", None, "300+2", 1, [model.Pairing(1, players[0], players[1]),
                                                         model.Pairing(2, players[2], players[3])])
    ev = runner.Event(rnd, tournament="club", out_dir=str(tmp_path), penalties="auto")
    for b in ev.boards.values():
        b.open_engine()
    return ev


def test_statuses_follow_the_engine(tmp_path):
    ev = event(tmp_path)
    b = ev.board(1)
    eng = b.engine
    assert b.status() == boardstate.WAITING                  # no device has said hello yet
    eng.frame(1, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
    eng.frame(2, "SNAP", [2, 64, "FFFF00000000FFFF"])
    assert b.status() == boardstate.NOT_STARTED              # ready, no clock has run yet
    eng.game.clock_reading(3, 300000, 299000, "black")
    assert b.status() == boardstate.PLAYING
    eng.device_status = "confirm"                         # a result entered on the clock, one button pressed
    assert b.status() == boardstate.RESULT_TO_CONFIRM
    eng.device_status = "running"
    eng.command(3, {"action": "result", "result": "1-0"})
    assert b.status() == boardstate.FINISHED and ev.results() == {1: "1-0"} and not ev.finished()
    s = b.summary()
    # a finished game: its result can be undone, and moves missed before it entered
    assert s["results"] == ["1-0", "1/2-1/2", "0-1"] and s["game_id"] == "club-r1-b1" \
        and s["actions"] == ["undo_result", "enter_moves"]
    d = ev.dashboard()
    assert d["counts"][boardstate.FINISHED] == 1 and d["counts"][boardstate.WAITING] == 1 and d["total"] == 2
    ev.stop()


def test_a_failing_board_never_stops_the_others(tmp_path):
    ev = event(tmp_path)
    bad = ev.board(1)

    class Broken:
        link = None
        connects = 0

        def step(self):
            raise RuntimeError("a bug in this board's handling")

        def close(self):
            pass
    bad.session = Broken()
    stepped = []

    class Fine(Broken):
        def step(self):
            stepped.append(1)
    ev.board(2).session = Fine()
    ev.step()
    ev.step()
    assert bad.status() == boardstate.FAILED and "a bug" in bad.summary()["failure"] and len(stepped) == 2
    ev.stop()


def ready(b, t=1):
    b.engine.frame(t, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
    b.engine.frame(t + 1, "SNAP", [2, 64, "FFFF00000000FFFF"])


def test_results_and_forfeits_are_the_games_own_and_both_can_be_undone(tmp_path):
    import pytest
    players = [model.Player("P%d" % i) for i in range(4)]
    rnd = model.Round("Club", None, None, None, 1, [model.Pairing(1, players[0], players[1]),
                                                   model.Pairing(2, players[2], players[3])])
    ev = runner.Event(rnd, tournament="club", out_dir=str(tmp_path), games={2: "draughts"})
    for b in ev.boards.values():
        b.open_engine()
    draughts = ev.board(2)
    with pytest.raises(ValueError, match="not a result of international draughts"):
        draughts.command(runner.board_action({"action": "result", "result": "1/2-1/2"}), "Ann")
    assert draughts.result() == "*" and draughts.history[-1]["ok"] is False and draughts.history[-1]["who"] == "Ann"
    draughts.command(runner.board_action({"action": "result", "result": "1-1"}))
    assert ev.results() == {2: "1-1"}
    draughts.command(runner.board_action({"action": "undo_result"}))
    assert draughts.result() == "*" and draughts.status() != boardstate.FINISHED
    # a forfeit is the game's result: the winner's in the record, with [Termination "forfeit"] (the feeds,
    # the round's file and the push say so), +/- for the TRF and the standings, kept in the journal
    chess = ev.board(1)
    sent = []
    chess.engine.send = lambda kind, fields: sent.append((kind, fields))
    chess.command(runner.board_action({"action": "result", "result": "+/-"}))
    assert chess.status() == boardstate.FINISHED and ev.results() == {1: "+/-"} and chess.forfeit == "+/-"
    assert sent == [("RESULT", ["1-0", "arbiter"])]            # the clock stops for good
    record = open(chess.record_path).read()
    assert '[Result "1-0"]' in record and '[Termination "forfeit"]' in record, record
    st = chess.engine.state()
    assert (st["result"], st["status"], st["tags"]["Termination"]) == ("1-0", "finished", "forfeit")
    # recording stops, but the arbiter can still enter the moves played
    chess.command(runner.board_action({"action": "enter_moves", "moves": "e4 e5"}))
    assert chess.engine.game.sans() == ["e4", "e5"] and chess.result() == "+/-"
    with pytest.raises(ValueError, match="already has a result"):
        chess.command(runner.board_action({"action": "result", "result": "1-0"}))
    assert any(e["kind"] == "result" and e["text"] == "forfeit +/-" for e in ev.incidents)
    ev.stop()
    again = runner.Event(rnd, tournament="club", out_dir=str(tmp_path), games={2: "draughts"})
    for b in again.boards.values():
        b.open_engine()
    assert again.results() == {1: "+/-"}                          # resumed from the journals
    assert again.board(1).engine.game.sans() == ["e4", "e5"]
    assert [h["what"] for h in again.board(2).history] == ["result 1/2-1/2", "result 1-1", "undo result"]
    # the event log (the dashboard's) is kept in the out folder and read back at a restart
    assert [e["text"] for e in again.incidents] == [e["text"] for e in ev.incidents] and again.incidents
    again.board(1).command(runner.board_action({"action": "undo_result"}))
    assert again.results() == {} and again.board(1).status() != boardstate.FINISHED
    again.stop()


def test_device_actions_on_an_unplugged_board_are_refused_not_lost(tmp_path):
    import pytest
    ev = event(tmp_path)
    b = ev.board(1)
    ready(b)

    class Unplugged:
        link = None
        connects = 1
        sent = []

        def send(self, kind, fields):
            self.sent.append(kind)
            return False

        def step(self):
            pass

        def close(self):
            pass
    b.session = Unplugged()
    assert b.status() == boardstate.UNPLUGGED and "clock" not in b.summary()["actions"]
    for cmd in ({"action": "clock", "side": "white", "delta_ms": 60000}, {"action": "pause"},
                {"action": "time", "side": "black", "ms": 60000}):
        with pytest.raises(board.DeviceUnavailable, match="unplugged"):
            b.command(runner.board_action(cmd))
    assert Unplugged.sent == [] and [h["ok"] for h in b.history] == [False, False, False]
    b.command(runner.board_action({"action": "result", "result": "0-1"}))    # the record's, not the device's
    assert b.result() == "0-1"
    ev.stop()


def test_the_next_round_waits_for_unfinished_games_unless_told(tmp_path):
    import pytest
    pgn = tmp_path / "pairings.pgn"
    games = []
    for r in (1, 2):
        for bd in (1, 2):
            games.append('[Event "Club"]\n[Round "%d.%d"]\n[White "W%d%d"]\n[Black "B%d%d"]\n[Result "*"]\n\n*\n'
                         % (r, bd, r, bd, r, bd))
    pgn.write_text("\n".join(games))
    from flagfall.tournament import pairings
    out = tmp_path / "out"
    ev = runner.Event(pairings.read_pairings(str(pgn), 1), tournament="club", out_dir=str(out),
                      pairings_path=str(pgn))
    for b in ev.boards.values():
        b.open_engine()
    ev.board(1).command({"action": "result", "result": "1-0"})
    with pytest.raises(runner.RoundUnfinished) as e:
        ev.next_round()
    assert [b["board"] for b in e.value.boards] == [2] and ev.round.round == 1
    played = ev.board(2)
    ev.next_round(unfinished="forfeit")
    assert ev.round.round == 2 and ev.results() == {}
    assert '"round": 2' in (out / runner.ROUND_FILE).read_text()
    # the double forfeit is in the round's file: 0-0 with [Termination "forfeit"] (neither side scores)
    from flagfall.games import chess
    games = list(chess.read_file(str(out / "round-1.pgn")))
    assert [(g.tags["White"], g.result, g.tags.get("Termination")) for g in games] == [
        ("W11", "1-0", "arbiter"), ("W12", "0-0", "forfeit")]
    assert played.result() == "-/-" and played.status() == boardstate.FINISHED
    # ... and the standings count it as a double forfeit, not a game played
    from flagfall.tournament import standings
    [scored] = standings.games_from_states([played.engine.state()])
    assert scored.result == "-/-"
    rows = {r["name"]: (r["points"], r["played"]) for r in standings.table([scored], 1)}
    assert rows == {"W12": (0.0, 0), "B12": (0.0, 0)}
    ev.stop()


def test_the_status_line_counts_the_boards(tmp_path):
    from flagfall.event.service import status_line
    ev = event(tmp_path)
    ready(ev.board(1))
    ev.board(2).command({"action": "result", "result": "1/2-1/2"})
    assert status_line(ev) == "status: round 1, 1 of 2 games finished (1 not started, 1 finished)"
    ev.stop()


def test_an_alert_dismissed_and_the_penalty_proposed_with_it_dropped(tmp_path):
    import pytest
    ev = event(tmp_path)
    b = ev.board(1)
    ready(b)
    g = b.engine.game
    with pytest.raises(ValueError, match="no alert to dismiss"):
        b.command({"action": "dismiss"})
    g.set_alert(5, "illegal move by White: the arbiter applies the penalty (fide-2023) or dismisses it")
    g.penalty_alert = (g.alert, 0)          # the penalty this illegal-move alert proposes (penalties.illegal)
    assert b.summary()["penalty_side"] == "white" and "dismiss" in b.summary()["actions"]
    assert b.summary()["penalty"] == "White: 2 minutes to Black" and "penalty" in b.summary()["actions"]
    b.command({"action": "dismiss"}, "Bo")
    assert g.alert is None and g.proposed_penalty is None and b.status() != boardstate.ALERT
    assert b.history[-1]["what"] == "dismiss" and b.history[-1]["ok"] and b.history[-1]["who"] == "Bo"


def test_a_damaged_journal_quarantines_its_board_alone(tmp_path):
    ev = event(tmp_path)
    eng = ev.board(1).engine
    eng.frame(1, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
    eng.frame(2, "SNAP", [2, 64, "FFFF00000000FFFF"])
    ev.stop()
    path = ev.board(1).journal_path
    with open(path) as f:
        lines = f.read().split("\n")
    lines[1] = lines[1].replace('"t":1', '"t":7')         # one character changed: the hash chain breaks
    with open(path, "w") as f:
        f.write("\n".join(lines))
    ev = runner.Event(ev.round, tournament="club", out_dir=str(tmp_path), penalties="auto")
    for b in ev.boards.values():
        b.ensure_engine()
    bad, good = ev.board(1), ev.board(2)
    assert bad.engine is None and good.engine is not None and good.status() == boardstate.WAITING
    s = bad.summary()
    assert s["status"] == boardstate.FAILED and "cannot resume" in s["failure"] and "line 2" in s["failure"]
    assert s["actions"] == [board.START_FROM_DEVICE] and "leave it to the arbiter" in s["choices"]
    try:
        bad.command({"action": "result", "result": "1-0"})
        raise AssertionError("a quarantined board took an action")
    except ValueError as e:
        assert "start_from_device" in str(e)
    reply = bad.start_from_device()
    assert reply["ok"] and bad.engine is not None and bad.status() == boardstate.WAITING
    kept = [n for n in os.listdir(str(tmp_path / "round-1")) if ".damaged-" in n]
    assert sorted(k.split(".damaged-")[0] for k in kept) == ["board-1.journal", "board-1.pgn"]
    assert open(os.path.join(str(tmp_path / "round-1"), [k for k in kept if "journal" in k][0])).read() \
        == "\n".join(lines)                                  # kept as it was, never deleted
    ev.stop()



def test_both_copies_damaged_quarantine_the_board_and_both_are_kept_aside(tmp_path):
    players = [model.Player("P%d" % i) for i in range(2)]
    rnd = model.Round("Club", "Here", None, "300+2", 1, [model.Pairing(1, players[0], players[1])])
    out, usb = str(tmp_path / "out"), str(tmp_path / "usb")
    ev = runner.Event(rnd, tournament="club", out_dir=out, mirror=usb)
    b = ev.board(1)
    b.ensure_engine()
    b.engine.frame(1, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
    ev.stop()
    with open(b.mirror_path) as f:
        assert f.read() == open(b.journal_path).read()          # every entry in both copies
    for path, t in ((b.journal_path, '"t":8'), (b.mirror_path, '"t":9')):
        text = open(path).read().replace('"t":1', t, 1)
        with open(path, "w") as f:
            f.write(text)
    ev = runner.Event(rnd, tournament="club", out_dir=out, mirror=usb)
    b = ev.board(1)
    assert b.ensure_engine() is None and b.status() == boardstate.FAILED and "both damaged" in b.summary()["failure"]
    b.start_from_device()
    assert b.engine is not None and b.status() == boardstate.WAITING
    kept = sorted(os.path.basename(p).split(".damaged-")[0] + "@" + os.path.basename(os.path.dirname(
        os.path.dirname(p))) for p in b.kept)
    assert kept == ["board-1.journal@out", "board-1.journal@usb", "board-1.pgn@out"]
    ev.stop()


def test_the_laws_are_the_events_choice_kept_in_each_journal(tmp_path):
    import json

    import pytest
    from flagfall.bridge import boardsetup, engine as eng_mod
    players = [model.Player("P%d" % i) for i in range(4)]
    rnd = model.Round("Club", None, None, None, 1, [model.Pairing(1, players[0], players[1]),
                                                   model.Pairing(2, players[2], players[3])])
    with pytest.raises(ValueError, match="laws must be one of fide-2023, fide-2018, fide-2000"):
        runner.Event(rnd, tournament="club", out_dir=str(tmp_path / "bad"), laws="fide-1997")
    ev = runner.Event(rnd, tournament="club", out_dir=str(tmp_path), games={2: "draughts"}, laws="fide-2000")
    for b in ev.boards.values():
        b.open_engine()
    chess, draughts = ev.board(1), ev.board(2)
    assert chess.engine.game.penalty_name == "fide-2000" and chess.summary()["laws"] == "fide-2000"
    assert draughts.engine.game.penalty_name == "fmjd" and draughts.engine.game.laws is None  # its rulebook's
    assert ev.dashboard()["laws"] == "fide-2000"
    assert '[Laws "fide-2000"]' in open(chess.record_path).read()
    ev.stop()
    # resumed from the journal: the same laws; a journal begun before the laws were chosen followed fide-2000
    header = json.loads(open(chess.journal_path).readline())
    assert header["laws"] == "fide-2000"
    assert eng_mod.resume(chess.journal_path).game.penalty_name == "fide-2000"
    del header["laws"]
    assert boardsetup.BoardSetup.from_header(header).laws == boardsetup.LAWS_BEFORE == "fide-2000"
    assert boardsetup.BoardSetup("chess").laws == "fide-2023"          # the Laws in force, by default


def test_neither_journal_copy_writable_keeps_the_moves_in_memory_and_says_so(tmp_path, monkeypatch):
    """Issue 34: both the out folder's and the mirror's disks full: the board goes on, its entries held in
    memory; storage_problems() (said every minute by `flagfall event`) names it until a disk takes them."""
    import errno
    from flagfall.bridge import journal as jmod
    monkeypatch.setattr(jmod, "MIRROR_RETRY_S", 0.0)
    players = [model.Player("P%d" % i) for i in range(2)]
    rnd = model.Round("Club", "Here", None, "300+2", 1, [model.Pairing(1, players[0], players[1])])
    ev = runner.Event(rnd, tournament="club", out_dir=str(tmp_path / "out"), mirror=str(tmp_path / "usb"))
    b = ev.board(1)
    eng = b.open_engine()
    full = [False]
    real = os.fsync

    def fsync(fd):
        if full[0]:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    assert ev.storage_problems() == []
    full[0] = True
    eng.command(10, {"action": "result", "result": "0-1"})
    assert eng.game.result == "0-1" and eng.unwritten
    said = ev.storage_problems()
    assert len(said) == 1 and said[0].startswith("board 1: cannot write") and "No space left" in said[0]
    assert "%d journal entries held in memory" % len(eng.unwritten) in said[0] and b.status() == boardstate.FINISHED
    full[0] = False
    eng.tick(10 ** 6)                           # the engine's retry: the moment the disk takes them
    assert ev.storage_problems() == [] and not eng.unwritten
    for path in (b.journal_path, b.mirror_path):
        assert any(e.get("k") == "cmd" and e["cmd"].get("result") == "0-1" for e in jmod.load(path)[1]), path
    ev.stop()


def test_an_adjourned_game_is_published_as_adjourned_right_after_its_last_move(tmp_path):
    # the adjourned state is a new state for the viewers (a newer seq): published within a second of the
    # game's last state, one with that state's seq was dropped by the hub as not newer, and the page and
    # /api/rounds said "playing" for good (issue #30's intermittent round-5 board)
    from flagfall.broadcast.hub import Hub
    from flagfall.tournament import pairings
    pgn = tmp_path / "pairings.pgn"
    pgn.write_text("\n".join('[Event "Club"]\n[Round "%d.1"]\n[White "W%d"]\n[Black "B%d"]\n[Result "*"]\n\n*\n'
                             % (r, r, r) for r in (1, 2)))
    hub = Hub()
    ev = runner.Event(pairings.read_pairings(str(pgn), 1), tournament="club", out_dir=str(tmp_path / "out"),
                      pairings_path=str(pgn), publish=hub.ingest)
    for b in ev.boards.values():
        b.open_engine()
    ev.board(1).command(runner.board_action({"action": "enter_moves", "moves": "e4 e5"}))
    key = ("club", "1", "1")
    assert hub.boards[key].state["moves"] == ["e4", "e5"] and hub.boards[key].state["status"] != "adjourned"
    ev.next_round(unfinished="adjourn")
    held = hub.boards[key].state
    assert (held["status"], held["result"], held["moves"]) == ("adjourned", "*", ["e4", "e5"])
    ev.stop()


def one_board_club(tmp_path):
    """A one-board round (no device attached, its engine open) and the lines its terminal would print."""
    lines = []
    rnd = model.Round("Club", None, None, None, 1, [model.Pairing(1, model.Player("A"), model.Player("B"))])
    ev = runner.Event(rnd, tournament="club", out_dir=str(tmp_path), log=lines.append)
    b = ev.board(1)
    b.open_engine()
    return ev, b, lines


def test_a_flapping_cable_is_said_once_and_again_when_it_holds(tmp_path, monkeypatch):
    # a loose cable that comes and goes every half second: the terminal says the first unplugs line by
    # line, then that it flaps, then nothing until it has held FLAP_HOLDS_S, then how often it went
    ev, b, lines = one_board_club(tmp_path)
    now = [1000.0]
    monkeypatch.setattr(board.time, "monotonic", lambda: now[0])

    class Loose:
        link = "up"
        connects = 1

        def step(self):
            self.link = None if self.link else "up"
            b._session_log("bridge: connection lost (cable); reconnecting" if self.link is None
                           else "bridge: connected to socket://sim")

        def close(self):
            pass
    b.session = Loose()
    for _ in range(40):         # 20 flaps in 10 s
        now[0] += 0.25
        b.step()
    said = [x for x in lines if x.startswith("board 1: ")]
    assert len(said) <= 4 * board.FLAP_UNPLUGS + 2, said
    assert sum("the cable comes and goes: unplugged 3 times" in x for x in said) == 1, said
    assert b.session.link == "up"
    for _ in range(int(board.FLAP_HOLDS_S) + 2):      # it holds
        now[0] += 1.0
        b.session.step = lambda: None
        b.step()
    assert lines[-1] == "board 1: the cable holds again (connected for %d s): it was unplugged 20 times in 9 s; " \
        "check it" % board.FLAP_HOLDS_S, lines[-3:]
    assert sum("cable" in e["text"] for e in ev.incidents) == 2      # the event log says it as the terminal does
    ev.stop()


def test_a_penalty_is_said_in_words_on_the_terminal(tmp_path):
    from flagfall.bridge import decisions as D
    ev, b, lines = one_board_club(tmp_path)
    d = D.Decision(D.PENALTY, 0, side=0, count=1, outcome="penalty", bonus_ms=120000, policy="fide-2023")
    b._published(b.engine.next_state(), [d])
    assert lines[-1] == "board 1: White's illegal move no. 1: penalty, 2:00 to Black (fide-2023)", lines
    ev.stop()


def test_attention_lists_alerts_then_devices_then_time_trouble(tmp_path):
    import time as _time
    now = int(_time.time() * 1000)

    def board(n, status, result="*", running=None, white_ms=600000, black_ms=600000, low=False, **kw):
        clock = {"white_ms": white_ms, "black_ms": black_ms, "running": running, "at_ms": now}
        if low:
            clock.update(battery=9, battery_low=True)
        return dict({"board": n, "status": status, "result": result, "clock": clock,
                     "side_names": ["White", "Black"], "alert": None, "fix": None, "failure": None}, **kw)
    boards = [board(1, "playing", running="white", white_ms=45000),          # time trouble (under 5:00)
              board(2, "playing", running="black", black_ms=400000),         # 6:40: no trouble
              board(3, "unplugged", fix="device unplugged: plug it back in"),
              board(4, "alert", alert="illegal move by White"),
              board(5, "playing", low=True),
              board(6, "finished", result="1-0", running=None, white_ms=1000, low=True),
              board(7, "silent", running="white", white_ms=1000, fix="the device is silent: check its cable"),
              board(8, "flag", running=None, black_ms=0)]
    got = runner.attention(boards, "5400+30")
    assert [(a["board"], a["kind"]) for a in got] == [(4, "alert"), (8, "alert"), (3, "device"), (5, "device"),
                                                       (7, "device"), (1, "time")], got
    assert got[0]["text"] == "illegal move by White" and got[3]["text"] == "clock battery low (9 %)"
    assert got[-1]["text"].startswith("White in time trouble: 0:4") and got[-1]["text"].endswith(" left"), got
    # a blitz game: a tenth of its time is trouble (18 s of 3 minutes), not 5 minutes
    assert runner.time_trouble_ms("180+2") == 18000 and runner.time_trouble_ms("5400+30") == 300000
    assert runner.time_trouble_ms(None) == runner.TIME_TROUBLE_MS
    assert runner.attention([board(1, "playing", running="white", white_ms=45000)], "180+2") == []


def test_a_low_clock_battery_is_an_alert_until_the_batteries_are_changed(tmp_path):
    ev, b, lines = one_board_club(tmp_path)
    for pct in (30, 12, 11, 80):
        b.engine.battery = (pct, pct < 15)
        b._published(b.engine.next_state(), [])
    assert [x for x in lines if "battery" in x] == [
        "board 1: clock battery low (12 %): change the batteries before it stops",
        "board 1: clock battery no longer low (80 %)"]
    assert [(e["kind"], e["text"][:17]) for e in ev.incidents if "battery" in e["text"]] == [
        ("alert", "clock battery low"), ("resolved", "clock battery no ")]
    ev.stop()
