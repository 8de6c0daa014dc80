"""Per-game adapters: the shared rules engines seen as occupancy candidates.

Every adapter offers the same small interface to the game-agnostic
reconstruction (core.py) and to the virtual board (virtualboard.py):

    game, variant, nsquares, side_names
    side()                 0 = the side that moves first (white, red, light), 1 = the other
    occupancy()            frozenset of occupied squares (the game's own square numbers)
    candidates()           list of core.Candidate for the side to move
    choose(cand, prefs)    the rule-level move to play for a matched candidate
    text(move)             the move in the record's notation (before it is played)
    push(move) / pop()     play / take back
    status()               None, or (result, reason) when the rules end the game
    owner(sq), movable(sq) for touch-move alerts
    can_win(side)          False when `side` cannot win by any series of legal moves
    physical(move)         how the pieces travel: {"travel": [(src, dst, via)], "remove": [sq...]}
    position(), grid(), cell(sq) -> (row, col)   for records and the live state
    start_key()            text identifying the start position (journal check)

Squares: chess 0..63 (a1 = 0); draughts the PDN numbers 1..N; minzu cells
r * cols + c. Sensor indices on the wire are mapped to these by the session.
"""
from flagcore import chess as cc
from flagcore import draughts as dc

from flagfall.bridge.core import Candidate

GAMES = ("chess", "draughts", "international", "brazilian", "russian", "checkers", "minzu")


def make(game, **options):
    """The adapter for a game name (chess, draughts/international, brazilian, russian, checkers)."""
    if game == "chess":
        return ChessAdapter(**options)
    if game in ("draughts", "international", "brazilian", "russian", "checkers"):
        return DraughtsAdapter("international" if game == "draughts" else game, **options)
    if game == "minzu" or game.startswith("minzu"):
        from flagfall.bridge.minzu_adapter import MinzuAdapter
        if game != "minzu":
            options.setdefault("size", game[5:].lstrip(":-"))
        return MinzuAdapter(**options)
    raise ValueError("unknown game %r (choose from %s)" % (game, ", ".join(GAMES)))


# ---------------------------------------------------------------- chess

PROMO_LETTERS = {"q": cc.QUEEN, "r": cc.ROOK, "b": cc.BISHOP, "n": cc.KNIGHT,
                 "queen": cc.QUEEN, "rook": cc.ROOK, "bishop": cc.BISHOP, "knight": cc.KNIGHT}


def promotion_piece(name):
    """Promotion piece type from a button or operator word ('q', 'queen', 'promote-n'...), or 0."""
    n = str(name).lower().strip()
    for pre in ("promote-", "promote:", "promote ", "promo-", "="):
        if n.startswith(pre):
            n = n[len(pre):]
    return PROMO_LETTERS.get(n, 0)


