"""Evidence that comes after the move: a capture by a piece that had other captures, its
victim's square showing nothing of it, told from the opponent's recapture on that square
(recaptured) or from the capturer, or the opponent, moving on (moved_on); and a piece knocked
during a quiet move told from that move's capture of it by its owner moving it later
(knock_left). evidence.fits_events asks these once the sequence is known; docs/bridge.md
("Late tails") says why each is safe.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from flagfall import occupancy as core
from flagfall.bridge.window import Seen, Step, touched

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter, Square


def recaptured(a: GameAdapter, seq: list[Step], k: int, seen: Seen) -> bool:
    """True if the capture seq[k], by a piece that had other captures, is shown by the opponent's
    reply seq[k + 1] recapturing on its square (followed by any moves of seq, each shown cleanly;
    any move before seq[k] made by a piece with no other capture: _settled_before): the reply lifts
    the capturing piece from that square and lands its own piece there (both seen), the
    recapturing piece could capture nothing else there, and after each of the other captures the
    first piece could have made, it could capture nothing at all; or only on squares the first
    piece's side later leaves (a later move of its starts there, none between handling it; the
    square lifted once, never placed on in the window).

    Why this cannot write a capture that was not made (docs/bridge.md, "Late tails"): had the
    first piece captured elsewhere (unseen, or finished after the press), the square of seq[k]
    would hold the replier's own piece; the replier's piece left its square and nothing new is
    filled, so that piece captured something; after any such other capture it had no capture to
    make, so no legal reply empties its square: the story needs a piece of the replier's taken
    off the board. And in the position the record shows it had no capture but this one, so
    neither is the reply a capture elsewhere (slid, unseen) with the replier's own piece on that
    square knocked and set back. A capture of the replier's on a square the first side leaves later
    is no story either: there the replier's piece would stand, and the first side's move lifts it
    with nothing landing there, no move of a player's own pieces (as moved_on). Each move after
    the recapture adds one more story: the replier's piece moved to a square (it had no capture),
    that move capturing it there; that square then shows two placements (or one before that move
    began: the replier's piece lands before the next move begins), so each such move of the first
    capturer's side must show each of its squares once (a move of the replier's own side cannot be
    the one taking the replier's piece: no move, legal or illegal, captures a piece of the mover's
    own side, so those moves are not counted), counting only the events after the replier's piece was first lifted
    (before then it cannot land there; on the recapture's square, only those after the recapture
    landed: there the replier's own piece stands in the other story). Where the landing
    square shows no event at all (both captures slid, each victim pushed off unseen), the same
    conditions make the recapture the one story."""
    if len(seq) - k < 2 or not _settled_before(a, seq, k):
        return False
    c, m = seq[k]
    c1, m1 = seq[k + 1]
    travel = a.physical(m).travel
    landing = travel[0][1] if len(travel) == 1 else None
    if landing is None or touched(c) != {landing} or touched(c1) != {landing} or c1.origin is None:
        return False
    # only the events after the replier's piece was lifted can be its landing in the other story (on the
    # landing square, only those after the recapture's own landing, if seen)
    up1 = seen.lifted_after(c1.origin, 0)
    put1 = seen.placed_after(landing, up1) if up1 is not None else None
    for j in range(k + 2, len(seq)):
        third = seq[j][0]
        if (j - k) % 2:
            # a move of the replier's own side cannot be the one taking the replier's piece (no
            # move, legal or illegal, captures a piece of the mover's own side): the story below
            # is told only by the first capturer's moves (seed 986003114: ...Nxc3, bxc3 slid,
            # ...dxc4, Bxc4, c4 placed twice since the b-pawn's lift)
            continue
        # each move after the recapture shown cleanly: each square it fills placed once and never
        # lifted, each square it captures on lifted once and placed once. The other story (the
        # replier's piece, with no capture, moved to a square where that move took it) places a
        # piece there twice
        begun = max(seen.lifts.get(third.origin, ()), default=None) if third.origin is not None else None
        for s in third.filled | touched(third):
            since = put1 if s == landing and put1 is not None else up1 or 0
            places = [i for i in seen.places.get(s, ()) if i > since]
            if len(places) != 1 or len([i for i in seen.lifts.get(s, ()) if i > since]) != int(s in touched(third)):
                # (in the other story the replier's piece lands there before the third move began)
                if begun is None or any(i < begun for i in places):
                    return False
    # the landing square shows the reply's lift and placement, or no event at all: both captures
    # slid, each victim pushed off unseen; then no other story may hold a capture by the replier
    bare = not seen.lifts.get(landing) and not seen.places.get(landing)
    if not bare and (not seen.lifts.get(landing) or not seen.places.get(landing)):
        return False

    def left(x: Square) -> bool:
        """x later left by the first capturer's side (a move of seq starting there, none between
        handling it), lifted once and never placed on in the window: the replier took nothing there."""
        return _leaves(seq, k, x, 0) is not None and len(seen.lifts.get(x, ())) == 1 and not seen.places.get(x)

    a.push(m)
    try:
        if any(c2.origin == c1.origin and c2.touch and touched(c2) != {landing} and
               not all(left(x) for x in touched(c2) - {landing}) for c2 in a.candidates()):
            return False
    finally:
        a.pop()
    for c2 in a.candidates():
        if c2.origin != c.origin or not c2.touch or c2.moves == c.moves:
            continue
        a.push(c2.moves[0])
        try:
            if any(c3.origin == c1.origin and c3.touch and not all(left(x) for x in touched(c3))
                   for c3 in a.candidates()):
                return False
        finally:
            a.pop()
    return True


def _leaves(seq: list[Step], k: int, square: Square, parity: int) -> Optional[int]:
    """The first move of seq after seq[k] (its index j, with (j - k) % 2 == parity) starting on square,
    no move between handling it (None: none)."""
    for j in range(k + 1, len(seq)):
        cj = seq[j][0]
        if (j - k) % 2 == parity and cj.origin == square:
            return j
        if square in cj.filled | touched(cj) | cj.emptied:
            return None
    return None


def knock_left(seq: list[Step], k: int, seen: Seen, x: Square, up: int, press: int) -> bool:
    """True if the enemy piece on x, lifted while the piece of the quiet move seq[k] was in the air
    (after position `up`, by the press `press`: evidence.flight_touched), is shown by the moves
    after it to have been knocked, not captured: a later move of its owner's starts on x, no move
    between handling x, and x's only events in the window are that lift, one placement and that
    move's lift. In the other story (the moving piece took on x, landing after the press, its
    victim knocked onto the square the quiet move fills) the placement on x is the capturer's, and
    the owner's move lifts the capturer off x with nothing landing there: no move of a player's
    own pieces, legal or illegal (docs/bridge.md, "Late tails")."""
    ev = seen.events_on(x)
    return [d for _, d in ev] == [False, True, False] and up < ev[0][0] <= press and _leaves(seq, k, x, 1) is not None


def _settled_before(a: GameAdapter, seq: list[Step], k: int) -> bool:
    """True if no move of seq before seq[k] (the adapter at the position before seq[k]) was made by
    a piece that had another capture: each was read from the board on its own events, not from
    the moves after it (moved_on, recaptured), so the position before seq[k] is as certain as the
    record's. The rules that read a capture from its reply or its moves on (recaptured) argue from
    that position's captures."""
    for _ in range(k):
        a.pop()
    ok = True
    for c, m in seq[:k]:
        ok = ok and not other_captures(a, c)
        a.push(m)
    return ok


