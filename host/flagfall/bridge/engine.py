"""The bridge engine: device frames in, journal + game + records + live state out.

BridgeEngine is what both the live session (session.py, a real or simulated
device over pyserial) and `flagfall replay` drive. It is transport-free:
the caller hands it decoded frames with a host time `t` (ms), calls tick(t)
regularly, and gets outgoing host frames through the `send` callback.

Order of work for every input (the "lose nothing" rule):
    1. the input is appended to the journal and fsync'd;
    2. the Game decides;
    3. each decision is appended to the journal and fsync'd;
    4. only then: record file rewritten, clock penalty sent, state published.
resume() rebuilds an engine from its journal by feeding the same inputs again
(steps 3-4 skipped), then rewrites the record once.

The engine holds one board's state and acts on the decisions; each concept it hands work to lives
in its own module, over the engine's members that module's `Engine` protocol lists:
    clockfeed      the device's clock: CLK readings and the presses they show, edits at the clock,
                   flags checked against the readings, the clock handed to the side to move
    arbiter        the arbiter's actions (command() journals them, arbiter.carry_out decides)
    journalreplay  the engine rebuilt from its journal (resume() and rebuilt() below call it)
    boardstate     the live-state message (state()) and the board's status and alert
    boardsetup     what the board plays (BoardSetup, the journal's header)

Sensor indices on the wire map to the game's squares (see docs/bridge.md):
sensor = row * cols + col, row 0 the top row as the first player (White,
Red, Light) sees the board, the same orientation as the live-state grid; a
"dark" layout numbers only the playing squares, left to right in each row,
so sensor i is draughts square i + 1.
"""
from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

from flagcore import clock as clockmod
from flagcore import wire

from flagfall.bridge import arbiter, boardstate, clockfeed, entries
from flagfall.bridge import decisions as D
from flagfall.bridge import journal as jmod
from flagfall.bridge import journalreplay
from flagfall.bridge import records
from flagfall.bridge.boardsetup import BoardSetup, Publish, Send
from flagfall.bridge.game import Game

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter, Square

CLOCK_BUTTONS = ("white", "black", "rocker", "start")
STORAGE_RETRY_MS = 2000    # how often a refused journal or record write is tried again
SILENT_MS = boardstate.SILENT_MS


def sensor_map(adapter: GameAdapter, rows: int, cols: int, layout: str = "full") -> list[Optional[Square]]:
    """List: sensor index -> game square (None for a sensor that is not a playing square)."""
    return adapter.sensor_map(rows, cols, layout)


def default_geometry(adapter: GameAdapter) -> tuple[int, int, str]:
    """(rows, cols, layout) of the board a game is normally played on."""
    return adapter.rows, adapter.cols, adapter.spec.layouts[0]


