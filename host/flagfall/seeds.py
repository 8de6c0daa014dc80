"""Access to seeds/: the rulebook facts kept as data (presets, rulesets, penalties)."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def seeds_dir():
    """The seeds/ folder (FLAGFALL_SEEDS overrides it)."""
    return os.environ.get("FLAGFALL_SEEDS") or os.path.join(ROOT, "seeds")


def load(name):
    """The parsed JSON file seeds/<name>.json."""
    path = os.path.join(seeds_dir(), name + ".json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise FileNotFoundError("seed file missing: %s" % path) from None


def entries(name):
    """The entries of a seed file, without its '_about' note."""
    return {k: v for k, v in load(name).items() if not k.startswith("_")}
