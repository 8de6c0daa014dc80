"""Windows of several presses read at once (resync's _explain_long): the one sequence of legal
moves, one per press, that leads to the board and fits the window's events (long_found), the next
mover's hand begun before a press inside the window (long_early), and the doubts every such reading
keeps (stray_placement, landing_twin). resync commits what is read; the events are evidence's.
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Optional

from flagfall import occupancy as core
from flagfall.bridge.evidence import Game, fits_events, seen_as
from flagfall.bridge.plays import bounded_sequences, step_key, twin_play
from flagfall.bridge.window import Seen, Step, captured_on, touched

if TYPE_CHECKING:
    from flagfall.games.protocol import Square


LONGEST = 20
"""The most moves _explain_long reads over several windows (one per press)."""
LISTED = 16
"""How many sequences to the board _explain_long lists; more than that: no reading (some unread)."""
TRIED = 2000
"""How many moves _explain_long's search may try (bounded_sequences): more, and nothing is read."""
TWIN_READ = 6
"""The longest window whose landings doubt _explain_long settles by a twin search (landing_twin,
legal play to the board with no event to narrow it); a longer one keeps the doubt."""


def stray_placement(game: Game, seq: list[Step]) -> bool:
    """True if a piece stood across a press of this window on a square that was empty when the
    window began and that no move of seq fills, other than a captured piece pushed off its square
    onto a neighbouring one (set down next to a square a capture of seq takes on, right after that
    square was lifted, and picked off later): a piece put where no move of the story goes, and
    left there while a clock was pressed. (A piece set down on a wrong square and moved on before
    any press is a hand's hesitation within one move.) In a window of four or more presses each
    move's tail may come after its press, which leaves room for a legal twin of play that holds an
    illegal move put right: Black's king put on a5 (illegal), pressed, set back on e8, then ...Be7
    and ...O-O read as "...Ke7 b3 ...Rg8", the same board (seed 940008247); only a5, standing
    across Black's press, shows that a piece went where no move of that story goes."""
    tr = game.tracker
    a = game.adapter
    seen = Seen(game)
    fills = frozenset().union(*(c.filled for c, _ in seq))
    victims = frozenset().union(*(captured_on(c) for c, _ in seq))
    last_up: Optional[Square] = None
    for i, (_, sq, down) in enumerate(tr.log, 1):
        if not down:
            last_up = sq
        elif sq not in tr.base and sq not in fills and not (
                last_up in victims and max(abs(x - y) for x, y in zip(a.cell(last_up), a.cell(sq))) == 1):
            # (not a captured piece pushed off onto a neighbouring square) it stood from i until
            # its next lift: a press in between
            off = seen.lifted_after(sq, i) or len(tr.log) + 1
            if any(i <= p < off for p, _ in seen.presses):
                return True
    return False


def landing_twin(game: Game, target: frozenset[Square], seq: list[Step]) -> bool:
    """The other reading fits_events' landings doubt fears for seq: another legal sequence as long,
    to the same board, in which a move lands on a square a move of seq fills and a later move
    captures there (the piece put there was that move's landing, and the later move took it).
    The board alone is compared, not the events: a doubt kept wherever such play exists. Where no
    legal play reads so, the piece put there was no landing of a move and seq stands: Nxe4
    knocking its victim onto d5, picked off, then ...d7-d5 (after Nd5 no piece of Black's from
    d7 takes on d5; seed 880008182); ...Qg6 knocking d4 set back, then Qxg6, reads as "...Qxd4
    Qg6" (seed 741004332): the doubt stays."""
    fills = frozenset().union(*(c.filled for c, _ in seq))
    mine = [step_key(c) for c, _ in seq]

    def story(other: list[Step]) -> bool:
        return [step_key(c) for c, _ in other] != mine and \
            any(c1.filled & fills & touched(c2) for j, (c1, _) in enumerate(other) for c2, _ in other[j + 1:])
    return twin_play(game, target, (len(seq),), story)


def reordered(tr: core.Tracker, order: list[int]) -> core.Tracker:
    """A tracker of the window's events taken in `order` (positions in tr.log, from 1)."""
    view = core.Tracker(tr.base)
    for i in order:
        view.event(*tr.log[i - 1])
    return view


def long_found(game: Game) -> Optional[list[list[Step]]]:
    """_explain_long's search on the window as the game reads it: the sequences that fit and may
    be chosen ([] where none fits), None where the window is not read (its presses, the search cut,
    a doubt: a stray placement, a landing)."""
    a = game.adapter
    tr = game.tracker
    if tr.gap or a.lazy:
        return None
    first = a.side()
    sides = [s for _, s, *_ in game.press_log]
    if not 4 <= len(sides) <= LONGEST or any(s != (first + i) % 2 for i, s in enumerate(sides)):
        return None
    handled: list[tuple[frozenset[Square], frozenset[Square], frozenset[Square]]] = []
    for k in range(len(sides)):
        since = game.press_log[k - 1][0] if k else 0
        part = tr.log[since:]
        handled.append((frozenset(sq for _, sq, down in part if not down),
                        frozenset(sq for _, sq, down in part if down),
                        frozenset(sq for _, sq, down in tr.log[since:game.press_log[k][0]] if not down)))
    # a move capturing nothing lands before the press ending the move after it (which begins after
    # that landing: fits_events' held), the last move anywhere after the press before it
    presses = [0] + [p for p, *_ in game.press_log]
    landed = [frozenset(sq for _, sq, down in tr.log[presses[k]:presses[k + 2] if k + 2 < len(presses) else None]
                        if down) for k in range(len(sides))]
    target = frozenset(tr.cur)
    listed = bounded_sequences(game, target, len(sides), LISTED, handled=handled, budget=TRIED, landed=landed)
    if listed is None or len(listed) > LISTED:
        return None
    found = [f for f in listed if fits_events(game, f, first, late=True, unseen=True)]
    if len(found) != 1:
        return found if not found else None
    if stray_placement(game, found[0]):
        return None
    if not fits_events(game, found[0], first, late=True, unseen=True, landings=True) and (
            len(sides) > TWIN_READ or landing_twin(game, target, found[0])):
        return None
    return found


