"""What a board plays and how it is followed (BoardSetup, the journal's header), and the callbacks through
which its engine (flagfall.bridge.engine.BridgeEngine) reaches the device and the viewers."""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Callable, Optional, Union

from flagfall.bridge import decisions as D
from flagfall.bridge import journal as jmod
from flagfall.games import registry

Send = Callable[[str, list[Union[int, str]]], object]
"""Sends a host frame to the device: kind and fields (flagcore.wire.HOST_KINDS)."""
Publish = Callable[[dict[str, Any], list[D.Decision]], object]
"""Receives each new live state (flagfall.live) and the decisions that led to it."""

LAWS_BEFORE = "fide-2000"
"""The laws a chess journal without a `laws` field followed (written before the event chose them)."""


@dataclass


class BoardSetup:
    """What a board plays and how it is followed: the journal's header, from which resume rebuilds it."""

    game: str = "chess"
    tags: dict[str, str] = field(default_factory=dict)
    tc: Optional[str] = None            # time control sent to the clock and recorded
    fen: Optional[str] = None           # the start position (None: the game's own)
    clock_mode: Optional[bool] = None   # True: moves are committed on the clock; None: once a clock reports
    settle_ms: int = 1500
    penalties: str = "auto"             # illegal-move penalties: "auto" or "confirm" (by the arbiter)
    armageddon: bool = False            # draw odds to Black: a drawn game is a win for Black in the match
    laws: Optional[str] = None          # chess: the FIDE Laws edition (registry.LAWS; None: the one in force)
    identity: list[str] = field(default_factory=lambda: ["local", "1", "1"])   # tournament, round, board

    def __post_init__(self) -> None:
        spec = registry.spec(self.game)
        if not spec.laws:
            self.laws = None             # draughts and minzu keep their rulebooks' policies
        elif self.laws is None:
            self.laws = spec.laws[0]     # written in the journal: a resume follows the same laws
        self.tags = dict(self.tags or {})
        self.identity = list(self.identity or ["local", "1", "1"])

    def header(self) -> dict[str, Any]:
        """The journal's first line."""
        h: dict[str, Any] = {"k": "header", "v": jmod.VERSION, "created": int(time.time() * 1000)}
        h.update(asdict(self))
        return h

    @classmethod
    def from_header(cls, header: dict[str, Any]) -> "BoardSetup":
        """The setup a journal's header describes (fields a journal lacks take their defaults)."""
        names = {f.name for f in fields(cls)}
        kw = {k: v for k, v in header.items() if k in names}
        if "laws" not in header and registry.spec(kw.get("game", "chess")).laws:
            kw["laws"] = LAWS_BEFORE      # a journal begun before the laws were chosen: what it followed
        return cls(**kw)
