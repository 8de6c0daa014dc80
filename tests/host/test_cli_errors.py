"""The first hour: mistakes a newcomer makes get one clear line and exit status 2, not a traceback;
a bridge started before its board waits politely and writes nothing."""
import os
import subprocess
import sys
import time

import pytest

from repo import ROOT, flagfall_env
ENV = flagfall_env()


def flagfall(*args, stdin="", timeout=60):
    return subprocess.run([sys.executable, "-m", "flagfall.cli"] + list(args), input=stdin, capture_output=True,
                          text=True, env=ENV, timeout=timeout)


def one_line_error(p):
    """The stderr of a failed command: exactly one line, no traceback; returns it."""
    assert p.returncode == 2, (p.returncode, p.stderr)
    assert "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    return lines[0]


@pytest.mark.parametrize("command", ["demo", "serve"])
@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_web_port_out_of_range_is_one_line(command, port):
    line = one_line_error(flagfall(command, "--port", port))
    assert line.startswith("flagfall %s: argument --port:" % command), line
    assert "0-65535" in line and "--help" in line


def test_an_unknown_minzu_size_is_one_line():
    line = one_line_error(flagfall("bridge", "--port", "loop://", "--game", "minzu13", "--no-stdin"))
    assert line.startswith("bridge: --game: unknown minzu board size '13'") and "6, 7, 8, 9, 14, 7x8" in line, line


def test_a_missing_argument_is_one_line():
    line = one_line_error(flagfall("bridge", "--game", "chess"))
    assert "required: --port" in line and "flagfall bridge --help" in line


@pytest.mark.parametrize("spec", ["random:x", "random:", "random:3:y", "random:1:2:3"])
def test_replay_explains_the_random_syntax(spec):
    line = one_line_error(flagfall("replay", "chess", spec))
    assert "random:N or random:N:SEED" in line and "e.g. random:10" in line, line
    assert "invalid literal" not in line


def test_replay_random_still_works():
    p = flagfall("replay", "chess", "random:1:5", "--quiet")
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("replayed 1 games")


@pytest.mark.parametrize("tc,column,fixed", [("40/90min", 6, "40/5400"), ("90m+30s", 3, "5400+30"),
                                              ("1.5h", 4, "5400")])
def test_clock_suggests_seconds_for_a_time_with_units(tc, column, fixed):
    line = one_line_error(flagfall("clock", "--tc", tc, "--script", "-"))
    assert "column %d" % column in line
    assert line.endswith("did you mean %s?" % fixed), line
    # and the suggestion is a valid time control
    ok = flagfall("clock", "--tc", fixed, "--script", "-", stdin="0 start white\n1000 show\n")
    assert ok.returncode == 0, ok.stderr


def test_clock_gives_no_unit_hint_for_other_mistakes():
    line = one_line_error(flagfall("clock", "--tc", "40/", "--script", "-"))
    assert "did you mean" not in line


def test_bridge_tc_with_units_gets_the_same_hint():
    line = one_line_error(flagfall("bridge", "--port", "loop://", "--game", "chess", "--tc", "40/90min"))
    assert line.startswith("bridge: --tc:") and line.endswith("did you mean 40/5400?")


def test_serve_without_mqtt_warns_that_no_board_can_appear():
    p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "serve", "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        line = p.stdout.readline()
        assert line.startswith("broadcast: http://127.0.0.1:"), line
    finally:
        p.terminate()
        out, err = p.communicate(timeout=30)
    assert "no --mqtt broker given, so no board can ever appear" in err
    assert "flagfall demo" in err


def test_help_texts_for_baud_and_quiet():
    b = flagfall("bridge", "--help").stdout
    assert "--baud BAUD" in b and "serial speed in bit/s" in b
    s = " ".join(flagfall("sim", "--help").stdout.split())
    assert "--quiet print only the addresses (TCP line, pty, control page): no connection or firmware log" in s, s


def test_bridge_without_a_device_waits_once_and_writes_nothing(tmp_path):
    out = tmp_path / "records"
    missing = "/dev/ttyFLAGFALL-none"
    p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "bridge", "--port", missing, "--game", "chess",
                          "--out", str(out), "--no-stdin"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=ENV)
    try:
        time.sleep(3.0)          # several retries (every 0.5 s)
        assert p.poll() is None, p.communicate()
    finally:
        p.terminate()
        stdout, stderr = p.communicate(timeout=30)
    lines = [x for x in stderr.splitlines() if x.strip()]
    assert lines, stderr
    assert lines[0].startswith("bridge: waiting for %s; ports found: " % missing), stderr
    assert len([x for x in lines if "waiting for" in x]) == 1, stderr
    assert not any("Traceback" in x or "could not open" in x.lower() for x in lines), stderr
    assert not out.exists() or list(out.iterdir()) == []


