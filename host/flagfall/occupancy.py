"""Game-agnostic move reconstruction from occupancy events.

A board with reed switches only says which squares are occupied. A rules
adapter (flagfall.games.protocol.GameAdapter) describes every legal move of the side to move as
a Candidate:

    emptied   squares occupied before the move and empty after it
    filled    squares empty before the move and occupied after it
    touch     squares that are occupied before *and* after but whose piece
              changed (a chess capture target, a draughts king that ends
              where it started): each is (square, after) and must show a lift
              followed by a placement, the last placement coming after the
              last lift of one of the squares in `after` (so a piece that
              was merely lifted and put back *before* the mover picked up
              its piece for the last time does not count)
    moves     the rule-level moves with exactly this physical signature (the
              four promotions of a pawn; two draughts routes with the same
              start, end and captured pieces); the adapter picks one

The Tracker follows the events since the last committed position: current
occupancy and, per square, the order of its first lift, last lift and last
placement. match() compares the board with the candidates:

    exactly one physical signature explains the board, with its touch
    evidence              -> MATCH (the caller commits it when the board has
                             settled or the clock is pressed)
    several do            -> AMBIGUOUS (never guessed)
    the board equals the committed position -> IDLE
    only lifts, nothing placed, no match    -> IN_HAND (a piece in the hand)
    anything else         -> UNEXPLAINED (alert listing the squares)

Nothing here knows about a game's rules, the clock or time.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Protocol, TypeVar, Union, overload

Move = Any
"""A rule-level move; its type belongs to the adapter that made it (flagfall.games.protocol)."""

Square = int
"""A square in the game's own numbering (flagfall.games.protocol)."""

Event = tuple[int, str]      # (square, "up" or "down") in a Candidate's order requirements
Touch = Union[tuple["Square", tuple["Square", ...]], tuple["Square", tuple["Square", ...], tuple["Square", ...]]]
"""A touch requirement: (square, after) or (square, after, marks) (see the module docstring)."""

Key = tuple[frozenset["Square"], frozenset["Square"]]
"""(emptied, filled): how candidates are indexed."""

_D = TypeVar("_D")

IDLE = "idle"
MATCH = "match"
AMBIGUOUS = "ambiguous"
IN_HAND = "in-hand"
UNEXPLAINED = "unexplained"


class Candidate:
    """A legal move as the board sees it (see the module docstring)."""

    __slots__ = ("emptied", "filled", "touch", "moves", "origin", "label", "order")

    def __init__(self, emptied: Iterable[Square], filled: Iterable[Square], touch: Iterable[Touch],
                 moves: Iterable[Move], origin: Optional[Square], label: str,
                 order: Iterable[tuple[Event, Event]] = ()) -> None:
        self.emptied = frozenset(emptied)
        self.filled = frozenset(filled)
        self.touch = tuple(touch)
        self.moves = list(moves)
        self.origin = origin
        self.label = label
        # events that must come in this order: ((square, "up"|"down"), (square, "up"|"down")), an
        # "up" the square's first lift, a "down" its last placement (Chess960 castling: the king first)
        self.order = tuple(order)

    def signature(self) -> tuple[frozenset[Square], frozenset[Square], tuple[Touch, ...]]:
        """What tells two candidates apart physically."""
        return (self.emptied, self.filled, self.touch)

    def __repr__(self) -> str:
        return "Candidate(%s)" % self.label


def group(cands: Iterable[Candidate]) -> dict[Key, list[Candidate]]:
    """Merge candidates with the same physical signature; index them by (emptied, filled)."""
    by_sig: dict[tuple[frozenset[Square], frozenset[Square], tuple[Touch, ...]], Candidate] = {}
    order: list[Candidate] = []
    for c in cands:
        sig = c.signature()
        g = by_sig.get(sig)
        if g is None:
            by_sig[sig] = c
            order.append(c)
        else:
            g.moves.extend(c.moves)
    index: dict[Key, list[Candidate]] = {}
    for c in order:
        index.setdefault((c.emptied, c.filled), []).append(c)
    return index


