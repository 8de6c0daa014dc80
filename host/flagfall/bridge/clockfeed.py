"""The device's clock as the bridge follows it: its readings (CLK), the presses they show, the changes an
arbiter makes at the clock (EDIT, and those found on reconnect), the flags it reports, and handing the
clock to the side to move for the arbiter's "resume clock".

The bridge engine (flagfall.bridge.engine.BridgeEngine) keeps the board's state; these functions read
and update the part of it listed in `Engine`, and return the game's decisions like the engine's own
handlers. Nothing here journals or sends a decision: the engine does that with what they return.
"""
from __future__ import annotations

from typing import Any, Optional, Protocol, Sequence, Union

from flagcore import clock as clockmod
from flagcore import display
from flagcore import timecontrol as tcmod
from flagcore.ticks import ticks_diff

from flagfall import data
from flagfall.bridge import decisions as D
from flagfall.bridge.boardsetup import Send
from flagfall.bridge.game import Game
from flagfall.tournament.model import DOUBLE_FORFEIT_RECORD

FROM_CLOCK = "entered on the clock"
CLOCK_RESULTS = {"1-0": 0, "0-1": 1, "1/2-1/2": None}   # the clock's result words -> the winner
CLOCK_WORDS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}     # a winner in the clock's result words
FLAG_TOLERANCE_MS = 1000
"""How far a flag may disagree with the clock's own readings. The flagged side's time, run down
from the device's last CLK reading over the ticks between that reading and the flag's tick (less
a simple delay still to run), must be at most this much: the device's clock is exact to the
millisecond, and one second covers a loop step and a reading taken just before a flag. A forged
or corrupted flag is off by minutes or hours (docs/bridge.md, "Frames that decide a game")."""
CLOCK_MS_LIMIT = 100 * 3600 * 1000
"""A clock reading above this (100 hours), or below 0, is no reading: the frame is refused."""
RUNNING = 1        # the CLK frame's state while the clock runs (flagcore.clock.RUNNING)
FINISHED = 5       # ... once the game is decided on the clock
TAKEN_REASONS = {"arbiter": FROM_CLOCK, "illegal": "illegal moves counted on the clock"}
"""A finished clock's reasons the bridge takes as the game's result (a flag is ruled by the rules;
the other words are the bridge's own RESULT, echoed)."""


def snapshot_clock(snap: Optional[str]) -> Optional[clockmod.Clock]:
    """The device's clock rebuilt from the snapshot text of a CLK frame (flagcore.clock's format), or None."""
    if not snap:
        return None
    try:
        return clockmod.restore(snap, 0)
    except ValueError:       # ClockError, TimeControlError: an old or damaged snapshot
        return None


def no_press_between(old: clockmod.Clock, new: clockmod.Clock) -> bool:
    """True if no clock press came between two snapshots of the same clock: the same side on move,
    the other side's clock has not run, and the side on move has used exactly the time its turn
    has used since (a press starts a new turn)."""
    s = new.to_move
    return (old.to_move == s and old.used[1 - s] == new.used[1 - s]
            and new.used[s] - old.used[s] == new.turn_used - old.turn_used >= 0)


def _winner_of(spec: Any, result: str) -> Any:
    """0, 1 or None for a finished result of the game; -1 for anything else ('*', a foreign text)."""
    try:
        return spec.winner_of(result)
    except ValueError:
        return -1


def _reason_word(reason: str) -> str:
    """One word for the clock's RESULT frame: flag, illegal, mate, rules, agreed, arbiter."""
    r = (reason or "").lower()
    for key, word in (("flag", "flag"), ("illegal", "illegal"), ("checkmate", "mate"), ("arbiter", "arbiter"),
                      ("forfeit", "arbiter"),
                      ("resign", "resigned"), ("agree", "agreed")):
        if key in r:
            return word
    return "rules" if r else "host"


