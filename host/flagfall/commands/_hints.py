"""Hints added to error messages of several commands."""
from __future__ import annotations

import re
from typing import Optional

_UNITS = (("hours", 3600), ("hour", 3600), ("hrs", 3600), ("hr", 3600), ("h", 3600),
          ("minutes", 60), ("minute", 60), ("mins", 60), ("min", 60), ("m", 60),
          ("seconds", 1), ("second", 1), ("secs", 1), ("sec", 1), ("s", 1))
_NUMBER_UNIT = re.compile(r"(\d+(?:\.\d+)?)\s*(%s)(?![a-z])" % "|".join(u for u, _ in _UNITS), re.I)


def tc_hint(text: Optional[str]) -> str:
    """'; times are in seconds: did you mean 40/5400?' for '40/90min', else ''."""
    if not isinstance(text, str) or not _NUMBER_UNIT.search(text):
        return ""
    factor = dict(_UNITS)

    def seconds(m: re.Match[str]) -> str:
        v = float(m.group(1)) * factor[m.group(2).lower()]
        return "%d" % v if v == int(v) else "%g" % v
    fixed = _NUMBER_UNIT.sub(seconds, text)
    return "; times are written in seconds: did you mean %s?" % fixed
