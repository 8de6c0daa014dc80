"""Time-control text: PGN TimeControl grammar and extensions. Runs under MicroPython too."""

from flagcore import timecontrol as tcm
from mptest import raises


def test_pgn_forms():
    t = tcm.parse("40/9000:3600")
    assert t.kind == tcm.STANDARD and t.periods == [(40, 9000000, 0, 0), (0, 3600000, 0, 0)]
    assert tcm.parse("300+3").periods == [(0, 300000, tcm.BONUS_INCREMENT, 3000)]
    assert tcm.parse("4500").periods == [(0, 4500000, 0, 0)]
    h = tcm.parse("*180")
    assert h.kind == tcm.HOURGLASS and h.periods[0][1] == 180000
    assert tcm.parse("-").kind == tcm.COUNTUP


def test_extensions():
    assert tcm.parse("300d5").periods[0][2:] == (tcm.BONUS_DELAY, 5000)
    assert tcm.parse("300b5").periods[0][2:] == (tcm.BONUS_BRONSTEIN, 5000)
    b = tcm.parse("3600:5x30")
    assert b.overtime == (tcm.OVERTIME_BYOYOMI, 5, 30000)
    c = tcm.parse("3600:c25/600")
    assert c.overtime == (tcm.OVERTIME_CANADIAN, 25, 600000)
    assert tcm.parse("0:5x30").periods[0][1] == 0
    assert tcm.parse("2.5+0.25").periods[0] == (0, 2500, tcm.BONUS_INCREMENT, 250)


def test_round_trip_text():
    for s in ("40/9000:16/3600", "40/5400+30:1800+30", "300d5", "3600:5x30",
              "3600:c25/600", "*60", "-", "2.5+0.25", "40/7200:20/3600:1800"):
        assert tcm.parse(s).text() == s


def test_repeating_last_period():
    t = tcm.parse("40/9000:16/3600")
    assert t.period(5) == (16, 3600000, 0, 0)
    assert t.moves_before(3) == 40 + 16 + 16


def test_errors_name_what_and_where():
    cases = [
        ("", 1, "empty"),
        ("40/", 4, "seconds after '/'"),
        ("40/9000:", 9, "moves or seconds"),
        ("300+", 5, "seconds after '+'"),
        ("3600:5y30", 6, "byo-yomi ('5x30')"),
        ("3600:2x30:60", 10, "overtime must be the last"),
        ("3600:1800", 6, "nothing may follow a sudden-death"),
        ("5x30", 1, "main time before it"),
        ("0/300", 1, "at least 1"),
        ("*", 2, "hourglass seconds"),
        ("*60+3", 4, "after hourglass"),
        ("1.2345", 3, "decimals"),
        ("?", 1, "unknown"),
        ("40/9000 16/3600", 8, "':' between periods"),
        ("0", 1, "no time"),
    ]
    for text, col, what in cases:
        e = raises(tcm.TimeControlError, tcm.parse, text)
        assert e.pos + 1 == col, (text, e.pos + 1, str(e))
        assert what in str(e), (text, str(e))
        assert ("column %d" % col) in str(e)


def test_a_control_per_side_trf26_form():
    # FIDE TRF26 tag 222: Armageddon, White 5 minutes, Black 4 -> 'W300-B240'
    t = tcm.parse("W300-B240")
    assert t.kind == tcm.STANDARD and t.sides is not None
    assert t.side(0).periods == [(0, 300000, 0, 0)] and t.side(1).periods == [(0, 240000, 0, 0)]
    assert tcm.parse("300").side(1).periods == [(0, 300000, 0, 0)]   # one control for both
    for s in ("W300-B240", "W300+2-B240+2", "W40/5400+30:1800+30-B40/4800+30:1800+30",
              "W300d5-B240", "W3600:5x30-B3000:c25/600", "W60/300:0+3-B60/240:0+3", " W300-B240 "):
        assert tcm.parse(s).text() == s.strip(), s
    assert tcm.parse("W300-B240") == tcm.parse("W300-B240")
    assert tcm.parse("W300-B240") != tcm.parse("W240-B300")


def test_a_later_period_may_bring_only_a_bonus():
    t = tcm.parse("60/300:0+3")
    assert t.periods == [(60, 300000, 0, 0), (0, 0, tcm.BONUS_INCREMENT, 3000)]
    e = raises(tcm.TimeControlError, tcm.parse, "60/300:0")
    assert "period 2 has no time" in str(e)


def test_per_side_errors_name_the_column():
    cases = [
        ("W300", 5, "'-B'"),
        ("W300-B", 7, "Black's control"),
        ("W-B240", 2, "White's control"),
        ("B240-W300", 1, "starts with White's"),
        ("W300-B*60", 7, "time limit"),
        ("W--B240", 2, "time limit"),
        ("W300-B240+", 11, "seconds after '+'"),
        ("W300;60-B240", 5, "':' between periods"),
        ("W40/5400+30:1800+30-B40/", 25, "seconds after '/'"),
        ("W300:60-B240", 6, "nothing may follow a sudden-death"),
    ]
    for text, col, what in cases:
        e = raises(tcm.TimeControlError, tcm.parse, text)
        assert e.pos + 1 == col and what in str(e), (text, e.pos + 1, str(e))
        assert ("column %d" % col) in str(e) and repr(text) in str(e)
