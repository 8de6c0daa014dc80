"""The event, a simulated board and the broadcast server as the tests start them: the real commands in
processes of their own, or in threads of the test's own process when the test reaches into them.

    ev = EventProcess("--pairings", path, "--round", "4", "--sim", "3")   # serving on an ephemeral port
    status, data = ev.call("api/event")          # the arbiter's API, with the token
    sim = SimProcess()                           # `flagfall sim --listen`: the test plays through its terminal
    sim = SimProcess(record, 2)                  # ... or its players play the record's 2nd game themselves
    ev = ServedEvent(rnd, out, simulated=(1, 2)) # an event in threads: ev.event's boards, ev.tables[n].sim's hands
    srv = ServerThread()                         # the broadcast server alone, fed by srv.publish(state)

EventProcess and ServedEvent answer the same calls (EventApi: call, dashboard, board, act, wait,
wait_board). conftest.py hands the processes out as fixtures (`event_process`, `sim_process`) that stop
what is still running when the test ends.
"""
import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

from repo import flagfall_env

TOKEN = "event-token"


def call(url, body=None, token=TOKEN, timeout=10):
    """(status, body) of a GET (a POST with a JSON body): the body as JSON when it is JSON, else text;
    timeout: seconds to wait for the answer."""
    headers = {"Authorization": "Bearer " + token} if token else {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            text = r.read().decode()
            return r.status, (json.loads(text) if r.headers.get("Content-Type", "").startswith("application/json")
                              else text)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode() or "{}")


def wait_until(fn, timeout, step=0.02):
    """fn()'s first true value within timeout seconds (polled every step seconds), else its last value."""
    end = time.monotonic() + timeout
    while True:
        v = fn()
        if v:
            return v
        if time.monotonic() > end:
            return v
        time.sleep(step)


