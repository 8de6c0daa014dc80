"""Never a fabricated record (issue #19): what the bridge writes is backed by what the sensors saw.

The pinned-knight case and its draughts twin through the real engine, and a
bounded sample of the record-or-alert fuzzer (tests/host/record_or_alert.py;
tools/bench_record_or_alert.py runs 10,000 streams).
"""
import pytest

import record_or_alert as ra
from flagfall.bridge import decisions as D


def _table(game, penalties):
    tb = ra.Table(game, None, penalties)
    sq = tb.dev.truth.square
    return tb, sq


def _play(tb, sq, plies):
    for frm, to in plies:
        side = tb.dev.clock.to_move
        tb.step(sq(frm), False, 150)
        tb.step(sq(to), True, 150)
        tb.press(side, 200)
        tb.advance(300)


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_an_illegal_move_answered_by_the_opponent_is_not_rewritten_into_a_legal_game(penalties):
    tb, sq = _table("chess", penalties)
    _play(tb, sq, [("d2", "d4"), ("e7", "e5"), ("b1", "d2"), ("f8", "b4")])
    assert tb.record() == ["d4", "e5", "Nd2", "Bb4"]
    # White moves the pinned knight and presses; Black, not noticing, takes on d4 and presses
    tb.step(sq("d2"), False, 150)
    tb.step(sq("f3"), True, 150)
    tb.press(0, 200)
    tb.step(sq("e5"), False, 150)
    tb.step(sq("d4"), False, 150)
    tb.step(sq("d4"), True, 150)
    tb.press(1, 200)
    tb.advance(5000)
    g = tb.eng.game
    assert g.sans() == ["d4", "e5", "Nd2", "Bb4"]            # never exd4 before the position is resolved
    assert g.takebacks == [] and not [d for d in g.decisions if d.kind == D.TAKEBACK]
    assert g.alert and "illegal move" in g.alert
    if penalties == "auto":
        assert g.illegal == [1, 0]
        assert [(d.side, d.outcome) for d in g.decisions if d.kind == D.PENALTY] == [(0, "penalty")]
    else:
        assert g.illegal == [0, 0] and "by White" in g.alert
    # the position before the illegal move is reinstated: the game goes on from 2...Bb4
    tb.step(sq("d4"), False, 300)
    tb.step(sq("d4"), True, 150)                # (the white pawn back on d4)
    tb.step(sq("e5"), True, 150)
    tb.step(sq("f3"), False, 150)
    tb.step(sq("d2"), True, 150)
    tb.advance(3000)
    tb.step(sq("c2"), False, 150)
    tb.step(sq("c3"), True, 150)
    tb.advance(3000)
    assert g.sans() == ["d4", "e5", "Nd2", "Bb4", "c3"]


def test_draughts_twin_a_move_ignoring_a_compulsory_capture_then_the_reply():
    """1.32-28 19-23 offers 28x19 (compulsory); White plays 31-26 instead and Black replies 20-24.
    The end occupancy fits "take back 19-23, then 20-24 31-26 19-23", but 19-23 was never lifted
    again: the record stops at 19-23 with the illegal-move alert."""
    tb, sq = _table("draughts", "auto")
    _play(tb, sq, [("32", "28"), ("19", "23")])
    assert tb.record() == ["32-28", "19-23"]
    tb.step(sq("31"), False, 150)
    tb.step(sq("26"), True, 150)
    tb.press(0, 200)
    tb.step(sq("20"), False, 150)
    tb.step(sq("24"), True, 150)
    tb.press(1, 200)
    tb.advance(5000)
    g = tb.eng.game
    assert g.sans() == ["32-28", "19-23"] and g.takebacks == []
    assert g.alert and "illegal move" in g.alert


def test_a_take_back_by_agreement_still_needs_its_own_lifts_and_placements():
    """After 2.Nf3 the board shows the knight back on g1 only because it was put back: accepted.
    A board that equals the old position without the knight ever leaving f3 is not a take-back."""
    tb, sq = _table("chess", "auto")
    _play(tb, sq, [("e2", "e4"), ("e7", "e5"), ("g1", "f3")])
    tb.press(1, 200)                                 # Black presses the clock back
    tb.step(sq("f3"), False, 150)
    tb.step(sq("g1"), True, 150)
    tb.step(sq("b1"), False, 150)
    tb.step(sq("c3"), True, 150)
    tb.press(0, 200)
    tb.advance(4000)
    assert tb.record() == ["e4", "e5", "Nc3"] and tb.eng.game.takebacks == ["2. Nf3"]


def test_fuzzer_streams_never_fabricate_a_record():
    """A bounded sample of the fuzzer (chess, international, Russian draughts, checkers), both
    sides (issue #28): never a fabricated record; an innocent stream is never called an illegal
    move nor penalised, and nearly always recorded in full; a guilty one alerts."""
    bad = []
    wronged = []
    full = alerts = innocent = innocent_full = guilty = guilty_alerted = 0
    n = 240
    for seed in range(n):
        o = ra.run_stream(seed, max_plies=30)
        if o.fabricated:
            bad.append(o)
        full += o.full
        alerts += o.alert is not None
        if o.innocent:
            innocent += 1
            innocent_full += o.full
            if o.penalties or o.illegal_alerts:
                wronged.append(o)
        else:
            guilty += 1
            guilty_alerted += o.alerted
            if o.penalties > o.illegal_made:
                wronged.append(o)
    assert not bad, "\n\n".join(o.report() for o in bad[:3])
    assert not wronged, "\n\n".join(o.report() for o in wronged[:3])
    # the sample exercised both outcomes and both labels
    assert full > n // 4 and alerts > n // 10 and innocent > n // 4 and guilty > n // 4
    assert innocent_full >= 0.9 * innocent, (innocent_full, innocent)
    assert guilty_alerted >= 0.75 * guilty, (guilty_alerted, guilty)


@pytest.mark.parametrize("seed", [
    5184,    # Qa4, taken back, Qxb2, Na4 written as Qa4 Nxa4 (a4 empty across Black's press)
    10711, 12583, 15198, 16387,   # a capture taken back and replaced by another capture of the same piece
])
def test_streams_that_once_fabricated_a_record_now_stop_with_an_alert(seed):
    """Streams the 10,000-stream bench found writing a move that was not played (issue #19), as
    the fuzzer of #19 played them."""
    o = ra.run_stream(seed, honest_tails=False)
    assert not o.fabricated, o.report()
    assert o.full or o.alert is not None, o.report()


@pytest.mark.parametrize("seed", [
    12583,   # Nxc4 slid (c4 never empty), Qa4+: also fits "Na4 (in the hand at the press), Qxa4+"
    3042,    # a slid capture, then the opponent knocks a piece the same queen could take
    1236,    # Bxh6+ slid, the opponent's knight knocked on b8: not "Bxb8"
    372,     # Qxb2 slid, Na4 by the opponent: not "Qa4"
    97,      # Bxc4 finished after the press, Bxg6 also possible with g6 never read
    700092786, 700093753,   # a rival capture "settled by the reply" (reverted): wrote Bxh3 for Bxf3, Nxf2 b3
    700093872,   # Bxe4 slid onto its victim; c6 adjusted by its owner before the bishop left d5: not "Bxc6"
    704211422,   # Qb6 knocking d4, the queen lifted again to be adjusted: wrote Qxd4+ (a knocked victim picked off)
    708597948,   # Bb4+ touching d4 in the air, c3, the bishop lifted from b4 before White's press: wrote Bxd4 c3
    740008670,   # explained at the mover's second press (reverted): O-O with late tails, written Rg1
    790013184,   # a piece set on g1 during O-O, lifted two presses later: g1 read as Ng1's, wrote Rf1 O-O Ng1
    741004332,   # Qg6 knocking d4 (set back after the press), Qxg6: wrote Qxd4 Qg6
    782007606,   # rival captures told apart by the reply's legality (reverted): Qxc3+ slid, then the illegal
                 # Bg3 (check ignored), written Qxf5 Bg3
    784000357,   # dxe5 finished after the press, ...fxe4 slid and pressed meanwhile, Bxe4: stopped at dxe5, no alert
    850009640,   # Kd1 taken back by agreement, then Qb5+ Qd7 Qh5+ Qf7 back to the same position: read as the
                 # take-back alone, four moves lost with no alert
    880008607,   # e2 adjusted by its owner, ...Nxf3 slid (Nxe2 also possible), exf3 lifting e2: the victim
                 # "off before the press" though set back: wrote Nxe2+
    891005318,   # Qf7 recorded, then Qb5+ Qd7 Qh5+ Qf7 back to the same position (tails left across the
                 # replies): the alert up since Qb5+ cleared, four moves lost with no alert
    900003056,   # ...fxe4 slid, Qxe4+ knocking d4 (set back after the press), Kf7: Qxe4+ read only as slid
                 # onto the pawn's late landing, refused for its rival Qxd4, which was written
    900004122,   # Qxe5 slid (Qxf7+ possible), Black's illegal f7-a6 put right after the "pieces off the
                 # board" alert: f7's events read as Qxf7+ finished after the press
    930008087,   # checkers 17x10 taken back by agreement, 18x9, then 6x22 read as capturing 10 and 18
                 # after 17x10 (the victims' squares emptied before White's press, long before 6 left)
    940008247,   # Black's illegal e8-a5 put right, Be7 and O-O: a four-move window read as the legal twin
                 # "Qxc4 Ke7 b3 Rg8" (a5 stood across Black's press: longwindow.stray_placement)
])
def test_honest_late_tails_that_once_fabricated_a_record_now_stop_with_an_alert(seed):
    """Streams the two-sided fuzzer (issue #28) found writing a move that was not played while
    the bridge learnt to explain honest late tails."""
    o = ra.run_stream(seed)
    assert not o.fabricated, o.report()
    assert o.full or o.alert is not None, o.report()
    assert not o.innocent or (o.penalties == 0 and o.illegal_alerts == 0), o.report()


