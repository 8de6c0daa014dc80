"""Data shipped with the package: seeds/ (rulebook facts) and boards/ (board profiles).

In the repository they live at the top level (seeds/, boards/); the package
maps them here (pyproject.toml), so `importlib.resources` finds them the same
way in a source checkout, an editable install and an installed wheel.
"""
import json
from importlib import resources
from typing import Any


def read_json(folder: str, name: str) -> Any:
    """The parsed JSON file `name`.json of a data folder ('seeds' or 'boards')."""
    path = resources.files("flagfall.data." + folder).joinpath(name + ".json")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError("%s/%s.json is missing from the flagfall package data" % (folder, name)) from None
    return json.loads(text)


def names(folder: str) -> list[str]:
    """The names (without .json) of the files of a data folder, sorted."""
    return sorted(p.name[:-5] for p in resources.files("flagfall.data." + folder).iterdir()
                  if p.name.endswith(".json"))
