from typing import Any, Protocol

CURVES: dict[str, tuple[tuple[int, int], ...]]
RECOVER_PCT: int
SMOOTH: int


class _ADC(Protocol):
    def read_u16(self) -> int: ...


def level(mv: int, curve: tuple[tuple[int, int], ...]) -> int: ...


class Gauge:
    adc: _ADC
    curve: tuple[tuple[int, int], ...]
    divider: float
    low_pct: int
    mv: int
    acc: int
    n: int
    pct: int
    low: bool
    due: int

    def __init__(self, adc: _ADC, cfg: dict[str, Any]) -> None: ...
    def read(self) -> bool: ...