@pytest.mark.parametrize("seed", [
    695520446,   # cxd4 slid (c5 in the hand at Black's press), then exd4 knocking the victim onto d3
    790011128,   # cxd5 slid, then ...Bxf3 knocking the victim onto g3: d5 never handled
])
def test_innocent_streams_once_penalised_are_recorded_without_a_penalty(seed):
    """Innocent streams the two-sided fuzzer found called an illegal move and penalised (issue
    #28): two honest late tails in one window (a capture slid onto its victim, explained only by
    the reply, whose own capture knocked the victim onto an empty square, picked off after the
    press) left a board one captured piece away from legal play; that is evidence not yet
    complete, never an illegal move."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()
    assert not o.fabricated and o.full, o.report()


def test_moves_shown_only_together_are_recorded_beside_the_next_movers_lift():
    """2.exd5 slid onto its victim (d5 never reads empty, the pawn in the hand at White's press),
    2...Qxd5, and White's hand already on the knight on b1 before Black presses: the board with
    b1's lift left out is "exd5 Qxd5", shown only by the reply; b1's lift begins White's turn."""
    tb, sq = _table("chess", "auto")
    _play(tb, sq, [("e2", "e4"), ("d7", "d5")])
    tb.step(sq("e4"), False, 150)
    tb.press(0, 200)
    tb.step(sq("d8"), False, 300)
    tb.step(sq("d5"), False, 150)
    tb.step(sq("d5"), True, 150)
    tb.step(sq("b1"), False, 200)
    tb.press(1, 300)
    g = tb.eng.game
    assert g.sans() == ["e4", "d5", "exd5", "Qxd5"], (g.sans(), g.alert)
    tb.step(sq("c3"), True, 400)
    tb.press(0, 200)
    tb.advance(3000)
    assert g.sans() == ["e4", "d5", "exd5", "Qxd5", "Nc3"] and g.alert is None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind in (D.PENALTY, D.TAKEBACK)]


@pytest.mark.parametrize("seed", [
    695520156,   # exd5 slid, Qxd5, b1 lifted before Black's press
    711000223,   # exd6 finished after the press, the reply, b1 lifted before the reply's press
    711000696,   # exf4 finished after the press, the reply, g8 lifted before the reply's press
    711001087,   # Bxe7 slid, Qxe7 with d3 lifted before Black's press
    972002796,   # ...Bxd4 slid, Nf5 adjusting b2, ...Bxc3+ with b2 lifted before Black's press
])
def test_innocent_streams_with_the_next_movers_hand_early_are_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "the opponent is moving before the move was
    shown" or "pieces off the board": moves the board shows only together (a capture finished or
    shown by the reply), with the next mover's piece already lifted at the last press, that piece
    perhaps adjusted in its side's own turn before (resync._explain_beside)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


def test_the_moved_piece_lifted_to_be_adjusted_is_not_a_knocked_victim_picked_off():
    """White's queen c5-b6 knocks Black's queen on d4 (set back after the press), then is lifted
    from b6 to be adjusted: for a moment the board is "Qxd4 with its victim knocked onto b6 and
    picked off". A lift that makes the board a move only by clearing a piece outside it waits
    for the settle (seed 704211422 wrote Qxd4+ for Qb6)."""
    tb = ra.Table("chess", "4k3/8/8/2Q5/3q4/8/8/4K3 w - - 0 1", "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("c5"), False, 200)
    tb.step(sq("d4"), False, 150)       # knocked over
    tb.step(sq("b6"), True, 150)
    tb.press(0, 200)
    tb.step(sq("d4"), True, 300)        # set back
    tb.step(sq("b6"), False, 400)       # the queen lifted to be adjusted
    assert g.sans() == [], g.sans()
    tb.step(sq("b6"), True, 300)
    tb.advance(3000)
    assert g.sans() in ([], ["Qb6"]) and (g.sans() or g.alert), (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY]


def test_the_moved_piece_lifted_again_during_the_reply_is_not_a_knocked_victim_picked_off():
    """3...Bb4+ with the hand touching d4 in the air (Bxd4 knocking its victim onto b4 shows the same
    events until b4 is cleared), 4.c3, and Black's hand back on the bishop before White presses:
    "Bxd4 c3" fits the board and every event, and so does the truth, "Bb4+ c3" with the bishop in
    the hand (seed 708597948 wrote Bxd4). The record stops at 3.d4 with an alert, or shows the truth."""
    tb, sq = _table("chess", "auto")
    _play(tb, sq, [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("f8", "c5"), ("d2", "d4")])
    tb.step(sq("c5"), False, 300)
    tb.step(sq("d4"), False, 250)       # touched in the air
    tb.step(sq("d4"), True, 250)
    tb.step(sq("b4"), True, 250)
    tb.press(1, 100)
    tb.step(sq("c2"), False, 300)
    tb.step(sq("c3"), True, 150)
    tb.step(sq("b4"), False, 300)       # Black's hand already on the bishop
    tb.press(0, 100)
    tb.advance(3000)
    g = tb.eng.game
    played = ["e4", "e5", "Nf3", "Bc5", "d4"]
    assert g.sans() in (played, played + ["Bb4+"], played + ["Bb4+", "c3"]), (g.sans(), g.alert)
    assert g.sans() == played + ["Bb4+", "c3"] or g.alert is not None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY]


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_a_square_the_reply_fills_that_held_a_piece_put_there_is_not_read_as_a_knocked_victim(penalties):
    """Qf3-g3 knocking Black's pawn on d5 (set back after White's press), then ...Qh4xg3: the
    board and every event also fit "Qxd5 (the queen in the hand at the press, landing after it)
    ...Qg3", the piece put on g3 before White's press read as the victim knocked there and picked
    off. Both stories are physical; the truth fails the knocked-in-flight rule (flight_touched),
    so the bridge must not choose the other one: never the record "Qxd5 Qg3" (seed 741004332 wrote
    "...Qxd4 Qg6" so). The truth or an alert, never an illegal move or a penalty."""
    tb = ra.Table("chess", "7k/8/8/3p4/7q/5Q2/8/K7 w - - 0 1", penalties)
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("f3"), False, 300)
    tb.step(sq("d5"), False, 150)       # knocked over
    tb.step(sq("g3"), True, 400)
    tb.press(0, 300)
    tb.step(sq("d5"), True, 600)        # set back
    tb.step(sq("h4"), False, 2100)      # after the settle time
    tb.step(sq("h4"), True, 100)
    tb.step(sq("g3"), False, 100)       # the white queen taken off
    tb.step(sq("h4"), False, 200)
    tb.step(sq("g3"), True, 200)
    tb.press(1, 600)
    tb.advance(3000)
    assert g.sans() in ([], ["Qg3"], ["Qg3", "Qxg3"]), (g.sans(), g.alert)
    assert g.sans() == ["Qg3", "Qxg3"] or g.alert is not None, (g.sans(), g.alert)
    assert g.alert_kind != D.ALERT_ILLEGAL, g.alert
    assert not [d for d in g.decisions if d.kind == D.PENALTY] and g.illegal == [0, 0]


