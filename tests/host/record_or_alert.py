"""The record-or-alert fuzzer: physical event streams from real games, and the bridge's one invariant.

A stream is a real game (chess PGN or draughts PDN from tests/data) played
by hands on a virtual board with a clock (the firmware's clock engine, as
the devices run it), through the real BridgeEngine over the wire codec. The
hands slide, hover, knock, adjust (flagfall.bridge.virtualboard's noise),
capture in both orders, finish castlings, promotions and draughts captures
after the press, let the opponent start before a move is finished, take
back by agreement, and make illegal moves (then either put right, or
answered by an opponent who did not notice).

The invariant (issue #19): the moves the bridge writes are always a prefix of
what was really played (the truth: the moves standing on the board at that
moment, take-backs removing theirs), and whenever the record stops short of
the truth while moves were made, an alert is up. A move written that no hand
made at that ply is a *fabricated* record.

The other side (issue #28): every stream is labelled *innocent* (no illegal
move, no take-back, every piece back in place before the opponent's next
press) or *guilty*. The innocent hands include the late tails of an honest
move: a capture's victim taken off after the press (or never reading empty,
slid off by the capturer), a piece knocked over during the move and set back
after the press, a piece knocked onto an empty square by a capture and picked
off a moment after the press, the opponent lifting a piece before the mover
presses. An innocent stream must be recorded in full, with no "illegal move"
alert and no penalty; the guilty ones add the arbiter's procedure after an
illegal move (penalty, position restored, clock handed back, a legal move),
which must not cost a second penalty.

    run_stream(seed) -> Outcome            # one stream
    python tools/bench_record_or_alert.py  # 10,000 of them, with figures
"""
from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from flagcore import wire

from flagfall.bridge import decisions as D
from flagfall.bridge import replay
from flagfall.games import registry
from flagfall.bridge import virtualboard as vb
from flagfall.bridge.engine import BridgeEngine

from repo import ROOT
DATA = os.path.join(ROOT, "tests", "data")
SOURCES = [
    ("chess", "chess/serhiis21-chess_1575-1861.pgn"),
    ("chess", "chess/mliebelt-pgn-viewer_newyork1924.pgn"),
    ("chess", "chess/hlotze-pgn2tex_Capablanca.pgn"),
    ("draughts", "international/wiegerw-pdn_wk2003.pdn"),
    ("russian", "russian/wiegerw-pdn_ussr1947.pdn"),
    ("checkers", "checkers/eric-joyce_ACF_archive_first1000.pdn"),
]
SETTLE_MS = 1500
_games: dict[tuple[str, str], list[replay.GameSource]] = {}


def games(game: str, path: str) -> list[replay.GameSource]:
    """The first games of a data file (cached)."""
    key = (game, path)
    if key not in _games:
        _games[key] = [g for g in replay.load_games(game, os.path.join(DATA, path), limit=40)
                       if len(g.texts) >= 12]
    return _games[key]