class EventApi:
    """An event's HTTP API as the dashboard and a script call it, with the arbiter token: `url` (the
    event's, with or without its final slash) and `token` are the serving harness's."""

    url = ""
    token = TOKEN
    timeout = 10            # seconds an answer may take

    def call(self, path, body=None):
        """(status, body) of the event's `path` (relative to its URL), with the arbiter token."""
        return call(self.url.rstrip("/") + "/" + path.lstrip("/"), body, token=self.token, timeout=self.timeout)

    def dashboard(self):
        st, data = self.call("api/event")
        assert st == 200, data
        return data

    def board(self, n):
        """Board n as the dashboard has it."""
        return [b for b in self.dashboard()["boards"] if b["board"] == n][0]

    def act(self, n, body):
        """(status, answer) of an arbiter action on board n."""
        return self.call("api/event/board/%d" % n, body)

    def wait(self, what, timeout=90):
        """Until what(dashboard) holds; the dashboard then."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            d = self.dashboard()
            if what(d):
                return d
            time.sleep(0.3)
        raise AssertionError("timed out; dashboard: %s" % json.dumps(self.dashboard())[:3000])

    def wait_board(self, n, what, timeout=20, step=0.1):
        """Until what(board n) holds."""
        ok = wait_until(lambda: what(self.board(n)), timeout, step)
        assert ok, "board %d: %s" % (n, {k: v for k, v in self.board(n).items() if k not in ("view", "history")})


class EventProcess(EventApi):
    """`flagfall event` in a subprocess; its URL once it serves, and every line it prints (`lines`: the
    first ones up to the URL's and the two after it are there when the constructor returns, the rest
    are read on a thread)."""

    def __init__(self, *args, python=("-m", "flagfall.cli"), token=TOKEN):
        """args: the event's; python: what runs the flagfall command (a wrapper script and its arguments);
        token: the arbiter token given (None: the event's own, kept in its out folder)."""
        self.args = list(args)
        self.python = list(python)
        self.token = token
        self.start()

    def start(self):
        """Start the command (again, after kill9 or stop: the same arguments)."""
        env = flagfall_env()
        env.pop("FLAGFALL_TOKEN", None)
        given = ["--token", self.token] if self.token else []
        self.proc = subprocess.Popen([sys.executable] + self.python + ["event", "--port", "0"] + given + self.args,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.lines = []
        while True:
            line = self.proc.stdout.readline()
            assert line, ("event ended", self.proc.stderr.read())
            self.lines.append(line)
            m = re.search(r"live at (http://127\.0\.0\.1:\d+/)", line)
            if m:
                self.url = m.group(1)
                break
        self.lines += [self.proc.stdout.readline(), self.proc.stdout.readline()]
        self.head = len(self.lines)
        self.reader = threading.Thread(target=self._read, args=(self.proc,), daemon=True)
        self.reader.start()

    def _read(self, proc):
        for line in proc.stdout:
            self.lines.append(line)

    def kill9(self):
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self):
        """Ctrl-C, as an operator stops it: (exit status, what it printed after the first lines, stderr)."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.reader.join(10)
            return self.proc.returncode, "".join(self.lines[self.head:]), self.proc.stderr.read()
        return self.proc.returncode, "", ""


class SimProcess:
    """`flagfall sim --listen 127.0.0.1:0`: a simulated board in its own process, on a pyserial socket URL.

    Without `play`, the test plays through its terminal (command, play: the moves go to `played`); with
    play=FILE, its players play the index-th game of that record by themselves (think_ms, wait) and
    `played` fills from the moves it prints, `over` once the game is over. Its stdin stays open: the
    device is served after its game, as a real one is.
    """

    def __init__(self, play=None, index=1, think_ms=2500, speed=None, wait=1.0, tc="5400+30", seed=None):
        cmd = [sys.executable, "-m", "flagfall.cli", "sim", "--listen", "127.0.0.1:0", "--no-pty", "--tc", tc,
               "--noise", "0"]
        if play is None:        # driven by the test: ten times faster unless told
            speed, seed = 10.0 if speed is None else speed, 1 if seed is None else seed
            cmd += ["--quiet", "--speed", str(speed), "--seed", str(seed)]
        else:                   # in real time, each record's game with its own seed unless told
            speed, seed = 1 if speed is None else speed, index if seed is None else seed
            cmd += ["--play", play, "--index", str(index), "--think-ms", str(think_ms), "--speed", str(speed),
                    "--wait", str(wait), "--seed", str(seed)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=flagfall_env(),
                                     stderr=subprocess.DEVNULL if play is None else subprocess.PIPE)
        self.played = []            # the moves the simulated players really made, in order
        self.over = False
        line = self.proc.stdout.readline()
        while play is not None and line and not re.search(r"on (socket://\S+)", line):
            line = self.proc.stdout.readline()
        m = re.search(r"on (socket://127\.0\.0\.1:\d+)", line)
        assert m, ("flagfall sim did not start", line, self.proc.stderr.read() if play is not None else "")
        self.url = m.group(1)
        if play is not None:
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            m = re.match(r"sim: move (\d+) (\S+)", line)
            if m:
                self.played.append(m.group(2))
            if line.startswith("sim: game over"):
                self.over = True

    def command(self, line):
        """One terminal command, then `show`; returns the lines printed (the last one is the faces)."""
        self.proc.stdin.write(line + "\nshow\n")
        self.proc.stdin.flush()
        out = []
        while True:
            text = self.proc.stdout.readline()
            assert text, "flagfall sim ended: %r" % out
            out.append(text.rstrip("\n"))
            if text.startswith("white "):
                return out

    def play(self, *moves):
        """The player on move makes each move and presses the clock."""
        for mv in moves:
            out = self.command("play " + mv)
            assert any(x.startswith("played ") for x in out), out
            self.played.append([x for x in out if x.startswith("played ")][0].split(" ", 1)[1])

    def kill(self):
        """The device is gone for good."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self):
        """Quit through its terminal."""
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.kill()

    def stop(self):
        """Ctrl-C."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class ServerThread:
    """The broadcast server on its own event loop in a thread, on a free loopback port; attach(app), if
    given, mounts more on its application before it serves (an event's dashboard)."""

    def __init__(self, token="browser-test", attach=None):
        self.token = token
        self.attach = attach
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10), "server did not start"

    def _run(self):
        from flagfall.broadcast import server
        from flagfall.broadcast.hub import Hub
        asyncio.set_event_loop(self.loop)
        self.hub = Hub(self.loop)
        self.app = server.make_app(self.hub, token=self.token)
        if self.attach is not None:
            self.attach(self.app)
        self.runner = self.loop.run_until_complete(server.start(self.app, "127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % server.bound_port(self.runner)
        self.ready.set()
        self.loop.run_forever()

    def publish(self, state):
        self.loop.call_soon_threadsafe(self.hub.ingest, state)

    def close(self):
        fut = asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop)
        fut.result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


class ServedEvent(EventApi):
    """An event of this process (flagfall.event.runner.Event: `event`) on simulated boards (`tables`:
    board -> flagfall.event.simboards.SimulatedTable, whose `sim` the test's hands play), served with its
    dashboard by a ServerThread; its boards' states reach the public pages when `public`. The other
    boards wait for a device (open: their bridges opened) or not (open=False)."""

    timeout = 20

    def __init__(self, rnd, out, *, simulated, token=TOKEN, seed=0, public=False, open_all=False, **event_args):
        """rnd: the round (flagfall.tournament.model.Round); out: the event's out folder; simulated: the
        boards with a simulated device (each with seed `seed`); event_args: Event's (tournament, tc, ...)."""
        from flagfall.event.runner import Event
        from flagfall.event.simboards import SimulatedTable
        from flagfall.event import web
        self.token = token
        self.server = None
        self.event = Event(rnd, out_dir=out, publish=self._publish if public else None, **event_args)
        self.tables = {n: SimulatedTable(self.event.board(n), speed=1.0, seed=seed) for n in simulated}
        if open_all:
            for b in self.event.boards.values():
                if b.engine is None:
                    b.open_engine()
        self.server = ServerThread(token, attach=lambda app: web.attach(app, self.event))
        self.url = self.server.url
        for t in self.tables.values():
            t.start()
        self.stepper = threading.Thread(target=self.event.run, daemon=True)
        self.stepper.start()

    def _publish(self, state):
        if self.server is not None:         # the states published before it serves are not kept
            self.server.publish(state)

    def close(self):
        for t in self.tables.values():
            t.close()
        self.event.stop()
        self.server.close()
