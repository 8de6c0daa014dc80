"""The live-state contract (flagfall.live): states, topics, commands, grids."""
import copy
import json

import pytest

from flagfall import live
from flagfall.broadcast import synthetic


def sample_state():
    fen, grid = synthetic.chess_start()
    sm = synthetic.StateMaker("open-2026", "3", "12", "chess", {"White": "Ann", "Black": "Bob"}, "5400+30", fen, grid)
    sm.state(now=1000)
    plies = synthetic.chess_plies(["e4", "c5", "Nf3"])
    st = None
    for i, p in enumerate(plies):
        st = sm.move(*p, now=2000 + 1000 * i)
    return st


def test_make_state_round_trips_through_json_and_validates():
    st = sample_state()
    back = json.loads(live.dumps(st))
    assert live.validate_state(back) == back
    assert back["seq"] == 3 and back["moves"] == ["e4", "c5", "Nf3"]
    assert back["grid"][4] == "....P..." and back["grid"][3] == "..p....."
    assert back["last_move"] == [[7, 6], [5, 5]]          # g1 -> f3
    assert len(back["clocks"]) == 3 and back["to_move"] == "black"
    assert back["clock"]["running"] == "black" and back["clock"]["tc"] == "5400+30"


@pytest.mark.parametrize("key, value, why", [
    ("v", 2, "'v'"),
    ("seq", -1, "'seq'"),
    ("seq", True, "'seq'"),
    ("board", "12/../x", "'board'"),
    ("board", "a\n", "'board'"),
    ("game", "go", "'game'"),
    ("grid", ["........"] * 7 + ["......."], "'grid'"),
    ("grid", ["....Z..."] * 8, "'grid'"),
    ("clocks", [[1, 2]], "'clocks'"),
    ("last_move", [[8, 0]], "'last_move'"),
    ("to_move", "red", "'to_move'"),
    ("result", "3-0", "'result'"),
    ("status", "sleeping", "'status'"),
    ("alert", 5, "'alert'"),
    ("tags", {"White": 5}, "'tags'"),
    ("side_names", ["White"], "'side_names'"),
    ("ts", "now", "'ts'"),
])
def test_validate_state_names_the_bad_key(key, value, why):
    st = sample_state()
    st[key] = value
    with pytest.raises(ValueError) as e:
        live.validate_state(st)
    assert why in str(e.value)


def test_validate_state_missing_key_and_bad_clock():
    st = sample_state()
    for key in list(st):
        bad = copy.deepcopy(st)
        del bad[key]
        with pytest.raises(ValueError, match=repr(key)):
            live.validate_state(bad)
    bad = copy.deepcopy(st)
    bad["clock"]["running"] = "both"
    with pytest.raises(ValueError, match="running"):
        live.validate_state(bad)
    bad = copy.deepcopy(st)
    del bad["clock"]["at_ms"]
    with pytest.raises(ValueError, match="at_ms"):
        live.validate_state(bad)
    for delay in (-1, "5000", 25 * 3600000):
        bad = copy.deepcopy(st)
        bad["clock"]["delay_ms"] = delay
        with pytest.raises(ValueError, match="delay_ms"):
            live.validate_state(bad)
    good = copy.deepcopy(st)
    good["clock"]["delay_ms"] = 5000
    assert live.validate_state(good) is good


def test_clock_object_carries_a_delay_only_while_a_side_runs():
    assert live.clock_object(1000, 2000, "white", tc="300d5", delay_ms=3000)["delay_ms"] == 3000
    assert "delay_ms" not in live.clock_object(1000, 2000, None, tc="300d5", delay_ms=3000)
    assert "delay_ms" not in live.clock_object(1000, 2000, "black", tc="300+2")


def test_topics():
    assert live.state_topic("open", "1", "7") == "flagfall/open/1/7/state"
    assert live.event_topic("open", "1", "7") == "flagfall/open/1/7/event"
    assert live.command_topic("open", "1", "7") == "flagfall/open/1/7/command"
    assert live.parse_topic("flagfall/open/1/7/state") == ("open", "1", "7", "state")
    assert live.topic_filter() == "flagfall/+/+/+/state"
    assert live.topic_filter("open", "2") == "flagfall/open/2/+/state"
    for bad in ("flagfall/open/1/state", "other/open/1/7/state", "flagfall/open/1/7/foo", "flagfall/o+/1/7/state",
                "flagfall/open/1/7/state/x", "flagfall/" + "x" * 65 + "/1/7/state"):
        with pytest.raises(ValueError):
            live.parse_topic(bad)
    with pytest.raises(ValueError, match="board"):
        live.state_topic("open", "1", "a/b")
    with pytest.raises(ValueError, match="tournament"):
        live.state_topic("#", "1", "1")


def test_validate_command():
    assert live.validate_command({"action": "restart"}) == {"action": "restart"}
    assert live.validate_command({"action": "promotion", "piece": "N"}) == {"action": "promotion", "piece": "n"}
    assert live.validate_command({"action": "clock", "side": "black", "delta_ms": -30000}) == {
        "action": "clock", "side": "black", "delta_ms": -30000}
    assert live.validate_command({"action": "fix_move", "ply": 4, "move": " Nf3 "})["move"] == "Nf3"
    for bad, why in [
        ([], "object"), ({}, "action"), ({"action": "explode"}, "action"),
        ({"action": "result"}, "result"), ({"action": "result", "result": "9-0"}, "result"),
        ({"action": "restart", "now": True}, "unexpected"),
        ({"action": "clock", "side": "white", "delta_ms": "60"}, "delta_ms"),
        ({"action": "clock", "side": "white", "delta_ms": True}, "delta_ms"),
        ({"action": "clock", "side": "white", "delta_ms": 10 ** 12}, "delta_ms"),
        ({"action": "clock", "side": "green", "delta_ms": 5}, "side"),
        ({"action": "fix_move", "ply": -1, "move": "e4"}, "ply"),
        ({"action": "fix_move", "ply": 0, "move": ""}, "move"),
        ({"action": "fix_move", "ply": 0, "move": "e4\x00"}, "move"),
        ({"action": "promotion", "piece": "k"}, "piece"),
    ]:
        with pytest.raises(ValueError, match=why):
            live.validate_command(bad)


def test_grid_from_pdn_fen_international_numbering():
    g = live.grid_from_pdn_fen("W:W31-50:B1-20")
    assert len(g) == 10 and all(len(r) == 10 for r in g)
    assert g[0] == ".b.b.b.b.b" and g[1] == "b.b.b.b.b." and g[4] == ".........." and g[9] == "w.w.w.w.w."
    assert sum(r.count("b") for r in g) == 20 and sum(r.count("w") for r in g) == 20
    g = live.grid_from_pdn_fen("B:WK46,28:B5")
    assert g[9][0] == "W" and g[0][9] == "b" and g[5][4] == "w"
    assert live.draughts_square_cell(28, 10) == (5, 4) and live.draughts_square_cell(1, 10) == (0, 1)
    with pytest.raises(ValueError):
        live.grid_from_pdn_fen("W:W51")


def test_grid_from_fen():
    assert live.grid_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")[4] == "....P..."
    with pytest.raises(ValueError):
        live.grid_from_fen("8/8/8 w - - 0 1")
