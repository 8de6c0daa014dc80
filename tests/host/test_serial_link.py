"""SerialLink against the real device app (fake backend) and over pyserial's loop:// URL."""
import json
import os

import pytest

from device.app import App
from device.fake.fakehw import FakeHAL, FakeStream
from flagcore import wire
from flagfall.serial_link import LinkError, SerialLink

from repo import ROOT


class Cable:
    """A pyserial-like stream whose far end is the device app; each read runs one loop pass."""

    def __init__(self, name="pico-chess", corrupt=None):
        with open(os.path.join(ROOT, "boards", name + ".json")) as f:
            self.p = json.load(f)
        self.hal = FakeHAL(now=100)
        self.board = self.hal.attach_profile(self.p)
        self.dev = FakeStream()
        self.app = App(self.p, self.hal, self.dev)
        self.corrupt = corrupt

    def write(self, b):
        self.dev.inbox.extend(b)

    def read(self, n):
        self.hal.advance(10)
        self.app.step()
        b = self.dev.take()
        if self.corrupt and self.corrupt in b:
            b = b.replace(self.corrupt, self.corrupt[:-1] + b"?", 1)
        return b


def test_request_gets_the_ack_and_keeps_other_frames():
    link = SerialLink(Cable())
    ack = link.request("TC", ["fide-blitz"])
    assert ack[1] == "ACK" and ack[2][1] == "ok"
    kinds = [f[1] for f in link.poll()]
    assert kinds[:3] == ["HELLO", "SNAP", "CLK"] and "CLK" in kinds[3:]
    with pytest.raises(LinkError, match="refused"):
        link.request("ADJ", ["white", -10 ** 9])


def test_a_corrupted_frame_triggers_a_snapshot_request():
    cable = Cable(corrupt=b" SQ ")
    link = SerialLink(cable)
    link.poll()
    cable.board.place(5)
    got = []
    for _ in range(10):
        got.extend(link.poll())
    assert link.link.errors == 1 and link.resyncs == 1
    snaps = [f for f in got if f[1] == "SNAP"]
    assert snaps and wire.unhexbits(snaps[-1][2][2], 64)[5] == 1   # the board is rebuilt from the device


def test_over_a_pyserial_url():
    link = SerialLink.open("loop://")
    dev = wire.Link(wire.HOST_KINDS)
    link.stream.write(dev.frame("BTN", [5, "white"]))
    assert link.poll() == [(0, "BTN", [5, "white"])]
    with pytest.raises(LinkError, match="no answer"):
        link.request("PAUSE", timeout=0.1)   # loop:// echoes our own frame back: not an answer
    link.close()


def test_app_over_a_socket():
    import socket
    from device.stdio import SocketStream
    a, b = socket.socketpair()
    cable = Cable()
    cable.app.stream = SocketStream(a)     # the device end of the socket
    cable.app.send_hello()

    class SockRead:
        def __init__(self, s):
            self.s = s
            s.settimeout(0.05)

        def read(self, n):
            cable.hal.advance(10)
            cable.app.step()
            try:
                return self.s.recv(n)
            except socket.timeout:
                return b""

        def write(self, data):
            self.s.sendall(data)

    link = SerialLink(SockRead(b))
    ack = link.request("TC", ["300+5"], timeout=5)
    assert ack[2][1] == "ok"
    got = link.poll() + link.poll()
    assert any(f[1] == "CLK" and f[2][3] == 300000 for f in got)
    assert [f[1] for f in got][0] == "HELLO"
    a.close()
    b.close()
