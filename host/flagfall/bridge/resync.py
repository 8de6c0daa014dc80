"""Catching up after a gap: the moves made while the board's frames were lost.

When the cable was out (or the device restarted) the board may show the
result of one, two or three moves the bridge never saw being made. The clock's
move counters say how many; this module finds the one sequence of legal
moves that leads from the last known position to the board's (see
catch_up), and the Game commits them as "inferred after reconnect". The same search
shortens the record's edit when both players acted inside the settle window (explain).
Whether a sequence agrees with the order of the events seen is evidence's.
"""
from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Optional, Sequence

from flagfall import occupancy as core
from flagfall.bridge import decisions as D
from flagfall.bridge.decisions import Times
from flagfall.bridge.evidence import Game, candidate_of, fits_events, seen_as, takeback_seen, without_events
from flagfall.bridge.longwindow import landing_twin, long_early, long_found, reordered, stray_placement
from flagfall.bridge.plays import sequences, step_key, twin_play
from flagfall.bridge.window import Seen, Step, touched

if TYPE_CHECKING:
    from flagfall.games.protocol import Square

INFERRED = "inferred after reconnect"   # PlayedMove.how of a move found from the board after an outage



def _hands(a: frozenset[Square], b: frozenset[Square], x: Optional[frozenset[Square]]) -> Optional[int]:
    """How many extra pieces must be in hands for board x to be seen on the way from a to b (None: never)."""
    if x is None or not x <= (a | b):
        return None
    n = len((a & b) - x)
    return n if n <= 2 else None


def catch_up(game: Game, t: int, times: Times, plies: Optional[int] = None) -> Optional[list[D.Decision]]:
    """Moves made while frames were lost: find the one sequence of legal moves the board shows.

    Only after a resync (tracker.gap). `plies` is how many moves were made
    (from the clock's move counters); None tries 2. The sequence must be
    unique by its final occupancy; if several fit, those whose touched
    squares were all seen lifted are kept; still several -> an alert for
    the operator. Returns the decisions, or None if nothing explains the board.
    """
    if plies is None:
        plies = 2
    if plies < 1 or plies > 3:
        return None if plies < 1 else game.set_alert(
            t, "%d moves were made while the board was disconnected: the operator enters them" % plies)
    a = game.adapter
    tr = game.tracker
    # from the committed position (the tracker's base is the adapter's occupancy)
    found = sequences(game, frozenset(tr.cur), plies)
    if not tr.gap:
        # no frame was lost: every move must be backed by the events and presses seen, and be the
        # one sequence that fits them even counting captures finished after the press or never
        # shown (a piece in the hand at a press lands later: explain decides those, or the arbiter)
        first = a.side()
        relaxed = [f for f in found if fits_events(game, f, first, late=True, unseen=True)]
        found = [f for f in found if fits_events(game, f, first, landings=True)] if len(relaxed) <= 1 else []
    if not found:
        return None
    if len(found) > 1:
        seen = set(tr.first_up)
        keep = [f for f in found if all(s in seen for c, m in f for s, *_ in c.touch)]
        found = keep or found
    if len(found) > 1 and tr.gap_occ is not None:
        # the board last seen before the resync, and the board at the resync, lie on the way
        # (in that order): keep the sequences that pass them with the fewest pieces in hands
        scored: list[tuple[int, list[Step]]] = []
        for f in found:
            occs = [frozenset(tr.base)]
            for c, m in f:
                occs.append((occs[-1] - c.emptied) | c.filled)
            best: Optional[int] = None
            for k1 in range(len(f)):
                h1 = _hands(occs[k1], occs[k1 + 1], tr.pre_gap_occ)
                if h1 is None:
                    continue
                for k2 in range(k1, len(f) + 1):
                    h2 = (0 if occs[k2] == tr.gap_occ else None) if k2 == len(f) else \
                        _hands(occs[k2], occs[k2 + 1], tr.gap_occ)
                    if h2 is not None and (best is None or h1 + h2 < best):
                        best = h1 + h2
            if best is not None:
                scored.append((best, f))
        if scored:
            low = min(b for b, f in scored)
            found = [f for b, f in scored if b == low]
    if len(found) > 1:
        texts = [" ".join(_texts(game, f)) for f in found[:4]]
        return game.set_alert(t, "after the reconnect the board shows %d moves: %s; the operator "
                               "confirms them" % (plies, " or ".join(texts)))
    adjust = _window_adjust(game, len(found[0]))
    return _commit_all(game, t, times, found[0], INFERRED, inferred=True) + \
        _press_adjust(game, t, adjust)


