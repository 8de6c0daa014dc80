"""Unknown is unknown: a clock nothing told is recorded and published as not known, never as 0:00."""
from flagfall import live
from flagfall.broadcast import feeds
from test_event_runner import event


def test_moves_entered_on_a_board_with_no_device_carry_no_clock(tmp_path):
    ev = event(tmp_path)
    try:
        eng = ev.board(2).engine          # no device has ever reported board 2
        eng.command(1, {"action": "enter_moves", "moves": "1. e4 e5 2. Nf3"})
        st = eng.state()
        live.validate_state(st)
        assert st["moves"] == ["e4", "e5", "Nf3"]
        assert st["clocks"] == [[live.UNKNOWN_MS] * 2] * 3
        c = st["clock"]
        assert (c["white_ms"], c["black_ms"], c["white_display"], c["black_display"]) == \
            (live.UNKNOWN_MS, live.UNKNOWN_MS, "\u2014", "\u2014")
        text = feeds.record_text(st)          # the feed, the Lichess push and round-R.pgn write this
        assert "[%clk" not in text and "WhiteClock" not in text and "BlackClock" not in text
        assert "1. e4 e5 2. Nf3 *" in text.replace("1... ", "")
        # a board whose device told its clock: the clocks as read, the stopped side's in WhiteClock
        eng1 = ev.board(1).engine
        eng1.frame(1, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
        eng1.frame(2, "SNAP", [2, 64, "FFFF00000000FFFF"])
        eng1.game.clock_reading(3, 298000, 300000, "black")
        st1 = eng1.state()
        assert (st1["clock"]["white_ms"], st1["clock"]["white_display"]) == (298000, "4:58")
        text1 = feeds.record_text(st1)
        assert '[WhiteClock "0:04:58"]' in text1 and "BlackClock" not in text1
    finally:
        ev.stop()
