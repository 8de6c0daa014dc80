"""The evidence of the window: whether moves agree with the order in which the board and the
clock saw them.

Since the last committed move the tracker logged each lift and placement, and the game each
press. A sequence of legal moves that reaches the board is only a story; this module checks it
against that order (fits_events: each move begun after the press before it, its piece landed by
its own press, no other piece held off the board across a press, a capture's late tail only
where nothing else could have made it or the moves after it show which), and tells whether a
take-back was shown (takeback_seen). resync finds the sequences; the reconstruction at a press
asks the same questions of one move.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator, Optional, Protocol, Sequence, Union

from flagfall import occupancy as core
from flagfall.bridge import decisions as D
from flagfall.bridge.decisions import Press, Times
from flagfall.bridge.later_evidence import knock_left, moved_on, other_captures, recaptured
from flagfall.bridge.window import Seen, Step, touched

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter, Move, Prefs, Square


class Game(Protocol):
    """The game's members the moves found are looked for and committed through (the game's state,
    documented on flagfall.bridge.game.Game)."""

    adapter: GameAdapter
    tracker: core.Tracker
    index: core.Index
    prefs: Prefs
    moves: list[D.PlayedMove]
    result: str
    press_log: list[Press]
    press_sides: set[int]
    window_presses: int
    window_counted: int
    clock_counts: Optional[tuple[int, int]]
    clock_owed: int
    counted_clocks: dict[tuple[int, int], int]

    def emit(self, decs: list[D.Decision]) -> list[D.Decision]: ...
    def set_alert(self, t: int, text: str, kind: str = D.ALERT_CONFIRM) -> list[D.Decision]: ...
    def commit(self, cand: core.Candidate, t: int, times: Times, how: str, end: bool = True,
               mover_ms: Union[int, None, bool] = True, lifted: Sequence[Square] = (),
               carried: Sequence[Press] = ()) -> list[D.Decision]: ...
    def late_presses(self, mover: int) -> list[Press]: ...
    def take_back(self, t: int, how: str) -> list[D.Decision]: ...


def candidate_of(game: Game, move: Move) -> Optional[core.Candidate]:
    """The physical signature of `move` from the adapter's current position."""
    for c in game.adapter.candidates():
        if move in c.moves:
            return c
    return None


def _takeback_shown(seen: Seen, c: core.Candidate, travel: Sequence[tuple[Optional[Square], Square]] = ()) -> bool:
    """A take-back of the move of candidate c was seen in this window: the moved piece lifted from
    where it went, put back where it came from (in that order: a piece put on the origin before
    the other was lifted is another piece), and a captured piece put back on its square."""
    back_lifts = c.filled | touched(c)
    back_places = c.emptied | touched(c)
    if not (all(seen.lifted_after(s, 0) is not None for s in back_lifts)
            and all(seen.placed_after(s, 0) is not None for s in back_places)):
        return False
    for src, dst in travel:
        if src is None or src == dst:
            continue
        first_lift = seen.lifted_after(dst, 0)
        if first_lift is None or not any(i > first_lift for i in seen.places.get(src, ())):
            return False
    return True


def without_events(game: Game, drop: set[int]) -> tuple[core.Tracker, list[Press]]:
    """The window with the events numbered in `drop` (1-based, in the tracker's log) left out: a
    tracker of the rest, and the window's presses counted in its events."""
    view = core.Tracker(game.tracker.base)
    for i, (tt, s, d) in enumerate(game.tracker.log, 1):
        if i not in drop:
            view.event(tt, s, d)
    return view, [(n - sum(1 for i in drop if i <= n), side, tp, times) for n, side, tp, times in game.press_log]


@contextmanager
def seen_as(game: Game, view: core.Tracker, log: list[Press]) -> Iterator[None]:
    """Inside, the game's window reads as `view` and `log` (some events left out or moved: the
    next mover's hand begun early); its own tracker and press log are back after."""
    real, real_log = game.tracker, game.press_log
    game.tracker, game.press_log = view, log
    try:
        yield
    finally:
        game.tracker, game.press_log = real, real_log


