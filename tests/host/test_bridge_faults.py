"""Issue #20, the bridge's faults: each one with the board in its own process (`flagfall sim --listen`),
the real `flagfall event` in another, and a cable between them the test controls (fault_helpers.Cable).

Every test compares the board's record, move by move and with clock times, with what the simulated
players really played and what the device's own clock said after each move (from the frames the
device sent, seen on the cable, also while the event was away).
"""
import json
import os

import pytest

from flagcore import display

from fault_helpers import Cable, Event, SimProcess, check_record, truth_clocks

pytestmark = pytest.mark.serial     # timing under faults: run apart (pyproject.toml, markers)


def journal(ev, n=1):
    with open(os.path.join(ev.out, "round-1", "board-%d.journal" % n)) as f:
        return [json.loads(line) for line in f]


def setup(tmp_path, **kw):
    sim = SimProcess(**kw)
    cable = ev = None
    try:
        cable = Cable(sim.url)
        ev = Event(tmp_path, {1: cable.url})
        ev.wait(lambda b: b["status"] == "not-started")      # the device ready, no clock run yet
        sim.command("press start")
    except BaseException:
        # a set-up that fails leaves no simulator or event process behind
        for part in (ev, cable):
            if part is not None:
                (part.stop if part is ev else part.close)()
        sim.close()
        raise
    return sim, cable, ev


