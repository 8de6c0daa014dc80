"""Legal play from the committed position to a board: every sequence of so many moves that leads
there (sequences), and whether such play tells a story a guard fears (twin_play). resync reads the
window's moves from them; the events are evidence's.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Optional, Sequence

from flagfall import occupancy as core
from flagfall.bridge.window import Step, touched

if TYPE_CHECKING:
    from flagfall.bridge.evidence import Game
    from flagfall.games.protocol import Square


def sequences(game: Game, target: frozenset[Square], plies: int, limit: int = 8,
              first: Optional[Callable[[core.Candidate], bool]] = None,
              handled: Optional[Sequence[tuple[frozenset[Square], frozenset[Square], frozenset[Square]]]] = None) \
        -> list[list[Step]]:
    """Sequences of `plies` legal moves, [(candidate, move), ...], from the adapter's position to the
    occupancy `target` (at most limit + 1 of them; lazy adapters list none); `first`: only those
    whose first move's candidate it accepts.

    `handled`: for each move of the sequence, (the squares lifted, the squares placed on) in the
    part of the window where its events can be, and the squares lifted where it can have begun
    (_explain_long); a move whose squares emptied or filled are not among the first two, or none of
    whose squares emptied or captured on (nor its origin) is among the third, is not looked at
    (fits_events would refuse it); nor is a board with a square left to empty (fill) that no later
    move may empty (fill)."""
    found = bounded_sequences(game, target, plies, limit, first, handled)
    assert found is not None
    return found


def bounded_sequences(game: Game, target: frozenset[Square], plies: int, limit: int = 8,
                      first: Optional[Callable[[core.Candidate], bool]] = None,
                      handled: Optional[Sequence[tuple[frozenset[Square], frozenset[Square], frozenset[Square]]]] = None,
                      budget: Optional[int] = None,
                      landed: Optional[Sequence[frozenset[Square]]] = None) -> Optional[list[list[Step]]]:
    """sequences(), or None where more than `budget` moves were tried on the way: too much play to
    read (the caller reads nothing, as where more than `limit` sequences lead to the board).

    `landed`: for each move of the sequence, the squares its piece may land on where it captures
    nothing (_explain_long: placed on before the press ending the move after it, for the next move
    begins after that landing, fits_events' `held`); a move whose piece lands on a square it fills
    elsewhere is not looked at."""
    a = game.adapter
    found: list[list[Step]] = []
    tried = [0]

    def dfs(occ: frozenset[Square], depth: int, seq: list[Step]) -> None:
        if len(found) > limit or (budget is not None and tried[0] > budget):
            return
        if depth == 0:
            if occ == target:
                found.append(list(seq))
            return
        if len(occ ^ target) > 4 * depth:
            return
        if handled is not None and not ((occ - target) <= handled[len(seq)][0] and (target - occ) <= handled[len(seq)][1]):
            return      # a square left to empty (fill) that no move after this may empty (fill)
        for cands in core.group(a.candidates()).values():
            for c in cands:
                if first is not None and not seq and not first(c):
                    continue
                if handled is not None:
                    lifted, placed, begun = handled[len(seq)]
                    if not (c.emptied <= lifted and c.filled <= placed and
                            (c.emptied | touched(c) | {c.origin}) & begun):
                        continue
                m = a.choose(c, game.prefs)
                if landed is not None and not touched(c):
                    travel = a.physical(m).travel
                    if travel and travel[0][1] != travel[0][0] and travel[0][1] in c.filled - landed[len(seq)]:
                        continue
                tried[0] += 1
                a.push(m)
                seq.append((c, m))
                dfs((occ - c.emptied) | c.filled, depth - 1, seq)
                seq.pop()
                a.pop()

    dfs(a.occupancy(), plies, [])
    return None if budget is not None and tried[0] > budget else found


PLAY_READ = 256
"""How many sequences a twin search reads; more than that counts as a twin found."""


def step_key(c: core.Candidate) -> tuple[str, frozenset[Square], frozenset[Square]]:
    """A move as sequences() lists it (each search builds its own candidates)."""
    return c.label, c.emptied, c.filled


def twin_play(game: Game, target: frozenset[Square], lengths: Sequence[int],
              story: Callable[[list[Step]], bool]) -> bool:
    """True if legal play of one of `lengths` moves from the adapter's position leads to the
    occupancy `target` and reads as `story` says (the twin a guard fears), or if there is too much
    such play to read. Only the board is compared, never the events: where a guard's twin is no
    legal play to the board, it is no story, and the guard need not stop the reading (bridge.md)."""
    for n in lengths:
        found = sequences(game, target, n, limit=PLAY_READ)
        if len(found) > PLAY_READ or any(story(other) for other in found):
            return True
    return False