def takeback_seen(game: Game, back: int, seen: Optional[Seen] = None) -> bool:
    """True if the board events since the last commit show the last `back` moves taken back
    (see _takeback_shown). Lazy adapters (minzu) list no signatures: there the board back at
    the earlier position is the evidence."""
    a = game.adapter
    if a.lazy:
        return True
    seen = seen or Seen(game)
    popped: list[Move] = []
    ok = True
    for _ in range(back):
        popped.append(a.pop())
        c = candidate_of(game, popped[-1])
        travel = [(t[0], t[1]) for t in a.physical(popped[-1]).travel]
        if c is None or not _takeback_shown(seen, c, travel):
            ok = False
            break
    for m in reversed(popped):
        a.push(m)
    return ok


def _unseen_in_move(seen: Seen, c: core.Candidate, sq: Square, after: int, side: int,
                    later: frozenset[Square]) -> bool:
    """True if the victim's square sq of capture c (by `side`) shows no event of the move: none
    at all after position `after`, or only
    - lifts and placements finished before the moving piece was first lifted, sq holding a piece
      again by then (the square's piece adjusted, often the last mover's own tail after its press:
      cxd5 adjusted on d5, then ...exd5 slid onto it, seed 880001545): before the capturer left its
      square, they cannot be its capture;
    - events after the opponent's press that followed the move's, where a later move of the
      sequence takes the piece off sq or captures there (`later`: the capturer moving on,
      ...Bxe4 slid then Bxf5+ from e4): they are that move's, checked with it.
    Nothing between the capturer's lift and the opponent's press: the reply's time shows no
    event on sq, as for a square never touched."""
    lifts = [i for i in seen.lifts.get(sq, ()) if i > after]
    places = [i for i in seen.places.get(sq, ()) if i > after]
    if not lifts and not places:
        return sq not in seen.lifts and sq not in seen.places or seen.put_at(sq, after)
    up = seen.lifted_after(c.origin, after) if c.origin is not None else None
    if up is None:
        return False
    before = [i for i in lifts + places if i < up]
    if len([i for i in lifts if i < up]) != len([i for i in places if i < up]) or \
            (before and not seen.put_at(sq, up)):
        return False
    rest = [i for i in lifts + places if i > up]
    if not rest:
        return True
    press = seen.press_after(side, up)
    reply = seen.press_after(1 - side, press) if press is not None else None
    return reply is not None and sq in later and min(rest) > reply


def _move_fits(seen: Seen, c: core.Candidate, after: int, side: int, landing: Optional[Square],
               late: bool = False, unseen: bool = False, rivals: Callable[[], bool] = lambda: True,
               one_piece: bool = True, slid_on: frozenset[Square] = frozenset(),
               later: frozenset[Square] = frozenset(), widened: bool = False) -> \
        Optional[tuple[int, int, Optional[int]]]:
    """(where the press ending c's move came, where the move began, where its piece landed if after
    that press), or None: the events do not show the move.

    c's lifts and placements must be seen after position `after`. The move begins with the
    moving piece's last lift before it landed (on `landing`); the press is `side`'s first after
    that. The piece may land after the press (a press while it is still in the hand) only on
    an empty square or on a piece already taken off before the press; with `late` also on a
    piece taken off after the press (a blitz capture: the capturer in the hand at the press,
    the victim lifted after it; the caller commits it only once the board has settled).
    With `unseen` a captured piece's square may show no event at all (a capturer slid onto
    its victim, the square never reading empty): the caller accepts it only where a reply
    ended by the opponent's press follows. Neither is taken when the moving piece had another
    capture (`rivals()`, unless the recapture or the moves after it show which: recaptured,
    moved_on): a capture slid onto one victim while the opponent knocks over and sets up another
    piece it could take shows the same events as a capture of that piece finished after the press.
    `one_piece`: the move travels one piece (not a castling, whose rook may pass over the king's
    landing square and leave it while the king is set down there). `slid_on`: squares whose events
    all belong to the move before (its piece landed there after its press, nothing seen on it
    since): with `unseen`, such a square of c's may too have never read empty after that landing
    (a recapture slid onto a capturer whose victim came off after the press). Those, and the
    squares whose events are not the move's (_unseen_in_move, with `later`), are read so only
    `widened`; else a square shows no event of the move only where it shows none at all."""
    began: Optional[int] = None
    never = frozenset(s for s in touched(c) if unseen and (
        s in slid_on or _unseen_in_move(seen, c, s, after, side, later) if widened
        else s not in seen.lifts and s not in seen.places))
    if never and rivals():
        return None
    for s in (c.emptied | touched(c)) - never:
        i = seen.lifted_after(s, after)
        if i is None:
            return None
        began = i if began is None else min(began, i)
    for s in (c.filled | touched(c)) - never:
        if seen.placed_after(s, after) is None:
            return None
    landed = seen.placed_after(landing, after) if landing is not None and landing not in never else None
    if landed is not None and landing is not None and c.origin is not None and one_piece:
        # the moving piece lands after it leaves its square: a placement on the landing square
        # before that (the victim adjusted by its owner, say) is not this move's landing. Not
        # for a castling: the rook slid over g8 before the king left e8, the king set down on
        # g8 beside it and the rook slid on to f8 leave g8 with no placement after the king's lift
        up = seen.lifted_after(c.origin, after)
        landed = seen.placed_after(landing, up) if up is not None else None
        if landed is None:
            return None
    if landed is not None and c.origin is not None:
        ups = [i for i in seen.lifts.get(c.origin, ()) if after < i < landed]
        if ups:
            began = ups[-1]
    if began is None:
        return None
    press = seen.press_after(side, began)
    if press is None:
        return None
    if landed is not None and landed > press:
        for s in touched(c):
            # the victim taken off before the press stays off until the capturer lands: one lifted
            # and set back before it (its owner adjusting it) was still on its square at the press
            # (seed 880008607: e2 adjusted by White, ...Nxf3 slid, White's exf3 lifting e2 read as
            # ...Nxe2 finished after the press)
            off = any(after < i <= press for i in seen.lifts.get(s, ())) and not seen.put_at(s, press)
            if not off and (not late or rivals()):
                return None
    return press, began, landed if landed is not None and landed > press else None


