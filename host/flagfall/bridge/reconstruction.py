"""Reading a game's board into moves within one window (since the last committed move): the move a
clock press ends, the move a settled board shows, the evidence a move must have (its pieces handled
after the press before it and before its own: fits_presses, began_before_press, flight_touched,
rival_captures), a settled move continued by the same hand into another (try_amend), the mover's move
beside the opponent's hand already on the board (beside_lifted), and the alert or the illegal move
when nothing explains the board. Several moves (after an outage, or both players acting inside the
settle window) are resync's.

These functions read and update the part of a game listed in `Game` (documented on
flagfall.bridge.game.Game) and return its decisions like the game's own inputs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Protocol, Sequence

from flagfall import occupancy as core
from flagfall.bridge import alerts, evidence, penalties, resync, window
from flagfall.bridge import decisions as D

if TYPE_CHECKING:
    from flagfall.bridge.decisions import Times
    from flagfall.games.protocol import Square


class Game(evidence.Game, penalties.Game, alerts.Game, Protocol):
    """The game's members the board is read through (the game's state, documented on
    flagfall.bridge.game.Game)."""

    clock_mode: bool
    clock_side: Optional[int]
    settle_ms: int
    settle_at: Optional[int]
    inhand_since: Optional[int]
    owed: int
    prev_occ: list[frozenset[Square]]
    prev_window: list[tuple[int, Square, bool]]
    pending_press: Optional[tuple[int, int, Times]]
    pending_at: int
    pending_origins: set[Optional[Square]]
    pending_unshown: bool

    def reading(self) -> Times: ...
    def commit_pending(self, cand: core.Candidate, lifted: Sequence[Square] = ()) -> list[D.Decision]: ...


def match(game: Game, relaxed: bool = False) -> core.Result:
    """What the board shows now against the legal moves (occupancy.match; `relaxed`: also a move
    whose capture is still in the hand)."""
    return core.match(game.tracker, game.index, relaxed)


def settled(game: Game, t: int) -> list[D.Decision]:
    """The board has been still for settle_ms (Game.tick): the move it shows committed, or the alert
    (or the illegal move) when it shows none."""
    pressed = game.pending_press is not None
    r = match(game, pressed)
    a = game.adapter
    if r.kind == core.MATCH and pressed and not asked_for(game, r.matched) and not began_before_press(game, r.matched):
        # the move began after the press: that press ended no move (an illegal move put
        # right, a stray press); the move stands on its own when the clock allows it
        game.pending_press = None
        pressed = False
        game.window_counted += 1
        game.emit([D.Decision(D.INFO, t, text="clock pressed before the move %s was begun"
                              % a.text(a.choose(r.matched, game.prefs)), press_without_move=True)])
    if r.kind == core.MATCH and flight_touched(game, r.matched):
        return game.set_alert(t, "ambiguous: %s, or a capture by the same piece whose victim was knocked "
                              "onto %s? Take the knocked piece off, or the arbiter confirms"
                              % (a.text(a.choose(r.matched, game.prefs)), alerts.names(game, r.matched.filled)))
    if r.kind == core.MATCH and pressed and not asked_for(game, r.matched) and \
            not fits_presses(game, r.matched, late=True):
        # the board shows one legal move, but its pieces were handled before the opponent's
        # press that handed over the turn: another order of events (a take-back and new
        # moves) may explain it; if none does, the arbiter confirms what was played
        explained = resync.explain(game, t)
        if explained:
            return explained
        if r.matched.touch and rival_captures(game, r.matched):
            # a capture finished after the press, while the same piece could have captured
            # elsewhere without showing it: an opponent's piece knocked and set up after the
            # press looks the same; the reply or the arbiter settles it (the press waits)
            return _rival_capture_alert(game, t, r.matched)
        game.pending_press = None
        text = a.text(a.choose(r.matched, game.prefs))
        return game.set_alert(t, "unexplained position: the board shows %s, but not in the order the clock "
                              "was pressed; the arbiter confirms the move (or enters the moves made)" % text)
    if r.kind == core.MATCH and not pressed and game.correcting and r.matched.touch and \
            rival_captures(game, r.matched) and _captured_after_press(game, r.matched):
        # the press that waited for this move was answered "pieces off the board": a capture whose
        # victim's square was handled only after that press, by a piece that could have captured
        # elsewhere, is also that other capture slid onto its victim and this square the
        # opponent's hand (seed 900004122: Qxe5 slid, Black's illegal f7-a6 put right, read as Qxf7+)
        return _rival_capture_alert(game, t, r.matched)
    if r.kind == core.MATCH and not pressed and _victims_off_across_press(game, r.matched):
        # a move made after the last press whose captured pieces were already off the board at a
        # press: those squares were emptied by other hands (a move taken back, another capture
        # over the same pieces) before this move began, and the board alone does not say which
        # moves (seed 930008087: 17x10 taken back by agreement, 18x9, then 6x22 read as capturing
        # 10 and 18 after 17x10)
        return game.set_alert(t, "unexplained position: the board shows %s, but the pieces it captures were "
                              "off the board before it began; the arbiter confirms the moves made"
                              % a.text(a.choose(r.matched, game.prefs)))
    if r.kind == core.MATCH:
        out_of_step = game.clock_side is not None and game.clock_side != a.side()
        if not game.clock_mode or pressed or game.correcting or out_of_step:
            if game.pending_press is not None:
                return game.commit_pending(r.matched)
            return game.commit(r.matched, t, None, "settled")
        return alerts.clear_alert(game, t)
    if pressed and r.kind != core.IDLE and game.pending_press is not None:
        beside = beside_lifted(game, late=True)
        if beside is not None:
            return commit_beside(game, beside)
    if r.kind == core.IDLE and game.alert is not None and game.clock_mode and not game.tracker.gap and \
            game.clock_owed - (1 if pressed else 0) >= 2:
        # the board back at the last recorded position while the clock counts presses of both
        # sides the record holds neither as moves nor as presses without one: moves were made and
        # undone, or repeated back to this position (seed 891005318: Qb5+ Qd7 Qh5+ Qf7 after Qf7,
        # the alert cleared and four moves lost); the alert stays
        return []
    if r.kind == core.IDLE:
        out = alerts.clear_alert(game, t)
        if pressed:
            game.pending_press = None
            game.window_counted += 1
            out += game.emit([D.Decision(D.INFO, t, text="clock pressed, but no move was made",
                                         press_without_move=True)])
        return out
    if (game.tracker.gap and not game.clock_mode) or game.owed > 1 or (game.owed and game.tracker.gap):
        caught = resync.catch_up(game, t, game.reading(), game.owed or 2)
        if caught is not None:
            return caught
    if game.moves and game.moves[-1].how == "settled":
        out = try_amend(game, t)
        if out:
            return out
    if game.prev_occ and set(game.tracker.cur) == set(game.prev_occ[-1]) and evidence.takeback_seen(game, 1) \
            and not any(p[1] != a.side() for p in game.press_log):
        # the board back at the position before the last move, its lifts and placements seen: a
        # take-back (by agreement, the clock maybe pressed back by the opponent). Not where the
        # last move's own side has pressed since: moves were made after the take-back and
        # returned to that position (a repetition: Kd1 taken back, then Qb5+ Qd7 Qh5+ Qf7 was
        # read as the take-back alone, four moves lost with no alert); the alert stays
        return game.take_back(t, "board")
    if r.kind == core.AMBIGUOUS:
        labels = " or ".join(a.text(a.choose(c, game.prefs)) for c in r.options)
        return game.set_alert(t, "ambiguous: %s (%s); lift and replace the moved piece, "
                               "or the operator chooses" % (labels, alerts.diff_text(game, r)))
    if r.kind == core.IN_HAND:
        if not pressed:
            if game.press_sides and game.alert is not None:
                # the press was answered by an alert, and the board changed since (a piece knocked
                # onto an empty square during the reply, picked off after the settle): the moves
                # since the last recorded one may now explain it, as where no move is in the hand
                explained = resync.explain(game, t)
                if explained:
                    return explained
            if r.options and not game.clock_mode:
                # a piece held in the hand, or a capture whose victim never read empty
                # (pushed off by the capturing piece): after a long wait, say so
                if game.inhand_since is None:
                    game.inhand_since = t
                if t - game.inhand_since < 10 * game.settle_ms:
                    game.settle_at = game.inhand_since + 10 * game.settle_ms
                    return []
                what, how = a.evidence_hint(r.options[0])
                return game.set_alert(t, "%s (%s)? %s, or the operator confirms the move"
                                      % (what, alerts.diff_text(game, r), how))
            return []
        # the press stays pending: the first explained position commits; if the opponent
        # has pressed since, the reply may be what explains the board
        if 1 - a.side() in game.press_sides:
            explained = resync.explain(game, t)
            if explained:
                return explained
        if r.options:
            what, how = a.evidence_hint(r.options[0])
            return game.set_alert(t, "%s (%s): %s" % (what, alerts.diff_text(game, r), how))
        return game.set_alert(t, "clock pressed with pieces off the board (%s)" % alerts.diff_text(game, r))
    # both players acted inside the settle window (a take-back by agreement and new moves,
    # a castling finished after the reply): a short edit of the record may explain the board
    if game.press_sides:
        explained = resync.explain(game, t)
        if explained:
            return explained
    # unexplained: an unfinished legal move (castling with the rook still home, en passant
    # with the captured pawn still there) is not an illegal move; the press stays pending
    part = alerts.partial(game, r)
    if part:
        return game.set_alert(t, "move not finished (%s?): %s" % (part, alerts.diff_text(game, r)))
    if pressed and game.tracker.gap:
        # after a resync (a restart, a reconnect) nobody saw how the board came to this: the
        # usual reason is a move still being made by the side now on move; never a penalty
        game.pending_press = None
        game.window_counted += 1
        return game.set_alert(t, "after the reconnect the board shows no legal continuation yet (%s): a move "
                              "still being made? This clears when it is finished; otherwise the arbiter "
                              "enters the moves made" % alerts.diff_text(game, r))
    if not pressed:
        # no press: no move was completed (a hand still busy, a piece set down to think)
        return game.set_alert(t, "unexplained position (%s): restore the position or make a legal move; "
                              "the arbiter confirms" % alerts.diff_text(game, r))
    opp = 1 - a.side()
    replied = any(s == opp and p >= game.pending_at for p, s, *_ in game.press_log)
    if not replied and any(a.owner(s) == opp for s in r.emptied):
        # the opponent's hand is already on the board and it has not pressed: its reply may
        # be what explains the mover's move (a capture that never read empty); the press waits
        return game.set_alert(t, "unexplained position (%s): the opponent is moving before the move was "
                              "shown; this clears when the board shows the moves, else the arbiter "
                              "confirms" % alerts.diff_text(game, r))
    game.pending_press = None
    game.window_counted += 1
    if any(s == opp and p < game.pending_at for p, s, *_ in game.press_log) or (not a.lazy and (
            any(s == opp and game.pending_at <= p < game.tracker.n for p, s, *_ in game.press_log) or
            (replied and any(game.tracker.first_up.get(s, 0) > game.pending_at
                             for s in r.emptied if a.owner(s) == a.side())))):
        # the opponent pressed in this window before this press, or after it with the board
        # handled again since or a piece of the mover's first lifted after its press (the
        # mover's next turn begun): the board holds more than one turn since the last
        # recorded move, and no one of them is this press's alone (the second and third
        # only where turns are one move: not for lazy adapters, minzu)
        return game.set_alert(t, "unexplained position (%s) after more than one turn since the last recorded "
                              "move: the arbiter confirms or enters the moves made" % alerts.diff_text(game, r)) + \
            game.emit([D.Decision(D.INFO, t, text="no penalty: more than one turn since the last recorded move",
                                  press_without_move=True)])
    if a.side() not in {a.owner(s) for s in r.emptied}:
        # never penalise the side that did not move: its pieces must be among those moved
        out = game.set_alert(t, "unexplained position (%s) at %s's press, but none of %s's pieces "
                             "moved: the arbiter confirms" % (alerts.diff_text(game, r), a.side_names[a.side()],
                                                              a.side_names[a.side()]))
        return out + game.emit([D.Decision(D.INFO, t, text="no penalty: %s's pieces did not move"
                                           % a.side_names[a.side()], press_without_move=True)])
    if all(game.tracker.first_up.get(s, 0) > game.pending_at for s in r.emptied if a.owner(s) == a.side()):
        # the mover's pieces left their squares only after its press: that press ended no
        # move (a press back, a stray press); what follows is the next turn's
        return game.set_alert(t, "unexplained position (%s): %s's pieces moved only after its clock press; "
                              "the arbiter confirms" % (alerts.diff_text(game, r), a.side_names[a.side()])) + \
            game.emit([D.Decision(D.INFO, t, text="no penalty: %s's pieces moved only after its press"
                                  % a.side_names[a.side()], press_without_move=True)])
    if not complete(game, r):
        # a piece off the board at the press: the evidence is not complete (a capture
        # finished later, a piece knocked off and not yet set back); never a penalty
        game.correcting = True
        return game.set_alert(t, "clock pressed with pieces off the board (%s): the arbiter confirms; "
                              "this clears when the board shows a legal move" % alerts.diff_text(game, r))
    story = resync.legal_story(game)
    if story is not None:
        # legal moves lead to this board, in an order of events the bridge cannot prove (a
        # piece held off the board across a press, the clock handed back and forth): the
        # arbiter confirms, never a penalty
        game.correcting = True
        return game.set_alert(t, "unexplained position (%s): legal moves lead to it (%s), but not in the "
                              "order the board and the clock saw; the arbiter confirms the moves"
                              % (alerts.diff_text(game, r), " ".join(story)))
    if replied and not a.lazy and _reply_on_board(game, r):
        # the opponent replied after the mover's legal move (its pieces lifted after the press,
        # the board before them a legal move of the mover's): the part no legal move explains
        # is the reply's, not this press's (seed 830003420: ...fxe4 waited for its knocked piece,
        # White's illegal a1-e6 was called Black's)
        return game.set_alert(t, "unexplained position (%s) after more than one turn since the last recorded "
                              "move: the arbiter confirms or enters the moves made" % alerts.diff_text(game, r)) + \
            game.emit([D.Decision(D.INFO, t, text="no penalty: more than one turn since the last recorded move",
                                  press_without_move=True)])
    return penalties.illegal(game, t, a.side(), alerts.diff_text(game, r))


def _rival_capture_alert(game: Game, t: int, cand: core.Candidate) -> list[D.Decision]:
    """The alert for a capture finished after the press by a piece that could have captured
    elsewhere: the reply settles which, or the arbiter."""
    return game.set_alert(t, "capture finished after the press (%s?) or another capture by the same piece: "
                          "the reply shows which, or the arbiter confirms"
                          % game.adapter.text(game.adapter.choose(cand, game.prefs)))


def _victims_off_across_press(game: Game, cand: core.Candidate) -> bool:
    """True if a square the candidate captures on (or takes a piece off) was last lifted before a
    press of the opponent's in this window: its piece was off the board across the opponent's turn
    (across the mover's own press it may be a capture whose piece was in the hand at the press)."""
    seen = window.Seen(game)
    mover = game.adapter.side()
    return any(sq in seen.lifts and any(seen.lifts[sq][-1] <= p for p, s in seen.presses if s != mover)
               for sq in window.captured_on(cand))


def _captured_after_press(game: Game, cand: core.Candidate) -> bool:
    """True if the candidate's moving piece was last picked up before a press of its side in this
    window and a square it captures on was first handled after that press."""
    if cand.origin is None:
        return False
    up = game.tracker.last_up.get(cand.origin)
    side = game.adapter.side()
    press = next((n for n, s, *_ in game.press_log if s == side and up is not None and n >= up), None)
    if press is None:
        return False
    seen = window.Seen(game)
    return any(not any(i <= press for i in [*seen.lifts.get(s, []), *seen.places.get(s, [])])
               for s in window.touched(cand))


def _reply_on_board(game: Game, r: core.Result) -> bool:
    """True if pieces of the opponent's left their squares after the mover's pending press (its
    reply, pressed since) and the board just before the first of them showed a legal move of the
    mover's (with its capture maybe in the hand): the mover's part is a legal move, so what no
    legal move explains came with the reply. A mover's illegal move answered by the opponent (a
    pinned knight moved, then ...exd4) is still the mover's: the board before the reply shows it."""
    a = game.adapter
    tr = game.tracker
    opp = 1 - a.side()
    lifts = [tr.first_up[s] for s in r.emptied if a.owner(s) == opp and tr.first_up.get(s, 0) > game.pending_at]
    if not lifts:
        return False
    view = core.Tracker(tr.base)
    for tt, s, d in tr.log[:min(lifts) - 1]:
        view.event(tt, s, d)
    return core.match(view, game.index, True).kind in (core.MATCH, core.IN_HAND)


def complete(game: Game, r: core.Result) -> bool:
    """True if the board shows completed moves with every piece on the board: the mover's pieces
    left their squares, and every piece missing from its square stands on a square that was
    empty or on a square whose lift and placement both came after the mover's first lift, with
    its capturer in a hand (a capture shown in full: _capturer_in_hand). A piece in a hand is
    evidence not yet complete."""
    a = game.adapter
    tr = game.tracker
    mover = a.side()
    left = [s for s in r.emptied if a.owner(s) == mover]
    lifted = [tr.first_up[s] for s in left if s in tr.first_up]
    if not left or not lifted:
        return False
    start = min(lifted)
    # pieces leave the board only by captures shown on their square (lifted, then a piece set
    # down on it), of the mover's opponent unless the opponent has pressed in this window (a
    # piece of the mover's lifted and put back before that was adjusted, not captured); any
    # more off the board are in a hand (the opponent's too)
    replied = 1 - mover in game.press_sides
    # once the opponent has replied and its pieces are among those moved, its own hand has been
    # on the board too: a square of its lifted and set down shows a capture of the mover's only
    # where a piece of the mover's that left could capture there (else it was the opponent's
    # piece adjusted: seed 732004722, exf4 slid and O-O knocking f4, set back after the settle,
    # was called Black's illegal move with c2 and b1 touched by White counted as captures)
    reach: Optional[frozenset[Square]] = None
    if replied and any(a.owner(s) == 1 - mover for s in r.emptied) and not a.lazy:
        reach = frozenset(x for c in a.candidates() if c.origin in left for x, *_ in c.touch)
    # a capture by the mover is shown by its press: a square of the opponent's set down after
    # it may as well be the opponent's hand, adjusting or starting its reply (seed 800005261:
    # White's g2 adjusted after Black's press of Bd6, f7 knocked off, counted as captured by it)
    captured = sum(1 for s, up in tr.last_up.items()
                   if s in tr.cur and s in tr.base and up > start and tr.last_down.get(s, 0) > up
                   and (replied or a.owner(s) != mover)
                   and (reach is None or a.owner(s) == mover or s in reach)
                   and (a.owner(s) == mover or tr.last_down.get(s, 0) <= game.pending_at)
                   and _capturer_in_hand(game, r, s, start))
    return len(r.emptied) <= len(r.filled) + captured


def _capturer_in_hand(game: Game, r: core.Result, s: Square, start: int) -> bool:
    """True if a piece could have been set down on s as its capturer: a piece of the other side
    than s's left its square (one of r.emptied) after the mover began (start) and before the last
    placement on s. A square lifted and set down while no such piece was in a hand was a piece
    adjusted, not a capture: seed 790034438, h8 knocked and set back before e2 left counted as a
    capture of White's, so e4 with c2 knocked off was White's illegal move; seed 790033883, 21
    touched by Black's hand counted as Black capturing it with a piece lifted off 9 before White
    began, so White's 22-18 was an illegal move."""
    a = game.adapter
    tr = game.tracker
    if a.spec.family == "draughts":
        # a draughts capture never lands on its victim's square: a piece lifted there and set
        # down again was adjusted (seed 790038075: White's piece on 20, captured by 15x24, set
        # down again by White's hand adjusting it, was counted as captured, so 15x24 with 17
        # knocked off was Black's illegal move)
        return False
    put = tr.last_down.get(s, 0)
    return any(a.owner(m) != a.owner(s) and start <= tr.last_up.get(m, -1) < put for m in r.emptied)


def try_amend(game: Game, t: int) -> list[D.Decision]:
    """A move committed on settling, continued by the same hand into another legal move.

    Without a clock a slow multi-piece move (castling rook first) can settle
    half-way on a legal move (the rook move). If the board then shows a
    position that the previous position plus one legal move explains, with
    both windows' touches together, that move replaces the settled one.
    """
    a = game.adapter
    last = game.moves[-1]
    base = game.prev_occ[-1]
    a.pop()
    idx = core.group(a.candidates())
    tr = core.Tracker(base)
    for (tt, s, d) in game.prev_window + game.tracker.log:
        tr.event(tt, s, d)
    r = core.match(tr, idx)
    if r.kind != core.MATCH or last.move in r.matched.moves:
        a.push(last.move)
        return []
    old = game.moves.pop()
    game.prev_occ.pop()
    game.tracker = tr
    game.index = idx
    decs = game.emit([D.Decision(D.AMEND, t, ply=len(game.moves), old=old.text)])
    return decs + game.commit(r.matched, t, None, "settled")


def asked_for(game: Game, cand: core.Candidate) -> bool:
    """True if the board now shows the evidence an alert asked for after the pending press (a
    capture not shown, an ambiguous capture redone) by the piece that was moving at the press."""
    return game.alert is not None and cand.origin in game.pending_origins and \
        (not game.pending_unshown or not rival_captures(game, cand))


def press_ends(game: Game, cand: core.Candidate) -> bool:
    """True if the pending press is the one that ended the candidate's move."""
    return asked_for(game, cand) or (began_before_press(game, cand) and not flight_touched(game, cand)
                                     and fits_presses(game, cand))


def rival_captures(game: Game, cand: core.Candidate) -> bool:
    """True if the candidate's moving piece has another capture than this one."""
    if cand.origin is None:
        return False
    return any(c is not cand and c.origin == cand.origin and c.touch
               for cands in game.index.values() for c in cands)


def flight_touched(game: Game, cand: core.Candidate) -> bool:
    """True if, for a move that captures nothing, an enemy piece its moving piece could have
    captured was lifted while that piece was in the air (evidence.flight_touched): such a move
    is not taken from this board; the board settles it (docs/bridge.md, "Late tails")."""
    lifted = game.tracker.last_up.get(cand.origin) if cand.origin is not None else None
    if lifted is None:
        return False
    return evidence.flight_touched(window.Seen(game), cand, lifted, game.tracker.n, game.adapter,
                                   rivals=None if game.adapter.lazy else listed(game))


def listed(game: Game) -> list[core.Candidate]:
    """The legal moves of the position, as the game's index already lists them (not for a lazy
    adapter's index): what the evidence checks at a press take instead of listing them again."""
    return [c for cands in game.index.values() for c in cands]


def fits_presses(game: Game, cand: core.Candidate, late: bool = False) -> bool:
    """True if the candidate's move, made by the side to move, agrees with the order of the
    events and presses of this window (evidence.fits_events; `late`: the board has settled, so
    a capture finished after the press counts). Lazy adapters (minzu, whose turns may hold
    several actions of one player between presses) are not checked."""
    if game.adapter.lazy or game.tracker.gap:
        return True
    return evidence.fits_events(game, [(cand, game.adapter.choose(cand, game.prefs))], game.adapter.side(),
                                late=late, listed=listed(game))


def began_before_press(game: Game, cand: core.Candidate) -> bool:
    """True if the candidate's move had begun when the pending press came: its moving piece
    last picked up before the press (else any of its squares lifted before it). A press cannot
    end a move made after it."""
    if game.tracker.gap:
        return True
    if cand.origin is not None and cand.origin in cand.emptied:
        # the moving piece was last picked up before the press (not put back and lifted again)
        last = game.tracker.last_up.get(cand.origin)
        return last is not None and last <= game.pending_at
    squares = cand.emptied | frozenset(s for s, *_ in cand.touch)
    ups = [game.tracker.first_up[s] for s in squares if s in game.tracker.first_up]
    return not squares or (bool(ups) and min(ups) <= game.pending_at)


def beside_lifted(game: Game, late: bool) -> Optional[tuple[core.Candidate, list[Square]]]:
    """The mover's move in full beside pieces of the opponent's already in the hand (the
    opponent's hand starting before the press): (candidate, the opponent's squares lifted),
    or None. Only squares no legal move of the mover empties (en passant, draughts captures
    take pieces off squares they do not land on), each lifted after the mover's move began
    and still empty, with nothing else seen after the first of them; the move must fit the
    window's events and presses with those lifts left out (evidence.fits_events)."""
    a = game.adapter
    tr = game.tracker
    mover = a.side()
    if a.lazy or tr.gap:
        return None
    moved = [tr.first_up[s] for s in tr.base - tr.cur if a.owner(s) == mover and s in tr.first_up]
    if not moved:
        return None
    began = min(moved)
    reach: set[Square] = set()      # pieces a move of the mover takes off without landing there
    for cands in game.index.values():
        for c in cands:
            reach |= c.emptied
    lifted = sorted(s for s in tr.base - tr.cur if a.owner(s) == 1 - mover and s not in reach
                    and tr.last_up.get(s, 0) > began)
    if not lifted:
        return None
    drop = {tr.last_up[s] for s in lifted}
    if any(i not in drop for i in range(min(drop), tr.n + 1)):
        return None         # the board changed after the opponent's hand began: not the mover's move alone
    view, log = evidence.without_events(game, drop)
    r = core.match(view, game.index, True)
    if r.kind != core.MATCH:
        return None
    with evidence.seen_as(game, view, log):
        fits = evidence.fits_events(game, [(r.matched, a.choose(r.matched, game.prefs))], mover, late=late)
    return (r.matched, lifted) if fits else None


def commit_beside(game: Game, found: tuple[core.Candidate, list[Square]],
                  press: Optional[tuple[int, int, Times]] = None) -> list[D.Decision]:
    """Commit a move found by beside_lifted with the opponent's lifts beginning the next window:
    ended by `press` (the mover's press coming now, Game.press), or by the pending press, which
    waited (its turn ended with the pieces in the hand: a capture slid onto its victim, a piece
    still held); then the opponent's press that came after those lifts, seen as stray, begins the
    next window too (Game.commit_pending)."""
    cand, lifted = found
    if press is None:
        return game.commit_pending(cand, lifted)
    return game.commit(cand, press[0], press[2], "clock", lifted=lifted)
