"""The range of every field of the device's frames, checked by flagcore.wire.decode on the host.

A module of its own because only a host decodes device frames: a device (which
receives the host's frames, whose commands it checks itself and answers with
ACK err) never imports it, so these tables stay out of its heap. wire.decode
imports it when it meets a device kind (wire.check_limits).

LIMITS, in wire.DEVICE_KINDS field order: (lo, hi) for an integer (inclusive), a
tuple of words or a maximum length for text, None for no limit beyond the type.
A repeated field's limit applies to each repetition ('c': the square index). A
kind without an entry has no limits beyond its types.
"""

MAX_DIM = 32                    # sensor rows or columns (minzu's star board needs 17)
MAX_SENSORS = MAX_DIM * MAX_DIM
MAX_MS = 2147483647             # clock times: about 24 days either way
LIMITS = {
    "HELLO": (32, (1, 99), 32, 16, (1, MAX_DIM), (1, MAX_DIM), ("full", "dark"), (-1, 100), (-1, 100), (1, 999)),
    "SNAP": (None, (0, MAX_SENSORS), None),
    "SQ": (None, (0, MAX_SENSORS - 1)),
    "CLK": (None, (0, 5), (0, 1), (-MAX_MS, MAX_MS), (-MAX_MS, MAX_MS), (-1, 1), 40, 40, 16, None,
            (-1, 100), (0, 1), (-1, 1)),
    "EDIT": (None, ("time", "moves", "bonus", "result"), ("white", "black", "both", "-"),
             (-MAX_MS, MAX_MS), (-MAX_MS, MAX_MS), 16),
    "BTN": (None, 16),
    "FLAG": (None, (0, 1), None),
    "WARN": (16, None),
    "ACK": ((0, 65535), ("ok", "err"), None),
}


def problem(kind, values):
    """Why a decoded frame's field is outside its range (LIMITS), or None when every field is inside."""
    lim = LIMITS.get(kind)
    if lim is None:
        return None
    last = len(lim) - 1
    for i in range(len(values)):
        r = lim[i if i < last else last]
        if r is None:
            continue
        v = values[i]
        if isinstance(v, tuple):
            v = v[0]          # a square change: its index
        if isinstance(r, int):
            if len(v) > r:
                return "%s field %d: text of %d characters, at most %d" % (kind, i + 1, len(v), r)
        elif isinstance(r[0], str):
            if v not in r:
                return "%s field %d: %r is not one of %s" % (kind, i + 1, v[:16], "/".join(r))
        elif v < r[0] or v > r[1]:
            return "%s field %d: %d is outside %d..%d" % (kind, i + 1, v, r[0], r[1])
    if kind == "SNAP" and len(values[2]) != ((values[1] + 7) >> 3) * 2:
        return "SNAP of %d sensors needs %d hex digits, got %d" % (
            values[1], ((values[1] + 7) >> 3) * 2, len(values[2]))
    return None
