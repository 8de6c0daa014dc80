"""The event's board statuses for the arbiter's dashboard, from the board's engine (no devices needed)."""
import os

from flagfall.event import model, runner


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
    assert b.status() == runner.WAITING                  # no device has said hello yet
    eng.frame(1, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
    eng.frame(2, "SNAP", [2, 64, "FFFF00000000FFFF"])
    assert b.status() == runner.PLAYING
    eng.device_status = "confirm"                         # a result entered on the clock, one button pressed
    assert b.status() == runner.RESULT_TO_CONFIRM
    eng.device_status = "running"
    eng.command(3, {"action": "result", "result": "1-0"})
    assert b.status() == runner.FINISHED and ev.results() == {1: "1-0"} and not ev.finished()
    s = b.summary()
    assert s["results"] == ["1-0", "1/2-1/2", "0-1"] and s["game_id"] == "club-r1-b1" \
        and s["actions"] == ["result", "enter_moves"]
    d = ev.dashboard()
    assert d["counts"][runner.FINISHED] == 1 and d["counts"][runner.WAITING] == 1 and d["total"] == 2
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
    assert bad.status() == runner.FAILED and "a bug" in bad.summary()["failure"] and len(stepped) == 2
    ev.stop()


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
    assert bad.engine is None and good.engine is not None and good.status() == runner.WAITING
    s = bad.summary()
    assert s["status"] == runner.FAILED and "cannot resume" in s["failure"] and "line 2" in s["failure"]
    assert s["actions"] == [runner.START_FROM_DEVICE] and "leave it to the arbiter" in s["choices"]
    try:
        bad.command({"action": "result", "result": "1-0"})
        raise AssertionError("a quarantined board took an action")
    except ValueError as e:
        assert "start_from_device" in str(e)
    reply = bad.start_from_device()
    assert reply["ok"] and bad.engine is not None and bad.status() == runner.WAITING
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
    assert b.ensure_engine() is None and b.status() == runner.FAILED and "both damaged" in b.summary()["failure"]
    b.start_from_device()
    assert b.engine is not None and b.status() == runner.WAITING
    kept = sorted(os.path.basename(p).split(".damaged-")[0] + "@" + os.path.basename(os.path.dirname(
        os.path.dirname(p))) for p in b.kept)
    assert kept == ["board-1.journal@out", "board-1.journal@usb", "board-1.pgn@out"]
    ev.stop()
