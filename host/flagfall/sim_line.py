"""The simulated device's serial line: what the firmware application reads and writes (SerialPort),
and where a host connects to it: a TCP port (pyserial URL socket://HOST:PORT) or a pseudo-terminal
(Linux/macOS: /dev/pts/N). flagfall.sim.Simulator opens them (listen_tcp, open_pty).
"""
from __future__ import annotations

import os
import select
import socket
import threading
import time
from typing import Callable, Optional

Log = Callable[[str], object]
"""Where the simulator's messages go (one line of text each)."""


class SerialPort:
    """The device's serial line as App sees it (read() -> bytes or None, write(b)), fed by endpoints."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.inbuf = bytearray()
        self.sinks: list[Callable[[bytes], None]] = []    # of the connected hosts
        self.tx = 0
        self.rx = 0

    def read(self) -> Optional[bytes]:
        """Bytes from the host since the last call, or None."""
        with self.lock:
            if not self.inbuf:
                return None
            data = bytes(self.inbuf)
            self.inbuf.clear()
        return data

    def write(self, data: bytes) -> None:
        """Bytes to the host (dropped when no host is connected, as on a serial line)."""
        self.tx += len(data)
        for sink in list(self.sinks):
            sink(data)

    def feed(self, data: bytes) -> None:
        """Bytes arriving from a host."""
        self.rx += len(data)
        with self.lock:
            self.inbuf.extend(data)
            if len(self.inbuf) > 1 << 20:     # a host flooding the line: keep the newest
                del self.inbuf[:-4096]


class TcpEndpoint:
    """The serial line on a TCP port: one host at a time (a newer connection replaces the old)."""

    def __init__(self, port: SerialPort, host: str = "127.0.0.1", tcp_port: int = 7777,
                 log: Optional[Log] = None) -> None:
        self.port = port
        self.log: Log = log or (lambda text: None)
        self.server = socket.create_server((host, tcp_port), reuse_port=False)
        self.address: tuple[str, int] = self.server.getsockname()[:2]
        self.client: Optional[socket.socket] = None
        self.closed = False
        self.lock = threading.Lock()
        port.sinks.append(self._send)
        threading.Thread(target=self._accept, name="sim-tcp", daemon=True).start()

    def url(self) -> str:
        """The pyserial URL of this endpoint."""
        return "socket://%s:%d" % self.address

    def _accept(self) -> None:
        while not self.closed:
            try:
                conn, addr = self.server.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self.lock:
                old, self.client = self.client, conn
            if old is not None:
                _close(old)
            self.log("sim: host connected from %s:%d" % addr)
            threading.Thread(target=self._read, args=(conn,), name="sim-tcp-read", daemon=True).start()

    def _read(self, conn: socket.socket) -> None:
        while not self.closed:
            try:
                data = conn.recv(4096)
            except OSError:
                data = b""
            if not data:
                break
            self.port.feed(data)
        with self.lock:
            if self.client is conn:
                self.client = None
        _close(conn)
        if not self.closed:
            self.log("sim: host disconnected")

    def _send(self, data: bytes) -> None:
        c = self.client
        if c is None:
            return
        try:
            c.sendall(data)
        except OSError:
            with self.lock:
                if self.client is c:
                    self.client = None
            _close(c)

    def disconnect(self) -> None:
        """Drop the current host (a cable pulled)."""
        with self.lock:
            c, self.client = self.client, None
        if c is not None:
            _close(c)

    def close(self) -> None:
        """Stop listening and drop the host."""
        self.closed = True
        self.disconnect()
        _close(self.server)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass


class PtyEndpoint:
    """The serial line on a pseudo-terminal (Linux/macOS): the host opens `path` as a serial port."""

    def __init__(self, port: SerialPort) -> None:
        import tty
        self.port = port
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        tty.setraw(self.master)
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.closed = False
        port.sinks.append(self._send)
        threading.Thread(target=self._read, name="sim-pty-read", daemon=True).start()

    def _read(self) -> None:
        while not self.closed:
            try:
                r, _, _ = select.select([self.master], [], [], 0.2)
                if r:
                    data = os.read(self.master, 4096)
                    if data:
                        self.port.feed(data)
            except (OSError, ValueError):
                time.sleep(0.05)

    def _send(self, data: bytes) -> None:
        try:
            os.write(self.master, data)
        except (BlockingIOError, OSError):
            pass        # nobody reading the terminal: the line drops bytes, as a real one would

    def close(self) -> None:
        """Close both ends."""
        self.closed = True
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass
