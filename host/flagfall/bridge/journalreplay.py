"""A board's game rebuilt from its journal (docs/bridge.md): every journaled input fed again, in order,
to an engine that is resuming (flagfall.bridge.engine.resume and rebuilt), which neither journals,
sends nor publishes while it replays (engine.replaying). Notes (rejected lines, arbiter notes, silence)
are passed over, except the count of rejected frames, which stays across restarts; a journaled frame
that cannot be handled is skipped and listed (replay_frame), so that one bad frame cannot make every
restart fail the same way.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Protocol, Sequence

from flagcore import wire

from flagfall.bridge import arbiter, clockfeed
from flagfall.bridge import decisions as D


class Engine(arbiter.Engine, Protocol):
    """The engine's members a journal is replayed through (the board's state, documented on BridgeEngine)."""

    quarantined: list[str]
    rejected: int
    rejected_last: Optional[str]

    def frame_problem(self, kind: str, values: Sequence[Any]) -> Optional[str]: ...
    def apply_frame(self, t: int, kind: str, values: Sequence[Any]) -> list[D.Decision]: ...


def replay(engine: Engine, entries: list[dict[str, Any]]) -> None:
    """Feed a journal's entries (journal.load) to the engine, with engine.replaying set meanwhile."""
    engine.replaying = True
    try:
        for e in entries:
            k = e.get("k")
            if k == "f":
                replay_frame(engine, e)      # a frame that cannot be handled is skipped (quarantined)
            elif k == "tick":
                clockfeed.count_presses(engine, engine.game.tick(e["t"]))
            elif k == "op":
                try:
                    clockfeed.count_presses(engine, engine.game.operator(e["t"], e["cmd"], *e.get("args", [])))
                except ValueError:
                    pass          # refused when it was typed, after it was journaled
            elif k == "cmd":
                clockfeed.count_presses(engine, arbiter.carry_out(engine, e["t"], e["cmd"])[0])
            elif k == "link":
                engine.link_up = e["state"] == "up"
                engine.clk_prev = None
                engine.reading = None
            elif k == "reject":
                engine.rejected += 1            # the count and the last reason stay across restarts
                engine.rejected_last = str(e.get("why", ""))
    finally:
        engine.replaying = False


def replay_frame(engine: Engine, entry: Mapping[str, Any]) -> Optional[str]:
    """Feed one journaled frame to an engine that is resuming; returns None, or why it was skipped.

    A frame that cannot be decoded, does not fit the device (BridgeEngine.frame_problem) or makes the
    engine fail is quarantined: skipped, and listed in engine.quarantined, so that one
    bad frame in a journal cannot make every restart fail the same way.
    """
    why: Optional[str] = entry.get("quarantined")
    if why is None:
        try:
            seq, kind, values = wire.decode(entry["raw"].encode(), wire.DEVICE_KINDS)
            why = engine.frame_problem(kind, values)
            if why is None:
                engine.apply_frame(entry["t"], kind, values)
                return None
        except OSError:
            raise
        except Exception as e:        # noqa: BLE001 - any failure of one frame: skip it, not the game
            why = "%s: %s" % (type(e).__name__, e)
    engine.quarantined.append("frame at %s skipped: %s (%s)" % (entry.get("t"), why, str(entry.get("raw"))[:100]))
    return why
