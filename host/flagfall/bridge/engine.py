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

Sensor indices on the wire map to the game's squares (see docs/bridge.md):
sensor = row * cols + col, row 0 the top row as the first player (White,
Red, Light) sees the board, the same orientation as the live-state grid; a
"dark" layout numbers only the playing squares, left to right in each row,
so sensor i is draughts square i + 1.
"""
import os
import time

from flagcore import clock as clockmod
from flagcore import wire

from flagfall.bridge import journal as jmod
from flagfall.bridge import records
from flagfall.bridge.game import Game

# (rows, cols) each game needs on the board
BOARD_SIZE = {"chess": (8, 8), "draughts": (10, 10), "international": (10, 10), "brazilian": (8, 8),
              "russian": (8, 8), "checkers": (8, 8)}
CLOCK_BUTTONS = ("white", "black", "rocker", "start")


def snapshot_clock(snap):
    """The device's clock rebuilt from the snapshot text of a CLK frame (flagcore.clock's format), or None."""
    if not snap:
        return None
    try:
        return clockmod.restore(snap, 0)
    except ValueError:       # ClockError, TimeControlError: an old or damaged snapshot
        return None


def sensor_map(adapter, rows, cols, layout="full"):
    """List: sensor index -> game square (None for a sensor that is not a playing square)."""
    g = adapter.game
    out = []
    if layout == "dark":
        n = rows * (cols // 2)
        for i in range(n):
            out.append(i + 1 if g != "chess" and g != "minzu" and i < adapter.nsquares else None)
        return out
    for r in range(rows):
        for c in range(cols):
            if g == "chess":
                out.append((7 - r) * 8 + c if r < 8 and c < 8 else None)
            elif g == "minzu":
                out.append(adapter.cell_at(r, c) if hasattr(adapter, "cell_at") else r * cols + c)
            else:
                # draughts on a full board: only the dark squares carry numbers
                size = adapter.rows
                if r < size and c < size and (r + c) % 2 == 1:
                    out.append(r * (size // 2) + c // 2 + 1)
                else:
                    out.append(None)
    return out


def default_geometry(adapter):
    """(rows, cols, layout) of the board a game is normally played on."""
    if adapter.game == "chess":
        return 8, 8, "full"
    if adapter.game == "minzu":
        return adapter.rows, adapter.cols, "full"
    return adapter.rows, adapter.cols, "dark"


class BridgeEngine:
    """One board's bridge (see the module docstring)."""

    def __init__(self, game="chess", journal_path=None, out_dir=None, clock_mode=None, settle_ms=1500,
                 tags=None, tc=None, fen=None, send=None, publish=None, fsync=True, identity=None,
                 record_name=None, header_extra=None):
        self.header = {"k": "header", "v": jmod.VERSION, "game": game, "settle_ms": settle_ms,
                       "clock_mode": clock_mode, "tags": dict(tags or {}), "tc": tc, "fen": fen,
                       "identity": identity or ["local", "1", "1"], "created": int(time.time() * 1000)}
        if header_extra:
            self.header.update(header_extra)
        self.game = Game(game, clock_mode=bool(clock_mode) if clock_mode is not None else False,
                         settle_ms=settle_ms, fen=fen, tags=tags, tc=tc)
        self.auto_clock = clock_mode is None
        self.send = send
        self.publish = publish
        self.out_dir = out_dir
        self.record_path = None
        if out_dir:
            name = record_name or records.safe_name("%s-%s" % (game, time.strftime("%Y%m%d-%H%M%S")))
            self.record_path = os.path.join(out_dir, "%s.%s" % (name, records.extension(game)))
            self.header["record"] = jmod.stored_record_path(self.record_path, journal_path)
        self.journal = None
        if journal_path:
            self.journal = jmod.Journal(journal_path, fsync=fsync).open()
            if self.journal.f.tell() == 0:
                self.journal.append(self.header)
        self.replaying = False
        self.hello = None
        self.hello_problem = None
        r, c, lay = default_geometry(self.game.adapter)
        self.smap = sensor_map(self.game.adapter, r, c, lay)
        self.clk_prev = None       # (state, to_move) of the last CLK frame
        self.press_base = None     # clock move count when the record had no moves
        self.last_clock_snap = None  # the device clock's last snapshot text (for RESTORE)
        self.restore_pending = False
        self.flag_seen = False
        self.started = False       # first snapshot checked
        self.published_clock = None  # clock signature of the last published state
        self.start_problem = None
        self.seq = 0
        self.link_up = False
        self.frames = 0

    # ---------------------------------------------------------------- inputs

    def _log(self, entry):
        if self.journal is not None and not self.replaying:
            self.journal.append(entry)

    def frame(self, t, kind, values, raw=None):
        """A decoded device frame (seq, kind, values as wire.decode gives) received at host time t."""
        if raw is None:
            raw = wire.encode(0, kind, values).decode().rstrip("\n")
        self._log({"k": "f", "t": t, "raw": raw})
        self.frames += 1
        return self._act(self._handle(t, kind, values))

    def _handle(self, t, kind, values):
        decs = self._frame(t, kind, values)
        self._count(decs)
        return decs

    def frame_line(self, t, line):
        """A raw frame line (bytes or str): decoded, journaled, handled. WireError if malformed."""
        if isinstance(line, str):
            line = line.encode()
        seq, kind, values = wire.decode(line, wire.DEVICE_KINDS)
        return self.frame(t, kind, values, line.decode().rstrip("\r\n"))

    def tick(self, t):
        """Let time pass; a settle evaluation that is due is journaled first."""
        if not self.game.due(t):
            return []
        self._log({"k": "tick", "t": t})
        decs = self.game.tick(t)
        self._count(decs)
        return self._act(decs)

    def operator(self, t, cmd, *args):
        """An operator command (see Game.operator)."""
        self._log({"k": "op", "t": t, "cmd": cmd, "args": [str(a) for a in args]})
        decs = self.game.operator(t, cmd, *args)
        self._count(decs)
        return self._act(decs)

    def command(self, t, cmd):
        """An arbiter command of docs/live-state.md ({"action": ...}); returns {"ok": True, "text": ...}.

        Journaled first, like every input. Raises ValueError (the text says why) for a
        malformed command or one the bridge cannot carry out on a live board.
        """
        from flagfall import live
        cmd = live.validate_command(cmd)
        self._log({"k": "cmd", "t": t, "cmd": cmd})
        decs, why = self._command(t, cmd)
        self._count(decs)
        self._act(decs)
        if why:
            raise ValueError(why)
        return {"ok": True, "text": "; ".join(d.get("text", d["k"]) for d in decs if d["k"] != "info") or "done"}

    def _command(self, t, cmd):
        """(decisions, refusal text or None) for a validated arbiter command."""
        g = self.game
        a = g.adapter
        act = cmd["action"]
        if act == "result":
            return g.operator(t, "result", cmd["result"], "arbiter"), None
        if act == "clock":
            return g._emit([{"k": "adjust", "t": t, "side": cmd["side"], "delta_ms": cmd["delta_ms"],
                             "text": "arbiter: %s %+d ms" % (cmd["side"], cmd["delta_ms"])}]), None
        if act == "promotion":
            for ply in range(len(g.moves) - 1, -1, -1):
                if a.is_promotion(g.moves[ply]["move"]):
                    decs = g.fix_promotion(t, ply, cmd["piece"])
                    return decs, None if any(d["k"] == "promotion" for d in decs) else decs[-1]["text"]
            return [], "no promotion in this game"
        if act == "fix_move":
            ply, text = cmd["ply"], cmd["move"]
            if ply == len(g.moves):
                decs = g.operator(t, "move", text)
                return decs, None if any(d["k"] == "move" for d in decs) else decs[-1]["text"]
            if ply < len(g.moves) and a.is_promotion(g.moves[ply]["move"]):
                piece = text.rstrip("+#")[-1:].lower()
                decs = g.fix_promotion(t, ply, piece)
                return decs, None if any(d["k"] == "promotion" for d in decs) else decs[-1]["text"]
            if ply == len(g.moves) - 1:
                decs = g.replace_last(t, text)
                return decs, None if any(d["k"] == "move" for d in decs) else decs[-1]["text"]
            return [], "only the last move, the next one or a promotion can be fixed on a live board"
        if act == "restart":
            fresh = Game(self.header["game"], clock_mode=g.clock_mode, settle_ms=g.settle_ms,
                         fen=self.header.get("fen"), tags=g.tags, tc=g.tc)
            occ = set(g.tracker.cur)
            self.game = fresh
            self.started = False
            self.press_base = None
            decs = fresh._emit([{"k": "restart", "t": t, "text": "arbiter: restart from the start position"}])
            decs += self._snapshot(t, occ)
            return decs, None
        return [], "unknown action %r" % act

    def link(self, t, up):
        """The device connection went up or down."""
        self._log({"k": "link", "t": t, "state": "up" if up else "down"})
        self.link_up = up
        if not up:
            self.clk_prev = None
        return self._act([])

    # ---------------------------------------------------------------- frames

    def _frame(self, t, kind, values):
        g = self.game
        if kind == "SQ":
            out = []
            for sensor, down in values[1:]:
                sq = self.smap[sensor] if 0 <= sensor < len(self.smap) else None
                if sq is None:
                    out += g._emit([{"k": "info", "t": t, "text": "sensor %d is not a playing square" % sensor}])
                    continue
                out += g.square(t, sq, bool(down))
            return out
        if kind == "SNAP":
            n = values[1]
            if n == 0:
                return []
            bits = wire.unhexbits(values[2], n)
            occ = set(self.smap[i] for i in range(min(n, len(self.smap))) if bits[i] and self.smap[i] is not None)
            return self._snapshot(t, occ)
        if kind == "CLK":
            return self._clock(t, values)
        if kind == "FLAG":
            self.flag_seen = True
            return g.flag(t, values[1])
        if kind == "BTN":
            name = values[1]
            if name in CLOCK_BUTTONS:
                return []      # the device's clock acts on it; its CLK frame tells us
            if name == "mode" and g.adapter.game == "chess":
                return self._cycle_promotion(t)
            return g.button(t, name)
        if kind == "HELLO":
            return self._hello(t, values)
        if kind == "WARN":
            return g._emit([{"k": "info", "t": t, "text": "device warning %s: %s" % (values[0], values[1])}])
        return []

    def _hello(self, t, values):
        fw, proto, profile, game, rows, cols, layout = values
        self.clk_prev = None     # a new connection or a rebooted device: no press to infer from
        if self.hello is not None and self.last_clock_snap:
            self.restore_pending = True   # if the clock comes back blank, the device rebooted
        self.hello = {"firmware": fw, "protocol": proto, "profile": profile, "game": game,
                      "rows": rows, "cols": cols, "layout": layout}
        a = self.game.adapter
        problems = []
        if proto != wire.VERSION:
            problems.append("protocol %d, this bridge speaks %d" % (proto, wire.VERSION))
        need = BOARD_SIZE.get(self.game.name)
        if a.game == "minzu":
            need = (a.rows, a.cols)
        # a dark-squares-only grid reports half the columns (docs/protocol.md, HELLO)
        full_cols = cols * 2 if layout == "dark" else cols
        if need and (rows < need[0] or full_cols < need[1]):
            problems.append("board %dx%d (%s) is too small for %s (%dx%d)"
                            % (rows, cols, layout, self.game.name, need[0], need[1]))
        if a.game == "chess" and layout == "dark":
            problems.append("a dark-squares-only board cannot follow chess")
        self.hello_problem = "; ".join(problems) or None
        if self.hello_problem:
            return self.game._set_alert(t, "device does not fit: " + self.hello_problem)
        if layout == "dark" and need:
            rows, cols = need
        self.smap = sensor_map(a, rows, cols, layout)
        return self.game._emit([{"k": "info", "t": t, "text": "device %s firmware %s (%s, %dx%d %s)"
                                 % (profile, fw, game, rows, cols, layout)}])

    def _snapshot(self, t, occ):
        g = self.game
        if not self.started and not g.moves:
            self.started = True
            missing, extra = g.start_differences(occ)
            out = g.snapshot(t, occ)
            if missing or extra:
                names = g.adapter.name
                parts = []
                if missing:
                    parts.append("put a piece on %s" % ", ".join(names(s) for s in missing))
                if extra:
                    parts.append("clear %s" % ", ".join(names(s) for s in extra))
                self.start_problem = "; ".join(parts)
                out += g._set_alert(t, "start position differs: " + self.start_problem)
            return out
        return g.snapshot(t, occ)

    def _clock(self, t, v):
        g = self.game
        tick, state, to_move, wms, bms, flag, wtext, btext, status, snap = v
        if self.auto_clock and not g.clock_mode:
            g.clock_mode = True
        running = ("white", "black")[to_move] if state == 1 else None
        g.clock_side = to_move if state == 1 else None
        g.clock_reading(t, wms, bms, running, ("white", "black")[flag] if flag >= 0 else None, (wtext, btext))
        snap_clock = snapshot_clock(snap)
        # simple delay: the running side's time stands still this long (for viewers)
        g.clock["delay_ms"] = snap_clock.delay_left if running and snap_clock is not None else 0
        out = []
        prev = self.clk_prev
        self.clk_prev = (state, to_move)
        if prev is not None and prev[0] == 1 and to_move != prev[1] and state in (1, 2):
            out += g.press(t, prev[1], (wms, bms))
        elif prev is None and state == 1 and g.moves_or_started() and to_move != g.adapter.side():
            # first reading after a (re)connect: the mover pressed while the cable was out
            out += g.press(t, g.adapter.side(), (wms, bms))
        if snap_clock is not None and state != 0:
            self.last_clock_snap = snap
            self.restore_pending = False
        elif self.restore_pending and state == 0 and self.last_clock_snap:
            # the device lost power mid-game: give its clock back (it comes back paused)
            self.restore_pending = False
            out += g._emit([{"k": "restore", "t": t, "snapshot": self.last_clock_snap,
                             "text": "the device restarted: clock restored from the last reading (paused)"}])
        if snap_clock is not None:
            total = snap_clock.moves[0] + snap_clock.moves[1]
            if self.press_base is None:
                self.press_base = total - len(g.moves)
            owed = total - self.press_base - len(g.moves)
            if (owed > 1 or (owed == 1 and g.tracker.gap)) and g.result == "*":
                out += g.catch_up(t, (wms, bms), owed)
            elif owed <= 0:
                g.owed = 0
        if flag >= 0 and not self.flag_seen:
            self.flag_seen = True
            out += g.flag(t, flag)
        return out

    def _count(self, decs):
        """Keep the clock's press count and the record in step: presses that added no move."""
        if self.press_base is None:
            return
        for d in decs:
            text = d.get("text", "") if d["k"] == "info" else ""
            if d["k"] in ("takeback", "penalty") or "no move was made" in text or d.get("stray"):
                self.press_base += 1

    def _cycle_promotion(self, t):
        g = self.game
        if g.moves and g.adapter.is_promotion(g.moves[-1]["move"]):
            from flagcore import chess as cc
            cur = cc.move_promotion(g.moves[-1]["move"])
            nxt = {cc.QUEEN: "r", cc.ROOK: "b", cc.BISHOP: "n", cc.KNIGHT: "q"}[cur]
            return g.fix_promotion(t, len(g.moves) - 1, nxt)
        return []

    # ---------------------------------------------------------------- acting

    def _act(self, decs):
        if self.replaying:
            return decs
        for d in decs:
            self._log(dict(d, k="d", kind=d["k"]))
        changed = False
        for d in decs:
            if d["k"] in ("move", "takeback", "result", "promotion", "restart"):
                changed = True
            if d["k"] == "penalty" and d.get("bonus_ms") and self.send is not None:
                self.send("ADJ", ["black" if d["side"] == 0 else "white", d["bonus_ms"]])
            if d["k"] == "restore" and self.send is not None:
                self.send("RESTORE", [d["snapshot"]])
            if d["k"] == "adjust" and self.send is not None:
                self.send("ADJ", [d["side"], d["delta_ms"]])
            if d["k"] == "restart" and self.send is not None:
                self.send("PAUSE", [])
                if self.game.tc:
                    self.send("TC", [self.game.tc])
        if changed:
            self.write_record()
        if self.publish is not None:
            # viewers count the running clock down themselves, so a clock that starts,
            # pauses, flags or credits an increment is worth a state even with no decision
            sig = self._clock_signature()
            if decs or (self.started and sig != self.published_clock):
                self.published_clock = sig
                self.publish(self.state(), decs)
        return decs

    def _clock_signature(self):
        c = self.game.clock
        running = c.get("running")
        return (running, c.get("flag"), c.get("white_ms") if running != "white" else None,
                c.get("black_ms") if running != "black" else None)

    def write_record(self):
        """Rewrite the record file (atomically) from the game so far."""
        if self.record_path:
            records.write_atomic(self.record_path, records.record_text(self.game),
                                 fsync=self.journal is not None and self.journal.fsync)

    def state(self):
        """The live-state message of docs/live-state.md."""
        from flagfall import live
        g = self.game
        a = g.adapter
        self.seq += 1
        clocks = []
        for m in g.moves:
            c = m.get("clocks") or (g.clock["white_ms"] or 0, g.clock["black_ms"] or 0)
            clocks.append([int(c[0] or 0), int(c[1] or 0)])
        last = []
        if g.moves:
            last = [list(a.cell(s)) for s in a.move_squares(g.moves[-1]["move"])]
        c = g.clock
        now = live.now_ms()
        at = c.get("at")
        # the reading's own time, so viewers count down from when it was true (replays run
        # on virtual time: there the publishing time stands in)
        at_ms = at if isinstance(at, int) and 0 <= now - at < 600000 else now
        clock = live.clock_object(c["white_ms"] or 0, c["black_ms"] or 0, c["running"], c["flag"],
                                  tc=g.tc or "-", at_ms=at_ms, delay_ms=c.get("delay_ms", 0))
        status = "finished" if g.result != "*" else ("alert" if g.alert else
                                                        ("playing" if self.link_up or self.hello is None
                                                         else "disconnected"))
        ident = self.header["identity"]
        game_name = a.game if a.game != "draughts" else "draughts"
        return live.make_state(ident[0], ident[1], ident[2], self.seq, game_name, a.position(), a.grid(),
                               moves=g.sans(), clocks=clocks, last_move=last,
                               to_move="white" if a.side() == 0 else "black", clock=clock,
                               result=g.result, status=status, alert=g.alert,
                               pgn=records.record_text(g), tags=g.tags, side_names=list(a.side_names))

    def close(self):
        """Close the journal."""
        if self.journal is not None:
            self.journal.close()


