from typing import Optional

Ending = tuple[Optional[int], int, str]
"""(winner: 0 first side, 1 other, None draw; termination constant; rule article)."""

ONGOING: int
CHECKMATE: int
STALEMATE: int
DEAD_POSITION: int
REPETITION: int
MOVE_LIMIT: int
NO_LEGAL_MOVE: int
NO_PIECES: int
TOO_FEW_PIECES: int
RESIGNATION: int
TIME_FORFEIT: int
ILLEGAL_MOVES: int
AGREEMENT: int
ARBITER: int
ABANDONED: int
NAMES: tuple[str, ...]

def name(termination: int) -> str: ...
def describe(ending: tuple[Optional[int], int, Optional[str]]) -> str: ...
