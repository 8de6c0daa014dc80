"""A board as the arbiter sees it, computed in one place: its status, its alert and what can be done.

The bridge publishes one state per change (BridgeEngine.state(): `live_state`, here, the live-state
message of docs/live-state.md): position, moves, clocks, result, its public status and its alert
(`public_status`, here) with the arbiter-only fields (the alert's full text, its kind, the penalty
it proposes), which the public view drops (flagfall.live.public_view). `describe(engine, link,
published)` adds to that state what only the arbiter's dashboard needs, from the same engine and the
board's device connection (`link_of(session)`):

    status      one of STATUSES: what the board is doing (waiting, playing, alert, silent ...)
    alert       BridgeEngine.alert(), the same text as the published state's (or why the device is silent)
    fix         what to do at the board to go on (plug the device in, set up the start position ...)
    actions     the arbiter actions that make sense now (actions())

The event adds what is its own (the pairing, a forfeit, a quarantined journal, the action history:
flagfall.event.runner); nothing else reads the engine's or the game's attributes for the dashboard.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Optional, Protocol

from flagfall import live
from flagfall.bridge import decisions as D
from flagfall.bridge import records
from flagfall.bridge.game import Game

WAITING = "waiting"            # for the device, or for the start position (squares to fix)
PLAYING = "playing"
ALERT = "alert"                # the board needs the arbiter (an alert with its actions)
FLAG = "flag"                  # a flag fell
RESULT_TO_CONFIRM = "result-to-confirm"
FINISHED = "finished"
UNPLUGGED = "unplugged"
FAILED = "failed"              # the board's handling raised, or its journal was refused: shown, the others go on
NOT_STARTED = "not-started"    # the device is ready, no clock has run yet
SILENT = "silent"              # the device sends nothing while its clock runs, or its port never answers
NO_DEVICE = "no-device"        # the board's port cannot be opened (nothing plugged in there, a wrong map entry)
STATUSES = (WAITING, NOT_STARTED, PLAYING, ALERT, FLAG, RESULT_TO_CONFIRM, FINISHED, UNPLUGGED, FAILED, SILENT,
            NO_DEVICE)
DEVICE_DOWN = (UNPLUGGED, SILENT, NO_DEVICE)   # a board whose device does not listen now
DEVICE_ACTIONS = frozenset(("clock", "time", "moves", "bonus", "restart", "penalty", "pause", "resume"))
"""Arbiter actions the device must carry out (a penalty gives the opponent time on the clock): refused
while the board's device is unplugged or silent, never answered "ok" and lost."""
UNPLUGGED_FIX = "device unplugged: plug it back in (the board resynchronises)"
SILENT_MS = 5000
"""The device's regular clock report (a CLK every second while its clock runs) is the heartbeat:
no frame for this long while the game's clock runs makes the board "silent" (docs/bridge.md); a port
open this long with no HELLO is silent too."""

ARMAGEDDON_REASON = "Armageddon: a draw counts as a win for Black"   # why a drawn game's decision differs


class Engine(Protocol):
    """What a board's state is computed from: its engine (flagfall.bridge.engine.BridgeEngine)."""

    @property
    def game(self) -> Game: ...
    @property
    def hello(self) -> Optional[dict[str, Any]]: ...
    @property
    def hello_problem(self) -> Optional[str]: ...
    @property
    def start_problem(self) -> Optional[str]: ...
    @property
    def silent(self) -> Optional[str]: ...
    @property
    def device_status(self) -> str: ...
    @property
    def link_up(self) -> bool: ...
    @property
    def rejected(self) -> int: ...
    @property
    def rejected_last(self) -> Optional[str]: ...
    @property
    def battery(self) -> Optional[tuple[int, bool]]: ...
    @property
    def header(self) -> dict[str, Any]: ...
    @property
    def seq(self) -> int: ...
    def alert(self) -> Optional[str]: ...
    def clock_disagrees(self) -> Optional[int]: ...


class Connection(Protocol):
    """What of a board's device connection its state reads (flagfall.bridge.session.Session; a session
    may also say connected_at and connect_error)."""

    @property
    def link(self) -> Optional[object]: ...
    @property
    def connects(self) -> int: ...


@dataclass(frozen=True)
class Link:
    """What a board's device connection is doing (from its Session; see link_of)."""

    port: str
    unplugged: bool = False                 # the device that was connected is not now
    connect_error: Optional[str] = None     # why the port cannot be opened, while it cannot
    unanswered_s: Optional[float] = None    # the port is open, no HELLO for this long (over SILENT_MS)


def link_of(session: Optional[Connection], engine: Engine) -> Optional[Link]:
    """The Link of a board's session (None: no device attached)."""
    if session is None:
        return None
    down = session.link is None
    waited: Optional[float] = None
    # (read as optional: a session stand-in of the tests has only link, connects, step and close)
    since: Optional[float] = getattr(session, "connected_at", None)
    if not down and since is not None and not engine.hello:
        w = time.monotonic() - since
        waited = w if w * 1000 > SILENT_MS else None
    error: Optional[str] = getattr(session, "connect_error", None)
    return Link(getattr(session, "port", "?"), unplugged=down and session.connects > 0,
                connect_error=error if down and error else None, unanswered_s=waited)


