"""The device app under a hostile host: well-framed commands with random and
mutated contents, and raw junk on the line. The loop must never raise, every
framed command must get exactly one ACK, and the clock must stay consistent."""
import json
import os
import random

from device.app import App
from device.fake.fakehw import FakeHAL, FakeStream
from flagcore import wire

from repo import ROOT


def test_random_host_commands_never_break_the_loop():
    with open(os.path.join(ROOT, "boards", "pico-chess.json")) as f:
        p = json.load(f)
    r = random.Random(6)
    hal = FakeHAL(now=5)
    hal.attach_profile(p)
    st = FakeStream()
    app = App(p, hal, st)
    host = wire.Link(wire.DEVICE_KINDS)
    snap = app.clock.snapshot()
    words = ["white", "black", "w", "b", "0", "1", "2", "snap", "hello", "clock", "fide-blitz",
             "300+3", "5x", "*0", "-", "?", "10", "40/9000:16/3600", "3600:5x30"]

    def text():
        c = r.random()
        if c < 0.3:
            s = list(snap)
            for _ in range(r.randrange(1, 4)):
                s[r.randrange(len(s))] = r.choice("0123456789|,@-x")
            return "".join(s)
        if c < 0.6:
            return r.choice(words)
        return "".join(r.choice("0123456789/:+-x*dcb. ") for _ in range(r.randrange(12)))

    sent = 0
    acks = 0
    for i in range(4000):
        kind = r.choice(sorted(wire.HOST_KINDS))
        fields = [text() if t == "s" else r.randint(-10 ** 7, 10 ** 7) if t == "i" else r.randint(0, 100)
                  for t in wire.HOST_KINDS[kind]]
        st.inbox.extend(host.frame(kind, fields))
        sent += 1
        if r.random() < 0.05:
            st.inbox.extend(bytes(r.randrange(256) for _ in range(r.randrange(1, 80))) + b"\n")
        hal.advance(r.randrange(0, 3000))
        app.step()
        for f in host.feed(st.take()):
            if f[1] == "ACK":
                acks += 1
        c = app.clock
        for s in (0, 1):
            assert c.allotted[s] == c.used[s] + c.remaining[s] or c.tc.kind == 0
    # junk lines can swallow the frame glued after them only if they lack a line end: they all end in \n
    assert acks == sent
    assert host.errors == 0
    assert app.link.errors > 0
