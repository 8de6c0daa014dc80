"""Issue 13, MQTT between halls: logging in, per-bridge topic ACLs, signed commands, forged states.

The broker tests run a real Mosquitto with a password file and an ACL file (tests/host/mqtt_broker.py).
"""
import asyncio
import json
import os
import re
import subprocess
import sys
import time

import aiohttp
import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from broadcast_helpers import chess_board
from mqtt_broker import mosquitto
from flagfall import live, mqtt
from flagfall.broadcast.hub import Hub

from repo import flagfall_env
ENV = flagfall_env()
KEY = "event-key-of-the-open"

# the set-up docs/broadcast.md describes: servers read states and write commands; each bridge
# writes only its own state and event topics and reads only its own command topic
USERS = {"server": "s-pass", "bridge-hall-b-2-7": "b7-pass", "bridge-hall-b-2-8": "b8-pass"}
ACL = """\
user server
topic read flagfall/+/+/+/state
topic write flagfall/+/+/+/command

user bridge-hall-b-2-7
topic write flagfall/hall-b/2/7/state
topic write flagfall/hall-b/2/7/event
topic read flagfall/hall-b/2/7/command

user bridge-hall-b-2-8
topic write flagfall/hall-b/2/8/state
topic write flagfall/hall-b/2/8/event
topic read flagfall/hall-b/2/8/command
"""


def wait_for(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.02)
    return True


# -- URLs and credentials ------------------------------------------------------------------

def test_broker_urls_with_users_passwords_and_tls():
    b = mqtt.parse_broker("mqtt://bridge-7:p%40ss@broker.hall:1999", env={})
    assert (b.host, b.port, b.username, b.password, b.tls) == ("broker.hall", 1999, "bridge-7", "p@ss", False)
    assert b.url() == "mqtt://bridge-7@broker.hall:1999"           # never the password
    b = mqtt.parse_broker("mqtts://server@broker.hall", env={"FLAGFALL_MQTT_PASSWORD": "from-env"})
    assert (b.port, b.username, b.password, b.tls) == (8883, "server", "from-env", True)
    b = mqtt.parse_broker("10.0.0.5:1884", env={"FLAGFALL_MQTT_PASSWORD": "x"})
    assert (b.host, b.port, b.username, b.password) == ("10.0.0.5", 1884, None, None)
    assert mqtt.parse_url("mqtt://u:p@h:7") == ("h", 7)
    for bad, word in (("http://h", "mqtt:// or mqtts://"), ("mqtt://u:secret@h:99999", "bad MQTT port")):
        with pytest.raises(ValueError, match=word) as e:
            mqtt.parse_broker(bad, env={})
        assert "secret" not in str(e.value)
    with pytest.raises(ValueError, match="CA file"):
        mqtt.parse_broker("mqtts://h", ca="/nonexistent/ca.pem")


# -- signed commands -----------------------------------------------------------------------

def test_signed_commands_unsigned_wrong_stale_and_replayed_ones_are_refused():
    board = ("hall-b", "2", "7")
    cmd = {"action": "clock", "side": "white", "delta_ms": -3600000}
    now = 1_800_000_000_000
    signed = mqtt.sign_command(KEY, board, cmd, ts=now)
    assert mqtt.verify_command(KEY, board, signed, now=now + 1000) == cmd
    cases = [
        (cmd, KEY, board, now, "unsigned command refused"),
        (signed, "another-key", board, now, "wrong signature"),
        (signed, KEY, ("hall-b", "2", "8"), now, "wrong signature"),               # another board's
        (dict(signed, cmd=dict(cmd, delta_ms=-7200000)), KEY, board, now, "wrong signature"),
        (signed, KEY, board, now + 31000, "stale command refused: signed 31 s ago"),
        (signed, KEY, board, now - 40000, "in the future"),
        (signed, None, board, now, "no key"),
        ({"cmd": cmd, "sig": "00"}, KEY, board, now, "malformed"),
    ]
    for payload, key, b, at, word in cases:
        with pytest.raises(ValueError, match=word):
            mqtt.verify_command(key, b, payload, now=at)
    seen = {}
    mqtt.verify_command(KEY, board, signed, now=now, seen=seen)
    with pytest.raises(ValueError, match="repeated command"):
        mqtt.verify_command(KEY, board, signed, now=now + 5, seen=seen)


