"""One board of a round (`EventBoard`): its pairing, its engine (journal and record) and its device
session; what the terminal and the event log say of its cable (`CableWatch`).

A board reads from and tells its round through `EventContext` (flagfall.event.runner.Event is the
one), so that this module needs nothing of the round's.
"""
from __future__ import annotations

import collections
import os
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol

from flagcore import display

from flagfall.bridge import boardstate
from flagfall.bridge import decisions as D
from flagfall.bridge import engine as eng_mod
from flagfall.bridge import journal as jmod
# what a board is doing, for the arbiter's dashboard: the bridge's statuses (flagfall.bridge.boardstate)
from flagfall.bridge.boardstate import DEVICE_ACTIONS, DEVICE_DOWN, FAILED, FINISHED, UNPLUGGED, WAITING
from flagfall.bridge.boardsetup import BoardSetup
from flagfall.bridge.engine import BridgeEngine
from flagfall.bridge.session import Session
from flagfall.tournament import model
from flagfall.games import registry

State = dict[str, Any]
Publish = Callable[[State], None]
START_FROM_DEVICE = "start_from_device"   # a quarantined board's action (POST /api/event/board/B/start-from-device)
JOURNAL_CHOICES = ("start the board from the device's position (action start_from_device: the damaged journal and "
                   "record are kept aside, a new journal begins, the kept record's moves are entered again and "
                   "the device is followed), or leave it to the arbiter (nothing to do: the board is not followed "
                   "and its files stay as they are)")

FORFEITS = (model.WHITE_FORFEIT_WIN, model.BLACK_FORFEIT_WIN, model.DOUBLE_FORFEIT)
ENGINE_REFUSES = ("penalty", "dismiss")
"""Actions the engine itself refuses, saying why, when the board's state has none to take (no illegal-move
alert up, no alert to dismiss): the board's actions (boardstate.actions) list them only while it has."""
EVENT_ACTIONS = ("pause",)
"""Board actions of the event itself (not bridge commands): pause the board's clock (resume is the bridge's
command: it starts the clock of the side to move, handing the clock over first if need be)."""
LINK_LINES = ("bridge: connected to ", "bridge: connection lost ")
"""The session's lines of a connection made or lost (flagfall.bridge.session): held while a cable flaps."""
FLAP_UNPLUGS = 2          # unplugs of one board within FLAP_WINDOW_S said line by line; more is a flapping cable
FLAP_WINDOW_S = 30.0
FLAP_HOLDS_S = 10.0       # connected this long, a flapping cable holds again (said once, with the count)
HISTORY = 200        # actions kept per board on the dashboard (all of them are in the journal)


class EventContext(Protocol):
    """What a board reads from its round and tells it (flagfall.event.runner.Event)."""

    round: model.Round
    tournament: str
    tc: Optional[str]
    penalties: str
    laws: str
    armageddon: bool
    fen: Optional[str]
    publish: Publish
    log: Callable[[str], None]
    warn: Callable[[str], None]
    mirror: Optional[str]
    verbose: bool

    @property
    def round_dir(self) -> str:
        """OUT/round-R: every board's journal and record."""

    def incident(self, board: int, kind: str, text: str) -> None:
        """An entry of the dashboard's event log."""

    def changed(self) -> None:
        """The dashboard may have changed."""


class DeviceUnavailable(LookupError):
    """An action the device must carry out, on a board whose device is unplugged or silent (HTTP 409)."""


class JournalRefused(ValueError):
    """A board's journal cannot be resumed: the board is quarantined (the others are followed)."""


