"""Wire codec: the framed, versioned, line-based protocol between device and host.

One frame per line, printable ASCII only:

    F1 <seq> <KIND>[ <field>...]*<crc>\\n

`F1` is the magic letter and the protocol version; <seq> counts 0..65535 per
direction and wraps; <crc> is CRC-16/CCITT-FALSE (four upper-case hex digits)
over every byte before the '*'. Fields are separated by one space; a
field's characters '%', '*', '~' and space are written %XX, an empty field
is '~', and characters outside printable ASCII travel as '?'. A line may
end in \\r\\n. A line longer than MAX_LINE bytes is rejected. The kinds and
their fields are in SCHEMA; the full description is docs/protocol.md.

Both ends use this module: the device decodes with HOST_KINDS accepted, the
host with DEVICE_KINDS. decode() raises WireError for anything malformed,
including a value outside its field's range (flagcore.wirelimits.LIMITS: a side that is not 0 or 1,
a board larger than MAX_DIM, an occupancy that does not match its sensor count);
Link wraps it for streams, counting errors and sequence gaps so a host can
resynchronise from a snapshot, and never raises on bad input.
"""

try:
    from array import array
except ImportError:  # pragma: no cover - every port we target has array
    array = None

VERSION = 1
MAGIC = "F%d" % VERSION
# The revision of version 1's frames this end speaks, carried in HELLO's last field (docs/protocol.md,
# Versioning). 1: before HELLO said it (HELLO of 7 or 9 fields, CLK of 10 or 13); 2: HELLO carries the
# revision, and a receiver ignores the trailing fields it does not know, so a later revision may add
# trailing fields without an older peer refusing its frames.
REVISION = 2
# the oldest peer revision this end can follow: it reads every form in OLDER
MIN_REVISION = 1
MAX_LINE = 240      # bytes, without the line end
SEQ_MOD = 65536

# field types: i signed int, u unsigned int, s text, x hex bytes, c square change
# A trailing '*' repeats the last type zero or more times.
DEVICE_KINDS = {
    "HELLO": "suss" "uus" "ii" "u",  # firmware, protocol, profile, game, rows, cols, layout, battery %, low-battery %,
    #                                  revision (REVISION)
    "SNAP": "uux",           # tick, sensors, occupancy bits
    "SQ": "uc*",             # tick, changes ('12+' down / '12-' up)
    "CLK": "uuuiiissss" "iui",  # tick, state, to_move, white ms, black ms, flag side (-1 none), white text, black text,
    #                             status, clock snapshot, battery % (-1 none), battery low (0/1), second flag (-1 none)
    "BTN": "us",             # tick, button name
    "FLAG": "uuu",           # tick, side, flag tick
    "WARN": "ss",            # code, text
    "ACK": "uss",            # host seq, 'ok' or 'err', text
    "EDIT": "ussiis",        # tick, what (time, moves, bonus, result), side (white, black, both, -), old, new, text
}
HOST_KINDS = {
    "TC": "s",               # time-control text or preset name
    "START": "s",            # side whose clock starts
    "PAUSE": "",
    "RESUME": "",
    "ADJ": "si",             # side, delta ms
    "RESTORE": "s",          # clock snapshot (Clock.snapshot text)
    "REQ": "s",              # 'snap', 'hello' or 'clock'
    "MSG": "us",             # seconds, text
    "LED": "ii",             # white, black: 1 on, 0 off, -1 automatic
    "TIME": "su",            # side, ms: set the time shown (clock stopped)
    "MOVES": "su",           # side, count: set the move counter
    "BONUS": "su",           # '+' increment, 'd' delay or 'b' Bronstein, ms: for both sides from now on
    "RESULT": "ss",          # result ('1-0', '0-1', '1/2-1/2', '0-0', '1/2-0', '0-1/2'; '*' reopens), reason word
    "TEST": "u",             # 1 starts the self-test (clock not running), 0 ends it
}

# Trailing fields added to a kind after version 1 first shipped: the field counts older firmware sends.
# decode() accepts those besides the full schema (the values list is that long), so a host reads old and
# new firmware alike; encode() writes either form. More fields than the schema's are a later revision's:
# decode() drops them. Fewer, in no form listed here, come from a peer older than this end can follow.
OLDER = {"HELLO": (7, 9), "CLK": (10,)}

