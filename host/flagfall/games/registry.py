"""The games Flagfall knows: one entry each, and every table on the host derives from here.

A `GameSpec` (defined in flagfall.games.protocol, beside the adapter interface
it hands out) says what a game is for the host: its family (which rules
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

from typing import Any

from flagfall.games.protocol import GameAdapter
from flagfall.games.protocol import GameSpec as GameSpec    # the entries' type, with the adapter interface

MINZU_SIZES = ("6", "7", "8", "9", "14", "7x8")


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