class BridgeEngine:
    """One board's bridge (see the module docstring)."""

    def __init__(self, game: Union[str, BoardSetup] = "chess", journal_path: Optional[str] = None,
                 out_dir: Optional[str] = None, *, send: Optional[Send] = None, publish: Optional[Publish] = None,
                 fsync: bool = True, record_name: Optional[str] = None,
                 header_extra: Optional[dict[str, Any]] = None, mirror: Optional[str] = None,
                 **setup: Any) -> None:
        """game: a BoardSetup, or a game name with the BoardSetup fields as keywords (tags, tc, fen,
        clock_mode, settle_ms, penalties, armageddon, identity); mirror: a second copy of the journal."""
        if isinstance(game, BoardSetup):
            if setup:
                raise TypeError("BridgeEngine: give a BoardSetup or its fields, not both (%s)" % ", ".join(setup))
            board = game
        else:
            board = BoardSetup(game, **setup)
        self.setup = board
        self.header: dict[str, Any] = board.header()
        if header_extra:
            self.header.update(header_extra)
        clock_mode = board.clock_mode
        self.game = Game(board.game, clock_mode=bool(clock_mode) if clock_mode is not None else False,
                         settle_ms=board.settle_ms, fen=board.fen, tags=board.tags, tc=board.tc,
                         penalties=board.penalties, armageddon=board.armageddon, laws=board.laws)
        self.auto_clock = clock_mode is None
        self.send = send
        self.publish = publish
        self.out_dir = out_dir
        self.record_path: Optional[str] = None
        if out_dir:
            name = record_name or records.safe_name("%s-%s" % (board.game, time.strftime("%Y%m%d-%H%M%S")))
            self.record_path = os.path.join(out_dir, "%s.%s" % (name, records.extension(board.game)))
            self.header["record"] = jmod.stored_record_path(self.record_path, journal_path)
        self.journal: Optional[jmod.Journal] = None
        self.unwritten: list[dict[str, Any]] = []          # journal entries the disk refused, written again in order
        self.record_dirty = False    # the record file lags the game (the disk refused it)
        self.storage_alert: Optional[str] = None    # why, while it does
        self.storage_retry_at = 0
        self.on_storage: Optional[Callable[[str], object]] = None       # callback(text) when storage fails or recovers (the CLI prints it)
        self.device_status = ""      # the clock's state word from its last CLK (ready, running, menu, confirm, ...)
        self.battery: Optional[tuple[int, bool]] = None   # the device's battery: (percent, low), if measured
        if journal_path:
            journal: jmod.Journal = jmod.Journal(journal_path, fsync=fsync, mirror=mirror).open()
            self.journal = journal
            if journal.new:      # a new journal (its copies hold nothing yet, or their disks refused even the file)
                self.unwritten.append(self.header)      # a full disk keeps it in memory, as any entry
                self._flush_journal()
        self.replaying = False
        self.resume_note: Optional[str] = None   # resume(): what the record file on disk said, if it differed
        self.hello: Optional[dict[str, Any]] = None
        self.hello_problem: Optional[str] = None
        r, c, lay = default_geometry(self.game.adapter)
        self.smap = sensor_map(self.game.adapter, r, c, lay)
        self.clk_prev: Optional[tuple[int, int]] = None       # (state, to_move) of the last CLK frame
        # the clock's move counters when a press made while the bridge was away was taken from a reading
        self.reconnect_press_counts: Optional[tuple[int, ...]] = None
        self.press_base: Optional[int] = None     # clock move count when the record had no moves
        self.last_clock_snap: Optional[str] = None  # the device clock's last snapshot text (for RESTORE)
        self.restore_pending = False
        self.flag_seen = False
        self.started = False       # first snapshot checked
        self.published_clock: Optional[tuple[object, ...]] = None  # clock signature of the last published state
        self.start_problem: Optional[str] = None
        self.seq = 0
        self.link_up = False
        self.frames = 0
        self.quarantined: list[str] = []    # journaled frames resume skipped, and why (journalreplay.replay_frame)
        # the device's last CLK reading: (tick, state, to_move, (white_ms, black_ms), delay left), for
        # checking a flag against it (None until a reading on this connection)
        self.reading: Optional[tuple[int, int, int, tuple[int, int], int]] = None
        self.device_clock: Optional[clockmod.Clock] = None   # the clock of the last CLK's snapshot
        self.hand_over: Optional[int] = None    # resume_clock: the side to hand the clock to once it reads paused
        self.device_result: Optional[tuple[str, str]] = None   # (result, reason) a finished clock holds
        self.rejected = 0                   # frames and lines from the device refused
        self.rejected_last: Optional[str] = None    # ... and why the last one was
        self.frame_alert: Optional[str] = None      # a refused frame that would have decided the game
        self.warn: Optional[Callable[[str], object]] = None   # callback(text) for a WARN line (the session's log)
        self.last_frame_t: Optional[int] = None     # host time of the device's last frame
        self.silent: Optional[str] = None           # why the board is "silent" (SILENT_MS), while it is
        self.command_note: Optional[str] = None     # what the reply to the last arbiter command adds

    # ---------------------------------------------------------------- inputs

    def append_journal(self, entry: dict[str, Any]) -> None:
        """Journal an entry (an input, a decision, a note) unless replaying; a disk that refuses it keeps
        it in memory, written again in order (retry_storage)."""
        if self.journal is not None and not self.replaying:
            self.unwritten.append(entry)
            self._flush_journal()

    def _flush_journal(self) -> bool:
        """Append what the journal still lacks, in order; False (and kept in memory) if the disk refuses."""
        while self.unwritten and self.journal is not None:
            try:
                self.journal.append(self.unwritten[0])
            except OSError as e:
                self._storage_failed("the journal", e)
                return False
            self.unwritten.pop(0)
        self._storage_recovered()
        return True

    def _storage_failed(self, what: str, err: OSError) -> None:
        self.storage_retry_at = self.game.last_t + STORAGE_RETRY_MS
        if self.storage_alert is not None and self.unwritten and what != "the journal":
            return      # the journal's refusal stays the alert: its entries are the ones held in memory
        text = ("cannot write %s (%s): the game goes on, every move is kept in memory and written "
                "again when the disk allows" % (what, err.strerror or err))
        said = self.storage_alert is not None     # said once when it starts (the event repeats it every minute)
        self.storage_alert = text
        if not said and self.on_storage is not None:
            self.on_storage(text)

    def _storage_recovered(self) -> None:
        if self.storage_alert is not None and not self.unwritten and not self.record_dirty:
            self.storage_alert = None
            if self.on_storage is not None:
                self.on_storage("storage: the journal and the record are written again, nothing lost")

    def retry_storage(self, t: Optional[int] = None) -> bool:
        """Write what the disk refused before (journal entries first, then the record); True if done.
        `t`: the host time (default: the game's last)."""
        if t is None:
            t = self.game.last_t
        self.storage_retry_at = t + STORAGE_RETRY_MS
        if self.journal is not None and self.unwritten and not self._flush_journal():
            return False
        if self.record_dirty:
            self.write_record()
        return self.storage_alert is None

    def frame(self, t: int, kind: str, values: Sequence[Any], raw: Optional[str] = None) -> list[D.Decision]:
        """A decoded device frame (seq, kind, values as wire.decode gives) received at host time t.

        A frame that contradicts the clock's own state (clockfeed.clock_problem: a flag while the flagged
        side had time left, an impossible reading) is refused: journaled as a `reject` note,
        counted, warned about, and the game goes on."""
        if raw is None:
            raw = wire.encode(0, kind, values).decode().rstrip("\n")
        self._heard(t)
        why = clockfeed.clock_problem(self, kind, values)
        if why is not None:
            self.reject(t, why, {"raw": raw}, decisive=kind == "FLAG", say=True)
            return []
        self.append_journal({"k": "f", "t": t, "raw": raw})
        self.frames += 1
        return self._act(self.apply_frame(t, kind, values))

    def reject(self, t: int, why: str, entry: dict[str, Any], decisive: bool = False, say: bool = False) -> None:
        """A line or frame from the device refused: journaled as a `reject` note (with entry's raw text or
        line), counted (rejected, rejected_last), said on the WARN callback if `say` (the session says
        its own); a refused frame that would have decided the game (decisive) also raises frame_alert
        until the game moves on."""
        self.append_journal(dict(entry, k="reject", t=t, why=why))
        self.rejected += 1
        self.rejected_last = why
        if say and self.warn is not None:
            self.warn("frame refused: %s: %s" % (why, str(entry.get("raw", ""))[:120]))
        if decisive:
            self.frame_alert = "refused: %s; the game goes on" % why
            if self.publish is not None and self.started and not self.replaying:
                self._publish([])

    def frame_problem(self, kind: str, values: Sequence[Any]) -> Optional[str]:
        """Why a decoded device frame does not fit what the bridge knows of the device, or None.

        wire.decode has already checked every field's range (flagcore.wirelimits.LIMITS); this checks what
        depends on the device: a SNAP must report every sensor of the HELLO's grid (or none:
        a clock without a board), an SQ's sensors must be on it, and a HELLO may not change
        the board's size, layout or game once the game has begun.
        """
        hello = self.hello
        n = hello["rows"] * hello["cols"] if hello is not None else len(self.smap)
        if kind == "SNAP":
            if values[1] not in (0, n):
                return "SNAP reports %d sensors, the board has %d" % (values[1], n)
        elif kind == "SQ":
            for sensor, _ in values[1:]:
                if sensor >= n:
                    return "SQ sensor %d is outside the board's %d sensors" % (sensor, n)
        elif kind == "HELLO" and hello is not None and not self.hello_problem:
            g = self.game
            was = (hello["game"], hello["rows"], hello["cols"], hello["layout"])
            now = (values[3], values[4], values[5], values[6])
            if was != now and (g.moves or self.started):
                return ("HELLO changes the board in mid-game (%s %dx%d %s, was %s %dx%d %s); if the board "
                        "was really replaced, restart the bridge" % (now + was))
        return None

    def _heard(self, t: int) -> None:
        """The device sent something: it is not silent (any more)."""
        self.last_frame_t = t
        if self.silent is not None:
            self.silent = None
            self.append_journal({"k": "silent", "t": t, "state": "over"})
            if self.warn is not None:
                self.warn("the device speaks again")

    def apply_frame(self, t: int, kind: str, values: Sequence[Any]) -> list[D.Decision]:
        """Carry out a decoded frame without journaling it or acting on the device (resuming
        from the journal, which already holds it); returns the decisions."""
        decs = self._frame(t, kind, values)
        clockfeed.count_presses(self, decs)
        return decs

    def frame_line(self, t: int, line: Union[bytes, str]) -> list[D.Decision]:
        """A raw frame line (bytes or str): decoded, journaled, handled. WireError if malformed."""
        if isinstance(line, str):
            line = line.encode()
        seq, kind, values = wire.decode(line, wire.DEVICE_KINDS)
        return self.frame(t, kind, values, line.decode().rstrip("\r\n"))

    def tick(self, t: int) -> list[D.Decision]:
        """Let time pass; a settle evaluation that is due is journaled first."""
        if self.storage_alert is not None and t >= self.storage_retry_at and not self.replaying:
            if self.retry_storage(t) and self.publish is not None:
                self._publish([])
        self._check_silence(t)
        if not self.game.due(t):
            return []
        self.append_journal({"k": "tick", "t": t})
        decs = self.game.tick(t)
        clockfeed.count_presses(self, decs)
        return self._act(decs)

    def _check_silence(self, t: int) -> None:
        """The heartbeat: while the game's clock runs the device reports every second; no frame for
        SILENT_MS makes the board silent (a note in the journal, a WARN, the state's status)."""
        if self.silent is not None or self.replaying or not self.link_up or self.last_frame_t is None:
            return
        r = self.reading
        if r is None or r[1] != clockfeed.RUNNING or self.game.result != "*" or t - self.last_frame_t <= SILENT_MS:
            return
        self.silent = ("the device has sent nothing for %d s while its clock runs: check its cable and power "
                       "(moves made meanwhile are found when it speaks again)" % ((t - self.last_frame_t) // 1000))
        self.append_journal({"k": "silent", "t": t, "state": "begun", "why": self.silent})
        if self.warn is not None:
            self.warn(self.silent)
        if self.publish is not None:
            self._publish([])

    def operator(self, t: int, cmd: str, *args: Union[str, int]) -> list[D.Decision]:
        """An operator command (see Game.operator)."""
        self.append_journal({"k": "op", "t": t, "cmd": cmd, "args": [str(a) for a in args]})
        decs = self.game.operator(t, cmd, *args)
        clockfeed.count_presses(self, decs)
        return self._act(decs)

    def command(self, t: int, cmd: object) -> dict[str, Any]:
        """An arbiter command of docs/live-state.md ({"action": ...}); returns {"ok": True, "text": ...}.

        Journaled first, like every input. Raises ValueError (the text says why) for a
        malformed command or one the bridge cannot carry out on a live board.
        """
        from flagfall import live
        valid = live.validate_command(cmd)
        self.append_journal({"k": "cmd", "t": t, "cmd": valid})
        self.command_note = None
        decs, why = arbiter.carry_out(self, t, valid)
        clockfeed.count_presses(self, decs)
        self._act(decs)
        if why and valid["action"] in ("penalty", "resume"):
            raise arbiter.NotNow(why)          # a penalty only for the illegal-move alert that is up; a device that listens
        if why:
            raise ValueError(why)
        text = "; ".join(d.text or d.describe() for d in decs if d.kind != D.INFO)
        note = self.command_note
        if note:
            text = "%s (%s)" % (text, note) if text else note
        return {"ok": True, "text": text or "done"}

    def link(self, t: int, up: bool) -> list[D.Decision]:
        """The device connection went up or down."""
        self.append_journal({"k": "link", "t": t, "state": "up" if up else "down"})
        self.link_up = up
        self.clk_prev = None         # no press to infer across the change (resume does the same)
        self.reading = None          # a flag is checked against a reading of this connection
        if not up:
            self.silent = None       # unplugged says more than silent
        else:
            self.last_frame_t = t    # the heartbeat counts from the connection
        return self._act([])

    # ---------------------------------------------------------------- frames

    def _frame(self, t: int, kind: str, values: Sequence[Any]) -> list[D.Decision]:
        g = self.game
        if kind == "SQ":
            out: list[D.Decision] = []
            for sensor, down in values[1:]:
                sq = self.smap[sensor] if 0 <= sensor < len(self.smap) else None
                if sq is None:
                    out += g.emit([D.Decision(D.INFO, t, text="sensor %d is not a playing square" % sensor)])
                    continue
                out += g.square(t, sq, bool(down))
            if self.start_problem and not g.moves and set(g.tracker.cur) == set(g.adapter.occupancy()):
                # the pieces are on their start squares now
                self.start_problem = None
                out += g.emit([D.Decision(D.INFO, t, text="start position set up")])
                if g.alert and g.alert.startswith("start position differs"):
                    g.alert = None
                    out += g.emit([D.Decision(D.CLEAR, t)])
            return out
        if kind == "SNAP":
            n = values[1]
            if n == 0:
                return []
            bits = wire.unhexbits(values[2], n)
            occ = set(sq for sq in (self.smap[i] for i in range(min(n, len(self.smap))) if bits[i]) if sq is not None)
            return self.board_snapshot(t, occ)
        if kind == "CLK":
            return clockfeed.on_reading(self, t, values)
        if kind == "FLAG":
            return clockfeed.on_flag(self, t, values[1])
        if kind == "BTN":
            name = values[1]
            if name in CLOCK_BUTTONS:
                return []      # the device's clock acts on it; its CLK frame tells us
            if name == "mode" and g.moves and g.adapter.is_promotion(g.moves[-1].move):
                return entries.fix_promotion(g, t, len(g.moves) - 1, g.adapter.next_promotion(g.moves[-1].move))
            return g.button(t, name)
        if kind == "HELLO":
            return self._hello(t, values)
        if kind == "WARN":
            return g.emit([D.Decision(D.INFO, t, text="device warning %s: %s" % (values[0], values[1]))])
        if kind == "EDIT":
            return clockfeed.clock_edit(self, t, values)
        return []

    def _hello(self, t: int, values: Sequence[Any]) -> list[D.Decision]:
        fw, proto, profile, game, rows, cols, layout = values[:7]    # then the battery (newer firmware)
        self.clk_prev = None     # a new connection or a rebooted device: no press to infer from
        self.reading = None      # ... and no reading to check a flag against (its ticks may restart)
        if self.hello is not None and self.last_clock_snap:
            self.restore_pending = True   # if the clock comes back blank, the device rebooted
        # the protocol's revision (wire.REVISION): a device from before HELLO carried it is revision 1
        revision = values[9] if len(values) > 9 else 1
        self.hello = {"firmware": fw, "protocol": proto, "profile": profile, "game": game,
                      "rows": rows, "cols": cols, "layout": layout, "revision": revision}
        a = self.game.adapter
        problems: list[str] = []
        if proto != wire.VERSION:
            problems.append("protocol %d, this bridge speaks %d" % (proto, wire.VERSION))
        elif revision < wire.MIN_REVISION:
            problems.append("firmware %s speaks protocol revision %d, too old for this bridge (revision %d and "
                            "later): update the firmware (make deploy)" % (fw, revision, wire.MIN_REVISION))
        need = (a.rows, a.cols)
        # a dark-squares-only grid reports half the columns (docs/protocol.md, HELLO)
        full_cols = cols * 2 if layout == "dark" else cols
        if need and (rows < need[0] or full_cols < need[1]):
            problems.append("board %dx%d (%s) is too small for %s (%dx%d)"
                            % (rows, cols, layout, self.game.name, need[0], need[1]))
        if layout not in a.spec.layouts:
            problems.append("a %s-layout board cannot follow %s" % (layout, a.spec.title))
        self.hello_problem = "; ".join(problems) or None
        if self.hello_problem:
            return self.game.set_alert(t, "device does not fit: " + self.hello_problem)
        if layout == "dark" and need:
            rows, cols = need
        self.smap = sensor_map(a, rows, cols, layout)
        return self.game.emit([D.Decision(D.INFO, t, text="device %s firmware %s (%s, %dx%d %s)"
                                          % (profile, fw, game, rows, cols, layout))])

    def board_snapshot(self, t: int, occ: set[Square]) -> list[D.Decision]:
        """The pieces a snapshot of the board shows: the first, before any move, is checked against the
        start position (start_problem, and an alert while they differ)."""
        g = self.game
        if not self.started and not g.moves:
            self.started = True
            missing, extra = g.start_differences(occ)
            out = g.snapshot(t, occ)
            if missing or extra:
                names = g.adapter.name
                parts: list[str] = []
                if missing:
                    parts.append("put a piece on %s" % ", ".join(names(s) for s in missing))
                if extra:
                    parts.append("clear %s" % ", ".join(names(s) for s in extra))
                self.start_problem = "; ".join(parts)
                out += g.set_alert(t, "start position differs: " + self.start_problem)
            return out
        return g.snapshot(t, occ)

    def clock_disagrees(self) -> Optional[int]:
        """The side to move, when the device's clock has the other side on move (clockfeed.clock_disagrees)."""
        return clockfeed.clock_disagrees(self)

    # ---------------------------------------------------------------- acting

    def _act(self, decs: list[D.Decision]) -> list[D.Decision]:
        if self.replaying:
            return decs
        if self.journal is not None:
            for d in decs:
                self.append_journal(dict(d.as_dict(), k="d", kind=d.kind))
        changed = False
        for d in decs:
            if d.kind in D.RECORD_CHANGES:
                changed = True
            if d.kind in (D.MOVE, D.RESULT):
                self.frame_alert = None      # a refused frame's alert lasts until the game moves on
            if self.send is not None:
                for kind, values in clockfeed.frames_for(self.game, d):
                    self.send(kind, values)
        publishing = False
        if self.publish is not None:
            # viewers count the running clock down themselves, so a clock that starts,
            # pauses, flags or credits an increment is worth a state even with no decision
            sig = self._clock_signature()
            publishing = bool(decs) or (self.started and sig != self.published_clock)
            if publishing:
                self.published_clock = sig
        # the record's text is built once: the file and the published state carry the same text
        text = records.record_text(self.game) if publishing or (changed and self.record_path) else None
        if changed:
            self.write_record(text)
        if publishing:
            self._publish(decs, text)
        return decs

    def _publish(self, decs: list[D.Decision], record: Optional[str] = None) -> None:
        assert self.publish is not None
        self.publish(self.next_state(record), decs)

    def next_state(self, record: Optional[str] = None) -> dict[str, Any]:
        """The state to publish now: state() with the sequence number advanced (viewers keep the newest)."""
        self.seq += 1
        return self.state(record)

    def _clock_signature(self) -> tuple[object, ...]:
        c = self.game.clock
        running = c.get("running")
        return (running, c.get("flag"), c.get("white_ms") if running != "white" else None,
                c.get("black_ms") if running != "black" else None)

    def write_record(self, text: Optional[str] = None) -> None:
        """Rewrite the record file (atomically) from the game so far (`text`: its record, when already
        built); a disk that refuses is retried."""
        if self.record_path:
            try:
                records.write_atomic(self.record_path, records.record_text(self.game) if text is None else text,
                                     fsync=self.journal is not None and self.journal.fsync)
            except OSError as e:
                self.record_dirty = True
                self._storage_failed("the record " + self.record_path, e)
                return
            self.record_dirty = False
            self._storage_recovered()

    def result(self) -> str:
        """The game's result ('*' while it goes on)."""
        return self.game.result

    def plies(self) -> int:
        """The moves of the game so far, in plies."""
        return len(self.game.moves)

    def decision_count(self) -> int:
        """How many decisions the game has made (before an action: decisions(since=) then gives its own)."""
        return len(self.game.decisions)

    def decisions(self, since: int = 0) -> list[D.Decision]:
        """The game's decisions from index `since` on."""
        return self.game.decisions[since:]

    def game_alert(self) -> Optional[str]:
        """The game's own alert (an illegal move, a position to set up ...), without alert()'s others."""
        return self.game.alert

    def writes_refused(self) -> Optional[str]:
        """Why the disk refuses the journal or the record now (both kept in memory and tried again), or None."""
        return self.storage_alert

    def journal_source(self) -> Optional[str]:
        """The journal copy that holds every entry (of a mirrored journal, the longer valid one), or None."""
        return self.journal.source if self.journal is not None else None

    def journal_note(self) -> Optional[str]:
        """What resume found when the journal's copies differed (and which one it followed), or None."""
        return self.journal.note if self.journal is not None else None

    def catch_up_journal(self) -> Optional[str]:
        """Write back to a journal copy whose disk refused what it lacks, if the disk takes it now; why a
        copy is still behind, or None."""
        j = self.journal
        if j is None:
            return None
        if j.problem:
            j.catch_up()
        return j.problem

    def enter_record_moves(self, t: int, texts: list[str]) -> Optional[bool]:
        """A kept record's moves (their texts) entered into a game that has none yet, once the device's
        board has been seen: True if every one went in (an alert that the start position differs is then
        cleared: the board shows the game's position, not a start to set up), False if not; None, with
        nothing done, while the board is not seen yet or the game has begun."""
        if not self.started or not self.fresh():
            return None
        self.operator(t, "moves", *texts)
        g = self.game
        if len(g.moves) == len(texts) and g.alert and g.alert.startswith("start position differs"):
            self.operator(t, "clear")
        return len(g.moves) == len(texts)

    def fresh(self) -> bool:
        """True while the game has neither a move nor a result (its clock may be set up and started)."""
        return not self.game.moves and self.game.result == "*"

    def clock_runs(self) -> bool:
        """True while the game's clock runs (as the device last reported it)."""
        return bool(self.game.clock.get("running"))

    def storage_problem(self) -> Optional[str]:
        """What of the journal and the record the disks do not take now, or None."""
        if self.storage_alert:
            return "%s (%d journal entries held in memory)" % (self.storage_alert, len(self.unwritten))
        return self.journal.problem if self.journal is not None else None

    def alert(self) -> Optional[str]:
        """The board's alert, the one the public state and the arbiter both read, or None. In this order,
        on purpose: the game's own alert first (an illegal move, a position to set up: play at the board
        waits for the arbiter), then a refused frame that would have decided the game (its result is in
        question), then what the disks do not take (the journal or the record held in memory, a journal
        copy behind: nothing is lost and the game goes on)."""
        copy = self.journal.problem if self.journal is not None else None
        storage = "; ".join(x for x in (copy, self.storage_alert) if x)
        return self.game.alert or self.frame_alert or storage or None

    def state(self, record: Optional[str] = None) -> dict[str, Any]:
        """The live-state message of docs/live-state.md, with the current sequence number (a query:
        next_state() advances it for a state to publish). `record`: the record's text, when already built
        (boardstate.live_state)."""
        return boardstate.live_state(self, record)

    def note(self, t: int, entry: dict[str, Any]) -> None:
        """Journal a note that is not an input ({"k": "arbiter", ...}: an arbiter's action on a
        dashboard and its outcome); a rebuild passes over it."""
        self.append_journal(dict(entry, k="arbiter", t=t))

    def close(self) -> None:
        """Close the journal."""
        if self.journal is not None:
            self.journal.close()


def _fresh(setup: BoardSetup, send: Optional[Send], publish: Optional[Publish], fsync: bool) -> BridgeEngine:
    """An engine for a journal's replay: no journal of its own yet, no record directory (the journal's
    header names the record)."""
    return BridgeEngine(setup, None, None, send=send, publish=publish, fsync=fsync)


def resume(journal_path: str, out_dir: Optional[str] = None, send: Optional[Send] = None,
           publish: Optional[Publish] = None, fsync: bool = True, mirror: Optional[str] = None) -> BridgeEngine:
    """A BridgeEngine rebuilt from its journal, ready to carry on appending to it (journalreplay.resume)."""
    return journalreplay.resume(_fresh, journal_path, out_dir, send, publish, fsync, mirror)


def rebuilt(journal_path: str) -> BridgeEngine:
    """A BridgeEngine replayed from its journal alone, nothing written, sent or published
    (journalreplay.rebuilt)."""
    return journalreplay.rebuilt(_fresh, journal_path)