def flight_touched(seen: Seen, c: core.Candidate, up: int, press: int, a: "GameAdapter",
                   left: Callable[[Square], bool] = lambda x: False,
                   rivals: Optional[Sequence[core.Candidate]] = None) -> bool:
    """True if c captures nothing, and an enemy piece its moving piece could have captured was
    lifted after the piece was picked up for the move (`up`) and before the press: a capture
    whose victim was knocked onto the square c fills (picked off a moment later) shows the same
    board until then. Not for a square `left` says its owner later moved from (a sequence's later
    moves: later_evidence.knock_left). `rivals`: the moves of the adapter's position already listed
    (the game's index at a press), else the adapter lists them."""
    if c.touch or c.origin is None:
        return False
    handled = {sq for sq, ups in seen.lifts.items() if any(up < i <= press for i in ups)}
    if not handled - c.emptied - c.filled:
        return False
    if _knock_stood(seen, c, up, press):
        return False
    return any(c2.origin == c.origin and any(not left(x) for x in touched(c2) & handled)
               for c2 in (a.candidates() if rivals is None else rivals))


def _knock_stood(seen: Seen, c: core.Candidate, up: int, press: int) -> bool:
    """True if the piece c set down (last, after its lift at `up`, before its press `press`) still
    stood on its square at the next press after c's: then it was no victim knocked there, which is picked off across
    no press but the one ending the move it was knocked in (fits_events), and the capture
    flight_touched fears is no story. Black's Qh4-g4 knocking White's h2 pawn, set back after the
    press: read as "Qxh2, the pawn knocked onto g4", until White's next press with g4 untouched
    (seed 880005516)."""
    nxt = next((p for p, _ in seen.presses if p > press), None)   # (a press with events before it)
    if nxt is None:
        return False
    for sq in c.filled:
        put = max((i for i in seen.places.get(sq, ()) if up < i <= press), default=None)
        if put is None:
            return False
        lift = seen.lifted_after(sq, put)
        if lift is not None and lift <= nxt:
            return False
    return bool(c.filled)


