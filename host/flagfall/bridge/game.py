"""One game on the bridge: its state and inputs (board events, clock presses and readings, flags,
buttons, operator commands, settle ticks), commits, take-backs and results.

The rest is done by functions over the game's state, each module by concept: reading the board
into a move within a window (reconstruction.py), several moves at once after an outage or when both
players acted (resync.py), illegal moves and their penalties (penalties.py), the alert
(alerts.py), and the operator's entries into the record (entries.py).

Game is deterministic: its state depends only on the inputs it was given
(square changes, clock presses and readings, flags, buttons, operator
commands, and settle ticks), each carrying a time `t` in milliseconds. That
is what lets the journal rebuild a game exactly after a crash: feed the same
inputs again.

Every input method returns the list of decisions it took (decisions.Decision:
move, takeback, alert, clear, touch, penalty, result, promotion, info, ...),
also appended to `self.decisions`. Catching up on moves made while frames
were lost is resync.py's job.

When is a move committed?
  * clock mode (a clock is attached): when the mover presses the clock and
    the board shows exactly one legal move (with its capture evidence). A
    press while the board is not yet explained waits for the board: the
    first explained position commits; if none comes within settle_ms the
    press was an illegal move (penalty policy) or a press without a move.
  * no clock: when the board has been still for settle_ms on a position
    that exactly one legal move explains.
  * after an illegal move the mover's clock has already been pressed, so the
    correcting move is committed when the board settles, in both modes.
A position equal to the one before the last move, with no legal move
explaining it, is a take-back (recorded, the move removed).
"""
from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence, TypedDict, Union

from flagcore import outcome as oc

from flagfall import occupancy as core
from flagfall.bridge import alerts, entries, penalties, reconstruction, resync
from flagfall.bridge import decisions as D
from flagfall.bridge.decisions import Press, Times
from flagfall.bridge.penalties import PENALTY_MODES
from flagfall.bridge.resync import INFERRED
from flagfall.games import registry
from flagfall.games.protocol import Outcome, Prefs, Square


class ClockState(TypedDict, total=False):
    """The latest clock reading as Game keeps it (Game.clock; the live state reads it)."""

    white_ms: Optional[int]
    black_ms: Optional[int]
    running: Optional[str]        # "white", "black" or None (stopped or unknown)
    flag: Optional[str]           # the side whose flag fell
    white_display: str
    black_display: str
    at: Optional[int]             # host time of the reading
    delay_ms: int                 # simple delay: the running side's time stands still this long