# The range of every device field (LIMITS, MAX_DIM, ...) is in flagcore.wirelimits: only a host decodes
# device frames, so a device never loads those tables (decode() imports them for a device kind).
# (host frames have no limits here: the device checks each command itself and answers
# ACK err with the reason, which a host waiting for the ACK needs)
SCHEMA = {}
for _k in DEVICE_KINDS:
    SCHEMA[_k] = DEVICE_KINDS[_k]
for _k in HOST_KINDS:
    SCHEMA[_k] = HOST_KINDS[_k]


class WireError(ValueError):
    """A frame that cannot be accepted; the message says why."""


def _crc_table():
    t = array("H", bytes(512)) if array else [0] * 256
    for i in range(256):
        c = i << 8
        for _ in range(8):
            c = ((c << 1) ^ 0x1021) if c & 0x8000 else (c << 1)
        t[i] = c & 0xFFFF
    return t


_TABLE = _crc_table()


def crc16(data, end=None):
    """CRC-16/CCITT-FALSE of data[:end] (bytes)."""
    if end is None:
        end = len(data)
    c = 0xFFFF
    t = _TABLE
    for i in range(end):
        c = ((c << 8) & 0xFF00) ^ t[(c >> 8) ^ data[i]]
    return c


_HEX = "0123456789ABCDEF"


def escape(text):
    """Field text with separators and non-printable characters as %XX ('~' if empty)."""
    if not text:
        return "~"
    for ch in text:     # the usual case, nothing to escape: the text itself, no copy made
        o = ord(ch)
        if o > 0x7D or o < 0x21 or o == 0x25 or o == 0x2A:    # past '}', space and below, '%', '*'
            break
    else:
        return text
    out = []
    for ch in text:
        o = ord(ch)
        if o > 0x7E or o < 0x20:
            out.append("?")  # the wire carries printable ASCII only
        elif o == 0x20 or ch in "%*~":
            out.append("%" + _HEX[o >> 4] + _HEX[o & 15])
        else:
            out.append(ch)
    return "".join(out)


def _hexval(c):
    o = ord(c)
    if 48 <= o <= 57:
        return o - 48
    if 65 <= o <= 70:
        return o - 55
    raise WireError("bad hex digit %r (0-9, A-F)" % c)


def unescape(field):
    """Inverse of escape()."""
    if field == "~":
        return ""
    if "%" not in field:
        return field
    out = []
    i = 0
    n = len(field)
    while i < n:
        ch = field[i]
        if ch == "%":
            if i + 2 >= n:
                raise WireError("truncated %XX escape")
            v = _hexval(field[i + 1]) * 16 + _hexval(field[i + 2])
            if v < 0x20 or v > 0x7E:
                raise WireError("escaped byte 0x%02X is not printable" % v)
            out.append(chr(v))
            i += 3
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def hexbits(bits, n):
    """Occupancy (sequence of 0/1 per sensor) as hex bytes, sensor 0 in bit 0 of byte 0."""
    out = []
    for b in range((n + 7) >> 3):
        v = 0
        for k in range(8):
            i = (b << 3) + k
            if i < n and bits[i]:
                v |= 1 << k
        out.append(_HEX[v >> 4] + _HEX[v & 15])
    return "".join(out)


def unhexbits(text, n):
    """bytearray of n 0/1 values from hexbits() text."""
    if len(text) != ((n + 7) >> 3) * 2:
        raise WireError("occupancy for %d sensors needs %d hex digits, got %d" % (n, ((n + 7) >> 3) * 2, len(text)))
    out = bytearray(n)
    for i in range(n):
        b = i >> 3
        v = _hexval(text[2 * b]) * 16 + _hexval(text[2 * b + 1])
        out[i] = (v >> (i & 7)) & 1
    return out


