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
