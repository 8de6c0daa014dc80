"""The broadcast hub: latest state of every board, and fan-out to live viewers.

States come in from the bridge (in-process) or from MQTT; each is validated
and kept only if its `seq` is newer than the one held.

Viewers are grouped by what they follow (a filter: everything, a tournament,
a round or one board) and how (`full`: states with their move lists, as a
board page needs; `summary`: positions, clocks, the number of moves and the
last one, as a round overview needs). Fan-out works per *group*, not per
viewer, and per *tick*, not per state:

* A state marks its board pending in each group that follows it (a handful of
  dictionary writes, whatever the number of viewers).
* At most every TICK_S the hub flushes: each group with pending boards gets
  one frame (an SSE `u` message carrying every board that changed, as a
  delta where the group's previous frame allows, else whole), encoded once,
  and the same bytes are written to every viewer of the group that is in
  step. Each board's items are JSON-encoded once per state and shared by all
  groups.
* A viewer whose socket is full is not written; it leaves the step, and from
  then on collects the boards that changed (a *pending set*, not a queue).
  When its socket drains it gets the newest state of each of those boards
  whole, and is in step again. So a slow viewer never holds the others back,
  memory per viewer is bounded, and no viewer can end up behind on any board.
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable, Coroutine, Iterable, NamedTuple, Optional, Protocol, Sequence, Union

from flagfall import live

log = logging.getLogger("flagfall.broadcast")

MAX_VIEWERS = 20000
NO_FIELD = object()
SKIP_IN_DELTA = ("moves", "clocks", "pgn", "seq", "ts")
SKIP_IN_SUMMARY = ("moves", "clocks", "pgn", "position")
SKIP_IN_SUMMARY_CLOCK = ("white_display", "black_display")
RETRY_S = 0.05       # a viewer whose socket is full is tried again after this
RESTART_GAP_MS = 2000   # a lower seq made this much later than the held state is a restarted bridge
TICK_S = 0.1         # viewers are written at most this often: every board changed meanwhile in one frame
MODES = ("full", "summary")

BoardKey = tuple[str, str, str]
"""A board: (tournament, round, board), as live.key_of gives it."""
Filter = tuple[Optional[str], Optional[str], Optional[str]]
"""What a viewer follows: (tournament, round, board), None for any."""
Ply = tuple[str, list[list[int]]]
"""A position in a board's history: ("row/row/...", last move as [[row, col], ...])."""
History = list[Optional[Ply]]
Archived = tuple[live.Message, History]
"""An earlier game of a board: its last state and its history."""
CommandReply = Union[live.Message, Coroutine[Any, Any, live.Message]]
CommandHandler = Callable[[live.Message], CommandReply]
"""An in-process bridge's arbiter command entry: a validated command in, a reply dict out (or a coroutine of it)."""
CommandSink = Callable[[BoardKey, live.Message], CommandReply]
"""Where commands go for boards without a handler (MQTT): board key and command in, reply out."""


class BoardRules(NamedTuple):
    """An in-process board's own rule for arbiter commands, where it is not live.validate_command's alone (an
    event's board: its forfeits too, and only the actions its state allows now): `check` makes a command
    of a request's body (ValueError says why not), `actions` lists the actions the board allows now."""

    check: Callable[[object], live.Message]
    actions: Callable[[], list[str]]


class Writer(Protocol):
    """How the hub writes a viewer's socket itself (sse.ChunkWriter)."""

    def closing(self) -> bool: ...

    def busy(self) -> bool: ...

    def write_chunk(self, data: bytes) -> None: ...


def _view(state: live.Message) -> live.Message:
    """The state as viewers get it: everything but the full record text."""
    v = dict(state)
    v.pop("pgn", None)
    return v


def _summary(state: live.Message) -> live.Message:
    """The state as a round overview gets it: no move lists (their length `n` and the `last` move), no
    position text (the grid draws the board) and no display strings in the clock (pages format it)."""
    v = {f: x for f, x in state.items() if f not in SKIP_IN_SUMMARY}
    clock = v.get("clock")
    if isinstance(clock, dict):
        v["clock"] = {f: x for f, x in clock.items() if f not in SKIP_IN_SUMMARY_CLOCK}
    moves = state["moves"]
    v["n"] = len(moves)
    v["last"] = moves[-1] if moves else None
    return v


def _common_prefix(a: Sequence[object], b: Sequence[object]) -> int:
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _dumpb(obj: object) -> bytes:
    return live.dumps(obj).encode()


