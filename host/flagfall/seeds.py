"""The rulebook facts kept as data (seeds/: presets, rulesets, penalties), read as package data."""
from typing import Any

from flagfall import data


def load(name: str) -> Any:
    """The parsed JSON file seeds/<name>.json."""
    return data.read_json("seeds", name)


def entries(name: str) -> dict[str, Any]:
    """The entries of a seed file, without its '_about' note."""
    return {k: v for k, v in load(name).items() if not k.startswith("_")}
