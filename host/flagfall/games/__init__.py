"""Host-side support per game family: records (PGN/PDN/...) and command-line adapters.

Each family module (chess, draughts, minzu) provides:
    VARIANTS                       names accepted on the command line
    perft(variant, depth, fen, divide, out) -> int   prints, returns the node count
    moves(variant, fen, **options) -> list of str    legal moves, sorted
"""
import importlib

FAMILIES = {
    "chess": "chess", "chess960": "chess",
    "draughts": "draughts", "international": "draughts", "brazilian": "draughts",
    "russian": "draughts", "checkers": "draughts",
    "minzu": "minzu",
}


def family(variant):
    """The host module for a variant name; raises ValueError for an unknown one."""
    name = FAMILIES.get(variant)
    if name is None:
        raise ValueError("unknown game %r (choose from %s)" % (variant, ", ".join(sorted(FAMILIES))))
    return importlib.import_module("flagfall.games." + name)
