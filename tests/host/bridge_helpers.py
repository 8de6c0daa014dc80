"""Helpers for the bridge tests: drive a bridge Game with square names and hand motions."""
import itertools
import random
import socket
import threading
import time

from flagcore import wire
from flagfall.bridge import replay
from flagfall.bridge import virtualboard as vb

from flagcore import chess as cc

from flagfall.bridge.game import Game


def sq(name):
    """Chess square index from a name, or an int (draughts number) unchanged."""
    return cc.square(name) if isinstance(name, str) else name


class Hand:
    """Feeds a Game with timed lifts/placements, presses and ticks."""

    def __init__(self, game="chess", fen=None, clock=True, settle_ms=1000, **kw):
        self.g = Game(game, clock_mode=clock, settle_ms=settle_ms, fen=fen, **kw)
        self.t = 1000
        self.decs = []

    def up(self, *names):
        """Lift pieces."""
        for n in names:
            self.t += 100
            self.decs += self.g.square(self.t, sq(n), False)
        return self

    def down(self, *names):
        """Place pieces."""
        for n in names:
            self.t += 100
            self.decs += self.g.square(self.t, sq(n), True)
        return self

    def steps(self, seq):
        """seq: list of (name, down)."""
        for n, d in seq:
            (self.down if d else self.up)(n)
        return self

    def press(self, side=None, times=(60000, 60000)):
        """The side to move presses its clock."""
        self.t += 200
        if side is None:
            side = self.g.adapter.side()
        self.decs += self.g.press(self.t, side, times)
        return self

    def settle(self):
        """Let the settle time pass."""
        self.t += self.g.settle_ms + 1
        self.decs += self.g.tick(self.t)
        return self

    def moves(self):
        """Moves committed so far."""
        return self.g.sans()

    def kinds(self, k):
        """Decisions of one kind."""
        return [d for d in self.decs if d.kind == k]

    def play(self, *texts):
        """Play moves by the canonical physical order with a press each (setting up a position)."""
        from flagfall.bridge import virtualboard as vb
        for text in texts:
            a = self.g.adapter
            m = a.parse(text)
            for dt, s, down in vb.events_for_move(a, m):
                self.t += dt
                self.decs += self.g.square(self.t, s, down)
            if self.g.clock_mode:
                self.press()
            else:
                self.settle()
        return self


def orders(*pieces):
    """Every interleaving of several step sequences, each keeping its own order."""
    seqs = [list(p) for p in pieces]
    total = sum(len(s) for s in seqs)
    out = []
    for owner in set(itertools.permutations([i for i, s in enumerate(seqs) for _ in s], total)):
        pos = [0] * len(seqs)
        seq = []
        for i in owner:
            seq.append(seqs[i][pos[i]])
            pos[i] += 1
        out.append(seq)
    return sorted(out, key=str)


class FakeDevice(threading.Thread):
    """A board and clock on a TCP port, playing a scripted game; survives host disconnects."""

    def __init__(self, sans, seed, offline=None, pace=0.03, game="chess"):
        super().__init__(daemon=True)
        self.offline = dict(offline or {})   # script position -> steps played while unplugged
        self.pace = pace
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind(("127.0.0.1", 0))
        self.srv.listen(1)
        self.port = self.srv.getsockname()[1]
        self.dev = replay.VirtualDevice(game, None, "300+2", True)
        self.t0 = time.time()
        self.game = game
        self.script = self._script(sans, random.Random(seed))
        self.pos = 0
        self.connections = 0
        self.done = False

    def now(self):
        return int((time.time() - self.t0) * 1000) + 1000

    def _script(self, sans, rng):
        # ("sq", square, down) and ("press", side) steps, played by the thread in order
        out = []
        from flagfall.games import registry
        shadow = registry.make_adapter(self.game)       # minzu6 and the like keep their board size
        running = shadow.side()
        for san in sans:
            m = shadow.parse(san)
            for _, s, down in vb.events_for_move(shadow, m, rng, 0.4):
                out.append(("sq", s, down))
            if shadow.side() == running:        # a player presses only his own clock (minzu: one
                out.append(("press", running))  # side may act twice running, with one press)
                running = 1 - running
            else:                               # no press: the bridge commits once the board settles
                out.append(("idle", 2.0))
            shadow.push(m)
        return out

    def run(self):
        self.dev.clock.start(0, self.now())
        while not self.done:
            try:
                conn, _ = self.srv.accept()
            except OSError:
                return
            self.connections += 1
            conn.settimeout(0.012)
            host = wire.Link(wire.HOST_KINDS)
            try:
                # a USB re-plug does not reboot the device: it says nothing until asked (REQ)
                while self.pos < len(self.script):
                    self._answer(conn, host)
                    time.sleep(self.pace)  # a quick hand, but slower than a bridge restart's loss window
                    if self.pos in self.offline:
                        # the cable is pulled: the players go on, nothing reaches the host
                        n = self.offline.pop(self.pos)
                        time.sleep(0.2)    # what was sent before the cable came out arrives
                        conn.close()
                        for _ in range(n):
                            self._play(self.now())
                        break
                    data = self._play(self.now())
                    conn.sendall(data)     # sent into the socket: if the host is dead, it is lost
                while not self.done:
                    self._answer(conn, host)
                    conn.sendall(b"\n")    # keep-alive: notices a dead host
            except OSError:
                pass
            finally:
                try:
                    conn.close()
                except OSError:
                    pass

    def _play(self, t):
        """Make the next scripted step on the device; returns its frame."""
        step = self.script[self.pos]
        self.pos += 1
        if step[0] == "idle":
            time.sleep(step[1])
            return b""
        if step[0] == "sq":
            return self.dev.square(t, step[1], step[2])
        self.dev.clock.press(step[1], t)
        return self.dev.clock_frame(t)

    def _answer(self, conn, host):
        """Wait a little for host frames and answer REQ hello/snap/clock as the firmware does."""
        try:
            data = conn.recv(4096)
        except socket.timeout:
            return
        if not data:
            raise OSError("host closed the connection")
        for seq, kind, values in host.feed(data):
            if kind != "REQ":
                continue
            t = self.now()
            if values[0] == "hello":
                conn.sendall(self.dev.hello())
            elif values[0] == "snap":
                conn.sendall(self.dev.snapshot(t))
            elif values[0] == "clock":
                conn.sendall(self.dev.clock_frame(t))

    def stop(self):
        self.done = True
        self.srv.close()
