"""Beyond one machine: a move made on a simulated board reaches a broadcast server subscribed through
a real Mosquitto broker (device -> serial -> bridge -> MQTT -> server -> viewer)."""
import asyncio
import threading
import time

from broadcast_helpers import ViewerModel, read_sse, running_server, session
from mqtt_broker import mosquitto
from flagfall import live, mqtt
from flagfall import sim as simm
from flagfall.bridge.engine import BridgeEngine
from flagfall.bridge.session import Session


def test_move_on_simulated_board_reaches_server_through_mosquitto():
    async def go(port):
        loop = asyncio.get_running_loop()
        sim = simm.Simulator("pico-chess", speed=10, tc="600+5", seed=2, noise=0.1, log=lambda t: None).start()
        ep = sim.listen_tcp("127.0.0.1", 0)
        pub = mqtt.Publisher("127.0.0.1", port)
        await loop.run_in_executor(None, pub.start)
        engine = BridgeEngine("chess", clock_mode=True, tc="600+5", identity=["hall-a", "3", "17"],
                              tags={"White": "Sim", "Black": "Ulator"},
                              publish=lambda st, decs: pub.publish_state(st))
        sess = Session(ep.url(), engine, retry_s=0.05, log=lambda t: None)
        stop = threading.Event()

        def bridge():
            while not stop.is_set():
                sess.step()
                time.sleep(0.005)
        th = threading.Thread(target=bridge, daemon=True)
        th.start()
        try:
            async with running_server() as (base, hub, app), session() as s:
                sub = mqtt.feed_hub(hub, loop, host="127.0.0.1", port=port, tournament="hall-a")
                await loop.run_in_executor(None, sub.start)
                try:
                    for _ in range(500):
                        if engine.started:
                            break
                        await asyncio.sleep(0.01)
                    assert engine.started
                    model = ViewerModel()
                    async with s.get(base + "/api/stream?t=hall-a") as r:
                        await read_sse(r, lambda e: e and e[0][0] == "hello")
                        sim.press("start")
                        for want in (["e4"], ["e4", "c5"], ["e4", "c5", "Nf3"]):
                            mover = "white" if len(want) % 2 else "black"
                            await loop.run_in_executor(None, lambda: sim.play(want[-1], think_ms=100, press=False))
                            await loop.run_in_executor(None, sim.press, mover)
                            pressed = time.monotonic()
                            ev = await read_sse(r, lambda e: any(m.get("moves") and m.get("from", 0) + len(m["moves"])
                                                                 == len(want) for _, m in e), timeout=15)
                            took = time.monotonic() - pressed
                            for name, m in ev:
                                if name == "s":
                                    model.apply(m)
                            assert model.boards["hall-a/3/17"]["moves"] == want
                            assert took < 1.0, "move %s took %.2f s through the broker" % (want[-1], took)
                    st = hub.get(("hall-a", "3", "17"))
                    assert st["tags"]["White"] == "Sim" and st["clock"]["tc"] == "600+5"
                    assert live.validate_state(st)
                    assert sub.received >= 3 and sub.rejected == 0
                finally:
                    sub.stop()
        finally:
            stop.set()
            th.join(3)
            pub.stop()
            sim.stop()
    with mosquitto() as port:
        asyncio.run(go(port))
