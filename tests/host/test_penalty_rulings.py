"""Penalties that follow the law and the player, and a clock resumed for the side to move: through the
event's HTTP API, as the dashboard and a script call it.

Chain under test: simulated devices (real firmware: its clock takes PAUSE, RESTORE, RESUME, ADJ and
RESULT as a board's would) -> TCP serial lines -> the event's bridges (flagfall.event.runner, penalties
confirmed by the arbiter, the FIDE Laws in force: fide-2023) -> the event API (flagfall.event.web) on an
ephemeral port -> urllib. Each board plays its own case; the hands are the simulator's (lift, place,
press), in real time.
"""
import pytest

from flagfall.tournament import model
from processes import ServedEvent, wait_until

TOKEN = "penalty-rulings-token"


def rulings_event(out):
    """A three-board chess round (penalties confirmed by the arbiter) on simulated boards, served."""
    players = [model.Player("P%d" % i) for i in range(6)]
    rnd = model.Round("Rulings", None, None, "5400+30", 1,
                      [model.Pairing(n, players[2 * n - 2], players[2 * n - 1]) for n in (1, 2, 3)])
    return ServedEvent(rnd, out, simulated=(1, 2, 3), seed=5, token=TOKEN, tournament="rulings",
                       penalties="confirm")


@pytest.fixture(scope="module")
def rulings(tmp_path_factory):
    ev = rulings_event(str(tmp_path_factory.mktemp("rulings") / "out"))
    try:
        for n in (1, 2, 3):
            ev.wait_board(n, lambda b: b["status"] == "not-started")
            ev.tables[n].sim.press("start")
        yield ev
    finally:
        ev.close()


def play(ev, n, *moves):
    sim = ev.tables[n].sim
    for m in moves:
        sim.play(m, think_ms=300, noise=0.0)
    ev.wait_board(n, lambda b: b["plies"] == len(sim.moves_played) and not b["alert"])


def resume(ev, n, side, before):
    """"Resume clock" for `side`, who is to move, while the clock has the other on move: it is handed to
    `side` and left paused (these boards' clocks have a lever: its position says who pressed last), the
    arbiter puts the lever down on the other side, resumes it, and `side`'s clock runs."""
    names = {"white": "White", "black": "Black"}
    other = "black" if side == "white" else "white"
    st, reply = ev.act(n, {"action": "resume"})
    assert st == 200 and reply["reply"]["text"] == "%shanded to %s, who is to move: put the lever down on %s's side, " \
        "then resume the clock" % (before, names[side], names[other]), reply
    ev.wait_board(n, lambda b: b["clock_to"] is None and not b["clock"]["running"])
    ev.tables[n].sim.press(other)                 # the lever, on a paused clock: no press counted
    st, reply = ev.act(n, {"action": "resume"})
    assert st == 200 and reply["reply"]["text"] == "clock resumed", reply
    ev.wait_board(n, lambda b: b["clock"]["running"] == side and b["clock_to"] is None)


def shift(ev, n, frm, to, press=None):
    """A piece taken from `frm` and put on `to` by hand (no move of the rules), and the clock pressed."""
    sim = ev.tables[n].sim
    sim.lift(frm)
    sim.wait(200)
    sim.place(to)
    sim.wait(300)
    if press:
        sim.press(press)