def test_forged_states_are_refused():
    sm, plies = chess_board("7", tournament="hall-b", round_="2")
    st = sm.state()
    now = st["ts"]
    assert mqtt.check_state(st, now=now) == st
    for forged, word in ((dict(st, ts=now + 10 * 365 * 86400000), "in the future"),
                         (dict(st, seq=2 ** 62), "implausibly large")):
        with pytest.raises(ValueError, match=word):
            mqtt.check_state(forged, now=now)
    with pytest.raises(ValueError, match="seq jumps from 3 to 90000"):
        mqtt.check_state(dict(st, seq=90000), prev=(3, now - 1000), now=now)
    assert mqtt.check_state(dict(st, seq=1100), prev=(3, now - 1000), now=now)["seq"] == 1100
    # signed states: the signature is checked and taken off; with require_signed, unsigned ones are refused
    signed = mqtt.sign_state(KEY, st)
    assert "sig" in signed and mqtt.check_state(signed, KEY, True, now=now) == st
    with pytest.raises(ValueError, match="wrong signature"):
        mqtt.check_state(dict(signed, moves=["e4"], clocks=[[1, 1]]), KEY, now=now)
    with pytest.raises(ValueError, match="unsigned state refused"):
        mqtt.check_state(st, KEY, True, now=now)


# -- a real Mosquitto with passwords and ACLs ----------------------------------------------

def _broker(port, user):
    return mqtt.Broker("127.0.0.1", port, user, USERS.get(user, "wrong"))


def test_password_file_and_per_bridge_acl_with_a_real_mosquitto():
    with mosquitto(users=USERS, acl=ACL) as port:
        # no login, a wrong password: refused at once, with a message that says why
        with pytest.raises(ConnectionError, match="refused the connection: Not authorized"):
            mqtt.Publisher(broker=mqtt.Broker("127.0.0.1", port)).start(5)
        with pytest.raises(ConnectionError, match="check the user name and password"):
            mqtt.Publisher(broker=mqtt.Broker("127.0.0.1", port, "bridge-hall-b-2-7", "guess")).start(5)
        got7, got8, states, refused = [], [], [], []
        b7 = mqtt.Publisher(broker=_broker(port, "bridge-hall-b-2-7"), key=KEY,
                            on_command=lambda k, c: got7.append((k, c)),
                            on_refused=lambda t, why: refused.append(why)).start(5)
        b8 = mqtt.Publisher(broker=_broker(port, "bridge-hall-b-2-8"), key=KEY,
                            on_command=lambda k, c: got8.append((k, c))).start(5)
        srv = mqtt.Subscriber(states.append, broker=_broker(port, "server"), key=KEY,
                              require_signed=True).start(5)
        try:
            sm7, plies = chess_board("7", tournament="hall-b", round_="2")
            sm8, _ = chess_board("8", tournament="hall-b", round_="2")
            b7.publish_state(sm7.state()).wait_for_publish(5)
            b8.publish_state(sm8.state()).wait_for_publish(5)
            assert wait_for(lambda: len(states) == 2)
            assert sorted(s["board"] for s in states) == ["7", "8"] and all("sig" not in s for s in states)
            # bridge 8 writes a state for board 7: the broker drops it (ACL), the server never sees it
            forged = sm7.move(*plies[0])
            b8.publish_state(forged).wait_for_publish(5)
            # bridge 8 also listens on board 7's command topic: it is never delivered there
            b8._watch(("hall-b", "2", "7"))
            b8.client.subscribe(live.command_topic("hall-b", "2", "7"), qos=1)
            time.sleep(0.5)
            srv.send_command(("hall-b", "2", "7"), {"action": "result", "result": "1-0"})
            assert wait_for(lambda: got7)
            # carried out with its signature as its id (journaled: a replay after a restart is refused)
            assert len(got7) == 1 and got7[0][0] == ("hall-b", "2", "7") and len(got7[0][1].pop("id")) == 64
            assert got7 == [(("hall-b", "2", "7"), {"action": "result", "result": "1-0"})]
            time.sleep(0.5)
            assert got8 == [] and len(states) == 2
            # the server cannot write states, bridges cannot write commands
            srv.client.publish(live.state_topic("hall-b", "2", "7"), live.dumps(mqtt.sign_state(KEY, forged)),
                               qos=1, retain=True).wait_for_publish(5)
            b8.client.publish(live.command_topic("hall-b", "2", "7"),
                              json.dumps(mqtt.sign_command(KEY, ("hall-b", "2", "7"),
                                                           {"action": "result", "result": "0-1"})),
                              qos=1).wait_for_publish(5)
            time.sleep(0.7)
            assert len(states) == 2 and len(got7) == 1 and refused == []
            # board 7's own next state arrives
            b7.publish_state(sm7.move(*plies[1]))
            assert wait_for(lambda: len(states) == 3) and states[-1]["board"] == "7"
        finally:
            for c in (b7, b8, srv):
                c.stop()


