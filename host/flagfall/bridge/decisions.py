"""What the bridge decides: one typed record per decision, the same for every game.

A `Decision` is what `Game` and `BridgeEngine` return for every input and
journal after it (as `as_dict()`, the journal's `{"k": "d", "kind": ...}`
entries). Its `kind` is one of the constants below; the fields that matter
for a kind are documented beside it, the others keep their defaults.
`describe()` is the one line an operator reads.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Optional

from flagfall.live import ALERT_KINDS

if TYPE_CHECKING:
    from flagfall.games.protocol import Move, Square

MOVE = "move"            # ply, side, text, clock_ms, how, note, squares
TAKEBACK = "takeback"    # ply, text, how
AMEND = "amend"          # ply, old: a committed move replaced (a move that went on, an arbiter fix)
PROMOTION = "promotion"  # ply, text: the promotion piece of a move changed
ALERT = "alert"          # text, alert_kind: the board needs a person (an illegal move, or the arbiter confirms)
CLEAR = "clear"          # the alert is over
TOUCH = "touch"          # side, text: a touch-move infringement seen
PENALTY = "penalty"      # side, count, outcome, bonus_ms, policy: an illegal move completed
RESULT = "result"        # result, reason
INFO = "info"            # text; press_without_move for a press the record does not follow
ADJUST = "adjust"        # side, delta_ms, text: time given or taken by the arbiter
RESTORE = "restore"      # snapshot, text: the device's clock given back after a power loss
RESTART = "restart"      # text: back to the start position
CLOCK_EDIT = "clock-edit"  # edit (what, side, old, new, text), text: a change made at the clock in pause

KINDS = (MOVE, TAKEBACK, AMEND, PROMOTION, ALERT, CLEAR, TOUCH, PENALTY, RESULT, INFO, ADJUST, RESTORE, RESTART,
         CLOCK_EDIT)
RECORD_CHANGES = frozenset((MOVE, TAKEBACK, RESULT, PROMOTION, RESTART, PENALTY, AMEND, CLOCK_EDIT))
"""Kinds after which the record file is rewritten."""

SIDE_WORDS = ("white", "black")

Times = Optional[tuple[Optional[int], Optional[int]]]
"""(white_ms, black_ms) after a clock press, or None when unknown."""

Press = tuple[int, int, int, Times]
"""A clock press of the window since the last committed move (Game.press_log): (the board events
seen before it, the side, t, the clock times after it)."""

ALERT_ILLEGAL, ALERT_CONFIRM = ALERT_KINDS
"""An alert's kind (the live state's `alert_kind`). ALERT_ILLEGAL: an illegal move, completed
(pressed) with every piece on the board, that no legal move or order of events explains: the only
alert that carries a penalty (applied or offered). ALERT_CONFIRM: everything else (a position the
board cannot settle yet, a piece off the board, an order of events the rules do not cover, an
ambiguity): the arbiter confirms; never a penalty."""


@dataclass
class Decision:
    """One decision of the bridge (see the module docstring)."""

    kind: str
    t: int
    text: str = ""
    ply: Optional[int] = None
    side: Optional[int] = None            # 0 the side that moves first, 1 the other
    clock_ms: Optional[int] = None        # MOVE: the mover's clock after the press
    how: str = ""                         # MOVE/TAKEBACK: clock, settled, operator, arbiter, board, ...
    note: str = ""
    squares: list[Square] = field(default_factory=list)
    old: str = ""                         # AMEND: the move text replaced
    count: int = 0                        # PENALTY: illegal moves of this side so far
    outcome: str = ""                     # PENALTY: warning, penalty or loss
    bonus_ms: int = 0                     # PENALTY: time given to the opponent
    policy: str = ""                      # PENALTY: seeds/penalties.json entry applied
    result: str = ""                      # RESULT
    reason: str = ""                      # RESULT
    delta_ms: int = 0                     # ADJUST
    snapshot: str = ""                    # RESTORE
    press_without_move: bool = False      # INFO: a clock press that added no move to the record
    press_adjust: int = 0                 # INFO: presses counted as moveless that turned out to be moves (<0)
    stray: bool = False                   # INFO: ... because the side not on move pressed
    edit: Optional[tuple[str, str, int, int, str]] = None   # CLOCK_EDIT: what, side, old, new, text
    alert_kind: str = ""                  # ALERT: ALERT_ILLEGAL or ALERT_CONFIRM

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError("unknown decision kind %r" % (self.kind,))

    def as_dict(self) -> dict[str, Any]:
        """The journal's form: {"k": kind, "t": t, ...} with the fields this decision sets."""
        out: dict[str, Any] = {"k": self.kind, "t": self.t}
        for f in fields(self):
            if f.name in ("kind", "t"):
                continue
            v = getattr(self, f.name)
            default = f.default_factory() if callable(f.default_factory) else f.default
            if v != default or (self.kind == MOVE and f.name in ("clock_ms", "note")):
                out[f.name] = v
        return out

    def describe(self) -> str:
        """One line of text for an operator."""
        k = self.kind
        if k == MOVE:
            clk = ""
            if self.clock_ms is not None:
                s = self.clock_ms // 1000
                clk = " [%d:%02d:%02d]" % (s // 3600, s // 60 % 60, s % 60)
            return "move %d %s%s%s" % ((self.ply or 0) + 1, self.text, clk,
                                       (" (" + self.note + ")") if self.note else "")
        if k == RESULT:
            return "result %s (%s)" % (self.result, self.reason)
        if k == PENALTY:
            return "penalty side %d illegal move %d: %s%s" % (
                self.side or 0, self.count, self.outcome,
                " +%d ms to the opponent" % self.bonus_ms if self.bonus_ms else "")
        if k == TAKEBACK:
            return "takeback %s" % self.text
        if k == CLEAR:
            return "alert cleared"
        if k == AMEND:
            return "amend move %d (was %s)" % ((self.ply or 0) + 1, self.old)
        return "%s %s" % (k, self.text)


@dataclass
class PlayedMove:
    """A move in the game's record, as the bridge committed it."""

    text: str                              # in the record's notation
    side: int                              # 0 the side that moves first, 1 the other
    move: Move                             # the adapter's own move (opaque outside it)
    t: int                                 # host time of the commit (ms)
    how: str                               # clock, settled, operator, arbiter, inferred after reconnect, ...
    clock_ms: Optional[int] = None         # the mover's clock after the move (clock mode)
    clocks: tuple[Optional[int], Optional[int]] = (None, None)   # both clocks after the move
    note: str = ""
    default: bool = False                  # a promotion piece the board could not show (queen chosen)
