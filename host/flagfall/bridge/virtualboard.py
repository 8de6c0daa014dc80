"""A virtual sensor board: a legal move becomes the lifts and placements a hand makes.

events_for_move(adapter, move, rng, noise) is the library entry point (the
simulator uses it too). It must be called *before* the move is played on
the adapter. It returns a list of (dt_ms, square, down) steps, dt_ms being
the pause before the step; down=True is a piece arriving on the square.

Without an rng the order is canonical: each travelling piece is lifted and
put down in turn, and a captured piece is taken off just before the
capturing piece lands (chess) or after the move (draughts).

With an rng (and noise > 0, the probability of each kind of handling) the
hand is realistic but honest, i.e. every sequence is one a player could make
that still shows the move:
    * pieces of a multi-piece move in any interleaving (castling king or rook
      first, either piece in the air at once);
    * captured pieces taken off before the capturing piece is lifted, while
      it is in the air, or after it has landed; in draughts in capture order,
      reverse order, or any order (FMJD 4.11, 4.16);
    * the moving piece slid across the squares it passes (each one briefly
      reads occupied), a hand hovering a held piece over empty squares;
    * the moving piece lifted and put back before the move;
    * a piece knocked over and set up again before the move, or one of the
      mover's own pieces straightened after it;
    * a placed piece lifted and set down again (adjusting it; a promotion
      done by putting the pawn down and swapping it for the new piece);
    * late clock presses (press_delay()).
Noise never touches a square in a way that would make the move itself
ambiguous on an occupancy board (e.g. lifting an enemy piece the moving
piece could also have captured while it is in the air): such handling is not
noise, it is a different physical move, and the hard-case tests cover it.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Iterable, Optional, Sequence

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter, Move, Square

Step = tuple["Square", bool]
"""(square, down): down=True is a piece arriving on the square."""


def _interleave(rng: random.Random, seqs: Iterable[Sequence[Step]]) -> list[Step]:
    """Random merge of several sequences, each keeping its own order."""
    lists = [list(s) for s in seqs if s]
    out: list[Step] = []
    while lists:
        i = rng.randrange(len(lists))
        out.append(lists[i].pop(0))
        if not lists[i]:
            lists.pop(i)
    return out


def plan(adapter: GameAdapter, move: Move, rng: Optional[random.Random] = None, noise: float = 0.0) -> list[Step]:
    """The ordered steps (square, down) for a move, before timing; see the module docstring."""
    occ = set(adapter.occupancy())
    phys = adapter.physical(move)
    travel = phys.travel
    remove = list(phys.remove)
    dsts = set(t[1] for t in travel)
    srcs = set(t[0] for t in travel)
    mover = adapter.side()

    def chance() -> bool:
        return rng is not None and noise > 0 and rng.random() < noise

    # removal order (draughts: order of capture, reverse, or any)
    if rng is not None and len(remove) > 1:
        k = rng.randrange(3)
        if k == 1:
            remove.reverse()
        elif k == 2:
            rng.shuffle(remove)

    pre: list[Step] = []
    if chance() and travel and travel[0][0] is not None:
        # the moving piece picked up and put back before the move is made
        s = travel[0][0]
        pre += [(s, False), (s, True)]
    if chance():
        # a piece knocked over and set up again before the mover starts
        others = sorted(occ - srcs - set(remove) - dsts)
        if others and rng is not None:       # chance() is only True with an rng
            s = rng.choice(others)
            pre += [(s, False), (s, True)]

    seqs: list[list[Step]] = []
    for (src, dst, via) in travel:
        steps: list[Step] = [] if src is None else [(src, False)]   # None: a piece from the hand (minzu)
        if chance():
            for v in via:
                if v not in occ or v == src:
                    steps += [(v, True), (v, False)]
        if chance():
            empties = [x for x in adapter_squares(adapter) if x not in occ and x not in dsts and x != src]
            if empties and rng is not None:
                v = rng.choice(empties)
                steps += [(v, True), (v, False)]
        steps.append((dst, True))
        if chance():
            steps += [(dst, False), (dst, True)]
        seqs.append(steps)

    if phys.steps:
        # an order the travels cannot express (Chess960 castling), played as given
        return pre + list(phys.steps)

    # captured pieces: where may each removal go?
    cap_on_dst = [r for r in remove if r in dsts]
    free = [r for r in remove if r not in dsts]
    if rng is None:
        order: list[Step] = []
        for steps in seqs:
            for st in steps:
                if st[1] and st[0] in cap_on_dst:
                    order.append((st[0], False))
                order.append(st)
        order += [(r, False) for r in free]
        for s in phys.touch_after:
            order += [(s, False), (s, True)]
        return pre + order
    # a removal on a landing square must precede that landing
    mode = rng.randrange(3)
    removal_steps = [(r, False) for r in free]
    if mode == 0:
        head = [(r, False) for r in cap_on_dst] + removal_steps
        body = _interleave(rng, seqs)
        order = head + body
    elif mode == 1:
        body = _interleave(rng, seqs)
        order = _insert_before_landing(rng, body, cap_on_dst) + removal_steps
    else:
        body = _interleave(rng, seqs + [removal_steps])
        order = _insert_before_landing(rng, body, cap_on_dst)
    post: list[Step] = []
    if chance():
        mine = sorted(s for s in occ - srcs - set(remove) if adapter.owner(s) == mover)
        if mine:
            s = rng.choice(mine)
            post += [(s, False), (s, True)]
    # gestures after the move (minzu marks: the opponent piece lifted and put back)
    for s in phys.touch_after:
        post += [(s, False), (s, True)]
    return pre + _legalise(occ, order) + post


def _insert_before_landing(rng: random.Random, body: Sequence[Step], caps: Sequence[Square]) -> list[Step]:
    """Put each capture-target lift somewhere before the piece lands on it."""
    out = list(body)
    for r in caps:
        land: Optional[int] = None
        for i, st in enumerate(out):
            if st == (r, True):
                land = i
                break
        if land is None:
            out.insert(0, (r, False))
        else:
            out.insert(rng.randrange(land + 1), (r, False))
    return out


def _legalise(occ: Iterable[Square], order: Iterable[Step]) -> list[Step]:
    """Drop noise steps that are physically impossible at their moment (placing on a full square)."""
    cur = set(occ)
    out: list[Step] = []
    skip: dict[Square, int] = {}
    for sq, down in order:
        if down:
            if sq in cur:
                skip[sq] = skip.get(sq, 0) + 1   # and the lift that pairs with it
                continue
            cur.add(sq)
        else:
            if skip.get(sq):
                skip[sq] -= 1
                continue
            if sq not in cur:
                continue
            cur.discard(sq)
        out.append((sq, down))
    return out


def adapter_squares(adapter: GameAdapter) -> Iterable[Square]:
    """Every square of the adapter's board."""
    return adapter.all_squares()


def events_for_move(adapter: GameAdapter, move: Move, rng: Optional[random.Random] = None, noise: float = 0.0,
                    gap_ms: tuple[int, int] = (60, 400)) -> list[tuple[int, Square, bool]]:
    """(dt_ms, square, down) steps for a legal move (call before playing it)."""
    steps = plan(adapter, move, rng, noise)
    out: list[tuple[int, Square, bool]] = []
    for sq, down in steps:
        dt = gap_ms[0] if rng is None else rng.randint(gap_ms[0], gap_ms[1])
        out.append((dt, sq, down))
    return out


def press_delay(rng: Optional[random.Random] = None, noise: float = 0.0) -> int:
    """Milliseconds between the last placement and the clock press (late presses with noise)."""
    if rng is None:
        return 300
    if noise > 0 and rng.random() < noise:
        return rng.randint(1500, 9000)
    return rng.randint(150, 900)


def think_time(rng: Optional[random.Random] = None) -> int:
    """Milliseconds a player thinks before touching a piece."""
    if rng is None:
        return 5000
    return rng.randint(2500, 30000)