def test_forged_and_unsigned_messages_on_an_open_broker():
    """Where anyone can publish (an anonymous broker), signatures carry the trust: a forged state with a
    huge seq and a far-future time does not freeze the board, an unsigned command is not obeyed."""
    async def go(port):
        loop = asyncio.get_running_loop()
        hub = Hub(loop)
        got, refused = [], []
        bridge = mqtt.Publisher("127.0.0.1", port, key=KEY, on_command=lambda k, c: got.append(c),
                                on_refused=lambda t, why: refused.append(why))
        await loop.run_in_executor(None, bridge.start)
        sub = mqtt.feed_hub(hub, loop, host="127.0.0.1", port=port, key=KEY)
        await loop.run_in_executor(None, sub.start)
        attacker = paho.Client(CallbackAPIVersion.VERSION2)
        attacker.connect("127.0.0.1", port)
        attacker.loop_start()
        try:
            sm, plies = chess_board("4", tournament="nat", round_="1")
            bridge.publish_state(sm.state())
            for _ in range(300):
                if hub.get(sm.ident):
                    break
                await asyncio.sleep(0.01)
            forged = dict(sm.move(*plies[0]), seq=2 ** 62, ts=live.now_ms() + 10 * 365 * 86400000)
            attacker.publish(live.state_topic(*sm.ident), live.dumps(forged), qos=1).wait_for_publish(5)
            future = dict(sm.state(), seq=sm.seq + 5, ts=live.now_ms() + 10 * 365 * 86400000)
            attacker.publish(live.state_topic(*sm.ident), live.dumps(future), qos=1).wait_for_publish(5)
            badsig = dict(mqtt.sign_state("not-the-key", sm.state()))
            attacker.publish(live.state_topic(*sm.ident), live.dumps(badsig), qos=1).wait_for_publish(5)
            for _ in range(300):
                if sub.rejected >= 3:
                    break
                await asyncio.sleep(0.01)
            assert sub.rejected == 3
            # the board's real states go on being shown
            for p in plies[1:4]:
                bridge.publish_state(sm.move(*p))
            for _ in range(300):
                if hub.get(sm.ident)["seq"] == sm.seq:
                    break
                await asyncio.sleep(0.01)
            assert hub.get(sm.ident)["seq"] == sm.seq
            assert hub.get(sm.ident)["moves"] == [p[0] for p in plies[:4]]
            # commands: unsigned and wrongly signed are refused, the server's signed one is obeyed
            topic = live.command_topic(*sm.ident)
            attacker.publish(topic, json.dumps({"action": "clock", "side": "white", "delta_ms": -3600000}), qos=1)
            attacker.publish(topic, json.dumps(mqtt.sign_command("guess", sm.ident, {"action": "result",
                                                                                    "result": "0-1"})), qos=1)
            old = mqtt.sign_command(KEY, sm.ident, {"action": "restart"}, ts=live.now_ms() - 60000)
            attacker.publish(topic, json.dumps(old), qos=1)
            await hub.command(sm.ident, {"action": "promotion", "piece": "n"})
            for _ in range(300):
                if got and len(refused) >= 3:
                    break
                await asyncio.sleep(0.01)
            assert len(got) == 1 and len(got[0].pop("id")) == 64        # its signature
            assert got == [{"action": "promotion", "piece": "n"}]
            assert len(refused) == 3 and "unsigned" in refused[0] and "wrong signature" in refused[1]
            assert "stale" in refused[2]
        finally:
            attacker.loop_stop()
            sub.stop()
            bridge.stop()
    with mosquitto() as port:
        asyncio.run(go(port))


