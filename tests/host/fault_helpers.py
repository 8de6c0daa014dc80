"""Helpers for the fault tests of issue #20: boards in their own process, a cable the test controls.

    sim = SimProcess()                 # `flagfall sim --listen` in its own process, driven by its stdin (processes.py)
    cable = Cable(sim.url)             # a TCP "cable" between the device and the event, in this process
    ev = Event(tmp_path, {1: cable.url})   # `flagfall event --boards MAP` in its own process

The cable forwards the device's bytes line by line and records every frame it
sees from the device (also while it is "unplugged" or "silent" towards the
event: the device goes on, as a real one does), so the test knows what the
device's clock really said after every move (truth_clocks). It can pull the
plug (the event sees the connection drop), go silent (the connection stays,
nothing arrives), inject a forged frame towards the event, and send host
commands to the device itself (an arbiter at the clock while the event is away).
"""
from __future__ import annotations

import io
import json
import os
import socket
import threading
import time

from flagcore import clock as clockm
from flagcore import wire

from processes import EventProcess
from processes import SimProcess as SimProcess     # the device of the fault tests, imported from here

TOKEN = "fault-token"


class Cable(threading.Thread):
    """A TCP cable between a device (its pyserial socket URL) and the event, controlled by the test."""

    def __init__(self, device_url):
        super().__init__(daemon=True)
        host, port = device_url.split("//")[1].split(":")
        self.up = socket.create_connection((host, int(port)))
        self.srv = socket.create_server(("127.0.0.1", 0))
        self.port = self.srv.getsockname()[1]
        self.url = "socket://127.0.0.1:%d" % self.port
        self.host = None
        self.mode = "pass"          # pass, silent (nothing reaches the event), unplugged
        self.frames = []            # (seq, kind, values) of every frame the device sent
        self.lock = threading.Lock()
        self.done = False
        self.host_seq = 1000
        self.start()
        threading.Thread(target=self._accept, args=(self.srv,), daemon=True).start()

    def _accept(self, srv):
        while not self.done:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            with self.lock:
                old, self.host = self.host, conn
            if old is not None:
                old.close()
            threading.Thread(target=self._from_host, args=(conn,), daemon=True).start()

    def _from_host(self, conn):
        while not self.done:
            try:
                data = conn.recv(4096)
            except OSError:
                return
            if not data:
                return
            if self.mode != "unplugged":
                self.up.sendall(data)

    def run(self):
        buf = b""
        while not self.done:
            try:
                data = self.up.recv(4096)
            except OSError:
                return
            if not data:
                return
            buf += data
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                try:
                    self.frames.append(wire.decode(line, wire.DEVICE_KINDS))
                except wire.WireError:
                    pass
                if self.mode == "pass":
                    self._to_host(line + b"\n")

    def _to_host(self, data):
        with self.lock:
            h = self.host
        if h is not None:
            try:
                h.sendall(data)
            except OSError:
                pass

    def unplug(self):
        """Pull the cable: the event sees the connection drop, and the port is gone until plug()."""
        self.mode = "unplugged"
        try:
            self.srv.shutdown(socket.SHUT_RDWR)     # wakes the accepting thread: the port is gone
        except OSError:
            pass
        self.srv.close()
        with self.lock:
            h, self.host = self.host, None
        if h is not None:
            try:
                h.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            h.close()

    def plug(self):
        """Put the cable back: the port is there again."""
        self.srv = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self.srv,), daemon=True).start()
        self.mode = "pass"

    def last(self, kind):
        """The last frame of a kind the device sent."""
        return [f for f in self.frames if f[1] == kind][-1]

    def inject(self, kind, values):
        """A checksum-valid frame towards the event, with the device's next sequence number."""
        seq = (self.frames[-1][0] + 1) if self.frames else 0
        self._to_host(wire.encode(seq, kind, values))

    def to_device(self, kind, values=()):
        """A host command straight to the device (as an arbiter at the clock while the event is away)."""
        self.host_seq += 1
        self.up.sendall(wire.encode(self.host_seq, kind, list(values)))

    def wait(self, cond, timeout=10):
        """Until cond() holds (the device has carried out what it was sent)."""
        end = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < end, "the device did not do it: %r" % self.frames[-3:]
            time.sleep(0.05)

    def clock(self):
        """The device's clock from its last CLK's snapshot."""
        return clockm.restore(self.last("CLK")[2][9], 0)

    def close(self):
        self.done = True
        for s in (self.srv, self.up, self.host):
            try:
                if s is not None:
                    s.close()
            except OSError:
                pass