def test_a_penalty_goes_to_the_player_of_the_illegal_move_and_ends_with_its_alert(rulings):
    ev = rulings
    play(ev, 1, "e4", "e5", "Nf3")
    shift(ev, 1, "f8", "f6", press="black")       # Black's bishop f8-f6: no bishop moves so
    ev.wait_board(1, lambda b: b["penalty_side"] == "black")
    b = ev.board(1)
    assert b["status"] == "alert" and "illegal move by Black" in b["alert"], b["alert"]
    assert b["penalty"] == "Black: 2 minutes to White" and b["laws"] == "fide-2023"
    assert "penalty" in b["actions"]
    # the other side's penalty is refused: the illegal move was Black's
    st, reply = ev.act(1, {"action": "penalty", "side": "white"})
    assert st == 409 and "Black's, not White's" in reply["error"], (st, reply)
    g = ev.event.board(1).engine.game
    white_before = g.clock["white_ms"]
    st, reply = ev.act(1, {"action": "penalty", "side": "black"})
    assert st == 200 and reply["reply"]["text"] == "Black's illegal move no. 1: penalty, 2:00 to White (fide-2023)", reply
    # the clock gave White 2 minutes (its reading; White's clock runs)
    assert wait_until(lambda: g.clock["white_ms"] > white_before + 110000, 5), (white_before, g.clock)
    b = ev.board(1)
    assert b["penalty_side"] is None and b["penalty"] is None and "penalty" not in b["actions"] and not b["alert"]
    # once applied, nothing of it remains: a second one for the same illegal move is refused
    st, reply = ev.act(1, {"action": "penalty", "side": "black"})
    assert st == 409 and "no illegal-move alert is up" in reply["error"], (st, reply)
    assert g.illegal == [0, 1]
    # the position reinstated; later an alert that is no illegal move ("capture not shown": White's
    # bishop set down on the knight without the knight lifted) offers no penalty, and none is taken
    shift(ev, 1, "f6", "f8")
    ev.wait_board(1, lambda b: not b["view"]["missing"] and not b["view"]["extra"] and b["clock_to"] == "black")
    resume(ev, 1, "black", "White's clock stopped and ")
    play(ev, 1, "Nc6", "Bb5", "a6")
    shift(ev, 1, "b5", "c6", press="white")         # Bxc6 with the knight never lifted
    ev.wait_board(1, lambda b: b["status"] == "alert" and "capture" in (b["alert"] or ""))
    b = ev.board(1)
    assert b["penalty_side"] is None and "penalty" not in b["actions"], b
    st, reply = ev.act(1, {"action": "penalty", "side": "black"})
    assert st == 409 and "no illegal-move alert is up" in reply["error"] and "capture" in reply["error"], reply
    assert g.illegal == [0, 1] and g.result == "*"


def test_a_penalty_proposed_goes_when_the_position_is_restored_before_the_arbiter_comes(rulings):
    ev = rulings
    play(ev, 2, "d4", "d5")
    shift(ev, 2, "c1", "c3", press="white")         # White's bishop c1-c3
    ev.wait_board(2, lambda b: b["penalty_side"] == "white" and "penalty" in b["actions"])
    shift(ev, 2, "c3", "c1")                       # the players put it back before the arbiter comes
    ev.wait_board(2, lambda b: not b["alert"])
    b = ev.board(2)
    assert b["penalty_side"] is None and b["penalty"] is None and "penalty" not in b["actions"], b
    st, reply = ev.act(2, {"action": "penalty", "side": "white"})
    assert st == 409 and "no illegal-move alert is up" in reply["error"], (st, reply)
    # the clock: Black's runs (White pressed), White is to move: the dashboard is told, and resuming
    # (here a switch of a running clock) starts White's
    assert b["clock_to"] == "white" and b["clock"]["running"] == "black", b
    assert b["fix"] == "Black's clock runs, but White is to move: switch the clock to White", b["fix"]
    black_ms = b["clock"]["black_ms"]
    resume(ev, 2, "white", "Black's clock stopped and ")
    assert abs(ev.board(2)["clock"]["black_ms"] - black_ms) < 3000      # Black's time stood, as it was
    play(ev, 2, "Nf3")
    assert ev.event.board(2).engine.game.illegal == [0, 0]


