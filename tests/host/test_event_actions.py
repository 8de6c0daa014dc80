"""One rule for the arbiter's actions (issue #30, item 7): the dashboard's API and the board page's arbiter
panel (/api/board/<t>/<r>/<b>/arbiter) take the same actions, by the board's state (boardstate.actions):
forfeits on both, and no clock edit on a finished game on either; a forfeit's missing or bad key is a 400
saying what it takes."""
import pytest

from flagfall.tournament import model
from processes import ServedEvent, call

TOKEN = "actions-test-token"


@pytest.fixture
def served(tmp_path):
    players = [model.Player("P%d" % i, rating=2000 + i) for i in range(6)]
    rnd = model.Round("Club", "Here", None, "300+2", 1, [model.Pairing(b, players[2 * b - 2], players[2 * b - 1])
                                                         for b in (1, 2, 3)])
    ev = ServedEvent(rnd, str(tmp_path / "out"), simulated=(), token=TOKEN, public=True, open_all=True,
                     tournament="club")
    try:
        yield ev
    finally:
        ev.close()


def page_act(ev, n, body):
    """(status, answer) of an action sent as the board page's arbiter panel sends it."""
    return call(ev.url.rstrip("/") + "/api/board/club/1/%d/arbiter" % n, body, token=TOKEN)


def page_actions(ev, n):
    st, data = call(ev.url.rstrip("/") + "/api/board/club/1/%d/alert" % n, token=TOKEN)
    assert st == 200, data
    return data["actions"]


def test_the_page_and_the_api_allow_the_same_actions(served):
    ev = served
    for n in (1, 2, 3):       # moves entered by the arbiter on boards with no device: their states are published
        st, reply = ev.act(n, {"action": "enter_moves", "moves": "e4 e5"})
        assert st == 200, reply
        ev.wait_board(n, lambda b: b["plies"] == 2)
    assert page_actions(ev, 1) == ev.board(1)["actions"] and "forfeit" in ev.board(1)["actions"]
    # a forfeit from the board page, as from the dashboard
    st, reply = page_act(ev, 1, {"action": "result", "result": "-/+"})
    assert st == 200 and reply["action"] == "forfeit", reply
    ev.wait_board(1, lambda b: b["result"] == "-/+" and b["status"] == "finished")
    st, reply = ev.act(2, {"action": "result", "result": "1-0"})
    assert st == 200, reply
    # a finished game: undo its result, enter moves missed; nothing else, from either
    for n in (1, 2):
        assert ev.board(n)["actions"] == ["undo_result", "enter_moves"] == page_actions(ev, n)
        for send in (ev.act, lambda n, body: page_act(ev, n, body)):
            st, reply = send(n, {"action": "clock", "side": "white", "delta_ms": 60000})
            assert st == 422 and "clock is not an action for it now (undo result, enter moves)" in reply["error"], \
                (n, send, reply)
    assert ev.board(2)["history"][-1]["ok"] is False     # the refusal is in the board's history
    # the forfeit's key: missing or not a forfeit, a 400 naming what it takes (never a KeyError)
    for body in ({"action": "forfeit"}, {"action": "forfeit", "forfeit": "1-0"},
                 {"action": "forfeit", "forfeit": "+/-", "board": 3}):
        for send in (ev.act, lambda n, body: page_act(ev, n, body)):
            st, reply = send(3, body)
            assert st == 400 and "'forfeit' must be one of +/-, -/+, -/-" in reply["error"], (body, send, reply)
    st, reply = ev.act(3, {"action": "forfeit", "forfeit": "-/-"})
    assert st == 200, reply
    ev.wait_board(3, lambda b: b["result"] == "-/-")
