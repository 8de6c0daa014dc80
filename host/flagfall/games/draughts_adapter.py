"""Draughts on the bridge: flagcore.draughts (international, Brazilian, Russian, checkers) as occupancy changes.

Moves are flagcore.draughts Move objects; squares are the PDN numbers 1..N.
"""
from flagcore import draughts as dc

from flagfall.bridge.core import Candidate
from flagfall.games.protocol import AdapterBase, Outcome, Physical, Travel

class DraughtsAdapter(AdapterBase):
    """International, Brazilian, Russian draughts and English checkers through flagcore.draughts."""

    def __init__(self, spec, fen=None):
        self.spec = spec
        self.g = dc.Game(spec.variant, fen)
        self.variant = self.g.variant
        self.start_fen = fen
        r = self.g.rules
        self.nsquares = r.nsq
        self.rows = self.cols = r.size
        self.first = r.first

    def start_key(self):
        """Text naming the start position."""
        return self.start_fen or self.g.fen()

    def side(self):
        """0 for the side that moves first, 1 for the other."""
        return 0 if self.g.side == self.first else 1

    def colour(self, side):
        """Core colour code of a side index."""
        return self.first if side == 0 else self.first ^ 3

    def occupancy(self):
        """Occupied squares (numbers)."""
        r = self.g.rules
        b = self.g.board
        return frozenset(s for s in range(1, r.nsq + 1) if b[r.s2i[s]] & 3)

    def candidates(self):
        """Every legal move as a Candidate (captured pieces emptied; a crowning is invisible)."""
        out = []
        for m in self.g.legal():
            if m.frm != m.to:
                e = (m.frm,) + m.captured
                f = (m.to,)
                touch = ()
            else:
                # a king that captures round and lands where it started
                e = m.captured
                f = ()
                touch = ((m.frm, ()),)
            out.append(Candidate(e, f, touch, [m], m.frm, m.short()))
        return out

    def choose(self, cand, prefs=None):
        """Moves with one signature are one move: the first."""
        return cand.moves[0]

    def is_legal(self, move):
        """True if move is legal now."""
        return move in self.g.legal()

    def text(self, move):
        """PDN move text."""
        return self.g.move_text(move)

    def parse(self, text):
        """A legal move from PDN text (raises if ambiguous)."""
        return self.g.parse(text)

    def push(self, move):
        """Play a legal move."""
        self.g.push(move)

    def pop(self):
        """Take back the last move."""
        return self.g.pop()

    def ply(self):
        """Moves played so far."""
        return len(self.g.history)

    def ending(self):
        """How the game ended by rule, or None."""
        return Outcome.of(self.g.ending())

    def owner(self, sq):
        """Side owning the piece on sq, or None."""
        r = self.g.rules
        p = self.g.board[r.s2i[sq]] & 3
        if not p:
            return None
        return 0 if p == self.first else 1

    def movable(self, sq):
        """True if the piece on sq has a legal move."""
        for m in self.g.legal():
            if m.frm == sq:
                return True
        return False

    def can_win(self, side):
        """Draughts: a side with pieces can win (no material test in the rules)."""
        col = self.colour(side)
        return any(p & col and not p & dc.WALL for p in self.g.board)

    def physical(self, move):
        """The moving piece hops along its landing path; captured pieces come off."""
        via = tuple(move.path[1:-1]) if move.captured else ()
        return Physical((Travel(move.frm, move.to, via),), tuple(move.order), remove_before=True)

    def position(self):
        """PDN FEN."""
        return self.g.fen()

    def grid(self):
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

    def cell(self, sq):
        """(row, col) of a square number, top-left as White sees the board."""
        h = self.g.rules.half
        row = (sq - 1) // h
        k = (sq - 1) % h
        col = 2 * k + (1 if row % 2 == 0 else 0)
        return (row, col)

    def name(self, sq):
        """Square name for alerts."""
        return self.g.rules.square_name(sq, self.g.algebraic())

    def all_squares(self):
        """Every playing square (numbers 1..N)."""
        return range(1, self.nsquares + 1)

    def sensor_map(self, rows, cols, layout):
        """Sensor -> square number: a dark-only board numbers its sensors like the squares;
        a full board carries numbers on its dark squares only."""
        if layout == "dark":
            return [i + 1 if i < self.nsquares else None for i in range(rows * (cols // 2))]
        size = self.rows
        out = []
        for r in range(rows):
            for c in range(cols):
                if r < size and c < size and (r + c) % 2 == 1:
                    out.append(r * (size // 2) + c // 2 + 1)
                else:
                    out.append(None)
        return out

    def move_squares(self, move):
        """Squares to highlight."""
        return tuple(move.path)