class Engine(Protocol):
    """The engine's members the clock is followed through (the board's state, documented on BridgeEngine)."""

    game: Game
    send: Optional[Send]
    hello: Optional[dict[str, Any]]
    auto_clock: bool
    replaying: bool
    device_status: str
    battery: Optional[tuple[int, bool]]
    clk_prev: Optional[tuple[int, int]]
    reconnect_press_counts: Optional[tuple[int, ...]]
    press_base: Optional[int]
    last_clock_snap: Optional[str]
    restore_pending: bool
    flag_seen: bool
    reading: Optional[tuple[int, int, int, tuple[int, int], int]]
    device_clock: Optional[clockmod.Clock]
    hand_over: Optional[int]
    device_result: Optional[tuple[str, str]]


def clock_problem(engine: Engine, kind: str, values: Sequence[Any]) -> Optional[str]:
    """Why a frame contradicts the clock's own state, or None (docs/bridge.md, "Frames that decide
    a game"): a CLK whose times are impossible or disagree with its own snapshot; a FLAG whose
    side's time, run down from the last CLK reading to the flag's tick, is not at zero
    (FLAG_TOLERANCE_MS), or with no reading on this connection to check it against."""
    names = engine.game.adapter.side_names
    if kind == "CLK":
        tick, state, to_move, wms, bms, flag, wtext, btext, status, snap = values[:10]    # then the battery and the second flag (newer firmware)
        for side, ms in ((0, wms), (1, bms)):
            if not 0 <= ms <= CLOCK_MS_LIMIT:
                return ("CLK gives %s %d ms, an impossible time (a clock shows 0 to %d hours)"
                        % (names[side], ms, CLOCK_MS_LIMIT // 3600000))
        c = snapshot_clock(snap)
        if c is not None and ((c.shown_ms(0), c.shown_ms(1)) != (wms, bms)
                              or (-1 if c.flag is None else c.flag) != flag):
            return ("CLK times %d/%d ms (flag %d) disagree with its own snapshot (%d/%d ms, flag %s)"
                    % (wms, bms, flag, c.shown_ms(0), c.shown_ms(1), c.flag))
        return None
    if kind == "FLAG":
        tick, side, flag_tick = values
        r = engine.reading
        if r is None:
            return "FLAG for %s with no clock reading on this connection to check it against" % names[side]
        rtick, rstate, rmove, times, delay = r
        left = times[side]
        if rstate == RUNNING and rmove == side:
            left -= max(0, ticks_diff(flag_tick, rtick) - delay)
        if left > FLAG_TOLERANCE_MS:
            return ("FLAG for %s disagrees with the clock: its last reading leaves %s %s at the flag's tick"
                    % (names[side], names[side], display.format_ms(left)))
    return None


def on_reading(engine: Engine, t: int, v: Sequence[Any]) -> list[D.Decision]:
    """A CLK frame: the device clock's reading, its presses, counters and flags, taken into the game."""
    g = engine.game
    tick, state, to_move, wms, bms, flag, wtext, btext, status, snap = v[:10]
    engine.device_status = status     # "confirm": a result entered on the clock awaits a player
    if len(v) > 10:                 # newer firmware: the battery (-1: none measured) and a second flag
        engine.battery = (v[10], bool(v[11])) if v[10] >= 0 else None
        if v[12] >= 0 and flag >= 0:
            # both flags fell (play went on after the first): the record says which fell first
            g.tags["Flags"] = "both fell, %s's first" % g.adapter.side_names[flag]
    if engine.auto_clock and not g.clock_mode:
        g.clock_mode = True
    running = ("white", "black")[to_move] if state == 1 else None
    g.clock_side = to_move if state == 1 else None
    g.clock_reading(t, wms, bms, running, ("white", "black")[flag] if flag >= 0 else None, (wtext, btext))
    snap_clock = snapshot_clock(snap)
    if g.tc is None and snap_clock is not None and state != 0:
        # no control given to the bridge: the record's TimeControl is the one the clock plays
        g.tc = snap_clock.tc.text()
    # simple delay: the running side's time stands still this long (for viewers)
    g.clock["delay_ms"] = snap_clock.delay_left if running and snap_clock is not None else 0
    out: list[D.Decision] = []
    prev = engine.clk_prev
    engine.clk_prev = (state, to_move)
    engine.reading = (tick, state, to_move, (wms, bms), snap_clock.delay_left if snap_clock is not None else 0)
    g.clock_to_move = to_move
    if snap_clock is not None:
        # what the clock holds that the bridge did not see happen (it was away): taken now
        out += _held_by_clock(engine, t, tick, state, snap_clock, reconnect=prev is None)
        # the counters, and the time of the side not on move: it stands as it was after that
        # side's last press (the clock of a move the bridge may find only later, even in this
        # frame's press below)
        g.clock_counts = (snap_clock.moves[0], snap_clock.moves[1])
        if engine.press_base is not None:
            g.clock_owed = sum(g.clock_counts) - engine.press_base - len(g.moves)
        if state != 0:
            stood = 1 - to_move
            g.counted_clocks.setdefault((stood, snap_clock.moves[stood]), (wms, bms)[stood])
    if prev is not None and prev[0] == 1 and to_move != prev[1] and state in (1, 2):
        out += g.press(t, prev[1], (wms, bms))
    elif prev is None and state == 1 and g.moves_or_started() and to_move != g.adapter.side():
        # first reading after a (re)connect: the mover pressed while the cable was out. Once: a
        # reading can come before the device's HELLO, which starts a connection again, and the
        # press it showed is still the one waiting for its move while the counters stand
        counts = tuple(snap_clock.moves) if snap_clock is not None else None
        p = g.pending_press
        if not (p is not None and p[1] == g.adapter.side() and counts is not None
                and counts == engine.reconnect_press_counts):
            engine.reconnect_press_counts = counts
            out += g.press(t, g.adapter.side(), (wms, bms))
    if snap_clock is not None and state != 0:
        engine.last_clock_snap = snap
        engine.restore_pending = False
    elif engine.restore_pending and state == 0 and engine.last_clock_snap:
        # the device lost power mid-game: give its clock back (it comes back paused)
        engine.restore_pending = False
        out += g.emit([D.Decision(D.RESTORE, t, snapshot=engine.last_clock_snap,
                                  text="the device restarted: clock restored from the last reading (paused)")])
    if snap_clock is not None:
        total = snap_clock.moves[0] + snap_clock.moves[1]
        if engine.press_base is None:
            engine.press_base = total - len(g.moves)
        owed = total - engine.press_base - len(g.moves)
        g.clock_owed = owed
        if owed > 0 and prev is None and g.result == "*":
            # the first reading after a (re)connect or a restart counts presses no frame told:
            # frames were lost (even if the board looks as last seen), so the moves are looked
            # for as after any gap, not checked against events that were never received
            g.tracker.gap = True
        if (owed > 1 or (owed == 1 and g.tracker.gap)) and g.result == "*":
            out += g.catch_up(t, (wms, bms), owed)
        elif owed <= 0:
            g.owed = 0
    if flag >= 0 and not engine.flag_seen and (wms, bms)[flag] <= FLAG_TOLERANCE_MS:
        # (a flag the arbiter has since answered with more time is no longer a ruling)
        engine.flag_seen = True
        out += g.flag(t, flag)
    if snap_clock is not None:
        engine.device_clock = snap_clock
        if engine.hand_over is not None and state == clockmod.PAUSED and not engine.replaying:
            side, engine.hand_over = engine.hand_over, None
            _hand_clock(engine, snap_clock, side)
    return out


def on_flag(engine: Engine, t: int, side: int) -> list[D.Decision]:
    """A FLAG frame (one clock_problem let through): the flag, ruled by the game's rules."""
    engine.flag_seen = True
    return engine.game.flag(t, side)


def clock_edit(engine: Engine, t: int, v: Sequence[Any], away: bool = False) -> list[D.Decision]:
    """An arbiter's change made at the clock (docs/clock.md): journaled as a frame and an info.

    A move counter set by hand is no move on the board: the press count that
    keeps the record in step with the clock moves along with it. away: a change
    the bridge did not see made (it was away), found on reconnect (_held_by_clock).
    """
    tick, what, side, old, new, text = v
    if what == "moves" and engine.press_base is not None:
        engine.press_base += new - old
    if what == "moves":
        engine.game.counted_clocks.clear()     # the counters now number the presses differently
    if what == "time":
        desc = "%s's time %s -> %s" % (side, display.format_ms(old), display.format_ms(new))
    elif what == "moves":
        desc = "%s's move counter %d -> %d" % (side, old, new)
    elif what == "bonus":
        desc = "from now on %s%s for both" % (text, display.format_ms(new, True)) if new else "bonus removed"
    elif what == "result":
        desc = "reopened" if text == "*" else "result %s" % text
    else:
        desc = "%s %s %d -> %d %s" % (what, side, old, new, text)
    if away:
        desc += " (while the bridge was away; taken from the clock on reconnect)"
    out = engine.game.emit([D.Decision(D.CLOCK_EDIT, t, edit=(what, side, old, new, text),
                                     text="arbiter at the clock: " + desc)])
    g = engine.game
    winner = CLOCK_RESULTS.get(text, -1) if what == "result" else -1
    if winner != -1 and g.result == "*":
        # a result entered on the clock (the players confirm it there) is the game's result,
        # scored as the game scores it (the clock's menu says 1-0 for an FMJD 2-0)
        out += g.operator(t, "result", g.spec.result(winner), FROM_CLOCK)
    elif what == "result" and text == "*" and g.result != "*" and g.reason in TAKEN_REASONS.values():
        out += g.reopen(t, "the result was taken back on the clock")
    return out


def _held_by_clock(engine: Engine, t: int, tick: int, state: int, c: clockmod.Clock, reconnect: bool) -> list[D.Decision]:
    """Take what the device's clock holds that no frame told: a result entered on the clock (or a
    result reopened there), and, on the first reading after a (re)connect, move counters, times
    and bonus changed by hand while the bridge was away. Those are told apart from moves by
    no_press_between: with no press since the last reading, a move counter that changed was set
    by hand, and time given or taken shows as a change of the side's allotted time."""
    g = engine.game
    out: list[D.Decision] = []
    old = engine.device_clock
    if reconnect and old is not None and no_press_between(old, c):
        names = D.SIDE_WORDS
        for s in (0, 1):
            if c.moves[s] != old.moves[s]:
                out += clock_edit(engine, t, [tick, "moves", names[s], old.moves[s], c.moves[s], ""], away=True)
            given = c.allotted[s] - old.allotted[s]
            if given and c.tc.side(s).kind != tcmod.COUNTUP:
                out += clock_edit(engine, t, [tick, "time", names[s], c.shown_ms(s) - given, c.shown_ms(s),
                                            "arbiter"], away=True)
        if c.bonus != old.bonus:
            kind = "+db"[(c.bonus or old.bonus or (1, 0))[0] - 1]
            out += clock_edit(engine, t, [tick, "bonus", "both", old.bonus[1] if old.bonus else 0,
                                        c.bonus[1] if c.bonus else 0, kind], away=True)
    held = (c.result, c.reason or "") if state == FINISHED and c.result else None
    if held is not None and held != engine.device_result and g.result == "*":
        result, reason = held
        winner = CLOCK_RESULTS.get(result, -1)
        if reason == "flag" and c.flag is not None and c.shown_ms(c.flag) <= FLAG_TOLERANCE_MS:
            engine.flag_seen = True
            out += g.flag(t, c.flag)
        elif reason in TAKEN_REASONS and winner != -1:
            out += g.operator(t, "result", g.spec.result(winner), TAKEN_REASONS[reason])
        elif reason in TAKEN_REASONS and result in g.spec.results:
            out += g.operator(t, "result", result, TAKEN_REASONS[reason])
    elif held is None and engine.device_result is not None and g.result != "*" and g.reason in TAKEN_REASONS.values():
        out += g.reopen(t, "the result was taken back on the clock")
    engine.device_result = held
    return out


def count_presses(engine: Engine, decs: list[D.Decision]) -> None:
    """Keep the clock's press count and the record in step: presses that added no move."""
    if engine.press_base is None:
        return
    for d in decs:
        if d.kind in (D.TAKEBACK, D.PENALTY) or d.press_without_move:
            engine.press_base += 1
        engine.press_base += d.press_adjust


def clock_disagrees(engine: Engine) -> Optional[int]:
    """The side to move, when the device's clock (running or paused) has the other side on move:
    after an illegal move pressed and its position reinstated, or a result withdrawn. None when
    they agree, while a press waits for the move the board has not shown yet, when the clock is
    not in play, and for games whose turns the clock does not follow press by press (minzu)."""
    g = engine.game
    r = engine.reading
    if (r is None or r[1] not in (RUNNING, clockmod.PAUSED) or g.result != "*" or g.adapter.lazy
            or g.pending_press is not None):
        return None
    side = g.adapter.side()
    return side if r[2] != side else None


def resume_clock(engine: Engine, side: Optional[int]) -> Optional[str]:
    """"Resume clock": start the clock of the side to move, always. A clock that has the other side
    on move is handed over first: a paused one is restored from its last reading with the side to
    move's turn begun (RESTORE, flagcore.clock.Clock.hand_to) and resumed; a running one is paused,
    and handed over when its paused reading comes (its times exact). A clock with a lever (a
    rocker: its position says who pressed last, and only a hand moves it) is handed over and left
    paused: the arbiter puts the lever down on the other side, then resumes it. Returns what was
    done, or None when the device did not take it. `side`: clock_disagrees()."""
    names = engine.game.adapter.side_names
    if side is None:
        return "clock resumed" if _send(engine, "RESUME", []) else None
    assert engine.reading is not None
    lever = ": put the lever down on %s's side, then resume the clock" % names[1 - side] if has_lever(engine.hello) else ""
    if engine.reading[1] == RUNNING:
        engine.hand_over = side           # (before the PAUSE: its paused reading may come at once)
        if not _send(engine, "PAUSE", []):
            engine.hand_over = None
            return None
        return "%s's clock stopped and handed to %s, who is to move%s" % (names[1 - side], names[side], lever)
    if engine.device_clock is None or not _hand_clock(engine, engine.device_clock, side):
        return None
    return "clock handed to %s, who is to move%s" % (names[side], lever or ", and resumed")


def has_lever(hello: Optional[dict[str, Any]]) -> bool:
    """True if the device's clock has a lever (a rocker) rather than a button per side (its board
    profile, named in the device's HELLO)."""
    try:
        return "rocker" in data.read_json("boards", str((hello or {}).get("profile")))["buttons"]
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _hand_clock(engine: Engine, clock: clockmod.Clock, side: int) -> bool:
    c = clockmod.restore(clock.snapshot(), 0)      # a copy: the reading stays as the device sent it
    try:
        c.hand_to(side, 0)
    except clockmod.ClockError:
        return False
    if not _send(engine, "RESTORE", [c.snapshot()]):
        return False
    return has_lever(engine.hello) or _send(engine, "RESUME", [])     # a lever is the arbiter's to put down first


def _send(engine: Engine, kind: str, values: list[Union[int, str]]) -> bool:
    return engine.send is not None and engine.send(kind, values) is not False


def frames_for(game: Game, d: D.Decision) -> list[tuple[str, list[Union[int, str]]]]:
    """The host frames that tell the device's clock a decision (the engine sends them once the decision
    is journaled): a penalty's time to the opponent, a result (the clock stops for good, in its words)
    or a result withdrawn, a clock restored, time given, a restart."""
    out: list[tuple[str, list[Union[int, str]]]] = []
    if d.kind == D.PENALTY and d.bonus_ms:
        out.append(("ADJ", [D.SIDE_WORDS[1 - (d.side or 0)], d.bonus_ms]))
    if d.kind == D.RESULT and d.result == "*":
        out.append(("RESULT", ["*", "arbiter"]))      # a withdrawn result: the clock reopens
    elif d.kind == D.RESULT and d.reason != FROM_CLOCK:
        # the clock stops for good with the result (docs/protocol.md RESULT), in its words
        w = game.outcome.winner if game.outcome is not None else \
            _winner_of(game.spec, d.result)
        if w != -1:
            out.append(("RESULT", [CLOCK_WORDS[w], _reason_word(d.reason)]))
        elif d.result == DOUBLE_FORFEIT_RECORD:     # neither side scores: the clock's "0-0"
            out.append(("RESULT", [d.result, _reason_word(d.reason)]))
    if d.kind == D.RESTORE:
        out.append(("RESTORE", [d.snapshot]))
    if d.kind == D.ADJUST:
        out.append(("ADJ", [D.SIDE_WORDS[d.side or 0], d.delta_ms]))
    if d.kind == D.RESTART:
        out.append(("PAUSE", []))
        if game.tc:
            out.append(("TC", [game.tc]))
    return out