def counted_clocks(game: Game, movers: Sequence[int]) -> list[Optional[int]]:
    """The mover's clock after each of the moves about to be committed (by `movers`, in order), where
    the device's readings told it, else None (never a guess).

    Only when these moves are the ones the clock's move counters count and the record lacks
    (Game.clock_owed): then the last move of side s is that side's press number
    Game.clock_counts[s], the one before it the number before, and so on, and each is looked up
    among the times the device's readings showed standing after a side's n-th press
    (Game.counted_clocks). Moves made while frames were lost have no such reading."""
    counts = game.clock_counts
    if counts is None or len(movers) != game.clock_owed:
        return [None] * len(movers)
    left = list(counts)
    out: list[Optional[int]] = []
    for s in reversed(movers):
        out.append(game.counted_clocks.get((s, left[s])))
        left[s] -= 1
    return out[::-1]


def _commit_all(game: Game, t: int, times: Times, seq: list[Step], how: str,
                inferred: bool = False, lifted: Sequence[Square] = ()) -> list[D.Decision]:
    """Commit a found sequence move by move (each through the index the previous commit rebuilt);
    moves inferred after an outage take a clock only where the readings told it (counted_clocks).
    The last commit begins the next window with the next mover's lifts (`lifted`) and its press
    after them (Game.commit, Game.late_presses), as one commit of a waiting press does."""
    out: list[D.Decision] = []
    first = game.adapter.side()
    carried = game.late_presses((first + len(seq) - 1) % 2) if seq else []
    clocks = counted_clocks(game, [(first + i) % 2 for i in range(len(seq))]) if inferred else []
    for i, (c, m) in enumerate(seq):
        if game.result != "*":
            break
        for c2 in game.index.get((c.emptied, c.filled), ()):
            if c2.touch == c.touch and m in c2.moves:
                last = i + 1 == len(seq)
                if inferred:
                    out += game.commit(c2, t, None, how, mover_ms=clocks[i])
                else:
                    out += game.commit(c2, t, times, how, lifted=lifted if last else (),
                                       carried=carried if last else ())
                break
    return out


def _window_adjust(game: Game, moves: int) -> int:
    """How far the presses counted as moveless in this window overcount, once `moves` moves are
    found for its presses (a press seen as stray turns out to be a move's)."""
    if not game.window_counted:
        return 0
    return max(game.window_presses - moves, 0) - game.window_counted


def _press_adjust(game: Game, t: int, adjust: int) -> list[D.Decision]:
    if not adjust:
        return []
    return game.emit([D.Decision(D.INFO, t, text="%d clock press(es) seen as moveless belong to the moves found"
                                 % -adjust, press_adjust=adjust)])


def legal_story(game: Game, most: int = 3) -> Optional[list[str]]:
    """A sequence of at most `most` legal moves from the committed position to the board's occupancy,
    whatever the order of the events, or after the last move taken back where the board showed
    the take-back: their texts (None: no legal play leads there). The board a player can reach by legal moves
    is not an illegal move, even where the events cannot prove the moves."""
    a = game.adapter
    if a.lazy:
        return None
    target = frozenset(game.tracker.cur)
    for plies in range(1, most + 1):
        found = sequences(game, target, plies, limit=0)
        if found:
            return _texts(game, found[0])
    # a captured piece not yet off the board: legal play that captures, every square of it handled
    # in this window (but a victim's square where a move follows the capture: the capturer slid
    # onto it, shown by the reply, as explain allows), plus one piece standing on a square that was
    # empty when the window began (a victim knocked onto an empty square, picked off later). The
    # evidence is not complete, so it is never an illegal move (docs/bridge.md, "Late tails")
    base = a.occupancy()
    handled = frozenset(sq for _, sq, _ in game.tracker.log)
    for extra in sorted(target - base):
        rest = target - {extra}
        if len(rest) >= len(base):
            continue                    # no capture in the play: nothing left to take off
        for plies in range(1, most + 1):
            found = [seq for seq in sequences(game, rest, plies, limit=32)
                     if all(c.emptied | c.filled | (touched(c) if k + 1 == len(seq) else frozenset()) <= handled
                            for k, (c, _) in enumerate(seq))]
            if found:
                return _texts(game, found[0]) + ["(a captured piece still on %s)" % a.name(extra)]
    # the last move taken back (its own lifts and placements seen: takeback_seen), then moves
    if game.moves and takeback_seen(game, 1):
        last = a.pop()
        try:
            for plies in range(1, most):
                found = sequences(game, target, plies, limit=0)
                if found:
                    return ["(%s taken back)" % game.moves[-1].text] + _texts(game, found[0])
        finally:
            a.push(last)
    return None