@pytest.mark.parametrize("seed", [
    704210923,   # Nxc6 finished after the press (rival captures), dxc6, then Be3 with e8 lifted early
    705044623,   # Qxc4 finished after the press (rival captures), Be7 with White's b2 lifted before its press
    732004722,   # exf4 slid, O-O knocking f4 (set back after the settle), White's c2 and b1 touched: no capture
    780000205,   # ...Qxb4 slid (b4 never read), Bxa7+ knocking the victim onto a8, picked off after the press
])
def test_innocent_streams_once_called_an_illegal_move_are_not(seed):
    """Innocent streams the two-sided fuzzer found called an illegal move and penalised (issue
    #28): the board handled again after the opponent's reply press, or with a piece of the mover's
    lifted after its own press, holds more than one turn since the last recorded move; the
    arbiter confirms, never a penalty."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()
    assert not o.fabricated and (o.full or o.alert is not None), o.report()


@pytest.mark.parametrize("seed", [
    707187276,   # b4 pressed with the a2 pawn in the hand and e4 adjusted: penalised, no illegal move made
])
def test_streams_with_no_illegal_move_are_never_penalised(seed):
    """Guilty streams (a piece off the board across the opponent's press) that made no illegal
    move, penalised by the two-sided fuzzer (issue #28: a penalty goes only to an illegal move):
    a piece of the mover's adjusted is not a capture shown, so a piece in the hand leaves the
    evidence incomplete."""
    o = ra.run_stream(seed)
    assert o.illegal_made == 0, o.report()
    assert o.penalties == 0 and not o.fabricated, o.report()
    assert o.full or o.alert is not None, o.report()


@pytest.mark.parametrize("seed", [
    790033883,   # checkers 22-18, 21 knocked and set back, 9 emptied before White began (a late victim)
    790034438,   # e4 with h8 knocked and set back before e2 left, c2 knocked off across Black's press
    790034505,   # draughts 38-32 with a piece off the board and another adjusted
    790017330,   # Ba5 with pieces adjusted and one off the board
    790038075,   # draughts 15x24 with 17 knocked off, White's captured piece on 20 set down again
    790031003,   # checkers: Red's illegal 4-13 penalised once, then a piece adjusted on 24 (was twice)
    800001322,   # russian draughts, penalised with no illegal move made
    800006993,   # checkers, penalised with no illegal move made
    800009479,   # chess: White penalised twice for its one illegal move c2-e5 (the stream then went on)
    800005261,   # Bd6 with f7 knocked off, White's g2 adjusted after Black's press: no capture of Black's
    830003420,   # ...fxe4 waiting for its knocked piece, White's illegal a1-e6 pressed: was Black's penalty
    830003246,   # O-O pressed with the rook set down on b4, left there through Black's reply: White's own
                 # illegal move (the fuzzer did not count it), penalised once (was counted 1 for 0)
])
def test_a_penalty_goes_only_to_a_side_that_moved_illegally(seed):
    """Guilty streams (a take-back, a piece off the board across the opponent's press) the
    two-sided fuzzer found penalising a move that was not illegal (issue #28): a piece lifted and
    set down again counted as a capture shown in full while no capturer was in a hand (or in
    draughts, where no capture lands on its victim, or an opponent's square set down after the
    mover's press) stood in for a piece off the board; or the board held the opponent's reply,
    made and pressed while the mover's move waited, and the reply's illegal part was called the
    mover's. Side by side, no side is penalised more often than it moved illegally (a press with a
    piece of the move left standing on a square on its way through the reply counts as the mover's
    illegal move: record_or_alert._set_down_astray). Each stream as the fuzzer plays it now and as
    it was found (tails_across_reply: a few were found with a tail finished where the reply had moved)."""
    for o in (ra.run_stream(seed), ra.run_stream(seed, tails_across_reply=True)):
        assert not o.over_penalised, ("penalties %s for illegal moves %s (side by side)\n"
                                      % (o.penalised, o.illegal_by)) + o.report()
        assert not o.fabricated and (o.full or o.alert is not None), o.report()


@pytest.mark.parametrize("knock_after_press", [False, True])
def test_a_recapture_is_no_evidence_when_the_recapturer_could_take_elsewhere(knock_after_press):
    """White's e4 pawn can take on d5 or f5; it slides onto f5 (unseen), and Black's queen, which
    can take the bishop on a5 too, slides onto a5 (unseen) while its own d5 pawn is knocked and set
    back. The events are those of "exd5 Qxd5" as well (d5 lifted, a piece set on it): the
    recapture shows the first capture only when the recapturer had no other capture
    (later_evidence.recaptured). The record never shows exd5."""
    tb = ra.Table("chess", "3qk3/8/8/B2p1p2/4P3/8/8/4K3 w - - 0 1", "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("e4"), False, 200)       # exf5, slid onto f5: f5 never reads empty
    tb.press(0, 200)
    tb.step(sq("d8"), False, 300)       # ...Qxa5, slid onto a5
    tb.step(sq("d5"), False, 200)       # Black's own d5 pawn knocked
    if knock_after_press:
        tb.press(1, 200)
        tb.step(sq("d5"), True, 300)
    else:
        tb.step(sq("d5"), True, 300)
        tb.press(1, 200)
    tb.advance(3000)
    assert g.sans() in ([], ["exf5"], ["exf5", "Qxa5"]), (g.sans(), g.alert)
    assert g.sans() == ["exf5", "Qxa5"] or g.alert is not None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY]


@pytest.mark.parametrize("seed", [
    760000008,   # ...Bxf3 finished after the press (Bxh3 possible too), Qxf3 knocking c3, set back after the press
    760000212,   # ...exd4 slid (exf4 possible too), cxd4 lifting the victim before the pawn
    760000069,   # Nxc6 slid (another capture possible), ...bxc6
    790000159,   # Nxc6 slid, ...bxc6 knocking its victim onto d6 (picked off after the press), e5
])
def test_a_capture_with_a_rival_shown_by_the_recapture_is_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "clock pressed with pieces off the board" or
    "more than one turn since the last recorded move": a capture by a piece that could also take
    elsewhere, finished after the press or slid onto its victim, shown by the opponent's
    recapture on that square (later_evidence.recaptured)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


@pytest.mark.parametrize("seed", [
    830000870,   # exf5 slid, ...e4 onto the square the pawn left, Nh4
    880001545,   # cxd5 adjusted on d5 after its press, ...exd5 slid onto it, Nd2
    880002516,   # ...Bxe4 slid (Bxc6 possible), Qf6, ...Bxf5+ from e4 (the e4 lift is its)
    880000591,   # ...Nxd4 slid, Bxd4 slid, ...Qxd4 (its victim knocked onto e4), Nxd4: four presses
    960000463,   # Bxf6 finished after the press (Bxh6 possible), ...gxf6 slid, then four more presses
    960009348,   # axb5 finished after the press, its victim knocked onto b4, shown presses later
    960000061,   # dxe4 finished after the press (dxc4 possible), Ne5 f5 f3 onto the square the knight left,
                 # then exf3 moving on from e4: f3's events before f3 began are that move's
    960009980,   # ...Qxe5 finished after the press (...Qxf4 possible), fxe5 finished after the press, ...b6
                 # adjusted on b6: the recapture's third move still shown (later_evidence.recaptured)
    971001684,   # ...gxh4 finished after the press (...gxf4 possible), the f4 knight adjusted then Ng6
                 # (later_evidence.moved_on: the opponent's only move after the capture leaves f4)
    960007471,   # ...dxe4 knocking its victim onto f5 (picked off after the press), Nxe4, ...Bf5 onto that
                 # square, Ng3: four presses, f5 empty across White's press before ...Bf5 began
    978006458,   # Nxg6 slid (Nxc6 possible), ...Rxe1+ Rxe1 ...Ng7, Ne7+ moving on from g6: six presses
])
def test_a_slid_capture_explained_by_the_moves_after_it_is_recorded_in_full(seed):
    """Innocent streams (issue #28) stopped at a capture slid onto its victim (the square never
    read empty): the reply is the evidence, and it may fill the square the capture left
    (evidence.fits_events: that square stays empty across the capture's press); the victim's square
    may show the square's piece adjusted before the capturer was lifted, or the capturer moving on
    later (evidence._unseen_in_move); the moves that show it may come several presses later
    (resync._explain_long)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_a_slid_capture_recaptured_by_a_slide_is_shown_by_the_next_move(penalties):
    """Qxg6 slid onto its victim (Qxh7 possible too), ...fxg6 slid onto the queen, then Nf3: g6
    never reads empty. After Qxh7 the f7 pawn has no capture, and after Qxg6 it can capture only
    on g6 (later_evidence.recaptured): "Qxg6 fxg6" is the one story, shown once Nf3 follows (the pawn
    could be in the hand at Black's press until then)."""
    tb = ra.Table("chess", "4k3/5p1p/6p1/7Q/8/8/8/4K1N1 w - - 0 1", penalties)
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("h5"), False, 200)       # Qxg6, slid: g6 never reads empty
    tb.press(0, 200)
    tb.step(sq("f7"), False, 300)       # ...fxg6, slid onto the queen
    tb.press(1, 200)
    tb.step(sq("g1"), False, 300)
    tb.step(sq("f3"), True, 300)
    tb.press(0, 200)
    tb.advance(3000)
    assert g.sans() == ["Qxg6", "fxg6", "Nf3"] and g.alert is None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY]


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_a_slid_capture_and_a_reply_knocking_its_victim_off_is_no_illegal_move(penalties):
    """3.exd5 slid onto its victim (d5 never reads empty), 3...Bxf3 knocking the knight onto g3,
    picked off only after the board has settled: until then the board is "exd5 Bxf3" with one
    piece more, d5 never handled; evidence not yet complete, never White's illegal move (seed
    790011128 was called one). Once g3 is cleared the moves are recorded."""
    tb, sq = _table("chess", penalties)
    _play(tb, sq, [("e2", "e4"), ("d7", "d5"), ("g1", "f3"), ("c8", "g4")])
    g = tb.eng.game
    tb.step(sq("e4"), False, 300)       # exd5, slid: d5 never reads empty
    tb.press(0, 200)
    tb.step(sq("g4"), False, 400)
    tb.step(sq("f3"), False, 200)
    tb.step(sq("g3"), True, 150)        # the knight knocked onto g3
    tb.step(sq("f3"), True, 200)
    tb.press(1, 200)
    tb.advance(3000)
    assert not [d for d in g.decisions if d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL], g.alert
    assert g.proposed_penalty is None and not [d for d in g.decisions if d.kind == D.PENALTY]
    tb.step(sq("g3"), False, 300)       # picked off
    tb.advance(3000)
    assert g.sans()[:4] == ["e4", "d5", "Nf3", "Bg4"] and g.sans()[4:] in ([], ["exd5", "Bxf3"]), g.sans()
    assert g.sans()[4:] == ["exd5", "Bxf3"] or g.alert is not None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL], g.alert


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_the_reply_pressed_while_a_capture_finished_after_the_press_waited_is_not_lost(penalties):
    """dxe5 with the pawn still in the hand at White's press (the bishop taken off after it), Black's
    ...fxe4 slid onto its victim (e4 never reads empty) and pressed while White's move still waited:
    that press came when the bridge still had White to move, and once dxe5 was committed with
    Black's lifted pawn beginning the next window (reconstruction.commit_beside) it was lost; Bxe4
    followed, and the record stopped at dxe5 with no alert (seed 784000357). The press now begins
    the next window with the lift: the record is the truth, or an alert is up; never a penalty."""
    tb = ra.Table("chess", "6k1/8/8/4bp2/3PP3/8/6B1/6K1 w - - 0 1", penalties)
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("d4"), False, 300)
    tb.press(0, 210)                    # the pawn in the hand
    tb.step(sq("e5"), False, 836)       # the bishop taken off
    tb.step(sq("e5"), True, 118)
    tb.step(sq("f5"), False, 877)       # ...fxe4 slid onto e4
    tb.press(1, 361)
    tb.step(sq("g2"), False, 3566)
    tb.step(sq("g2"), True, 259)
    tb.step(sq("g2"), False, 118)
    tb.step(sq("e4"), False, 95)        # the pawn taken off
    tb.step(sq("e4"), True, 379)
    tb.step(sq("e4"), False, 81)        # the bishop adjusted
    tb.step(sq("e4"), True, 85)
    tb.press(0, 400)
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() in ([], ["dxe5"], ["dxe5", "fxe4"], ["dxe5", "fxe4", "Bxe4"]), (g.sans(), g.alert)
    assert g.sans() == ["dxe5", "fxe4", "Bxe4"] or g.alert is not None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY]