class Tracker:
    """Occupancy and touch history since the last committed position."""

    def __init__(self, base: Iterable[Square], current: Optional[Iterable[Square]] = None) -> None:
        self.reset(base, current)
        self.ignored = 0     # events that did not change the occupancy (duplicates)

    def reset(self, base: Iterable[Square], current: Optional[Iterable[Square]] = None) -> None:
        """Start a new window at committed occupancy `base` (board now shows `current`)."""
        self.base = frozenset(base)
        self.cur = set(self.base if current is None else current)
        self.n = 0
        self.first_up: dict[Square, int] = {}
        self.last_up: dict[Square, int] = {}
        self.last_down: dict[Square, int] = {}
        self.last_t: Optional[int] = None
        self.first_t: Optional[int] = None
        self.events = 0
        self.log: list[tuple[int, Square, bool]] = []        # (t, square, down) of this window, for amending a settled move
        self.gap = False     # a resync from a snapshot: some events of this window were never seen
        self.gap_occ: Optional[frozenset[Square]] = None  # the board at the last resync that changed something
        self.pre_gap_occ: Optional[frozenset[Square]] = None  # the board as last seen before that resync

    def event(self, t: int, sq: Square, down: bool) -> bool:
        """A square changed at tick t (down: a piece arrived). False if it changed nothing."""
        if down:
            if sq in self.cur:
                self.ignored += 1
                return False
            self.cur.add(sq)
            self.n += 1
            self.last_down[sq] = self.n
        else:
            if sq not in self.cur:
                self.ignored += 1
                return False
            self.cur.discard(sq)
            self.n += 1
            if sq not in self.first_up:
                self.first_up[sq] = self.n
            self.last_up[sq] = self.n
        self.last_t = t
        if self.first_t is None:
            self.first_t = t
        self.events += 1
        self.log.append((t, sq, down))
        return True

    def set_occupancy(self, t: int, occupied: Iterable[Square]) -> None:
        """Bring the board to a full snapshot (after a resync): changed squares become events."""
        occ = set(occupied)
        if occ != self.cur:
            self.gap = True
            self.pre_gap_occ = frozenset(self.cur)
        for sq in sorted(self.cur - occ):
            self.event(t, sq, False)
        for sq in sorted(occ - self.cur):
            self.event(t, sq, True)
        if self.gap:
            self.gap_occ = frozenset(occ)

    def diff(self) -> Key:
        """(emptied, filled) relative to the committed position, as frozensets."""
        return frozenset(self.base - self.cur), frozenset(self.cur - self.base)

    def touched(self) -> set[Square]:
        """Squares lifted at least once in this window."""
        return set(self.first_up)

    def evidence(self, cand: Candidate) -> bool:
        """True if the touch history supports the candidate's `touch` requirements."""
        fu = self.first_up
        lu = self.last_up
        ld = self.last_down
        for (sa, ka), (sb, kb) in cand.order:
            a = (fu if ka == "up" else ld).get(sa)
            b = (fu if kb == "up" else ld).get(sb)
            if a is None or b is None or a > b:
                return False
        for t in cand.touch:
            sq, after = t[0], t[1]
            if len(t) > 2:
                # a gesture after a placement (minzu marking): lifted after the last placement there
                up = lu.get(sq)
                for a in t[2]:
                    x = ld.get(a)
                    if up is None or x is None or up < x:
                        return False
            d = ld.get(sq)
            u = fu.get(sq)
            if d is None or u is None or d < u:
                return False
            if after:
                lift: Optional[int] = None
                for a in after:
                    x = lu.get(a)
                    if x is not None and (lift is None or x < lift):
                        lift = x
                if lift is None or d < lift:
                    return False
        return True