def fits_events(game: Game, seq: list[Step], first: int, also: frozenset[Square] = frozenset(),
                late: bool = False, unseen: bool = False, landings: bool = False,
                listed: Optional[Sequence[core.Candidate]] = None) -> bool:
    """The moves of seq, made in order from the adapter's position by `first` then alternately,
    agree with the order of what the board and the clock saw since the last commit.

    Each move's lifts and placements come after the press that ended the move before it (a
    square touched earlier counts only if it was touched again after that press); each move
    is ended by its mover's press, which comes after the move began (its first lift) and after
    the moving piece landed; a part finished after the press (a castling's rook, a captured
    piece taken off) is allowed. A square of a move is left empty across no press but the one
    ending that move. Any other square (not moved by seq, nor in `also`: a take-back's squares) shows only a piece
    lifted and put back, or a hand hovering, each finished before the next press, or across the one
    press that ended the move being made (a piece knocked during a move and set back just after its
    press, a victim knocked onto an empty square and picked off from it), never across another.
    `late`: the board has settled, and a capture may be finished after its press (_move_fits).
    `unseen`: a capture whose victim's square shows no event at all is allowed where the next move
    of seq follows it (the reply explains it; explain asks for it only when nothing else fits).
    `landings`: also refuse a move that fills a square holding a piece put there in this window
    and standing at the press of an earlier move of seq whose board has that square empty. The
    sequence may still be true (a capture's victim knocked there, picked off, then the reply put
    there), but so may the same moves' squares read another way: the piece put there was the
    earlier move's landing, and the later move took it (seed 741004332: ...Qg6 knocking d4, set
    back after the press, then Qxg6, read as "...Qxd4 (landing after the press) Qg6"; the truth
    fails flight_touched). So the callers count such a sequence among the ones that fit, and
    never choose it: a doubt, not a refusal (refusing it could leave a rival the one that fits).
    `listed`: the legal moves of the adapter's position, already listed (the game's index at a press).
    With `unseen`, a move the plain reading ends only at a later press of its side's than the first
    after it began may be read slid instead (_move_fits' `widened`), ended by that first press: the
    sequence fits if it fits either way (seed 986002664).
    """
    skipped: list[int] = []
    if _fits_events(game, seq, first, also, late, unseen, landings, listed, False, skipped):
        return True
    return bool(skipped) and _fits_events(game, seq, first, also, late, unseen, landings, listed, True, [])


