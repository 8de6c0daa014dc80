"""Display model: what each side's clock face shows, as a pure function of state.

Used by the device (7-segment, OLED) and by the web page, so every face
shows the same thing. Countdown times round up, so 0:00 appears only when
the flag has fallen; tenths appear below 20 seconds. A finished game shows
its result: each face its side's score ("1", "0", "1/2"). When both flags
have fallen each face says which fell first ("F1", "F2"). fit4() and
fit_lines() make a text fit a display (4 digits with a colon, or rows of
characters): the drivers only show the characters they are given.
"""

from flagcore import timecontrol as tcm

TENTHS_BELOW_MS = 20000


def format_ms(ms, countup=False):
    """Clock text for ms: h:mm:ss from an hour, m:ss below, m:ss.t below 20 s."""
    if ms < 0:
        ms = 0
    if ms < TENTHS_BELOW_MS and not countup:
        tenths = (ms + 99) // 100
        return "%d:%02d.%d" % (tenths // 600, (tenths // 10) % 60, tenths % 10)
    secs = ms // 1000 if countup else (ms + 999) // 1000
    h = secs // 3600
    m = (secs // 60) % 60
    s = secs % 60
    if h:
        return "%d:%02d:%02d" % (h, m, s)
    return "%d:%02d" % (m, s)


def score(result, s):
    """Side s's score in a result text ('1-0' -> '1' for side 0), or None."""
    if not result:
        return None
    parts = result.split("-")
    return parts[s] if len(parts) == 2 else None


def side_view(clock, s):
    """What side s's face shows: a dict of time text, flag, moves, period, byo-yomi, score."""
    tc = clock.tcs[s]
    countup = tc.kind == tcm.COUNTUP
    ms = clock.shown_ms(s)
    okind = tc.overtime[0] if tc.kind == tcm.STANDARD else 0
    byo = None
    if clock.overtime[s]:
        if okind == tcm.OVERTIME_BYOYOMI:
            byo = clock.byo[s]
        elif okind == tcm.OVERTIME_CANADIAN:
            byo = tc.overtime[1] - clock.byo[s]  # moves still due in the block
    return {
        "time": format_ms(ms, countup),
        "ms": ms,
        "flag": clock.flags[s] is not None,
        # 1 or 2 once both flags have fallen (which fell first), else 0
        "flag_order": 0 if clock.second_flag() is None else (1 if clock.flag == s else 2),
        "moves": clock.moves[s],
        "period": clock.period[s] + 1,
        "overtime": clock.overtime[s],
        "byo": byo,
        "running": clock.state == 1 and clock.to_move == s,
        "score": score(clock.result, s),   # set once the game is finished
    }


def view(clock):
    """Both faces: (side 0 view, side 1 view)."""
    return (side_view(clock, 0), side_view(clock, 1))


def line(clock, s, v=None):
    """One short text line for a small display, e.g. '1:29:58 m12 p1', '0:25 B3' or '1 0:25 m41'.

    v: side_view(clock, s) when the caller has it already (saves building it again)."""
    if v is None:
        v = side_view(clock, s)
    t = v["time"]
    if v["score"] is not None:
        return "%s %s m%d" % (v["score"], t, v["moves"])
    if v["flag"]:
        t = ("F%d " % v["flag_order"] if v["flag_order"] else "F ") + t
    if v["overtime"]:
        return "%s B%d" % (t, v["byo"] or 0)
    return "%s m%d p%d" % (t, v["moves"], v["period"])


def _right(t):
    t = t[-4:]
    return " " * (4 - len(t)) + t


def _left(t):
    t = t[:4]
    return t + " " * (4 - len(t))


def fit4(text):
    """(four characters, colon lit) for a 4-digit display showing a clock or menu text.

    Clock times keep their colon: "5:00" -> " 500", "1:29:58" -> " 129" (h:mm),
    "0:12.3" -> "123 " (seconds and tenths). Any other text is shown upper-case,
    its first four characters.
    """
    if ":" in text:
        try:
            return _time4(text.strip())
        except ValueError:
            pass  # not a clock time (a message): shown as text
    return _left(text.upper()), False


def _time4(t):
    for ch in t:
        if ch not in "0123456789:.":
            raise ValueError(t)
    if t.count(":") == 2:                     # h:mm:ss -> h:mm (hh:mm from 10 h)
        h, m, _ = t.split(":")
        return _right(h + m), True
    m, rest = t.split(":")
    if "." in rest:                           # 0:12.3 -> 12:3 (seconds and tenths)
        s, d = rest.split(".")
        if m == "0":
            return _left(s + d), True
        return _right(m + s), True
    return _right(m + rest), True              # m:ss or mm:ss


def fit_lines(lines, rows, cols):
    """The lines a text display of rows x cols characters shows: at most rows, each cut to cols."""
    n = len(lines) if len(lines) < rows else rows
    return tuple([lines[i][:cols] for i in range(n)])

