"""Fuzz: random and mutated frames at both ends' parsers (>= 100,000 frames).

Every input must either decode to a frame that re-encodes to the same bytes
or be rejected with WireError; nothing else may escape, and the stream
parsers (Link) must keep going and still decode the good frames after junk.
"""
import random
import string

from flagcore import wire, wirelimits
from flagcore.wire import WireError

PRINTABLE = "".join(chr(c) for c in range(0x20, 0x7F))


def rand_text(r, maxlen=20):
    return "".join(r.choice(PRINTABLE) for _ in range(r.randrange(maxlen)))


def rand_field(r, t, lim=None):
    if lim is not None:
        if isinstance(lim, int):
            return rand_text(r, min(20, lim + 1))
        if isinstance(lim[0], str):
            return r.choice(lim)
        if t == "c":
            return (r.randint(lim[0], min(lim[1], 195)), r.randrange(2))
        return r.randint(lim[0], lim[1])
    if t == "i":
        return r.randint(-10 ** 9, 10 ** 9)
    if t == "u":
        return r.randint(0, 10 ** 9)
    if t == "s":
        return rand_text(r)
    if t == "x":
        n = r.randrange(1, 200)
        return wire.hexbits([r.randrange(2) for _ in range(n)], n)
    if t == "c":
        return (r.randrange(196), r.randrange(2))
    raise AssertionError(t)


def rand_frame(r, kinds):
    kind = r.choice(sorted(kinds))
    spec = kinds[kind]
    if spec.endswith("*"):
        spec = spec[:-2] + spec[-2] * (1 + r.randrange(6))
    lims = wirelimits.LIMITS.get(kind) or (None,)     # values inside each field's range (the last repeats)
    fields = [rand_field(r, t, lims[min(i, len(lims) - 1)]) for i, t in enumerate(spec)]
    if kind == "SNAP":          # the occupancy's length follows the sensor count
        fields[1] = r.randrange(200)
        fields[2] = wire.hexbits([r.randrange(2) for _ in range(fields[1])], fields[1])
    return kind, fields, wire.encode(r.randrange(wire.SEQ_MOD), kind, fields)


def mutate(r, b):
    b = bytearray(b)
    op = r.randrange(8)
    if op == 0 and b:
        i = r.randrange(len(b))
        b[i] ^= 1 << r.randrange(8)
    elif op == 1:
        b = b[:r.randrange(len(b) + 1)]
    elif op == 2:
        i = r.randrange(len(b) + 1)
        b[i:i] = bytes(r.randrange(256) for _ in range(r.randrange(1, 4)))
    elif op == 3 and len(b) > 2:
        i = r.randrange(len(b) - 1)
        del b[i:i + r.randrange(1, 4)]
    elif op == 4:
        b = b[:-1] * r.randrange(2, 5)          # oversized repeat
    elif op == 5:
        b = bytearray(r.randrange(256) for _ in range(r.randrange(300)))
    elif op == 6 and b:
        i = r.randrange(len(b))
        b[i] = ord(r.choice(" *%~F1-+0"))
    else:
        i = r.randrange(len(b) + 1)
        b[i:i] = b"\n"
    return bytes(b)


def check_one(line, accept):
    try:
        seq, kind, values = wire.decode(line, accept)
    except WireError:
        return False
    assert kind in accept
    # anything accepted must be exactly what an encoder would have sent
    assert wire.encode(seq, kind, values) == line.rstrip(b"\r\n") + b"\n"
    return True


def test_fuzz_both_parsers_100k():
    r = random.Random(20261121)
    ends = (wire.HOST_KINDS, wire.DEVICE_KINDS)
    total = 0
    accepted_mutants = 0
    for i in range(34000):
        accept = ends[i & 1]
        other = ends[1 - (i & 1)]
        kind, fields, good = rand_frame(r, accept)
        assert wire.decode(good, accept) == (wire.decode(good)[0], kind, fields)
        # a frame meant for the other end is refused here
        assert not check_one(rand_frame(r, other)[2], accept)
        bad = mutate(r, good)
        if check_one(bad, accept) and bad.rstrip(b"\r\n") != good.rstrip(b"\n"):
            accepted_mutants += 1
        total += 3
    assert total >= 100000
    # CRC-16 lets through about 1 in 65536 corruptions, never more than a few here
    assert accepted_mutants <= 3


def test_fuzz_streams_keep_decoding():
    r = random.Random(7)
    for accept in (wire.HOST_KINDS, wire.DEVICE_KINDS):
        link = wire.Link(accept)
        sent = []
        stream = bytearray()
        for i in range(3000):
            kind, fields, good = rand_frame(r, accept)
            if r.random() < 0.3:
                stream += mutate(r, good) + b"\n"
            else:
                stream += good
                sent.append((kind, fields))
        got = []
        i = 0
        while i < len(stream):
            n = r.randrange(1, 300)
            got.extend(link.feed(bytes(stream[i:i + n])))
            i += n
        got.extend(link.feed(b"\n"))
        good_got = [(k, v) for _, k, v in got]
        # every intact frame sent is received (a junk line may swallow at most
        # the frame glued to it when a mutation removed its line end)
        missing = [f for f in sent if f not in good_got]
        assert len(missing) <= len(sent) // 20
        assert link.errors > 0


def test_protocol_doc_lists_every_kind_and_its_example_decodes():
    import os
    from repo import ROOT
    with open(os.path.join(ROOT, "docs", "protocol.md")) as f:
        doc = f.read()
    for kind in wire.SCHEMA:
        assert "| `%s` |" % kind in doc, kind
    example = [ln.strip() for ln in doc.splitlines() if ln.startswith("    F1 ") and "<" not in ln][0]
    assert wire.decode(example.encode()) == (7, "SQ", [120340, (52, 0), (36, 1)])