@pytest.mark.parametrize("seed", [
    830000830,   # russian a7:c5 with White's b4 lifted before Black's press (c7 could take b4), b4-a5 after
    861000478,   # the same hand after d2:b4 finished after its press
    861006772,   # russian: opponents lifting before the press, twice, with knocks set back after it
    861001502,   # bxc3 slid onto its victim with O-O's tail late: "the opponent is moving before the move was shown"
])
def test_innocent_streams_with_the_opponent_lifting_before_the_press_are_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "clock pressed with pieces off the board": the
    opponent lifted its moving piece a moment before the mover pressed, on a square a move of the
    mover's could have emptied (a draughts capture, en passant) but whose piece was never lifted,
    and finished its move after the press (resync._explain_early), or whose press came while the
    mover's move still waited (Game.late_presses)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


@pytest.mark.parametrize("seed", [
    880002178,   # russian f4:h6 with Black's e5 lifted before White's press (f4 could take e5 too, landing
                 # on d6, never filled), e5-f4 after it
    880008681,   # international 28x19 with 24 lifted before the press, 24x13 after it
    880009160,   # ...cxd4 (victim knocked onto e5, picked off), Nb5 with a8 lifted before White's press
                 # (...O-O-O was legal, but would have emptied e8)
    880008182,   # Nxe4 knocking its victim onto d5, picked off after the press, the reply ...d5 landing there
    880005516,   # ...Qg4 knocking h2 (which the queen could take) in flight, set back after the press
    880000939,   # Nxd6 knocking c7 before the knight's lift, set back after the press, then ...cxd6
])
def test_innocent_streams_with_knocks_and_early_lifts_settled_by_the_next_press_are_recorded_in_full(seed):
    """Innocent streams (issue #28) of the kinds "knocked onto an empty square", "knocked, set back
    after the press" and "opponent starts before the press" that stopped with an alert: each twin
    story a guard feared either leads to another board or holds a knocked piece across two presses
    (resync._early_victim, _landing_twin, _taken_along, evidence._knock_stood; docs/bridge.md,
    "Late tails")."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


# 1.e4 e5 2.Nf3 f6 3.Nxe5 fxe5 4.Qh5+ g6: White's queen can take on e5 (check), g6 or h7
QUEEN_TAKES_THREE_WAYS = "rnbqkbnr/pppp3p/6p1/4p2Q/4P3/8/PPPP1PPP/RNB1KB1R w KQkq - 0 5"


def _late_capture_then_reply(tb, sq, victim_lifted, reply_from="d8", before_press=()):
    """White's queen lifted from h5 and the clock pressed with it in the hand; e5 lifted and a piece
    set on it after the press (the victim taken off, or Black's pawn knocked and set back); then
    Black's piece from `reply_from` to e7 (...Qe7, ...Be7), the steps `before_press` (square,
    down), and Black's press."""
    tb.step(sq("h5"), False, 300)
    tb.press(0, 200)
    if victim_lifted:
        tb.step(sq("e5"), False, 300)
        tb.step(sq("e5"), True, 150)
    tb.step(sq(reply_from), False, 600)
    tb.step(sq("e7"), True, 150)
    for square, down in before_press:
        tb.step(sq(square), down, 300)
    tb.press(1, 200)


def _queen_moves_on_from_e5(tb: ra.Table, lifted: bool = False) -> None:
    """After ...Qe7 with two stories up (Qxe5+, or Qxh7 slid with e5 knocked and set back): the
    arbiter is asked, then White's Qxh8 from e5 shows which (the queen `lifted` from e5 already,
    before Black's press); the three moves are recorded with no illegal-move alert or penalty."""
    sq = tb.dev.truth.square
    g = tb.eng.game
    if not lifted:
        assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert)      # two stories fit
        tb.step(sq("e5"), False, 300)
    tb.step(sq("h8"), False, 200)
    tb.step(sq("h8"), True, 200)
    tb.press(0, 200)
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == ["Qxe5+", "Qe7", "Qxh8"], (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_a_capture_finished_after_the_press_is_shown_by_the_capturer_moving_on(penalties):
    """Qxe5+ finished after the press (the queen could take on g6 or h7 too: the same events are
    Qxh7 slid onto its victim with Black's e5 pawn knocked and set back). ...Qe7 fits both stories,
    so the arbiter is asked; White's next move lifts the queen from e5 (Qxh8): in the other story
    that is Black's pawn taken off the board by White, no move at all (later_evidence.moved_on). Seed
    830000244 stopped at 4...g6."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, penalties)
    sq = tb.dev.truth.square
    g = tb.eng.game
    _late_capture_then_reply(tb, sq, True)
    tb.advance(3 * ra.SETTLE_MS)
    _queen_moves_on_from_e5(tb)


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_the_capturers_other_square_adjusted_during_the_reply_does_not_hide_the_capturer_moving_on(penalties):
    """The case above with Black adjusting its h7 pawn (a square the queen could have taken on)
    while making ...Qe7, set back before Black's press. In the other story (Qxh7 slid, e5 knocked
    and set back) the queen stands on h7 until White's next move, which would lift it from h7 and
    knock e5's pawn there: h7's events came before that move began, so they are not that story's,
    and Qxh8 from e5 still shows Qxe5+ (later_evidence.moved_on counts only events on those squares
    after the press ending the move before the moving-on move). Main 0cdeac2 stopped with an alert."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, penalties)
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("h5"), False, 300)
    tb.press(0, 200)
    tb.step(sq("e5"), False, 300)
    tb.step(sq("e5"), True, 150)
    tb.step(sq("h7"), False, 400)       # Black adjusts its h7 pawn ...
    tb.step(sq("h7"), True, 150)        # ... and sets it back
    tb.step(sq("d8"), False, 300)
    tb.step(sq("e7"), True, 150)
    tb.press(1, 200)
    tb.advance(3 * ra.SETTLE_MS)
    _queen_moves_on_from_e5(tb)


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_a_capturer_lifted_to_move_on_before_the_opponents_press_still_shows_its_capture(penalties):
    """Qxe5+ finished after the press (Qxg6+ and Qxh7 possible too), ...Qe7 with White's hand
    already lifting the queen from e5 before Black's press, then Qxh8 from e5: the moving-on lift
    came before the press ending ...Qe7, so the three moves fit only with that lift read just
    after it (resync._moved_on_early); in the other story (Qxh7 slid, e5 knocked and set back)
    the lift takes Black's pawn off e5 and no move lands there. Seed 978008022 stopped at 4...g6."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, penalties)
    sq = tb.dev.truth.square
    _late_capture_then_reply(tb, sq, True, before_press=[("e5", False)])   # White's hand on its queen
    _queen_moves_on_from_e5(tb, lifted=True)


def _moves_on_with_blacks_hand_early(tb: ra.Table, early: str) -> None:
    """After Qxe5+ finished after the press (two stories up) and ...Qe7: d3, Black's hand lifting its
    piece on `early` before White's press, ...`early`-c6, then Qxh8 from e5 (five presses)."""
    sq = tb.dev.truth.square
    _late_capture_then_reply(tb, sq, True)
    tb.advance(3 * ra.SETTLE_MS)
    tb.step(sq("d2"), False, 300)
    tb.step(sq("d3"), True, 200)
    tb.step(sq(early), False, 300)      # Black's hand on its own piece, before White's press
    tb.press(0, 200)
    tb.step(sq("c6"), True, 300)
    tb.press(1, 200)
    tb.advance(3 * ra.SETTLE_MS)
    tb.step(sq("e5"), False, 300)
    tb.step(sq("h8"), False, 200)
    tb.step(sq("h8"), True, 200)
    tb.press(0, 200)
    tb.advance(3 * ra.SETTLE_MS)


