"""Draughts on the bridge: flagcore.draughts (international, Brazilian, Russian, checkers) as occupancy changes.

Moves are flagcore.draughts Move objects; squares are the PDN numbers 1..N.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from flagcore import draughts as dc

from flagfall.occupancy import Candidate, Touch
from flagfall.games.protocol import AdapterBase, Outcome, Physical, Prefs, Square, Travel

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter
    from flagfall.games.registry import GameSpec

class DraughtsAdapter(AdapterBase):
    """International, Brazilian, Russian draughts and English checkers through flagcore.draughts."""

    def __init__(self, spec: GameSpec, fen: Optional[str] = None) -> None:
        self.spec = spec
        self.g = dc.Game(spec.variant, fen)
        self.variant = self.g.variant
        self.start_fen = fen
        r = self.g.rules
        self.nsquares = r.nsq
        self.rows = self.cols = r.size
        self.first = r.first

    def start_key(self) -> str:
        """Text naming the start position."""
        return self.start_fen or self.g.fen()

    def side(self) -> int:
        """0 for the side that moves first, 1 for the other."""
        return 0 if self.g.side == self.first else 1

    def colour(self, side: int) -> int:
        """Core colour code of a side index."""
        return self.first if side == 0 else self.first ^ 3

    def occupancy(self) -> frozenset[Square]:
        """Occupied squares (numbers)."""
        r = self.g.rules
        b = self.g.board
        return frozenset(s for s in range(1, r.nsq + 1) if b[r.s2i[s]] & 3)

    def candidates(self) -> list[Candidate]:
        """Every legal move as a Candidate (captured pieces emptied; a crowning is invisible)."""
        out: list[Candidate] = []
        for m in self.g.legal():
            touch: tuple[Touch, ...]
            if m.frm != m.to:
                e = (m.frm,) + m.captured
                f: tuple[Square, ...] = (m.to,)
                touch = ()
            else:
                # a king that captures round and lands where it started
                e = m.captured
                f = ()
                touch = ((m.frm, ()),)
            out.append(Candidate(e, f, touch, [m], m.frm, m.short()))
        return out

    def choose(self, cand: Candidate, prefs: Optional[Prefs] = None) -> dc.Move:
        """Moves with one signature are one move: the first."""
        first: dc.Move = cand.moves[0]
        return first

    def is_legal(self, move: dc.Move) -> bool:
        """True if move is legal now."""
        return move in self.g.legal()

    def text(self, move: dc.Move) -> str:
        """PDN move text."""
        return self.g.move_text(move)

    def parse(self, text: str) -> dc.Move:
        """A legal move from PDN text (raises if ambiguous)."""
        return self.g.parse(text)

    def push(self, move: dc.Move) -> None:
        """Play a legal move."""
        self.g.push(move)

    def pop(self) -> dc.Move:
        """Take back the last move."""
        return self.g.pop()

    def ply(self) -> int:
        """Moves played so far."""
        return len(self.g.history)

    def ending(self) -> Optional[Outcome]:
        """How the game ended by rule, or None."""
        return Outcome.of(self.g.ending())

    def owner(self, sq: Square) -> Optional[int]:
        """Side owning the piece on sq, or None."""
        r = self.g.rules
        p = self.g.board[r.s2i[sq]] & 3
        if not p:
            return None
        return 0 if p == self.first else 1

    def movable(self, sq: Square) -> bool:
        """True if the piece on sq has a legal move."""
        for m in self.g.legal():
            if m.frm == sq:
                return True
        return False

    def can_win(self, side: int) -> bool:
        """Draughts: a side with pieces can win (no material test in the rules)."""
        col = self.colour(side)
        return any(p & col and not p & dc.WALL for p in self.g.board)

    def physical(self, move: dc.Move) -> Physical:
        """The moving piece hops along its landing path; captured pieces come off."""
        via = tuple(move.path[1:-1]) if move.captured else ()
        return Physical((Travel(move.frm, move.to, via),), tuple(move.order), remove_before=True)

    def position(self) -> str:
        """PDN FEN."""
        return self.g.fen()

    def grid(self) -> list[str]:
        """Rows of the board, top row first: w/W white man/king, b/B black."""
        r = self.g.rules
        size = r.size
        rows = [["."] * size for _ in range(size)]
        for s in range(1, r.nsq + 1):
            p = self.g.board[r.s2i[s]]
            if p & 3:
                row, col = self.cell(s)
                ch = "w" if p & dc.WHITE else "b"
                rows[row][col] = ch.upper() if p & dc.KING else ch
        return ["".join(x) for x in rows]

    def cell(self, sq: Square) -> tuple[int, int]:
        """(row, col) of a square number, top-left as White sees the board."""
        h = self.g.rules.half
        row = (sq - 1) // h
        k = (sq - 1) % h
        col = 2 * k + (1 if row % 2 == 0 else 0)
        return (row, col)

    def name(self, sq: Square) -> str:
        """Square name for alerts."""
        return self.g.rules.square_name(sq, self.g.algebraic())

    def all_squares(self) -> range:
        """Every playing square (numbers 1..N)."""
        return range(1, self.nsquares + 1)

    def sensor_map(self, rows: int, cols: int, layout: str) -> list[Optional[Square]]:
        """Sensor -> square number: a dark-only board numbers its sensors like the squares;
        a full board carries numbers on its dark squares only."""
        if layout == "dark":
            return [i + 1 if i < self.nsquares else None for i in range(rows * (cols // 2))]
        size = self.rows
        out: list[Optional[Square]] = []
        for r in range(rows):
            for c in range(cols):
                if r < size and c < size and (r + c) % 2 == 1:
                    out.append(r * (size // 2) + c // 2 + 1)
                else:
                    out.append(None)
        return out

    def move_squares(self, move: dc.Move) -> tuple[Square, ...]:
        """Squares to highlight."""
        return tuple(move.path)


if TYPE_CHECKING:
    _ADAPTER: type[GameAdapter] = DraughtsAdapter     # mypy checks that the class implements the Protocol