def test_bridge_writes_its_files_once_the_device_answers(tmp_path):
    # the port refuses at first; a simulated board appears on it 2 s later
    sys.path.insert(0, os.path.join(ROOT, "tests", "host"))
    from mqtt_broker import free_port
    from flagfall import sim as simm
    port = free_port()
    out = tmp_path / "records"
    p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:%d" % port,
                          "--game", "chess", "--out", str(out), "--name", "g", "--no-stdin"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    sim = None
    try:
        time.sleep(2.0)
        assert not out.exists() or list(out.iterdir()) == []
        sim = simm.Simulator("pico-chess", log=lambda text: None)
        sim.listen_tcp("127.0.0.1", port)
        sim.start()
        deadline = time.time() + 30
        journal = out / "g.journal"
        while time.time() < deadline and not (journal.exists() and "HELLO" in journal.read_text()):
            time.sleep(0.1)
        assert "HELLO" in journal.read_text() and (out / "g.pgn").exists()   # the device's answer, journaled
    finally:
        p.terminate()
        stdout, stderr = p.communicate(timeout=30)
        if sim is not None:
            sim.stop()
    assert stderr.count("waiting for socket://127.0.0.1:%d" % port) == 1, stderr


def test_wait_for_device_keeps_the_frames_other_than_hello():
    from flagcore import wire
    from flagfall.serial_link import SerialLink, wait_for_device

    class Stream:
        def __init__(self):
            self.dev = wire.Link(wire.HOST_KINDS)
            self.out = b""
            self.asked = 0

        def write(self, data):
            for _, kind, values in self.dev.feed(data):
                if kind == "REQ" and values[0] == "hello":
                    self.asked += 1
                    if self.asked == 2:     # silent the first time it is asked
                        self.out += self.dev.frame("SQ", [5, (12, 1)])
                        self.out += self.dev.frame("HELLO", ["1.0", wire.VERSION, "pico-chess", "chess", 8, 8, "full"])

        def read(self, n):
            data, self.out = self.out[:n], self.out[n:]
            return data

        def close(self):
            pass

    tries = []
    said = []

    def opener():
        tries.append(1)
        if len(tries) < 3:
            raise OSError("no such device")
        return SerialLink(Stream())
    link = wait_for_device("/dev/x", log=said.append, retry_s=0.01, answer_s=0.2, opener=opener,
                           ports=lambda: ["/dev/ttyS0"])
    assert len(tries) == 3
    assert said == ["waiting for /dev/x; ports found: /dev/ttyS0",
                    "/dev/x is open but no Flagfall device answers (is the firmware running? --baud 115200?); "
                    "still asking"]
    assert [f[1] for f in link.poll()] == ["SQ"]


def test_waiting_text_says_why_when_the_port_is_there_but_closed_to_us():
    from flagfall.serial_link import waiting_text
    assert waiting_text("/dev/ttyACM0", OSError(2, "No such file"), []) == \
        "waiting for /dev/ttyACM0; ports found: none"
    text = waiting_text("/dev/ttyACM0", OSError(13, "Permission denied"), ["/dev/ttyACM0", "/dev/ttyS0"])
    assert text.startswith("waiting for /dev/ttyACM0 (permission denied: on Linux add yourself to the dialout group")
    assert text.endswith("ports found: /dev/ttyACM0, /dev/ttyS0")


def test_make_run_installs_only_the_runtime_and_takes_a_web_port():
    import shutil
    if shutil.which("make") is None:
        pytest.fail("make is missing: apt-get install make")
    plan = subprocess.run(["make", "--no-print-directory", "-n", "-B", "-C", ROOT, "run", "WEB_PORT=8090"], capture_output=True,
                          text=True, timeout=60)
    assert plan.returncode == 0, plan.stderr
    text = plan.stdout
    assert "pip install --quiet -e .\n" in text and "[dev]" not in text
    for other in ("npm", "node_modules", "apt-get", "dpkg", "mosquitto", "chromium"):
        assert other not in text, other
    assert text.rstrip().endswith(".venv/bin/flagfall event events/demo.toml --port 8090")
    setup = subprocess.run(["make", "--no-print-directory", "-n", "-B", "-C", ROOT, "setup"], capture_output=True, text=True, timeout=60)
    assert "'.[dev]'" in setup.stdout and "npm ci" in setup.stdout and "chromium" in setup.stdout