@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_the_next_movers_hand_early_inside_a_long_window_is_read(penalties):
    """Qxe5+ finished after the press (Qxh7 slid fits too), ...Qe7, d3 with Black's knight lifted
    from b8 before White's press, ...Nc6, Qxh8 from e5: no sequence fits with the lift where it came
    (...Nc6 would have begun before d3 was pressed); read just after that press (resync._explain_long,
    longwindow.long_early: a piece of Black's that no White move could take, lifted after d3 began,
    moved by the next move), the one sequence is the truth (seeds 986000196, 986009485)."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, penalties)
    g = tb.eng.game
    _moves_on_with_blacks_hand_early(tb, "b8")
    assert g.sans() == ["Qxe5+", "Qe7", "d3", "Nc6", "Qxh8"], (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("refilled", [False, True])
def test_a_lift_before_the_press_of_a_piece_the_mover_could_take_is_read_only_where_no_capturer_landed(refilled):
    """Qxe5+ finished after the press (two stories up), ...Qe7, d3 with Black's c7 pawn lifted before
    White's press (White's queen on e5 could take on c7: the lift may be that capture's victim taken
    off), ...c5, Nc3 ...Na6 Nd5, then ...Nb4 (c7 never filled again) or ...Nc7 (a piece put on c7),
    and Qf4 from e5. With c7 empty from the lift to the end, no capturer ever stood there, so the lift
    is Black's hand and the nine moves are read (longwindow._could_take); with a piece put on c7
    later, Qxc7 (landing there) stays a story as far as the board goes, so the window is not read
    with the lift moved (longwindow.early_held, as resync._early_victim for the first press) and the
    arbiter is asked."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _late_capture_then_reply(tb, sq, True)
    tb.advance(3 * ra.SETTLE_MS)
    for k, (src, dst) in enumerate([("d2", "d3"), (None, "c5"), ("b1", "c3"), ("b8", "a6"), ("c3", "d5"),
                                    ("a6", "c7" if refilled else "b4"), ("e5", "f4")]):
        if src is not None:
            tb.step(sq(src), False, 300)
        tb.step(sq(dst), True, 200)
        if k == 0:
            tb.step(sq("c7"), False, 300)       # Black's hand on its pawn, before White's press
        tb.press(k % 2, 200)
        tb.advance(3 * ra.SETTLE_MS)
    if refilled:
        assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert)
    else:
        assert g.sans() == ["Qxe5+", "Qe7", "d3", "c5", "Nc3", "Na6", "Nd5", "Nb4", "Qf4"], (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("third", ["d2d3", "h7h8"])
def test_a_capture_elsewhere_with_the_square_knocked_after_the_press_is_never_read_as_it(third):
    """The other story of the case above: Qxh7 slid onto its victim (h7 never reads empty), Black's
    e5 pawn knocked and set back after the press, ...Qe7, then d3 (which shows neither capture: the
    arbiter confirms, never Qxe5+) or Qxh8 from h7 (the queen moving on from h7, not from e5). The
    record is a prefix of the truth, and an alert is up where it stops short."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _late_capture_then_reply(tb, sq, True)
    if third == "d2d3":
        tb.step(sq("d2"), False, 300)
        tb.step(sq("d3"), True, 200)
    else:
        tb.step(sq("h7"), False, 300)
        tb.step(sq("h8"), False, 200)
        tb.step(sq("h8"), True, 200)
    tb.press(0, 200)
    tb.advance(3 * ra.SETTLE_MS)
    truth = ["Qxh7", "Qe7", "d3" if third == "d2d3" else "Qxh8"]
    assert truth[:len(g.sans())] == g.sans(), (g.sans(), g.alert, tb.log)
    assert g.sans() == truth or g.alert is not None, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("seed", [
    987001040,   # guilty: an eight-press window read (dxe4 ... c5), every move of it played
    987003322,   # guilty (Russian draughts): a seven-press window read, every move of it played
    987003944,   # guilty: an eight-press window read (Kb1 ... Bc8), every move of it played
])
def test_guilty_streams_with_a_long_window_read_record_only_moves_played(seed):
    """Guilty streams (an illegal move or a take-back somewhere) where resync._explain_long reads a
    window of seven or eight presses (LONGEST): the moves it commits are the ones played (never a
    fabricated record), and the stream still alerts."""
    o = ra.run_stream(seed)
    assert not o.innocent, o.report()
    assert not o.fabricated, o.report()
    assert o.alerted, o.report()


@pytest.mark.parametrize("seed", [
    989000808,   # guilty: windows of 17 to 19 presses, one sequence fitting with a lift moved (long_early), refused by early_held
    989000244,   # guilty: 18-press windows searched in full (two sequences to the board, none fits)
])
def test_guilty_streams_with_windows_past_sixteen_presses_fabricate_nothing(seed):
    """Guilty streams whose windows grow past sixteen presses, now searched (LONGEST twenty, the
    landing rule keeping the search under its bound): nothing is fabricated and the stream alerts."""
    o = ra.run_stream(seed)
    assert not o.innocent, o.report()
    assert not o.fabricated, o.report()
    assert o.alerted, o.report()


@pytest.mark.parametrize("seed", [
    830000244,   # Qxe5+ finished after the press (Qxg6+, Qxh7 possible), ...Qe7, Qxh8 from e5
    830001582,   # Qxh7 finished after the press, the queen moving on at White's next move
    978008022,   # Qxe5+ finished after the press (Qxh7 possible), the queen lifted before ...Qe7's press, Qxh8
    978003416,   # ...Qxe4+ finished after the press (...Qxd4 possible), ...Qxd4 from e4 four presses later
    978004040,   # ...Nxd4 finished after the press (...Nxe5 possible), ...Nf3+ from d4, Nxf3 leaving e5
    960004830,   # Qxh1 finished after the press (Qxd5+ possible), Qxd5+ from h1 four presses later
    983006444,   # ...Qxg5 finished after the press, ...Qh6 from g5 at the seventh press (7-press window)
    987000446,   # Qxb7 finished after the press, Qxa7 from b7 at the ninth press (ten-press window)
    978000564,   # Qxf3 finished after the press (Qxb7, Qxg8 possible), Qxf6+ from f3 at the fifteenth press
    986008794,   # Qxh1 slid (Qxd5+ possible), Qxd5+ from h1 six presses later, its victim knocked onto e4 and
                 # picked off after the press (later_evidence._taken_off_after)
    986000695,   # Bxc4 slid (Bxg6 possible), Ba2 from c4 nine presses later showing only c4 lifted and a2 placed
                 # by White's press, g6 adjusted during ...e6 after it (later_evidence._carried_before_press)
    989001468,   # Qxg4 finished after the press (Qxb5 possible), b5 knocked and set back during Qh5 before g4
                 # is lifted (not the piece knocked from g4 in the other story), Qh5 from g4 five presses later
    986000196,   # Bxf5+ finished after the press (Bxc6+ possible), the queen lifted from h6 before Nd6's press, Bxg6 (14 presses)
    986009485,   # Bxa1 finished after the press, g1 lifted before ...Nbd7's press (longwindow.long_early)
    986004912,   # the case of 986000196 with the knight of Ne5 set down on e4 on its way (a later move over Nd6's origin)
    986006922,   # Qxf3 slid, h1 lifted before ...Qd7's press (...Qxh1 possible, h1 never filled again), Rxh7 Rxh7
    986001265,   # ...Bxf6 slid (...Bxa3 possible), ...Be7 from f6 at the 17th press, g2 lifted before its press (18 presses)
    986008477,   # the same game, other hands
])
def test_a_capture_finished_after_the_press_shown_by_the_capturer_moving_on_is_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "the opponent is moving before the move was
    shown" or "clock pressed with pieces off the board": a capture by a piece that could also take
    elsewhere, finished after the press, shown by the same piece moving on from its victim's square
    at its side's next move (later_evidence.moved_on), however many presses later (resync._explain_long,
    up to LONGEST)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()



@pytest.mark.parametrize("knocked_onto", [False, True])
def test_the_other_square_set_back_before_the_square_taken_on_is_lifted_hides_no_knock(knocked_onto):
    """Qxe5+ finished after the press (Qxh7 possible: the same events are Qxh7 slid with e5 knocked
    and set back), ...Qe7, then Qxh8 from e5 with White's hand knocking Black's h7 pawn and setting
    it back before lifting the queen: in the other story the piece knocked onto h7 is the pawn on
    e5, which leaves e5 only when e5 is lifted, so h7's placement before then is not it and the
    three moves are recorded (later_evidence.moved_on; seed 989001468). Where the other story is
    the one played (`knocked_onto`: Qxh7 slid, the queen adjusted on h7, then lifted again for Qxh8
    knocking the e5 pawn onto h7 after e5 is lifted), that placement counts and nothing past the
    opening is written but the moves played."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _late_capture_then_reply(tb, sq, True)
    tb.advance(3 * ra.SETTLE_MS)
    if knocked_onto:
        steps = [("h7", False), ("h7", True), ("h7", False), ("e5", False), ("h7", True), ("h8", False), ("h8", True)]
    else:
        steps = [("h7", False), ("h7", True), ("e5", False), ("h8", False), ("h8", True)]
    for square, down in steps:
        tb.step(sq(square), down, 200)
    tb.press(0, 200)
    tb.advance(3 * ra.SETTLE_MS)
    if knocked_onto:
        assert "Qxe5+" not in g.sans() and g.sans() == ["Qxh7", "Qe7", "Qxh8"][:len(g.sans())], (g.sans(), g.alert)
        assert g.alert is not None or len(g.sans()) == 3, (g.sans(), g.alert)
    else:
        assert g.sans() == ["Qxe5+", "Qe7", "Qxh8"] and g.alert is None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]

@pytest.mark.parametrize("seed", [
    978003992,   # ...Qxh4 finished after the press (...Qxe2 possible), the queen adjusted on h4, Bxf3 from e2
    978005605,   # Bxa1 finished after the press (Bxf6 possible), ...Nbd7 Nf3, ...Ne4 with f6 adjusted first
    978004098,   # Bxh8 finished after the press (Bxe5 possible), ...Qxh8 from e5 recapturing there
])
def test_a_capture_shown_by_the_opponent_leaving_the_other_square_is_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "clock pressed with pieces off the board": a
    capture by a piece that could also take elsewhere, finished after the press, shown by the
    opponent moving its own piece from the other square (later_evidence.moved_on), though the square
    taken on was handled more than the capture needs, all of it before that square was left (in
    the other story only the capturer leaving the other square could land there again) but for
    that piece recapturing there, or the piece leaving it was adjusted there first within that
    turn (in the other story a piece of the opponent's landing there, capturing the capturer,
    leaves it only at a later move)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


