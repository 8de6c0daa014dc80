"""What a game is to the host: its `GameSpec` (one entry each in flagfall.games.registry), and what
the bridge, the virtual board and the simulator ask of it: the adapter interface.

Every game family has one adapter class (flagfall.games.chess.ChessAdapter,
draughts.DraughtsAdapter, minzu.MinzuAdapter) that implements every member
of `GameAdapter`; nothing probes for optional ones. A move is opaque outside
its adapter (an int in chess, a Move in draughts, a tuple of decisions in
minzu): callers hand it back to the adapter that made it.

Squares are the game's own numbers: chess 0..63 (a1 = 0), draughts the PDN
numbers 1..N, minzu cells r * cols + c. The wire's sensor indices are mapped
to them by `sensor_map`.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Iterable, NamedTuple, Optional, Protocol, Sequence, TypedDict, Union

from flagcore import outcome as oc
from flagfall.occupancy import Candidate as Candidate
from flagfall.occupancy import Move as Move
from flagfall.occupancy import Square as Square
from flagfall.occupancy import Tracker as Tracker


class RecordWriter(Protocol):
    """A family module's `write_record(spec, tags, texts, result, clocks, fen=None, notes=None)`: the record text."""

    def __call__(self, spec: GameSpec, tags: dict[str, str], texts: Sequence[str], result: str = "*",
                 clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
                 notes: Optional[Sequence[str]] = None) -> str: ...


@dataclass(frozen=True)
class GameSpec:
    """What the host knows of one game (see flagfall.games.registry, which lists them)."""

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


class Prefs(TypedDict, total=False):
    """What the players chose ahead of a move (Game.prefs): the promotion piece (the adapter's number)."""

    promotion: int


@dataclass(frozen=True)
class Outcome:
    """How a game ended by rule: the shape every rules engine's `ending()` gives (flagcore.outcome)."""

    winner: Optional[int]      # 0 the side that moves first, 1 the other, None a draw
    termination: int           # a flagcore.outcome constant
    article: str = ""          # the rulebook article ("FIDE 5.1", "FMJD 6.2", "rule 68")

    @classmethod
    def of(cls, ending: Optional[tuple[Optional[int], int, str]]) -> Optional["Outcome"]:
        """An Outcome from an engine's ending() tuple (None stays None)."""
        if ending is None:
            return None
        return cls(ending[0], ending[1], ending[2] or "")

    @property
    def name(self) -> str:
        """The termination's name ('checkmate', 'repetition', ...)."""
        return oc.name(self.termination)

    def describe(self) -> str:
        """'checkmate (FIDE 5.1)': the termination and its article, for records and messages."""
        return oc.describe((self.winner, self.termination, self.article))


class Travel(NamedTuple):
    """How a piece travels in a move (for the virtual board): from, to, squares passed over."""

    src: Optional[Square]      # None: a piece put on from the hand (minzu placement)
    dst: Square
    via: tuple[Square, ...] = ()


@dataclass(frozen=True)
class Physical:
    """The hand motions of a move: pieces that travel, pieces that come off, squares touched after."""

    travel: tuple[Travel, ...]
    remove: tuple[Square, ...] = ()
    remove_before: bool = False           # captured pieces usually come off before the mover lands
    touch_after: tuple[Square, ...] = ()  # pieces lifted and put back after the move (minzu marks)
    steps: tuple[tuple[Square, bool], ...] = ()   # the canonical hand steps (square, down), when the
    # travels cannot be played one after the other (Chess960 castling: king off, rook, king on)