@dataclass
class Outcome:
    """What one stream did: the truth, the record, and whether the invariant held."""

    seed: int
    game: str
    truth: list[str]
    record: list[str]
    alert: Optional[str]
    made: int                       # moves the hands made and left standing (illegal ones included)
    fabricated: Optional[str] = None   # why the invariant failed (None: it held)
    scenarios: list[str] = field(default_factory=list)
    stream: list[str] = field(default_factory=list)
    innocent: bool = True           # no illegal move, no take-back, every piece back before the next press
    illegal_made: int = 0           # illegal moves the hands completed (pressed)
    penalties: int = 0              # penalties the bridge applied
    illegal_by: list[int] = field(default_factory=lambda: [0, 0])   # illegal_made, side by side
    penalised: list[int] = field(default_factory=lambda: [0, 0])    # penalties, side by side
    illegal_alerts: int = 0         # alerts of the kind "illegal move" the bridge raised
    alerted: bool = False           # an alert was raised at some point
    first_illegal: Optional[str] = None   # the text of the first "illegal move" alert raised
    stop_alert: Optional[str] = None      # the first alert raised after the last move recorded
    twin: Optional[str] = None            # an innocent stream not in full: a line no reader can tell (twin_line)
    judged: Optional[int] = None          # the plies played before the cut (None: all of truth)
    full_at_cut: Optional[bool] = None    # the record held every ply at the cut (None: no cut was read)

    @property
    def full(self) -> bool:
        """The whole truth was recorded; with a cut (run_stream's play_on), every ply before the cut
        was, by the end of the play after it."""
        if self.judged is None:
            return self.record == self.truth and self.made == len(self.truth)
        return self.record[:self.judged] == self.truth[:self.judged] and len(self.record) >= self.judged \
            and self.made == len(self.truth)

    def report(self) -> str:
        """The seed, the texts and the event stream, for a failure message."""
        return ("seed %d (%s, %s): %s\ntruth:  %s\nrecord: %s\nalert: %s\npenalties %d, illegal-move "
                "alerts %d\nscenarios: %s\nstream:\n  %s"
                % (self.seed, self.game, "innocent" if self.innocent else "guilty", self.fabricated,
                   " ".join(self.truth), " ".join(self.record), self.alert, self.penalties,
                   self.illegal_alerts, ", ".join(self.scenarios), "\n  ".join(self.stream[-80:])))

    @property
    def over_penalised(self) -> bool:
        """A side was penalised more often than it made illegal moves: a penalty on a move that was
        not illegal (counted side by side: one illegal move of White's does not cover a penalty of
        Black's)."""
        return any(p > n for p, n in zip(self.penalised, self.illegal_by))

    @property
    def wronged(self) -> bool:
        """An innocent stream that was not recorded in full, or was called an illegal move or
        penalised; a guilty one with a side penalised more often than it made illegal moves."""
        if self.innocent:
            return not self.full or self.illegal_alerts > 0 or self.penalties > 0
        return self.over_penalised

    def why(self) -> tuple[str, str]:
        """Why a wronged innocent stream was wronged: (the stop reason, the alert's text). An
        "illegal move" alert or a penalty comes first (the worse wrong); else the alert up at the
        end, as first raised after the last move recorded (stop_alert). The reason is the alert's text
        without its squares and moves (stop_reason)."""
        if self.illegal_alerts or self.penalties:
            text = self.first_illegal or ""
            return "illegal move/penalty: " + stop_reason(text), text
        text = self.stop_alert or self.alert
        if text is None:
            return "no alert", ""
        return stop_reason(text), text


def stop_reason(text: str) -> str:
    """An alert's text as a reason to tally: the squares, moves and sides in it left out (what is
    in brackets, moves, side names), so the alerts of one rule read the same."""
    out = re.sub(r"\s*\([^()]*\)\??", "", text)
    out = re.sub(r"\b(White|Black|Red)('s)?", "SIDE", out)
    out = re.sub(r"(?<![\w-])([a-j]?\d+([-x:][a-j]?\d+)+|O-O(-O)?|[KQRBN]?[a-h]?[1-8]?x?[a-h][1-8](=[QRBN])?)"
                 r"[+#]?\??(?![\w-])", "MOVE", out)
    return re.sub(r"\s+", " ", out).strip()


class Table:
    """A board and clock played by hand, followed by the real bridge engine; every step logged."""

    def __init__(self, game: str, fen: Optional[str], penalties: str) -> None:
        self.dev = replay.VirtualDevice(game, fen, "5400+30", True)
        self.eng = BridgeEngine(game, clock_mode=None, settle_ms=SETTLE_MS, tc="5400+30", fen=fen,
                                fsync=False, penalties=penalties)
        self.host = wire.Link(wire.DEVICE_KINDS)
        self.t = 1000
        self.log: list[str] = []
        self.snapshots: list[list[str]] = [[]]    # every truth that stood, in order
        self.deliver(self.dev.hello())
        self.deliver(self.dev.snapshot(self.t))
        assert self.dev.clock is not None
        self.dev.clock.start(0, self.t)
        self.deliver(self.dev.clock_frame(self.t))

    def deliver(self, data: bytes) -> None:
        for _seq, kind, values in self.host.feed(data):
            self.eng.frame(self.t, kind, values, data.decode().rstrip("\n"))

    def advance(self, ms: int) -> None:
        end = self.t + ms
        while self.t < end:
            self.t = min(end, self.t + 250)
            self.eng.tick(self.t)

    def step(self, sq: Any, down: bool, dt: int) -> None:
        self.advance(dt)
        self.log.append("%d %s %s" % (self.t, "down" if down else "up", self.dev.truth.name(sq)))
        self.deliver(self.dev.square(self.t, sq, down))

    def press(self, side: int, dt: int) -> None:
        """side presses its button (a real clock ignores the side whose clock is not running)."""
        self.advance(dt)
        clock = self.dev.clock
        assert clock is not None
        if clock.to_move != side:
            self.log.append("%d press %d (ignored: not running)" % (self.t, side))
            return
        self.log.append("%d press %d" % (self.t, side))
        clock.press(side, self.t)
        self.deliver(self.dev.clock_frame(self.t))

    def arbiter(self, cmd: str) -> None:
        """An operator command at the bridge (the arbiter applying a penalty, ...)."""
        self.log.append("%d arbiter %s" % (self.t, cmd))
        self.eng.operator(self.t, cmd)

    def button(self, name: str) -> None:
        self.log.append("%d button %s" % (self.t, name))
        self.deliver(self.dev.button(self.t, name))

    def record(self) -> list[str]:
        return self.eng.game.sans()


