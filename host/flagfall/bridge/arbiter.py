"""The arbiter's actions on a live board (docs/live-state.md, "Arbiter commands"): a result given or
withdrawn, an alert dismissed, time given, a move or a promotion fixed, a penalty, the clock resumed
for the side to move, moves entered, a restart.

carry_out() decides what a validated command does to the board; the engine
(flagfall.bridge.engine.BridgeEngine.command) journals the command first and acts on the decisions
(journal, device, record, live state) after, as for every input.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Protocol

from flagfall.bridge import clockfeed, entries
from flagfall.bridge import decisions as D
from flagfall.bridge.boardsetup import BoardSetup
from flagfall.bridge.game import Game

if TYPE_CHECKING:
    from flagfall.games.protocol import Square


class NotNow(LookupError):
    """An arbiter action the board's state refuses now, not its form: a penalty while no illegal-move
    alert is up, or for the other side (HTTP 409 with the reason)."""


def _refusal(decs: list[D.Decision], wanted: str) -> tuple[list[D.Decision], Optional[str]]:
    """(decisions, None) if one of them is of the wanted kind, else (decisions, why: the last one's text)."""
    if any(d.kind == wanted for d in decs):
        return decs, None
    return decs, decs[-1].text if decs else "nothing done"


class Engine(clockfeed.Engine, Protocol):
    """The engine's members an action is carried out through (the board's state, documented on BridgeEngine)."""

    setup: BoardSetup
    storage_alert: Optional[str]
    command_note: Optional[str]
    link_up: bool
    started: bool

    def board_snapshot(self, t: int, occ: set[Square]) -> list[D.Decision]: ...


def carry_out(engine: Engine, t: int, cmd: dict[str, Any]) -> tuple[list[D.Decision], Optional[str]]:
    """(decisions, refusal text or None) for a validated arbiter command (flagfall.live.validate_command),
    carried out on the board; the engine journals the command before and acts on the decisions after."""
    g = engine.game
    a = g.adapter
    act = cmd["action"]
    if act == "result" and cmd["result"] == "*":
        act = "undo_result"        # "*" takes a result back, as undo_result does
    if act == "result":
        if cmd["result"] not in g.spec.scoring:
            return [], "%s is not a result of %s (%s)" % (cmd["result"], g.spec.title, ", ".join(g.spec.scoring))
        return g.operator(t, "result", cmd["result"], "arbiter"), None
    if act == "undo_result":
        if g.result == "*":
            return [], "the game has no result to undo"
        return g.reopen(t, "arbiter: result %s withdrawn" % g.result), None
    if act == "dismiss":
        if not g.alert:
            return [], "the board has no alert to dismiss" + (" (a storage alert ends when the disk "
                                                              "takes the writes)" if engine.storage_alert else "")
        return g.operator(t, "clear"), None
    if act == "clock":
        side = D.SIDE_WORDS.index(cmd["side"])
        return g.emit([D.Decision(D.ADJUST, t, side=side, delta_ms=cmd["delta_ms"],
                                  text="arbiter: %s %+d ms" % (cmd["side"], cmd["delta_ms"]))]), None
    if act == "promotion":
        for ply in range(len(g.moves) - 1, -1, -1):
            if a.is_promotion(g.moves[ply].move):
                return _refusal(entries.fix_promotion(g, t, ply, cmd["piece"]), D.PROMOTION)
        return [], "no promotion in this game"
    if act == "fix_move":
        ply, text = cmd["ply"], cmd["move"]
        if ply == len(g.moves):
            return _refusal(g.operator(t, "move", text), D.MOVE)
        if ply < len(g.moves) and a.is_promotion(g.moves[ply].move):
            piece = text.rstrip("+#")[-1:].lower()
            return _refusal(entries.fix_promotion(g, t, ply, piece), D.PROMOTION)
        if ply == len(g.moves) - 1:
            return _refusal(entries.replace_last(g, t, text), D.MOVE)
        return [], "only the last move, the next one or a promotion can be fixed on a live board"
    if act in ("time", "moves", "bonus"):
        # editing the clock from the host: the device carries it out and reports it as EDIT
        # (journaled like a change made at the clock); refused while no device listens
        fields = {"time": ("side", "ms"), "moves": ("side", "count"), "bonus": ("kind", "ms")}[act]
        frame = [cmd[f] for f in fields]
        if engine.send is None or engine.send(act.upper(), frame) is False:
            return [], "no device is connected to carry out %s" % act
        return g.emit([D.Decision(D.INFO, t, text="arbiter: %s %s sent to the clock"
                                  % (act, " ".join(str(x) for x in frame)))]), None
    if act == "penalty":
        return _refusal(g.operator(t, "penalty", cmd["side"]), D.PENALTY)
    if act == "resume":
        # the clock of the side to move, always: handed to it first when the clock has the other on move
        to = clockfeed.clock_disagrees(engine)
        decs = g.clock_handed(t, to) if to is not None else []
        if engine.replaying:
            return decs, None
        done = clockfeed.resume_clock(engine, to)
        if done is None:
            return decs, "no device took the clock's resume"
        engine.command_note = done
        return decs, None
    if act == "enter_moves":
        # checked against the board while a device reports it; a board whose device is gone
        # (for good, or for now) has no position to check against: legal moves are taken
        board = engine.link_up and engine.hello is not None and engine.started
        decs, why = entries.enter_moves(g, t, cmd["moves"], board=board)
        if why is None and not board:
            decs += g.emit([D.Decision(D.INFO, t, text="no device reports this board: the moves were "
                                       "checked for legality only, not against the board")])
            engine.command_note = decs[-1].text
        return decs, why
    if act == "restart":
        fresh = Game(engine.setup.game, clock_mode=g.clock_mode, settle_ms=g.settle_ms,
                     fen=engine.setup.fen, tags=g.tags, tc=g.tc, penalties=g.penalties, armageddon=g.armageddon,
                     laws=g.laws)
        occ = set(g.tracker.cur)
        engine.game = fresh
        engine.started = False
        engine.press_base = None
        decs = fresh.emit([D.Decision(D.RESTART, t, text="arbiter: restart from the start position")])
        decs += engine.board_snapshot(t, occ)
        return decs, None
    return [], "unknown action %r" % act
