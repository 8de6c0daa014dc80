"""Arbiter edits made at the clock (EDIT frames, docs/clock.md) reach the bridge's journal."""
import json

from flagcore import clock as clockmod
from flagcore import wire

from flagfall.bridge import engine as eng_mod


def clk(t, state, to_move, moves, wms=60000, bms=60000):
    c = clockmod.Clock("60")
    c.state = state
    c.to_move = to_move
    c.moves = list(moves)
    return [t, state, to_move, wms, bms, -1, "", "", "", c.snapshot()]


def test_edit_frames_are_journaled_and_do_not_count_as_moves(tmp_path):
    jp = str(tmp_path / "a.journal")
    eng = eng_mod.BridgeEngine("chess", journal_path=jp, clock_mode=True)
    eng.frame(1, "SNAP", [1, 64, "FFFF00000000FFFF"])
    eng.frame(2, "CLK", clk(2, clockmod.RUNNING, 0, (0, 0)))
    eng.frame(3, "CLK", clk(3, clockmod.PAUSED, 0, (0, 0)))
    line = wire.encode(7, "EDIT", [3, "moves", "white", 0, 2, "arbiter"])
    decs = eng.frame_line(4, line)
    assert [d.kind for d in decs] == ["clock-edit"]
    assert decs[0].text == "arbiter at the clock: white's move counter 0 -> 2"
    assert decs[0].edit == ("moves", "white", 0, 2, "arbiter")
    # the clock now counts two moves more than the record: no catch-up search for them
    decs = eng.frame(5, "CLK", clk(5, clockmod.PAUSED, 0, (2, 0)))
    assert eng.game.owed == 0 and not [d for d in decs if d.kind not in ("info", "clock-edit")]
    decs = eng.frame_line(6, wire.encode(8, "EDIT", [6, "time", "black", 60000, 30500, "arbiter"]))
    assert decs[0].text == "arbiter at the clock: black's time 1:00 -> 0:31"  # shown as the clock shows it (rounded up)
    decs = eng.frame_line(7, wire.encode(9, "EDIT", [7, "bonus", "both", 0, 5000, "+"]))
    assert decs[0].text == "arbiter at the clock: from now on +0:05 for both"
    decs = eng.frame_line(8, wire.encode(10, "EDIT", [8, "result", "-", 0, 0, "1/2-1/2"]))
    assert decs[0].text == "arbiter at the clock: result 1/2-1/2"
    # a result entered on the clock is the game's result
    assert eng.game.result == "1/2-1/2" and eng.game.reason == "entered on the clock"
    # the record lists the edits
    from flagfall.bridge import records
    text = records.record_text(eng.game)
    assert '[ClockEdits "before the first move: white\'s move counter 0 -> 2; ' in text
    eng.close()
    with open(jp) as f:
        entries = [json.loads(x) for x in f]
    raws = [e["raw"] for e in entries if e["k"] == "f" and " EDIT " in e["raw"]]
    assert len(raws) == 4 and raws[0] == line.decode().rstrip("\n")
    infos = [e for e in entries if e["k"] == "d" and e.get("kind") == "clock-edit"]
    assert [e["edit"][0] for e in infos] == ["moves", "time", "bonus", "result"]


def test_the_arbiter_edits_the_clock_from_the_host_and_the_result_reaches_the_device():
    sent = []
    eng = eng_mod.BridgeEngine("chess", clock_mode=True, send=lambda kind, fields: sent.append((kind, fields)))
    assert eng.command(1, {"action": "time", "side": "black", "ms": 30500})["ok"]
    assert eng.command(2, {"action": "moves", "side": "white", "count": 40})["ok"]
    assert eng.command(3, {"action": "bonus", "kind": "+", "ms": 5000})["ok"]
    assert sent == [("TIME", ["black", 30500]), ("MOVES", ["white", 40]), ("BONUS", ["+", 5000])]
    for bad in ({"action": "time", "side": "red", "ms": 1}, {"action": "bonus", "kind": "x", "ms": 1},
                {"action": "moves", "side": "white", "count": -1}):
        try:
            eng.command(4, bad)
        except ValueError:
            pass
        else:
            raise AssertionError("accepted %r" % bad)
    # the arbiter ends the game: the clock is told, in its own words
    eng.command(5, {"action": "result", "result": "0-1"})
    assert sent[-1] == ("RESULT", ["0-1", "arbiter"])
    # no device: the edit is refused, not lost silently
    eng2 = eng_mod.BridgeEngine("chess", clock_mode=True, send=lambda kind, fields: False)
    try:
        eng2.command(1, {"action": "time", "side": "white", "ms": 1000})
    except ValueError as e:
        assert "no device" in str(e)
    else:
        raise AssertionError("a time edit with no device was accepted")