def _reverse(adapter: Any, move: Any) -> list[tuple[Any, bool]]:
    """The hand steps that take a move back (call after it was played): pieces lifted from where
    they went, put back where they came from, captured pieces set up again."""
    adapter.pop()
    phys = adapter.physical(move)
    adapter.push(move)
    steps: list[tuple[Any, bool]] = []
    for src, dst, _via in phys.travel:
        if dst != src:
            steps.append((dst, False))
    for src, dst, _via in phys.travel:
        if dst != src and src is not None:
            steps.append((src, True))
    steps += [(r, True) for r in phys.remove]
    return steps


def _landed(steps: list[tuple[Any, bool]], origin: Any, dst: Any) -> Optional[int]:
    """The step at which the moving piece is put on its square, following it through the hand: lifted
    from where it stands, put down (back in place when adjusted, on a square on its way when slid),
    until it is put down on dst; None if it never is (a castling's rook moved first, over the king's
    square, is not the king landing)."""
    at, held = origin, False
    for i, (sq, down) in enumerate(steps):
        if not down and sq == at and not held:
            held = True
        elif down and held:
            at, held = sq, False
            if at == dst:
                return i
    return None


def _illegal(adapter: Any, rng: random.Random) -> Optional[tuple[Any, Any]]:
    """A piece of the side to move carried to an empty square where no legal move puts it."""
    occ = adapter.occupancy()
    side = adapter.side()
    # not a legal move, nor the first part of one (a draughts capture whose pieces are not yet off)
    legal = [(c.emptied, c.filled) for c in adapter.candidates()]
    mine = sorted(s for s in occ if adapter.owner(s) == side)
    empty = sorted(s for s in adapter.all_squares() if s not in occ)
    for _ in range(30):
        src, dst = rng.choice(mine), rng.choice(empty)
        if not any(src in e and dst in f for e, f in legal):
            return src, dst
    return None


def _near_empty(adapter: Any, sq: Any, avoid: Any) -> list[Any]:
    """The empty squares next to sq (a piece knocked off sq lands on one), none of `avoid`."""
    r, c = adapter.cell(sq)
    occ = adapter.occupancy()
    return sorted(s for s in adapter.all_squares() if s not in occ and s not in avoid
                  and max(abs(adapter.cell(s)[0] - r), abs(adapter.cell(s)[1] - c)) == 1)


def _capture_on_landing(adapter: Any, m: Any) -> Optional[tuple[Any, Any]]:
    """(origin, square) of a move whose one piece lands on the piece it captures (a chess
    capture other than en passant), else None."""
    phys = adapter.physical(m)
    if len(phys.travel) != 1 or len(phys.remove) != 1 or phys.steps:
        return None
    src, dst, _via = phys.travel[0]
    return (src, dst) if src is not None and phys.remove[0] == dst else None


def _set_down_astray(adapter: Any, before_press: list[tuple[Any, bool]]) -> Optional[Any]:
    """A square the steps made before the press leave occupied where the move just pushed on
    `adapter` puts no piece (a piece set down on its way), or None."""
    occ = set(adapter.occupancy())
    pre = adapter.pop()
    board = set(adapter.occupancy())
    adapter.push(pre)
    for sq, down in before_press:
        (board.add if down else board.discard)(sq)
    return min(board - occ, default=None)


