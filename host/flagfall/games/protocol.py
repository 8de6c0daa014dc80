"""What the bridge, the virtual board and the simulator ask of a game: the adapter interface.

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

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple, Optional, Protocol, Sequence, TypedDict, Union

from flagcore import outcome as oc
from flagfall.occupancy import Candidate as Candidate
from flagfall.occupancy import Move as Move
from flagfall.occupancy import Square as Square
from flagfall.occupancy import Tracker as Tracker

if TYPE_CHECKING:
    from flagfall.games.registry import GameSpec


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
