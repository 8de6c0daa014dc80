"""Wire codec: framing, checksums, escaping, schema checks, sequence gaps."""
from flagcore import wire
from flagcore.wire import WireError
from mptest import raises


def test_crc16_check_value():
    # the standard check value of CRC-16/CCITT-FALSE
    assert wire.crc16(b"123456789") == 0x29B1


def test_frame_layout():
    b = wire.encode(42, "BTN", [1234, "white"])
    assert b.startswith(b"F1 42 BTN 1234 white*")
    assert b.endswith(b"\n")
    crc = int(b[-5:-1], 16)
    assert crc == wire.crc16(b[:-6])


def test_round_trip_every_kind():
    samples = {
        "HELLO": ["0.1.0", 1, "pico-chess", "chess", 8, 8, "full"],
        "SNAP": [10, 64, wire.hexbits(bytearray([1] * 16 + [0] * 32 + [1] * 16), 64)],
        "SQ": [99, (12, 1), (28, 0)],
        "CLK": [5, 1, 0, 300000, 299000, -1, "5:00 m0 p1", "4:59 m0 p1", "running", "C1|300+3|1|0"],
        "BTN": [7, "black"],
        "FLAG": [8, 1, 7],
        "WARN": ["ghost", "squares 1 2 9 10 ambiguous"],
        "ACK": [3, "err", "time control '5x', column 2: bad"],
        "TC": ["40/5400+30:1800+30"],
        "START": ["white"],
        "PAUSE": [],
        "RESUME": [],
        "ADJ": ["black", -60000],
        "RESTORE": ["C1|-|0|0|0|0|-|0,0,0,0,0,0,0,0|0,0,0,0,0,0,0,0"],
        "REQ": ["snap"],
        "MSG": [5, "100% * ~ done"],
        "LED": [1, -1],
        "EDIT": [9, "time", "white", 61000, 300000, "arbiter"],
        "TIME": ["black", 240000],
        "MOVES": ["white", 40],
        "BONUS": ["+", 5000],
        "RESULT": ["1/2-1/2", "host"],
        "TEST": [1],
    }
    assert sorted(samples) == sorted(wire.SCHEMA)
    seq = 65530
    for kind in sorted(samples):
        b = wire.encode(seq, kind, samples[kind])
        got = wire.decode(b)
        assert got == (seq, kind, samples[kind]), (kind, got)
        seq = (seq + 1) % wire.SEQ_MOD


def test_escape_round_trip_and_ascii_only():
    for s in ("", "a b", "%", "*", "~", "x~y%z*", " lead", "1:29:58 m12 p1"):
        e = wire.escape(s)
        assert " " not in e and "*" not in e and "\n" not in e
        assert wire.unescape(e) == s
    assert wire.escape("M\u00fcller") == "M?ller"
    assert wire.escape("tab\there\n") == "tab?here?"