class CableWatch:
    """What the terminal and the event log say of one board's cable: every unplug and replug while it holds;
    once it flaps (more than FLAP_UNPLUGS unplugs within FLAP_WINDOW_S) one line saying so, nothing more
    per flap, and one line once it has held FLAP_HOLDS_S, with how often it went."""

    def __init__(self) -> None:
        self.unplugs: collections.deque[float] = collections.deque()
        self.flapping_since: Optional[float] = None
        self.count = 0              # unplugs since it started flapping
        self.up_since: Optional[float] = None

    def change(self, now: float, unplugged: bool) -> Optional[str]:
        """The device went away (unplugged) or came back, at monotonic time `now`: "say" (say it), "flapping"
        (it starts flapping: say that instead) or None (flapping: say nothing)."""
        if not unplugged:
            self.up_since = now
            return None if self.flapping_since is not None else "say"
        self.up_since = None
        self.unplugs.append(now)
        while self.unplugs and now - self.unplugs[0] > FLAP_WINDOW_S:
            self.unplugs.popleft()
        if self.flapping_since is not None:
            self.count += 1
            return None
        if len(self.unplugs) > FLAP_UNPLUGS:
            self.flapping_since, self.count = self.unplugs[0], len(self.unplugs)
            return "flapping"
        return "say"

    def quiet(self) -> bool:
        """True while the cable flaps: the session's own connection lines are not printed either."""
        return self.flapping_since is not None

    def held(self, now: float) -> Optional[str]:
        """Once a flapping cable has held FLAP_HOLDS_S: the line saying so (and it is watched afresh)."""
        if self.flapping_since is None or self.up_since is None or now - self.up_since < FLAP_HOLDS_S:
            return None
        text = ("the cable holds again (connected for %d s): it was unplugged %d times in %d s; check it"
                % (FLAP_HOLDS_S, self.count, self.up_since - self.flapping_since))
        self.flapping_since = None
        self.unplugs.clear()
        return text


@dataclass
class BoardPlan:
    """How one board of the round is reached: its number, game and port (None: not yet known)."""

    number: int
    game: str = "chess"
    port: Optional[str] = None