def _texts(game: Game, seq: list[Step]) -> list[str]:
    """The move texts of a sequence played from the adapter's position."""
    a = game.adapter
    words = []
    for c, m in seq:
        words.append(a.text(m))
        a.push(m)
    for _ in seq:
        a.pop()
    return words


def explain(game: Game, t: int, moves: Optional[int] = None) -> Optional[list[D.Decision]]:
    """Both players acted inside the settle window: find the short edit of the record the board shows.

    An unexplained board after clock presses is not an illegal move while a
    take-back of the last move followed by new moves, or two or three moves in
    a row (a castling finished after the opponent's reply), explains it: the
    smallest such edit, if it is unique, that the board events and presses
    back (docs/bridge.md, "What the bridge will and will not infer"): a
    take-back only with its own lifts and placements seen, every move's
    events after the press that ended the move before it, every move ended by
    its mover's press. Where nothing explains the board, the same moves beside
    pieces the next mover has already lifted (the opponent's hand starting
    before the last press, as reconstruction.beside_lifted for one move) are looked for
    (_explain_beside). Returns the decisions (take-back, then the moves), or None.

    Where nothing else explains it and the window's four presses alternate from the mover's, four
    moves, each ended by one of them, are looked for (_edit's `most`): the first, a capture
    finished after the press by a piece with other captures, may be shown only by the fourth (the
    opponent leaving the other square it could have taken on, later_evidence.moved_on: Bxa1 with Bxf6
    possible, ...Nbd7 Nf3 ...Ne4, seed 880003933).

    `moves`: the smallest edit must be that many moves and no take-back, else None (Game.press,
    before the board has settled: one move per press of the window, none of them a press that
    ended no move; a shorter edit that fits may be a move's late tail still to come, as O-O with
    the rook in the hand read as Rg1, the record's evidence is the settled board's).
    """
    if not game.press_sides or game.adapter.lazy:
        return None
    edit = _edit(game, frozenset(game.tracker.cur), (0, 1))
    if edit is AMBIGUOUS:
        return None
    if edit is not None:
        back, seq = edit
        if moves is not None and (back or len(seq) != moves):
            return None
        return _apply(game, t, back, seq)
    # the early start and the longer windows only at the settle (Game.press asks for an exact edit)
    found = _explain_beside(game, t, moves) or (_explain_early(game, t) or _moved_on_early(game, t)
                                                 if moves is None else None)
    if found or moves is not None:
        return found
    mover = game.adapter.side()
    if [p[1] for p in game.press_log] != [mover, 1 - mover] * 2:
        return _explain_long(game, t)
    edit = _edit(game, frozenset(game.tracker.cur), (0,), most=4, least=4)
    if edit is AMBIGUOUS:
        return None
    if edit is None:
        return _explain_long(game, t)
    return None if stray_placement(game, edit[1]) else _apply(game, t, 0, edit[1])


AMBIGUOUS: tuple[int, list[Step]] = (-1, [])
"""_edit's answer when two edits of the same size fit."""


