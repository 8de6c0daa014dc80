"""MQTT through a real Mosquitto: bridge publisher -> broker -> broadcast server -> viewers, and back."""
import asyncio
import json
import re
import subprocess
import sys
import time

import aiohttp
import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from broadcast_helpers import TOKEN, ViewerModel, chess_board, read_sse, running_server, session
from mqtt_broker import mosquitto
from flagfall import live, mqtt

from repo import flagfall_env


def wait_for(cond, timeout=15.0):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_states_retained_and_live_with_topics_per_board():
    with mosquitto() as port:
        pub = mqtt.Publisher("127.0.0.1", port).start()
        try:
            sm, plies = chess_board("4", tournament="nat-open", round_="2")
            pub.publish_state(sm.state()).wait_for_publish(5)
            pub.publish_state(sm.move(*plies[0])).wait_for_publish(5)
            # a raw client sees the retained state on the documented topic
            seen = []
            c = paho.Client(CallbackAPIVersion.VERSION2)
            c.on_message = lambda cl, u, m: seen.append((m.topic, m.retain, json.loads(m.payload)))
            c.connect("127.0.0.1", port)
            c.subscribe("flagfall/#", qos=1)
            c.loop_start()
            try:
                assert wait_for(lambda: seen)
                topic, retained, state = seen[0]
                assert topic == "flagfall/nat-open/2/4/state" and retained
                assert state["seq"] == 1 and state["moves"] == [plies[0][0]]   # only the latest is retained
                pub.publish_state(sm.move(*plies[1]))
                assert wait_for(lambda: len(seen) >= 2)
                assert seen[1][0] == "flagfall/nat-open/2/4/state" and seen[1][1] is False
                pub.publish_event(sm.ident, live.make_event("move", sm.seq, move=plies[1][0]))
                assert wait_for(lambda: len(seen) >= 3)
                assert seen[2][0] == "flagfall/nat-open/2/4/event" and seen[2][2]["move"] == plies[1][0]
            finally:
                c.loop_stop()
                c.disconnect()
        finally:
            pub.stop()


def test_move_reaches_viewer_through_mosquitto_and_arbiter_command_comes_back():
    async def go(port):
        async with running_server() as (base, hub, app), session() as s:
            loop = asyncio.get_running_loop()
            commands = []
            pub = mqtt.Publisher("127.0.0.1", port, on_command=lambda k, c: commands.append((k, c)), key=TOKEN)
            await loop.run_in_executor(None, pub.start)
            sm, plies = chess_board("1")
            pub.publish_state(sm.state()).wait_for_publish(5)
            sub = mqtt.feed_hub(hub, loop, host="127.0.0.1", port=port, key=TOKEN)   # commands signed with it
            await loop.run_in_executor(None, sub.start)
            try:
                for _ in range(200):                 # the retained state arrives on subscribing
                    if hub.get(sm.ident):
                        break
                    await asyncio.sleep(0.01)
                assert hub.get(sm.ident)["seq"] == 0
                model = ViewerModel()
                async with s.get(base + "/api/stream") as r:
                    ev = await read_sse(r, lambda e: len(e) >= 2)
                    model.apply(ev[1][1])
                    latencies = []
                    for p in plies[:10]:
                        st = sm.move(*p)
                        pub.publish_state(st)
                        ev = await read_sse(r, lambda e: e and e[-1][1]["seq"] == st["seq"], timeout=15)
                        latencies.append(live.now_ms() - st["ts"])
                        for _, m in ev:
                            model.apply(m)
                    assert model.boards["open/1/1"]["moves"] == [p[0] for p in plies[:10]]
                    assert max(latencies) < 1000, latencies
                # a malformed message on a board topic is refused, the board unchanged
                pub.client.publish("flagfall/open/1/1/state", b'{"v": 1, "seq": 99}', qos=1).wait_for_publish(5)
                pub.client.publish("flagfall/open/1/1/state", b"\xff", qos=1).wait_for_publish(5)
                for _ in range(200):
                    if sub.rejected >= 2:
                        break
                    await asyncio.sleep(0.01)
                assert sub.rejected == 2 and hub.get(sm.ident)["seq"] == 10
                # arbiter action: server -> MQTT command topic -> the bridge's handler
                async with s.post(base + "/api/board/open/1/1/arbiter", json={"action": "promotion", "piece": "q"},
                                  headers={"Authorization": "Bearer " + TOKEN}) as r:
                    body = await r.json()
                    assert r.status == 200 and body["reply"]["topic"] == "flagfall/open/1/1/command"
                for _ in range(300):
                    if commands:
                        break
                    await asyncio.sleep(0.01)
                # a carried-out command comes with its signature as its id (replays are refused by it)
                assert len(commands) == 1 and len(commands[0][1].pop("id")) == 64
                assert commands == [(("open", "1", "1"), {"action": "promotion", "piece": "q"})]
                # without the token nothing is forwarded
                async with s.post(base + "/api/board/open/1/1/arbiter", json={"action": "restart"}) as r:
                    assert r.status == 401
                await asyncio.sleep(0.3)
                assert len(commands) == 1
            finally:
                sub.stop()
                pub.stop()
    with mosquitto() as port:
        asyncio.run(go(port))


def test_flagfall_serve_fed_from_mqtt():
    with mosquitto() as port:
        pub = mqtt.Publisher("127.0.0.1", port).start()
        proc = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "serve", "--mqtt", "127.0.0.1:%d" % port,
                                 "--port", "0", "--token", "s3cret", "--quiet"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=flagfall_env())
        try:
            line = proc.stdout.readline()
            m = re.match(r"broadcast: (http://127\.0\.0\.1:\d+/)", line)
            assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
            assert proc.stdout.readline().strip() == "arbiter token: s3cret"
            url = m.group(1)
            sm, plies = chess_board("3")
            pub.publish_state(sm.state())
            for p in plies[:5]:
                pub.publish_state(sm.move(*p))

            async def check():
                async with aiohttp.ClientSession() as s:
                    for _ in range(300):
                        async with s.get(url + "api/board/open/1/3") as r:
                            if r.status == 200 and (await r.json())["seq"] == 5:
                                return await r.json()
                        await asyncio.sleep(0.02)
            st = asyncio.run(check())
            assert st and st["moves"] == [p[0] for p in plies[:5]]
        finally:
            proc.terminate()
            proc.wait(10)
            pub.stop()
    assert proc.returncode in (0, -15)


def test_serve_reports_unreachable_broker_clearly():
    from mqtt_broker import free_port
    port = free_port()
    proc = subprocess.run([sys.executable, "-m", "flagfall.cli", "serve", "--mqtt", "127.0.0.1:%d" % port,
                           "--port", "0", "--quiet", "--mqtt-wait", "1.5"], capture_output=True, text=True, timeout=60,
                          env=flagfall_env())
    assert proc.returncode == 1
    assert "no MQTT broker answered at 127.0.0.1:%d within 2 s" % port in proc.stderr