def frame(items: Iterable[bytes]) -> bytes:
    """One SSE `u` message from already encoded board items (JSON bytes)."""
    return b"event: u\ndata: [" + b",".join(items) + b"]\n\n"


def chunked(data: bytes) -> bytes:
    """Bytes framed as one HTTP/1.1 chunk (the stream uses chunked transfer encoding)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


ARCHIVE_PER_BOARD = 50     # finished games kept per board (newest last)


def new_game(old: live.Message, new: live.Message) -> bool:
    """True if state `new` starts another game on the board than `old` showed (a finished one reset,
    or other players)."""
    if old["result"] != "*" and new["result"] == "*" and len(new["moves"]) < len(old["moves"]):
        return True
    ot, nt = old.get("tags") or {}, new.get("tags") or {}
    return bool(old["moves"]) and any(ot.get(t) != nt.get(t) for t in ("White", "Black"))


class Entry:
    """One board as the hub holds it, with its stream items encoded once, when first needed.

    `state` is the public state (live.public_view: an alert's text is replaced by live.PUBLIC_ALERT,
    the arbiter-only keys are left out); `alert`, `alert_kind` and `penalty` keep those for the
    arbiter; `moved_at` says when the last move was made (epoch ms).

    `history` is the position after each ply as far as the states seen tell it
    (index i: after i moves; None where states arrived several moves at a time):
    ("row/row/...", last_move); `archive` the board's earlier games, each as
    (last state, history); both shared along the board's entries.
    """

    __slots__ = ("key", "k", "state", "seq", "prev_seq", "prev_state", "updated", "_full", "_delta",
                 "_sfull", "_sdelta", "_record", "history", "archive", "alert", "alert_kind", "penalty")
    state: live.Message

    def __init__(self, key: BoardKey, state: live.Message, prev: Optional[Entry] = None,
                 held: Optional[Entry] = None) -> None:
        self.key = key
        self.k = "/".join(key)
        self.alert: Optional[str] = state.get("alert")    # the full text: for the arbiter only
        # the alert's kind (an illegal move, or a position to confirm) and the penalty an illegal-move
        # alert proposes: the arbiter's, like the alert's text
        self.alert_kind: Optional[str] = state.get("alert_kind")
        self.penalty: Optional[live.Message] = state.get("penalty")
        state = live.public_view(state)
        # when the last move was made (ts of the first state that showed it): "time since the last move"
        same = prev is not None and len(prev.state["moves"]) == len(state["moves"]) and "moved_at" in prev.state
        state["moved_at"] = prev.state["moved_at"] if same and prev is not None else state["ts"]
        self.state = state
        self.seq: int = state["seq"]
        self.prev_seq = prev.seq if prev is not None else None
        self.prev_state = prev.state if prev is not None else None
        self._full: Optional[bytes] = None
        self._delta: Optional[bytes] = None
        self._sfull: Optional[bytes] = None
        self._sdelta: Optional[bytes] = None
        self._record: Optional[str] = None
        self.updated = live.now_ms()
        held = held if held is not None else prev
        moves: list[str] = state["moves"]
        self.archive: list[Archived]
        self.history: History
        hist: History
        if held is None:
            self.archive = []
            hist = []
        else:
            self.archive = held.archive
            hist = held.history
            if new_game(held.state, state):
                self.archive.append((held.state, held.history))
                del self.archive[:-ARCHIVE_PER_BOARD]
                hist = []
            else:
                del hist[_common_prefix(held.state["moves"], moves) + 1:]
        if len(hist) < len(moves) + 1:
            hist.extend([None] * (len(moves) + 1 - len(hist)))
        hist[len(moves)] = ("/".join(state["grid"]), state.get("last_move") or [])
        self.history = hist

    def full(self) -> bytes:
        """The board whole (without its record text): {"k", "full": 1, ...state}."""
        if self._full is None:
            v = _view(self.state)
            v["k"] = self.k
            v["full"] = 1
            self._full = _dumpb(v)
        return self._full

    def delta(self) -> bytes:
        """What changed since the previous state: moves from index `from`, and every other changed key."""
        if self._delta is None:
            old, state = self.prev_state, self.state
            assert old is not None, "a delta needs the previous state"
            start = _common_prefix(old["moves"], state["moves"])
            d = {"k": self.k, "seq": state["seq"], "ts": state["ts"], "from": start,
                 "moves": state["moves"][start:], "clocks": state["clocks"][start:]}
            for f, val in state.items():
                if f not in SKIP_IN_DELTA and old.get(f, NO_FIELD) != val:
                    d[f] = val
            self._delta = _dumpb(d)
        return self._delta

    def sfull(self) -> bytes:
        """The board whole in summary form."""
        if self._sfull is None:
            v = _summary(self.state)
            v["k"] = self.k
            v["full"] = 1
            self._sfull = _dumpb(v)
        return self._sfull

    def sdelta(self) -> bytes:
        """The summary keys that changed since the previous state."""
        if self._sdelta is None:
            assert self.prev_state is not None, "a delta needs the previous state"
            old, new = _summary(self.prev_state), _summary(self.state)
            d = {"k": self.k, "seq": new["seq"], "ts": new["ts"]}
            for f, val in new.items():
                if f not in ("seq", "ts") and old.get(f, NO_FIELD) != val:
                    d[f] = val
            self._sdelta = _dumpb(d)
        return self._sdelta

    def item(self, mode: str, delta: bool) -> bytes:
        """The encoded item for a viewing mode; delta=True only if the receiver holds prev_seq."""
        if mode == "summary":
            return self.sdelta() if delta else self.sfull()
        return self.delta() if delta else self.full()

    def record(self, make: Callable[[live.Message], str]) -> str:
        """The board's record text (feeds), made by make(state) once per state."""
        if self._record is None:
            self._record = make(self.state)
        return self._record