def _edit(game: Game, target: frozenset[Square], backs: Sequence[int],
          most: int = 3, least: int = 2) -> Optional[tuple[int, list[Step]]]:
    """explain's search: (moves taken back, the moves after) of the smallest edit that leads to
    target and fits the window's events and presses, None when none does, AMBIGUOUS when two do.

    `most` 4 (no take-back; explain, four presses one per move, each ending its move in order;
    `least` 4 where none shorter fits): four moves are looked for only among those whose first
    move has a square lifted by the first press of its side (fits_events would refuse any other:
    that press ends the first move, which began before it), so that the search stays that of
    three moves per first move."""
    a = game.adapter
    seen = Seen(game)
    tr = game.tracker
    p1 = next((p for p, s, *_ in game.press_log if s == a.side()), None)

    def begun(c: core.Candidate) -> bool:
        return p1 is not None and any(tr.first_up.get(s, p1 + 1) <= p1 for s in c.emptied | touched(c))
    for back in backs:
        if back > len(game.moves):
            break
        if not takeback_seen(game, back, seen):
            continue
        popped = [a.pop() for _ in range(back)]
        undone: frozenset[Square] = frozenset()
        if popped:
            c0 = candidate_of(game, popped[0])
            if c0 is not None:
                undone = c0.emptied | c0.filled | touched(c0)
        first = a.side()
        choice = None
        ambiguous = False
        for plies in range(1 if back else least, (most if not back else 3) + 1):
            # a capture with no event on its victim's square (slid onto it) counts only for a piece
            # with no other capture, and like every explanation only if it is the one that fits
            found = [f for f in sequences(game, target, plies, first=begun if plies > 3 else None)
                     if fits_events(game, f, first, undone, late=True, unseen=True)]
            if found:
                # the one that fits, unless a move of it lands where a piece put earlier stood
                # (fits_events' landings): then an alert, as for two that fit
                ambiguous = len(found) > 1 or (
                    not fits_events(game, found[0], first, undone, late=True, unseen=True, landings=True)
                    and landing_twin(game, target, found[0]))
                choice = found[0]
                break
        for m in reversed(popped):
            a.push(m)
        if ambiguous:
            return AMBIGUOUS
        if choice is not None:
            return back, choice
    return None


def _explain_beside(game: Game, t: int, moves: Optional[int] = None) -> Optional[list[D.Decision]]:
    """explain's moves beside the next mover's hand already on the board: the window ends with
    lifts only (nothing else seen after the first of them, presses aside), still empty. With those
    lifts left out, the one sequence (no take-back) that explains the board and its events must
    leave on each of those squares a piece of the side whose turn comes next: a piece that stood
    there when the window began, the square touched by no move of the sequence and handled
    nowhere else since that side's last press before the lifts (before it, lifted and set back as
    often: adjusted, or knocked and set back), or the piece a move of that side's in the sequence
    put there, no move after it touching the square (the capturer moving on: Kxf2 finished after the press, ...Ng4+, the
    king lifted again before Black's press, seed 880007370); no move of that last mover may capture
    there (on landing, en passant, draughts): else its capturer in the hand at its press, its
    landing square knocked and set back, shows the same events; and no move of the lifters'
    side in it may have taken those pieces along (a castling's rook). The lifts then begin the
    next window, as a lift after the last press would. docs/bridge.md
    ("Late tails"): the pieces in the air belong to the side whose turn comes next, so the
    moves before them are shown in full without them."""
    a = game.adapter
    tr = game.tracker
    if tr.gap:
        return None
    k = tr.n
    while k > 0 and not tr.log[k - 1][2]:
        k -= 1
    drop = set(range(k + 1, tr.n + 1))          # positions (1 = the first event) of the trailing lifts
    lifted = [tr.log[i - 1][1] for i in sorted(drop)]
    if not lifted or len(set(lifted)) != len(lifted) or any(s in tr.cur for s in lifted):
        return None
    view, log = without_events(game, drop)
    with seen_as(game, view, log):
        edit = _edit(game, frozenset(view.cur), (0,))
    if edit is None or edit is AMBIGUOUS:
        return None
    _, seq = edit
    if moves is not None and len(seq) != moves:
        return None             # (explain's `moves`)
    first = a.side()
    side = (first + len(seq)) % 2       # the next mover, whose hand the lifts must be
    # the lifters' last press before the lifts (k: the events before them): the last mover's turn
    # came after it. A square of theirs handled before it (adjusted during their own move, knocked
    # and set back) held its piece again by then and showed nothing in the last mover's turn until
    # the lift (seed 972002796: b2 adjusted during Nf5, ...Bxd4 slid, ...Bxc3+ lifting b2 early)
    turn = max((p for p, who, *_ in game.press_log if who == side and p <= k), default=0)
    for s in lifted:
        moved = [k for k, (c, _) in enumerate(seq) if s in c.emptied | c.filled | touched(c)]
        if not moved:
            ups = [i for i, (_, sq, down) in enumerate(view.log, 1) if sq == s and not down]
            downs = [i for i, (_, sq, down) in enumerate(view.log, 1) if sq == s and down]
            if max(ups + downs, default=0) > turn or len(ups) != len(downs) or \
                    s not in tr.base or a.owner(s) != side:
                return None     # not a piece of the next mover's standing there since its last turn
        else:
            c = seq[moved[-1]][0]
            if (first + moved[-1]) % 2 != side or s not in c.filled | touched(c):
                return None     # not the piece a move of the next mover's put there
    squares = frozenset(lifted)
    # no move the last mover could have made may capture on those squares (on landing, en passant,
    # draughts): else its capturer in the hand at its press, the square it was seen put on (a
    # capture: knocked and set back) and that capture still to come would show the same events;
    # and no move of the lifters' own in the sequence may have taken those pieces along (a
    # castling's rook)
    # (the last mover's capture there needs its capturer in the hand at its press: only a move whose
    # piece left its square in this window, or is off the board, counts; a piece that never left it
    # holds no capture to come, seed 880002972: ...Bxg1 finished after the press, Rxg1 with Black's e5
    # lifted before White's press, refused because f4xe5 was a move of White's)
    reach = False
    for k, (c, m) in enumerate(seq):
        if k + 1 == len(seq):
            # (only a piece lifted in the window, or off the board, can have been that capturer in the
            # hand: White's d5 pawn, never lifted, did not take on e6, Black's pawn lifted early for
            # ...exd5; seed 880008392)
            reach = reach or any(squares & (c2.emptied | touched(c2)) for c2 in a.candidates()
                                 if c2.origin is None or c2.origin in tr.first_up or c2.origin not in tr.cur)
        a.push(m)
    for _ in seq:
        a.pop()
    if reach or _taken_along(game, squares, side, len(seq)):
        return None
    return _apply(game, t, 0, seq, lifted)


