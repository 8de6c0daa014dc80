# flagcore.scan runs on the device only (device.app imports it; the simulator reaches it that way).
from typing import Optional

DOWN: int
UP: int

class Scanner:
    rows: int
    cols: int
    n: int
    debounce_ms: int
    diodes: bool
    raw: bytearray
    stable: bytearray
    reported: bytearray
    overflow: int
    ghost_changed: bool
    def __init__(self, rows: int, cols: int, debounce_ms: int = 30, diodes: bool = True,
                 queue: int = 128) -> None: ...
    def prime(self) -> None: ...
    def update(self, now: int) -> int: ...
    def pop(self) -> Optional[tuple[int, int, int]]: ...
    def snapshot(self) -> bytearray: ...
    def ghost_squares(self) -> list[int]: ...