def test_a_capturer_moving_on_from_elsewhere_knocking_a_piece_there_is_not_read_as_moving_on():
    """Qxh7 slid onto its victim, Black's e5 pawn knocked and set back after the press, ...Qe7, then
    Qxh8 from h7 knocking the e5 pawn onto h7, where it stays: the board is that of "Qxe5+ Qe7 Qxh8"
    (the queen moving on from e5, h7's pawn adjusted), but the square it could have taken on
    instead was handled, so the capturer moving on shows nothing (later_evidence.moved_on's guard)."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _late_capture_then_reply(tb, sq, True)
    tb.step(sq("h7"), False, 300)       # the queen lifted from h7
    tb.step(sq("e5"), False, 150)       # the e5 pawn knocked ...
    tb.step(sq("h7"), True, 150)        # ... onto h7
    tb.step(sq("h8"), False, 150)
    tb.step(sq("h8"), True, 150)
    tb.press(0, 200)
    tb.advance(3 * ra.SETTLE_MS)
    assert "Qxe5+" not in g.sans() and g.sans() == ["Qxh7", "Qe7", "Qxh8"][:len(g.sans())], (g.sans(), g.alert)
    assert g.alert is not None or len(g.sans()) == 3, (g.sans(), g.alert)


@pytest.mark.parametrize("seed", [
    880002972,   # ...Bxg1 finished after the press, Rxg1 with e5 lifted before White's press (f4xe5 never begun)
    880006952,   # cxd5 finished after the press, ...Nxc3 slid (Nxf2 possible), recaptured bxc3
    880007468,   # Nxd4 finished after the press (Nxe5 possible), ...exd4 slid onto the knight, exf5+
    880007370,   # Kxf2 finished after the press, ...Ng4+, the king lifted for Kf1 before Black's press
    880003933,   # Bxa1 finished after the press (Bxf6 possible), ...Nbd7 Nf3, ...Ne4 leaving f6: four moves
])
def test_a_capture_finished_after_the_press_beside_another_late_tail_is_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "clock pressed with pieces off the board" or
    "more than one turn since the last recorded move": a capture whose victim came off after the
    press, combined with the next mover's hand starting before the press (resync._explain_beside:
    a capture still to come needs a piece lifted; the capturer lifted again to move on), a
    recapture of a later move of the sequence (later_evidence.recaptured after moves read on their own
    events), a recapture slid onto the capturer set down after the press (fits_events' slid_on),
    or the opponent leaving the capturer's other square only at the fourth move (explain's four)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


QUEEN_TAKES_ROOK_OR_PAWN = "rnbqkbnr/pppp1p2/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 5"
"""White's queen on h5 can take on e5 (check), f7 (check) or h8 (the rook): from e5 it takes on h8 too."""