class Game:
    """A game being followed on the board (see the module docstring)."""

    def __init__(self, game: str = "chess", clock_mode: bool = True, settle_ms: int = 1500,
                 fen: Optional[str] = None, tags: Optional[dict[str, str]] = None,
                 penalty: Optional[str] = None, tc: Optional[str] = None, rule_1975: bool = True,
                 options: Optional[dict[str, Any]] = None, penalties: str = "auto",
                 armageddon: bool = False, laws: Optional[str] = None) -> None:
        self.spec, opts = registry.lookup(game)
        opts.update(options or {})
        if fen:
            opts["fen"] = fen
        self.adapter = self.spec.adapter(**opts)
        self.name = game
        self.clock_mode = clock_mode
        self.settle_ms = settle_ms
        self.tags = dict(tags or {})
        self.tc = tc
        self.rule_1975 = rule_1975
        if laws is not None and self.spec.laws and laws not in self.spec.laws:
            raise ValueError("laws must be one of %s (got %r)" % (", ".join(self.spec.laws), laws))
        # the laws edition (chess: FIDE Laws of Chess, its illegal-move penalty); the other games keep
        # their rulebooks' policies whatever the event chose
        self.laws: Optional[str] = (laws or self.spec.laws[0]) if self.spec.laws else None
        self.penalty_name = penalty or self.laws or self.spec.penalty_policy
        if penalties not in PENALTY_MODES:
            raise ValueError("penalties must be one of %s (got %r)" % (", ".join(PENALTY_MODES), penalties))
        self.penalties = penalties
        self.armageddon = armageddon  # draw odds to the second side (Black): docs/clock.md, Armageddon
        # confirm mode: (the alert, the side) of an illegal move awaiting the arbiter; it lasts as long
        # as that alert (proposed_penalty)
        self.penalty_alert: Optional[tuple[str, int]] = None
        self.policy: Optional[tuple[int, int, bool]] = None
        self.tracker = core.Tracker(self.adapter.occupancy())
        self.index: core.Index = self.make_index()
        self.moves: list[D.PlayedMove] = []          # PlayedMove, in order
        self.prev_occ: list[frozenset[Square]] = []       # occupancy before each move, for take-backs
        self.prev_window: list[tuple[int, Square, bool]] = []    # events of the last move's window, for amending it
        self.owed = 0            # moves the clock counted that the record lacks (after a resync)
        self.ended_by_rules = False   # the rules ended the game after a move (mate, draw rules)
        self.clock_side: Optional[int] = None   # whose clock runs (from the device); None if unknown or stopped
        self.clock_to_move: Optional[int] = None   # the side the device's clock has on move (running or not)
        self.clock_counts: Optional[tuple[int, int]] = None   # the clock's move counters at its latest reading
        self.clock_owed = 0      # ... how many presses more than the record has moves
        self.counted_clocks: dict[tuple[int, int], int] = {}   # (side, n): its time as read standing after
        #                                                        its n-th press (resync.counted_clocks)
        self.takebacks: list[str] = []      # moves taken back, as "12. Nf3", for the record
        self.inhand_since: Optional[int] = None  # since when the board shows only lifts that a capture could explain
        self.decisions: list[D.Decision] = []
        self.clock_edits: list[D.Decision] = []    # the arbiter's changes at the clock, in order
        self.alert: Optional[str] = None
        self.last_alert_kind = D.ALERT_CONFIRM     # the kind of the latest alert raised (alert_kind while it is up)
        self.result = "*"
        self.reason: Optional[str] = None       # why the game ended, for people ("checkmate", "White resigned")
        self.outcome: Optional[Outcome] = None      # Outcome when the rules (or a flag, or penalties) ended it
        self.pending_press: Optional[tuple[int, int, Times]] = None
        self.pending_at = 0      # board events seen in the window when the pending press came
        self.pending_origins: set[Optional[Square]] = set()   # the moving pieces the board showed at that press
        self.press_sides: set[int] = set()
        self.press_log: list[Press] = []
        self.window_presses = 0
        self.window_counted = 0
        self._new_window()
        self.settle_at: Optional[int] = None
        self.correcting = False  # after an illegal move: commit on settle
        self.illegal = [0, 0]
        self.prefs: Prefs = {}
        self.clock: ClockState = {"white_ms": None, "black_ms": None, "running": None, "flag": None,
                      "white_display": "", "black_display": "", "at": None}
        self.last_t = 0

    # ---------------------------------------------------------------- inputs

    def square(self, t: int, sq: Square, down: bool) -> list[D.Decision]:
        """A square changed (down: a piece arrived)."""
        self.last_t = t
        out: list[D.Decision] = []
        if not self.tracker.event(t, sq, down):
            return out
        self.settle_at = t + self.settle_ms
        self.inhand_since = None
        if self.result != "*":
            return out
        if self.correcting and self.tracker.cur == self.tracker.base:
            # the position before a ruled move is reinstated (FIDE 7.5.1: by the players or the
            # arbiter, the clock handed back before or after): what was done to the board and the
            # clock until now was that move and its undoing; the next move's evidence starts here
            self.tracker.reset(self.tracker.base)
            self._new_window()
            return out
        if self.pending_press is not None:
            r = reconstruction.match(self, True)
            if r.kind == core.MATCH and reconstruction.press_ends(self, r.matched) and \
                    (down or self.adapter.lazy or self.tracker.gap or
                     sq in r.matched.emptied | r.matched.filled | frozenset(x for x, *_ in r.matched.touch)):
                # (a lift that makes the board the move only by taking off a piece outside it - a
                # victim knocked onto an empty square, picked off - is as well the move's own piece
                # lifted to be adjusted: the board settles it. Lazy adapters (minzu) list no
                # signatures to tell, and after a gap the lifts were not all seen: as before)
                return out + self.commit_pending(r.matched)
        return out

    def snapshot(self, t: int, occupied: Iterable[Square]) -> list[D.Decision]:
        """A full occupancy reading (after a reconnect): differences become events."""
        before = set(self.tracker.cur)
        occ = set(occupied)
        if occ == before:
            return []
        self.tracker.set_occupancy(t, occ)
        self.settle_at = t + self.settle_ms
        out = self.emit([D.Decision(D.INFO, t, text="resynchronised from snapshot: %d squares changed"
                           % len(before ^ occ))])
        if self.pending_press is not None and self.result == "*":
            r = reconstruction.match(self, True)
            if r.kind == core.MATCH and reconstruction.press_ends(self, r.matched):
                out += self.commit_pending(r.matched)
        if self.owed and self.result == "*":
            out += resync.catch_up(self, t, self.reading(), self.owed) or []
        return out

    def due(self, t: int) -> bool:
        """True if tick(t) would evaluate a settled board (so the caller journals the tick)."""
        return self.settle_at is not None and t >= self.settle_at

    def tick(self, t: int) -> list[D.Decision]:
        """Time passes: evaluate the board if it has settled."""
        if self.settle_at is None or t < self.settle_at:
            return []
        self.settle_at = None
        self.last_t = t
        if self.result != "*":
            return []
        return reconstruction.settled(self, t)

    def press(self, t: int, side: int, times: Times = None) -> list[D.Decision]:
        """`side` pressed its clock button (its turn ended); times = (white_ms, black_ms) after it."""
        self.last_t = t
        if times is not None:
            self.clock["white_ms"], self.clock["black_ms"] = times
            self.clock["at"] = t
        if self.result != "*":
            return []
        mover = self.adapter.side()
        if side != mover:
            if self.tracker.gap:
                # events were lost while the cable was out: the opponent may be finishing a
                # second move; the board may show both
                out = resync.catch_up(self, t, times, self.plies_hint(2))
                if out is not None:
                    return out
            # stray: a press the record will not follow (with a gap it may be a lost move's press)
            self._window_press(t, side, times, counted=not self.tracker.gap)
            out = self.emit([D.Decision(D.INFO, t, text="clock press by %s, not on move"
                                        % self.adapter.side_names[side], stray=True,
                                        press_without_move=not self.tracker.gap)])
            if self.pending_press is not None and not self.tracker.gap:
                # the mover's press still waits for its move, and the opponent has replied and
                # pressed: the reply may complete the evidence (a capture finished after the
                # press, a victim that never read empty)
                out += resync.explain(self, t) or []
            return out
        r = reconstruction.match(self, True)
        if r.kind == core.MATCH and not reconstruction.flight_touched(self, r.matched):
            self.press_log.append((self.tracker.n, side, t, times))
            fits = reconstruction.fits_presses(self, r.matched)
            self.press_log.pop()
            if fits:
                return self.commit(r.matched, t, times, "clock")
        else:
            self.press_log.append((self.tracker.n, side, t, times))
            beside = reconstruction.beside_lifted(self, late=False)
            self.press_log.pop()
            if beside is not None:
                return reconstruction.commit_beside(self, beside, (t, side, times))
        out = []
        if self.pending_press is not None:
            # pressed again before the board showed a move: the earlier press made none
            self.window_counted += 1
            out = self.emit([D.Decision(D.INFO, t, text="clock pressed again by %s before a move was shown"
                                        % self.adapter.side_names[side], press_without_move=True)])
        self._window_press(t, side, times, counted=False)
        self.pending_press = (t, side, times)
        self.pending_at = self.tracker.n
        # what the board showed at the press: a capture not shown or an ambiguous one is finished
        # by the evidence the alert asks for, even after the press
        self.pending_origins = {c.origin for c in r.options} if r.kind in (core.AMBIGUOUS, core.IN_HAND) else set()
        # a capture not shown at all: the gesture asked for is taken only where the piece had
        # no other capture (an opponent's piece knocked and set up looks the same)
        self.pending_unshown = r.kind == core.IN_HAND
        self.settle_at = t + self.settle_ms
        if [p[1] for p in self.press_log] == [side, 1 - side, side] and not self.tracker.gap:
            # the mover pressed, the opponent replied and pressed, and the mover presses again: the
            # board may hold three moves, the first shown only by the third (a capture finished
            # after the press, its piece moving on: later_evidence.moved_on); by the settle time the
            # opponent's next move may be on the board too. Only an edit of three moves, one per
            # press: a shorter one may read a late tail still to come as another move (seed
            # 740008670: O-O with the rook in the hand, ...O-O, Re1, read as "Rg1 O-O")
            out += resync.explain(self, t, moves=3) or []
        return out

    def _window_press(self, t: int, side: int, times: Times, counted: bool) -> None:
        self.press_sides.add(side)
        self.press_log.append((self.tracker.n, side, t, times))
        self.window_presses += 1
        if counted:
            self.window_counted += 1

    def clock_reading(self, t: int, white_ms: Optional[int], black_ms: Optional[int],
                      running: Optional[str] = None, flag: Optional[str] = None,
                      displays: Optional[tuple[str, str]] = None) -> list[D.Decision]:
        """The latest clock reading (for the record and the live state)."""
        c = self.clock
        c["white_ms"] = white_ms
        c["black_ms"] = black_ms
        c["running"] = running
        c["flag"] = flag
        c["at"] = t
        if displays:
            c["white_display"], c["black_display"] = displays
        return []

    def flag(self, t: int, side: int) -> list[D.Decision]:
        """`side`'s flag fell: rule with the position."""
        if self.result != "*":
            return []
        out = []
        opp = 1 - side
        a = self.adapter
        if self.rule_1975 and side == a.side():
            # 1975 rules: a move completing the control that mates or stalemates stands
            r = reconstruction.match(self)
            if r.kind == core.MATCH:
                m = a.choose(r.matched, self.prefs)
                a.push(m)
                end = a.ending()
                a.pop()
                if end is not None and end.termination in (oc.CHECKMATE, oc.STALEMATE):
                    out += self.commit(r.matched, t, None, "flag (1975 rule: the move stands)")
                    return out
        if a.can_win(opp):
            winner = opp
            why = "%s's flag fell" % a.side_names[side]
        else:
            winner = None
            why = "%s's flag fell, but %s cannot win" % (a.side_names[side], a.side_names[opp])
        out += self.finish(t, self.spec.result(winner), why, Outcome(winner, oc.TIME_FORFEIT))
        return out

    def button(self, t: int, name: str) -> list[D.Decision]:
        """A clock or board button: a promotion choice ('q', 'r', 'b', 'n', 'promote-n')."""
        p = self.adapter.promotion_piece(name)
        if not p:
            return self.emit([D.Decision(D.INFO, t, text="button %s" % name)])
        # the choice fixes the last move if it was a promotion, else applies to the next one
        if self.moves and self.adapter.is_promotion(self.moves[-1].move) and self.moves[-1].default:
            return entries.fix_promotion(self, t, len(self.moves) - 1, name)
        self.prefs["promotion"] = p
        return self.emit([D.Decision(D.INFO, t, text="next promotion: %s" % name)])

    def operator(self, t: int, cmd: str, *args: Union[str, int]) -> list[D.Decision]:
        """Operator commands: move TEXT, promote PLY PIECE, result RES [REASON], takeback, clear,
        penalty [white|black] (apply the penalty for an illegal move; without a side, the one proposed)."""
        if cmd == "promote":
            return entries.fix_promotion(self, t, int(args[0]), args[1])
        if cmd == "result":
            return self.finish(t, str(args[0]), " ".join(str(a) for a in args[1:]) or "operator")
        if cmd == "takeback":
            return self._takeback(t, "operator")
        if cmd == "move":
            return entries.operator_move(self, t, " ".join(str(a) for a in args))
        if cmd == "moves":
            return entries.operator_moves(self, t, [str(a) for a in args])
        if cmd == "penalty":
            why = self.penalty_refusal(args[0] if args else None)
            if why:
                return self.emit([D.Decision(D.INFO, t, text="penalty refused: " + why)])
            assert self.proposed_penalty is not None
            return penalties.apply_penalty(self, t, self.proposed_penalty)
        if cmd == "clear":
            self.alert = None
            return self.emit([D.Decision(D.CLEAR, t)])
        raise ValueError("unknown operator command %r" % cmd)

    def clock_handed(self, t: int, side: int) -> list[D.Decision]:
        """The arbiter handed the clock to `side`, who is to move (after an illegal move's position was
        reinstated, a result withdrawn): the presses and the handling before belong to no move of the
        record, as after a commit; the board is read afresh from here, and `side`'s next legal move
        is committed as usual."""
        self._new_window()
        self.tracker.reset(self.adapter.occupancy(), self.tracker.cur)
        return self.emit([D.Decision(D.INFO, t, text="arbiter: the clock handed to %s, who is to move"
                                     % self.adapter.side_names[side])])

    # ---------------------------------------------------------------- penalties (penalties.py)

    @property
    def proposed_penalty(self) -> Optional[int]:
        """The side whose illegal move awaits the arbiter's penalty, None when none does
        (penalties.proposed_penalty)."""
        return penalties.proposed_penalty(self)

    def penalty_refusal(self, side: Union[str, int, None] = None) -> Optional[str]:
        """Why the arbiter's penalty for `side` cannot be applied now, or None (penalties.penalty_refusal)."""
        return penalties.penalty_refusal(self, side)

    def penalty_cost(self, side: int) -> str:
        """What the next illegal move of `side` costs, for people (penalties.penalty_cost)."""
        return penalties.penalty_cost(self, side)

    # ---------------------------------------------------------------- the record

    def emit(self, decs: list[D.Decision]) -> list[D.Decision]:
        """Record decisions taken (also by the engine on this game's behalf); returns them."""
        self.decisions.extend(decs)
        for d in decs:
            if d.kind == D.CLOCK_EDIT:
                self.clock_edits.append(d)    # for the record's ClockEdits tag
        return decs

    def set_alert(self, t: int, text: str, kind: str = D.ALERT_CONFIRM) -> list[D.Decision]:
        """Raise an alert for the operator (once per text); returns the decisions (alerts.set_alert)."""
        return alerts.set_alert(self, t, text, kind)

    @property
    def alert_kind(self) -> Optional[str]:
        """The kind of the alert that is up (D.ALERT_ILLEGAL or D.ALERT_CONFIRM), None without one."""
        return self.last_alert_kind if self.alert else None

    def _touch_alerts(self, t: int, cand: core.Candidate, mover: int) -> list[D.Decision]:
        a = self.adapter
        tr = self.tracker
        origin = cand.origin
        start = tr.first_up.get(origin) if origin is not None else None
        if origin is None or start is None:
            return []
        moved = set(cand.emptied) | set(s for s, *_ in cand.touch)
        out: list[D.Decision] = []
        for sq, n in sorted(tr.first_up.items(), key=lambda x: x[1]):
            if n >= start or sq in moved or sq not in tr.base:
                continue
            if a.owner(sq) == mover and a.movable(sq):
                out.append(D.Decision(D.TOUCH, t, side=mover, text="touch-move: %s lifted %s, then moved %s although %s had a legal move"
                            % (a.side_names[mover], a.name(sq), a.name(origin), a.name(sq))))
                break
        return out

    def commit(self, cand: core.Candidate, t: int, times: Times, how: str, end: bool = True,
               mover_ms: Union[int, None, bool] = True, lifted: Sequence[Square] = (),
               carried: Sequence[Press] = ()) -> list[D.Decision]:
        """Commit the move of a matched candidate (how: clock, settled, operator, ...); returns the decisions.

        A move committed after its press waited (late_presses): `lifted`, the next mover's pieces
        already in the air (reconstruction.beside_lifted, resync's explain beside them), and
        `carried`, that side's press that came after them while the move waited (seen as not on
        move), begin the next window as they came: the lifts, then the press (docs/bridge.md, "Late
        tails").

        mover_ms: True (the mover's clock is the latest reading, as after its press), or for a move
        made while the board was away what the readings told of the mover's clock after it
        (resync.counted_clocks): an int, or None when nothing did (the record leaves it out rather
        than guess it). end False: the game's end by the rules is not looked for (moves entered
        after a result: it stands)."""
        a = self.adapter
        mover = a.side()
        move = a.choose(cand, self.prefs)
        text = a.text(move)
        decs = self._touch_alerts(t, cand, mover)
        default = a.is_promotion(move) and not self.prefs.get("promotion")
        if a.is_promotion(move):
            self.prefs.pop("promotion", None)
        self.prev_occ.append(self.tracker.base)
        self.prev_window = list(self.tracker.log)
        a.push(move)
        if times is not None:
            self.clock["white_ms"], self.clock["black_ms"] = times
        ms: Optional[int] = None
        clocks: tuple[Optional[int], Optional[int]] = (self.clock["white_ms"], self.clock["black_ms"])
        if mover_ms is not True:
            ms = None if mover_ms is False else mover_ms
            clocks = (ms, None) if mover == 0 else (None, ms)
        elif self.clock_mode:
            ms = self.clock["white_ms"] if mover == 0 else self.clock["black_ms"]
        note = ""
        if default:
            note = "promotion piece not seen by the board: queen by default"
        self.moves.append(D.PlayedMove(text, mover, move, t, how, clock_ms=ms, note=note, default=default,
                                       clocks=clocks))
        self._new_window()
        self.settle_at = None
        self.correcting = False
        if self.owed > 0:
            self.owed -= 1
        if self.clock_owed > 0:
            self.clock_owed -= 1
        self.reindex()
        decs.append(D.Decision(D.MOVE, t, ply=len(self.moves) - 1, side=mover, text=text, clock_ms=ms, how=how, note=note, squares=list(a.move_squares(move))))
        self.alert = None
        self.emit(decs)
        ending = a.ending() if end else None
        if ending is not None:
            self.ended_by_rules = True
            decs += self.finish(t, self.spec.result(ending.winner), ending.name, ending)
        elif lifted or carried:
            decs += self._begin_window(t, lifted, carried)
        return decs

    def commit_pending(self, cand: core.Candidate, lifted: Sequence[Square] = ()) -> list[D.Decision]:
        """Commit the move the pending press waited for (its time and clock), the next mover's
        press that came meanwhile carried into the next window (late_presses), with its `lifted`
        pieces (commit)."""
        assert self.pending_press is not None
        t, _, times = self.pending_press
        return self.commit(cand, t, times, "clock", lifted=lifted, carried=self.late_presses(self.adapter.side()))

    def late_presses(self, mover: int) -> list[Press]:
        """The press of the side after `mover` that ended its turn while `mover`'s move waited to be
        committed: after `mover`'s last press and after every board event of the window (what its
        hand did before it is on the board or in the air: the lifts commit carries), [] when
        none or more than one (which would be its move's is not known), or after a gap (the board
        was not all seen)."""
        if self.tracker.gap:
            return []
        last = max((k for k, p in enumerate(self.press_log) if p[1] == mover), default=-1)
        after = [p for p in self.press_log[last + 1:] if p[1] == 1 - mover and p[0] == self.tracker.n]
        return after if len(after) == 1 else []

    def _begin_window(self, t: int, lifted: Sequence[Square], carried: Sequence[Press]) -> list[D.Decision]:
        """The new window begins with what the next mover did while the last move waited: its lifts,
        then its press (commit)."""
        for s in lifted:
            if s not in self.tracker.cur:
                self.tracker.cur.add(s)      # on the board at the new window's start, lifted in it
            self.tracker.event(t, s, False)
        out: list[D.Decision] = []
        for _, side, tp, times in carried:
            # counted as a press that made no move when it came (not on move); it ends this side's turn
            out += self.emit([D.Decision(D.INFO, t, text="the clock press by %s seen as not on move ends %s's "
                                         "move" % ((self.adapter.side_names[side],) * 2), press_adjust=-1)])
            out += self.press(tp, side, times)
        return out

    def make_index(self) -> core.Index:
        """The legal moves' physical signatures from the adapter's position, grouped for the matcher."""
        if self.adapter.lazy:
            return core.LazyIndex(self.adapter, lambda: self.tracker)
        return core.group(self.adapter.candidates())

    def reindex(self) -> None:
        """After the position changed (a move committed, taken back or replaced): the board's window
        starts again from it, and the legal moves are listed anew."""
        occ = self.adapter.occupancy()
        self.tracker.reset(occ, self.tracker.cur)
        self.index = self.make_index()

    def _new_window(self) -> None:
        self.pending_press = None
        self.pending_origins = set()
        self.pending_unshown = False
        self.press_sides = set()     # sides that pressed since the last committed move
        self.press_log = []          # (board events seen before it, side, t, times) per press, in order
        self.window_presses = 0      # presses since the last committed move ...
        self.window_counted = 0      # ... and how many of them were counted as making no move

    def take_back(self, t: int, how: str) -> list[D.Decision]:
        """Take back the last move (how: board, operator, ...); returns the decisions."""
        return self._takeback(t, how)

    def _takeback(self, t: int, how: str) -> list[D.Decision]:
        if not self.moves:
            return []
        a = self.adapter
        a.pop()
        m = self.moves.pop()
        self.prev_occ.pop()
        self.takebacks.append("%d%s %s" % (len(self.moves) // 2 + 1, "." if m.side == 0 else "...", m.text))
        self._new_window()
        self.reindex()
        self.alert = None
        return self.emit([D.Decision(D.TAKEBACK, t, ply=len(self.moves), text=m.text, how=how)])

    def finish(self, t: int, result: str, reason: str, outcome: Optional[Outcome] = None) -> list[D.Decision]:
        """The game ends: `result` for `reason` (for people), with the rules' Outcome when they decided
        (a flag, penalties); returns the decisions."""
        self.result = result
        self.reason = reason
        self.outcome = outcome
        self.pending_press = None
        return self.emit([D.Decision(D.RESULT, t, result=result, reason=reason)])

    def reopen(self, t: int, why: str) -> list[D.Decision]:
        """The result withdrawn (taken back on the clock, or by the arbiter after setting it by mistake):
        the game goes on from where it stood."""
        if self.result == "*":
            return []
        self.result = "*"
        self.reason = None
        self.outcome = None
        self.ended_by_rules = False
        return self.emit([D.Decision(D.RESULT, t, result="*", reason=why)])

    def decision(self) -> str:
        """The match decision: the result as played, except that a drawn Armageddon game counts
        as a win for the second side (Black). '*' while the game goes on."""
        if self.armageddon and self.result != "*" and self.result == self.spec.result(None):
            return self.spec.result(1)
        return self.result

    def termination_text(self) -> str:
        """The record's Termination: the reason, with the rule's article when the rules decided
        ("" before the game has ended)."""
        if self.outcome is not None and self.outcome.article and self.reason == self.outcome.name:
            return self.outcome.describe()
        return self.reason or ""

    # ---------------------------------------------------------------- reading

    def reading(self) -> Times:
        """(white_ms, black_ms) of the device's latest clock reading, or None before one (moves found
        after an outage take from it only what it tells: resync.counted_clocks)."""
        c = self.clock
        if c["white_ms"] is None or c["black_ms"] is None:
            return None
        return c["white_ms"], c["black_ms"]

    def plies_hint(self, default: int) -> int:
        """Moves the clock says were made and the record lacks (default when unknown)."""
        return self.owed if self.owed else default

    def catch_up(self, t: int, times: Times, plies: int) -> list[D.Decision]:
        """The clock counts `plies` moves more than the record after a resync: look for them."""
        self.owed = plies
        if self.result != "*" or plies < 1 or (plies == 1 and not self.tracker.gap):
            return []
        r = reconstruction.match(self, True)
        if plies == 1 and r.kind == core.MATCH:
            return self.commit(r.matched, t, None, INFERRED, mover_ms=resync.counted_clocks(self, [self.adapter.side()])[0])
        return resync.catch_up(self, t, times, plies) or []

    def moves_or_started(self) -> bool:
        """True once the board has changed since the start (a move or a lift)."""
        return bool(self.moves) or self.tracker.events > 0

    def sans(self) -> list[str]:
        """The moves so far in the game's notation."""
        return [m.text for m in self.moves]

    def start_differences(self, occupied: Iterable[Square]) -> tuple[list[Square], list[Square]]:
        """(missing, extra): squares to fill / to clear so the board shows the start position."""
        want = self.adapter.occupancy()
        occ = set(occupied)
        return sorted(want - occ), sorted(occ - want)