def test_a_forged_flag_and_an_impossible_clock_are_refused_and_the_game_goes_on(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("e4", "e5", "Nf3", "Nc6")
        ev.wait(lambda b: b["plies"] == 4)
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
        b = ev.wait(lambda b: b["plies"] == 6)
        assert b["status"] == "playing" and b["alert"] is None and b["result"] == "*"
        # a restart keeps the count and takes nothing refused
        ev.kill9()
        ev.start()
        b = ev.wait(lambda b: b["plies"] == 6 and b["status"] == "playing")
        assert b["rejected"] >= 2 and b["result"] == "*"
        sim.play("Ba4", "Nf6")
        ev.wait(lambda b: b["plies"] == 8)
        check_record(ev.record(moves=8), sim.played, truth_clocks(cable.frames))
    finally:
        ev.stop()
        cable.close()
        sim.close()


def test_what_the_clock_holds_is_taken_on_reconnect(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("d4", "d5", "c4", "e6")
        ev.wait(lambda b: b["plies"] == 4)
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
        assert b["alert"] is None and b["plies"] == 4        # a counter set by hand is no move made
        rec = ev.record()
        edits = rec.headers["ClockEdits"]
        assert "black's move counter 2 -> 30 (while the bridge was away" in edits and "white's time 1:30:" in edits \
            and "-> 50:00" in edits, edits
        sim.command("press start")          # the game goes on, the counter as the arbiter set it
        sim.play("Nc3", "Nf6")
        ev.wait(lambda b: b["plies"] == 6 and b["alert"] is None)
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
        ev.wait(lambda b: b["plies"] == 8)
        rec = ev.record(moves=8)
        assert rec.headers["Result"] == "*"
        check_record(rec, sim.played, truth_clocks(cable.frames, edits=[(1, 2, 28)]))
    finally:
        ev.stop()
        cable.close()
        sim.close()


def test_missed_moves_are_entered_by_the_arbiter_also_after_a_result(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("e4", "e5")
        ev.wait(lambda b: b["plies"] == 2)
        # five moves made with the cable out: more than the bridge infers by itself
        cable.unplug()
        sim.play("Nf3", "Nf6", "Bc4", "Bc5", "O-O")
        cable.plug()
        b = ev.wait(lambda b: b["status"] == "alert" and "5 moves" in (b["alert"] or ""))
        assert b["plies"] == 2 and "enter_moves" in b["actions"]
        # refused: a legal line that is not what the board shows, and an illegal one, each saying why
        st, reply = ev.command({"action": "enter_moves", "moves": "2. Nf3 Nf6 3. Bc4 Be7 4. O-O"})
        assert st == 422 and "e7 should hold a piece" in reply["error"] and "c5 should be empty" in reply["error"], reply
        st, reply = ev.command({"action": "enter_moves", "moves": "2. Nf3 Nf6 3. Bc5"})
        assert st == 422 and "move 3 of 3, 'Bc5', is not legal" in reply["error"], reply
        assert ev.board()["plies"] == 2
        # SAN and UCI mixed, with move numbers: taken, the alert over
        st, reply = ev.command({"action": "enter_moves", "moves": "2. g1f3 Nf6 3.Bc4 Bc5 4. O-O"})
        assert st == 200 and reply["ok"], reply
        b = ev.wait(lambda b: b["plies"] == 7 and b["alert"] is None and b["status"] == "playing")
        rec = ev.record(moves=7)
        assert rec.headers["ArbiterMoves"] == "2. Nf3; 2... Nf6; 3. Bc4; 3... Bc5; 4. O-O"
        # the last one's clock is the device's (White's has stood still since); the others have none
        missing = check_record(rec, sim.played, truth_clocks(cable.frames), unknown_ok=(2, 3, 4, 5))
        assert missing == [2, 3, 4, 5]
        # each marked in the record by a comment (with the clock where there is one)
        assert ["entered by the arbiter" in n.comment for n in rec.mainline()] == [False] * 2 + [True] * 5
        sim.play("d6")
        ev.wait(lambda b: b["plies"] == 8)
        # three moves with the cable out, and a result entered on the clock meanwhile
        cable.unplug()
        sim.play("c3", "Bg4", "d4")
        cable.to_device("RESULT", ["1-0", "arbiter"])
        cable.wait(lambda: cable.last("CLK")[2][1] == 5)
        cable.plug()
        b = ev.wait(lambda b: b["status"] == "finished" and b["result"] == "1-0")
        assert b["plies"] == 8 and "enter_moves" in b["actions"]
        st, reply = ev.command({"action": "enter_moves", "moves": "5. c3 Bg4 6. d4"})
        assert st == 200, reply
        b = ev.wait(lambda b: b["plies"] == 11)
        assert b["result"] == "1-0" and b["status"] == "finished"
        rec = ev.record(moves=11)
        assert rec.headers["Result"] == "1-0" and rec.headers["ArbiterMoves"].endswith("5. c3; 5... Bg4; 6. d4")
        check_record(rec, sim.played, truth_clocks(cable.frames), unknown_ok=(2, 3, 4, 5, 8, 9))
        ev.wait(lambda b: os.path.exists(os.path.join(ev.out, "round-1.pgn")), timeout=20)
    finally:
        ev.stop()
        cable.close()
        sim.close()
    # the round's PGN has them too (written again when the event stops)
    import chess.pgn
    import io
    with open(os.path.join(ev.out, "round-1.pgn")) as f:
        game = chess.pgn.read_game(io.StringIO(f.read()))
    assert [n.san() for n in game.mainline()] == [n.san() for n in rec.mainline()]
    assert [n.clock() for n in game.mainline()] == [n.clock() for n in rec.mainline()]


def test_moves_of_a_board_whose_device_is_gone_for_good(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("d4", "Nf6", "c4")
        ev.wait(lambda b: b["plies"] == 3)
        cable.unplug()
        sim.play("e6", "Nc3")
        sim.kill()                         # the device is gone for good
        ev.wait(lambda b: b["status"] == "unplugged")
        st, reply = ev.command({"action": "enter_moves", "moves": "2... e6 3. Nc4"})
        assert st == 422 and "'Nc4', is not legal" in reply["error"], reply
        st, reply = ev.command({"action": "enter_moves", "moves": "2... e6 3. Nc3"})
        assert st == 200 and "checked for legality only" in reply["reply"]["text"], reply
        st, reply = ev.command({"action": "result", "result": "1/2-1/2"})
        assert st == 200, reply
        ev.wait(lambda b: b["status"] == "finished")
        rec = ev.record(moves=5)
        check_record(rec, sim.played, truth_clocks(cable.frames), unknown_ok=(3, 4))
        assert rec.headers["Result"] == "1/2-1/2" and rec.headers["ArbiterMoves"] == "2... e6; 3. Nc3"
    finally:
        ev.stop()
        cable.close()
        sim.close()


def test_a_silent_device_a_port_that_never_answers_and_a_missing_device_say_so(tmp_path):
    import socket
    sim = SimProcess()
    cable = Cable(sim.url)
    mute = socket.create_server(("127.0.0.1", 0))         # a port that takes the connection, never answers
    mute_url = "socket://127.0.0.1:%d" % mute.getsockname()[1]
    gone = socket.create_server(("127.0.0.1", 0))         # a boards map entry with nothing behind it
    gone_url = "socket://127.0.0.1:%d" % gone.getsockname()[1]
    gone.close()
    ev = Event(tmp_path, {1: cable.url, 2: mute_url, 3: gone_url}, boards=3)
    try:
        ev.wait(lambda b: b["status"] == "not-started")
        sim.command("press start")
        sim.play("c4", "e5", "Nc3")
        ev.wait(lambda b: b["plies"] == 3)
        b2 = ev.wait(lambda b: b["status"] == "silent", n=2, timeout=20)
        assert mute_url in b2["fix"] and "no device answers" in b2["fix"], b2
        b3 = ev.wait(lambda b: b["status"] == "no-device", n=3)
        assert gone_url in b3["fix"], b3
        # board 1's device stops sending while its clock runs: silent after SILENT_MS (5 s)
        cable.mode = "silent"
        b = ev.wait(lambda b: b["status"] == "silent", timeout=15)
        assert "sent nothing for 5 s while its clock runs" in b["alert"] and cable.url in b["fix"], b
        ev.wait_log("WARN the device has sent nothing")
        # meanwhile two moves are made; the device speaks again: both are found, the last with its clock
        sim.play("Nf6", "g3")
        cable.mode = "pass"
        cable.inject("WARN", ["lost", "frames lost"])      # what reaches the bridge first after the silence
        b = ev.wait(lambda b: b["plies"] == 5 and b["status"] == "playing", timeout=20)
        assert b["alert"] is None
        rec = ev.record(moves=5)
        assert rec.headers["InferredMoves"] == "2... Nf6; 3. g3"
        assert [n.comment.endswith("inferred after reconnect") for n in rec.mainline()] == [False] * 3 + [True] * 2
        missing = check_record(rec, sim.played, truth_clocks(cable.frames), unknown_ok=(3,))
        assert missing == [3]          # Black's Nf6: nothing told its clock; never a guess
    finally:
        ev.stop()
        cable.close()
        sim.close()
        mute.close()


class HandPlayer:
    """A virtual device whose players' hands and presses are fed, frame by frame, to a bridge engine
    (`eng`, replaced when the test restarts it), or made unseen while the bridge is away."""

    def __init__(self):
        from flagfall.bridge import replay
        self.dev = replay.VirtualDevice("chess", None, "5400+30", True)
        self.t = 1000
        self.eng = None

    def feed(self, data):
        for line in data.splitlines():
            self.eng.frame_line(self.t, line)

    def connect(self, eng, start=False):
        """The cable up: HELLO, SNAP and the clock's reading (the clock started first if `start`)."""
        self.eng = eng
        eng.link(self.t, True)
        self.feed(self.dev.hello())
        self.feed(self.dev.snapshot(self.t))
        if start:
            self.dev.clock.start(0, self.t)
        self.feed(self.dev.clock_frame(self.t))

    def hand(self, text, press=True, seen=True):
        """The move `text` made by hand, then the mover's press; unseen: the bridge gets no frame."""
        from flagfall.bridge import virtualboard as vb
        dev = self.dev
        m = dev.truth.parse(text)
        side = dev.truth.side()
        for dt, sq, down in vb.events_for_move(dev.truth, m):
            self.t += dt
            frame = dev.square(self.t, sq, down)
            if seen:
                self.feed(frame)
        dev.truth.push(m)
        self.t += 300
        if press:
            dev.clock.press(side, self.t)
            if seen:
                self.feed(dev.clock_frame(self.t))


def test_presses_lost_over_restarts_are_never_an_illegal_move(tmp_path):
    """Issue #20 item 10: the bridge is killed just after a player's press reached the device and
    before the clock's frame reached the bridge, twice; the board looks as last seen, but the
    clock counts presses no frame told. Found as moves made while away, never an illegal move."""
    from flagfall.bridge import engine as eng_mod
    p = HandPlayer()
    dev = p.dev
    jp = str(tmp_path / "board.journal")
    p.connect(eng_mod.BridgeEngine("chess", jp, str(tmp_path), fsync=False, penalties="confirm", tc="5400+30"),
              start=True)
    for text in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"):
        p.hand(text)
    p.hand("O-O", press=False)                  # every square event reached the bridge ...
    dev.clock.press(0, p.t)                     # ... the press did not: killed
    p.eng.close()
    p.eng = eng = eng_mod.resume(jp, fsync=False)
    eng.link(p.t, True)
    p.feed(dev.hello())
    p.hand("Be7", press=False)                  # seen, then killed before Black's press arrived
    dev.clock.press(1, p.t)
    eng.close()
    eng = eng_mod.resume(jp, fsync=False)
    p.connect(eng)                              # the board exactly as the journal last saw it; the
    p.t += 5000                                 # clock: two presses more
    eng.tick(p.t)
    g = eng.game
    assert g.sans()[-3:] == ["Nf6", "O-O", "Be7"] and g.alert is None and g.illegal == [0, 0], (g.sans(), g.alert)
    assert [m.how for m in g.moves[-2:]] == ["inferred after reconnect"] * 2
    # Be7's clock is the reading's (Black's time stands since its press), O-O's is left out
    assert g.moves[-1].clock_ms == dev.clock.shown_ms(1) and g.moves[-2].clock_ms is None
    eng.close()


def test_a_clock_reading_before_the_hello_of_a_reconnect_is_one_press_not_two(tmp_path):
    """Found in CI under load: the cable back, the device's regular clock report came before its
    HELLO. Each is the "first reading of a connection", and the press made while the bridge was away
    was taken twice: the second as a press that made no move, so the moves found next had no clock."""
    from flagfall.bridge import engine as eng_mod
    p = HandPlayer()
    dev = p.dev
    jp = str(tmp_path / "board.journal")
    p.connect(eng_mod.BridgeEngine("chess", jp, str(tmp_path), fsync=False, tc="5400+30"), start=True)
    for text in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
        p.hand(text)
    p.eng.close()                               # the event killed
    p.hand("a6", seen=False)                    # made and pressed meanwhile
    black_after_a6 = dev.clock.shown_ms(1)
    b5 = 33                                     # (a1 = 0)
    dev.square(p.t, b5, False)                  # ... and White's bishop in the hand when it comes back
    p.t += 1000
    p.eng = eng = eng_mod.resume(jp, fsync=False)
    eng.link(p.t, True)
    p.feed(dev.clock_frame(p.t))                # the regular report, before the HELLO's answer
    p.connect(eng)
    p.t += 2000
    eng.tick(p.t)
    assert "no legal continuation yet" in (eng.game.alert or ""), eng.game.alert
    p.feed(dev.square(p.t, b5, True))
    p.hand("Ba4")
    g = eng.game
    assert g.sans()[-2:] == ["a6", "Ba4"] and g.alert is None, (g.sans(), g.alert)
    assert g.moves[-2].clock_ms == black_after_a6 and g.moves[-1].clock_ms == dev.clock.shown_ms(0)
    eng.close()


def _flag_engine(tc):
    from flagfall.bridge import engine as eng_mod
    from flagfall.bridge import replay
    dev = replay.VirtualDevice("chess", None, tc, True)
    eng = eng_mod.BridgeEngine("chess", tc=tc)
    eng.link(1000, True)
    for data in (dev.hello(), dev.snapshot(1000)):
        eng.frame_line(1000, data)
    dev.clock.start(0, 1000)
    eng.frame_line(1000, dev.clock_frame(1000))
    return dev, eng


def test_a_real_flag_agrees_with_the_clock_and_decides_the_game():
    from flagcore import wire
    from flagfall.bridge import clockfeed
    for tc in ("60", "60d5"):       # a simple delay runs before the time does
        dev, eng = _flag_engine(tc)
        dev.clock.update(1000 + 30000)
        eng.frame_line(31000, dev.clock_frame(31000))           # a regular report: White runs
        fell = 1000 + 60000 + (5000 if tc == "60d5" else 0)
        assert dev.clock.update(fell + 50) == 0 and dev.clock.flag_tick == fell
        # the FLAG, checked against the reading at 31000: White's time run down to the flag's tick
        eng.frame_line(fell + 60, wire.encode(9, "FLAG", [fell + 50, 0, fell]))
        assert eng.game.result == "0-1" and eng.rejected == 0, (tc, eng.rejected_last)
        assert "White's flag fell" in eng.game.reason
    # the same flag a second and a half early is refused; the game goes on
    dev, eng = _flag_engine("60")
    eng.frame_line(1000, dev.clock_frame(1000))
    early = 1000 + 60000 - clockfeed.FLAG_TOLERANCE_MS - 500
    eng.frame_line(early, wire.encode(9, "FLAG", [early, 0, early]))
    assert eng.game.result == "*" and eng.rejected == 1 and "0:01" in eng.frame_alert, eng.frame_alert


def test_a_flag_on_a_new_connection_waits_for_the_clock_that_shows_it():
    from flagcore import wire
    dev, eng = _flag_engine("60")
    dev.clock.update(62000)
    eng.link(62000, False)
    eng.link(62100, True)
    eng.frame_line(62100, wire.encode(0, "FLAG", [62100, 0, dev.clock.flag_tick]))   # no reading yet: refused
    assert eng.game.result == "*" and "no clock reading" in eng.rejected_last
    eng.frame_line(62100, dev.clock_frame(62100))       # the clock shows White's flag, time 0: decided
    assert eng.game.result == "0-1"
    # a CLK saying a flag fell while that side still has time (time given back after it) decides nothing
    dev, eng = _flag_engine("60")
    dev.clock.update(62000)
    dev.clock.set_time("white", 30000, 62000)
    eng.frame_line(62100, dev.clock_frame(62100))
    assert eng.game.result == "*" and eng.rejected == 0


def _away_and_back(dev, eng, t, change):
    """The cable out at t, `change` made on the device meanwhile, the cable back: HELLO, SNAP, CLK."""
    eng.link(t, False)
    change()
    eng.link(t + 1000, True)
    for data in (dev.hello(), dev.snapshot(t + 1000), dev.clock_frame(t + 1000)):
        eng.frame_line(t + 1000, data)


def test_every_kind_of_state_the_clock_holds_is_taken_on_reconnect():
    # a flag that ends the game on the clock (the ruleset says so), while the cable was out
    dev, eng = _flag_engine("60")
    dev.clock.flag_ends = True
    _away_and_back(dev, eng, 2000, lambda: dev.clock.update(70000))
    assert dev.clock.state == 5 and eng.game.result == "0-1" and "White's flag fell" in eng.game.reason
    # the third illegal move, counted on the clock
    dev, eng = _flag_engine("5400+30")
    _away_and_back(dev, eng, 2000, lambda: dev.clock.finish("0-1", "illegal", 2500))
    assert eng.game.result == "0-1" and eng.game.reason == "illegal moves counted on the clock"
    # a bonus set in pause, and Black's time: clock edits, no move
    dev, eng = _flag_engine("5400")

    def edits():
        dev.clock.pause(2500)
        dev.clock.set_bonus("+", 5000, 2500)
        dev.clock.set_time("black", 600000, 2500)
    _away_and_back(dev, eng, 2000, edits)
    texts = [d.text for d in eng.game.clock_edits]
    assert any("from now on +0:05 for both" in x for x in texts) and any("black's time 1:30:00 -> 10:00" in x for x in texts), texts
    assert eng.game.result == "*" and eng.game.sans() == [] and eng.game.alert is None
    # the clock ran and a player pressed meanwhile: no edit is made up from that
    dev, eng = _flag_engine("5400+30")
    _away_and_back(dev, eng, 2000, lambda: (dev.clock.update(9000), dev.clock.press(0, 9000)))
    assert eng.game.clock_edits == []


def test_the_enter_moves_command_is_validated_and_its_line_read():
    from flagfall import live
    from flagfall.bridge.entries import move_tokens
    ok = live.validate_command({"action": "enter_moves", "moves": "  23. Nf3\tNc6  24.Bb5 "})
    assert ok == {"action": "enter_moves", "moves": "23. Nf3 Nc6 24.Bb5"}
    for bad in ({"action": "enter_moves"}, {"action": "enter_moves", "moves": ""},
                {"action": "enter_moves", "moves": "e4\ne5"}, {"action": "enter_moves", "moves": 3},
                {"action": "enter_moves", "moves": "e4 " * 2000}, {"action": "enter_moves", "moves": "e4", "ply": 1}):
        with pytest.raises(ValueError):
            live.validate_command(bad)
    assert move_tokens("23. Nf3 Nc6 24.Bb5 a6!? 25...Ba4 1-0", ("1-0", "0-1", "1/2-1/2")) == \
        ["Nf3", "Nc6", "Bb5", "a6", "Ba4"]
    assert move_tokens("1. 32-28 19-23 2. 28x19 14x23 2-0", ("2-0", "0-2", "1-1")) == ["32-28", "19-23", "28x19", "14x23"]


def test_a_restart_with_moves_made_meanwhile_and_one_in_the_hand_is_no_illegal_move(tmp_path):
    sim, cable, ev = setup(tmp_path)
    try:
        sim.play("e4", "e5", "Nf3", "Nc6", "Bb5")
        ev.wait(lambda b: b["plies"] == 5)
        ev.kill9()
        sim.play("a6")                  # made while the event is down ...
        sim.command("lift b5")          # ... and White's bishop in the hand when it comes back
        ev.start()
        b = ev.wait(lambda b: b["status"] == "alert")
        assert "no legal continuation yet" in b["alert"] and "penalty" not in b["alert"], b["alert"]
        # the clock's first report since the reconnect (White's clock running, a6 pressed) has come:
        # it is what tells a6's clock (put the bishop down before it, and a6 is rightly left without one)
        ev.wait(lambda b: (b["clock"] or {}).get("running") == "white")
        sim.command("place b5")
        sim.play("Ba4")
        b = ev.wait(lambda b: b["plies"] == 7 and b["status"] == "playing")
        assert b["alert"] is None
        rec = ev.record(moves=7)
        assert "IllegalMoves" not in rec.headers and not any("illegal move by" in line for line in ev.lines)
        # a6's press frame was lost with the event, but the reading at the reconnect showed Black's
        # time standing after its 3rd press: a6 has that clock, Ba4 its own
        assert check_record(rec, sim.played, truth_clocks(cable.frames)) == []
        assert rec.headers["InferredMoves"].startswith("3... a6")
    finally:
        ev.stop()
        cable.close()
        sim.close()