class ChessAdapter:
    """Chess through flagcore.chess."""

    game = "chess"
    variant = "chess"
    nsquares = 64
    rows = 8
    cols = 8
    side_names = ("White", "Black")

    def __init__(self, fen=None, edition="fide-2000"):
        self.start_fen = fen
        self.board = cc.Board(fen)
        self.edition = edition

    def start_key(self):
        """Text naming the start position."""
        return self.start_fen or cc.START_FEN

    def side(self):
        """Side to move (0 white, 1 black)."""
        return self.board.turn

    def occupancy(self):
        """Occupied squares."""
        occ = self.board.occupied()
        out = []
        s = 0
        while occ:
            if occ & 1:
                out.append(s)
            occ >>= 1
            s += 1
        return frozenset(out)

    def candidates(self):
        """Every legal move as a Candidate; promotions share one signature."""
        b = self.board
        out = []
        for m in b.legal_moves():
            e, f = b.occupancy_change(m)
            fr = cc.move_from(m)
            cap = b.captured_square(m)
            touch = ()
            if cap >= 0 and cap not in e:
                # a capture leaves the target occupied: only its lift shows it
                touch = ((cap, (fr,)),)
            out.append(Candidate(e, f, touch, [m], fr, cc.uci(m)))
        return out

    def choose(self, cand, prefs=None):
        """The move for a candidate: the promotion piece from prefs, queen by default."""
        if len(cand.moves) == 1:
            return cand.moves[0]
        want = (prefs or {}).get("promotion") or cc.QUEEN
        for m in cand.moves:
            if cc.move_promotion(m) == want:
                return m
        for m in cand.moves:
            if cc.move_promotion(m) == cc.QUEEN:
                return m
        return cand.moves[0]

    def is_promotion(self, move):
        """True for a promotion move."""
        return cc.move_promotion(move) != 0

    def with_promotion(self, move, piece):
        """The same move promoting to `piece` (a type or a letter)."""
        if not isinstance(piece, int):
            piece = promotion_piece(piece)
        return cc.make_move(cc.move_from(move), cc.move_to(move), piece)

    def is_legal(self, move):
        """True if move is legal now."""
        return move in self.board.legal_moves()

    def text(self, move):
        """SAN of a legal move."""
        return self.board.san(move)

    def parse(self, text):
        """A legal move from SAN/UCI text."""
        return self.board.parse_move(text)

    def push(self, move):
        """Play a legal move."""
        self.board.push(move)

    def pop(self):
        """Take back the last move; returns it."""
        return self.board.pop()

    def ply(self):
        """Moves played so far."""
        return len(self.board.move_stack())

    def status(self):
        """(result, reason) when the rules end the game, else None."""
        return self.board.status(self.edition)

    def owner(self, sq):
        """Side owning the piece on sq, or None."""
        p = self.board.piece_at(sq)
        return None if p is None else p[0]

    def movable(self, sq):
        """True if the piece on sq has a legal move."""
        for m in self.board.legal_moves():
            if cc.move_from(m) == sq:
                return True
        return False

    def can_win(self, side):
        """False if `side` cannot checkmate by any series of legal moves (material test)."""
        return self.board.can_checkmate(side)

    def physical(self, move):
        """How the pieces travel for a legal move (before it is played)."""
        b = self.board
        fr = cc.move_from(move)
        to = cc.move_to(move)
        p = b.piece_at(fr)
        travel = [(fr, to, _chess_via(fr, to, p[1]))]
        remove = []
        cap = b.captured_square(move)
        if cap >= 0:
            remove.append(cap)
        if p[1] == cc.KING and abs(to - fr) == 2:
            if to > fr:
                travel.append((fr + 3, fr + 1, (fr + 2,)))
            else:
                travel.append((fr - 4, fr - 1, (fr - 3, fr - 2)))
        return {"travel": travel, "remove": remove, "remove_before": True}

    def position(self):
        """FEN."""
        return self.board.fen()

    def grid(self):
        """Rows of the board, rank 8 first, one character per square."""
        rows = []
        for r in range(7, -1, -1):
            row = ""
            for f in range(8):
                p = self.board.piece_at(r * 8 + f)
                if p is None:
                    row += "."
                else:
                    ch = cc.PIECE_CHARS[p[1]]
                    row += ch.upper() if p[0] == 0 else ch
            rows.append(row)
        return rows

    def cell(self, sq):
        """(row, col) in grid() of a square."""
        return (7 - (sq >> 3), sq & 7)

    def name(self, sq):
        """Square name for alerts."""
        return cc.square_name(sq)

    def move_squares(self, move):
        """Squares to highlight for a move."""
        return (cc.move_from(move), cc.move_to(move))


def _chess_via(fr, to, ptype):
    """Squares a piece passes over (for slide noise): the straight line, or a knight's elbow."""
    fx, fy, tx, ty = fr & 7, fr >> 3, to & 7, to >> 3
    dx, dy = tx - fx, ty - fy
    if ptype == cc.KNIGHT:
        if abs(dx) == 2:
            return (fy * 8 + fx + dx // 2, fy * 8 + tx)
        return (fy * 8 + tx, (fy + dy // 2) * 8 + tx)
    if dx == 0 or dy == 0 or abs(dx) == abs(dy):
        sx = (dx > 0) - (dx < 0)
        sy = (dy > 0) - (dy < 0)
        out = []
        x, y = fx + sx, fy + sy
        while (x, y) != (tx, ty):
            out.append(y * 8 + x)
            x += sx
            y += sy
        return tuple(out)
    return ()


# ---------------------------------------------------------------- draughts

class DraughtsAdapter:
    """International, Brazilian, Russian draughts and English checkers through flagcore.draughts."""

    game = "draughts"

    def __init__(self, variant="international", fen=None):
        self.g = dc.Game(variant, fen)
        self.variant = self.g.variant
        self.game = "draughts" if self.variant == "international" else self.variant
        self.start_fen = fen
        r = self.g.rules
        self.nsquares = r.nsq
        self.rows = self.cols = r.size
        self.first = r.first
        if self.variant == "checkers":
            self.side_names = ("Red", "White")
        else:
            self.side_names = ("White", "Black")

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

    def is_promotion(self, move):
        """Draughts crowning needs no choice."""
        return False

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

    def status(self):
        """(result, reason) when the rules end the game, else None."""
        o = self.g.outcome()
        if o is None:
            return None
        winner, reason, article = o
        if winner is None:
            res = "1-1" if self.variant == "international" else "1/2-1/2"
        else:
            w = 0 if winner == self.first else 1
            if self.variant == "international":
                res = "2-0" if w == 0 else "0-2"
            else:
                res = "1-0" if w == 0 else "0-1"
        return (res, "%s (%s)" % (reason, article))

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
        return {"travel": [(move.frm, move.to, via)], "remove": list(move.order),
                "remove_before": True}

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

    def move_squares(self, move):
        """Squares to highlight."""
        return tuple(move.path)