def _fits_events(game: Game, seq: list[Step], first: int, also: frozenset[Square], late: bool, unseen: bool,
                 landings: bool, listed: Optional[Sequence[core.Candidate]], earliest: bool,
                 skipped: list[int]) -> bool:
    """fits_events, each move read plainly where that fits (its slid reading only where not), or with
    `earliest` read slid where the plain reading ends it at a later press of its side's than the first
    after it began and the slid one ends it earlier; `skipped` collects the moves read plainly so."""
    seen = Seen(game)
    a = game.adapter
    after = 0                       # the press that ended the previous move of the sequence
    pushed = 0
    ending: set[tuple[int, int]] = set()      # the presses that ended the moves of seq
    held: Optional[int] = None      # where the move before landed, if after its press
    began_at: list[int] = []        # where each move of seq began
    landed_on: list[tuple[Square, int]] = []    # the move before's landing after its press: (square, where)
    vacated: frozenset[Square] = frozenset()    # squares the moves of seq so far left empty
    could_land: dict[int, frozenset[Square]] = {}   # the press ending a capture -> empty squares its piece could have gone to
    knocked_later: list[tuple[int, int]] = []   # a move's square lifted after its press and set back: (lift, placement)
    left_open: list[Square] = []    # origins left empty across a press after their move's
    filled_from: dict[Square, int] = {}     # a square a move of seq filled -> where that move began
    base = frozenset(game.tracker.base)
    # (landings only) the sequence's board after each move, from the adapter's position, and the
    # press ending each move with the board it leaves
    track = landings and len(seq) > 1
    occ = frozenset(a.occupancy()) if track else frozenset()
    stood: list[tuple[int, frozenset[Square]]] = []
    try:
        for k, (c, m) in enumerate(seq):
            side = (first + k) % 2
            travel = a.physical(m).travel
            landing = travel[0][1] if travel and travel[0][1] != travel[0][0] else None
            lastmove = k + 1 == len(seq)
            def rivals(c: core.Candidate = c, k: int = k) -> bool:
                if not other_captures(a, c):
                    return False
                return not recaptured(a, seq, k, seen) and not moved_on(a, seq, k, seen)
            one = len(travel) == 1
            # the squares a later move of seq empties or captures on: events there after the reply's
            # press are that move's, not a slid capture's own (_unseen_in_move)
            later = frozenset(x for cj, _ in seq[k + 1:] for x in cj.emptied | touched(cj))
            # the move before landed on a square after its press and nothing was seen there since: a
            # capture of this move's there may have slid onto it (the square never read empty again)
            slid_on = frozenset(sq for sq, at in landed_on
                                if seen.lifted_after(sq, at) is None and seen.placed_after(sq, at) is None)
            # (the slid readings, where the events are not the move's own or are the move before's,
            # only where the events do not show the move as seen: read slid, a capture by a piece
            # with another capture is refused, and the events the move before was given may as well
            # be this move's own, the move before slid: Qxe4+ after ...fxe4 refused so left ...Qxd4
            # the one story, seed 900003056)
            # (widened also where the plain one failed only from the handed start: seed 978006458)
            def reading(wide: bool, c: core.Candidate = c, k: int = k, side: int = side,
                        landing: Optional[Square] = landing, rivals: Callable[[], bool] = rivals, one: bool = one,
                        slid_on: frozenset[Square] = slid_on, later: frozenset[Square] = later,
                        lastmove: bool = lastmove, after: int = after) -> Optional[tuple[int, int, Optional[int]]]:
                fit = _move_fits(seen, c, after, side, landing, late, unseen and not lastmove, rivals, one,
                                 slid_on, later, widened=wide)
                if fit is not None and k == 0:
                    # counted from the opponent's last press before it (a press back): the time before was his
                    handed = max((p for p, s in seen.presses if s != side and p < fit[0]), default=0)
                    if handed > after:
                        fit = _move_fits(seen, c, handed, side, landing, late, unseen and not lastmove, rivals,
                                         one, slid_on, later, widened=wide)
                return fit
            fit = reading(False)
            if unseen and not lastmove:
                first_own = seen.press_after(side, after)
                skips = fit is not None and first_own is not None and fit[0] > first_own
                if skips and not earliest:
                    skipped.append(k)
                elif fit is None or skips:
                    # (widened also where the plain reading ends the move only at a later press of its
                    # side's, past the first after it began, if the sequence does not fit so: a capture
                    # slid onto its victim and the capturer moving on later, the plain reading taking
                    # that later move's lift and placement on the square for the capture's own landing,
                    # and the capturer's origin, filled again by a later move, lifted there for its start:
                    # Qxe4 slid, Bd3 adjusted on d3, Qf5 from e4 twelve moves on; seed 986002664)
                    wide_fit = reading(True)
                    if wide_fit is not None and (fit is None or wide_fit[0] < fit[0]):
                        fit = wide_fit
            if fit is None:
                return False
            press, began, landed_late = fit
            if stood and any(sq not in was and seen.put_at(sq, p) for sq in c.filled for p, was in stood):
                return False
            def left(x: Square, k: int = k, b: int = began, p: int = press) -> bool:
                return knock_left(seq, k, seen, x, b, p)
            if flight_touched(seen, c, began, press, a, left, listed if k == 0 else None):
                return False
            if held is not None and began < held:
                # the move before landed after its press, and this one had begun by then: that
                # landing may be this move's (a piece in the hand at a press, then the opponent's
                # capture on the square it could have gone to)
                return False
            # (a capture's landing may be unseen, slid onto its victim: the reply handles that square)
            held = landed_late if not touched(c) else None
            landed_on = [(landing, landed_late)] if landing is not None and landed_late is not None else []
            # a square an earlier move of seq left empty (its origin) stays empty across that move's
            # press and the ones after it until this move fills it (exf5 slid, then ...e5-e4)
            # (only events since the last earlier move of seq filling the square began, the rest
            # judged with it: Ne5, ...f5, f3, ...exf3, seed 960000061; on a square empty at first,
            # since this move began, a piece put there before is landing_at's: seed 960007471)
            if seen.followed and any(seen.off_across_press(sq, frozenset(ending | {(press, side)}) if sq in vacated
                                                           else frozenset({(press, side)}),
                                                           began, sorted(p for p, _ in ending), press, knocked_later,
                                                           since=filled_from.get(sq, 0 if sq in base else began))
                                     for sq in c.filled | touched(c)):
                return False
            for sq in c.filled:
                filled_from[sq] = began
            # the square the move left (its origin) may stay empty across the presses ending the
            # later moves of seq too, until one of them fills it (...Qxa2 Re1 ...Qd5: d5 empty
            # across White's press; seed 880004977): judged at the end, when those are known
            for sq in c.emptied - c.filled - touched(c):
                if seen.followed and seen.off_across_press(sq, frozenset(ending | {(press, side)}), began,
                                                           sorted(p for p, _ in ending), press, knocked_later):
                    left_open.append(sq)
            vacated = (vacated | c.emptied) - c.filled - touched(c)
            after = press
            ending.add((press, side))
            began_at.append(began)
            if touched(c):
                listing = listed if k == 0 and listed is not None else a.candidates()
                could_land[press] = frozenset(x for c2 in listing if c2.origin == c.origin
                                              and c2.emptied == c.emptied and len(c2.filled - c.filled) == 1
                                              for x in c2.filled - c.filled if c.filled < c2.filled)
            if track:
                occ = (occ - c.emptied) | c.filled
                stood.append((press, occ))
            if k + 1 < len(seq):        # the next move's squares are read from the position after this one
                a.push(m)
                pushed += 1
    finally:
        for _ in range(pushed):
            a.pop()
    # every other square touched was only lifted and put back (or hovered over), each time
    # before anyone pressed: a piece held off the board across a press is a move unaccounted for
    # the clock handed back and forth by presses that ended no move of seq (a press back, then the
    # other side's press) with the board handled in between: a move taken back and replaced by one
    # that leaves the same squares filled (another capture by the same piece) looks like pieces put
    # back; such a window is not explained by seq
    loose = [p for p, s in seen.presses if (p, s) not in ending]
    if any(q > p for p, q in zip(loose, loose[1:])):        # positions: events came between them
        return False
    if not seen.followed:
        return True
    ends = sorted(p for p, s in ending)
    if any(seen.off_across_press(sq, frozenset(ending)) for sq in left_open):
        return False
    # a move's square lifted after that move was over and set back (knocked during a later move):
    # across one press only, the one ending the move made when it was lifted, as any other square
    # (Bxf4, then Black's hand knocking the bishop off f4 during ...Qe7, set back after Black's
    # press; seed 880002426)
    # (not a lift that began a later move of seq from that square: the piece leaving, ...f6 then fxe5,
    # ...Qg5+ set down on f6 in passing; seed 986002664)
    for i, j in knocked_later:
        if any(b == i and game.tracker.log[i - 1][1] in c.emptied for b, (c, _) in zip(began_at, seq)):
            continue        # that lift began a later move of seq from the square: judged with it (left_open)
        across = [p for p, _ in seen.followed if i <= p < j]
        if len(across) > 1 or across[0] not in ends or any(i <= q for q in ends if q < across[0]):
            return False
    moved = set(also)
    for c, m in seq:
        moved |= c.emptied | c.filled | touched(c)
    # a square a move of seq fills stood empty until that move's piece landed on it: a piece set
    # on it and lifted again before then was held on the board like any other square's (seed
    # 790013184: the king set on g1 during O-O and lifted two presses later, read as the square
    # Ng1 fills: "Rf1 O-O Ng1" written for "O-O O-O Ne1")
    landing_at: dict[Square, int] = {}
    earlier: set[Square] = set(also)
    for k, (c, m) in enumerate(seq):
        for sq in c.filled - earlier:
            landed = seen.placed_after(sq, began_at[k])
            if landed is not None:
                landing_at.setdefault(sq, landed)
        earlier |= c.emptied | c.filled | touched(c)
    checks: list[tuple[Square, Optional[int]]] = [(sq, None) for sq in (set(seen.lifts) | set(seen.places)) - moved]
    for sq, until in checks + list(landing_at.items()):
        events = seen.events_on(sq)
        if until is not None:
            events = [e for e in events if e[0] < until]
        for (i, put), (j, _) in zip(events[0::2], events[1::2]):
            across = [p for p, _ in seen.followed if i <= p < j]
            if not across:
                continue
            # one press only, the one that ended the move made while the square was first
            # handled (lifted after the press before it)
            if len(across) > 1 or across[0] not in ends or any(i <= q for q in ends if q < across[0]):
                return False
            # a piece put on an empty square and picked off after that move's press (a capture's
            # victim knocked there) is as well the capturer landed there instead and lifted again
            # by its owner, the next mover's hand already busy: where the capturer could have gone
            # there, the knock is taken only if picked off before the next move began (seed 708597948:
            # Bb4+, then the bishop lifted from b4 during White's c3, read as "Bxd4 c3")
            k = ends.index(across[0])
            if put and sq in could_land.get(across[0], ()) and k + 1 < len(began_at) and \
                    began_at[k + 1] < j:
                return False
    return True
