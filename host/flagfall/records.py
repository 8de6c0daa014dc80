"""What every record format shares (PGN, PDN, minzu records): decoding, tags, clock comments, line wrapping."""
from __future__ import annotations

import os
import re
from typing import Iterable, Optional, Union

TAG = re.compile(r'^\s*\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
# a value with unescaped quotes inside, as some real files have
LOOSE_TAG = re.compile(r'^\s*\[\s*(\w+)\s+"(.*)"\s*\]\s*$')


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


_CLK = re.compile(r"\[%clk\s+(\d+):(\d\d):(\d\d(?:\.\d+)?)\]")


def parse_clock(comment: Optional[str]) -> Optional[float]:
    """Seconds from a '[%clk h:mm:ss]' inside a comment's text, or None."""
    m = _CLK.search(comment or "")
    if m is None:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


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
