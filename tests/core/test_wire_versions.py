"""Mixed versions in one hall (docs/protocol.md, Versioning): a device and a host of different protocol
revisions. An older device's frames against today's host, today's device against a host that knows only
the older frames, and frames of a later revision (more trailing fields) at both ends. Runs under pytest and
inside MicroPython (the wire codec is the device's too)."""
from device.app import App
from device.fake.fakehw import FakeHAL, FakeStream
from flagcore import wire
from mptest import raises
from test_app import profile

# what a revision-1 device sent (firmware 0.1, before the battery fields): HELLO of 7 fields, CLK of 10
OLD_DEVICE = [
    ("HELLO", ["0.1", 1, "pico-chess", "chess", 8, 8, "full"]),
    ("SNAP", [5, 64, "FFFF00000000FFFF"]),
    ("CLK", [6, 1, 0, 299000, 300000, -1, "4:59", "5:00", "running", "C1 300+0"]),
    ("SQ", [7, (12, 0)]),
    ("BTN", [8, "white"]),
]


def test_an_older_devices_frames_are_read_by_todays_host():
    dev = wire.Link(wire.HOST_KINDS)
    host = wire.Link(wire.DEVICE_KINDS)
    data = b"".join(dev.frame(k, f) for k, f in OLD_DEVICE)
    got = host.feed(data)
    assert host.errors == 0
    assert [(k, v) for _, k, v in got] == [(k, f) for k, f in OLD_DEVICE]
    # the host sees revision 1 (no revision field) and that it can follow it
    hello = got[0][2]
    assert len(hello) == 7 and wire.MIN_REVISION <= 1


def _older_host_schema():
    """The device kinds as a revision-1 host knows them: HELLO without the battery and revision, CLK of 10."""
    old = dict(wire.DEVICE_KINDS)
    old["HELLO"] = wire.DEVICE_KINDS["HELLO"][:7]
    old["CLK"] = wire.DEVICE_KINDS["CLK"][:10]
    return old


def test_todays_device_is_followed_by_a_host_that_knows_only_the_older_frames():
    # today's app on the fake backend, boot and a move; its frames decoded with the older schema: every
    # frame is read, the fields that host does not know are dropped, none is refused
    p = profile("pico-chess")
    hal = FakeHAL(now=1000)
    board = hal.attach_profile(p)
    for i in list(range(16)) + list(range(48, 64)):
        board.place(i)
    st = FakeStream()
    app = App(p, hal, st)
    new_host = wire.Link(wire.DEVICE_KINDS)
    st.inbox.extend(new_host.frame("TC", ["300"]))
    st.inbox.extend(new_host.frame("START", ["white"]))
    for _ in range(150):
        hal.advance(10)
        app.step()
    out = st.take()
    today = new_host.feed(out)
    assert new_host.errors == 0 and today[0][1] == "HELLO" and today[0][2][-1] == wire.REVISION
    saved = (dict(wire.SCHEMA), dict(wire.DEVICE_KINDS))
    try:
        wire.SCHEMA.update(_older_host_schema())
        wire.DEVICE_KINDS.update(_older_host_schema())
        old_host = wire.Link(wire.DEVICE_KINDS)
        got = old_host.feed(out)
    finally:
        wire.SCHEMA.update(saved[0])
        wire.DEVICE_KINDS.update(saved[1])
    assert old_host.errors == 0
    assert [k for _, k, _ in got] == [k for _, k, _ in today]
    assert len(got[0][2]) == 7 and got[0][2] == today[0][2][:7]
    clk = [v for _, k, v in got if k == "CLK"]
    assert clk and all(len(v) == 10 for v in clk)


def _device_given(body):
    """Today's device (esp32-chess) handed one host frame: (the app, the frames it answered with)."""
    p = profile("esp32-chess")
    hal = FakeHAL(now=1000)
    hal.attach_profile(p)
    st = FakeStream()
    app = App(p, hal, st)
    dev_side = wire.Link(wire.DEVICE_KINDS)
    dev_side.feed(st.take())
    st.inbox.extend(body + ("*%04X\n" % wire.crc16(body)).encode())
    hal.advance(10)
    app.step()
    return app, dev_side.feed(st.take())


def test_a_later_revisions_trailing_fields_are_ignored_at_both_ends():
    # a device of a later revision adds a field to HELLO and CLK: today's host reads what it knows
    host = wire.Link(wire.DEVICE_KINDS)
    hello = ["0.9", 1, "pico-chess", "chess", 8, 8, "full", 80, 25, wire.REVISION + 1]
    clk = [6, 1, 0, 299000, 300000, -1, "4:59", "5:00", "running", "C1 300+0", 80, 0, -1]
    lines = []
    for seq, (kind, fields) in enumerate((("HELLO", hello), ("CLK", clk))):
        body = wire.encode(seq, kind, fields)[:-6] + b" extra"      # the frame less '*CRC\n', one more field
        lines.append(body + ("*%04X\n" % wire.crc16(body)).encode())
    got = [wire.decode(x, wire.DEVICE_KINDS) for x in lines]
    assert got[0][2] == hello and got[1][2] == clk
    assert host.feed(b"".join(lines)) and host.errors == 0
    # a host of a later revision adds a field to a command: today's device carries it out
    app, frames = _device_given(b"F1 0 TC 600+5 later")
    acks = [v for _, k, v in frames if k == "ACK"]
    assert acks and acks[0][1] == "ok", acks
    assert app.clock.tc.text() == "600+5"


def test_a_peer_too_old_to_follow_is_named_as_such():
    # a frame with fewer fields than any form this end knows: the error says the peer is too old
    body = b"F1 3 CLK 6 1 0 299000 300000 -1 4:59 5:00"
    line = body + ("*%04X" % wire.crc16(body)).encode()
    e = raises(wire.WireError, wire.decode, line, wire.DEVICE_KINDS)
    assert "older protocol revision" in str(e) and "update it" in str(e), str(e)
    # the same on the device: a host command short of its fields is refused with that reason
    _, frames = _device_given(b"F1 0 TIME white")
    warns = [v for _, k, v in frames if k == "WARN"]
    assert any(w[0] == "bad-frame" and "older protocol revision" in w[1] for w in warns), warns