class EventBoard:
    """One board of the round: its pairing, its engine (journal, record) and its device session."""

    def __init__(self, event: EventContext, pairing: model.Pairing, game: str) -> None:
        self.event = event
        self.number = pairing.board
        self.pairing = pairing
        self.spec = registry.spec(game)
        self.game = game
        self.lock = threading.RLock()          # the loop thread and arbiter actions share the engine
        self.engine: Optional[BridgeEngine] = None
        self.session: Optional[Session] = None
        self.port: Optional[str] = None
        self.failure: Optional[str] = None
        self.refusal: Optional[str] = None     # why the journal was refused: the board is quarantined
        self.opener: Optional[Callable[[], Any]] = None
        self.reenter: Optional[list[str]] = None   # the kept record's moves, entered once the board is seen
        self.kept: list[str] = []              # files kept aside by start_from_device
        self.closed = False
        self.state: Optional[State] = None
        self.seq = 0
        self.adjourned = False                 # left unfinished when the next round was loaded
        self.had_alert = False
        self.was_unplugged = False
        self.cable = CableWatch()
        self.battery_low = False               # the clock's battery said low (an alert until it is not)
        self.copy_behind = False               # a journal copy's disk refuses (said once, and when it is whole)
        self.storage_retry_at = 0.0            # monotonic time of the next retry of refused writes (no device)
        self.history: collections.deque[dict[str, Any]] = collections.deque(maxlen=HISTORY)

    # -- files and identity
    @property
    def name(self) -> str:
        """Base name of the board's journal and record."""
        return "board-%d" % self.number

    @property
    def journal_path(self) -> str:
        """The board's journal."""
        return os.path.join(self.event.round_dir, self.name + ".journal")

    @property
    def mirror_path(self) -> Optional[str]:
        """The second copy of the board's journal (--mirror DIR), or None."""
        if not self.event.mirror:
            return None
        return os.path.join(self.event.mirror, "round-%d" % self.event.round.round, self.name + ".journal")

    def command_ids(self) -> dict[str, int]:
        """{id: time} of the arbiter commands with an id carried out on this board (its journal): a signed
        MQTT command's id is its signature, so that one replayed after a restart is refused."""
        eng = self.engine
        source = (eng.journal_source() if eng is not None else None) or self.journal_path
        if not os.path.exists(source) or self.refusal is not None:
            return {}
        try:
            return jmod.command_ids(jmod.load(source)[1])
        except (OSError, jmod.JournalError):
            return {}

    @property
    def record_path(self) -> str:
        """The board's record (PGN, PDN, minzu record)."""
        return os.path.join(self.event.round_dir, "%s.%s" % (self.name, self.spec.record_format))

    def tags(self) -> dict[str, str]:
        """The record's tags: the pairing's, the time control, a stable GameId."""
        return model.board_tags(self.pairing, self.event.round, self.event.tournament, self.event.tc)

    # -- the engine and the device
    def open_engine(self) -> BridgeEngine:
        """The board's engine: resumed from its journal if there is one (nothing lost), else new."""
        ev = self.event
        mirror = self.mirror_path      # every entry goes to both copies: one disk may fail, the other holds it
        if any(p is not None and os.path.exists(p) and os.path.getsize(p) > 0 for p in (self.journal_path, mirror)):
            try:     # from the longer valid copy; one its disk refuses is written back when the disk allows
                eng = eng_mod.resume(self.journal_path, out_dir=ev.round_dir, publish=self._published, mirror=mirror)
            except (jmod.JournalError, ValueError, KeyError) as e:
                raise JournalRefused("board %d: cannot resume from %s: %s" % (self.number, self.journal_path, e)) \
                    from None
            if eng.journal_note():
                ev.log("board %d: journal copies differed: %s" % (self.number, eng.journal_note()))
            source = eng.journal_source() or self.journal_path
            ev.log("board %d: resumed %d moves from %s" % (self.number, eng.plies(), source))
            self._reload_notes(source)
        else:
            setup = BoardSetup(self.game, tags=self.tags(), tc=ev.tc, penalties=ev.penalties, laws=ev.laws,
                               armageddon=ev.armageddon, fen=ev.fen,
                               identity=[ev.tournament, str(ev.round.round), str(self.number)])
            eng = BridgeEngine(setup, self.journal_path, ev.round_dir, publish=self._published,
                               record_name=self.name, mirror=mirror)
            eng.write_record()
        eng.on_storage = lambda text: ev.log("board %d: %s" % (self.number, text))
        if eng.writes_refused():       # refused while the engine was being opened: said now
            ev.log("board %d: %s" % (self.number, eng.writes_refused()))
        self.engine = eng
        return eng

    def attach(self, port: str, opener: Optional[Callable[[], Any]] = None) -> None:
        """Follow the device on `port` (a serial device or pyserial URL); a journal that cannot be
        resumed quarantines this board (status failed, see quarantine), never the others."""
        self.port = port
        self.opener = opener
        eng = self.engine or self.ensure_engine()
        if eng is None:
            return
        self.session = Session(port, eng, retry_s=0.0, poll_s=0.0, log=self._session_log,
                               opener=opener or _nonblocking_opener(port))
        if self.event.tc and eng.fresh():
            self.session.pending_tc = self.event.tc

    def _session_log(self, text: str) -> None:
        # the session's connection lines, held while the cable flaps (CableWatch says it once)
        if self.cable.quiet() and text.startswith(LINK_LINES):
            return
        self.event.log("board %d: %s" % (self.number, text))

    def _reload_notes(self, source: str) -> None:
        """The arbiter's notes of a resumed journal (read from `source`, a copy holding every entry):
        the action history (a forfeit is the game's own result, replayed from the journal)."""
        try:
            _, entries = jmod.load(source)
        except (OSError, jmod.JournalError):
            return
        for e in entries:
            if e.get("k") != "arbiter":
                continue
            self.history.append({k: e.get(k) for k in ("at", "who", "what", "ok", "text")})

    def ensure_engine(self) -> Optional[BridgeEngine]:
        """The board's engine (open_engine), or None with the board quarantined if its journal is refused."""
        if self.engine is not None:
            return self.engine
        if self.refusal is not None:
            return None
        try:
            return self.open_engine()
        except JournalRefused as e:
            self.quarantine(str(e))
            return None

    def quarantine(self, why: str) -> None:
        """Stop following this board alone: it shows "failed" with `why` and the arbiter's choices."""
        self.refusal = why
        self.failure = why
        self.event.warn("board %d: FAILED, not followed: %s\n  choices: %s" % (self.number, why, JOURNAL_CHOICES))

    def start_from_device(self) -> dict[str, Any]:
        """The arbiter's choice for a quarantined board: keep its damaged journal (and record) aside under
        new names, never deleted, begin a new journal, and follow the device again; the kept record's
        moves are entered again (checked legal and against the board) once the device is seen."""
        with self.lock:
            if self.refusal is None:
                raise ValueError("board %d is not quarantined: its journal is in use" % self.number)
            stamp = time.strftime("%Y%m%d-%H%M%S")
            kept = []
            record_kept: Optional[str] = None
            for path in (self.journal_path, self.record_path, self.mirror_path):
                if path is None:
                    continue
                if os.path.exists(path):
                    aside = "%s.damaged-%s" % (path, stamp)
                    n = 1
                    while os.path.exists(aside):
                        n += 1
                        aside = "%s.damaged-%s-%d" % (path, stamp, n)
                    os.replace(path, aside)
                    kept.append(aside)
                    if path == self.record_path:
                        record_kept = aside
            self.kept = kept
            self.reenter = _record_moves(self.game, record_kept) if record_kept else None
            try:
                self.refusal = None
                self.failure = None
                self.open_engine()
            except (OSError, JournalRefused) as e:
                self.quarantine("board %d: cannot begin a new journal: %s" % (self.number, e))
                raise ValueError(self.refusal) from None
            self.event.log("board %d: started from the device; kept aside: %s" % (self.number, ", ".join(kept) or "-"))
            if self.port is not None:
                self.attach(self.port, self.opener)
                if self.session is not None:
                    self.session.pending_tc = None     # the device's clock is the game's: left as it is
            return {"ok": True, "text": "board %d started from the device; kept aside: %s%s" % (
                self.number, ", ".join(kept) or "nothing",
                "; %d moves of the kept record are entered once the board is seen" % len(self.reenter)
                if self.reenter else "")}

    def _reenter_kept_moves(self) -> None:
        # after start_from_device: the kept record's moves, once the device's board is known
        eng = self.engine
        texts = self.reenter
        if eng is None or not texts:
            return
        self.reenter = None
        done = eng.enter_record_moves(int(time.time() * 1000), texts)
        if done is None:
            self.reenter = texts       # the board is not seen yet
        elif not done:
            self.event.log("board %d: the %d moves of the kept record do not lead to what the board shows: "
                           "the arbiter enters the moves (kept: %s)" % (self.number, len(texts), ", ".join(self.kept)))

    def _published(self, state: State, decs: list[D.Decision]) -> None:
        self.state = state
        self.seq = state["seq"]
        ev = self.event
        if self.adjourned:
            state = adjourned_state(state)
        for d in decs:
            if d.kind == D.MOVE and ev.verbose:
                ev.log("board %d: %s" % (self.number, d.describe()))
            elif d.kind == D.RESULT and d.reason == model.FORFEIT_TERMINATION:
                ev.log("board %d: forfeit %s (%s)" % (self.number, self.forfeit, d.result))
            elif d.kind == D.PENALTY:
                ev.log("board %d: %s" % (self.number, penalty_text(self.spec.side_names, d)))
            elif d.kind in (D.RESULT, D.ALERT):
                ev.log("board %d: %s" % (self.number, d.describe()))
            if d.kind == D.PENALTY:
                ev.incident(self.number, d.kind, penalty_text(self.spec.side_names, d))
            elif d.kind == D.RESULT and d.reason == model.FORFEIT_TERMINATION:
                ev.incident(self.number, d.kind, "forfeit %s" % self.forfeit)
            elif d.kind in (D.ALERT, D.RESULT):
                ev.incident(self.number, d.kind, d.text or d.describe())
            elif d.kind == D.CLEAR or (d.kind == D.MOVE and self.had_alert):
                ev.incident(self.number, "resolved", "alert over" if d.kind == D.CLEAR else
                            "alert over: move %s" % d.text)
        self.had_alert = bool(self.engine is not None and self.engine.game_alert())
        self._watch_battery(state.get("clock"))
        ev.publish(state)
        ev.changed()

    def _watch_battery(self, clock: Optional[dict[str, Any]]) -> None:
        """The clock's battery going low (the device says: docs/live-state.md) is an alert on the terminal
        and in the event log, and its end (batteries changed) is said too."""
        pct = clock.get("battery") if isinstance(clock, dict) else None
        if not isinstance(pct, int) or pct < 0:
            return                # the device says nothing of its battery (now): nothing changes
        low = bool(clock.get("battery_low")) if isinstance(clock, dict) else False
        if low == self.battery_low:
            return
        self.battery_low = low
        text = ("clock battery low (%s %%): change the batteries before it stops" % pct if low else
                "clock battery no longer low (%s %%)" % pct)
        self.event.log("board %d: %s" % (self.number, text))
        self.event.incident(self.number, "alert" if low else "resolved", text)

    def step(self) -> None:
        """Read the device, feed the engine, run its timers; a failure is caught and shown."""
        if self.session is None:
            eng = self.engine
            if eng is not None and eng.writes_refused() and time.monotonic() >= self.storage_retry_at:
                with self.lock:      # no device yet: nothing else tries the refused writes again
                    self.storage_retry_at = time.monotonic() + eng_mod.STORAGE_RETRY_MS / 1000
                    eng.retry_storage()
            if eng is not None:
                with self.lock:      # ... nor writes back a journal copy its disk refused
                    self._watch_journal()
            return
        with self.lock:
            if self.closed:          # a board of a finished round: its session must not reconnect
                return
            try:
                self.session.step()
                if self.reenter:
                    self._reenter_kept_moves()
                self._watch_journal()
            except Exception as e:             # noqa: BLE001 - one board must never stop the others
                self.fail(e)
            out = self.unplugged()
            now = time.monotonic()
            if out != self.was_unplugged:
                self.was_unplugged = out
                say = self.cable.change(now, out)
                text = ("device unplugged: plug it back in (the board resynchronises)" if out else
                        "device plugged back in: resynchronised; check its clock (it comes back paused)")
                if say == "flapping":
                    text = ("the cable comes and goes: unplugged %d times in %d s; said again once it holds"
                            % (self.cable.count, now - (self.cable.flapping_since or now)))
                if say is not None:
                    self.event.log("board %d: %s" % (self.number, text))
                    self.event.incident(self.number, "alert" if out else "resolved", text)
            held = self.cable.held(now)
            if held:
                self.event.log("board %d: %s" % (self.number, held))
                self.event.incident(self.number, "resolved", held)

    def _watch_journal(self) -> None:
        """A journal copy whose disk refuses: written back as soon as its disk takes it (also when no
        entry comes, e.g. the game is over), said on the terminal and the event log when it starts
        and when both copies are whole again."""
        if self.engine is None:
            return
        problem = self.engine.catch_up_journal()
        if bool(problem) != self.copy_behind:
            self.copy_behind = bool(problem)
            text = problem or "both journal copies are whole again (written back from memory)"
            self.event.log("board %d: %s" % (self.number, text))
            self.event.incident(self.number, "alert" if problem else "resolved", text)

    def storage_problem(self) -> Optional[str]:
        """What of the board's journal and record its disks do not take now, or None."""
        return self.engine.storage_problem() if self.engine is not None else None

    def fail(self, err: BaseException) -> None:
        """Show a failure of this board's handling on the dashboard (the other boards go on)."""
        text = "%s: %s" % (type(err).__name__, err)
        if text != self.failure:
            self.failure = text
            self.event.log("board %d: handling failed: %s\n%s" % (self.number, text, traceback.format_exc()))

    # -- for the arbiter
    def link(self) -> Optional[boardstate.Link]:
        """What the board's device connection is doing (None: no device attached yet)."""
        return boardstate.link_of(self.session, self.engine) if self.engine is not None else None

    def _event_status(self) -> Optional[str]:
        """The event's own status of the board, over the bridge's: failed, or finished by a forfeit."""
        if self.failure:
            return FAILED
        if self.forfeit:
            return FINISHED
        return None

    def status(self) -> str:
        """What the board is doing (one of STATUSES)."""
        if self.failure:
            return FAILED
        if self.engine is None:
            return WAITING
        return self._event_status() or boardstate.status(self.engine, self.link())

    def unplugged(self) -> bool:
        """True while the device of a board that had one is not connected."""
        return self.session is not None and self.session.link is None and self.session.connects > 0

    @property
    def forfeit(self) -> Optional[str]:
        """+/-, -/+ or -/-: the game's result when the arbiter scored it as a forfeit, else None."""
        g = self.engine.game if self.engine is not None else None
        if g is None or g.result == "*" or g.reason != model.FORFEIT_TERMINATION:
            return None
        return model.scored_result(g.result, g.reason)

    def result(self) -> str:
        """The board's result: the arbiter's forfeit, else the game's ('*' while it goes on)."""
        if self.forfeit:
            return self.forfeit
        return self.engine.result() if self.engine is not None else "*"

    def summary(self) -> dict[str, Any]:
        """The board on the dashboard: players, status, what to fix, the alert and its actions, the
        clock as the public page shows it, the last moves and the action history."""
        with self.lock:          # the loop thread changes the game (the sensors' set) as it steps
            return self._summary()

    def _summary(self) -> dict[str, Any]:
        eng = self.engine
        bs = None if eng is None else boardstate.describe(eng, self.link(), self.state, self.spec.side_names,
                                                          self._event_status())
        status = bs.status if bs is not None else self.status()
        plies = bs.plies if bs is not None else 0
        out: dict[str, Any] = {
            "board": self.number, "game": self.game, "status": status, "port": self.port,
            "title": self.spec.title, "side_names": list(self.spec.side_names),
            "results": [self.spec.scoring[0], self.spec.scoring[2], self.spec.scoring[1]],
            "forfeits": list(FORFEITS),
            "white": self.pairing.white.name, "black": self.pairing.black.name,
            "white_rating": self.pairing.white.rating, "black_rating": self.pairing.black.rating,
            "plies": plies, "moves": (plies + 1) // 2,
            "result": self.result(), "forfeit": self.forfeit,
            "alert": bs.alert if bs is not None else None,
            "fix": bs.fix if bs is not None else None, "failure": self.failure,
            "choices": JOURNAL_CHOICES if self.refusal else None,
            "clock": (self.state or {}).get("clock"),
            "to_move": (self.state or {}).get("to_move") if self.result() == "*" else None,
            "last_moves": bs.last_moves if bs is not None else [],
            # the penalty the illegal-move alert up proposes (confirm mode), and what it costs
            "penalty_side": bs.penalty_side if bs is not None else None,
            "penalty": bs.penalty if bs is not None else None,
            "laws": bs.laws if bs is not None else None,
            # the side to move, when the device's clock has the other side on move ("Resume clock" hands it over)
            "clock_to": bs.clock_to if bs is not None else None,
            "history": list(self.history)[-20:],
            "game_id": model.game_id(self.event.tournament, self.event.round.round, self.number),
            "rejected": bs.rejected if bs is not None else 0,
            "rejected_last": bs.rejected_last if bs is not None else None,
            "url": "/board/%s/%d/%d" % (self.event.tournament, self.event.round.round, self.number),
        }
        if bs is not None and bs.view is not None:
            out["view"] = bs.view
        out["actions"] = self._allowed(status, plies, out["penalty_side"])
        return out

    def _allowed(self, status: str, plies: int, penalty_side: Optional[str]) -> list[str]:
        return [START_FROM_DEVICE] if self.refusal else boardstate.actions(status, plies, penalty_side)

    def actions(self) -> list[str]:
        """The arbiter actions the board allows now: the one rule of the dashboard, the board page
        (its arbiter panel) and the API (boardstate.actions; a quarantined board's own)."""
        with self.lock:
            eng = self.engine
            if eng is None:
                return self._allowed(self.status(), 0, None)
            due = eng.game.proposed_penalty
            return self._allowed(self.status(), len(eng.game.moves), None if due is None else D.SIDE_WORDS[due])

    def command(self, cmd: dict[str, Any], who: str = "arbiter") -> dict[str, Any]:
        """An arbiter action for this board: a bridge command of docs/live-state.md (journaled and
        carried out), a forfeit result (+/-, -/+, -/-), or the event's own pause/resume of the clock.
        Each one, carried out or refused, goes to the board's history and its journal.

        Raises DeviceUnavailable for an action the device must carry out while it is unplugged or
        silent, ValueError (the text says why) for an action refused."""
        what = _describe(cmd)
        with self.lock:
            try:
                reply = self._command(cmd)
            except (ValueError, LookupError) as e:
                self._note(who, what, False, str(e).strip("'\""))
                raise
            self._note(who, what, True, reply.get("text", "done"))
            return reply

    def _command(self, cmd: dict[str, Any]) -> dict[str, Any]:
        if self.refusal is not None:
            raise ValueError("board %d is not followed: %s; choose %s (POST /api/event/board/%d/start-from-device)"
                             % (self.number, self.refusal, START_FROM_DEVICE, self.number))
        eng = self.engine
        if eng is None:
            raise ValueError("board %d has no device yet" % self.number)
        act = cmd["action"]
        if act in ("forfeit", "result"):
            if self.result() != "*":
                raise ValueError("board %d already has a result (%s): undo it first" % (self.number, self.result()))
        st = self.status()
        allowed = self.actions()
        if act not in allowed and act not in ENGINE_REFUSES and not (act in DEVICE_ACTIONS and st in DEVICE_DOWN):
            # the rule the dashboard and the board page offer their buttons by (boardstate.actions); a
            # device's action on a board whose device is away is told below to plug it back in
            raise ValueError("board %d is %s%s: %s is not an action for it now (%s)" % (
                self.number, st.replace("-", " "), " (%s)" % self.result() if st == FINISHED else "",
                act.replace("_", " "), ", ".join(a.replace("_", " ") for a in allowed) or "none"))
        if act in DEVICE_ACTIONS:
            if st in DEVICE_DOWN:
                raise DeviceUnavailable("board %d is %s: its device cannot carry out %s now (%s)" % (
                    self.number, st, act, "plug it back in" if st == UNPLUGGED else "check its cable"))
            if self.session is None:
                raise DeviceUnavailable("board %d has no device to carry out %s" % (self.number, act))
        if act in ("time", "moves") and eng.clock_runs():
            raise ValueError("the clock runs: pause it first (the device edits its clock in pause)")
        if act == "forfeit":
            # the game's result, journaled and replayed like any: its clock stops for good (RESULT), its
            # moves are no longer followed (the arbiter can still enter those played), and the record,
            # the feeds and the push carry it with [Termination "forfeit"]
            record = model.forfeit_record_result(cmd["forfeit"], self.spec.scoring)
            eng.operator(int(time.time() * 1000), "result", record, model.FORFEIT_TERMINATION)
            return {"ok": True, "text": "forfeit %s (%s)" % (cmd["forfeit"], record)}
        if act in EVENT_ACTIONS:
            assert self.session is not None
            if not self.session.send(act.upper(), []):
                raise DeviceUnavailable("board %d: the device did not take %s" % (self.number, act))
            return {"ok": True, "text": "clock paused"}
        if act == "penalty":
            seen = eng.decision_count()
            reply = eng.command(int(time.time() * 1000), cmd)
            texts = [penalty_text(self.spec.side_names, d) for d in eng.decisions(seen) if d.kind == D.PENALTY]
            return dict(reply, text="; ".join(texts) or reply.get("text", "done"))
        return eng.command(int(time.time() * 1000), cmd)

    def adjourn(self, who: str, next_round: int) -> None:
        """Leave the game unfinished ('*' in the round's files) as round `next_round` is loaded: its clock
        paused, its state published as "adjourned" (the page and /api/rounds say so)."""
        with self.lock:
            if self.session is not None:
                self.session.send("PAUSE", [])
            self.adjourned = True
            self._note(who, "adjourn", True, "adjourned when round %d was loaded" % next_round)
            if self.engine is not None:
                # a new state for the viewers (next_state: its seq advanced): one with the seq of the last
                # state published is dropped by the hub as not newer, and the game looked live for good
                self._published(self.engine.next_state(), [])

    def _note(self, who: str, what: str, ok: bool, text: str) -> None:
        entry: dict[str, Any] = {"at": int(time.time() * 1000), "who": who, "what": what, "ok": ok,
                                 "text": text[:300]}
        self.history.append(entry)
        if self.engine is not None:
            self.engine.note(entry["at"], entry)
        self.event.incident(self.number, "action", "%s: %s - %s%s" % (who, what, "" if ok else "refused: ", text))

    def close(self) -> None:
        """Close the session and the journal."""
        with self.lock:
            self.closed = True
            if self.session is not None:
                self.session.close()
            elif self.engine is not None:
                self.engine.close()