def truth_clocks(frames, edits=()):
    """{(side, n): ms}: each side's clock after its n-th move, as the device's own CLK frames said it
    (the first frame whose snapshot counts that move). edits: (side, from_n, delta) where the move
    counter was changed by hand, so that later moves keep their own numbers."""
    out = {}
    for _, kind, v in frames:
        if kind != "CLK" or not v[9]:
            continue
        c = clockm.restore(v[9], 0)
        for s in (0, 1):
            n = c.moves[s]
            for side, from_n, delta in edits:
                if side == s and n >= from_n + delta:
                    n -= delta
            out.setdefault((s, n), v[3 + s])
    return out


class Event(EventProcess):
    """`flagfall event` in its own process on a boards map (the tests' CSV pairings: `names` on each of
    `boards` boards); the arbiter's view of one board at a time."""

    def __init__(self, tmp_path, ports, names=("Alice", "Bob"), boards=1, tc="5400+30"):
        self.out = str(tmp_path / "out")
        csv = tmp_path / "pairings.csv"
        csv.write_text("board,white,black\n" + "".join(
            "%d,%s %d,%s %d\n" % (n, names[0], n, names[1], n) for n in range(1, boards + 1)))
        bmap = tmp_path / "boards.txt"
        bmap.write_text("".join("%d %s\n" % (n, p) for n, p in sorted(ports.items())))
        super().__init__("--pairings", str(csv), "--round", "1", "--boards", str(bmap), "--out", self.out,
                         "--tc", tc, "--tournament", "faults", token=TOKEN)

    def board(self, n=1):
        st, d = self.call("api/event")
        assert st == 200, d
        return d["boards"][n - 1]

    def command(self, body, n=1):
        return self.call("api/event/board/%d" % n, body)

    def wait(self, what, timeout=40, n=1):
        """Until what(board n) holds; the board then."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            b = self.board(n)
            if what(b):
                return b
            time.sleep(0.2)
        raise AssertionError("timed out; board %d: %s\nlog:\n%s" % (n, json.dumps(self.board(n))[:2000],
                                                                    "".join(self.lines[-30:])))

    def wait_log(self, text, count=1, timeout=20):
        """Until the event has printed `count` lines containing text."""
        end = time.monotonic() + timeout
        while sum(text in line for line in self.lines) < count:
            assert time.monotonic() < end, "no %d lines with %r:\n%s" % (count, text, "".join(self.lines[-30:]))
            time.sleep(0.1)

    def record(self, n=1, moves=None, timeout=10):
        """Board n's record file, read by python-chess (a test oracle); with `moves`, once it holds
        that many (the dashboard may show a move a moment before the file is rewritten)."""
        import chess.pgn
        end = time.monotonic() + timeout
        while True:
            with open(os.path.join(self.out, "round-1", "board-%d.pgn" % n)) as f:
                game = chess.pgn.read_game(io.StringIO(f.read()))
            if moves is None or len(list(game.mainline())) == moves or time.monotonic() > end:
                return game
            time.sleep(0.1)

    def stop(self):
        """Ctrl-C; the exit status."""
        return super().stop()[0]


def check_record(game, played, truth, unknown_ok=()):
    """The record holds exactly the moves played, each with the clock the device showed after it
    (truth_clocks); a move whose clock nothing told (plies in unknown_ok) may leave it out, never
    carry a wrong one. Returns the plies written without a clock."""
    sans = [n.san() for n in game.mainline()]
    assert [s.rstrip("+#") for s in sans] == [p.rstrip("+#") for p in played], (sans, played)
    missing = []
    for i, node in enumerate(game.mainline()):
        want = truth.get((i % 2, i // 2 + 1))
        got = node.clock()
        if got is None:
            assert i in unknown_ok, "move %d %s has no clock" % (i + 1, sans[i])
            missing.append(i)
            continue
        assert want is not None and int(got) == want // 1000, \
            "move %d %s: clock %s, the device showed %s ms" % (i + 1, sans[i], got, want)
    return missing