@dataclass(frozen=True)
class BoardState:
    """A board for the arbiter: the published state's board and what only the dashboard shows."""

    status: str                      # one of STATUSES
    alert: Optional[str]
    fix: Optional[str]
    result: str                      # the game's ('*' while it goes on)
    plies: int
    last_moves: list[str]
    clock: Optional[dict[str, Any]]  # as the published state has it (the public page's clock)
    penalty_side: Optional[str]      # the side whose illegal move the alert up proposes a penalty for
    penalty: Optional[str]           # ... and what it costs
    laws: Optional[str]              # the penalty policy followed (a FIDE Laws edition, a rulebook)
    clock_to: Optional[str]          # the side to move, when the device's clock has the other on move
    rejected: int                    # frames and lines from the device refused ...
    rejected_last: Optional[str]     # ... and why the last one was
    view: Optional[dict[str, Any]]   # the incident panel's boards (view()), once a device has said hello

    def actions(self) -> list[str]:
        """The arbiter actions that make sense for the board now."""
        return actions(self.status, self.plies, self.penalty_side)


def public_status(engine: Engine) -> tuple[str, Optional[str]]:
    """(status, alert) of the board's published state: finished, alert, silent, playing or disconnected
    (docs/live-state.md), and the one alert (BridgeEngine.alert(), else why the device is silent)."""
    alert = engine.alert()
    if engine.game.result != "*":
        st = "finished"
    elif alert:
        st = "alert"
    elif engine.silent:
        st = "silent"
    else:
        st = "playing" if engine.link_up or engine.hello is None else "disconnected"
    return st, alert or engine.silent


def live_state(engine: Engine, record: Optional[str] = None) -> dict[str, Any]:
    """The board's live-state message of docs/live-state.md (BridgeEngine.state()), with the engine's
    current sequence number. `record`: the record's text, when already built."""
    g = engine.game
    a = g.adapter
    clocks: list[list[int]] = []
    c = g.clock
    for m in g.moves:
        if g.clock_mode and m.clock_ms is None:
            clocks.append([live.UNKNOWN_MS, live.UNKNOWN_MS])   # nothing told this move's clock
            continue
        # no clock told with the move: the game's clock if one is known (no device: none is)
        pair = m.clocks if m.clocks != (None, None) else (c["white_ms"], c["black_ms"])
        clocks.append([live.UNKNOWN_MS if x is None else int(x) for x in pair])
    last: list[list[int]] = []
    if g.moves:
        last = [list(a.cell(s)) for s in a.move_squares(g.moves[-1].move)]
    now = live.now_ms()
    at = c.get("at")
    # the reading's own time, so viewers count down from when it was true (replays run
    # on virtual time: there the publishing time stands in)
    at_ms = at if isinstance(at, int) and 0 <= now - at < 600000 else now
    clock = live.clock_object(live.UNKNOWN_MS if c["white_ms"] is None else c["white_ms"],
                              live.UNKNOWN_MS if c["black_ms"] is None else c["black_ms"], c["running"], c["flag"],
                              tc=g.tc or "-", at_ms=at_ms, delay_ms=c.get("delay_ms", 0))
    if engine.battery is not None:    # the device's battery (docs/live-state.md), for the dashboard
        clock["battery"], clock["battery_low"] = engine.battery
    status, alert = public_status(engine)
    ident = engine.header["identity"]
    decision = g.decision()
    due = g.proposed_penalty      # the penalty the illegal-move alert up proposes: the arbiter's only
    penalty = None if due is None else {"side": D.SIDE_WORDS[due], "text": g.penalty_cost(due)}
    return live.make_state(ident[0], ident[1], ident[2], engine.seq, a.game, a.position(), a.grid(),
                           moves=g.sans(), clocks=clocks, last_move=last,
                           to_move="white" if a.side() == 0 else "black", clock=clock,
                           result=g.result, status=status, alert=alert,
                           pgn=records.record_text(g) if record is None else record, tags=_state_tags(g), side_names=list(a.side_names),
                           decision=decision if decision != g.result else None,
                           decision_reason=ARMAGEDDON_REASON if decision != g.result else None,
                           penalty=penalty, alert_kind=g.alert_kind if alert == g.alert else None)


def _state_tags(game: Game) -> dict[str, str]:
    # the record's tags, with a start position other than the game's own (a FEN, a Chess960
    # start), so that a feed written from the state starts where the game did
    tags = dict(game.tags)
    start = game.adapter.start_fen
    if start:
        tags.setdefault("FEN", start)
    if game.reason:       # why the game ended, as the record says it: pages show it beside the result
        tags.setdefault("Termination", game.termination_text())
    return tags


