"""Issue 20 item 8: a multi-hall event over a secured MQTT broker.

A real Mosquitto with passwords, per-hall ACLs and TLS (a private CA); two `flagfall event` processes,
one per hall, each with simulated boards; one `flagfall serve` subscribed to both. The passwords come
from a file and from the environment (never the command line); the arbiter's command posted to the
server reaches the hall's board signed; a signed command replayed right after the hall's event was
killed and started again is refused (the carried-out command ids are in the journal).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion

from mqtt_broker import mosquitto
from processes import EventProcess
from test_mqtt_security import _certificates
from flagfall import mqtt
from flagfall.tournament import pairings

from repo import ROOT, flagfall_env
CSV = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.csv")
ENV = flagfall_env()
KEY = "the-event-key-of-both-halls"
TOKEN = "server-arbiter-token"
USERS = {"server": "s-pass", "hall-a": "a-pass", "hall-b": "b-pass"}
ACL = """\
user server
topic read flagfall/+/+/+/state
topic write flagfall/+/+/+/command

user hall-a
topic write flagfall/hall-a/+/+/state
topic write flagfall/hall-a/+/+/event
topic read flagfall/hall-a/+/+/command

user hall-b
topic write flagfall/hall-b/+/+/state
topic write flagfall/hall-b/+/+/event
topic read flagfall/hall-b/+/+/command
"""


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, None


def until(cond, timeout=60, what="condition"):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.3)
    raise AssertionError("timed out waiting for %s" % what)


def publish_as_server(port, ca, topic, payload):
    c = paho.Client(CallbackAPIVersion.VERSION2)
    c.username_pw_set("server", USERS["server"])
    c.tls_set(ca_certs=ca)
    c.connect("127.0.0.1", port)
    c.loop_start()
    try:
        c.publish(topic, json.dumps(payload), qos=1).wait_for_publish(5)
    finally:
        c.disconnect()
        c.loop_stop()


def test_two_halls_and_one_server_on_a_broker_with_passwords_acls_and_tls(tmp_path):
    certs = tempfile.mkdtemp()
    os.chmod(certs, 0o755)              # mosquitto started as root reads the files as its own user
    ca, cert, key = _certificates(certs)
    pwfile = str(tmp_path / "hall-a.password")
    with open(pwfile, "w") as f:
        f.write(USERS["hall-a"] + "\n")
    procs = []
    with mosquitto(users=USERS, acl=ACL, tls=(ca, cert, key)) as port:
        url = "mqtts://%%s@127.0.0.1:%d" % port

        def hall(name, env_password=None):
            args = ["--pairings", CSV, "--round", "4", "--sim", "2", "--autoplay", "--speed", "10", "--think", "2",
                    "--tc", "5400+30", "--out", str(tmp_path / name), "--tournament", name,
                    "--mqtt", url % name, "--mqtt-ca", ca]
            if env_password is None:
                args += ["--mqtt-password-file", pwfile]
            os.environ["FLAGFALL_MQTT_KEY"] = KEY
            if env_password is not None:
                os.environ["FLAGFALL_MQTT_PASSWORD"] = env_password
            try:
                ev = EventProcess(*args)
            finally:
                os.environ.pop("FLAGFALL_MQTT_KEY", None)
                os.environ.pop("FLAGFALL_MQTT_PASSWORD", None)
            for secret in USERS.values():
                assert secret not in " ".join(ev.proc.args)       # never on the command line (`ps`)
            return ev, args
        try:
            hall_a, _ = hall("hall-a")
            hall_b, args_b = hall("hall-b", env_password=USERS["hall-b"])
            assert "publishing to mqtts://hall-a@127.0.0.1:%d as hall-a/4" % port in "".join(hall_a.lines)
            serve = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "serve", "--mqtt", url % "server",
                                      "--mqtt-ca", ca, "--port", "0", "--quiet"], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env=dict(ENV, FLAGFALL_MQTT_PASSWORD=USERS["server"], FLAGFALL_MQTT_KEY=KEY,
                                              FLAGFALL_TOKEN=TOKEN))
            procs.append(serve)
            line = serve.stdout.readline()
            m = re.match(r"broadcast: (http://127\.0\.0\.1:\d+/)", line)
            assert m, (line, serve.stderr.read() if serve.poll() is not None else "")
            web = m.group(1)
            # both halls' boards reach the one server, move for move what the event records
            for name, ev in (("hall-a", hall_a), ("hall-b", hall_b)):
                for b in (1, 2):
                    until(lambda: (get(web + "api/board/%s/4/%d" % (name, b))[1] or {}).get("moves", [None] * 0)
                          and len(get(web + "api/board/%s/4/%d" % (name, b))[1]["moves"]) >= 4,
                          what="%s board %d on the server" % (name, b))
            rnd = pairings.read_pairings(CSV, 4)
            from flagfall.event.simboards import round_game as _source
            from flagfall.event import runner
            fake = runner.Event(rnd, tournament="x", out_dir=str(tmp_path / "scratch"))
            for name in ("hall-a", "hall-b"):
                for b in (1, 2):
                    moves = get(web + "api/board/%s/4/%d" % (name, b))[1]["moves"]
                    src = _source(fake, b).texts
                    assert moves == src[:len(moves)], (name, b, moves)
            fake.stop()
            # the arbiter at the server ends hall B's board 2: the command reaches it signed
            body = json.dumps({"action": "result", "result": "1-0"}).encode()
            req = urllib.request.Request(web + "api/board/hall-b/4/2/arbiter", data=body, method="POST",
                                         headers={"Authorization": "Bearer " + TOKEN,
                                                  "Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                assert r.status == 200
            hall_b.wait(lambda d: d["boards"][1]["result"] == "1-0", timeout=30)
            # a signed command carried out, then replayed right after hall B's event was killed and restarted
            cmd = {"action": "clock", "side": "white", "delta_ms": 60000}
            signed = mqtt.sign_command(KEY, ("hall-b", "4", "1"), cmd)
            publish_as_server(port, ca, "flagfall/hall-b/4/1/command", signed)
            journal = os.path.join(str(tmp_path / "hall-b"), "round-4", "board-1.journal")
            until(lambda: signed["sig"] in open(journal).read(), timeout=20, what="the command in the journal")
            hall_b.kill9()
            os.environ["FLAGFALL_MQTT_KEY"] = KEY
            os.environ["FLAGFALL_MQTT_PASSWORD"] = USERS["hall-b"]
            try:
                hall_b = EventProcess(*args_b)
            finally:
                os.environ.pop("FLAGFALL_MQTT_KEY", None)
                os.environ.pop("FLAGFALL_MQTT_PASSWORD", None)
            time.sleep(1.0)
            publish_as_server(port, ca, "flagfall/hall-b/4/1/command", signed)
            time.sleep(2.0)
            code, out, err = hall_b.stop()
            assert "repeated command refused" in err, err
            assert open(journal).read().count(signed["sig"]) == 1
            assert "1-0" in open(os.path.join(str(tmp_path / "hall-b"), "round-4", "board-2.pgn")).read()
            for secret in USERS.values():
                assert secret not in out + err
        finally:
            for ev in (locals().get("hall_a"), locals().get("hall_b")):
                if ev is not None:
                    ev.stop()
            for p in procs:
                if p.poll() is None:
                    p.kill()
                p.communicate()


def test_an_event_with_a_wrong_mqtt_password_says_so(tmp_path):
    with mosquitto(users=USERS, acl=ACL) as port:
        r = subprocess.run([sys.executable, "-m", "flagfall.cli", "event", "--pairings", CSV, "--round", "4",
                            "--sim", "1", "--port", "0", "--out", str(tmp_path / "out"), "--tournament", "hall-a",
                            "--mqtt", "mqtt://hall-a@127.0.0.1:%d" % port], capture_output=True, text=True,
                           timeout=60, env=dict(ENV, FLAGFALL_MQTT_PASSWORD="not-it", FLAGFALL_MQTT_KEY=KEY))
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "refused the connection" in r.stderr and "--port" not in r.stderr and "not-it" not in r.stderr, r.stderr


def test_a_signed_command_replayed_after_a_bridge_restart_is_refused(tmp_path):
    """`flagfall bridge --mqtt`: a command carried out, the bridge killed (-9) and started again, the same
    signed command sent again at once: refused as repeated (its id is in the journal), carried out once."""
    procs = []

    def start(*args, env):
        p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", *args], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        procs.append(p)
        return p
    acl = ACL + "\nuser bridge-7\ntopic write flagfall/hall-b/2/7/state\ntopic write flagfall/hall-b/2/7/event\n" \
                "topic read flagfall/hall-b/2/7/command\n"
    with mosquitto(users=dict(USERS, **{"bridge-7": "b7-pass"}), acl=acl) as port:
        try:
            sim = start("sim", "--listen", "127.0.0.1:0", "--no-pty", "--tc", "300+5", env=ENV)
            m = re.match(r"sim: pico-chess \(chess\) on (socket://127\.0\.0\.1:\d+)", sim.stdout.readline())
            assert m
            args = ["bridge", "--port", m.group(1), "--game", "chess", "--out", str(tmp_path), "--mqtt",
                    "mqtt://bridge-7@127.0.0.1:%d" % port, "--tournament", "hall-b", "--round", "2", "--board", "7",
                    "--no-stdin"]
            env = dict(ENV, FLAGFALL_MQTT_PASSWORD="b7-pass", FLAGFALL_MQTT_KEY=KEY, PYTHONFAULTHANDLER="1")
            bridge = start(*args, env=env)
            until(lambda: "publishing to" in bridge.stdout.readline(), what="the bridge to publish")
            c = paho.Client(CallbackAPIVersion.VERSION2)
            c.username_pw_set("server", USERS["server"])
            c.connect("127.0.0.1", port)
            c.loop_start()
            signed = mqtt.sign_command(KEY, ("hall-b", "2", "7"), {"action": "clock", "side": "black",
                                                                   "delta_ms": 60000})
            c.publish("flagfall/hall-b/2/7/command", json.dumps(signed), qos=1).wait_for_publish(5)
            journal = os.path.join(str(tmp_path), "board.journal")
            until(lambda: os.path.exists(journal) and signed["sig"] in open(journal).read(), timeout=20,
                  what="the command in the journal")
            bridge.kill()                   # SIGKILL
            bridge.wait()
            bridge = start(*args, env=env)
            until(lambda: "publishing to" in bridge.stdout.readline(), what="the bridge to publish again")
            time.sleep(0.5)
            c.publish("flagfall/hall-b/2/7/command", json.dumps(signed), qos=1).wait_for_publish(5)
            time.sleep(2.0)
            c.disconnect()
            c.loop_stop()
            bridge.send_signal(2)
            try:
                out, err = bridge.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                # where it hangs: SIGABRT makes faulthandler (PYTHONFAULTHANDLER) print every thread's stack
                bridge.send_signal(6)
                out, err = bridge.communicate(timeout=30)
                raise AssertionError("the bridge did not end within 30 s of SIGINT; its threads: %s" % err[-8000:])
            assert "repeated command refused" in err, err
            assert open(journal).read().count(signed["sig"]) == 1
        finally:
            for p in procs:
                if p.poll() is None:
                    p.kill()
                p.communicate()