def _carried_before_press(seq: list[Step], k: int, on: int, seen: Seen, took: Square, bound: int,
                          press: int, others: frozenset[Square]) -> bool:
    """True if the moving-on move seq[on] (a quiet move from `took`, the square seq[k] took on) shows,
    between the press ending the move before it (position `bound`) and its mover's next press
    (`press`), only lifts of `took`, each followed by one placement, on `took` or on the square it
    fills (never one of the capturer's other squares `others`), the last on that square; that square
    is not lifted again in the window, and no piece is off the board at `bound` (the lifts up to
    it less the placements, less one victim per capture of seq before seq[on], is nought).

    Why the other story is no story (docs/bridge.md, "Late tails", the row on moved_on): there the
    capturer stands on a square of `others` and `took` holds the opponent's piece. With no piece in
    the air at `bound` and only `took` lifted up to the press, every placement up to it is that
    piece, which ends on the square filled and is never lifted from it: it never reaches the
    capturer's square (the knock the guard fears), and by the press the mover has lifted no piece
    of its own, only carried the opponent's piece from `took` to another square: no move of a
    player's own pieces, legal or illegal, whatever follows the press (seed 986000695: Bxc4 slid
    with Bxg6 possible, Ba2 from c4, g6 adjusted during ...e6 after White's press)."""
    cj = seq[on][0]
    if touched(cj) or len(cj.filled) != 1 or cj.filled & others:
        return False
    (dst,) = tuple(cj.filled)
    ev = sorted([(i, 0, sq) for sq, ls in seen.lifts.items() for i in ls if bound < i <= press] +
                [(i, 1, sq) for sq, ps in seen.places.items() for i in ps if bound < i <= press])
    if not ev or [d for _, d, _ in ev] != [j % 2 for j in range(len(ev))] or ev[-1][2] != dst:
        return False
    if any(sq != took for _, d, sq in ev if d == 0) or any(sq not in (took, dst) for _, d, sq in ev if d == 1):
        return False
    if any(i > press for i in seen.lifts.get(dst, ())):
        return False
    return seen.off_board(bound) - sum(1 for c, _ in seq[:on] if touched(c)) == 0


