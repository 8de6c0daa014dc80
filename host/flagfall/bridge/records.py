"""Game records written live, move by move, by each family's one writer.

Chess: PGN with the seven tags, TimeControl and {[%clk h:mm:ss]} after every
move (games.chess.write_game). Draughts family: PDN with the same clock
comments (games.draughts.write_game). Minzu: the minzu record format
(games.minzu.write_game). The live feeds use the same writers
(broadcast/feeds.py). Each write replaces the file atomically (temporary file,
fsync, rename), so a reader or a crash never sees half a record.
"""
from __future__ import annotations

import os
import threading
import re
from typing import TYPE_CHECKING, Optional


if TYPE_CHECKING:
    from flagfall.bridge.game import Game


def record_text(game: Game) -> str:
    """The full record of a bridge Game so far, written by its family's one writer (through its adapter)."""
    a = game.adapter
    tags = dict(game.tags)
    if game.tc and "TimeControl" not in tags:
        tags["TimeControl"] = game.tc
    clocks: Optional[list[Optional[float]]] = None
    if game.clock_mode:
        clocks = [None if m.clock_ms is None else m.clock_ms / 1000.0 for m in game.moves]
    if game.reason and "Termination" not in tags:
        tags["Termination"] = game.termination_text()
    # what the bridge saw besides the moves: take-backs and illegal moves (penalties applied)
    if game.armageddon:
        # the result stays as played; the match decision rides beside it (docs/clock.md)
        tags["Armageddon"] = "draw odds to %s" % a.side_names[1]
        if game.decision() != game.result:
            tags["Decision"] = game.decision()
    edits = game.clock_edits
    if edits:
        # the arbiter's changes at the clock, after which move each came
        tags["ClockEdits"] = "; ".join("%s %s" % (_after(game, d.t), d.text.replace("arbiter at the clock: ", ""))
                                       for d in edits)
    if game.takebacks:
        tags["Takebacks"] = "; ".join(game.takebacks)
    # moves nobody saw being made: found from the board after an outage, or entered by the arbiter
    from flagfall.bridge.entries import ENTERED
    from flagfall.bridge.resync import INFERRED
    for tag, how in (("InferredMoves", INFERRED), ("ArbiterMoves", ENTERED)):
        made = ["%d%s %s" % (i // 2 + 1, "." if m.side == 0 else "...", m.text)
                for i, m in enumerate(game.moves) if m.how == how]
        if made:
            tags[tag] = "; ".join(made)
    if game.laws:
        # the FIDE Laws edition whose illegal-move penalty the bridge applies (docs/bridge.md)
        tags.setdefault("Laws", game.laws)
    if any(game.illegal):
        names = a.side_names
        tags["IllegalMoves"] = "%s %d, %s %d" % (names[0], game.illegal[0], names[1], game.illegal[1])
    # a comment on each move nobody saw being made (its tag above lists them too)
    notes = [m.how if m.how in (INFERRED, ENTERED) else "" for m in game.moves]
    return a.record_text(tags, game.sans(), game.result, clocks, notes=notes if any(notes) else None)


def _after(game: Game, t: int) -> str:
    """'after 12... Nf6:' (the last move made before time t), or 'before the first move:'."""
    n = sum(1 for m in game.moves if m.t <= t)
    if n == 0:
        return "before the first move:"
    return "after %d%s %s:" % ((n + 1) // 2, "." if n % 2 else "...", game.moves[n - 1].text)


def extension(game_name: str) -> str:
    """File extension of a game's records."""
    from flagfall.games import registry
    return registry.spec(game_name).record_format


def safe_name(text: str) -> str:
    """A file-name-safe version of text."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "game"


def write_atomic(path: str, text: str, fsync: bool = True) -> None:
    """Replace path with text so that readers see the old or the new file, never half."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    # a name of its own per writer: two threads writing the same file (the supervision loop and the
    # arbiter's "next round") must not share one half-written temporary file
    tmp = "%s.%d-%d.tmp" % (path, os.getpid(), threading.get_ident())
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            if fsync:
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            os.remove(tmp)      # a full disk: what the half-written file took is the disk's again
        except OSError:
            pass
        raise