def test_the_second_illegal_move_loses_and_an_undone_result_resumes_the_side_to_move(rulings):
    ev = rulings
    play(ev, 3, "e4", "c5")
    for n, (frm, to) in enumerate((("f1", "f4"), ("f1", "g3"))):
        shift(ev, 3, frm, to, press="white")
        ev.wait_board(3, lambda b: b["penalty_side"] == "white")
        want = ["White: 2 minutes to Black", "White's second illegal move: the game is lost"][n]
        assert ev.board(3)["penalty"] == want
        st, reply = ev.act(3, {"action": "penalty", "side": "white"})
        assert st == 200, reply
        if n == 0:
            shift(ev, 3, to, frm)
            ev.wait_board(3, lambda b: not b["view"]["missing"] and not b["view"]["extra"])
            resume(ev, 3, "white", "Black's clock stopped and ")      # Black's clock was running
    ev.wait_board(3, lambda b: b["result"] == "0-1")
    g = ev.event.board(3).engine.game
    assert g.reason == "White's illegal move no. 2 (fide-2023)"
    record = open(ev.event.board(3).record_path).read()
    assert '[Laws "fide-2023"]' in record and '[IllegalMoves "White 2, Black 0"]' in record, record
    # the result withdrawn: the game goes on with White to move; the clock (reopened, paused) has
    # Black on move: "Resume clock" starts White's
    shift(ev, 3, "g3", "f1")
    st, reply = ev.act(3, {"action": "undo_result"})
    assert st == 200, reply
    ev.wait_board(3, lambda b: b["result"] == "*" and b["clock_to"] == "white" and not b["clock"]["running"])
    resume(ev, 3, "white", "clock ")
    play(ev, 3, "Nf3")


def test_a_clock_with_a_button_per_side_is_handed_over_and_resumed_at_once(tmp_path):
    """The engine alone, with a virtual device whose clock is the firmware's (a button per side, no
    lever): the arbiter's "resume" while the clock runs for the side not to move pauses it, hands it
    over from the paused reading (RESTORE) and resumes it; the next legal move is recorded, the clock's
    count stays in step with the record, and the journal replays to the same decisions."""
    from flagcore import clock as clockmod

    from flagfall.bridge import engine as eng_mod
    from test_bridge_fast_play import Table, opening
    journal = str(tmp_path / "b.journal")
    tb = Table(penalties="confirm", journal_path=journal)
    sent = []

    def device(kind, values):           # the device carries out the host's frames, then reports its clock
        sent.append(kind)
        c = tb.dev.clock
        if kind == "PAUSE":
            c.pause(tb.t)
        elif kind == "RESTORE":
            tb.dev.clock = clockmod.restore(values[0], tb.t)
        elif kind == "RESUME":
            c.resume(tb.t)
        elif kind == "ADJ":
            c.adjust(values[0], values[1], tb.t)
        tb.deliver(tb.dev.clock_frame(tb.t))
        return True
    tb.eng.send = device
    opening(tb, ("e2", "e4"), ("e7", "e5"), ("g1", "f3"))
    tb.move("f8", "f6")                            # Black's bishop: no such move
    tb.press(1)
    tb.wait(3000)
    assert tb.eng.command(tb.t, {"action": "penalty", "side": "black"})["ok"]
    tb.move("f6", "f8")
    tb.wait(2000)
    assert tb.eng.clock_disagrees() == 1 and tb.dev.clock.to_move == 0       # White's clock runs
    reply = tb.eng.command(tb.t, {"action": "resume"})
    assert reply["text"] == "White's clock stopped and handed to Black, who is to move", reply
    assert sent[-3:] == ["PAUSE", "RESTORE", "RESUME"], sent
    c = tb.dev.clock
    assert c.state == clockmod.RUNNING and c.to_move == 1 and tb.eng.clock_disagrees() is None
    tb.wait(1000)
    tb.move("b8", "c6")
    tb.press(1)
    tb.wait(3000)
    g = tb.eng.game
    assert g.sans() == ["e4", "e5", "Nf3", "Nc6"] and g.alert is None and g.illegal == [0, 1] and tb.in_step()
    tb.eng.close()
    again = eng_mod.resume(journal)
    assert again.game.sans() == g.sans() and [d.kind for d in again.game.decisions] == [d.kind for d in g.decisions]