def status(engine: Engine, link: Optional[Link]) -> str:
    """What the board is doing (one of STATUSES but FAILED)."""
    g = engine.game
    if g.result != "*":
        return FINISHED
    if link is not None and link.unplugged:
        return UNPLUGGED
    if link is not None and link.connect_error:
        return NO_DEVICE
    if engine.silent or (link is not None and link.unanswered_s is not None):
        return SILENT
    if engine.hello is None or engine.hello_problem or (engine.start_problem and not g.moves):
        return WAITING
    if engine.device_status == "confirm":
        return RESULT_TO_CONFIRM      # one player has entered a result on the clock, the other has not
    if g.clock.get("flag"):
        return FLAG
    if engine.alert():
        return ALERT
    if not g.moves and not g.clock.get("running"):
        return NOT_STARTED
    return PLAYING


def describe(engine: Engine, link: Optional[Link], published: Optional[dict[str, Any]],
             side_names: tuple[str, str], overruled: Optional[str] = None) -> BoardState:
    """The board for the arbiter (BoardState), from its engine, its connection and its last published
    state; `overruled`: the event's own status of the board, when it has one (FAILED, FINISHED by a forfeit)."""
    g = engine.game
    plies = len(g.moves)
    due = g.proposed_penalty
    wrong = engine.clock_disagrees()
    st = overruled or status(engine, link)
    alert = engine.alert()
    clock = (published or {}).get("clock")
    fix: Optional[str] = None
    if engine.hello_problem:
        fix = "the device does not fit: " + engine.hello_problem
    elif engine.start_problem and not g.moves:
        fix = engine.start_problem
    port = link.port if link is not None else None
    if link is not None and link.unplugged:
        fix = UNPLUGGED_FIX
    elif link is not None and link.connect_error:
        fix = "no device on %s (%s): plug the board in, or correct the boards map" % (link.port, link.connect_error)
    elif engine.silent:
        fix = "%s: %s" % (port if port is not None else "the device", engine.silent)
        alert = alert or engine.silent
    elif link is not None and link.unanswered_s is not None:
        fix = ("the port %s is open but no device answers (asked %d s ago): check that a Flagfall "
               "board is on that port and powered" % (link.port, link.unanswered_s))
    seen: Optional[dict[str, Any]] = None
    if engine.hello is not None:
        seen = view(engine)
        if g.correcting and not fix and (seen["missing"] or seen["extra"]):
            fix = "reinstate the position: %s" % "; ".join(
                t for t in ("put back a piece on " + ", ".join(c[2] for c in seen["missing"])
                            if seen["missing"] else "",
                            "clear " + ", ".join(c[2] for c in seen["extra"]) if seen["extra"] else "")
                if t)
    if st == PLAYING and plies and isinstance(clock, dict) and clock.get("running") is None and not fix:
        fix = "the clock is paused: resume it when play goes on"
    if wrong is not None and isinstance(clock, dict) and clock.get("running") and not fix:
        fix = "%s's clock runs, but %s is to move: switch the clock to %s" % (
            side_names[1 - wrong], side_names[wrong], side_names[wrong])
    return BoardState(status=st, alert=alert, fix=fix, result=g.result, plies=plies, last_moves=g.sans()[-8:],
                      clock=clock, penalty_side=None if due is None else D.SIDE_WORDS[due],
                      penalty=None if due is None else g.penalty_cost(due), laws=g.penalty_name,
                      clock_to=None if wrong is None else D.SIDE_WORDS[wrong], rejected=engine.rejected,
                      rejected_last=engine.rejected_last, view=seen)


def view(engine: Engine) -> dict[str, Any]:
    """The incident panel's boards: the last legal position (grid) and what the sensors show
    (cells occupied), with the squares that differ: `missing` (a piece should stand there) and
    `extra` (the square should be empty), each as [row, col, name]."""
    g = engine.game
    a = g.adapter
    want = set(a.occupancy())
    have = set(g.tracker.cur)
    return {"grid": a.grid(), "game": a.game,
            "occupied": sorted(list(a.cell(s)) for s in have),
            "missing": [list(a.cell(s)) + [a.name(s)] for s in sorted(want - have)],
            "extra": [list(a.cell(s)) + [a.name(s)] for s in sorted(have - want)]}


def actions(st: str, plies: int, penalty_side: Optional[str]) -> list[str]:
    """The arbiter actions that make sense for a board with status `st` (the event's FAILED included:
    its own action is the event's)."""
    if st == FINISHED:
        return ["undo_result", "enter_moves"]     # moves missed before a result can still be entered
    acts = ["result", "forfeit", "clock", "time", "moves", "bonus", "pause", "resume", "enter_moves"]
    if st in (ALERT, FLAG, RESULT_TO_CONFIRM):
        acts = ["fix_move", "enter_moves", "dismiss", "result", "forfeit", "clock", "time", "moves", "bonus",
                "pause", "resume", "promotion"]
    if penalty_side:
        acts.insert(acts.index("enter_moves") + 1, "penalty")    # only while an illegal-move alert is up
    if st in (WAITING, NOT_STARTED) and plies == 0:
        # a board with no device yet may have its moves entered by the arbiter (its record only)
        acts = ["restart", "result", "forfeit", "enter_moves"]
    if st in DEVICE_DOWN:
        acts = [a for a in acts if a not in DEVICE_ACTIONS]
    return acts