EARLY_LONG = 3
"""The most lifts long_early reads as the next mover's hand begun before a press."""


def long_early(game: Game) -> Optional[list[list[Step]]]:
    """_explain_long where no sequence fits the window as seen: a lift just before a press of the
    window (no placement after it before that press, its square handled by no other event since the
    press before) may be the next mover's hand on its own piece, begun before the press, as
    resync._explain_early reads it for the first press. Each choice of such lifts (EARLY_LONG at most) is moved to just after its press
    and the window read again; a sequence found counts only where, for each lift moved to after the
    k-th press, the k-th move of it began before that lift and handles nothing on its square, the
    square holds a piece of the other side then, no legal move of the k-th mover there could take it
    off or capture there, and the next move empties it (the hand's piece moves). One sequence only
    may come of every choice. docs/bridge.md ("Late tails"): a piece lifted before a press, not the
    mover's and none its move could take, is the opponent's hand on its own piece."""
    tr = game.tracker
    a = game.adapter
    presses = [p for p, *_ in game.press_log]
    early: list[tuple[int, int]] = []           # (log position of the lift, the press index it precedes)
    for k in range(len(presses) - 1):
        since = presses[k - 1] if k else 0
        if presses[k + 1] <= presses[k]:
            continue
        for i in range(since + 1, presses[k] + 1):
            _, sq, down = tr.log[i - 1]
            # (after another lift of that part: the k-th move began before it, early_held)
            if not down and all(tr.log[j - 1][1] != sq for j in range(since + 1, i)) and \
                    any(not tr.log[j - 1][2] for j in range(since + 1, i)) and \
                    not any(tr.log[j - 1][2] for j in range(i + 1, presses[k] + 1)):
                early.append((i, k))
    if not early or len(early) > EARLY_LONG:
        return None
    found: dict[tuple[tuple[str, frozenset[Square], frozenset[Square]], ...], list[Step]] = {}
    for n in range(len(early), 0, -1):
        for chosen in combinations(early, n):
            moved = {i: k for i, k in chosen}
            order: list[int] = []
            for i in range(1, tr.n + 1):
                if i not in moved:
                    order.append(i)
                for j, k in sorted(moved.items()):
                    if presses[k] == i:
                        order.append(j)
            if len(order) != tr.n:
                continue
            log = [(p - sum(1 for i, k2 in chosen if k2 == k), s, tp, tm)
                   for k, (p, s, tp, tm) in enumerate(game.press_log)]
            with seen_as(game, reordered(tr, order), log):
                seqs = long_found(game)
            if seqs is None:
                return None         # a choice not read in full (or read two ways): nothing is read
            for seq in seqs:
                if early_held(game, seq, moved):
                    found.setdefault(tuple(step_key(c) for c, _ in seq), seq)
    return list(found.values())


def early_held(game: Game, seq: list[Step], moved: dict[int, int]) -> bool:
    """long_early's checks of a sequence read with the lifts of `moved` (log position -> the press
    index they were moved after)."""
    a = game.adapter
    tr = game.tracker
    first = a.side()
    presses = [p for p, *_ in game.press_log]
    ok = True
    pushed = 0
    try:
        for k, (c, m) in enumerate(seq):
            for i, k2 in moved.items():
                if k2 != k:
                    continue
                sq = tr.log[i - 1][1]
                since = presses[k - 1] if k else 0
                ups = [j for j in range(since + 1, presses[k] + 1)
                       if not tr.log[j - 1][2] and tr.log[j - 1][1] in c.emptied | touched(c)]
                if k + 1 >= len(seq) or sq not in seq[k + 1][0].emptied or \
                        sq in c.emptied | c.filled | touched(c) or a.owner(sq) != 1 - (first + k) % 2 or \
                        not ups or min(ups) > i or \
                        any(_could_take(game, c2, sq, i) for c2 in a.candidates()):
                    ok = False
            if not ok:
                break
            a.push(m)
            pushed += 1
    finally:
        for _ in range(pushed):
            a.pop()
    return ok


def _could_take(game: Game, c: core.Candidate, sq: Square, i: int) -> bool:
    """True if c takes a piece off sq or captures there (the lift at log position i may be its victim
    taken off), unless its piece lands on sq and nothing is placed on sq after that lift to the
    window's end: then the capturer never stood there (it would have vanished from the board)."""
    if sq not in c.emptied | touched(c):
        return False
    a = game.adapter
    travel = a.physical(a.choose(c, game.prefs)).travel
    tr = game.tracker
    return not (travel and travel[0][1] == sq and
                not any(s == sq and down for _, s, down in tr.log[i:]))
