"""The games Flagfall knows: one entry each, and every table on the host derives from here.

A `GameSpec` says what a game is for the host: its family (which rules
engine, record format and host module), its board and how sensors map to
it, its side names, how results are written (FMJD 2-0 or 1-0), the
illegal-move penalty policy, its start position and the adapter the bridge
follows it with. Adding a game is one entry here plus its adapter.

Names: `chess`, `chess960` (a start position by number, `--position N`, or
a FEN), `draughts` (international, FMJD 10x10; `international` is an
alias), `brazilian`, `russian`, `checkers`, `minzu` (board size as an option:
`minzu9`, `minzu:7x8`, or `--size`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Optional, Protocol, Sequence

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter

MINZU_SIZES = ("6", "7", "8", "9", "14", "7x8")


class RecordWriter(Protocol):
    """A family module's `write_record(spec, tags, texts, result, clocks, fen=None, notes=None)`: the record text."""

    def __call__(self, spec: GameSpec, tags: dict[str, str], texts: Sequence[str], result: str = "*",
                 clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
                 notes: Optional[Sequence[str]] = None) -> str: ...


@dataclass(frozen=True)
class GameSpec:
    """What the host knows of one game (see the module docstring)."""

    name: str                      # canonical name: command lines, live state "game", journals
    title: str                     # for people: "international draughts"
    family: str                    # "chess", "draughts" or "minzu": rules engine + record format
    variant: str                   # the rules engine's own variant name
    side_names: tuple[str, str]    # the side that moves first, then the other
    scoring: tuple[str, str, str]  # result text: first side wins, second side wins, draw
    record_format: str             # file extension and feed format: "pgn", "pdn" or "txt"
    penalty_policy: str            # seeds/penalties.json entry for illegal moves (for chess: the default laws)
    board_sizes: tuple[tuple[int, int], ...]   # (rows, cols) a board for this game may have
    layouts: tuple[str, ...]       # sensor layouts ("full", "dark"); the first is the default
    pieces: int                    # pieces in a set (bill of materials); 0: depends on the size
    sim_profile: str               # the board profile the simulator uses by default ("" none yet)
    gametype: str = ""             # PDN GameType number (draughts family)
    aliases: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)   # adapter options this spec fixes
    laws: tuple[str, ...] = ()     # the laws editions an event may choose for it (--laws), the default first

    def result(self, winner: int | None) -> str:
        """Result text for a winner (0 the first side, 1 the other) or None for a draw."""
        if winner is None:
            return self.scoring[2]
        return self.scoring[winner]

    def winner_of(self, result: str) -> int | None:
        """The winner of a result text (0, 1, None for a draw); ValueError for '*' or a foreign text."""
        if result in self.scoring:
            i = self.scoring.index(result)
            return None if i == 2 else i
        raise ValueError("%r is not a finished %s result (%s)" % (result, self.title, ", ".join(self.scoring)))

    @property
    def points(self) -> tuple[float, float]:
        """(a win's, a draw's) points on the game's own scale, read from its scoring texts (a loss
        scores 0): chess 1-0 and 1/2-1/2 give (1, 0.5), FMJD draughts 2-0 and 1-1 give (2, 1)."""
        def value(text: str) -> float:
            num, _, den = text.split("-")[0].partition("/")
            return float(num) / float(den or 1)
        return value(self.scoring[0]), value(self.scoring[2])

    @property
    def results(self) -> tuple[str, ...]:
        """Every result text of this game, '*' (unfinished) last."""
        return self.scoring + ("*",)

    def module(self) -> ModuleType:
        """The host module of the game's family (records, perft, moves): flagfall.games.<family>."""
        return importlib.import_module("flagfall.games." + self.family)

    def write_record(self, tags: dict[str, str], texts: Sequence[str], result: str = "*",
                     clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
                     notes: Optional[Sequence[str]] = None) -> str:
        """The record text by the family's one writer (module().write_record); notes: a comment per
        move ('' for none), for the families whose records have comments."""
        writer: RecordWriter = getattr(self.module(), "write_record")
        if notes and any(notes):
            return writer(self, tags, texts, result, clocks, fen=fen, notes=notes)
        return writer(self, tags, texts, result, clocks, fen=fen)

    def first_side(self, fen: str) -> int:
        """0 if the side that moves first in this game is to move in `fen`, 1 if the other is
        (module().first_side)."""
        first: Callable[[GameSpec, str], int] = getattr(self.module(), "first_side")
        return first(self, fen)

    def adapter(self, **options: Any) -> GameAdapter:
        """A new adapter (the rules engine seen by the bridge) for this game."""
        opts = dict(self.options)
        opts.update({k: v for k, v in options.items() if v is not None})
        factory: Callable[..., GameAdapter] = getattr(self.module(), "make_adapter")
        return factory(self, **opts)


