"""`flagfall bridge --mqtt`: a bridge at a table publishes to a real Mosquitto and takes arbiter commands from it."""
import json
import os
import queue
import re
import subprocess
import sys
import time

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from mqtt_broker import mosquitto
from flagfall import live, mqtt

from repo import flagfall_env
ENV = flagfall_env()


def _flagfall(*args, **kw):
    env = kw.pop("env", ENV)
    return subprocess.Popen([sys.executable, "-m", "flagfall.cli", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, **kw)


def _wait_state(q, pred, seconds=30):
    end = time.monotonic() + seconds
    seen = []
    while time.monotonic() < end:
        try:
            st = q.get(timeout=0.2)
        except queue.Empty:
            continue
        seen.append(st)
        if pred(st):
            return st
    raise AssertionError("no matching state within %d s; last: %r" % (seconds, seen[-1:]))


def test_bridge_publishes_moves_and_takes_arbiter_commands_through_mosquitto(tmp_path):
    with mosquitto() as port:
        states = queue.Queue()
        sub = paho.Client(CallbackAPIVersion.VERSION2)
        sub.on_message = lambda c, u, m: m.payload and states.put(json.loads(m.payload))
        sub.connect("127.0.0.1", port)
        sub.subscribe(live.state_topic("hall-b", "2", "7"), qos=1)
        sub.loop_start()
        sim = _flagfall("sim", "--listen", "127.0.0.1:0", "--no-pty", "--tc", "300+5")
        bridge = None
        try:
            m = re.match(r"sim: pico-chess \(chess\) on (socket://127\.0\.0\.1:\d+)", sim.stdout.readline())
            assert m
            bridge = _flagfall("bridge", "--port", m.group(1), "--game", "chess", "--out", str(tmp_path),
                               "--mqtt", "127.0.0.1:%d" % port, "--tournament", "hall-b", "--round", "2",
                               "--board", "7", "--no-clock", "--settle-ms", "300", "--no-stdin",
                               env=dict(ENV, FLAGFALL_MQTT_KEY="event-key-7"))
            _wait_state(states, lambda st: st["status"] != "disconnected" and not st["moves"])
            sim.stdin.write("lift e2\nplace e4\n")
            sim.stdin.flush()
            st = _wait_state(states, lambda st: st["moves"] == ["e4"])
            live.validate_state(st)  # raises ValueError naming a bad key
            assert (st["tournament"], st["round"], st["board"]) == ("hall-b", "2", "7")
            # the arbiter's result, sent to the board's command topic, ends the game at the bridge
            pub = paho.Client(CallbackAPIVersion.VERSION2)
            pub.connect("127.0.0.1", port)
            pub.loop_start()
            # an unsigned command (anyone on the broker could send it) is refused and said so
            pub.publish(live.command_topic("hall-b", "2", "7"),
                        json.dumps({"action": "clock", "side": "white", "delta_ms": -3600000}),
                        qos=1).wait_for_publish(5)
            cmd = {"action": "result", "result": "1-0"}
            pub.publish(live.command_topic("hall-b", "2", "7"),
                        json.dumps(mqtt.sign_command("event-key-7", ("hall-b", "2", "7"), cmd)),
                        qos=1).wait_for_publish(5)
            st = _wait_state(states, lambda st: st["result"] == "1-0")
            assert st["moves"] == ["e4"]
            out, err = bridge.communicate(timeout=30)
            assert bridge.returncode == 0, err
            assert "publishing to mqtt://127.0.0.1:%d as hall-b/2/7" % port in out
            pgn = open(os.path.join(str(tmp_path), "board.pgn")).read()
            assert "1. e4" in pgn and "1-0" in pgn
            assert "WARN refused MQTT command on flagfall/hall-b/2/7/command: unsigned command refused" in err
            journal = open(os.path.join(str(tmp_path), "board.journal")).read()
            assert '"k":"refused"' in journal and '"delta_ms":-3600000' not in journal   # never carried out
            pub.loop_stop()
        finally:
            sub.loop_stop()
            for p in (bridge, sim):
                if p is not None and p.poll() is None:
                    p.kill()
                    p.wait()


def test_bridge_refuses_an_unreachable_broker(tmp_path):
    from mqtt_broker import free_port
    p = _flagfall("bridge", "--port", "socket://127.0.0.1:%d" % free_port(), "--game", "chess",
                  "--out", str(tmp_path), "--mqtt", "127.0.0.1:%d" % free_port(), "--no-stdin")
    out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and "no MQTT broker answered" in err


def test_two_bridges_of_one_round_reach_serve_with_the_identity_a_relay_matches(tmp_path):
    """Issue 34: `flagfall bridge --tournament T --round R --board B` writes an event board's identity
    (Event, Site, Round "R.B", Board, GameId) in its record and live state, so serve's round feed holds two
    games a relay (read here with python-chess) tells apart by round and board, each with the moves
    played on its own board (a simulator in its own process, over TCP)."""
    import io
    import urllib.request

    import chess.pgn  # test oracle only
    with mosquitto() as port:
        procs = []
        states = {1: queue.Queue(), 2: queue.Queue()}
        sub = paho.Client(CallbackAPIVersion.VERSION2)
        sub.on_message = lambda c, u, m: m.payload and states[int(m.topic.split("/")[3])].put(json.loads(m.payload))
        sub.connect("127.0.0.1", port)
        for board in states:
            sub.subscribe(live.state_topic("hall-c", "3", str(board)), qos=1)
        sub.loop_start()
        try:
            serve = _flagfall("serve", "--mqtt", "127.0.0.1:%d" % port, "--port", "0", "--quiet",
                              env=dict(ENV, FLAGFALL_TOKEN="t0ken", FLAGFALL_MQTT_KEY="k"))
            procs.append(serve)
            m = re.match(r"broadcast: (http://127\.0\.0\.1:\d+/)", serve.stdout.readline())
            assert m, serve.stderr.read() if serve.poll() is not None else "no URL printed by serve"
            url = m.group(1)
            # what each board's players play (squares lifted and placed), and the players
            played = {1: (["e2e4", "e7e5", "g1f3"], "Carlsen, Magnus", "Nepo, Ian"),
                      2: (["d2d4", "g8f6", "c2c4"], "Ju, Wenjun", "Lei, Tingjie")}
            sims, bridges = {}, {}
            for board, (_, white, black) in played.items():
                sims[board] = sim = _flagfall("sim", "--listen", "127.0.0.1:0", "--no-pty", "--tc", "300+5")
                procs.append(sim)
                m = re.match(r"sim: pico-chess \(chess\) on (socket://127\.0\.0\.1:\d+)", sim.stdout.readline())
                assert m
                bridges[board] = _flagfall(
                    "bridge", "--port", m.group(1), "--game", "chess", "--out", str(tmp_path / str(board)),
                    "--mqtt", "127.0.0.1:%d" % port, "--tournament", "hall-c", "--round", "3", "--board",
                    str(board), "--white", white, "--black", black, "--event", "Hall C Open", "--site", "Brno",
                    "--no-clock", "--settle-ms", "300", "--no-stdin", env=dict(ENV, FLAGFALL_MQTT_KEY="k"))
                procs.append(bridges[board])
            for board in played:       # the bridge has heard the device (its start position) before the moves
                _wait_state(states[board], lambda st: st["status"] != "disconnected" and not st["moves"])
            last = {}
            for ply in range(3):       # the boards' moves interleaved, each move seen before the next is made
                for board, (moves, _, _) in played.items():
                    frm, to = moves[ply][:2], moves[ply][2:]
                    sims[board].stdin.write("lift %s\nplace %s\n" % (frm, to))
                    sims[board].stdin.flush()
                for board in played:
                    last[board] = _wait_state(states[board], lambda st: len(st["moves"]) == ply + 1)
            for board, st in last.items():        # the live state itself carries the identity
                assert st["moves"] == ["e4", "e5", "Nf3"] if board == 1 else ["d4", "Nf6", "c4"], st["moves"]
                assert {k: st["tags"].get(k) for k in ("Event", "Site", "Round", "Board", "GameId")} == {
                    "Event": "Hall C Open", "Site": "Brno", "Round": "3.%d" % board, "Board": str(board),
                    "GameId": "hall-c-r3-b%d" % board}, st["tags"]
            games = {}
            end = time.monotonic() + 30
            while time.monotonic() < end and sorted(len(list(g.mainline_moves())) for g in games.values()) != [3, 3]:
                time.sleep(0.3)
                try:
                    text = urllib.request.urlopen(url + "feed/hall-c/3.pgn", timeout=5).read().decode()
                except OSError:
                    continue
                stream = io.StringIO(text)
                games = {}
                while (g := chess.pgn.read_game(stream)) is not None:
                    games[(g.headers["Round"], g.headers["Board"])] = g
            assert set(games) == {("3.1", "1"), ("3.2", "2")}, games.keys()
            for board, (moves, white, black) in played.items():
                g = games[("3.%d" % board, str(board))]
                h = g.headers
                assert (h["White"], h["Black"], h["Event"], h["Site"]) == (white, black, "Hall C Open", "Brno"), h
                assert h["GameId"] == "hall-c-r3-b%d" % board
                assert not g.errors and [mv.uci() for mv in g.mainline_moves()] == moves
            # the record on disk carries the same identity
            with open(str(tmp_path / "2" / "board.pgn")) as f:
                rec = chess.pgn.read_game(f)
            assert (rec.headers["Round"], rec.headers["Board"], rec.headers["GameId"], rec.headers["Site"]) == \
                ("3.2", "2", "hall-c-r3-b2", "Brno")
            assert [mv.uci() for mv in rec.mainline_moves()] == played[2][0]
        finally:
            sub.loop_stop()
            for p in procs:
                if p.poll() is None:
                    p.kill()
                    p.wait()
