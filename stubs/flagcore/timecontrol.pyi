from typing import Optional

COUNTUP: int
STANDARD: int
HOURGLASS: int
BONUS_NONE: int
BONUS_INCREMENT: int
BONUS_BRONSTEIN: int
BONUS_DELAY: int
OVERTIME_NONE: int
OVERTIME_BYOYOMI: int
OVERTIME_CANADIAN: int

Period = tuple[int, int, int, int]
"""(moves, ms, bonus kind, bonus ms)."""

class TimeControlError(ValueError):
    text: str
    pos: int
    what: str
    def __init__(self, text: str, pos: int, what: str) -> None: ...

class TimeControl:
    kind: int
    periods: list[Period]
    overtime: tuple[int, int, int]
    sides: Optional[tuple[TimeControl, TimeControl]]   # (white's, black's) for time odds, else None
    def __init__(self, kind: int, periods: Optional[list[Period]] = None,
                 overtime: Optional[tuple[int, int, int]] = None,
                 sides: Optional[tuple[TimeControl, TimeControl]] = None) -> None: ...
    def side(self, s: int) -> TimeControl: ...
    def period(self, i: int) -> Period: ...
    def moves_before(self, i: int) -> int: ...
    def text(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...

def parse(text: str) -> TimeControl: ...