class Viewer:
    """A live viewer: what it follows, and while it is out of step, the boards changed since.

    A viewer with a `writer` (an object with closing(), busy() and write(bytes)) is
    written by the hub's flush; one without is woken through `wake` and writes
    take() from its own task.
    """

    __slots__ = ("filter", "mode", "group", "pending", "sent", "wake", "closed", "writer", "in_step")

    def __init__(self, flt: Filter, mode: str = "full") -> None:
        self.filter = flt
        self.mode = mode
        self.group: Optional[Group] = None
        self.pending: dict[BoardKey, bool] = {}   # key -> True, insertion ordered (only while out of step)
        self.sent: dict[BoardKey, int] = {}       # key -> seq last written by take()
        self.wake = asyncio.Event()
        self.closed = False
        self.writer: Optional[Writer] = None
        self.in_step = False       # True: receives its group's shared frames

    def take(self, hub: Hub) -> bytes:
        """A frame for every pending board (deltas where possible); clears the pending set."""
        out: list[bytes] = []
        pending, self.pending = self.pending, {}
        for key in pending:
            e = hub.boards.get(key)
            if e is None:
                continue
            out.append(e.item(self.mode, e.prev_seq is not None and self.sent.get(key) == e.prev_seq))
            self.sent[key] = e.seq
        return frame(out) if out else b""


class Group:
    """The viewers that follow the same filter in the same mode, and what their last frame held."""

    __slots__ = ("filter", "mode", "viewers", "pending", "sent")

    def __init__(self, flt: Filter, mode: str) -> None:
        self.filter = flt
        self.mode = mode
        self.viewers: dict[Viewer, bool] = {}      # viewer -> True
        self.pending: dict[BoardKey, bool] = {}    # key -> True: boards changed since the last frame
        self.sent: dict[BoardKey, int] = {}        # key -> seq the last frame left the group's viewers with

    def frame(self, hub: Hub, keys: Iterable[BoardKey]) -> Optional[bytes]:
        items: list[bytes] = []
        sent = self.sent
        for key in keys:
            e = hub.boards.get(key)
            if e is None:
                continue
            items.append(e.item(self.mode, e.prev_seq is not None and sent.get(key) == e.prev_seq))
            sent[key] = e.seq
        return frame(items) if items else None


