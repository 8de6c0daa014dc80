"""Time-control presets and penalty policies from seeds/."""
from __future__ import annotations

from typing import Any

from flagcore import timecontrol

from flagfall import seeds


def time_controls() -> dict[str, Any]:
    """All time-control presets: name -> entry with 'tc', 'name', 'source', 'article'."""
    return seeds.entries("time_controls")


def time_control(spec: str) -> timecontrol.TimeControl:
    """A TimeControl from a preset name or time-control text; raises ValueError naming the problem."""
    presets = time_controls()
    if spec in presets:
        return timecontrol.parse(presets[spec]["tc"])
    try:
        return timecontrol.parse(spec)
    except timecontrol.TimeControlError as e:
        if spec and (spec[0].isalpha() and spec[0] not in "cW"):
            raise ValueError("%s (and no preset is named %r; presets: %s)"
                             % (e, spec, ", ".join(sorted(presets)))) from None
        raise


def penalty_policy(name: str) -> tuple[int, int, bool]:
    """(opponent_bonus_ms, loses_at, first_is_warning) of a penalty policy in seeds/penalties.json."""
    policies = seeds.entries("penalties")
    if name not in policies:
        raise ValueError("unknown penalty policy %r (choose from %s)" % (name, ", ".join(sorted(policies))))
    p = policies[name]
    return p["opponent_bonus_ms"], p["loses_at"], p["first_is_warning"]


def penalty_drawn_if_no_mate(name: str) -> bool:
    """True if, under the penalty policy `name`, the illegal move that would lose draws instead when the
    opponent cannot win from the position (FIDE Laws 2018 and 2023, art. 7.5.5)."""
    penalty_policy(name)             # an unknown name: the same ValueError
    return bool(seeds.entries("penalties")[name].get("drawn_if_no_mate", False))
