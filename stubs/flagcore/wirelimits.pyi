from typing import Any, Optional, Sequence

MAX_DIM: int
MAX_SENSORS: int
MAX_MS: int
LIMITS: dict[str, tuple[object, ...]]

def problem(kind: str, values: Sequence[Any]) -> Optional[str]: ...