LAWS = ("fide-2023", "fide-2018", "fide-2000")
"""The FIDE Laws of Chess editions an event or a bridge follows for chess (--laws), the Laws in force
first (the default). Each is a seeds/penalties.json entry: its illegal-move penalty (docs/event.md)."""


def _chess(name: str = "chess", title: str = "chess", aliases: tuple[str, ...] = ()) -> GameSpec:
    return GameSpec(
        name=name, title=title, family="chess", variant=name,
        side_names=("White", "Black"), scoring=("1-0", "0-1", "1/2-1/2"), record_format="pgn",
        penalty_policy=LAWS[0], board_sizes=((8, 8),), layouts=("full",), pieces=32,
        sim_profile="pico-chess", aliases=aliases, laws=LAWS)


def _draughts(name: str, title: str, size: int, pieces: int, gametype: str, profile: str,
              scoring: tuple[str, str, str] = ("1-0", "0-1", "1/2-1/2"),
              sides: tuple[str, str] = ("White", "Black"), policy: str = "fmjd",
              variant: str | None = None, aliases: tuple[str, ...] = ()) -> GameSpec:
    return GameSpec(
        name=name, title=title, family="draughts", variant=variant or name, side_names=sides,
        scoring=scoring, record_format="pdn", penalty_policy=policy, board_sizes=((size, size),),
        layouts=("dark", "full"), pieces=pieces, sim_profile=profile, gametype=gametype, aliases=aliases)


def _minzu() -> GameSpec:
    return GameSpec(
        name="minzu", title="minzu tiaoqi", family="minzu", variant="minzu",
        side_names=("Light", "Dark"), scoring=("1-0", "0-1", "1/2-1/2"), record_format="txt",
        penalty_policy="minzu",
        board_sizes=((6, 6), (7, 7), (8, 8), (9, 9), (14, 14), (7, 8), (8, 7)),
        layouts=("full",), pieces=0, sim_profile="pico-minzu14")


GAMES: dict[str, GameSpec] = {s.name: s for s in (
    _chess(),
    _chess("chess960", "Chess960", aliases=("fischerandom", "960")),
    _draughts("draughts", "international draughts", 10, 40, "20", "pico-draughts10",
              scoring=("2-0", "0-2", "1-1"), variant="international", aliases=("international",)),
    _draughts("brazilian", "Brazilian draughts", 8, 24, "26", ""),
    _draughts("russian", "Russian draughts", 8, 24, "25", ""),
    _draughts("checkers", "English checkers", 8, 24, "21", "pico-checkers",
              sides=("Red", "White"), policy="checkers"),
    _minzu(),
)}
"""Every game by canonical name, in the order they are listed to people."""

FAMILIES: tuple[str, ...] = tuple(dict.fromkeys(s.family for s in GAMES.values()))


def names() -> list[str]:
    """Every name a game may be given on a command line (canonical names and aliases)."""
    out: list[str] = []
    for s in GAMES.values():
        out.append(s.name)
        out.extend(s.aliases)
    return out


def lookup(name: str) -> tuple[GameSpec, dict[str, Any]]:
    """(spec, adapter options) for a game name; ValueError with the choices for an unknown one.

    Minzu takes its board size in the name: `minzu9`, `minzu-7x8`, `minzu:14`.
    """
    text = str(name).strip()
    low = text.lower()
    for s in GAMES.values():
        if low == s.name or low in s.aliases:
            return s, {}
    if low.startswith("minzu"):
        size = low[5:].lstrip(":-")
        if size in MINZU_SIZES:
            return GAMES["minzu"], {"size": size}
        raise ValueError("unknown minzu board size %r in %r (sizes: %s; e.g. minzu9)"
                         % (size, text, ", ".join(MINZU_SIZES)))
    raise ValueError("unknown game %r (choose from %s)" % (text, ", ".join(names())))


def spec(name: str) -> GameSpec:
    """The GameSpec for a name (aliases and minzu sizes included); ValueError for an unknown one."""
    return lookup(name)[0]


def of_family(family: str) -> list[GameSpec]:
    """The games of one family, in registry order."""
    return [s for s in GAMES.values() if s.family == family]


def by_format(record_format: str) -> list[GameSpec]:
    """The games whose records (and feeds) are in one format ('pgn', 'pdn', 'txt')."""
    return [s for s in GAMES.values() if s.record_format == record_format]


def by_gametype(gametype: str) -> GameSpec | None:
    """The draughts game of a PDN GameType number ('20', '21', ...; options after a comma ignored)."""
    number = str(gametype).split(",")[0].strip()
    for s in GAMES.values():
        if s.gametype and s.gametype == number:
            return s
    return None


def make_adapter(name: str, **options: Any) -> GameAdapter:
    """The adapter for a game name (see lookup) with extra options (fen, size, edition...)."""
    s, opts = lookup(name)
    opts.update(options)
    return s.adapter(**opts)