def penalty_text(side_names: tuple[str, str], d: D.Decision) -> str:
    """A penalty decision for people: "White's illegal move no. 1: penalty, 2:00 to Black"."""
    side = d.side or 0
    extra = ", %s to %s" % (display.format_ms(d.bonus_ms), side_names[1 - side]) if d.bonus_ms else ""
    return "%s's illegal move no. %d: %s%s (%s)" % (side_names[side], d.count, d.outcome, extra, d.policy)


def _describe(cmd: dict[str, Any]) -> str:
    """An action in a few words for the history: "result 1-0", "clock white +60 s"."""
    act = cmd.get("action", "?")
    if act == "clock":
        return "clock %s %+g s" % (cmd.get("side"), cmd.get("delta_ms", 0) / 1000)
    if act == "time":
        return "time %s %s" % (cmd.get("side"), display.format_ms(int(cmd.get("ms", 0))))
    args = [str(cmd[k]) for k in ("result", "forfeit", "side", "move", "moves", "piece") if k in cmd]
    return " ".join([act.replace("_", " ")] + args)


def _record_moves(game: str, path: str) -> Optional[list[str]]:
    """The moves (as text) of the one game in a record file, or None if it cannot be read."""
    from flagfall.bridge.replay import load_games
    try:
        games = list(load_games(game, path, limit=1))
    except (OSError, ValueError):
        return None
    return list(games[0].texts) if games and games[0].texts else None


def _nonblocking_opener(port: str) -> Callable[[], Any]:
    def opener() -> Any:
        import serial

        from flagfall.serial_link import SerialLink
        return SerialLink(serial.serial_for_url(port, baudrate=115200, timeout=0))
    return opener

def adjourned_state(state: State) -> State:
    """The live state of a game adjourned (left unfinished when the next round was loaded): its status
    "adjourned", so that the page and /api/rounds say so, never "playing"; a game with a result as it is."""
    return dict(state, status="adjourned") if state["result"] == "*" else state