@pytest.mark.parametrize("knock", [False, True])
def test_the_capturer_moving_on_by_a_capture_on_its_other_square(knock):
    """Qxe5+ finished after the press (the queen in the hand at the press, e5 lifted and the queen
    set on it after), then ...Be7: the same events are Qxh8 slid with Black's e5 pawn knocked and
    set back. Then e5 lifted, h8 lifted, the queen put on h8: read as Qxh8 from e5, the queen
    moving on by a capture on h8, the other square it could have taken on; in the other story that
    is White taking Black's e5 pawn off the board and setting his own queen back on h8, no move
    (later_evidence.moved_on, seed 978003416). With g8 handled too (`knock`), the events are as well the
    queen on h8 taking the g8 knight, knocking the e5 pawn onto h8 ("Qxh8 Be7 Qxg8"): nothing is
    written that the board does not prove."""
    tb = ra.Table("chess", QUEEN_TAKES_ROOK_OR_PAWN, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _late_capture_then_reply(tb, sq, True, reply_from="f8")
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert)      # two stories fit
    if knock:
        tb.step(sq("h8"), False, 300)       # the queen lifted from h8 ...
        tb.step(sq("e5"), False, 150)       # ... the e5 pawn knocked onto h8
        tb.step(sq("h8"), True, 150)
        tb.step(sq("g8"), False, 150)       # the knight taken on g8
        tb.step(sq("g8"), True, 150)
    else:
        tb.step(sq("e5"), False, 300)
        tb.step(sq("h8"), False, 200)
        tb.step(sq("h8"), True, 200)
    tb.press(0, 200)
    tb.advance(3 * ra.SETTLE_MS)
    if knock:
        assert "Qxe5+" not in g.sans() and g.sans() == ["Qxh8", "Be7", "Qxg8"][:len(g.sans())], (g.sans(), g.alert)
        assert g.alert is not None or len(g.sans()) == 3, (g.sans(), g.alert)
    else:
        assert g.sans() == ["Qxe5+", "Be7", "Qxh8"], (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


PAWN_TAKES_ON_B5 = "rnbq1rk1/1pp1bppp/4pn2/1p1p4/P4P2/3BP3/1BPP2PP/RN1QK1NR w KQ - 0 8"
"""1.b4 e6 2.Bb2 Nf6 3.b5 d5 4.e3 Be7 5.f4 O-O 6.Bd3 a6 7.a4 axb5: White's a4 pawn takes only on b5,
and after axb5 Black's rook on a8 takes on a1 down the open a-file."""


@pytest.mark.parametrize("picked_off", [True, False])
def test_a_piece_knocked_onto_an_empty_square_picked_off_after_the_settle(picked_off):
    """axb5 slid (the pawn in the hand at the press, set on b5 pushing its victim off), then ...Rxa1
    knocking White's rook onto a2, picked off only after the board settled (seed 983007475): at the
    settle the board reads "axb5 Ra2" out of order, an alert; once a2 is lifted the two moves
    explain every event (the knocked piece stood across Black's press only, the one ending the move
    it was knocked in) and are recorded. Where the piece on a2 is only lifted and set back on a2
    (`picked_off` False), the board still reads "axb5 Ra2" out of order: nothing is written."""
    tb = ra.Table("chess", PAWN_TAKES_ON_B5, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    tb.step(sq("a4"), False, 300)
    tb.press(0, 600)
    tb.step(sq("a8"), False, 600)
    tb.step(sq("a1"), False, 80)            # the rook takes on a1, knocking White's rook onto a2
    tb.step(sq("a2"), True, 80)
    tb.step(sq("a1"), True, 170)
    tb.press(1, 900)
    tb.advance(ra.SETTLE_MS + 300)
    assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert)
    tb.step(sq("a2"), False, 300)           # the piece on a2 taken off ...
    if not picked_off:
        tb.step(sq("a2"), True, 200)        # ... or only adjusted
    tb.advance(3 * ra.SETTLE_MS)
    if picked_off:
        assert g.sans() == ["axb5", "Rxa1"], (g.sans(), g.alert, tb.log)
    else:
        assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("seed", [
    983007475,   # axb5 slid, ...Rxa1 knocking the a1 rook onto a2, picked off just after the settle
])
def test_innocent_streams_with_a_knocked_piece_picked_off_after_the_settle_are_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "legal moves lead to it, but not in the order
    the board and the clock saw": the settle came while a piece knocked onto an empty square still
    stood there, and once it was picked off, the board read as a piece in the hand with no press
    pending, a case reconstruction.settled left unexplained (docs/bridge.md, "Late tails")."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


def _twin(events: list[tuple[str, bool, int]]) -> "str | None":
    """twin_line for White's Qxe5 (the queen on d4 could take on e5 or a7), with `events` since."""
    from flagfall.games import registry
    a = registry.make_adapter("chess", fen="4k3/p7/8/4p3/3Q4/8/8/4K3 w - - 0 1")
    return ra.twin_line(a, ["Qxe5+"], 0, [(a.square(sq), down, turn) for sq, down, turn in events])


def test_a_twin_line_is_a_capture_elsewhere_that_the_events_cannot_tell():
    """The bench's ceiling (tools/bench_record_or_alert.py, innocent_full_decidable): Qxe5+ slid onto
    its victim shows no event on e5, nor would Qxa7 on a7: a twin line, whichever reader. So it is
    still with the victim lifted and the queen set down on e5 within the reply's turn (the e5 pawn
    adjusted, in the other line), or with a7's pawn adjusted."""
    assert _twin([]) == "Qxa7"
    assert _twin([("e5", False, 1), ("e5", True, 1)]) == "Qxa7"
    assert _twin([("a7", False, 0), ("a7", True, 0)]) == "Qxa7"


def test_no_twin_line_where_the_events_tell_the_two_captures_apart():
    """e5 left empty across the press (the victim off, the queen set down only after the reply's
    press), or a7's pawn lifted and not set back: the events show which capture was made, so the
    stream counts against the bridge if it is not recorded."""
    assert _twin([("e5", False, 0), ("e5", True, 1)]) is None
    assert _twin([("a7", False, 1)]) is None


@pytest.mark.parametrize("seed", [
    978009102,   # ...Bxf3 finished after the press (...Bxh3 possible), Qxf3 slid, ...e6, Qxb7 from f3,
                 # ...Nbd7: the recapture followed by three more moves (later_evidence.recaptured)
    978009558,   # Qxh7 slid (Qxg4 possible), ...Qxh7 (...Qxe5+ possible too), Rxh7 ...d6, e6 from e5: the
                 # recapturer's other square later left by White (later_evidence.recaptured)
    983008634,   # ...Qb6 knocking White's c2 pawn (...Qxc2 possible), set back after the press, c3 from c2
                 # five presses later (later_evidence.knock_left)
    988003094,   # ...dxe4 finished after the press (...dxc4 possible), Nxe4 slid, ...Nxe4 Bxe4: two moves
                 # after the recapture
    988001743,   # ...Nxc3 slid (...Nxf2 possible), bxc3 slid, ...Qxe7 adjusted on e7 (Bxe7's victim taken off
                 # before ...Nxc3 began: not a placement the b2 pawn could have made), a4
    986003114,   # ...Nxc3 finished after the press (...Nxf2 possible), bxc3 slid, ...dxc4 with f1 lifted before
                 # its press, Bxc4: c4 placed twice since the b2 pawn's lift, the second by White's own move
                 # (no move takes a piece of its own side: later_evidence.recaptured counts Black's moves only)
])
def test_a_capture_or_a_knock_told_several_moves_later_is_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "clock pressed with pieces off the board" or
    "capture not shown": a recapture shown only with more than one move after it, a recapturer
    whose other capture is ruled out by its square left later by the first capturer's side, and a
    quiet move whose piece could have taken a piece knocked during its flight, ruled out by that
    piece's owner moving it later."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


QUEEN_C5_OVER_C2 = "r1b2bnr/ppp2k2/7p/2qP4/3Q1p1P/2N3p1/PPP3P1/R1B2BKR w - - 1 13"
"""Seed 983008634 before 13.Ne2 (played first): then Black's queen on c5 can take on c2, d4 (check) or d5."""


def _step_all(tb, sq, steps):
    """(square, down) steps, 300 ms apart; a side number presses that side's clock."""
    for s in steps:
        if isinstance(s, int):
            tb.press(s, 200)
        else:
            tb.step(sq(s[0]), s[1], 300)


@pytest.mark.parametrize("captured", [False, True])
def test_a_piece_knocked_in_the_air_is_told_from_a_capture_by_its_owner_moving_it(captured):
    """...Qb6 knocking White's c2 pawn (set back after the press): the same events are ...Qxc2
    finished after the press with the pawn knocked onto b6 (evidence.flight_touched), so the
    arbiter is asked; White's Qxb6 lifts b6 before the next press (so evidence._knock_stood does
    not settle it), ...axb6, then White's c3 from c2 shows the pawn was still there (in the other
    story White lifts Black's queen off c2 with nothing landing there: later_evidence.knock_left),
    and the four moves are recorded. Where ...Qxc2 was the move (`captured`: the queen set on c2
    after the press, the pawn picked off b6 by White's Qb6 from d4, ...axb6, then Nd4: the same
    occupancy after every move, but no White move leaves c2), nothing is written that the board
    does not prove."""
    tb = ra.Table("chess", QUEEN_C5_OVER_C2, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _play(tb, sq, [("c3", "e2")])
    _step_all(tb, sq, [("c5", False), ("c2", False), ("b6", True), 1, ("c2", True)])
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == ["Ne2"] and g.alert is not None, (g.sans(), g.alert)      # two stories fit
    _step_all(tb, sq, [("d4", False), ("b6", False), ("b6", True), 0, ("a7", False), ("b6", False), ("b6", True), 1])
    if captured:
        truth = ["Ne2", "Qxc2", "Qb6", "axb6", "Nd4"]
        _step_all(tb, sq, [("e2", False), ("d4", True), 0])
    else:
        truth = ["Ne2", "Qb6", "Qxb6", "axb6", "c3"]
        _step_all(tb, sq, [("c2", False), ("c3", True), 0])
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == truth[:len(g.sans())], (g.sans(), g.alert, tb.log)
    assert g.sans() == truth if not captured else g.alert is not None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


QUEEN_H5_OVER_H7 = "rnbk3q/ppppn2p/8/b3P2Q/2BP2p1/2P2pP1/PP6/RNB1K2R w KQ - 5 18"
"""Seed 978009558 before 18.Qxh7: White's queen on h5 can take on h7 or g4; after Qxh7 Black's
queen on h8 can take on h7 or on e5 (check)."""


@pytest.mark.parametrize("recaptured", [True, False])
def test_a_recapturer_that_could_take_elsewhere_is_told_by_that_square_left_later(recaptured):
    """Qxh7 slid onto its victim (Qxg4 possible), then h8 lifted, h7 lifted and a piece set on h7:
    ...Qxh7, or ...Qxe5+ slid with White's queen on h7 knocked and set back. Rxh7 ...d6 e6 from e5
    shows the recapture (in the other story e5 holds Black's queen, which White cannot move:
    later_evidence.recaptured), five presses (resync._explain_long). Where ...Qxe5+ was the move
    (`recaptured` False: Kf1 ...d6 Qh4 follow, no White move leaving e5), nothing is written that
    the board does not prove."""
    tb = ra.Table("chess", QUEEN_H5_OVER_H7, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _step_all(tb, sq, [("h5", False), 0, ("h8", False), ("h7", False), ("h7", True), 1])
    if recaptured:
        truth = ["Qxh7", "Qxh7", "Rxh7", "d6", "e6"]
        rest = [("h7", False), ("h1", False), ("h7", True), 0, ("d7", False), ("d6", True), 1,
                ("e5", False), ("e6", True), 0]
    else:
        truth = ["Qxh7", "Qxe5+", "Kf1", "d6", "Qh4"]
        rest = [("e1", False), ("f1", True), 0, ("d7", False), ("d6", True), 1, ("h7", False), ("h4", True), 0]
    _step_all(tb, sq, rest)
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == truth[:len(g.sans())], (g.sans(), g.alert, tb.log)
    assert g.sans() == truth if recaptured else g.alert is not None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("game", ["chess", "international", "brazilian", "russian", "checkers"])
def test_no_move_both_empties_or_fills_a_square_and_captures_on_it(game):
    """resync._explain_long's search keeps the k-th move only where its emptied squares were lifted
    in its part of the window, while _move_fits excuses a captured-on square showing no event (a
    capture slid onto its victim): sound only because no move's captured-on square is also one it
    empties or fills, else the search could leave out a sequence fits_events accepts and a rival
    would look like the one that fits. Checked along random games of every variant."""
    import random
    from flagfall.games import registry
    seen = 0
    for g in range(12):
        rng = random.Random(g)
        a = registry.make_adapter(game)
        for _ in range(80):
            cands = a.candidates()
            if not cands:
                break
            for c in cands:
                on = frozenset(s for s, *_ in c.touch)
                seen += bool(on) or len(c.emptied) > 1      # a capture (draughts: its victims emptied)
                assert not (c.emptied | c.filled) & on, (game, c.label)
            a.push(rng.choice(cands).moves[0])
    assert seen > 100      # captures were met on the way




@pytest.mark.parametrize("played", ["Qxe5+", "Qxh7"])
def test_a_quiet_move_on_from_the_square_taken_on_by_its_press_alone_shows_the_capture(played):
    """Qxe5+ slid (e5 never reads empty; Qxg6+ and Qxh7 possible too), ...Qe7, Qf4 from e5 (e5
    lifted, set back, lifted again, f4 placed, the press), ...d6 with h7 adjusted after White's press:
    by its press White lifted only e5, and in the other story (Qxh7 slid) that is Black's pawn carried
    to f4, no move (later_evidence._carried_before_press; here the three moves are read at White's
    press already, before h7 is handled: seed 986000695 pins the long window). Where Qxh7 was played (slid) and White's
    hand lifts the queen from h7 before Black's press, then knocks the e5 pawn, sets the queen on f4
    (an illegal queen move, still a move) and the pawn on h7 after its press, the queen is off the
    board at the press before the moving-on move: the record never shows Qxe5+."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    if played == "Qxe5+":
        _step_all(tb, sq, [("h5", False), 0, ("d8", False), ("e7", True), 1])
        tb.advance(3 * ra.SETTLE_MS)
        _step_all(tb, sq, [("e5", False), ("e5", True), ("e5", False), ("f4", True), 0, ("h7", False), ("h7", True),
                           ("d7", False), ("d6", True), 1])
        truth = ["Qxe5+", "Qe7", "Qf4", "d6"]
    else:
        _step_all(tb, sq, [("h5", False), 0, ("d8", False), ("e7", True), ("h7", False), 1])
        tb.advance(3 * ra.SETTLE_MS)
        _step_all(tb, sq, [("e5", False), ("f4", True), 0, ("h7", True), ("d7", False), ("d6", True), 1])
        truth = []
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == truth, (g.sans(), g.alert, tb.log)
    assert g.alert is None if played == "Qxe5+" else g.alert is not None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("played", ["Qxg6+", "Qxh7"])
def test_a_capture_onto_the_other_square_with_its_victim_pushed_off_shows_the_first_capture(played):
    """Qxg6+ slid (g6 never reads empty; Qxe5+ and Qxh7 possible too), ...Ke7, then Qxh7+ from g6
    pushing the h7 pawn off onto h6, picked off after the press, ...Bg7: in the other story (Qxh7
    slid) the two pieces in the hand at White's third move are the queen on h7 and Black's g6 pawn;
    either the queen is set back (no move of White's) or it lands on h6 and is taken off the board
    with nothing landing there, no move (later_evidence._taken_off_after; seed 986008794). Where
    Qxh7 was played (slid, ...Ke7, Qh6 knocking the g6 pawn onto h7, ...Bg7, Qh4 from h6), h6 is
    left by a move of White's own: nothing is written that the board does not prove."""
    tb = ra.Table("chess", QUEEN_TAKES_THREE_WAYS, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _step_all(tb, sq, [("h5", False), 0, ("e8", False), ("e7", True), 1])
    tb.advance(3 * ra.SETTLE_MS)
    if played == "Qxg6+":
        _step_all(tb, sq, [("g6", False), ("h7", False), ("h6", True), ("h7", True), 0, ("h6", False),
                           ("f8", False), ("g7", True), 1])
    else:
        _step_all(tb, sq, [("h7", False), ("g6", False), ("h7", True), ("h6", True), 0, ("f8", False),
                           ("g7", True), 1, ("h6", False), ("h4", True), 0])
    tb.advance(3 * ra.SETTLE_MS)
    if played == "Qxg6+":
        assert g.sans() == ["Qxg6+", "Ke7", "Qxh7+", "Bg7"] and g.alert is None, (g.sans(), g.alert, tb.log)
    else:
        assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]

KNIGHT_E4_OVER_C3 = "rnb1k2r/ppp1qppp/4p3/3p4/2PPn3/1QN1P3/PP3PPP/R3KBNR b KQkq - 1 7"
"""Seed 986003114 before 7...Nxc3: Black's knight on e4 can take on c3 or f2."""


def test_a_recapture_whose_pawn_lands_where_the_first_capturers_side_takes_it_is_not_read():
    """...Nxf2 slid (c3 never reads empty), White's c3 knight knocked and set back after the press,
    b2-b4 finished after the press with Black's hand already on its queen, ...Qxb4, Nf3: the events
    are also "...Nxc3 bxc3 (slid) ...Qb4 (adjusted on b4) Nf3", the same occupancy after every move.
    later_evidence.recaptured counts the moves after the recapture of the first capturer's side only
    (a move of White's own cannot take White's pawn); Black's ...Qb4 here shows b4 placed twice
    since b2 was lifted, and the record never shows ...Nxc3."""
    tb = ra.Table("chess", KNIGHT_E4_OVER_C3, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _step_all(tb, sq, [("e4", False), 1, ("c3", False), ("c3", True), ("b2", False), 0, ("e7", False),
                       ("b4", True), ("b4", False), ("b4", True), 1, ("g1", False), ("f3", True), 0])
    tb.advance(3 * ra.SETTLE_MS)
    assert g.sans() == ["Nxf2", "b4", "Qxb4", "Nf3"][:len(g.sans())], (g.sans(), g.alert, tb.log)
    assert g.alert is not None or len(g.sans()) == 4, (g.sans(), g.alert)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]

@pytest.mark.parametrize("seed", [
    986002664,   # Qxe4 slid (Qxd7 possible), Bd3 adjusted on d3 (the queen's square), Qf5 from e4 twelve
                 # presses on, ...d5 leaving d7: the plain reading took Qf5's lift for Qxe4's landing
    986005874,   # exd4 slid, ...f5 with White's e5 lifted before Black's press, exf6 e.p. after it
    # (986006922 and 986004912, read here too, are pinned with the long windows above)
])
def test_a_slid_capture_or_an_early_start_read_past_a_later_press_is_recorded_in_full(seed):
    """Innocent streams (issue #28) that stopped with "capture not shown": a capture slid onto its
    victim whose plain reading ended it at a later press of its side's (the capturer's origin filled
    again and adjusted, its victim's square handled by the capturer moving on), read as ended by its
    side's first press (evidence.fits_events, either reading), a square lifted for a later move of
    the sequence and touched in passing afterwards not read as a piece knocked and held off the
    board; and the mover's own piece lifted before the opponent's press that ended the move after
    the mover's, moved after it (resync._explain_early at the window's second press)."""
    o = ra.run_stream(seed)
    assert o.innocent, o.report()
    assert not o.fabricated and o.full, o.report()
    assert o.penalties == 0 and o.illegal_alerts == 0, o.report()


def _stream_cut(monkeypatch, seed: int, keep: int) -> ra.Outcome:
    """Seed's stream with only its first `keep` board events and presses delivered (those after are
    never made: the hands stop, the clock runs on)."""
    class Cut(ra.Table):
        def step(self, sq, down, dt):
            if len(self.log) < keep:
                super().step(sq, down, dt)
            else:
                self.advance(dt)

        def press(self, side, dt):
            if len(self.log) < keep:
                super().press(side, dt)
            else:
                self.advance(dt)
    monkeypatch.setattr(ra, "Table", Cut)
    return ra.run_stream(seed)


def test_a_slid_capture_read_past_a_later_press_still_needs_the_moves_that_show_it(monkeypatch):
    """Seed 986002664 stopped before Qf5 (the queen moving on from e4) and ...d5 (Black leaving d7):
    Qxe4 slid, or Qxd7 slid with Black's e4 knight adjusted, show the same events (a twin line), and
    reading Qxe4 as ended by White's first press does not pass the guard on a capture by a piece that
    had another (later_evidence.moved_on): nothing is recorded past ...Nxe4, and an alert is up."""
    full = ra.run_stream(986002664)
    keep = next(i for i, line in enumerate(full.stream) if line.endswith("up e4") and i > 200)
    o = _stream_cut(monkeypatch, 986002664, keep)
    assert o.record == full.truth[:18] and o.alert is not None, o.report()
    assert not o.fabricated and o.penalties == 0 and o.illegal_alerts == 0, o.report()


# White's e3 pawn can take d4; Black's f7 pawn can go to f5, which White's e5 pawn can take en passant;
# Black's queen on c7 can take e5
PAWNS_E3_E5 = "4k3/2q2p2/8/4P3/3p4/4P3/8/4K3 w - - 0 1"


@pytest.mark.parametrize("third", ["exf6", "Kd2"])
def test_the_movers_piece_lifted_before_the_opponents_press_is_its_next_move_only_if_moved(third):
    """exd4 slid onto its victim (d4 shows nothing: the reply shows it), then ...f5, Black's queen
    adjusted on c7, and White's e5 pawn lifted before Black's press (White's hand starting early, at
    the window's second press; not read beside the lift at that press: the queen, lifted in the
    window, could take on e5). With exf6 e.p. after the press, the three moves are read with the
    lift moved just after Black's press (resync._explain_early): e5, White's since the window began
    and lifted once, is moved by White's next move, and no legal play to the board has Black's move
    take a piece off e5 (...Qxe5 would leave e5 filled). Seed 986005874. With Kd2
    instead, the pawn never set down again, nothing is read from the lift: an alert, no move invented."""
    tb = ra.Table("chess", PAWNS_E3_E5, "auto")
    sq = tb.dev.truth.square
    g = tb.eng.game
    _step_all(tb, sq, [("e3", False), 0])
    tb.advance(2 * ra.SETTLE_MS)            # the board settles with d4 showing nothing of exd4
    _step_all(tb, sq, [("f7", False), ("f5", True), ("c7", False), ("c7", True), ("e5", False), 1])
    if third == "exf6":
        _step_all(tb, sq, [("f6", True), ("f5", False), 0])
    else:
        _step_all(tb, sq, [("e1", False), ("d2", True), 0])
    tb.advance(3 * ra.SETTLE_MS)
    if third == "exf6":
        assert g.sans() == ["exd4", "f5", "exf6"] and g.alert is None, (g.sans(), g.alert, tb.log)
    else:
        assert g.sans() == [] and g.alert is not None, (g.sans(), g.alert, tb.log)
    assert not [d for d in g.decisions if d.kind == D.PENALTY or
                (d.kind == D.ALERT and d.alert_kind == D.ALERT_ILLEGAL)]


@pytest.mark.parametrize("seed", [
    978000564,   # a fifteen-press window read (Qxf3 ... Qxf6+)
    986000196,   # fourteen presses, read with the next mover's hand early (longwindow.long_early)
])
def test_the_long_window_search_leaves_out_no_sequence_that_fits(seed, monkeypatch):
    """longwindow.long_found looks at a move capturing nothing only where its piece lands on a square
    placed on from the press before the move to the press ending the move after it (plays'
    `landed`, fits_events' held): on every window of these streams whose unpruned search is read
    in full, the sequences that fit are the same with and without that rule (it only leaves out
    sequences fits_events refuses, so the one-sequence rule is judged among the same ones)."""
    from flagfall.bridge import longwindow
    from flagfall.bridge.evidence import fits_events
    from flagfall.bridge.plays import step_key
    search = longwindow.bounded_sequences
    compared: list[int] = []

    def both(game, target, plies, limit=8, first=None, handled=None, budget=None, landed=None):
        found = search(game, target, plies, limit, first, handled, budget, landed)
        whole = search(game, target, plies, limit, first, handled, budget)
        if whole is not None and len(whole) <= limit:         # (read in full)
            assert found is not None and len(found) <= len(whole)

            def fitting(seqs):
                return {tuple(step_key(c) for c, _ in f) for f in seqs
                        if fits_events(game, f, game.adapter.side(), late=True, unseen=True)}
            assert fitting(found) == fitting(whole), (seed, plies)
            compared.append(plies)
        return found
    monkeypatch.setattr(longwindow, "bounded_sequences", both)
    o = ra.run_stream(seed)
    assert not o.fabricated and o.full, o.report()
    assert max(compared) >= 14, compared


def test_a_stream_cut_before_its_evidence_is_played_on_until_the_record_holds_the_cut():
    """The bench's play-on reading (run_stream's play_on): Nxc3 is the ply before the cut, its victim
    taken off after the press (...Nxf2 was possible), so at the cut the bridge waits for the reply
    with an alert for the arbiter. Played on by fair hands, the reply shows the capture and every
    ply before the cut is recorded; only those are judged, and the play after is checked like the
    rest (no penalty, no "illegal move" alert)."""
    at_cut = ra.run_stream(992000318)
    assert at_cut.innocent and not at_cut.full and at_cut.alert
    o = ra.run_stream(992000318, play_on=ra.PLAY_ON)
    assert o.fabricated is None, o.report()
    assert o.judged == len(at_cut.truth) and o.truth[:o.judged] == at_cut.truth
    assert o.full_at_cut is False and o.full, o.report()
    assert len(o.truth) > o.judged and o.penalties == 0 and o.illegal_alerts == 0


def test_a_stream_at_its_games_last_move_is_not_played_on():
    """Nxg1 is the game's last move but three: the stream is cut at the game's end, so there is
    nothing to play on, and the stream is judged as it stands (a twin line: ...Nxg1 slid, ...Nxc3
    possible, no later move to tell them)."""
    o = ra.run_stream(992000514, play_on=ra.PLAY_ON)
    assert o.innocent and o.fabricated is None
    assert o.judged == len(o.truth) and not o.full and o.twin is not None


def test_streams_recorded_at_the_cut_and_guilty_ones_are_not_played_on():
    """Only an innocent stream short of the cut is played on: the others are judged at the cut, and
    the judgement reads as without play_on."""
    seen = {True: 0, False: 0}
    for seed in range(993900000, 993900040):
        plain = ra.run_stream(seed)
        o = ra.run_stream(seed, play_on=ra.PLAY_ON)
        if o.innocent and not plain.full:
            continue
        seen[o.innocent] += 1
        assert o.truth == plain.truth and o.record == plain.record and o.judged == len(o.truth)
        assert o.full == plain.full == o.full_at_cut
    assert seen[True] and seen[False], seen
