"""The broadcast hub: latest state of every board, and fan-out to live viewers.

States come in from the bridge (in-process) or from MQTT; each is validated
and kept only if its `seq` is newer than the one held. Every viewer has a
*pending set* of boards that changed since its last write, not a queue: a
slow viewer is sent the newest state of each board once, so memory per
viewer is bounded and no viewer can end up behind on any board.

What goes down the stream for a board is either the full view (the state
without its record text) or, when the viewer already holds the board's
previous state, a delta that carries only the moves added since (with the
index they start at, which also covers a fixed or restarted game). Both are
serialised once per state and shared by every viewer.
"""
import asyncio
import json
import logging

from flagfall import live

log = logging.getLogger("flagfall.broadcast")

MAX_VIEWERS = 20000
NO_FIELD = object()
SKIP_IN_DELTA = ("moves", "clocks", "pgn", "seq", "ts")
RETRY_S = 0.05       # a viewer whose socket is full is tried again after this
RESTART_GAP_MS = 2000   # a lower seq made this much later than the held state is a restarted bridge
FLUSH_GAP_S = 0.02   # flushes at most this often: under load, states batch into fewer writes


def _view(state):
    """The state as viewers get it: everything but the full record text."""
    v = dict(state)
    v.pop("pgn", None)
    return v


def _common_prefix(a, b):
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _sse(event, obj):
    return ("event: %s\ndata: %s\n\n" % (event, live.dumps(obj))).encode()


class Entry:
    """One board as the hub holds it."""

    __slots__ = ("key", "state", "seq", "prev_seq", "full", "delta", "updated")

    def __init__(self, key, state, prev=None):
        self.key = key
        self.state = state
        self.seq = state["seq"]
        self.prev_seq = prev.seq if prev is not None else None
        k = "/".join(key)
        v = _view(state)
        v["k"] = k
        v["full"] = 1
        self.full = _sse("s", v)
        self.delta = None
        if prev is not None:
            old = prev.state
            start = _common_prefix(old["moves"], state["moves"])
            # a delta carries what changed: new moves from `from`, and every other key whose value differs
            d = {"k": k, "seq": state["seq"], "ts": state["ts"], "from": start,
                 "moves": state["moves"][start:], "clocks": state["clocks"][start:]}
            for f, val in state.items():
                if f not in SKIP_IN_DELTA and old.get(f, NO_FIELD) != val:
                    d[f] = val
            self.delta = _sse("s", d)
        self.updated = live.now_ms()


class Viewer:
    """A live viewer: a filter, the boards changed since its last write, what it was last sent.

    A viewer with a `writer` (a callable(viewer) -> False if its socket is full) is
    written by the hub's flush, for every viewer at once; one without is woken
    through `wake` and writes from its own task.
    """

    __slots__ = ("filter", "pending", "sent", "wake", "closed", "writer")

    def __init__(self, flt):
        self.filter = flt
        self.pending = {}          # key -> True, insertion ordered
        self.sent = {}             # key -> seq last written
        self.wake = asyncio.Event()
        self.closed = False
        self.writer = None

    def take(self, hub):
        """Bytes to write for every pending board (deltas where possible); clears the pending set."""
        out = []
        pending, self.pending = self.pending, {}
        for key in pending:
            e = hub.boards.get(key)
            if e is None:
                continue
            if e.delta is not None and self.sent.get(key) == e.prev_seq:
                out.append(e.delta)
            else:
                out.append(e.full)
            self.sent[key] = e.seq
        return b"".join(out)


class Hub:
    """Latest states, viewers, and the way arbiter commands reach each board's bridge."""

    def __init__(self, loop=None):
        self.boards = {}
        self.subs = {}             # filter tuple -> set of viewers
        self.nviewers = 0
        self.loop = loop
        self.command_handlers = {}  # key -> callable(cmd) -> reply dict (in-process bridges)
        self.command_sink = None    # callable(key, cmd) -> reply dict for every other board (MQTT)
        self.received = 0
        self.dropped_old = 0
        self.rejected = 0
        self.restarts = 0
        self.listeners = []         # callables(entry) run after each accepted state
        self.dirty = set()          # viewers with a writer and something pending
        self.flush_handle = None
        self.last_flush = 0.0
        self.flushes = 0

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
        e = Entry(key, state, prev)
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
        dirty = self.dirty
        for flt in ((None, None, None), (t, None, None), (t, r, None), (t, r, b)):
            vs = self.subs.get(flt)
            if vs:
                for v in vs:
                    v.pending[key] = True
                    if v.writer is not None:
                        dirty.add(v)
                    else:
                        v.wake.set()
        if dirty and self.flush_handle is None:
            self._schedule(None)

    def _schedule(self, delay):
        loop = self.loop
        if loop is None:
            try:
                loop = self.loop = asyncio.get_running_loop()
            except RuntimeError:
                return
        if delay is None:
            delay = self.last_flush + FLUSH_GAP_S - loop.time()
        if delay > 0:
            self.flush_handle = loop.call_later(delay, self.flush)
        else:
            self.flush_handle = loop.call_soon(self.flush)

    def flush(self):
        """Write every viewer that has something pending (states that came in together go out together)."""
        self.flush_handle = None
        if self.loop is not None:
            self.last_flush = self.loop.time()
        self.flushes += 1
        dirty, self.dirty = self.dirty, set()
        for v in dirty:
            if v.closed or v.writer is None:
                continue
            if v.writer(v) is False:
                self.dirty.add(v)      # its socket is full: keep what is pending, coalesce, retry
        if self.dirty:
            self._schedule(RETRY_S)

    def attach_writer(self, v, writer):
        """From now on the hub writes viewer v itself, through writer(v)."""
        v.writer = writer
        if v.pending:
            self.dirty.add(v)
            if self.flush_handle is None:
                self._schedule(None)

    # -- viewers -----------------------------------------------------------

    def subscribe(self, tournament=None, round_=None, board=None):
        """A new viewer of everything, a tournament, a round or one board; all matching boards pending."""
        if self.nviewers >= MAX_VIEWERS:
            raise OverflowError("too many viewers (%d)" % MAX_VIEWERS)
        flt = (tournament, round_, board)
        v = Viewer(flt)
        self.subs.setdefault(flt, set()).add(v)
        self.nviewers += 1
        for key in self.matching(tournament, round_, board):
            v.pending[key] = True
        if v.pending:
            v.wake.set()
        return v

    def unsubscribe(self, v):
        """Forget a viewer."""
        vs = self.subs.get(v.filter)
        if vs and v in vs:
            vs.discard(v)
            self.nviewers -= 1
            if not vs:
                del self.subs[v.filter]
        v.closed = True
        v.writer = None
        self.dirty.discard(v)
        v.wake.set()

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
                "dropped_old": self.dropped_old, "rejected": self.rejected, "flushes": self.flushes}


def _board_order(key):
    """Sort boards naturally: board '10' after board '9'."""
    t, r, b = key
    return (t, _nat(r), _nat(b))


def _nat(s):
    return (0, int(s), "") if s.isdigit() else (1, 0, s)
