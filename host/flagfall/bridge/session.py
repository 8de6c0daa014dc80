"""The live device connection: a serial port or pyserial URL, reconnects, resynchronisation.

Session owns the transport and feeds a BridgeEngine:
  * connect (serial device or URL: /dev/ttyACM0, COM3, socket://host:port, rfc2217://...);
  * ask for HELLO, a snapshot and the clock (REQ hello/snap/clock); the engine checks the
    hello (game, matrix size) and the start position;
  * every frame goes to the engine (journaled there before it is acted on); a line the
    codec rejects (checksum, garbage, oversized, a value out of range) or a frame that
    does not fit the device (BridgeEngine.frame_problem) is logged as a WARN and journaled as a
    `reject` note, and the game goes on; a frame the engine fails on is skipped and
    journaled as `quarantine`, so that resuming skips it too (journalreplay.replay_frame);
  * a lost or corrupted frame (sequence gap, bad checksum) makes the link ask for a
    fresh snapshot: the engine turns the difference into events;
  * when the port disappears (USB unplugged, server gone) the session waits and
    reconnects, then resynchronises from HELLO + SNAP + CLK; a clock press that
    happened while the cable was out is inferred from the clock's side to move;
  * tick() runs the engine's settle timer every `poll_s`.
Time is wall-clock epoch milliseconds, so a journal's times stay comparable
across restarts of the bridge.
"""
from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence, Union

from flagcore import wire

from flagfall.serial_link import SerialLink

if TYPE_CHECKING:
    from flagfall.bridge.decisions import Decision
    from flagfall.bridge.engine import BridgeEngine


def now_ms() -> int:
    """Epoch milliseconds."""
    return int(time.time() * 1000)


MAX_LOGGED_LINES = 20    # rejected lines logged (and journaled) one by one per minute; the rest counted