def _taken_along(game: Game, squares: frozenset[Square], side: int, plies: int) -> bool:
    """_explain_beside's twin story: legal play as long as the sequence found, or one move longer,
    to the board as it is (the lifted squares empty), in which a move of the lifters' own side
    (`side`) that is not the last takes the pieces of `squares` along (a castling's rook): then
    the lifts may be that move's. Only play that leads to the board counts: Black's a8 lifted
    before White's press after ...cxd4 Nb5 is no part of a ...O-O-O Black could have played, which
    would have emptied e8 (seed 880009160)."""
    first = game.adapter.side()

    def story(other: list[Step]) -> bool:
        return any((first + k) % 2 == side and squares & c.emptied and c.origin not in squares
                   for k, (c, _) in enumerate(other[:-1]))
    return twin_play(game, frozenset(game.tracker.cur), (plies, plies + 1), story)


def _explain_early(game: Game, t: int) -> Optional[list[D.Decision]]:
    """explain's moves where the next mover lifted its moving piece a moment before the mover's
    press that ended the move before (the opponent starting early) and finished its move after
    it: each such square, the opponent's in the committed position, lifted once in the window,
    after the mover's move began and before that press, with no other event on it, and still
    empty. With those lifts moved to just after the press, the one sequence (no take-back, at
    least the mover's move and the reply) that explains the board and its events must have the
    reply move those pieces, and the mover's move touch none of those squares; no move the mover
    could have made with a piece lifted before its press may empty them or capture there (a
    draughts capture, en passant: then the lift may be its victim taken off). docs/bridge.md ("Late tails"): a piece lifted before the
    press, not the mover's and no piece its move could take, is the opponent's hand on its own
    piece, which moves only after that press.

    Where none is found so, the same at the window's second press (the opponent's, after the mover's
    first): the mover's own piece, standing since the window began, lifted once after the first
    press and before the second, read just after the second: the sequence's third move moves it, the
    second touches none of those squares, and no legal play to the board (two or three moves) has its
    second move empty them or capture there (seed 986005874: exd4 slid, ...f5 with White's e5 lifted
    before Black's press, exf6 e.p.)."""
    a = game.adapter
    tr = game.tracker
    if tr.gap:
        return None
    first = a.side()
    p1 = next((p for p, s, *_ in game.press_log if s == first), None)
    if p1 is None:
        return None
    events: dict[Square, list[int]] = {}
    for i, (_, sq, _) in enumerate(tr.log, 1):
        events.setdefault(sq, []).append(i)
    sides = [s for _, s, *_ in game.press_log]
    bounds = [(0, p1, 0)]           # (after, before, the index of the press in the window)
    if sides[:2] == [first, 1 - first]:
        bounds.append((game.press_log[0][0], game.press_log[1][0], 1))
    for since, until, j in bounds:
        # (after the mover's move began: checked once the sequence names that move, whose origin may
        # hold the reply's piece by now)
        owner = (first + j + 1) % 2
        early = sorted(sq for sq, ks in events.items()
                       if len(ks) == 1 and since < ks[0] <= until and not tr.log[ks[0] - 1][2]
                       and sq in tr.base and sq not in tr.cur and a.owner(sq) == owner)
        if not early or len(early) > 4:
            continue
        # which of those lifts are the opponent's hand and which the mover's draughts victims taken
        # off is not known beforehand: every choice is read, and only one sequence may come of them
        found: dict[tuple[str, ...], list[Step]] = {}
        for n in range(len(early), 0, -1):
            for chosen in combinations(early, n):
                seq = _early_sequence(game, frozenset(chosen), events, until, j)
                if seq is not None:
                    found.setdefault(tuple(_texts(game, seq)), seq)
        if len(found) == 1:
            return _apply(game, t, 0, next(iter(found.values())))
        if found:
            return None
    return None


