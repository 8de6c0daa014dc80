"""The live device connection: a serial port or pyserial URL, reconnects, resynchronisation.

Session owns the transport and feeds a BridgeEngine:
  * connect (serial device or URL: /dev/ttyACM0, COM3, socket://host:port, rfc2217://...);
  * ask for HELLO, a snapshot and the clock (REQ hello/snap/clock); the engine checks the
    hello (game, matrix size) and the start position;
  * every frame goes to the engine (journaled there before it is acted on);
  * a lost or corrupted frame (sequence gap, bad checksum) makes the link ask for a
    fresh snapshot: the engine turns the difference into events;
  * when the port disappears (USB unplugged, server gone) the session waits and
    reconnects, then resynchronises from HELLO + SNAP + CLK; a clock press that
    happened while the cable was out is inferred from the clock's side to move;
  * tick() runs the engine's settle timer every `poll_s`.
Time is wall-clock epoch milliseconds, so a journal's times stay comparable
across restarts of the bridge.
"""
import sys
import time

from flagcore import wire

from flagfall.serial_link import SerialLink


def now_ms():
    """Epoch milliseconds."""
    return int(time.time() * 1000)


class Session:
    """One board's connection (see the module docstring)."""

    def __init__(self, port, engine, baudrate=115200, retry_s=0.5, poll_s=0.02, log=None, opener=None):
        self.port = port
        self.engine = engine
        self.baudrate = baudrate
        self.retry_s = retry_s
        self.poll_s = poll_s
        self.log = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.opener = opener or (lambda: SerialLink.open(port, baudrate))
        self.link = None
        self.connects = 0
        self.failures = 0
        self.pending_tc = None
        self.commands = None     # list of operator lines (filled by read_commands' thread)
        engine.send = self.send

    def send(self, kind, fields=()):
        """Send a host frame if connected (penalties, time control); False if not."""
        if self.link is None:
            return False
        try:
            self.link.send(kind, list(fields))
            return True
        except Exception as e:       # noqa: BLE001 - a vanished port raises many kinds
            self._lost(e)
            return False

    def connect(self):
        """Open the port once; True on success."""
        try:
            self.link = self.opener()
        except Exception as e:        # noqa: BLE001
            self.link = None
            if self.failures == 0:        # said once per outage; the retries are quiet
                from flagfall.serial_link import ports_found, waiting_text
                self.log("bridge: " + waiting_text(self.port, e, ports_found()))
            self.failures += 1
            return False
        self.failures = 0
        self.connects += 1
        self.engine.link(now_ms(), True)
        self.log("bridge: connected to %s" % self.port)
        self.engine.clk_prev = None
        for what in ("hello", "snap", "clock"):
            self.send("REQ", [what])
        if self.pending_tc:
            self.send("TC", [self.pending_tc])
            self.pending_tc = None
        return True

    def _drop_link(self):
        if self.link is not None:
            try:
                self.link.close()
            except Exception:     # noqa: BLE001  (a port already gone cannot be closed cleanly)
                pass
            self.link = None

    def _lost(self, why):
        self._drop_link()
        self.engine.link(now_ms(), False)
        self.log("bridge: connection lost (%s); reconnecting" % why)

    def step(self):
        """Read what is there, feed the engine, run its timer; returns the decisions taken."""
        out = []
        if self.link is None:
            if not self.connect():
                time.sleep(self.retry_s)
                out += self.engine.tick(now_ms())
                return out
        try:
            frames = self.link.poll()
        except Exception as e:        # noqa: BLE001
            self._lost(e)
            return out
        for seq, kind, values in frames:
            raw = wire.encode(seq, kind, values).decode().rstrip("\n")
            out += self.engine.frame(now_ms(), kind, values, raw)
        out += self.operator_commands()
        out += self.engine.tick(now_ms())
        return out

    def operator_commands(self):
        """Carry out the operator lines queued by read_commands() (JSON arbiter commands or words)."""
        out = []
        q = self.commands
        while q is not None and q:
            line = q.pop(0).strip()
            if not line:
                continue
            t = now_ms()
            before = len(self.engine.game.decisions)
            try:
                if line.startswith("{"):
                    import json
                    reply = self.engine.command(t, json.loads(line))
                    self.log("bridge: %s" % reply.get("text", "ok"))
                else:
                    words = line.split()
                    self.engine.operator(t, words[0], *words[1:])
            except ValueError as e:
                self.log("bridge: command %r refused: %s" % (line, e))
            out += self.engine.game.decisions[before:]
        return out

    def read_commands(self, stream):
        """Read operator lines from a stream (stdin) on a thread: 'move Bxe5', 'moves Nf3 d6 Bc4',
        'promote 12 n', 'result 1-0', 'takeback', 'clear', or a JSON arbiter command."""
        import threading
        self.commands = []

        def reader():
            for line in stream:
                self.commands.append(line)
        threading.Thread(target=reader, daemon=True).start()

    def run(self, stop=None, on_decisions=None):
        """Loop until stop() is true or the game has a result."""
        while not (stop and stop()):
            decs = self.step()
            if decs and on_decisions:
                on_decisions(decs)
            if self.engine.game.result != "*":
                return
            time.sleep(self.poll_s)

    def close(self):
        """Close the port and the journal."""
        self._drop_link()
        self.engine.close()
