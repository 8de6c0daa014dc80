"""A board's game rebuilt from its journal (docs/bridge.md): resume (an engine rebuilt to carry on
appending to its journal) and rebuilt (a past game shown again, nothing written) feed every journaled
input again, in order, to an engine that neither journals, sends nor publishes while it replays
(engine.replaying); the engine is made by the caller (flagfall.bridge.engine.resume and rebuilt pass
BridgeEngine's), so this module imports no engine. Notes (rejected lines, arbiter notes, silence)
are passed over, except the count of rejected frames, which stays across restarts; a journaled frame
that cannot be handled is skipped and listed (replay_frame), so that one bad frame cannot make every
restart fail the same way.
"""
from __future__ import annotations

import os
from typing import Any, Callable, Mapping, Optional, Protocol, Sequence, TypeVar

from flagcore import wire

from flagfall.bridge import arbiter, clockfeed
from flagfall.bridge import decisions as D
from flagfall.bridge import journal as jmod
from flagfall.bridge import records
from flagfall.bridge.boardsetup import BoardSetup, Publish, Send


class Engine(arbiter.Engine, Protocol):
    """The engine's members a journal is replayed through (the board's state, documented on BridgeEngine)."""

    quarantined: list[str]
    rejected: int
    rejected_last: Optional[str]

    header: dict[str, Any]
    record_path: Optional[str]
    resume_note: Optional[str]
    journal: Optional[jmod.Journal]

    def frame_problem(self, kind: str, values: Sequence[Any]) -> Optional[str]: ...
    def apply_frame(self, t: int, kind: str, values: Sequence[Any]) -> list[D.Decision]: ...
    def write_record(self, text: Optional[str] = None) -> None: ...


E = TypeVar("E", bound=Engine)
Fresh = Callable[[BoardSetup, Optional[Send], Optional[Publish], bool], E]
"""Makes the engine a journal is replayed into: (what the board plays, send, publish, fsync)."""


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


def resume(make: Fresh[E], journal_path: str, out_dir: Optional[str] = None, send: Optional[Send] = None,
           publish: Optional[Publish] = None, fsync: bool = True, mirror: Optional[str] = None) -> E:
    """An engine (made by `make`) rebuilt from its journal, ready to carry on appending to it. With a mirror, both
    copies are made the longer valid one first; a copy whose disk refuses that is written back later
    (Journal.problem says so) and the game is rebuilt from the other (the record stays where the
    journal's header puts it, beside journal_path)."""
    journal: Optional[jmod.Journal] = None
    source = journal_path
    if mirror is not None:
        journal = jmod.Journal(journal_path, fsync=fsync, mirror=mirror).open()
        source = journal.source
    try:
        eng = _rebuild(make, journal_path, source, out_dir, send, publish, fsync)
    except BaseException:
        if journal is not None:
            journal.close()
        raise
    eng.journal = journal or jmod.Journal(journal_path, fsync=fsync).open()
    eng.write_record()
    return eng


def _rebuild(make: Fresh[E], journal_path: str, source: str, out_dir: Optional[str], send: Optional[Send],
             publish: Optional[Publish], fsync: bool) -> E:
    """The engine of resume(), its game replayed from the journal copy `source`, its journal not open."""
    header, entries = jmod.load(source)
    rec = jmod.record_path(header, journal_path)
    eng = make(BoardSetup.from_header(header), send, publish, fsync)
    eng.header = header
    if rec:
        eng.record_path = rec
    elif out_dir:
        eng.record_path = os.path.join(out_dir, "%s.%s" % (records.safe_name(header["game"]),
                                                           records.extension(header["game"])))
    replay(eng, entries)
    why = jmod.check_decisions(entries, eng.game.decisions)
    if why:
        raise jmod.JournalError("%s %s" % (journal_path, why))
    eng.resume_note = jmod.check_record(eng.record_path, header["game"], records.record_text(eng.game))
    return eng


def rebuilt(make: Fresh[E], journal_path: str) -> E:
    """An engine (made by `make`) replayed from its journal alone: no journal opened for writing, no record written,
    nothing sent or published (a past round's game, shown again after the event's restart). As resume, a
    record that cannot be read back is kept aside (PATH.before-resume), and JournalError is raised for a
    damaged journal or a record holding more moves than it."""
    return _rebuild(make, journal_path, journal_path, None, None, None, False)
