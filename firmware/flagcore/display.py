"""Display model: what each side's clock face shows, as a pure function of state.

Used by the device (7-segment, OLED) and by the web page, so every face
shows the same thing. Countdown times round up, so 0:00 appears only when
the flag has fallen; tenths appear below 20 seconds. A finished game shows
its result: each face its side's score ("1", "0", "1/2"). When both flags
have fallen each face says which fell first ("F1", "F2"). settings_lines()
and settings_pages() are the mid-game view of the control (the clock keeps
running under it). fit4() and
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


def _bonus_text(kind, ms):
    """'+30', 'd5', 'b5' or '+0' for a bonus kind and ms."""
    return (tcm._BONUS_TEXT.get(kind) or "+") + tcm._secs_text(ms)


def settings(clock, s):
    """Side s's settings mid-game: (period number from 1, periods in the control, moves still due
    before the next control or None, bonus text like '+30' or 'd5')."""
    tc = clock.tcs[s]
    if tc.kind != tcm.STANDARD:
        return (1, 1, None, "+0")
    n = clock.period[s]
    p = tc.period(n)
    due = tc.moves_before(n + 1) - clock.moves[s] if p[0] and not clock.overtime[s] else None
    kind, ms = clock.current_bonus(s)
    return (n + 1, len(tc.periods), due, _bonus_text(kind, ms))


def settings_lines(clock, battery=None):
    """The settings view on a text display: the control, then each side's period ('p1/2'), the moves
    due before the next control ('n12') and the bonus ('+30'), then the battery level if measured."""
    out = [clock.tc.text()]
    for s in (0, 1):
        n, total, due, bonus = settings(clock, s)
        out.append("%s p%d/%d%s %s" % ("WB"[s], n, total, "" if due is None else " n%d" % due, bonus))
    if battery is not None:
        out.append("battery %d%%" % battery)
    return tuple(out)


def settings_pages(clock, battery=None):
    """The settings view on two 4-digit faces: pages of (white text, black text), shown in turn:
    the period ('P 1'), the moves due before the next control ('n 12', 'n --' when none), the bonus
    ('I 30' increment, 'd  5' delay, 'b  5' Bronstein) and the battery ('BATT', ' 85')."""
    w = settings(clock, 0)
    b = settings(clock, 1)
    pages = [("P%3d" % w[0], "P%3d" % b[0]),
             tuple([("n%3s" % ("--" if x[2] is None else x[2] if x[2] < 1000 else 999)) for x in (w, b)]),
             tuple([("I" if x[3][0] == "+" else x[3][0]) + ("%3s" % x[3][1:])[-3:] for x in (w, b)])]
    if battery is not None:
        pages.append(("BATT", "%4d" % battery))
    return pages
