"""A game's alert for the operator: raised once per text, cleared, and the words its texts are made of
(the squares the board shows changed, the legal moves it shows part of).

These functions read and update the part of a game listed in `Game` (documented on
flagfall.bridge.game.Game) and return its decisions like the game's own inputs. The alert itself
(Game.alert, Game.alert_kind) is read by the live state.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, Optional, Protocol

from flagfall.bridge import decisions as D

if TYPE_CHECKING:
    from flagfall import occupancy as core
    from flagfall.games.protocol import GameAdapter, Prefs, Square


class Game(Protocol):
    """The game's members an alert is raised through (the game's state, documented on
    flagfall.bridge.game.Game)."""

    adapter: GameAdapter
    index: core.Index
    prefs: Prefs
    alert: Optional[str]
    last_alert_kind: str

    def emit(self, decs: list[D.Decision]) -> list[D.Decision]: ...


def set_alert(game: Game, t: int, text: str, kind: str = D.ALERT_CONFIRM) -> list[D.Decision]:
    """Raise an alert for the operator (once per text); returns the decisions. Only penalties.illegal
    raises the kind D.ALERT_ILLEGAL."""
    if game.alert == text and game.last_alert_kind == kind:
        return []
    game.alert = text
    game.last_alert_kind = kind
    return game.emit([D.Decision(D.ALERT, t, text=text, alert_kind=kind)])


def clear_alert(game: Game, t: int) -> list[D.Decision]:
    if game.alert is None:
        return []
    game.alert = None
    return game.emit([D.Decision(D.CLEAR, t)])


def names(game: Game, squares: Iterable[Square]) -> str:
    return ", ".join(game.adapter.name(s) for s in sorted(squares))


def diff_text(game: Game, r: core.Result) -> str:
    parts: list[str] = []
    if r.emptied:
        parts.append("emptied %s" % names(game, r.emptied))
    if r.filled:
        parts.append("filled %s" % names(game, r.filled))
    return "; ".join(parts)


def partial(game: Game, r: core.Result) -> str:
    """Text of the legal moves the board shows part of (filled and emptied squares both subsets)."""
    a = game.adapter
    found: list[str] = []
    for cands in game.index.values():
        for c in cands:
            if r.filled <= c.filled and r.emptied <= c.emptied and r.filled:
                found.append(a.text(a.choose(c, game.prefs)))
    return " or ".join(sorted(found)[:3])
