"""What every record format shares (PGN, PDN, minzu records): decoding, tags, clock comments, line wrapping."""
from __future__ import annotations

import os
import re
from typing import Iterable, Optional, Union

TAG = re.compile(r'^\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
# a value with unescaped quotes inside, as some real files have
LOOSE_TAG = re.compile(r'^\s*\[\s*(\w+)\s+"(.*)"\s*\]\s*$')


class RecordError(ValueError):
    """A game of a record file that cannot be read or replayed. The message names the game
    and the move; `reason` is the cause in a few words ("null move", "illegal move",
    "Chess960 not supported", ...), for a summary of the games a command skipped.
    `number` is the game's place in its file (1, 2, ...) where a reader of whole files knows it."""

    number: Optional[int] = None

    def __init__(self, message: str, reason: str = "unreadable game") -> None:
        ValueError.__init__(self, message)
        self.reason = reason


def skip_summary(reasons: Iterable[str]) -> str:
    """'3 null move, 1 illegal move' from a list of reasons (most frequent first)."""
    counts: dict[str, int] = {}
    for r in reasons:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (-counts[r], r))
    return ", ".join("%d %s" % (counts[r], r) for r in order)


def decode(data: bytes) -> str:
    """Text of a record file's bytes: UTF-8 (with or without BOM), else Latin-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def read_text(path: Union[str, os.PathLike[str]]) -> str:
    """The decoded text of a record file."""
    with open(path, "rb") as f:
        return decode(f.read())


def tag_line(key: str, value: object) -> str:
    """'[Key "value"]' with backslashes and quotes escaped and newlines folded."""
    v = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    return '[%s "%s"]' % (key, v)


def unescape_tag(value: str) -> str:
    """A tag value with its backslash escapes undone (the inverse of tag_line's escaping)."""
    return value.replace('\\"', '"').replace("\\\\", "\\")


def parse_tag(line: str, strict: bool = False) -> Optional[tuple[str, str]]:
    """(key, value) of a tag line, escapes undone, or None; strict refuses unescaped quotes inside."""
    m = TAG.match(line) or (None if strict else LOOSE_TAG.match(line))
    if m is None:
        return None
    return m.group(1), unescape_tag(m.group(2))


def format_clock(seconds: float) -> str:
    """'h:mm:ss' for a clock comment: whole seconds, rounded down, never negative."""
    s = max(0, int(seconds))
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def clock_comment(seconds: float) -> str:
    """'{[%clk h:mm:ss]}' after a move."""
    return "{[%%clk %s]}" % format_clock(seconds)


def move_comment(seconds: Optional[float], note: str = "") -> str:
    """The comment after a move: '{[%clk h:mm:ss]}', with a note ('{[%clk 0:50:29] entered by the
    arbiter}', or '{entered by the arbiter}' without a clock); '' when there is neither."""
    if seconds is None:
        return "{%s}" % note.replace("}", ")") if note else ""
    if not note:
        return clock_comment(seconds)
    return "{[%%clk %s] %s}" % (format_clock(seconds), note.replace("}", ")"))


_TIME = r"(?:(\d+):)?(\d+):(\d\d(?:[.,]\d+)?)"
_CLK = re.compile(r"\[%clk\s+" + _TIME + r"\s*\]")
_EMT = re.compile(r"\[%emt\s+" + _TIME + r"\s*\]")
_SIDE_CLOCKS = re.compile(r"\[%clock((?:\s+[wWbB]" + _TIME + r")+)\s*\]")
_SIDE_CLOCK = re.compile(r"([wWbB])" + _TIME)


def _seconds(m: re.Match[str], i: int = 1) -> float:
    h = m.group(i)
    return (int(h) * 3600 if h else 0) + int(m.group(i + 1)) * 60 + float(m.group(i + 2).replace(",", "."))


def parse_clock(comment: Optional[str]) -> Optional[float]:
    """Seconds from a '[%clk h:mm:ss]' inside a comment's text, or None.

    Also takes tenths ('0:03:00.5', chess.com) and 'mm:ss' without hours."""
    m = _CLK.search(comment or "")
    if m is None:
        return None
    return _seconds(m)


def parse_emt(comment: Optional[str]) -> Optional[float]:
    """Seconds from a '[%emt h:mm:ss]' (time the move took: ChessBase, TWIC) inside a comment, or None."""
    m = _EMT.search(comment or "")
    if m is None:
        return None
    return _seconds(m)


def parse_side_clocks(comment: Optional[str]) -> Optional[dict[str, Union[float, str, None]]]:
    """Both clocks of a Lidraughts '[%clock w0:10:00 B0:09:58]' comment: {'w': s, 'b': s, 'running': side}.

    Lidraughts writes the clock of the side to move (whose clock runs) with a capital letter;
    'running' is that side ('w' or 'b'), or None if the comment does not say. None if there is
    no such comment."""
    m = _SIDE_CLOCKS.search(comment or "")
    if m is None:
        return None
    out: dict[str, Union[float, str, None]] = {"running": None}
    for part in _SIDE_CLOCK.finditer(m.group(1)):
        side = part.group(1)
        out[side.lower()] = _seconds(part, 2)
        if side.isupper():
            out["running"] = None if out["running"] else side.lower()
    return out


def wrap(tokens: Iterable[str], width: int = 79) -> list[str]:
    """Movetext tokens joined by spaces into lines of at most `width` (a longer token stands alone)."""
    lines: list[str] = []
    cur = ""
    for t in tokens:
        if cur and len(cur) + 1 + len(t) > width:
            lines.append(cur)
            cur = t
        else:
            cur = t if not cur else cur + " " + t
    if cur:
        lines.append(cur)
    return lines
