"""Time odds and the arbiter's clock on the simulator with the real bridge (docs/clock.md)."""
from flagcore import clock as clockmod

from flagfall import sim as simm

from test_sim_bridge import Bridge


def test_armageddon_time_odds_edits_and_a_result_reach_the_bridge():
    sim = simm.Simulator("esp32-chess", speed=10, tc="W300+2-B240+2", seed=3, noise=0.0, log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    br = Bridge(ep.url(), "chess", tc="W300+2-B240+2")
    try:
        assert br.wait(lambda: br.engine.started), "the bridge never got the device's snapshot"
        c = sim.app.clock
        assert c.remaining == [300000, 240000]
        sim.press("start")
        for i, text in enumerate(["e4", "e5", "Nf3", "Nc6"]):
            sim.play(text, think_ms=500)
            assert br.wait(lambda: len(br.engine.game.moves) == i + 1), (text, br.engine.game.sans())
        sim.wait(100)
        assert c.allotted == [300000 + 4000, 240000 + 4000]      # each side its own base, +2 s a move
        # the arbiter pauses and sets White's move counter on the device: journaled by the bridge
        def push(name):
            sim.press(name)
            sim.wait(60)                   # released long enough for the debounce
        push("start")
        push("mode")                       # opens on "edit"
        push("start")
        for _ in range(12):                # to white's move counter, last digit
            push("mode")
        push("black")
        push("start")
        assert br.wait(lambda: any(d.edit for d in br.engine.game.decisions)), "no EDIT at the bridge"
        edits = [d.edit for d in br.engine.game.decisions if d.edit]
        assert edits == [("moves", "white", 2, 3, "arbiter")]
        assert br.engine.game.sans() == ["e4", "e5", "Nf3", "Nc6"] and br.engine.game.owed == 0
        # the host gives the result: the device's clock finishes and takes no press
        assert br.session.send("RESULT", ["1/2-1/2", "agreed"])
        assert br.wait(lambda: c.state == clockmod.FINISHED), "the device never finished"
        assert br.wait(lambda: "1/2 " in sim.app.displays[0].lines[1])
        moves = list(c.moves)
        push("white")
        push("black")
        assert c.moves == moves and c.result == "1/2-1/2"
    finally:
        br.close()
        sim.stop()


def test_a_drawn_armageddon_game_is_kept_as_played_and_decided_for_black(tmp_path):
    import io

    import chess.pgn  # test oracle only

    from flagfall.bridge import records
    sim = simm.Simulator("esp32-chess", speed=10, tc="armageddon-5-4", seed=5, noise=0.0, log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    br = Bridge(ep.url(), "chess", tc="W300-B240", armageddon=True)
    try:
        assert br.wait(lambda: br.engine.started), "the bridge never got the device's snapshot"
        assert sim.app.clock.remaining == [300000, 240000]
        sim.press("start")
        for i, text in enumerate(["e4", "e5", "Nf3", "Nf6"]):
            sim.play(text, think_ms=300)
            assert br.wait(lambda: len(br.engine.game.moves) == i + 1), (text, br.engine.game.sans())
        # the players agree a draw and enter it on the clock
        sim.enter_result("1/2-1/2")
        assert br.wait(lambda: br.engine.game.result != "*"), "the result entered on the clock never arrived"
        g = br.engine.game
        assert g.result == "1/2-1/2" and g.decision() == "0-1"
        assert sim.app.clock.state == clockmod.FINISHED
        state = br.engine.state()
        assert state["result"] == "1/2-1/2" and state["decision"] == "0-1"
        assert "Armageddon" in state["decision_reason"]
        pgn = records.record_text(g)
        back = chess.pgn.read_game(io.StringIO(pgn))
        assert back.headers["Result"] == "1/2-1/2" and back.headers["Decision"] == "0-1"
        assert back.headers["Armageddon"] == "draw odds to Black" and back.headers["TimeControl"] == "W300-B240"
        assert [back.board().san(m) for m in list(back.mainline_moves())[:1]] == ["e4"]
    finally:
        br.close()
        sim.stop()