def _early_sequence(game: Game, squares: frozenset[Square], events: dict[Square, list[int]],
                    p1: int, j: int = 0) -> Optional[list[Step]]:
    """_explain_early's reading with the lifts of `squares` (one each, before the press at log
    position p1, the window's j-th press from 0) moved to just after that press: the one sequence
    that explains it, or None."""
    a = game.adapter
    tr = game.tracker
    first = a.side()
    if j == 0 and _early_victim(game, squares, p1):
        return None             # a move of the mover's begun before its press could have taken a piece off there
    moved = {events[sq][0] for sq in squares}
    order = [i for i in range(1, p1 + 1) if i not in moved] + sorted(moved) + list(range(p1 + 1, tr.n + 1))
    view = reordered(tr, order)

    def moved_to(k: int, p: int, s: int) -> int:
        if j:
            return p - sum(1 for i in moved if i <= p) if k < j else p1 - len(moved) if k == j else p
        if p < p1 or (p == p1 and s != first):
            return p - sum(1 for i in moved if i <= p)
        return p if p > p1 else p1 - len(moved)
    log = [(moved_to(k, p, s), s, tp, times) for k, (p, s, tp, times) in enumerate(game.press_log)]
    with seen_as(game, view, log):
        edit = _edit(game, frozenset(view.cur), (0,))
    if edit is None or edit is AMBIGUOUS:
        return None
    _, seq = edit
    if len(seq) < j + 2 or squares & (seq[j][0].emptied | seq[j][0].filled | touched(seq[j][0])) or \
            not squares <= seq[j + 1][0].emptied:
        return None
    if j:
        # the j-th move began (a square it empties lifted after the press before) before the lifts; no
        # legal play to the board has that move take a piece off those squares (its capture's victim)
        seen = Seen(game)
        since = game.press_log[j - 1][0]
        began = min((i for i in (seen.lifted_after(s, since) for s in seq[j][0].emptied) if i is not None),
                    default=None)
        if began is None or any(events[sq][0] < began for sq in squares) or twin_play(
                game, frozenset(tr.cur), (j + 1, j + 2),
                lambda other: bool(squares & (other[j][0].emptied | touched(other[j][0])))):
            return None
        return seq
    began = min((tr.first_up[s] for s in seq[0][0].emptied if a.owner(s) == first and s in tr.first_up),
                default=None)
    if began is None or any(events[sq][0] < began for sq in squares):
        return None             # lifted before the mover's move began: not a hand starting early
    return seq


