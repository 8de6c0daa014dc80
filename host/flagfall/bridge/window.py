"""The window since the last committed move: the board events and clock presses seen in it, in
order (Seen), and the squares a candidate move touches. evidence judges sequences of moves
against it; later_evidence reads a capture from the moves after it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Protocol, Sequence

from flagfall import occupancy as core
from flagfall.bridge.decisions import Press

if TYPE_CHECKING:
    from flagfall.games.protocol import Move, Square

Step = tuple[core.Candidate, "Move"]
"""One move of a sequence: the candidate matched and the move chosen for it."""


class Window(Protocol):
    """What a window is read from: the tracker's log of lifts and placements, and the presses."""

    tracker: core.Tracker
    press_log: list[Press]


class Seen:
    """The board events and clock presses of the window since the last committed move, in order.

    Positions count the tracker's events (1 = the first); a press at position p came after
    the events 1..p and before p + 1.
    """

    def __init__(self, game: Window) -> None:
        self.lifts: dict[Square, list[int]] = {}
        self.places: dict[Square, list[int]] = {}
        for i, (_, sq, down) in enumerate(game.tracker.log, 1):
            (self.places if down else self.lifts).setdefault(sq, []).append(i)
        self.presses = [(p, s) for p, s, *_ in game.press_log]
        # the presses some board event came after: only these can fall while a square is held off
        # the board (a press after the window's last event is inside no lift-to-place interval)
        self.followed = [(p, s) for p, s in self.presses if p < len(game.tracker.log)]

    def lifted_after(self, sq: Square, pos: int) -> Optional[int]:
        """The first lift of sq after position pos (None: none seen)."""
        return next((i for i in self.lifts.get(sq, ()) if i > pos), None)

    def placed_after(self, sq: Square, pos: int) -> Optional[int]:
        """The first placement on sq after position pos (None: none seen)."""
        return next((i for i in self.places.get(sq, ()) if i > pos), None)

    def put_at(self, sq: Square, pos: int) -> bool:
        """True if the last event on sq at or before position pos was a placement: a piece put on
        it in this window still stood there then."""
        last_place = max((i for i in self.places.get(sq, ()) if i <= pos), default=0)
        return last_place > max((i for i in self.lifts.get(sq, ()) if i <= pos), default=0)

    def press_after(self, side: int, pos: int) -> Optional[int]:
        """Where the first press by side at or after position pos came (None: it never pressed)."""
        return next((p for p, s in self.presses if s == side and p >= pos), None)

    def events_on(self, sq: Square, after: int = 0, until: Optional[int] = None) -> list[tuple[int, bool]]:
        """sq's lifts and placements after position `after` (and at or before `until`), in order:
        (position, True for a placement)."""
        def inside(i: int) -> bool:
            return after < i and (until is None or i <= until)
        return sorted([(i, False) for i in self.lifts.get(sq, ()) if inside(i)] +
                      [(i, True) for i in self.places.get(sq, ()) if inside(i)])

    def off_board(self, pos: int) -> int:
        """How many pieces are off the board at position pos: the lifts up to it less the placements."""
        return sum(1 for ls in self.lifts.values() for i in ls if i <= pos) - \
            sum(1 for ps in self.places.values() for i in ps if i <= pos)

    def off_across_press(self, sq: Square, allowed: frozenset[tuple[int, int]], before: int = 0,
                         ends: Sequence[int] = (), done: Optional[int] = None,
                         deferred: Optional[list[tuple[int, int]]] = None, since: int = 0) -> bool:
        """True if sq was left empty (lifted, and only later a piece put on it) across a press other
        than those `allowed` (position, side): a capture's victim taken off before the opponent pressed
        is not this move's capture, even if the capturer is adjusted on that square later.
        A piece lifted and set back before position `before` (where the move using sq began) was no
        part of that move: it may span one press of `ends` (the presses ending the moves before),
        the one ending the move made when it was lifted, as any square knocked during a move and set
        back after its press (fits_events). A piece lifted after position `done` (the press ending
        the move using sq: that move was over) is knocked during a later move: its interval is
        put in `deferred` for fits_events to judge once the presses ending the later moves are
        known. Events before position `since` belong to a move judged before."""
        events = self.events_on(sq, since - 1)
        lifted: Optional[int] = None
        for i, down in events:
            if not down:
                lifted = i if lifted is None else lifted
            elif lifted is not None:
                across = [(p, s) for p, s in self.followed if lifted <= p < i and (p, s) not in allowed]
                if across and done is not None and deferred is not None and lifted > done:
                    deferred.append((lifted, i))
                    across = []
                if across and i < before:
                    ps = [p for p, _ in self.followed if lifted <= p < i]
                    if len(ps) == 1 and ps[0] in ends and not any(lifted <= q < ps[0] for q in ends):
                        across = []
                if across:
                    return True
                lifted = None
        return False


def touched(c: core.Candidate) -> frozenset[Square]:
    """The squares a candidate's move touches (lifted or placed on)."""
    return frozenset(s for s, *_ in c.touch)


def captured_on(c: core.Candidate) -> frozenset[Square]:
    """The squares a candidate's move captures on or takes a piece off (its victims' squares)."""
    return touched(c) | (c.emptied - {c.origin})