def resume(journal_path, out_dir=None, send=None, publish=None, fsync=True):
    """A BridgeEngine rebuilt from its journal, ready to carry on appending to it."""
    from flagfall.bridge import session as sessmod
    header, entries = jmod.load(journal_path)
    rec = jmod.record_path(header, journal_path)
    eng = BridgeEngine(header["game"], None, None, header.get("clock_mode"), header.get("settle_ms", 1500),
                       header.get("tags"), header.get("tc"), header.get("fen"), send, publish,
                       fsync, header.get("identity"))
    eng.header = header
    if rec:
        eng.record_path = rec
    elif out_dir:
        eng.record_path = os.path.join(out_dir, "%s.%s" % (records.safe_name(header["game"]),
                                                           records.extension(header["game"])))
    eng.replaying = True
    try:
        for e in entries:
            k = e.get("k")
            if k == "f":
                sessmod.replay_frame(eng, e)      # a frame that cannot be handled is skipped (quarantined)
            elif k == "tick":
                eng._count(eng.game.tick(e["t"]))
            elif k == "op":
                try:
                    eng._count(eng.game.operator(e["t"], e["cmd"], *e.get("args", [])))
                except ValueError:
                    pass          # refused when it was typed, after it was journaled
            elif k == "cmd":
                eng._count(eng._command(e["t"], e["cmd"])[0])
            elif k == "link":
                eng.link_up = e["state"] == "up"
                if not eng.link_up:
                    eng.clk_prev = None
    finally:
        eng.replaying = False
    why = jmod.check_decisions(entries, eng.game.decisions)
    if why:
        raise jmod.JournalError("%s %s" % (journal_path, why))
    eng.resume_note = jmod.check_record(eng.record_path, header["game"], records.record_text(eng.game))
    eng.journal = jmod.Journal(journal_path, fsync=fsync).open()
    eng.write_record()
    return eng