def _reply_meets(adapter: Any, reply: Optional[Any], late: list[tuple[Any, bool]]) -> bool:
    """True if the reply (the next move, on `adapter` with the mover's move pushed) handles a
    square the mover's late steps still handle: a hand cannot finish a move on a square the
    opponent has captured on or moved across (seed 850005375: 22x31 landing on 31 after 36x27
    took the piece there), so such a tail is finished before the reply."""
    if reply is None:
        return False
    phys = adapter.physical(reply)
    squares = set(phys.remove) | {x for t in phys.travel for x in t[:2]}
    return any(sq in squares for sq, _ in late)


def _drop_first_lift(steps: list[tuple[Any, bool]], sq: Any) -> list[tuple[Any, bool]]:
    """A move's steps for a piece already in the hand (lifted from sq before): its first lift
    left out, and any handling of sq before it (a lift and put-back it can no longer make)."""
    k = next((i for i, st in enumerate(steps) if st == (sq, False)), None)
    if k is None:
        return [(sq, True)] + steps          # (not this piece after all: put back first)
    return [st for st in steps[:k] if st[0] != sq] + steps[k + 1:]


def _effect(adapter: Any, move: Any) -> tuple[frozenset[Any], frozenset[Any], frozenset[Any]]:
    """What a move does to the board: the squares it empties, fills and captures on (touches)."""
    for c in adapter.candidates():
        if move in c.moves:
            return frozenset(c.emptied), frozenset(c.filled), frozenset(s for s, *_ in c.touch)
    raise ValueError("not a legal move: %s" % adapter.text(move))


def twin_line(adapter: Any, truth: list[str], recorded: int, events: list[tuple[Any, bool, int]]) -> Optional[str]:
    """Another legal line from the last recorded move to the end of `truth` that no reader can tell
    from the one played ("Qxh7 Nf6 d4" for "Qxe5 Nf6 d4"; "-" for a ply alike), or None.

    `events`: the board's lifts and placements since the last recorded move, as (square, placed,
    turn), turn 0 being the first ply not recorded (the presses counted before the event). The two
    lines show the same occupancy after every ply, and on every square where a move of one
    empties, fills or captures and the other's does not, the events are lifts each followed by a
    placement within the same turn, on a square occupied before and after that ply (the same in
    both lines): a piece adjusted, or a capture there, which look alike. So a capture slid onto
    its victim (the square never reading empty), or whose victim was lifted and the capturer set
    down in one turn, by a piece that could have taken elsewhere leaves the same events whichever
    it took, while the other square's piece is adjusted. Conservative: a knock set back across a
    press, which an honest hand also makes, is not counted as alike. A twin line is the ceiling of
    any reader, not a shortcoming of the bridge; lines differing only in a promotion's piece (the
    clock's button tells) are not twins. `adapter` stands at the game's start."""
    for text in truth[:recorded]:
        adapter.push(_by_text(adapter, text))
    occupied = [frozenset(adapter.occupancy())]
    played: list[tuple[Any, tuple[frozenset[Any], frozenset[Any], frozenset[Any]]]] = []
    for text in truth[recorded:]:
        m = _by_text(adapter, text)
        played.append((m, _effect(adapter, m)))
        adapter.push(m)
        occupied.append(frozenset(adapter.occupancy()))
    for _ in played:
        adapter.pop()

    def alike(sq: Any) -> bool:
        """The events on sq are adjustments (or captures) within a turn, sq occupied around it."""
        held: Optional[int] = None
        for square, down, turn in events:
            if square != sq:
                continue
            if not down and held is None:
                held = turn
            elif down and held == turn:
                before, after = occupied[min(turn, len(played))], occupied[min(turn + 1, len(played))]
                if sq not in before or sq not in after:
                    return False
                held = None
            else:
                return False
        return held is None

    def search(i: int, differed: bool) -> Optional[list[Optional[str]]]:
        if i == len(played):
            return [] if differed else None
        for c in adapter.candidates():
            effect = (frozenset(c.emptied), frozenset(c.filled), frozenset(s for s, *_ in c.touch))
            differ = frozenset().union(*(x ^ y for x, y in zip(effect, played[i][1])))
            if not all(alike(sq) for sq in differ):
                continue
            m = c.moves[0] if played[i][0] not in c.moves else played[i][0]
            adapter.push(m)
            try:
                rest = search(i + 1, differed or bool(differ)) if frozenset(adapter.occupancy()) == occupied[i + 1] \
                    else None
            finally:
                adapter.pop()
            if rest is not None:
                return [adapter.text(m) if differ else None] + rest
        return None
    line = search(0, False)
    if line is None:
        return None
    return " ".join(t if t is not None else "-" for t in line)


