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
import asyncio
import json
import logging

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


def _view(state):
    """The state as viewers get it: everything but the full record text."""
    v = dict(state)
    v.pop("pgn", None)
    return v


def _summary(state):
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


def _common_prefix(a, b):
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _dumpb(obj):
    return live.dumps(obj).encode()


def frame(items):
    """One SSE `u` message from already encoded board items (JSON bytes)."""
    return b"event: u\ndata: [" + b",".join(items) + b"]\n\n"


def chunked(data):
    """Bytes framed as one HTTP/1.1 chunk (the stream uses chunked transfer encoding)."""
    return b"%x\r\n%s\r\n" % (len(data), data)


ARCHIVE_PER_BOARD = 50     # finished games kept per board (newest last)


def new_game(old, new):
    """True if state `new` starts another game on the board than `old` showed (a finished one reset,
    or other players)."""
    if old["result"] != "*" and new["result"] == "*" and len(new["moves"]) < len(old["moves"]):
        return True
    ot, nt = old.get("tags") or {}, new.get("tags") or {}
    return bool(old["moves"]) and any(ot.get(t) != nt.get(t) for t in ("White", "Black"))


class Entry:
    """One board as the hub holds it, with its stream items encoded once, when first needed.

    `history` is the position after each ply as far as the states seen tell it
    (index i: after i moves; None where states arrived several moves at a time):
    ("row/row/...", last_move); `archive` the board's earlier games, each as
    (last state, history); both shared along the board's entries.
    """

    __slots__ = ("key", "k", "state", "seq", "prev_seq", "prev_state", "updated", "_full", "_delta",
                 "_sfull", "_sdelta", "_record", "history", "archive")

    def __init__(self, key, state, prev=None, held=None):
        self.key = key
        self.k = "/".join(key)
        self.state = state
        self.seq = state["seq"]
        self.prev_seq = prev.seq if prev is not None else None
        self.prev_state = prev.state if prev is not None else None
        self._full = self._delta = self._sfull = self._sdelta = self._record = None
        self.updated = live.now_ms()
        held = held if held is not None else prev
        moves = state["moves"]
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

    def full(self):
        """The board whole (without its record text): {"k", "full": 1, ...state}."""
        if self._full is None:
            v = _view(self.state)
            v["k"] = self.k
            v["full"] = 1
            self._full = _dumpb(v)
        return self._full

    def delta(self):
        """What changed since the previous state: moves from index `from`, and every other changed key."""
        if self._delta is None:
            old, state = self.prev_state, self.state
            start = _common_prefix(old["moves"], state["moves"])
            d = {"k": self.k, "seq": state["seq"], "ts": state["ts"], "from": start,
                 "moves": state["moves"][start:], "clocks": state["clocks"][start:]}
            for f, val in state.items():
                if f not in SKIP_IN_DELTA and old.get(f, NO_FIELD) != val:
                    d[f] = val
            self._delta = _dumpb(d)
        return self._delta

    def sfull(self):
        """The board whole in summary form."""
        if self._sfull is None:
            v = _summary(self.state)
            v["k"] = self.k
            v["full"] = 1
            self._sfull = _dumpb(v)
        return self._sfull

    def sdelta(self):
        """The summary keys that changed since the previous state."""
        if self._sdelta is None:
            old, new = _summary(self.prev_state), _summary(self.state)
            d = {"k": self.k, "seq": new["seq"], "ts": new["ts"]}
            for f, val in new.items():
                if f not in ("seq", "ts") and old.get(f, NO_FIELD) != val:
                    d[f] = val
            self._sdelta = _dumpb(d)
        return self._sdelta

    def item(self, mode, delta):
        """The encoded item for a viewing mode; delta=True only if the receiver holds prev_seq."""
        if mode == "summary":
            return self.sdelta() if delta else self.sfull()
        return self.delta() if delta else self.full()

    def record(self, make):
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

    def __init__(self, flt, mode="full"):
        self.filter = flt
        self.mode = mode
        self.group = None
        self.pending = {}          # key -> True, insertion ordered (only while out of step)
        self.sent = {}             # key -> seq last written by take()
        self.wake = asyncio.Event()
        self.closed = False
        self.writer = None
        self.in_step = False       # True: receives its group's shared frames

    def take(self, hub):
        """A frame for every pending board (deltas where possible); clears the pending set."""
        out = []
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

    def __init__(self, flt, mode):
        self.filter = flt
        self.mode = mode
        self.viewers = {}          # viewer -> True
        self.pending = {}          # key -> True: boards changed since the last frame
        self.sent = {}             # key -> seq the last frame left the group's viewers with

    def frame(self, hub, keys):
        items = []
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

    def __init__(self, loop=None):
        self.boards = {}
        self.groups = {}           # (filter tuple, mode) -> Group
        self.nviewers = 0
        self.loop = loop
        self.command_handlers = {}  # key -> callable(cmd) -> reply dict (in-process bridges)
        self.command_sink = None    # callable(key, cmd) -> reply dict for every other board (MQTT)
        self.received = 0
        self.dropped_old = 0
        self.rejected = 0
        self.restarts = 0
        self.listeners = []         # callables(entry) run after each accepted state
        self.dirty = set()          # groups with boards pending
        self.lagging = set()        # viewers out of step with a writer: written whole when their socket drains
        self.flush_handle = None
        self.last_flush = 0.0
        self.flushes = 0
        self.frames = 0             # shared frames made
        self.writes = 0             # socket writes
        self.round_version = {}     # (tournament, round) -> count of accepted states (feed caching)

    # -- states in ---------------------------------------------------------

    def ingest(self, state, validate=True):
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
        e = Entry(key, state, prev, self.boards.get(key))
        self.boards[key] = e
        self._notify(key)
        for fn in self.listeners:
            try:
                fn(e)
            except Exception:  # a listener must never stop the broadcast
                log.exception("state listener failed")
        return True

    def ingest_json(self, data):
        """Take a state as JSON text or bytes; returns True if held, False if old or invalid."""
        try:
            obj = json.loads(data)
        except ValueError as e:
            self.rejected += 1
            log.warning("rejected state: not JSON (%s)", e)
            return False
        return self.ingest(obj)

    def ingest_threadsafe(self, state):
        """ingest() from another thread (a bridge or the MQTT client thread)."""
        self.loop.call_soon_threadsafe(self.ingest, state)

    def _notify(self, key):
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

    def _schedule(self, delay):
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

    def flush(self):
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
            chunk = None
            for v in list(g.viewers):
                if v.in_step:
                    w = v.writer
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

    def _lost(self, v):
        v.closed = True
        v.in_step = False
        self.lagging.discard(v)
        v.wake.set()

    def attach_writer(self, v, writer):
        """From now on the hub writes viewer v itself: writer has closing(), busy(), write_chunk(bytes)."""
        v.writer = writer
        self.lagging.add(v)
        if self.flush_handle is None:
            self._schedule(None)

    # -- viewers -----------------------------------------------------------

    def subscribe(self, tournament=None, round_=None, board=None, mode="full"):
        """A new viewer of everything, a tournament, a round or one board; all matching boards pending.

        mode is "full" (states with move lists) or "summary" (no move lists: `n` and `last`).
        """
        if self.nviewers >= MAX_VIEWERS:
            raise OverflowError("too many viewers (%d)" % MAX_VIEWERS)
        if mode not in MODES:
            raise ValueError("view must be one of %s" % ", ".join(MODES))
        flt = (tournament, round_, board)
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

    def unsubscribe(self, v):
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

    def viewers(self):
        """Every viewer (a list)."""
        return [v for g in self.groups.values() for v in g.viewers]

    def matching(self, tournament=None, round_=None, board=None):
        """Keys of the boards held that match a filter, in a stable order."""
        out = []
        for key in self.boards:
            if ((tournament is None or key[0] == tournament) and (round_ is None or key[1] == round_)
                    and (board is None or key[2] == board)):
                out.append(key)
        out.sort(key=_board_order)
        return out

    def get(self, key):
        """The latest state of a board, or None."""
        e = self.boards.get(key)
        return e.state if e is not None else None

    # -- arbiter commands --------------------------------------------------

    async def command(self, key, cmd):
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

    def stats(self):
        """Counters for /api/health and the load test."""
        return {"boards": len(self.boards), "viewers": self.nviewers, "received": self.received,
                "dropped_old": self.dropped_old, "rejected": self.rejected, "flushes": self.flushes,
                "frames": self.frames, "writes": self.writes, "lagging": len(self.lagging)}


def _board_order(key):
    """Sort boards naturally: board '10' after board '9'."""
    t, r, b = key
    return (t, _nat(r), _nat(b))


def _nat(s):
    return (0, int(s), "") if s.isdigit() else (1, 0, s)
