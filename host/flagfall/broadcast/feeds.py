"""Feeds for the ecosystem: live PGN (chess) and PDN (draughts) with clock comments.

A feed record is written from a live state's own fields (tags, moves, both
clocks after each move, result) by the game family's one record writer (the
same that writes the bridge's files: GameSpec.module().write_record), so the
feed and the file on disk agree; every move carries `{[%clk h:mm:ss]}` with
the mover's clock, TimeControl comes from the state's clock, and a game in
progress carries the clock of each side not on move in WhiteClock/BlackClock. A service
polling PGN (a broadcast relay) gets one text per round with every game of
that family, or one per board.
"""
from __future__ import annotations

from typing import Any, Optional

from flagfall.games import registry

FORMATS = ("pgn", "pdn")
"""Record formats served as feeds (minzu records have no ecosystem to feed)."""


def record_text(state: dict[str, Any]) -> str:
    """PGN or PDN text of one board's game, by the family's record writer (tags, moves, clocks)."""
    spec = registry.spec(state["game"])
    tags = {k: v for k, v in state["tags"].items() if k not in ("Result", "SetUp", "FEN", "GameType")}
    clock = state.get("clock") or {}
    tc = clock.get("tc")
    if tc and tc != "-":
        tags.setdefault("TimeControl", tc)
    if state["result"] == "*":
        # a game in progress: the clock of each side not on move as last read, so that time added at a
        # period change shows before the next move (lila reads these tags, #19227), in lila's H:MM:SS.
        # The running side's reading is stale within a second (Lichess counts it down from its last
        # move), and one that is not known is left out.
        for name, key in (("White", "white_ms"), ("Black", "black_ms")):
            ms = clock.get(key)
            if isinstance(ms, int) and ms >= 0 and clock.get("running") != name.lower():
                tags["%sClock" % name] = _hms(ms // 1000)
    fen = state["tags"].get("FEN") or None
    side = spec.first_side(fen) if fen else 0
    clocks: list[Optional[float]] = []
    for i, pair in enumerate(state["clocks"][:len(state["moves"])]):
        ms = pair[(side + i) % 2]
        clocks.append(ms // 1000 if ms >= 0 else None)     # -1: unknown (a move made while the board was away)
    clocks += [None] * (len(state["moves"]) - len(clocks))
    return spec.write_record(tags, list(state["moves"]), state["result"], clocks, fen=fen)


def _hms(seconds: int) -> str:
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60, seconds % 60)


def feed_text(states: list[dict[str, Any]]) -> str:
    """Several games as one feed, separated by a blank line."""
    return "\n".join(record_text(s) for s in states)


def format_for(game: str) -> Optional[str]:
    """'pgn' or 'pdn' for a game, or None if it has no standard record feed here."""
    try:
        fmt = registry.spec(game).record_format
    except ValueError:
        return None
    return fmt if fmt in FORMATS else None