def _by_text(adapter: Any, text: str) -> Any:
    for c in adapter.candidates():
        for m in c.moves:
            if adapter.text(m) == text:
                return m
    raise ValueError("no legal move %s" % text)


PLAY_ON = 12
"""The plies the bench plays on after a stream's cut (run_stream's play_on): six moves a side, as
long as the later evidence the bridge reads can take (a long window reads up to twenty presses,
but a recovery past ten plies is rare: 1 in 64 streams of the 992... seeds)."""

HONEST_TAILS = ("victim off after the press", "victim slid off", "knocked, set back after the press",
                "knocked onto an empty square", "opponent starts before the press")
"""The late tails of an honest move the hands add (issue #28), each leaving every piece in place
before the opponent's next press."""


def run_stream(seed: int, max_plies: int = 40, honest_tails: bool = True,
               tails_across_reply: bool = False, play_on: int = 0) -> Outcome:
    """One stream: a real game, a seeded hand, the real engine; returns its Outcome (the invariant
    checked after every step and at the end). honest_tails=False plays the stream as the #19
    fuzzer did (the seeds pinned then keep their streams): the late tails of HONEST_TAILS and the
    arbiter's procedure after an illegal move come from a second generator, so turning them off
    leaves every other draw as it was. A move's tail is left until after the opponent's reply only
    where the reply handles none of its squares (_reply_meets); tails_across_reply=True (and
    honest_tails=False) plays it as the fuzzer did before (the seeds pinned then keep their streams),
    a hand finishing a move where the opponent has already captured or moved.

    play_on > 0 reads the stream's end as a cut, not the game's end: an innocent stream whose record
    does not hold every ply at the cut is played on by fair hands, up to play_on more plies of the
    same game (never past its last move), until it does, as the evidence a bridge waits for (the
    reply that shows a slid capture's square, a long window's later presses) comes in a real game.
    Only the plies before the cut are judged (Outcome.judged, Outcome.full; Outcome.full_at_cut
    holds the judgement at the cut); the moves after it are checked like any other (a record never
    fabricated, a penalty or "illegal move" alert on them counted)."""
    rng = random.Random(seed)
    hand = random.Random("late hands %d" % seed)
    game, path = SOURCES[seed % len(SOURCES)]
    pool = games(game, path)
    src = pool[rng.randrange(len(pool))]
    game = src.game or game
    penalties = rng.choice(("auto", "confirm"))
    tb = Table(game, src.fen, penalties)
    truth_adapter = tb.dev.truth
    moves = src.moves or []
    limit = min(len(moves), rng.randint(8, max_plies))
    noise = rng.choice((0.0, 0.2, 0.4))
    truth: list[str] = []
    out = Outcome(seed, game, truth, [], None, 0)
    made_extra = 0      # moves made on the board that the truth cannot hold (illegal ones)
    late: list[tuple[Any, bool]] = []   # steps of the previous move finished after its press
    held: Optional[Any] = None          # a piece the player to move lifted before the opponent pressed
    # half the streams (with honest_tails) are played by fair hands: no take-back, no illegal move,
    # every tail finished before the opponent's press; the label comes from what the hands did
    fair = honest_tails and hand.random() < 0.5
    next_move: Optional[Any] = None     # the move the player to move will make (held's move)

    def check(where: str) -> bool:
        rec = tb.record()
        if not any(rec == snap[:len(rec)] for snap in tb.snapshots):
            out.fabricated = "%s: the record %s is not a prefix of any truth that stood" % (where, " ".join(rec))
            return False
        return True

    def stand() -> None:
        tb.snapshots.append(list(truth))

    def honest_tail(m: Any, steps: list[tuple[Any, bool]], nxt: Optional[Any]) -> \
            tuple[list[tuple[Any, bool]], list[tuple[Any, bool]], Optional[Any]]:
        """An honest late tail for m (HONEST_TAILS), maybe: (steps before the press, steps after
        it, the square the opponent lifts before the press)."""
        if not honest_tails or hand.random() >= 0.3:
            return steps, [], None
        style = hand.choice(HONEST_TAILS)
        a = truth_adapter
        cap = _capture_on_landing(a, m)
        phys = a.physical(m)
        squares = set(phys.remove) | {x for t in phys.travel for x in t[:2]}
        if style in HONEST_TAILS[:2] and cap is not None and (style == HONEST_TAILS[0] or nxt is not None):
            # the capturer lifted, the clock pressed, then the victim taken off and the capturer put
            # down (or slid onto it, the square never reading empty: only the reply shows that)
            org, dst = cap
            out.scenarios.append("%s: %s" % (style, a.text(m)))
            return [(org, False)], ([(dst, False), (dst, True)] if style == HONEST_TAILS[0] else []), None
        if style == HONEST_TAILS[2]:
            others = sorted(set(a.occupancy()) - squares)
            if others:
                k = hand.choice(others)
                at = hand.randint(0, len(steps))
                out.scenarios.append("%s: %s during %s" % (style, a.name(k), a.text(m)))
                return steps[:at] + [(k, False)] + steps[at:], [(k, True)], None
        if style == HONEST_TAILS[3] and cap is not None:
            org, dst = cap
            near = _near_empty(a, dst, squares)
            if near:
                x = hand.choice(near)
                out.scenarios.append("%s: %s during %s" % (style, a.name(x), a.text(m)))
                # the victim pushed off onto x by the capturer, picked off from there after the press
                return [(org, False), (dst, False), (x, True), (dst, True)], [(x, False)], None
        if style == HONEST_TAILS[4] and nxt is not None:
            a.push(m)
            travel = a.physical(nxt).travel
            a.pop()
            org = travel[0][0] if travel else None
            if org is not None and org not in squares:
                out.scenarios.append("%s: %s lifted before %s was pressed" % (style, a.name(org), a.text(m)))
                return steps, [], org
        return steps, [], None

    def play(m: Any, *, press: bool = True, allow_late: bool = True, nxt: Optional[Any] = None) -> bool:
        """Play m with noise; maybe leave its tail (castling rook, captured pieces) until after the
        press (after the opponent's reply, too: then the stream is not innocent), or add an honest
        late tail (honest_tail)."""
        nonlocal late, held, next_move
        mover = truth_adapter.side()
        piece = replay.under_promotion(truth_adapter, m)
        if piece:
            tb.button("promote-" + piece)
        steps = vb.plan(truth_adapter, m, rng, noise)
        was_held = held is not None
        held_sq = held
        if held is not None:
            steps = _drop_first_lift(steps, held)
            held = next_move = None
        cut = len(steps)
        if press and allow_late and rng.random() < 0.25:
            # the press may come once the moving piece stands on its square (a castling's rook,
            # a promotion's swap, captured pieces still to come)
            travel = truth_adapter.physical(m).travel
            dst = travel[0][1] if travel else None
            landed = _landed(steps, travel[0][0], dst) if travel else None
            if landed is not None and landed + 1 < len(steps):
                cut = rng.randint(landed + 1, len(steps))
                # a player presses with the moving piece put down, not half-way through adjusting it
                while cut < len(steps) and cut > 0 and steps[cut - 1] == (dst, False):
                    cut += 1
                out.scenarios.append("late tail of %s" % truth_adapter.text(m))
        after: list[tuple[Any, bool]] = []
        early: Optional[Any] = None
        if press and not late and cut == len(steps) and not was_held:
            steps, after, early = honest_tail(m, steps, nxt)
            cut = len(steps)
        text = truth_adapter.text(m)
        prev_late, late = late, []
        tb.snapshots.append(truth + [text])       # from the first touch the move may stand
        for sq, down in steps[:cut]:
            tb.step(sq, down, rng.randint(60, 400))
            if not check("during %s" % text):
                return False
        truth_adapter.push(m)
        truth.append(text)
        stand()
        if early is not None:
            tb.step(early, False, hand.randint(60, 600))
            held, next_move = early, nxt
        if press:
            tb.press(mover, vb.press_delay(rng, noise) if rng.random() < 0.8 else rng.randint(20, 120))
        for sq, down in after:               # the honest tail, before the opponent's next press
            tb.step(sq, down, hand.randint(60, 1200))
            if not check("finishing %s" % text):
                return False
        if prev_late:
            out.innocent = False             # a piece still off its square at this press
        for sq, down in prev_late:           # the previous move finished after this reply
            tb.step(sq, down, rng.randint(60, 400))
            if not check("finishing the move before %s" % text):
                return False
        late = steps[cut:]
        if late and rng.random() < 0.5 and not fair and \
                (tails_across_reply or not honest_tails or not _reply_meets(truth_adapter, nxt, late)):
            # the opponent starts before the tail is done; a piece the press left standing where the
            # move puts none (set down on a square on its way: a castling's rook on b4) stays there
            # through the reply: the move completed by that press (FIDE 4.7, released and pressed)
            # is an illegal one, and may be penalised as the mover's (seed 830003246)
            stray = _set_down_astray(truth_adapter, ([(held_sq, False)] if was_held else []) + steps[:cut])
            if stray is not None:
                out.scenarios.append("pressed with a piece standing on %s: illegal %s" % (truth_adapter.name(stray), text))
                out.illegal_made += 1
                out.illegal_by[mover] += 1
            return check("after %s" % text)
        return finish_late() and check("after %s" % text)

    def finish_late() -> bool:
        nonlocal late
        for sq, down in late:
            tb.step(sq, down, rng.randint(60, 400))
            if not check("finishing a move"):
                return False
        late = []
        return True

    def illegal_move(src_sq: Any, dst_sq: Any) -> bool:
        """An illegal move made and pressed; the arbiter applies the penalty where asked."""
        mover = truth_adapter.side()
        out.innocent = False
        out.scenarios.append("illegal %s-%s" % (truth_adapter.name(src_sq), truth_adapter.name(dst_sq)))
        if not finish_late():
            return False
        tb.step(src_sq, False, rng.randint(60, 400))
        tb.step(dst_sq, True, rng.randint(60, 400))
        tb.press(mover, rng.randint(150, 900))
        out.illegal_made += 1
        out.illegal_by[mover] += 1
        return check("after the illegal move")

    def ended(made: int, where: str) -> bool:
        """The invariant where the hands stop: the record a prefix of the truth, and where it
        holds fewer than the `made` moves, an alert up (or the game over)."""
        if not check(where):
            return False
        rec, g = tb.record(), tb.eng.game
        if rec != truth[:len(rec)] and not g.alert:
            out.fabricated = "%s: the record shows a move taken back, and no alert is up" % where
        elif len(rec) < made and not g.alert and g.result == "*":
            out.fabricated = "%s: the record stops at %d of %d moves made, and no alert is up" % (
                where, len(rec), made)
        return out.fabricated is None

    i = 0
    while i < limit and tb.eng.game.result == "*":
        m = moves[i]
        nxt = moves[i + 1] if i + 1 < limit else None
        roll = rng.random()
        # think: sometimes long enough to settle, sometimes inside the settle window
        tb.advance(rng.choice((rng.randint(100, 900), rng.randint(1600, 4000))))
        if held is not None or fair:
            roll = 1.0          # the player to move has its piece in the hand: it makes that move
        elif honest_tails and hand.random() < 0.03:
            bad = _illegal(truth_adapter, rng)
            if bad is not None and not late:
                # the FIDE procedure (7.5.1, 7.5.5): the illegal move is penalised, the arbiter
                # restores the position and hands the clock back, then a legal move is made
                src_sq, dst_sq = bad
                mover = truth_adapter.side()
                if not illegal_move(src_sq, dst_sq):
                    break
                out.scenarios.append("the arbiter restores the position and hands the clock back")
                tb.advance(tb.eng.game.settle_ms + hand.randint(200, 3000))
                if tb.eng.game.proposed_penalty == mover:
                    tb.arbiter("penalty")
                restore = [(dst_sq, False), (src_sq, True)]
                back_first = hand.random() < 0.5
                if back_first:
                    tb.press(1 - mover, hand.randint(300, 2000))
                for sq, down in restore:
                    tb.step(sq, down, hand.randint(300, 1500))
                if not back_first:
                    tb.press(1 - mover, hand.randint(300, 2000))
                if not check("after the arbiter restored the position"):
                    break
                if not play(m, nxt=nxt):
                    break
                i += 1
                continue
        if roll < 0.05 and i + 1 < limit:
            # take-back by agreement: another legal move, pressed back, taken back, the real one
            others = [c for c in truth_adapter.candidates() if m not in c.moves]
            if others:
                c = rng.choice(others)
                other = truth_adapter.choose(c, {})
                out.scenarios.append("take-back of %s" % truth_adapter.text(other))
                out.innocent = False
                mover = truth_adapter.side()
                if not play(other, allow_late=False):
                    break
                if not finish_late():
                    break
                tb.press(1 - mover, rng.randint(150, 1200))
                back = _reverse(truth_adapter, other)
                truth_adapter.pop()
                truth.pop()
                for sq, down in back:
                    tb.step(sq, down, rng.randint(60, 400))
                stand()
                if not check("after the take-back"):
                    break
        elif roll < 0.09:
            bad = _illegal(truth_adapter, rng)
            if bad is not None:
                src_sq, dst_sq = bad
                mover = truth_adapter.side()
                if not illegal_move(src_sq, dst_sq):
                    break
                if rng.random() < 0.5:
                    # nobody noticed: the opponent replies, and the game goes on from a position
                    # the rules never allowed (the record must stop and alert)
                    made_extra += 1
                    opp = [s for s in truth_adapter.occupancy() if truth_adapter.owner(s) == 1 - mover]
                    empty = [s for s in truth_adapter.all_squares()
                             if s not in truth_adapter.occupancy() and s != dst_sq] + [src_sq]
                    a, b = rng.choice(sorted(opp)), rng.choice(sorted(empty))
                    out.scenarios.append("unnoticed reply %s-%s" % (truth_adapter.name(a), truth_adapter.name(b)))
                    tb.step(a, False, rng.randint(100, 900))
                    tb.step(b, True, rng.randint(60, 400))
                    tb.press(1 - mover, rng.randint(150, 900))
                    made_extra += 1
                    break
                # put right: the piece goes back and the real move is made (committed on settle)
                tb.advance(rng.randint(200, 3000))
                tb.step(dst_sq, False, rng.randint(60, 400))
                tb.step(src_sq, True, rng.randint(60, 400))
                tb.advance(rng.randint(200, 2500))
                if not play(m, press=False):
                    break
                tb.advance(SETTLE_MS + 300)
                i += 1
                continue
        if not play(m, nxt=nxt):
            break
        i += 1
    if out.fabricated is None and late:
        out.innocent = False
        finish_late()
    if out.fabricated is None and held is not None:
        tb.step(held, True, 300)             # the game stopped here: the piece goes back
        held = next_move = None
        stand()
    tb.advance(3 * SETTLE_MS)
    if play_on and out.fabricated is None and ended(len(truth) + made_extra, "at the cut"):
        out.judged = len(truth)
        out.full_at_cut = tb.record() == truth and made_extra == 0
        if out.innocent and not out.full_at_cut and i == limit:
            # fair hands: with allow_late=False no tail is left for the reply to cross
            while i < min(len(moves), limit + play_on) and len(tb.record()) < out.judged \
                    and tb.eng.game.result == "*":
                tb.advance(rng.choice((rng.randint(100, 900), rng.randint(1600, 4000))))
                if not play(moves[i], allow_late=False, nxt=moves[i + 1] if i + 1 < len(moves) else None):
                    break
                i += 1
            tb.advance(3 * SETTLE_MS)
    g = tb.eng.game
    out.record = tb.record()
    out.alert = g.alert
    out.made = len(truth) + made_extra
    out.stream = tb.log
    out.penalties = sum(1 for d in g.decisions if d.kind == D.PENALTY)
    out.penalised = [sum(1 for d in g.decisions if d.kind == D.PENALTY and d.side == side) for side in (0, 1)]
    alerts = [d for d in g.decisions if d.kind == D.ALERT]
    out.alerted = bool(alerts)
    illegal = [d for d in alerts if d.alert_kind == D.ALERT_ILLEGAL]
    out.illegal_alerts = len(illegal)
    out.first_illegal = illegal[0].text if illegal else None
    last = max((k for k, d in enumerate(g.decisions) if d.kind in (D.MOVE, D.TAKEBACK, D.AMEND)), default=-1)
    out.stop_alert = next((d.text for d in g.decisions[last + 1:] if d.kind == D.ALERT), None)
    if out.innocent and not out.full and out.record == truth[:len(out.record)] and len(truth) == out.made:
        presses = [pos for pos, *_ in g.press_log]
        out.twin = twin_line(registry.make_adapter(game, fen=src.fen), truth, len(out.record),
                             [(sq, down, sum(1 for p in presses if p < i))
                              for i, (_, sq, down) in enumerate(g.tracker.log, 1)])
    if out.fabricated is None:
        ended(out.made, "at the end")
    return out
