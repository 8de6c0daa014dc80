"""Device entry point: load the board profile, build the hardware backend, run the app.

On a microcontroller `flagfall deploy` puts the profile at /board.json and
this file at /main.py, so the clock starts at power-up; the host talks to
it over the USB serial port (docs/protocol.md). Ctrl-C still reaches the
REPL, which is how mpremote takes over for the next deploy.

On a Raspberry Pi with Blinka (or anywhere, with the fake backend):
    python3 firmware/main.py --profile boards/rpi-chess.json [--backend fake] [--connect HOST:PORT]
(--connect: talk to a bridge over TCP instead of stdin/stdout).
"""

import json
import sys


def load_profile(path=None):
    """The board profile: the given path, else /board.json or board.json."""
    for p in (path, "/board.json", "board.json"):
        if not p:
            continue
        try:
            with open(p) as f:
                return json.load(f)
        except OSError:
            pass
    raise OSError("no board profile: deploy one as /board.json or pass --profile")


def main(argv=(), stream=None, steps=None):
    """Run the app for a profile; argv as on the command line (CPython only).

    stream and steps are for tests: a stream instead of stdin/stdout or
    --connect, and a number of loop passes instead of running forever.
    """
    path = None
    backend = None
    connect = None
    argv = list(argv)
    while argv:
        a = argv.pop(0)
        if a == "--profile" and argv:
            path = argv.pop(0)
        elif a == "--backend" and argv:
            backend = argv.pop(0)
        elif a == "--connect" and argv:
            connect = argv.pop(0)
    if sys.implementation.name != "micropython":
        import os
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    profile = load_profile(path)
    from device import hal
    from device.app import App
    from device import stdio
    h = hal.build(backend or profile.get("backend", "machine"))
    if h.name == "fake":
        from flagcore.ticks import ticks_ms
        h.time_source = ticks_ms
        h.attach_profile(profile)
    if stream is None and connect:
        import socket
        host, port = connect.rsplit(":", 1)
        s = socket.socket()
        s.connect(socket.getaddrinfo(host, int(port))[0][-1])
        stream = stdio.SocketStream(s)
    elif stream is None:
        stream = stdio.StdioStream()
    App(profile, h, stream).run(steps=steps)


if __name__ == "__main__":
    main(sys.argv[1:])
