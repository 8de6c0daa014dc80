"""The games: the registry (registry.py), the adapter interface (protocol.py), one module per family.

Each family module (chess, draughts, minzu) provides:
    VARIANTS                       names accepted on the command line
    perft(variant, depth, fen, divide, out) -> int   prints, returns the node count
    moves(variant, fen, **options) -> list of str    legal moves, sorted
    make_adapter(spec, **options)  the bridge's GameAdapter
    reading and writing its records (PGN, PDN, minzu records)
"""
from types import ModuleType

from flagfall.games import registry


def family(variant: str) -> ModuleType:
    """The host module for a game name; raises ValueError for an unknown one."""
    return registry.spec(variant).module()