def _early_victim(game: Game, squares: frozenset[Square], p1: int) -> bool:
    """_explain_early's twin story: a move the mover could have made, its piece lifted before its
    press (p1, a position in the tracker's log), that takes a piece off `squares` (a draughts
    capture, en passant) and, with the moves after it (three at most), leads to the board. Then the
    early lift may be that capture's victim taken off, not the opponent's hand. A capture there
    that no legal play carries to the board cannot be the story (its landing square would be
    filled), so it does not stop the reading: Russian f4:h6 with Black's e5 lifted before White's
    press, White's f4 able to take e5 too (f4:d6 never fills d6; seed 880002178)."""
    a = game.adapter
    tr = game.tracker
    risky = {step_key(c) for c in a.candidates() if squares & (c.emptied | touched(c))
             and (c.origin is None or tr.first_up.get(c.origin, p1 + 1) <= p1)}
    return bool(risky) and twin_play(game, frozenset(tr.cur), (1, 2, 3),
                                     lambda other: step_key(other[0][0]) in risky)


def _moved_on_early(game: Game, t: int) -> Optional[list[D.Decision]]:
    """explain's three moves (presses mover, opponent, mover) where the capturer, set down after its press,
    was lifted again to move on before the opponent's press, nothing placed after it: with that lift read
    just after the press, one reading only has one sequence, capturing there first, leaving it third, with
    no other move on it, and no legal play to the board has the reply leave or capture there (docs/bridge.md)."""
    tr, first = game.tracker, game.adapter.side()
    if tr.gap or [s for _, s, *_ in game.press_log] != [first, 1 - first, first]:
        return None
    (p1, *_), (p2, *_) = game.press_log[:2]
    last, found = {sq: i for i, (_, sq, _) in enumerate(tr.log, 1)}, []
    for sq, m in last.items():
        if not (p1 < m <= p2 and not tr.log[m - 1][2] and sq not in tr.cur and not any(
                tr.log[i - 1][2] for i in range(m, p2 + 1)) and any(tr.log[i - 1][1:] == (sq, True) for i in range(p1 + 1, m))):
            continue
        view = reordered(tr, [i for i in range(1, p2 + 1) if i != m] + [m] + list(range(p2 + 1, tr.n + 1)))
        with seen_as(game, view, [(p - 1 if k == 1 else p, s, tp, tm) for k, (p, s, tp, tm) in enumerate(game.press_log)]):
            edit = _edit(game, frozenset(view.cur), (0,), least=3)
        if edit is not None and edit is not AMBIGUOUS and len(edit[1]) == 3:
            (c0, _), (c1, _), (c2, _) = edit[1]
            if sq in touched(c0) & c2.emptied and sq not in c1.emptied | touched(c1) and not twin_play(
                    game, frozenset(tr.cur), (3,), lambda other: sq in other[1][0].emptied | touched(other[1][0])):
                found.append(edit[1])
    return _apply(game, t, 0, found[0]) if len(found) == 1 else None


def _explain_long(game: Game, t: int) -> Optional[list[D.Decision]]:
    """explain's moves over more than three presses: the window's presses alternate from the side to
    move (four to longwindow.LONGEST of them, no gap), each ending one move, and exactly one sequence of that
    many legal moves (no take-back) leads to the board and fits its events and presses under every
    rule of fits_events, as for explain's edits of two or three (a capture slid onto its victim, or
    finished after the press, by a piece with other captures only where the moves after it show
    which: later_evidence.moved_on). docs/bridge.md ("Late tails"): a slid capture by a piece with
    another capture is often shown only several moves later (the capturer moving on, the opponent
    leaving the other square); the windows in between were left unexplained, and each press after
    them adds a move to the one story that fits. Only the moves each part of the window can hold
    are looked at: the k-th move's squares emptied lifted, its squares filled placed on, after the
    window's (k-1)-th press (fits_events asks them after the press that ended the move before,
    which is that press or a later one), so no sequence that fits is left out. Where none fits,
    the next mover's hand begun before a press of the window is read as in _explain_early
    (longwindow.long_early)."""
    found = long_found(game)
    if found == [] and not game.tracker.gap:
        found = long_early(game)
    if found is None or len(found) != 1:
        return None
    return _apply(game, t, 0, found[0])


def _apply(game: Game, t: int, back: int, seq: list[Step], lifted: Sequence[Square] = ()) -> list[D.Decision]:
    adjust = _window_adjust(game, len(seq))
    out: list[D.Decision] = []
    for _ in range(back):
        out += game.take_back(t, "by agreement, seen on the board (the moves after it follow)")
    out += _commit_all(game, t, None, seq, "explained after both players acted", lifted=lifted)
    return out + _press_adjust(game, t, adjust)