class LazySource(Protocol):
    """What a LazyIndex asks of an adapter that cannot list its moves in advance."""

    def candidates_for(self, emptied: frozenset[Square], filled: frozenset[Square],
                       tracker: Tracker) -> list[Candidate]: ...


class LazyIndex:
    """An index for adapters that cannot list their moves in advance (minzu): asks them per board."""

    def __init__(self, adapter: LazySource, tracker_of: Callable[[], Tracker]) -> None:
        self.adapter = adapter
        self.tracker_of = tracker_of

    @overload
    def get(self, key: Key) -> Optional[list[Candidate]]: ...
    @overload
    def get(self, key: Key, default: _D) -> Union[list[Candidate], _D]: ...

    def get(self, key: Key, default: object = None) -> object:
        """Candidates for (emptied, filled)."""
        return self.adapter.candidates_for(key[0], key[1], self.tracker_of()) or default

    def values(self) -> list[list[Candidate]]:
        """Nothing to list."""
        return []


Index = Union[dict[Key, list[Candidate]], LazyIndex]
"""Candidates by (emptied, filled): group()'s dict, or a LazyIndex asking the adapter."""


class Result:
    """Outcome of matching the board against the candidates."""

    __slots__ = ("kind", "cand", "options", "emptied", "filled")

    def __init__(self, kind: str, cand: Optional[Candidate] = None, options: tuple[Candidate, ...] = (),
                 emptied: frozenset[Square] = frozenset(), filled: frozenset[Square] = frozenset()) -> None:
        self.kind = kind
        self.cand = cand
        self.options = options
        self.emptied = emptied
        self.filled = filled

    @property
    def matched(self) -> Candidate:
        """The candidate of a MATCH result."""
        if self.cand is None:
            raise ValueError("no candidate matched (%s)" % self.kind)
        return self.cand

    def __repr__(self) -> str:
        return "Result(%s, %r)" % (self.kind, self.cand)


def match(tracker: Tracker, index: Index, relaxed: bool = False) -> Result:
    """Compare the board with the grouped candidates (see group()); returns a Result.

    relaxed: the clock was pressed and this window lost events (tracker.gap):
    a unique occupancy match is accepted without its touch evidence.
    """
    e, f = tracker.diff()
    if not e and not f:
        # a move that changes no square's occupancy (Chess960: king and rook swap squares) shows
        # only as lifts and put-backs: its touch evidence decides; anything else is idle
        swaps = [c for c in index.get((e, f)) or () if c.touch and tracker.evidence(c)]
        if len(swaps) == 1:
            return Result(MATCH, swaps[0], (), e, f)
        return Result(IDLE)
    cands = index.get((e, f))
    if cands:
        ok = [c for c in cands if tracker.evidence(c)]
        if len(ok) > 1:
            # one turn signature can come from several decision orders (lazy adapters): same board
            sigs: dict[tuple[frozenset[Square], frozenset[Square], tuple[Touch, ...]], Candidate] = {}
            for c in ok:
                sigs.setdefault(c.signature(), c)
            ok = list(sigs.values())
        if len(ok) > 1:
            # the candidate whose touch evidence covers the others' explains more of what the
            # hands did (Chess960: the king lifted first, then the rook to its castling square)
            wider = [c for c in ok if all(set(o.touch) < set(c.touch) for o in ok if o is not c)]
            if len(wider) == 1:
                ok = wider
        if len(ok) == 1:
            return Result(MATCH, ok[0], (), e, f)
        if len(ok) > 1:
            return Result(AMBIGUOUS, None, tuple(ok), e, f)
        if relaxed and tracker.gap and len(cands) == 1:
            # events were lost (cable out): the occupancy is all there is, and it is unique
            return Result(MATCH, cands[0], (), e, f)
        # the occupancy fits, but no capture was shown by lifting the captured piece
        return Result(IN_HAND, None, tuple(cands), e, f)
    if not f:
        return Result(IN_HAND, None, (), e, f)
    return Result(UNEXPLAINED, None, (), e, f)
