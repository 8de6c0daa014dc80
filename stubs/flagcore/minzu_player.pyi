from typing import Optional

from flagcore.minzu import Decision, Game, Ruleset

class Player:
    def __init__(self, seed: int = 1, lookahead: int = 6) -> None: ...
    def choose(self, g: Game) -> Decision: ...

def play_game(size: int | str, seed: int = 1, rules: Optional[Ruleset] = None, check: bool = True,
              texts: Optional[list[str]] = None, max_plies: int = 200000,
              kinds: Optional[list[int]] = None) -> tuple[Game, int, list[str]]: ...
