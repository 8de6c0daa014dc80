from typing import Optional, Union

from flagcore.ticks import ticks_add as ticks_add, ticks_diff as ticks_diff
from flagcore.timecontrol import TimeControl

WHITE: int
BLACK: int
SIDE_NAMES: tuple[str, str]
READY: int
RUNNING: int
PAUSED: int
FLAGGED: int
ADJOURNED: int
FINISHED: int
STATE_NAMES: tuple[str, ...]
RESULTS: tuple[str, ...]
WINS: tuple[str, str]
BY_FLAG: str
BY_ILLEGAL: str
BY_ARBITER: str
BY_HOST: str
OK: str
IGNORED_NOT_ON_MOVE: str
IGNORED_NOT_RUNNING: str
WARNING: str
PENALTY: str
LOSS: str

Side = Union[int, str]
"""0/1, 'white'/'black' or 'w'/'b'."""

class ClockError(ValueError): ...

def side_index(side: Side) -> int: ...

class Clock:
    tc: TimeControl
    tcs: tuple[TimeControl, TimeControl]
    flag_ends: bool
    play_on: bool
    result: Optional[str]
    reason: Optional[str]
    bonus: Optional[tuple[int, int]]
    state: int
    to_move: int
    last: int
    turn_used: int
    delay_left: int
    flag: Optional[int]
    flag_tick: Optional[int]
    flags: list[Optional[int]]
    remaining: list[int]
    used: list[int]
    allotted: list[int]
    moves: list[int]
    period: list[int]
    overtime: list[bool]
    byo: list[int]
    illegal: list[int]
    adjourn_charge: Optional[int]
    def __init__(self, tc: Union[TimeControl, str], flag_ends: bool = False, play_on: bool = False) -> None: ...
    def update(self, now: int) -> Optional[int]: ...
    def start(self, side: Side, now: int) -> str: ...
    def press(self, side: Side, now: int) -> str: ...
    def pause(self, now: int) -> str: ...
    def resume(self, now: int) -> str: ...
    def hand_to(self, side: Side, now: int) -> str: ...
    def adjust(self, side: Side, delta_ms: int, now: int) -> str: ...
    def set_moves(self, side: Side, count: int, now: int) -> str: ...
    def illegal_move(self, side: Side, now: int, opponent_bonus_ms: int = 0, loses_at: int = 0,
                     first_is_warning: bool = False) -> str: ...
    def seal(self, now: int, early: bool = False, session_ms: Optional[int] = None) -> str: ...
    def completed_time(self, s: int) -> int: ...
    def finish(self, result: str, reason: str, now: int) -> str: ...
    def reopen(self, now: int) -> str: ...
    def set_time(self, side: Side, ms: int, now: int) -> str: ...
    def set_bonus(self, kind: Union[int, str], ms: int, now: int) -> str: ...
    def bonus_text(self) -> str: ...
    def _bonus(self, s: int) -> tuple[int, int]: ...
    def second_flag(self) -> Optional[int]: ...
    def shown_ms(self, s: int) -> int: ...
    def snapshot(self, now: Optional[int] = None) -> str: ...

def restore(text: str, now: int) -> Clock: ...