def test_hexbits_round_trip():
    for n in (1, 7, 8, 9, 32, 50, 64, 100, 196):
        bits = bytearray(n)
        for i in range(0, n, 3):
            bits[i] = 1
        h = wire.hexbits(bits, n)
        assert len(h) == ((n + 7) // 8) * 2
        assert wire.unhexbits(h, n) == bits
    raises(WireError, wire.unhexbits, "00", 9)


def test_checksum_detects_corruption():
    b = bytearray(wire.encode(3, "BTN", [1, "white"]))
    b[10] = ord("X")
    e = raises(WireError, wire.decode, bytes(b))
    assert "checksum" in str(e)


def test_rejections_name_the_problem():
    good = wire.encode(1, "LED", [1, 0])
    cases = [
        (b"", "empty"),
        (good[:-8], "truncated"),
        (b"x" * 300, "exceeds"),
        (b"F1 1 LED 1 0\x00*0000", "printable"),
        (b"F1 1 LED 1*0000", "checksum"),
    ]
    for line, word in cases:
        e = raises(WireError, wire.decode, line)
        assert word in str(e), (line, str(e))
    # a well-checksummed frame that breaks the schema
    def sealed(text):
        body = text.encode()
        return body + ("*%04X" % wire.crc16(body)).encode()
    for text, word in [
        ("F2 1 LED 1 0", "version 2"),
        ("G1 1 LED 1 0", "magic"),
        ("F1 1 NOPE", "unknown frame kind"),
        ("F1 1 LED 1", "needs 2 fields"),
        ("F1 1 LED 1 x", "bad integer"),
        ("F1 70000 LED 1 0", "out of range"),
        ("F1 1 SQ 5 12", "must end in + or -"),
        ("F1 1 SNAP 1 8 0G", "hex digit"), ("F1 1 SNAP 1 8 0a", "hex digit"),
        ("F1 1 MSG 1 a%4", "truncated"),
        ("F1 1 MSG 1 a%01", "not printable"),
        ("F1 1 BTN -1 white", "negative"),
    ]:
        e = raises(WireError, wire.decode, sealed(text))
        assert word in str(e), (text, str(e))


def test_each_end_accepts_only_the_other_ends_kinds():
    b = wire.encode(1, "TC", ["300+3"])
    assert wire.decode(b, wire.HOST_KINDS)[1] == "TC"
    e = raises(WireError, wire.decode, b, wire.DEVICE_KINDS)
    assert "not accepted" in str(e)


def test_encode_refuses_schema_breaks():
    raises(WireError, wire.encode, 1, "LED", [1])
    raises(WireError, wire.encode, 1, "BTN", [-5, "white"])
    raises(WireError, wire.encode, 1, "WHAT", [])
    raises(WireError, wire.encode, 1, "MSG", [1, "x" * 300])


def test_link_splits_stream_and_detects_gap():
    dev = wire.Link(wire.HOST_KINDS)
    host = wire.Link(wire.DEVICE_KINDS)
    frames = [dev.frame("HELLO", ["0.1", 1, "p", "chess", 8, 8, "full"]),
              dev.frame("BTN", [1, "white"]),
              dev.frame("BTN", [2, "black"]),
              dev.frame("BTN", [3, "white"])]
    stream = frames[0] + frames[1] + frames[3]   # frame 2 lost
    got = []
    for i in range(0, len(stream), 7):            # arrives in small pieces
        got.extend(host.feed(stream[i:i + 7]))
    assert [f[0] for f in got] == [0, 1, 3]
    assert host.lost == 1 and host.resync
    assert host.errors == 0


def test_link_survives_garbage_and_oversized_lines():
    host = wire.Link(wire.DEVICE_KINDS)
    dev = wire.Link(wire.HOST_KINDS)
    a = dev.frame("BTN", [1, "white"])
    b = dev.frame("BTN", [2, "black"])
    junk = b"\xff\xfe garbage\n" + b"y" * 1000 + b"\n" + b"\r\n\n"
    got = host.feed(a + junk + b)
    assert [f[2] for f in got] == [[1, "white"], [2, "black"]]
    assert host.errors == 2
    # corrupted frame in the middle: error, then the next frame shows the gap
    host2 = wire.Link(wire.DEVICE_KINDS)
    c = bytearray(dev.frame("BTN", [3, "white"]))
    c[12] ^= 1
    d = dev.frame("BTN", [4, "black"])
    got = host2.feed(a + bytes(c) + d)
    assert len(got) == 2 and host2.errors == 1 and host2.resync


def test_hello_restarts_numbering():
    host = wire.Link(wire.DEVICE_KINDS)
    dev = wire.Link(wire.HOST_KINDS)
    host.feed(dev.frame("BTN", [1, "white"]) + dev.frame("BTN", [2, "white"]))
    dev2 = wire.Link(wire.HOST_KINDS)   # device rebooted: seq starts again at 0
    host.feed(dev2.frame("HELLO", ["0.1", 1, "p", "chess", 8, 8, "full"]) + dev2.frame("BTN", [3, "white"]))
    assert host.lost == 0 and not host.resync


def test_values_outside_a_fields_range_are_rejected():
    # a correct checksum does not make an impossible value possible (issue 13)
    def sealed(kind, fields):
        return wire.encode(5, kind, fields)     # encode checks types only: the device may send anything
    clk = [5, 1, 0, 300000, 299000, -1, "5:00", "4:59", "running", ""]
    for kind, fields, word in [
        ("CLK", clk[:2] + [7] + clk[3:], "CLK field 3: 7 is outside 0..1"),
        ("CLK", clk[:5] + [9] + clk[6:], "CLK field 6: 9 is outside -1..1"),
        ("CLK", clk[:1] + [12] + clk[2:], "CLK field 2"),
        ("FLAG", [8, 9, 7], "FLAG field 2: 9 is outside 0..1"),
        ("HELLO", ["0.1", 1, "p", "chess", 3000, 3000, "full"], "HELLO field 5: 3000 is outside 1..32"),
        ("HELLO", ["0.1", 1, "p", "chess", 8, 8, "round"], "HELLO field 7: 'round' is not one of full/dark"),
        ("SQ", [5, (12, 1), (5000, 0)], "SQ field 3: 5000 is outside"),
        ("ACK", [3, "maybe", ""], "ACK field 2"),
        ("SNAP", [5, 64, "FF"], "SNAP of 64 sensors needs 16 hex digits, got 2"),
    ]:
        line = sealed(kind, fields)
        e = raises(WireError, wire.decode, line, wire.DEVICE_KINDS)
        assert word in str(e), (kind, fields, str(e))
    # host commands are checked by the device itself, which answers ACK err with the reason
    assert wire.decode(sealed("ADJ", ["white", -10 ** 9]), wire.HOST_KINDS)[2] == ["white", -10 ** 9]
    # the edges of each range pass
    assert wire.decode(sealed("CLK", clk[:2] + [1] + clk[3:5] + [1] + clk[6:]))[2][2] == 1
    assert wire.decode(sealed("HELLO", ["0.1", 1, "p", "minzu", 17, 17, "dark"]))[2][4] == 17


def test_link_reports_each_rejected_line():
    host = wire.Link(wire.DEVICE_KINDS)
    seen = []
    host.on_bad = lambda why, line: seen.append((why, line))
    dev = wire.Link(wire.HOST_KINDS)
    bad_clk = dev.frame("CLK", [5, 1, 7, 1, 1, -1, "", "", "", ""])
    host.feed(b"garbage\n" + bad_clk + b"z" * 400 + b"\n" + dev.frame("BTN", [1, "white"]))
    assert len(seen) == 3 and host.errors == 3
    assert "no '*CRC'" in seen[0][0] and bytes(seen[0][1]) == b"garbage"
    assert "CLK field 3" in seen[1][0]
    assert "exceeds 240" in seen[2][0]
    host.feed(b"z" * 400)                # no line end in sight: dropped up to the next one
    assert "oversized" in seen[3][0] and seen[3][1] is None