class Session:
    """One board's connection (see the module docstring)."""

    def __init__(self, port: str, engine: BridgeEngine, baudrate: int = 115200, retry_s: float = 0.5,
                 poll_s: float = 0.02, log: Optional[Callable[[str], object]] = None,
                 opener: Optional[Callable[[], SerialLink]] = None) -> None:
        self.port = port
        self.engine = engine
        self.baudrate = baudrate
        self.retry_s = retry_s
        self.poll_s = poll_s
        self.log: Callable[[str], object] = log or (lambda text: print(text, file=sys.stderr, flush=True))
        self.opener: Callable[[], SerialLink] = opener or (lambda: SerialLink.open(port, baudrate))
        self.link: Optional[SerialLink] = None
        self.connects = 0
        self.failures = 0
        self.bad_lines = 0       # lines the link rejected in this minute
        self.bad_since = 0
        self.pending_tc: Optional[str] = None
        self.commands: Optional[list[str]] = None     # operator lines (filled by read_commands' thread)
        self.refused: list[str] = []   # commands from the network that were not obeyed (texts, from any thread)
        self.connected_at: Optional[float] = None     # time.monotonic() of the last connect
        self.connect_error: Optional[str] = None      # why the port could not be opened (while it cannot)
        engine.send = self.send
        engine.warn = lambda text: self.log("bridge: WARN " + text)

    def send(self, kind: str, fields: Sequence[wire.FieldValue] = ()) -> bool:
        """Send a host frame if connected (penalties, time control); False if not."""
        if self.link is None:
            return False
        try:
            self.link.send(kind, list(fields))
            return True
        except Exception as e:       # noqa: BLE001 - a vanished port raises many kinds
            self._lost(e)
            return False

    def connect(self) -> bool:
        """Open the port once; True on success."""
        try:
            self.link = self.opener()
        except Exception as e:        # noqa: BLE001
            self.link = None
            if self.failures == 0:        # said once per outage; the retries are quiet
                from flagfall.serial_link import ports_found, waiting_text
                self.log("bridge: " + waiting_text(self.port, e, ports_found()))
            self.connect_error = "%s: %s" % (type(e).__name__, e) if not str(e) else str(e)
            self.failures += 1
            return False
        self.failures = 0
        self.connect_error = None
        self.connected_at = time.monotonic()
        self.connects += 1
        inner = getattr(self.link, "link", None)
        if inner is not None and hasattr(inner, "on_bad"):
            inner.on_bad = self._bad_line
        self.engine.link(now_ms(), True)
        self.log("bridge: connected to %s" % self.port)
        self.engine.clk_prev = None
        for what in ("hello", "snap", "clock"):
            self.send("REQ", [what])
        if self.pending_tc:
            self.send("TC", [self.pending_tc])
            self.pending_tc = None
        return True

    def _drop_link(self) -> None:
        if self.link is not None:
            try:
                self.link.close()
            except Exception:     # noqa: BLE001  (a port already gone cannot be closed cleanly)
                pass
            self.link = None

    def _lost(self, why: object) -> None:
        self._drop_link()
        self.engine.link(now_ms(), False)
        self.log("bridge: connection lost (%s); reconnecting" % why)

    def step(self) -> list[Decision]:
        """Read what is there, feed the engine, run its timer; returns the decisions taken."""
        out: list[Decision] = []
        if self.link is None:
            if not self.connect():
                time.sleep(self.retry_s)
                out += self.engine.tick(now_ms())
                return out
        try:
            assert self.link is not None      # connect() has opened it
            frames = self.link.poll()
        except Exception as e:        # noqa: BLE001
            self._lost(e)
            return out
        for seq, kind, values in frames:
            raw = wire.encode(seq, kind, values).decode().rstrip("\n")
            why = self.engine.frame_problem(kind, values)
            if why is not None:
                self._reject(raw, why)
                continue
            try:
                out += self.engine.frame(now_ms(), kind, values, raw)
            except OSError:
                raise
            except Exception as e:    # noqa: BLE001 - one frame must not stop the game
                self._quarantine(raw, "%s: %s" % (type(e).__name__, e))
        out += self.operator_commands()
        out += self.engine.tick(now_ms())
        return out

    def _note(self, entry: dict[str, Any]) -> None:
        """Journal a note (a rejected line or frame); resume() passes over these entries."""
        self.engine.append_journal(entry)

    def _bad_line(self, why: str, line: Union[bytes, bytearray, None]) -> None:
        """The link rejected a line (bad checksum, garbage, oversized): log it and journal it."""
        t = now_ms()
        if t - self.bad_since > 60000:       # a new minute: log again (a flood, e.g. a wrong baud rate,
            if self.bad_lines > MAX_LOGGED_LINES:   # is summed up instead of filling the journal)
                self.log("bridge: WARN %d more lines from the device were rejected"
                         % (self.bad_lines - MAX_LOGGED_LINES))
            self.bad_since, self.bad_lines = t, 0
        self.bad_lines += 1
        if self.bad_lines <= MAX_LOGGED_LINES:
            text = None if line is None else bytes(line[:120]).decode("ascii", "replace")
            self.log("bridge: WARN line from the device rejected: %s%s%s"
                     % (why, "" if text is None else ": %r" % text,
                        " (more this minute are only counted)" if self.bad_lines == MAX_LOGGED_LINES else ""))
            self.engine.reject(t, why, {"line": text})
        else:
            self.engine.rejected += 1        # counted, not journaled one by one
            self.engine.rejected_last = why

    def _reject(self, raw: str, why: str) -> None:
        """A well-formed frame with a value that cannot be (SNAP of the wrong size, HELLO mid-game...)."""
        self.log("bridge: WARN frame rejected: %s: %s" % (why, raw[:120]))
        self.engine.reject(now_ms(), why, {"raw": raw})

    def _quarantine(self, raw: str, why: str) -> None:
        """A journaled frame the engine failed on: marked so that a resume skips it."""
        self.log("bridge: WARN frame could not be handled and is skipped: %s: %s" % (why, raw[:120]))
        self._note({"k": "quarantine", "t": now_ms(), "why": why, "raw": raw})

    def operator_commands(self) -> list[Decision]:
        """Carry out the operator lines queued by read_commands() (JSON arbiter commands or words)."""
        out: list[Decision] = []
        while self.refused:
            why = self.refused.pop(0)
            self.log("bridge: WARN refused %s" % why)
            self._note({"k": "refused", "t": now_ms(), "why": why})
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

    def read_commands(self, stream: Iterable[str]) -> None:
        """Read operator lines from a stream (stdin) on a thread: 'move Bxe5', 'moves Nf3 d6 Bc4',
        'promote 12 n', 'result 1-0', 'takeback', 'clear', or a JSON arbiter command."""
        import threading
        self.commands = commands = []

        def reader() -> None:
            for line in stream:
                commands.append(line)
        threading.Thread(target=reader, daemon=True).start()

    def run(self, stop: Optional[Callable[[], object]] = None,
            on_decisions: Optional[Callable[[list[Decision]], object]] = None) -> None:
        """Loop until stop() is true or the game has a result."""
        while not (stop and stop()):
            decs = self.step()
            if decs and on_decisions:
                on_decisions(decs)
            if self.engine.game.result != "*":
                return
            time.sleep(self.poll_s)

    def close(self) -> None:
        """Close the port and the journal."""
        self._drop_link()
        self.engine.close()