def _field_text(t, v):
    if t == "s":
        return escape(v if isinstance(v, str) else str(v))
    if t in "iu":
        if not isinstance(v, int):
            raise WireError("field needs an integer, got %r" % (v,))
        if t == "u" and v < 0:
            raise WireError("field needs a non-negative integer, got %d" % v)
        return str(v)
    if t == "x":
        return v
    if t == "c":
        return "%d%s" % (v[0], "+" if v[1] else "-")
    raise WireError("unknown field type %r" % t)


def _types(kind, nfields, decoding=False):
    spec = SCHEMA.get(kind)
    if spec is None:
        raise WireError("unknown frame kind %r" % kind)
    if spec.endswith("*"):
        fixed = spec[:-2]
        rep = spec[-2]
        if nfields < len(fixed):
            raise WireError("%s needs at least %d fields, got %d" % (kind, len(fixed), nfields))
        return fixed + rep * (nfields - len(fixed))
    if nfields != len(spec):
        if nfields in OLDER.get(kind, ()):
            return spec[:nfields]     # an older device's frame, without the trailing fields added since
        if decoding and nfields > len(spec):
            return spec               # a later revision's frame: its trailing fields are not read here
        if decoding:
            raise WireError("%s needs %d fields, got %d: the peer speaks an older protocol revision than this "
                            "end (%d) can follow; update it" % (kind, len(spec), nfields, REVISION))
        raise WireError("%s needs %d fields, got %d" % (kind, len(spec), nfields))
    return spec


def encode(seq, kind, fields=()):
    """One frame as bytes, line end included; raises WireError if it breaks the schema."""
    types = _types(kind, len(fields))
    parts = [MAGIC, str(seq % SEQ_MOD), kind]
    for i in range(len(fields)):
        parts.append(_field_text(types[i], fields[i]))
    body = " ".join(parts).encode()
    if len(body) + 5 > MAX_LINE:
        raise WireError("%s frame of %d bytes exceeds %d" % (kind, len(body) + 5, MAX_LINE))
    return body + ("*%04X\n" % crc16(body)).encode()


def _int(text, what):
    n = len(text)
    if n == 0 or n > 11:
        raise WireError("bad %s %r" % (what, text[:12]))
    i = 1 if text[0] == "-" else 0
    if i == n:
        raise WireError("bad %s %r" % (what, text))
    while i < n:
        o = ord(text[i])
        if o < 48 or o > 57:
            raise WireError("bad %s %r" % (what, text[:12]))
        i += 1
    return int(text)


def _field_value(t, text):
    if t == "s":
        return unescape(text)
    if t == "i":
        return _int(text, "integer")
    if t == "u":
        v = _int(text, "integer")
        if v < 0:
            raise WireError("negative value %d" % v)
        return v
    if t == "x":
        if len(text) & 1:
            raise WireError("odd number of hex digits")
        for ch in text:
            _hexval(ch)
        return text
    if t == "c":
        sign = text[-1:]
        if sign not in ("+", "-"):
            raise WireError("square change %r must end in + or -" % text[:12])
        v = _int(text[:-1], "square")
        if v < 0:
            raise WireError("negative square %d" % v)
        return (v, 1 if sign == "+" else 0)
    raise WireError("unknown field type %r" % t)


