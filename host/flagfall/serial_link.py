"""Host end of the wire protocol over a serial port (pyserial) or any byte stream.

    link = SerialLink.open("/dev/ttyACM0")          # or "socket://localhost:7000", "loop://"
    ack = link.request("TC", ["fide-blitz"])        # waits for the device's ACK
    for seq, kind, values in link.poll(): ...

Frames are encoded and checked by flagcore.wire, the same codec the device
runs. When a frame from the device is lost or corrupted (a sequence gap or
a bad checksum) the link asks for a fresh snapshot (REQ snap) by itself, so
the host's picture of the board is rebuilt from the device's, not guessed.
"""
from __future__ import annotations

import time
from typing import Callable, Optional, Protocol, Sequence

from flagcore import wire


class Stream(Protocol):
    """What SerialLink needs of its stream (a pyserial Serial, a socket wrapper in the tests): a
    `close()` is used when there is one."""

    def read(self, size: int) -> bytes:
        """Up to size bytes, or b"" when nothing came within the stream's timeout."""
        ...

    def write(self, data: bytes) -> object:
        """Send bytes."""
        ...


class LinkError(Exception):
    """No answer from the device, or an answer that says the command failed."""


class SerialLink:
    """Frames to and from one device over a pyserial-like stream (read(n), write(b))."""

    def __init__(self, stream: Stream, auto_resync: bool = True) -> None:
        self.stream = stream
        self.link = wire.Link(wire.DEVICE_KINDS)
        self.auto_resync = auto_resync
        self.pending: list[wire.Frame] = []
        self.resyncs = 0

    @classmethod
    def open(cls, port: str, baudrate: int = 115200, timeout: float = 0.02) -> SerialLink:
        """Open a serial port or a pyserial URL (socket://, rfc2217://, loop://)."""
        import serial
        return cls(serial.serial_for_url(port, baudrate=baudrate, timeout=timeout))

    def send(self, kind: str, fields: Sequence[wire.FieldValue] = ()) -> int:
        """Send one command; returns its sequence number."""
        seq = self.link.tx_seq
        self.stream.write(self.link.frame(kind, list(fields)))
        return seq

    def poll(self) -> list[wire.Frame]:
        """Frames received since the last call (plus any kept aside by request())."""
        data = self.stream.read(4096)
        out = self.pending
        self.pending = []
        if data:
            out.extend(self.link.feed(data))
        if self.link.resync and self.auto_resync:
            self.link.resync = False
            self.resyncs += 1
            self.send("REQ", ["snap"])
        return out

    def request(self, kind: str, fields: Sequence[wire.FieldValue] = (), timeout: float = 2.0) -> wire.Frame:
        """Send a command and wait for its ACK; raises LinkError on 'err' or silence."""
        seq = self.send(kind, fields)
        end = time.monotonic() + timeout
        kept: list[wire.Frame] = []
        while time.monotonic() < end:
            got = self.poll()
            for i, f in enumerate(got):
                if f[1] == "ACK" and f[2][0] == seq:
                    self.pending = kept + got[i + 1:] + self.pending
                    if f[2][1] != "ok":
                        raise LinkError("%s refused: %s" % (kind, f[2][2]))
                    return f
                kept.append(f)
        self.pending = kept + self.pending
        raise LinkError("no answer to %s within %.1f s" % (kind, timeout))

    def close(self) -> None:
        """Close the underlying stream."""
        close = getattr(self.stream, "close", None)
        if close:
            close()


def ports_found() -> list[str]:
    """Device names of the serial ports pyserial can see (list_ports), sorted."""
    try:
        from serial.tools import list_ports
        return sorted(p.device for p in list_ports.comports())
    except Exception:        # noqa: BLE001 - a listing problem must not stop the caller
        return []


def waiting_text(port: str, error: object, found: Sequence[str]) -> str:
    """'waiting for PORT; ports found: ...' (with the reason when it is not simply absent)."""
    why = ""
    if "ermission denied" in str(error) or getattr(error, "errno", None) == 13:
        why = " (permission denied: on Linux add yourself to the dialout group and log in again)"
    return "waiting for %s%s; ports found: %s" % (port, why, ", ".join(found) if found else "none")


def wait_for_device(port: str, baudrate: int = 115200, log: Callable[[str], object] = print,
                    retry_s: float = 0.5, answer_s: float = 2.0, stop: Optional[Callable[[], object]] = None,
                    opener: Optional[Callable[[], SerialLink]] = None,
                    ports: Callable[[], Sequence[str]] = ports_found) -> Optional[SerialLink]:
    """Open PORT and wait until a device answers on it; return the open SerialLink.

    While the port cannot be opened, says once "waiting for PORT; ports found: ..." and retries
    quietly every retry_s; once it opens, asks for HELLO every answer_s until a frame arrives (and says
    once that the port is open but silent). The device has answered when its HELLO arrives (or, from
    a device that talks without saying HELLO, any frame); that HELLO is dropped, since whoever uses
    the link asks for it again, and every other frame stays queued in order (link.pending).
    Returns None if stop() becomes true first.
    """
    opener = opener or (lambda: SerialLink.open(port, baudrate))
    said: set[str] = set()

    def once(key: str, text: str) -> None:
        if key not in said:
            said.add(key)
            log(text)
    while not (stop and stop()):
        try:
            link = opener()
        except Exception as e:     # noqa: BLE001 - missing device, permission, refused socket ...
            once("open", waiting_text(port, e, ports()))
            time.sleep(retry_s)
            continue
        try:
            while not (stop and stop()):
                link.send("REQ", ["hello"])
                end = time.monotonic() + answer_s
                kept: list[wire.Frame] = []
                while time.monotonic() < end:
                    got = link.poll()
                    kept += [f for f in got if f[1] != "HELLO"]
                    if any(f[1] == "HELLO" for f in got):
                        link.pending = kept     # the user asks for HELLO again; other frames stay in order
                        return link
                    time.sleep(0.01)
                if kept:
                    link.pending = kept
                    return link
                once("silent", "%s is open but no Flagfall device answers (is the firmware running? "
                               "--baud %d?); still asking" % (port, baudrate))
        except Exception:     # noqa: BLE001 - the port went away while we waited
            pass
        try:
            link.close()
        except Exception:     # noqa: BLE001
            pass
        if not (stop and stop()):
            time.sleep(retry_s)
    return None
