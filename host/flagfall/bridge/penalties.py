"""Illegal moves and their penalties: a completed illegal move put to the arbiter or penalised, what the
next illegal move of a side costs under the ruleset's policy (warning, time to the opponent, loss, or
a draw where the opponent cannot checkmate: FIDE 7.5.5), and the penalty the arbiter is asked to apply
(penalties "confirm") while its alert is up.

These functions read and update the part of a game listed in `Game` (documented on
flagfall.bridge.game.Game) and return its decisions like the game's own inputs.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Protocol, Union

from flagcore import outcome as oc

from flagfall.bridge import decisions as D
from flagfall.games.protocol import Outcome

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter, GameSpec

ORDINALS = ("", "first", "second", "third", "fourth", "fifth")
PENALTY_MODES = ("auto", "confirm")
"""auto: the bridge applies the ruleset's illegal-move penalty itself; confirm: the arbiter does."""



class Game(Protocol):
    """The game's members an illegal move is ruled through (the game's state, documented on
    flagfall.bridge.game.Game)."""

    adapter: GameAdapter
    spec: GameSpec
    penalty_name: str
    penalties: str
    penalty_alert: Optional[tuple[str, int]]
    policy: Optional[tuple[int, int, bool]]
    alert: Optional[str]
    result: str
    illegal: list[int]
    correcting: bool

    def emit(self, decs: list[D.Decision]) -> list[D.Decision]: ...
    def set_alert(self, t: int, text: str, kind: str = D.ALERT_CONFIRM) -> list[D.Decision]: ...
    def finish(self, t: int, result: str, reason: str, outcome: Optional[Outcome] = None) -> list[D.Decision]: ...


def _duration(ms: int) -> str:
    """A time given as a penalty, for people: "2 minutes", "1 minute", "90 seconds"."""
    if ms % 60000 == 0:
        return "%d minute%s" % (ms // 60000, "" if ms == 60000 else "s")
    return "%g seconds" % (ms / 1000)


def illegal(game: Game, t: int, side: int, squares: str) -> list[D.Decision]:
    """A completed illegal move (the only alert of the kind D.ALERT_ILLEGAL): penalised now
    (penalties "auto"), or put to the arbiter ("confirm"). The proposed penalty is set here only."""
    game.correcting = True
    name = game.adapter.side_names[side]
    if game.penalties == "confirm":
        out = game.set_alert(t, "illegal move by %s (%s): the arbiter applies the penalty (%s; %s) or "
                             "dismisses it" % (name, squares, penalty_cost(game, side), game.penalty_name),
                             D.ALERT_ILLEGAL)
        assert game.alert is not None
        game.penalty_alert = (game.alert, side)
        return out
    out = game.set_alert(t, "illegal move by %s (%s): restore the position or make a legal move"
                         % (name, squares), D.ALERT_ILLEGAL)
    return out + apply_penalty(game, t, side)


def proposed_penalty(game: Game) -> Optional[int]:
    """The side whose illegal move awaits the arbiter's penalty (penalties "confirm"), None when none
    does. The penalty belongs to the illegal-move alert that proposed it: once that alert ends
    (resolved by a move, the position restored, dismissed, replaced by another alert) nothing of it
    remains."""
    p = game.penalty_alert
    if p is None or game.alert != p[0] or game.result != "*":
        return None
    return p[1]


def penalty_refusal(game: Game, side: Union[str, int, None] = None) -> Optional[str]:
    """Why the arbiter's penalty for `side` (0, 1, "white", "black"; None: the side proposed) cannot
    be applied now, or None: only the side of the illegal-move alert that is up."""
    due = proposed_penalty(game)
    names = game.adapter.side_names
    if due is None:
        return "no illegal-move alert is up on this board%s" % (
            " (the alert up is: %s)" % game.alert if game.alert else "")
    if side in D.SIDE_WORDS:
        side = D.SIDE_WORDS.index(str(side))
    if side is not None and side != due:
        return "the illegal move awaiting the arbiter is %s's, not %s's" % (
            names[due], names[side] if side in (0, 1) else side)
    return None


def penalty_policy(game: Game) -> tuple[int, int, bool]:
    from flagfall import presets
    if game.policy is None:
        game.policy = presets.penalty_policy(game.penalty_name)
    return game.policy


def penalty_outcome(game: Game, n: int) -> str:
    """What the n-th illegal move of a side costs under the policy: warning, penalty or loss."""
    bonus, loses_at, first_warning = penalty_policy(game)
    if loses_at and n >= loses_at:
        return "loss"
    if first_warning and n == 1:
        return "warning"
    return "penalty" if bonus else "warning"


def penalty_cost(game: Game, side: int) -> str:
    """What the next illegal move of `side` costs, for people: "Black: 2 minutes to White",
    "Black's second illegal move: the game is lost", "Red's first illegal move: a warning"."""
    names = game.adapter.side_names
    n = game.illegal[side] + 1
    outcome = penalty_outcome(game, n)
    nth = ORDINALS[n] if n < len(ORDINALS) else "%dth" % n
    if outcome == "loss" and loss_drawn(game, side):
        return "%s's %s illegal move: the game is drawn (%s cannot checkmate)" % (names[side], nth, names[1 - side])
    if outcome == "loss":
        return "%s's %s illegal move: the game is lost" % (names[side], nth)
    if outcome == "warning":
        return "%s's %s illegal move: a warning" % (names[side], nth)
    return "%s: %s to %s" % (names[side], _duration(penalty_policy(game)[0]), names[1 - side])


def loss_drawn(game: Game, side: int) -> bool:
    """True if `side`'s losing illegal move draws instead: the laws say so (7.5.5) and the opponent
    cannot win from the position."""
    from flagfall import presets
    return presets.penalty_drawn_if_no_mate(game.penalty_name) and not game.adapter.can_win(1 - side)


def apply_penalty(game: Game, t: int, side: int) -> list[D.Decision]:
    """Count an illegal move of `side` and apply the ruleset's penalty policy; returns the decisions."""
    if proposed_penalty(game) is not None:
        game.alert = None        # the arbiter decided: the alert asking for it is answered
    game.penalty_alert = None
    bonus = penalty_policy(game)[0]
    game.illegal[side] += 1
    n = game.illegal[side]
    outcome = penalty_outcome(game, n)
    game.correcting = True
    out = game.emit([D.Decision(D.PENALTY, t, side=side, count=n, outcome=outcome, bonus_ms=bonus if outcome == "penalty" else 0, policy=game.penalty_name)])
    if outcome == "loss":
        names = game.adapter.side_names
        winner: Optional[int] = None if loss_drawn(game, side) else 1 - side
        out += game.finish(t, game.spec.result(winner),
                            "%s's illegal move no. %d (%s)%s" % (
                                names[side], n, game.penalty_name,
                                "" if winner is not None else ", but %s cannot checkmate" % names[1 - side]),
                            Outcome(winner, oc.ILLEGAL_MOVES, game.penalty_name))
    return out