class Hub:
    """Latest states, viewers, and the way arbiter commands reach each board's bridge."""

    def __init__(self, loop: Optional[asyncio.AbstractEventLoop] = None) -> None:
        self.boards: dict[BoardKey, Entry] = {}
        self.groups: dict[tuple[Filter, str], Group] = {}   # (filter tuple, mode) -> Group
        self.nviewers = 0
        self.loop = loop
        self.command_handlers: dict[BoardKey, CommandHandler] = {}  # key -> reply dict (in-process bridges)
        self.command_sink: Optional[CommandSink] = None   # key, cmd -> reply dict for every other board (MQTT)
        self.command_rules: dict[BoardKey, BoardRules] = {}   # key -> the board's own rule (else live's)
        self.received = 0
        self.dropped_old = 0
        self.rejected = 0
        self.restarts = 0
        self.listeners: list[Callable[[Entry], object]] = []   # run after each accepted state
        self.dirty: set[Group] = set()          # groups with boards pending
        self.lagging: set[Viewer] = set()       # viewers out of step with a writer: written whole when their socket drains
        self.flush_handle: Optional[asyncio.Handle] = None
        self.last_flush = 0.0
        self.flushes = 0
        self.frames = 0             # shared frames made
        self.writes = 0             # socket writes
        self.round_version: dict[tuple[str, str], int] = {}   # (tournament, round) -> count of accepted states (feed caching)

    # -- states in ---------------------------------------------------------

    def ingest(self, state: live.Message, validate: bool = True) -> bool:
        """Take a state (dict); returns True if it was newer and is now held."""
        self.received += 1
        if validate:
            try:
                live.validate_state(state)
            except ValueError as e:
                self.rejected += 1
                log.warning("rejected state: %s", e)
                return False
        key = live.key_of(state)
        prev = self.boards.get(key)
        if prev is not None and state["seq"] <= prev.seq:
            # a bridge restarted without its journal counts again from a low seq; its states
            # are recognisably newer (docs/live-state.md): take them, as a fresh board
            if state["ts"] > prev.state["ts"] + RESTART_GAP_MS:
                prev = None
                self.restarts += 1
            else:
                self.dropped_old += 1
                return False
        entry = Entry(key, state, prev, self.boards.get(key))
        self.boards[key] = entry
        self._notify(key)
        for fn in self.listeners:
            try:
                fn(entry)
            except Exception:  # a listener must never stop the broadcast
                log.exception("state listener failed")
        return True

    def ingest_json(self, data: Union[str, bytes]) -> bool:
        """Take a state as JSON text or bytes; returns True if held, False if old or invalid."""
        try:
            obj = json.loads(data)
        except (ValueError, RecursionError) as e:      # RecursionError: JSON nested thousands deep
            self.rejected += 1
            log.warning("rejected state: not JSON (%s)", str(e)[:200])
            return False
        return self.ingest(obj)

    def ingest_threadsafe(self, state: live.Message) -> None:
        """ingest() from another thread (a bridge or the MQTT client thread)."""
        if self.loop is None:
            raise RuntimeError("the hub has no event loop: make it with Hub(loop) to ingest from other threads")
        self.loop.call_soon_threadsafe(self.ingest, state)

    def _notify(self, key: BoardKey) -> None:
        t, r, b = key
        rk = (t, r)
        self.round_version[rk] = self.round_version.get(rk, 0) + 1
        groups = self.groups
        for flt in ((None, None, None), (t, None, None), (t, r, None), (t, r, b)):
            for mode in MODES:
                g = groups.get((flt, mode))
                if g is not None:
                    g.pending[key] = True
                    self.dirty.add(g)
        if self.dirty and self.flush_handle is None:
            self._schedule(None)

    def _schedule(self, delay: Optional[float]) -> None:
        loop = self.loop
        if loop is None:
            try:
                loop = self.loop = asyncio.get_running_loop()
            except RuntimeError:
                return
        if delay is None:
            delay = self.last_flush + TICK_S - loop.time()
        if delay > 0:
            self.flush_handle = loop.call_later(delay, self.flush)
        else:
            self.flush_handle = loop.call_soon(self.flush)

    def flush(self) -> None:
        """One tick: a frame per group with changes, shared by its viewers in step; then the lagging ones."""
        self.flush_handle = None
        if self.loop is not None:
            self.last_flush = self.loop.time()
        self.flushes += 1
        dirty, self.dirty = self.dirty, set()
        lagging = self.lagging
        writes = 0
        for g in dirty:
            keys, g.pending = g.pending, {}
            data = g.frame(self, keys)
            if data is None:
                continue
            self.frames += 1
            chunk: Optional[bytes] = None
            for v in list(g.viewers):
                if v.in_step:
                    w = v.writer
                    assert w is not None, "a viewer in step has a writer"
                    if w.closing():
                        self._lost(v)
                        continue
                    if not w.busy():
                        if chunk is None:
                            chunk = chunked(data)
                        w.write_chunk(chunk)
                        writes += 1
                        continue
                    v.in_step = False      # its socket is full: out of step, pending from now on
                    v.sent.clear()
                v.pending.update(keys)
                if v.writer is None:
                    v.wake.set()
                else:
                    lagging.add(v)
        for v in list(lagging):
            w = v.writer
            if v.closed or w is None:
                lagging.discard(v)
                continue
            if w.closing():
                self._lost(v)
                continue
            if w.busy():
                continue
            lagging.discard(v)
            data = v.take(self)
            if data:
                w.write_chunk(chunked(data))
                writes += 1
            v.in_step = True
        self.writes += writes
        if lagging:
            self._schedule(RETRY_S)

    def _lost(self, v: Viewer) -> None:
        v.closed = True
        v.in_step = False
        self.lagging.discard(v)
        v.wake.set()

    def attach_writer(self, v: Viewer, writer: Writer) -> None:
        """From now on the hub writes viewer v itself: writer has closing(), busy(), write_chunk(bytes)."""
        v.writer = writer
        self.lagging.add(v)
        if self.flush_handle is None:
            self._schedule(None)

    # -- viewers -----------------------------------------------------------

    def subscribe(self, tournament: Optional[str] = None, round_: Optional[str] = None,
                  board: Optional[str] = None, mode: str = "full") -> Viewer:
        """A new viewer of everything, a tournament, a round or one board; all matching boards pending.

        mode is "full" (states with move lists) or "summary" (no move lists: `n` and `last`).
        """
        if self.nviewers >= MAX_VIEWERS:
            raise OverflowError("too many viewers (%d)" % MAX_VIEWERS)
        if mode not in MODES:
            raise ValueError("view must be one of %s" % ", ".join(MODES))
        flt: Filter = (tournament, round_, board)
        v = Viewer(flt, mode)
        g = self.groups.get((flt, mode))
        keys = self.matching(tournament, round_, board)
        if g is None:
            g = self.groups[(flt, mode)] = Group(flt, mode)
            for key in keys:         # the group starts where its first viewer's first write leaves it
                g.sent[key] = self.boards[key].seq
        g.viewers[v] = True
        v.group = g
        self.nviewers += 1
        for key in keys:
            v.pending[key] = True
        if v.pending:
            v.wake.set()
        return v

    def unsubscribe(self, v: Viewer) -> None:
        """Forget a viewer."""
        g = v.group
        if g is not None and v in g.viewers:
            del g.viewers[v]
            self.nviewers -= 1
            if not g.viewers:
                del self.groups[(g.filter, g.mode)]
                self.dirty.discard(g)
        v.group = None
        v.closed = True
        v.in_step = False
        v.writer = None
        self.lagging.discard(v)
        v.wake.set()

    def viewers(self) -> list[Viewer]:
        """Every viewer (a list)."""
        return [v for g in self.groups.values() for v in g.viewers]

    def matching(self, tournament: Optional[str] = None, round_: Optional[str] = None,
                 board: Optional[str] = None) -> list[BoardKey]:
        """Keys of the boards held that match a filter, in a stable order."""
        out: list[BoardKey] = []
        for key in self.boards:
            if ((tournament is None or key[0] == tournament) and (round_ is None or key[1] == round_)
                    and (board is None or key[2] == board)):
                out.append(key)
        out.sort(key=_board_order)
        return out

    def get(self, key: BoardKey) -> Optional[live.Message]:
        """The latest state of a board, or None."""
        e = self.boards.get(key)
        return e.state if e is not None else None

    # -- arbiter commands --------------------------------------------------

    async def command(self, key: BoardKey, cmd: live.Message) -> live.Message:
        """Send a validated arbiter command to the board's bridge; returns its reply (dict).

        Raises LookupError if no bridge can be reached for the board, ValueError if the
        bridge refuses the command (the text says why).
        """
        handler = self.command_handlers.get(key)
        if handler is None:
            if self.command_sink is None:
                raise LookupError("no bridge is attached to board %s" % "/".join(key))
            reply = self.command_sink(key, cmd)
        else:
            reply = handler(cmd)
        if asyncio.iscoroutine(reply):
            reply = await reply
        return reply if isinstance(reply, dict) else {"ok": True}

    def stats(self) -> dict[str, int]:
        """Counters for /api/health and the load test."""
        return {"boards": len(self.boards), "viewers": self.nviewers, "received": self.received,
                "dropped_old": self.dropped_old, "rejected": self.rejected, "flushes": self.flushes,
                "frames": self.frames, "writes": self.writes, "lagging": len(self.lagging)}


def _board_order(key: BoardKey) -> tuple[str, tuple[int, int, str], tuple[int, int, str]]:
    """Sort boards naturally: board '10' after board '9'."""
    t, r, b = key
    return (t, _nat(r), _nat(b))


def _nat(s: str) -> tuple[int, int, str]:
    return (0, int(s), "") if s.isdigit() else (1, 0, s)
