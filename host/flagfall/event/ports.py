"""Which device is at which board: the serial ports found, their hello, and the boards map file.

`flagfall ports` lists the serial ports with a Flagfall device (its HELLO:
profile, game, firmware); `flagfall event --boards auto` takes them in port
order, `--boards FILE` maps board numbers to ports or USB serial numbers:

    # board  port or USB serial number
    1        /dev/ttyACM0
    2        E6614C311B7A2B2F
    3        socket://192.168.1.40:7777
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Device:
    """A serial port and, if a Flagfall device answered on it, its hello."""

    port: str
    serial_number: Optional[str]
    description: str
    hello: Optional[dict[str, object]] = None

    def line(self) -> str:
        """One line for `flagfall ports`."""
        h = self.hello
        who = ("%s, %s, firmware %s" % (h["profile"], h["game"], h["firmware"])) if h else "no Flagfall device answered"
        sn = " [%s]" % self.serial_number if self.serial_number else ""
        return "%s%s: %s (%s)" % (self.port, sn, who, self.description)


def ask_hello(port: str, timeout_s: float = 1.5) -> Optional[dict[str, object]]:
    """The device's HELLO on a port (REQ hello), or None if nothing Flagfall answers in time."""
    from flagfall.serial_link import SerialLink
    try:
        link = SerialLink.open(port, timeout=0.05)
    except Exception:      # noqa: BLE001 - a busy or vanished port raises many kinds
        return None
    try:
        link.send("REQ", ["hello"])
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            for _, kind, values in link.poll():
                if kind == "HELLO":
                    fw, proto, profile, game, rows, cols, layout = values[:7]
                    return {"firmware": fw, "protocol": proto, "profile": profile, "game": game,
                            "rows": rows, "cols": cols, "layout": layout}
        return None
    except Exception:      # noqa: BLE001
        return None
    finally:
        link.close()


def find_devices(with_hello: bool = True) -> list[Device]:
    """Every serial port pyserial lists, in port order, each with the hello of its device if any."""
    from serial.tools import list_ports
    out = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        hello = ask_hello(p.device) if with_hello else None
        out.append(Device(p.device, p.serial_number, p.description or "", hello))
    return out


def read_boards_map(path: str) -> dict[int, str]:
    """{board: port} from a boards map file (see the module docstring); USB serial numbers are
    looked up among the ports found. ValueError naming the file and line for anything wrong."""
    found: Optional[list[Device]] = None
    out: dict[int, str] = {}
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.replace(",", " ").replace(";", " ").split()
            if len(parts) != 2 or not parts[0].isdigit():
                raise ValueError("%s:%d: expected 'BOARD PORT' (e.g. '1 /dev/ttyACM0'), got %r" % (path, n, raw.strip()))
            board, where = int(parts[0]), parts[1]
            if board in out:
                raise ValueError("%s:%d: board %d is mapped twice" % (path, n, board))
            if "/" in where or "://" in where or where.upper().startswith("COM"):
                out[board] = where
                continue
            if found is None:
                found = find_devices(with_hello=False)
            match = [d.port for d in found if d.serial_number == where]
            if not match:
                raise ValueError("%s:%d: no serial port has the USB serial number %s (ports: %s)" % (
                    path, n, where, ", ".join("%s [%s]" % (d.port, d.serial_number) for d in found) or "none"))
            out[board] = match[0]
    return out