def _taken_off_after(seq: list[Step], on: int, seen: Seen, took: Square, bound: int, press: int,
                     others: frozenset[Square]) -> bool:
    """True if the moving-on move seq[on] captures from `took` on one of the capturer's other squares
    X and shows, between the press ending the move before it (position `bound`) and its mover's next
    press (`press`), `took` and X lifted once each, X placed once after its lift, and one other
    square placed: one no move of seq handles, with no other event in the window but one lift after
    the press, never placed on again (a victim pushed off and picked off). A piece lifted before
    `bound` and set back on its own square before the move's first lift does not count; no other
    piece is off the board at `bound`. The capturer is no pawn (checked by the caller: a pawn that
    has captured never advances two squares, and en passant is the one capture not landing on its
    victim's square).

    Why the other story is no story (docs/bridge.md, "Late tails", the row on moved_on): there the
    capturer stands on X and `took` holds the opponent's piece, the only two pieces in the hand
    from the move's first lift to the press (nothing else in the air: the count at `bound`, the
    pieces set back before that lift), for the two placements. Either the capturer is set back on
    X (the mover moved no piece of its own, only carried the opponent's piece to another square: no
    move), or the opponent's piece is put on X (the knock the guard fears) and the capturer lands on
    the other square, from which it
    is later lifted with nothing landing there and no move of seq starting there: the capturer
    taken off the board with no capture of it (a capture lands on its victim's square), no move of
    a player's own pieces, legal or illegal (seed 986008794: Qxh1 slid with Qxd5+ possible, Qxd5+
    from h1 with its victim knocked onto e4 and picked off after the press, c7 knocked during
    ...Nxg4 and set back after its press)."""
    cj = seq[on][0]
    xs = touched(cj)
    if len(xs) != 1 or not xs <= others or cj.filled or cj.emptied != {took}:
        return False
    (x,) = tuple(xs)
    handled = frozenset().union(*(c.filled | c.emptied | touched(c) | ({c.origin} if c.origin is not None else set())
                                  for c, _ in seq))

    def last_before(sq: Square) -> int:
        ev = seen.events_on(sq, 0, bound)
        return int(ev[-1][1]) if ev else -1

    lifts = [(i, sq) for sq, ls in seen.lifts.items() for i in ls if bound < i <= press]
    first_up = min((i for i, _ in lifts), default=press + 1)
    # a piece in the air at the bound set back on its own square before the move's first lift
    set_back = {sq for sq in seen.places if sq not in (took, x) and last_before(sq) == 0 and
                (seen.placed_after(sq, bound) or first_up) < first_up}
    places = [(i, sq) for sq, ps in seen.places.items() for i in ps if bound < i <= press
              and not (sq in set_back and i == seen.placed_after(sq, bound))]
    if sorted(sq for _, sq in lifts) != sorted([took, x]) or [sq for _, sq in places].count(x) != 1:
        return False
    if min(i for i, sq in places if sq == x) < max(i for i, sq in lifts if sq == x):
        return False
    if len(places) != 2:        # X and one other square (the victim pushed off)
        return False
    for _, y in places:
        if y == x:
            continue
        if y in handled or y in (took,) or last_before(y) != -1 or len(seen.places.get(y, ())) != 1:
            return False
        later = [i for i in seen.lifts.get(y, ()) if i > press]
        if len(later) != 1 or len(seen.lifts.get(y, ())) != 1:
            return False
    return seen.off_board(bound) - len(set_back) - sum(1 for c, _ in seq[:on] if touched(c)) == 0


