"""The settings view: the control, each side's period, moves due and bonus, and the battery, shown
mid-game (mode while the clock runs) without stopping the clock.

Imported while the view shows only (device.unload drops it after), so a game never holds it.
"""

from flagcore import timecontrol as tcm
from flagcore.ticks import ticks_add, ticks_diff

PAGE_MS = 1500         # each page of the 4-digit faces shows this long


def start(app, t):
    """Show the view from tick t on app's faces, one page after the other."""
    app.view = (t, ticks_add(t, PAGE_MS * len(pages(app.clock, _level(app)))))


def faces(app, pct):
    """(white text, black text, lines) of the view now, for App.faces()."""
    p = pages(app.clock, pct)
    k = ticks_diff(app.ticks_ms(), app.view[0]) // PAGE_MS
    w, b = p[k if k < len(p) else len(p) - 1]
    return (w, b, lines(app.clock, pct))


def _level(app):
    return None if app.battery is None else app.battery.pct


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
    kind, ms = clock._bonus(s)     # the bonus the side earns now (the core's own reading)
    return (n + 1, len(tc.periods), due, _bonus_text(kind, ms))


def lines(clock, battery=None):
    """The settings view on a text display: the control, then each side's period ('p1/2'), the moves
    due before the next control ('n12') and the bonus ('+30'), then the battery level if measured."""
    out = [clock.tc.text()]
    for s in (0, 1):
        n, total, due, bonus = settings(clock, s)
        out.append("%s p%d/%d%s %s" % ("WB"[s], n, total, "" if due is None else " n%d" % due, bonus))
    if battery is not None:
        out.append("battery " + ("?" if battery < 0 else "%d%%" % battery))     # -1: the monitor does not answer
    return tuple(out)


def pages(clock, battery=None):
    """The settings view on two 4-digit faces: pages of (white text, black text), shown in turn:
    the period ('P 1'), the moves due before the next control ('n 12', 'n --' when none), the bonus
    ('I 30' increment, 'd  5' delay, 'b  5' Bronstein) and the battery ('BATT', '  85', or '  --' unknown)."""
    w = settings(clock, 0)
    b = settings(clock, 1)
    pages = [("P%3d" % w[0], "P%3d" % b[0]),
             tuple([("n%3s" % ("--" if x[2] is None else x[2] if x[2] < 1000 else 999)) for x in (w, b)]),
             tuple([("I" if x[3][0] == "+" else x[3][0]) + ("%3s" % x[3][1:])[-3:] for x in (w, b)])]
    if battery is not None:
        pages.append(("BATT", "  --" if battery < 0 else "%4d" % battery))     # -1: the monitor does not answer
    return pages