def decode(line, accept=None):
    """(seq, kind, values) from one line (bytes, line end optional); raises WireError.

    accept: a dict of the kinds this end may receive (HOST_KINDS on the device,
    DEVICE_KINDS on the host); None accepts both.
    """
    n = len(line)
    if n and line[n - 1] == 10:
        n -= 1
    if n and line[n - 1] == 13:
        n -= 1
    if n == 0:
        raise WireError("empty line")
    if n > MAX_LINE:
        raise WireError("frame of %d bytes exceeds %d" % (n, MAX_LINE))
    for i in range(n):
        b = line[i]
        if b < 0x20 or b > 0x7E:
            raise WireError("byte 0x%02X at column %d is not printable ASCII" % (b, i + 1))
    if n < 6 or line[n - 5] != 0x2A:  # '*'
        raise WireError("no '*CRC' at the end (truncated frame?)")
    text = bytes(line[:n]).decode()
    want = 0
    for ch in text[n - 4:]:
        want = want * 16 + _hexval(ch)
    got = crc16(line, n - 5)
    if got != want:
        raise WireError("checksum mismatch: frame says %04X, computed %04X" % (want, got))
    parts = text[:n - 5].split(" ")
    if len(parts) < 3:
        raise WireError("frame needs version, sequence and kind")
    if parts[0] != MAGIC:
        p = parts[0]
        if len(p) > 1 and p[0] == "F" and p[1:].isdigit():
            raise WireError("unsupported protocol version %s (this end speaks %d)" % (p[1:], VERSION))
        raise WireError("bad magic %r (expected %s)" % (p[:8], MAGIC))
    seq = _int(parts[1], "sequence number")
    if seq < 0 or seq >= SEQ_MOD:
        raise WireError("sequence number %d out of range" % seq)
    kind = parts[2]
    if accept is not None and kind not in accept:
        if kind in SCHEMA:
            raise WireError("frame kind %s is not accepted at this end" % kind)
        raise WireError("unknown frame kind %r" % kind[:12])
    types = _types(kind, len(parts) - 3, True)
    values = []
    for i in range(len(types)):
        values.append(_field_value(types[i], parts[3 + i]))
    check_limits(kind, values)
    return (seq, kind, values)


def check_limits(kind, values):
    """Raise WireError if a field of a decoded device frame is outside its range (flagcore.wirelimits.LIMITS)."""
    if kind in DEVICE_KINDS:
        from flagcore.wirelimits import problem
        why = problem(kind, values)
        if why is not None:
            raise WireError(why)


class Link:
    """One end of the cable: numbers outgoing frames, splits and checks incoming bytes.

    feed(data) returns the good frames as (seq, kind, values). A rejected
    line is counted (`errors`, last reason in `error`) and sets `resync`; a
    sequence gap (a lost frame) adds to `lost` and sets `resync` too. The
    owner clears `resync`, e.g. after asking for a snapshot. After a rejected
    line the next sequence number is taken as is, and a HELLO restarts the
    peer's numbering (a rebooted device). `on_bad`, if set, is called with the
    reason and the line (None for an oversized one) of every rejected line.
    """

    def __init__(self, accept):
        self.accept = accept
        self.tx_seq = 0
        self.rx_expect = -1
        self.buf = bytearray()
        self.skipping = False
        self.errors = 0
        self.error = None
        self.lost = 0
        self.resync = False
        self.on_bad = None        # callable(reason, line bytes or None) for each rejected line

    def frame(self, kind, fields=()):
        """Encode the next outgoing frame (bytes) and advance the sequence number."""
        b = encode(self.tx_seq, kind, fields)
        self.tx_seq = (self.tx_seq + 1) % SEQ_MOD
        return b

    def _bad(self, why, line=None):
        self.errors += 1
        self.error = why
        if self.on_bad is not None:
            self.on_bad(why, line)     # the owner logs it (the host: a log line and the journal)
        self.resync = True
        self.rx_expect = -1  # the bad line may have been a frame: the next one restarts the count

    def feed(self, data):
        """Frames decoded from the next bytes of the stream (possibly none)."""
        out = []
        if not data:
            return out
        self.buf.extend(data)
        while True:
            nl = self.buf.find(b"\n")
            if nl < 0:
                if len(self.buf) > MAX_LINE + 1:
                    if not self.skipping:
                        self._bad("oversized frame (no line end within %d bytes)" % MAX_LINE)
                    self.skipping = True
                    self.buf = bytearray()
                return out
            line = self.buf[:nl]
            self.buf = self.buf[nl + 1:]
            if self.skipping:
                self.skipping = False  # the tail of an oversized line
                continue
            if len(line) == 0 or (len(line) == 1 and line[0] == 13):
                continue  # blank lines are keep-alives
            try:
                f = decode(line, self.accept)
            except WireError as e:
                self._bad(str(e), line)
                continue
            seq = f[0]
            if f[1] == "HELLO" or self.rx_expect < 0:
                pass
            elif seq != self.rx_expect:
                self.lost += (seq - self.rx_expect) % SEQ_MOD
                self.resync = True
            self.rx_expect = (seq + 1) % SEQ_MOD
            out.append(f)