class GameAdapter(Protocol):
    """A rules engine seen as occupancy changes (see the module docstring). Every member is mandatory."""

    # read-only for callers: an adapter may set them as attributes or give them as properties
    @property
    def spec(self) -> GameSpec:
        """The registry entry this adapter plays."""
    @property
    def game(self) -> str:
        """== spec.name."""
    @property
    def variant(self) -> str:
        """The rules engine's variant name."""
    @property
    def rows(self) -> int:
        """The board's rows (the sensor grid for a full layout)."""
    @property
    def cols(self) -> int:
        """The board's columns."""
    @property
    def nsquares(self) -> int:
        """Playing squares."""
    @property
    def side_names(self) -> tuple[str, str]:
        """Names of the side that moves first and of the other."""
    @property
    def start_fen(self) -> Optional[str]:
        """The start position given, or None for the standard one."""
    @property
    def lazy(self) -> bool:
        """True: candidates are found per board change (candidates_for)."""

    # -- the position
    def start_key(self) -> str:
        """Text naming the start position (the journal checks it on resume)."""
    def side(self) -> int:
        """The side to move: 0 the side that moves first, 1 the other."""
    def occupancy(self) -> frozenset[Square]:
        """Occupied squares."""
    def all_squares(self) -> Iterable[Square]:
        """Every playing square."""
    def position(self) -> str:
        """The position as text (FEN, PDN FEN, minzu position text)."""
    def grid(self) -> list[str]:
        """Rows of the board, top row first as the first side sees it, one character per cell."""
    def cell(self, sq: Square) -> tuple[int, int]:
        """(row, col) of a square in grid()."""
    def name(self, sq: Square) -> str:
        """A square's name for people (e4, 32, C3)."""
    def square(self, name: str) -> Square:
        """A square from its name (ValueError if there is none)."""
    def sensor_map(self, rows: int, cols: int, layout: str) -> list[Optional[Square]]:
        """Sensor index -> square (None off the playing area) for a board of rows x cols sensors."""
    def owner(self, sq: Square) -> Optional[int]:
        """The side owning the piece on sq, or None."""
    def movable(self, sq: Square) -> bool:
        """True if the piece on sq has a legal move that touch-move would force."""
    def can_win(self, side: int) -> bool:
        """False if `side` cannot win by any series of legal moves."""
    def ending(self) -> Optional[Outcome]:
        """How the game ended by rule, or None while it goes on."""

    # -- moves
    def candidates(self) -> list[Candidate]:
        """Every legal move of the side to move as a Candidate (empty for a lazy adapter)."""
    def candidates_for(self, emptied: frozenset[Square], filled: frozenset[Square],
                       tracker: Tracker) -> list[Candidate]:
        """The candidates with exactly this occupancy change (lazy adapters; others filter candidates())."""
    def choose(self, cand: Candidate, prefs: Optional[Prefs] = None) -> Move:
        """The move to play for a matched candidate (the promotion piece from prefs)."""
    def is_legal(self, move: Move) -> bool:
        """True if the move is legal now."""
    def text(self, move: Move) -> str:
        """The move in the record's notation (before it is played)."""
    def parse(self, text: str) -> Move:
        """A legal move from text (ValueError if none or ambiguous)."""
    def push(self, move: Move) -> None:
        """Play a legal move."""
    def pop(self) -> Move:
        """Take back the last move and return it."""
    def ply(self) -> int:
        """Moves (turns) played so far."""
    def physical(self, move: Move) -> Physical:
        """How the pieces travel for a legal move (before it is played)."""
    def evidence_hint(self, cand: Candidate) -> tuple[str, str]:
        """(what the board has not shown, what the hands should do) for a candidate whose occupancy
        fits but whose touch evidence is missing."""
    def move_squares(self, move: Move) -> tuple[Square, ...]:
        """Squares to highlight for a move."""

    # -- promotion (a choice of piece; games without one answer False / 0)
    def is_promotion(self, move: Move) -> bool:
        """True if the move promotes to a piece the player chooses."""
    def promotion_of(self, move: Move) -> int:
        """The promotion piece of a move (0 if none)."""
    def promotion_piece(self, name: str) -> int:
        """A promotion piece from a button or operator word ('q', 'queen', 'promote-n'), or 0."""
    def with_promotion(self, move: Move, piece: Union[int, str]) -> Move:
        """The same move promoting to another piece (a piece number or a word)."""
    def next_promotion(self, move: Move) -> str:
        """The piece word after this move's promotion piece, for a button that cycles them."""

    # -- the record
    def record_text(self, tags: dict[str, str], texts: Sequence[str], result: str,
                    clocks: Optional[Sequence[Optional[float]]], notes: Optional[Sequence[str]] = None) -> str:
        """The game record so far (PGN, PDN, minzu record) from the move texts played on this
        adapter, with the mover's clock (seconds) after each move where known, and a note per
        move where the record format has comments ('' for none)."""


class AdapterBase:
    """What most adapters share: status() from ending(), filtering candidates, no promotion choice.

    An adapter class derives from this and sets `spec`; it overrides what its game does otherwise.
    """

    spec: GameSpec
    lazy = False
    start_fen: Optional[str] = None

    @property
    def game(self) -> str:
        """The game's canonical name (GameSpec.name)."""
        return self.spec.name

    @property
    def side_names(self) -> tuple[str, str]:
        """Names of the side that moves first and of the other."""
        return self.spec.side_names

    def ending(self) -> Optional[Outcome]:
        """How the game ended by rule, or None while it goes on (adapters override)."""
        raise NotImplementedError

    def status(self) -> Optional[tuple[str, str]]:
        """(result text, reason text) once the rules end the game, else None (a reading of ending())."""
        o = self.ending()
        if o is None:
            return None
        return (self.spec.result(o.winner), o.describe())

    def candidates(self) -> list[Candidate]:
        """Every legal move as a Candidate (adapters override)."""
        raise NotImplementedError

    def candidates_for(self, emptied: frozenset[Square], filled: frozenset[Square],
                       tracker: Tracker) -> list[Candidate]:
        """The candidates with exactly this occupancy change."""
        return [c for c in self.candidates() if c.emptied == emptied and c.filled == filled]

    def evidence_hint(self, cand: Candidate) -> tuple[str, str]:
        """(what the board has not shown, what the hands should do) for a candidate whose occupancy
        fits but whose touch evidence is missing."""
        return ("capture not shown", "lift the captured piece's square and put the capturing piece back on it")

    def is_promotion(self, move: Move) -> bool:
        """No piece to choose in this game."""
        return False

    def promotion_of(self, move: Move) -> int:
        """No promotion piece in this game."""
        return 0

    def promotion_piece(self, name: str) -> int:
        """No promotion piece in this game."""
        return 0

    def with_promotion(self, move: Move, piece: Union[int, str]) -> Move:
        """No promotion piece in this game: the move unchanged."""
        return move

    def next_promotion(self, move: Move) -> str:
        """No promotion piece in this game."""
        return ""

    def square(self, name: str) -> Square:
        """A square from its name: the square whose name() it is, or its number."""
        text = str(name).strip()
        for sq in self.all_squares():
            if self.name(sq).lower() == text.lower():
                return sq
        if text.isdigit() and int(text) in set(self.all_squares()):
            return int(text)
        raise ValueError("no square %r on this board" % text)

    def all_squares(self) -> Iterable[Square]:
        """Every playing square (adapters override)."""
        raise NotImplementedError

    def name(self, sq: Square) -> str:
        """A square's name (adapters override)."""
        raise NotImplementedError

    def record_text(self, tags: dict[str, str], texts: Sequence[str], result: str,
                    clocks: Optional[Sequence[Optional[float]]], notes: Optional[Sequence[str]] = None) -> str:
        """The record in the family's format, written by its one writer (GameSpec.module().write_record)."""
        return self.spec.write_record(tags, texts, result, clocks, fen=self.start_fen, notes=notes)
