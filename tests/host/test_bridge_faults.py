"""Issue #20, the bridge's faults: each one with the board in its own process (`flagfall sim --listen`),
the real `flagfall event` in another, and a cable between them the test controls (fault_helpers.Cable).

Every test compares the board's record, move by move and with clock times, with what the simulated
players really played and what the device's own clock said after each move (from the frames the
device sent, seen on the cable, also while the event was away).
"""
import json
import os

from flagcore import display

from fault_helpers import Cable, Event, SimProcess, check_record, truth_clocks


def journal(ev, n=1):
    with open(os.path.join(ev.out, "round-1", "board-%d.journal" % n)) as f:
        return [json.loads(line) for line in f]


def setup(tmp_path, **kw):
    sim = SimProcess(**kw)
    cable = Cable(sim.url)
    ev = Event(tmp_path, {1: cable.url})
    ev.wait(lambda b: b["status"] == "playing")
    sim.command("press start")
    return sim, cable, ev


def test_a_forged_flag_and_an_impossible_clock_are_refused_and_the_game_goes_on(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("e4", "e5", "Nf3", "Nc6")
        ev.wait(lambda b: b["moves"] == 4)
        # White has about 1:30:00 and every CLK says no flag: a checksum-valid FLAG for White,
        # with the device's next sequence number
        reading = cable.last("CLK")[2]
        tick, white_ms = reading[0], reading[3]
        cable.inject("FLAG", [tick + 300, 0, tick + 200])
        b = ev.wait(lambda b: b["rejected"] >= 1)
        assert b["result"] == "*" and b["status"] == "alert", b
        # White's time run down from that reading to the flag's tick, 200 ms later
        assert "FLAG for White disagrees with the clock" in b["alert"], b["alert"]
        assert "leaves White %s" % display.format_ms(white_ms - 200) in b["alert"], (white_ms, b["alert"])
        assert b["rejected_last"].startswith("FLAG for White disagrees")
        # a CLK of -2,000,000,000 ms is no reading
        cable.inject("CLK", [tick + 400, 1, 0, -2000000000, 5400000, -1, "", "", "running", ""])
        b = ev.wait(lambda b: b["rejected"] >= 2)
        assert "impossible time" in b["rejected_last"] and b["result"] == "*"
        assert b["clock"]["white_ms"] > 5000000
        assert any("WARN" in line and "FLAG for White" in line for line in ev.lines), ev.lines[-20:]
        # journaled as refused, never as frames the game was decided by
        refused = [e for e in journal(ev) if e["k"] == "reject"]
        assert any("FLAG" in e.get("raw", "") for e in refused) and any("-2000000000" in e.get("raw", "") for e in refused)
        # the game goes on: the alert ends with the next move
        sim.play("Bb5", "a6")
        b = ev.wait(lambda b: b["moves"] == 6)
        assert b["status"] == "playing" and b["alert"] is None and b["result"] == "*"
        # a restart keeps the count and takes nothing refused
        ev.kill9()
        ev.start()
        b = ev.wait(lambda b: b["moves"] == 6 and b["status"] == "playing")
        assert b["rejected"] >= 2 and b["result"] == "*"
        sim.play("Ba4", "Nf6")
        ev.wait(lambda b: b["moves"] == 8)
        check_record(ev.record(moves=8), sim.played, truth_clocks(cable.frames))
    finally:
        ev.stop()
        cable.close()
        sim.close()


def test_what_the_clock_holds_is_taken_on_reconnect(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("d4", "d5", "c4", "e6")
        ev.wait(lambda b: b["moves"] == 4)
        # the cable out; the arbiter pauses the clock, sets White's time and Black's move counter
        cable.unplug()
        ev.wait(lambda b: b["status"] == "unplugged")
        cable.to_device("PAUSE")
        cable.to_device("TIME", ["white", 3000000])
        cable.to_device("MOVES", ["black", 30])
        cable.wait(lambda: cable.clock().moves[1] == 30)
        assert cable.clock().remaining[0] == 3000000 and cable.clock().moves[1] == 30
        cable.plug()
        b = ev.wait(lambda b: b["status"] == "playing" and b["clock"]["white_ms"] == 3000000)
        assert b["alert"] is None and b["moves"] == 4        # a counter set by hand is no move made
        rec = ev.record()
        edits = rec.headers["ClockEdits"]
        assert "black's move counter 2 -> 30 (while the bridge was away" in edits and "white's time 1:30:" in edits \
            and "-> 50:00" in edits, edits
        sim.command("press start")          # the game goes on, the counter as the arbiter set it
        sim.play("Nc3", "Nf6")
        ev.wait(lambda b: b["moves"] == 6 and b["alert"] is None)
        # the cable out again; a result entered on the clock: finished 1-0, arbiter
        cable.unplug()
        ev.wait(lambda b: b["status"] == "unplugged")
        cable.to_device("RESULT", ["1-0", "arbiter"])
        cable.plug()
        b = ev.wait(lambda b: b["status"] == "finished")
        assert b["result"] == "1-0"
        rec = ev.record()
        assert rec.headers["Result"] == "1-0" and rec.headers["Termination"] == "entered on the clock"
        ev.wait(lambda b: os.path.exists(os.path.join(ev.out, "round-1.pgn")), timeout=20)
        # ... and taken back there: the game is reopened and goes on
        cable.unplug()
        ev.wait_log("connection lost", 3)
        cable.to_device("RESULT", ["*", ""])
        cable.plug()
        b = ev.wait(lambda b: b["result"] == "*" and b["status"] == "playing")
        sim.command("press start")
        sim.play("Bg5", "Be7")
        ev.wait(lambda b: b["moves"] == 8)
        rec = ev.record(moves=8)
        assert rec.headers["Result"] == "*"
        check_record(rec, sim.played, truth_clocks(cable.frames, edits=[(1, 2, 28)]))
    finally:
        ev.stop()
        cable.close()
        sim.close()