def test_serve_and_bridge_log_in_and_the_arbiter_command_is_signed_end_to_end(tmp_path):
    """`flagfall serve` and `flagfall bridge` with user names in the URL and passwords in the environment;
    the arbiter's result, posted to the server, reaches the bridge signed with the arbiter token."""
    token = "arbiter-token-for-the-test"
    procs = []

    def start(*args, env):
        p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", *args], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        procs.append(p)
        return p
    with mosquitto(users=USERS, acl=ACL) as port:
        try:
            sim = start("sim", "--listen", "127.0.0.1:0", "--no-pty", "--tc", "300+5", env=ENV)
            m = re.match(r"sim: pico-chess \(chess\) on (socket://127\.0\.0\.1:\d+)", sim.stdout.readline())
            assert m
            bridge = start("bridge", "--port", m.group(1), "--game", "chess", "--out", str(tmp_path),
                           "--mqtt", "mqtt://bridge-hall-b-2-7@127.0.0.1:%d" % port, "--tournament", "hall-b",
                           "--round", "2", "--board", "7", "--no-clock", "--settle-ms", "300", "--no-stdin",
                           env=dict(ENV, FLAGFALL_MQTT_PASSWORD="b7-pass", FLAGFALL_TOKEN=token))
            serve = start("serve", "--mqtt", "mqtt://server@127.0.0.1:%d" % port, "--port", "0", "--quiet",
                          env=dict(ENV, FLAGFALL_MQTT_PASSWORD="s-pass", FLAGFALL_TOKEN=token))
            line = serve.stdout.readline()
            m = re.match(r"broadcast: (http://127\.0\.0\.1:\d+/)", line)
            assert m, (line, serve.stderr.read() if serve.poll() is not None else "")
            url = m.group(1)
            sim.stdin.write("lift e2\nplace e4\n")
            sim.stdin.flush()

            async def drive():
                async with aiohttp.ClientSession() as s:
                    for _ in range(600):
                        async with s.get(url + "api/board/hall-b/2/7") as r:
                            if r.status == 200 and (await r.json())["moves"] == ["e4"]:
                                break
                        await asyncio.sleep(0.05)
                    else:
                        raise AssertionError("the move never reached the server")
                    async with s.post(url + "api/board/hall-b/2/7/arbiter", json={"action": "result", "result": "1-0"},
                                      headers={"Authorization": "Bearer " + token}) as r:
                        assert r.status == 200, await r.text()
            asyncio.run(drive())
            out, err = bridge.communicate(timeout=30)
            assert bridge.returncode == 0, err
            assert "publishing to mqtt://bridge-hall-b-2-7@127.0.0.1:%d as hall-b/2/7" % port in out
            assert "b7-pass" not in out + err
            assert "1-0" in open(os.path.join(str(tmp_path), "board.pgn")).read()
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                p.communicate()


def test_a_bridge_with_a_wrong_password_says_so(tmp_path):
    with mosquitto(users=USERS, acl=ACL) as port:
        p = subprocess.run([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:9",
                            "--game", "chess", "--out", str(tmp_path), "--no-stdin",
                            "--mqtt", "mqtt://bridge-hall-b-2-7@127.0.0.1:%d" % port],
                           capture_output=True, text=True, timeout=60,
                           env=dict(ENV, FLAGFALL_MQTT_PASSWORD="not-it"))
    assert p.returncode == 2 and "refused the connection" in p.stderr and "not-it" not in p.stderr


def _certificates(d):
    """A private CA and a certificate for 127.0.0.1 signed by it (openssl), as (ca, cert, key) paths."""
    import shutil
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RuntimeError("the TLS test needs the openssl command: `sudo apt-get install openssl`")
    ca, cakey, cert, key, csr, ext = (os.path.join(d, n) for n in ("ca.pem", "ca.key", "srv.pem", "srv.key",
                                                                  "srv.csr", "ext"))
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    for cmd in ([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", cakey, "-out", ca, "-days", "2",
                 "-subj", "/CN=flagfall test CA"],
                [openssl, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"],
                [openssl, "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", cakey, "-CAcreateserial", "-out", cert,
                 "-days", "2", "-extfile", ext]):
        subprocess.run(cmd, check=True, capture_output=True)
    for p in (ca, cert, key):
        os.chmod(p, 0o644)
    return ca, cert, key


def test_mqtts_with_a_ca_file():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.chmod(d, 0o755)         # mosquitto started as root reads the files as its own user
        _mqtts(*_certificates(d))


def _mqtts(ca, cert, key):
    with mosquitto(users=USERS, acl=ACL, tls=(ca, cert, key)) as port:
        states = []
        url = "mqtts://server@127.0.0.1:%d" % port
        srv = mqtt.Subscriber(states.append, broker=mqtt.parse_broker(url, ca=ca, env={"FLAGFALL_MQTT_PASSWORD":
                                                                                       "s-pass"})).start(5)
        b7 = mqtt.Publisher(broker=mqtt.parse_broker("mqtts://bridge-hall-b-2-7:b7-pass@127.0.0.1:%d" % port,
                                                     ca=ca)).start(5)
        try:
            sm, _ = chess_board("7", tournament="hall-b", round_="2")
            b7.publish_state(sm.state()).wait_for_publish(5)
            assert wait_for(lambda: states) and states[0]["board"] == "7"
        finally:
            b7.stop()
            srv.stop()
        # without the private CA the broker's certificate is not trusted: no connection
        with pytest.raises(ConnectionError, match="TLS: is the broker's certificate signed by the CA"):
            mqtt.Publisher(broker=mqtt.parse_broker("mqtts://bridge-hall-b-2-7:b7-pass@127.0.0.1:%d" % port)).start(3)