def _paired(seen: Seen, sq: Square, after: int, until: int) -> bool:
    """True if sq's events after position `after` and up to `until` are lifts each followed by a
    placement there before the next lift (set back each time; none at all also counts)."""
    ev = seen.events_on(sq, after, until)
    return [d for _, d in ev] == [j % 2 for j in range(len(ev))]


def other_captures(a: GameAdapter, c: core.Candidate) -> list[core.Candidate]:
    """The other captures c's moving piece could make from the adapter's position (the rivals a
    capture shown only late, or not at all, must be told from)."""
    return [c2 for c2 in a.candidates() if c2.origin == c.origin and c2.touch and c2.moves != c.moves]


def moved_on(a: GameAdapter, seq: list[Step], k: int, seen: Seen) -> bool:
    """True if the capture seq[k], by a piece that had other captures, is shown by the moves of seq
    after it (chess only): for each other capture the piece could have made (on a square X), either
    the capturing piece later moves on from the square it took on (a later move of its side starts
    there, nothing having landed there since), or the opponent later moves its own piece from X (a
    later move of the opponent's starts there, nothing having landed there since).

    Why this cannot write a capture that was not made (docs/bridge.md, "Late tails"): the other
    story is the piece taking on X unseen (slid onto its victim) while the square it is read to
    take on was knocked and set back. In that story the square it took on still holds the
    opponent's piece and X holds the capturer, so the move read as the capturer moving on would be
    its owner's opponent's piece taken off the board by the mover with nothing landing there, and
    the move read as the opponent's piece leaving X would be the capturer taken off the board by
    the opponent, nothing of the opponent's landing on X: neither is a move, legal or illegal, of
    a player's own pieces (a chess capture lands on its victim's square, but en passant, which
    takes only a pawn that has just advanced two squares). Legality is not used: an illegal reply
    (a check ignored) is a move players make. Where the capturer moves on, nothing placed on any X
    since (else the capturer lifted from X, knocking the piece from the square read as left onto X,
    shows the same board) but by that move, seq's last, capturing on X; a placement on X before the
    moving-on move's first lift of the square taken on (after the bound below, that square's events
    since the capturer's lift pairing up before it) is not the piece knocked from there, which
    leaves that square only at such a lift; nor any placement on X where the moving-on move, quiet,
    shows up to its press only the square taken on lifted, its piece set down on the square it fills
    and left there, nothing in the air before (_carried_before_press). Where the opponent leaves
    X, X lifted once and never placed on (or adjusted first, that turn), and nothing placed on the
    square taken on after a lift of X but its capture's or recapture's (docs/bridge.md)."""
    if a.spec.family != "chess":
        return False
    c, m = seq[k]
    travel = a.physical(m).travel
    took = travel[0][1] if len(travel) == 1 else None
    if took is None or touched(c) != {took}:
        return False
    others = [touched(c2) for c2 in other_captures(a, c)]

    def leaves(square: Square, parity: int) -> Optional[int]:
        return _leaves(seq, k, square, parity)

    on = leaves(took, 0)
    if on is not None:
        # only X's events after the press ending the move before the moving-on move count, bounded
        # below by the chain of first presses, one per move in turn, from the capturer's first
        # lift: X lifted and set back before then (adjusted, knocked) is not the capturer leaving
        # X in the other story (seed 960004692: ...Qxg5 slid with ...Qxh1+ possible, h1 knocked
        # during ...exf4 and set back after its press, ...Qf6 from g5)
        side = a.side()
        bound = 0
        up = seen.lifted_after(c.origin, 0) if c.origin is not None else None
        if up is not None:
            i, bound = 0, up
            for move in range(k, on):
                mover = side if (move - k) % 2 == 0 else 1 - side
                while i < len(seen.presses) and (seen.presses[i][1] != mover or seen.presses[i][0] < bound):
                    i += 1
                if i == len(seen.presses):
                    bound = 0       # (no such chain: count every event on X)
                    break
                bound = seen.presses[i][0]
                i += 1
        put = {sq for sq, ps in seen.places.items() if any(i > bound for i in ps)}
        nxt = seen.presses[i] if up is not None and bound and i < len(seen.presses) else None
        if nxt is not None and nxt[1] == side and \
                (_carried_before_press(seq, k, on, seen, took, bound, nxt[0], frozenset().union(*others)) or
                 not a.text(m)[0].islower() and
                 _taken_off_after(seq, on, seen, took, bound, nxt[0], frozenset().union(*others))):
            return True
        # the piece knocked onto X in the other story is the one standing on the square taken on,
        # which leaves it only at a lift of that square: where that square's events since the
        # capturer's lift pair up before the bound (each lift set back there), a placement on X
        # before its first lift after the bound is not that piece (seed 989001468: Qxg4 finished
        # after the press with Qxb5 possible, b5 knocked and set back during Qh5 before g4 is lifted)
        start = bound
        t_up = seen.lifted_after(took, bound)
        if bound and up is not None and t_up is not None and _paired(seen, took, up, bound):
            start = t_up
        put_x = {sq for sq, ps in seen.places.items() if any(i > start for i in ps)}
        if not put_x & frozenset().union(*others) or on + 1 == len(seq) and put <= touched(seq[on][0]):
            return True
    flat = [x for xs in others for x in xs]
    x_up = min((i for x in flat for i in seen.lifts.get(x, ())), default=0)
    back = any(took in touched(seq[j][0]) for j in (leaves(x, 1) for x in flat) if j is not None)   # a recapture
    if len([i for i in seen.places.get(took, ()) if i > x_up]) > back and \
            (len(seen.lifts.get(took, ())) > 1 or len(seen.places.get(took, ())) > 1):
        return False
    # (X's other events: the opponent's only move after the capture, or adjusted that turn: docs/bridge.md)
    only = len(seq) <= k + 3 and not any(x in cj.filled | touched(cj) for cj, _ in seq[k + 2:] for x in flat)
    def one_turn(x: Square) -> bool:
        ev = seen.events_on(x)
        return bool(ev) and [d for _, d in ev] == [j % 2 for j in range(len(ev))] and not ev[-1][1] and \
            not any(ev[0][0] <= p < ev[-1][0] for p, _ in seen.presses)
    return bool(others) and all(len(xs) == 1 and (only or one_turn(x)) and leaves(x, 1) is not None
                                for xs in others for x in xs)
