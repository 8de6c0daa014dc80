"""The event's board statuses for the arbiter's dashboard, from the board's engine (no devices needed)."""
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
