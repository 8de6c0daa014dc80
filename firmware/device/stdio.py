"""The serial link to the host as a non-blocking stream over stdin/stdout.

On MicroPython this is the USB serial port (the REPL's), polled with
select so the loop never waits. On CPython (a Raspberry Pi running the app
under Blinka) it is the process's stdin/stdout, e.g. a pipe to the bridge.
read() returns the bytes waiting (or None); write(b) sends a frame.
"""

import sys

try:
    import select
except ImportError:  # pragma: no cover
    select = None


class StdioStream:
    """stdin/stdout as the app's stream."""

    def __init__(self, chunk=128):
        self.chunk = chunk
        self.inp = getattr(sys.stdin, "buffer", sys.stdin)
        self.out = getattr(sys.stdout, "buffer", sys.stdout)
        self.poll = None
        self.fd = None
        if sys.implementation.name == "micropython":
            self.poll = select.poll()
            self.poll.register(sys.stdin, select.POLLIN)
        else:
            self.fd = sys.stdin.fileno()

    def read(self):
        """Bytes available now, without waiting (None if there are none)."""
        if self.poll is not None:
            got = bytearray()
            while len(got) < self.chunk and self.poll.poll(0):
                b = self.inp.read(1)
                if not b:
                    break
                got.extend(b)
            return bytes(got) if got else None
        import os
        r, _, _ = select.select([self.fd], [], [], 0)
        if not r:
            return None
        return os.read(self.fd, self.chunk) or None

    def write(self, b):
        """Send bytes to the host."""
        self.out.write(b)
        if hasattr(self.out, "flush"):
            self.out.flush()


class SocketStream:
    """A connected socket as the app's stream (the simulator, or a Pi talking to a bridge over the network)."""

    def __init__(self, sock, chunk=512):
        self.sock = sock
        self.chunk = chunk
        sock.setblocking(False)

    def read(self):
        """Bytes available now, without waiting (None if there are none)."""
        try:
            b = self.sock.recv(self.chunk)
        except OSError:  # nothing waiting (EAGAIN)
            return None
        return b or None

    def write(self, b):
        """Send bytes to the host (waits while the socket's buffer is full)."""
        view = memoryview(b)
        while len(view):
            try:
                n = self.sock.send(view)
            except OSError:
                n = 0
            view = view[n:]
