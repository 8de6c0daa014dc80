from typing import Any, Callable, Optional, Sequence, Union

VERSION: int
REVISION: int
MIN_REVISION: int
MAGIC: str
MAX_LINE: int
SEQ_MOD: int
DEVICE_KINDS: dict[str, str]
OLDER: dict[str, tuple[int, ...]]
HOST_KINDS: dict[str, str]
SCHEMA: dict[str, str]

FieldValue = Union[int, str, tuple[int, int]]
"""A decoded field: 'u'/'i' int, 's'/'x' str, 'c' (square, 1 down / 0 up)."""

# A decoded frame: (seq, kind, values). The values' types follow the kind's schema string
# (DEVICE_KINDS), which a static type cannot express: they are Any for the reader.
Frame = tuple[int, str, list[Any]]

class WireError(ValueError): ...

def crc16(data: bytes, end: Optional[int] = None) -> int: ...
def escape(text: str) -> str: ...
def unescape(field: str) -> str: ...
def hexbits(bits: Sequence[int], n: int) -> str: ...
def unhexbits(text: str, n: int) -> bytearray: ...
def encode(seq: int, kind: str, fields: Sequence[FieldValue] = ()) -> bytes: ...
def decode(line: Union[bytes, bytearray], accept: Optional[dict[str, str]] = None) -> Frame: ...
def check_limits(kind: str, values: Sequence[Any]) -> None: ...

class Link:
    accept: Optional[dict[str, str]]
    tx_seq: int
    rx_expect: int
    buf: bytearray
    skipping: bool
    errors: int
    error: Optional[str]
    lost: int
    resync: bool
    # called with the reason and the rejected line (a slice of buf), None for an oversized one
    on_bad: Optional[Callable[[str, Optional[bytearray]], object]]
    def __init__(self, accept: Optional[dict[str, str]]) -> None: ...
    def frame(self, kind: str, fields: Sequence[FieldValue] = ()) -> bytes: ...
    def feed(self, data: Union[bytes, bytearray]) -> list[Frame]: ...
