"""Chess on the bridge: flagcore.chess seen as occupancy changes (the GameAdapter of docs/data-path.md).

Moves are flagcore.chess ints; nothing outside this adapter reads their bits.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

from flagcore import chess as cc

from flagfall.occupancy import Candidate, Event, Touch
from flagfall.games.protocol import AdapterBase, Outcome, Physical, Prefs, Square, Travel

if TYPE_CHECKING:
    from flagfall.games.protocol import GameAdapter
    from flagfall.games.registry import GameSpec


NEXT_PROMOTION = {cc.QUEEN: "r", cc.ROOK: "b", cc.BISHOP: "n", cc.KNIGHT: "q"}
PROMO_LETTERS = {"q": cc.QUEEN, "r": cc.ROOK, "b": cc.BISHOP, "n": cc.KNIGHT,
                 "queen": cc.QUEEN, "rook": cc.ROOK, "bishop": cc.BISHOP, "knight": cc.KNIGHT}


def promotion_piece(name: object) -> int:
    """Promotion piece type from a button or operator word ('q', 'queen', 'promote-n'...), or 0."""
    n = str(name).lower().strip()
    for pre in ("promote-", "promote:", "promote ", "promo-", "="):
        if n.startswith(pre):
            n = n[len(pre):]
    return PROMO_LETTERS.get(n, 0)


class ChessAdapter(AdapterBase):
    """Chess through flagcore.chess."""

    variant = "chess"
    nsquares = 64
    rows = 8
    cols = 8

    def __init__(self, spec: GameSpec, fen: Optional[str] = None, edition: str = "fide-2000") -> None:
        self.spec = spec
        self.start_fen = fen
        self.chess960 = spec.variant == "chess960"
        self.board = cc.Board(fen, chess960=self.chess960)
        self.edition = edition

    def start_key(self) -> str:
        """Text naming the start position."""
        return self.start_fen or cc.START_FEN

    def side(self) -> int:
        """Side to move (0 white, 1 black)."""
        return self.board.turn

    def occupancy(self) -> frozenset[Square]:
        """Occupied squares."""
        occ = self.board.occupied()
        out: list[Square] = []
        s = 0
        while occ:
            if occ & 1:
                out.append(s)
            occ >>= 1
            s += 1
        return frozenset(out)

    def candidates(self) -> list[Candidate]:
        """Every legal move as a Candidate; promotions share one signature."""
        b = self.board
        out: list[Candidate] = []
        for m in b.legal_moves():
            e, f = b.occupancy_change(m)
            fr = cc.move_from(m)
            cap = b.captured_square(m)
            touch: tuple[Touch, ...] = ()
            order: tuple[tuple[Event, Event], ...] = ()
            if cap >= 0 and cap not in e:
                # a capture leaves the target occupied: only its lift shows it
                touch = ((cap, (fr,)),)
            if self.chess960:
                cs = b.castling_squares(m)
                if cs is not None:
                    # Chess960 castling (FIDE Guidelines II: the king off the board first, then the
                    # rook, then the king on): a king or rook that ends where it started, or the two
                    # swapping squares, shows only as a lift and a put-back, which the castling
                    # needs as evidence
                    kf, kt, rf, rt = cs
                    touch = tuple((sq, ()) for sq in sorted({kf, rf} & {kt, rt}))
                    if rf == rt and kf != kt:
                        # the rook stays: the same squares as a king move, told apart by the rook
                        # lifted while the king was in the hand (king up, rook up, rook down, king down)
                        order = (((kf, "up"), (rf, "up")), ((rf, "down"), (kt, "down")))
                    fr = kf
            out.append(Candidate(e, f, touch, [m], fr, cc.uci(m), order))
        return out

    def choose(self, cand: Candidate, prefs: Optional[Prefs] = None) -> cc.Move:
        """The move for a candidate: the promotion piece from prefs, queen by default."""
        moves: list[cc.Move] = cand.moves
        if len(moves) == 1:
            return moves[0]
        want = (prefs or {}).get("promotion") or cc.QUEEN
        for m in moves:
            if cc.move_promotion(m) == want:
                return m
        for m in moves:
            if cc.move_promotion(m) == cc.QUEEN:
                return m
        return moves[0]

    def is_promotion(self, move: cc.Move) -> bool:
        """True for a promotion move."""
        return cc.move_promotion(move) != 0

    def promotion_of(self, move: cc.Move) -> int:
        """The promotion piece type of a move (0 if none)."""
        return cc.move_promotion(move)

    def promotion_piece(self, name: str) -> int:
        """Promotion piece type from a button or operator word, or 0."""
        return promotion_piece(name)

    def next_promotion(self, move: cc.Move) -> str:
        """The next piece in the cycle queen, rook, bishop, knight (a mode button steps through them)."""
        return NEXT_PROMOTION.get(cc.move_promotion(move), "q")

    def with_promotion(self, move: cc.Move, piece: Union[int, str]) -> cc.Move:
        """The same move promoting to `piece` (a type or a letter)."""
        if not isinstance(piece, int):
            piece = promotion_piece(piece)
        return cc.make_move(cc.move_from(move), cc.move_to(move), piece)

    def is_legal(self, move: cc.Move) -> bool:
        """True if move is legal now."""
        return move in self.board.legal_moves()

    def text(self, move: cc.Move) -> str:
        """SAN of a legal move."""
        return self.board.san(move)

    def parse(self, text: str) -> cc.Move:
        """A legal move from SAN/UCI text."""
        return self.board.parse_move(text)

    def push(self, move: cc.Move) -> None:
        """Play a legal move."""
        self.board.push(move)

    def pop(self) -> cc.Move:
        """Take back the last move; returns it."""
        return self.board.pop()

    def ply(self) -> int:
        """Moves played so far."""
        return len(self.board.move_stack())

    def ending(self) -> Optional[Outcome]:
        """How the game ended by rule (this edition), or None."""
        return Outcome.of(self.board.ending(self.edition))

    def owner(self, sq: Square) -> Optional[int]:
        """Side owning the piece on sq, or None."""
        p = self.board.piece_at(sq)
        return None if p is None else p[0]

    def movable(self, sq: Square) -> bool:
        """True if the piece on sq has a legal move."""
        for m in self.board.legal_moves():
            if cc.move_from(m) == sq:
                return True
        return False

    def can_win(self, side: int) -> bool:
        """False if `side` cannot checkmate by any series of legal moves (material test)."""
        return self.board.can_checkmate(side)

    def evidence_hint(self, cand: Candidate) -> tuple[str, str]:
        """What the hands must show: a capture's target lifted, or a Chess960 castling's king."""
        if self.chess960 and any(self.board.is_castling(m) for m in cand.moves):
            return ("castling not shown", "lift the king and put it back on its square (in Chess960 "
                    "castling the king moves first)")
        return super().evidence_hint(cand)

    def physical(self, move: cc.Move) -> Physical:
        """How the pieces travel for a legal move (before it is played)."""
        b = self.board
        fr = cc.move_from(move)
        to = cc.move_to(move)
        p = b.piece_at(fr)
        if p is None:
            raise ValueError("no piece on %s for move %s" % (cc.square_name(fr), cc.uci(move)))
        travel = [Travel(fr, to, _chess_via(fr, to, p[1]))]
        remove: list[Square] = []
        cap = b.captured_square(move)
        if cap >= 0:
            remove.append(cap)
        cs = b.castling_squares(move) if self.chess960 else None
        if cs is not None:
            kf, kt, rf, rt = cs       # the king off the board first, the rook across, the king on
            return Physical((Travel(kf, kt), Travel(rf, rt)), (), remove_before=True,
                            steps=((kf, False), (rf, False), (rt, True), (kt, True)))
        if p[1] == cc.KING and abs(to - fr) == 2:
            if to > fr:
                travel.append(Travel(fr + 3, fr + 1, (fr + 2,)))
            else:
                travel.append(Travel(fr - 4, fr - 1, (fr - 3, fr - 2)))
        return Physical(tuple(travel), tuple(remove), remove_before=True)

    def position(self) -> str:
        """FEN."""
        return self.board.fen()

    def grid(self) -> list[str]:
        """Rows of the board, rank 8 first, one character per square."""
        rows: list[str] = []
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

    def cell(self, sq: Square) -> tuple[int, int]:
        """(row, col) in grid() of a square."""
        return (7 - (sq >> 3), sq & 7)

    def name(self, sq: Square) -> str:
        """Square name for alerts."""
        return cc.square_name(sq)

    def square(self, name: str) -> Square:
        """A square from its name ('e4')."""
        try:
            return cc.square(str(name).strip().lower())
        except (ValueError, KeyError, IndexError):
            raise ValueError("no square %r on a chess board" % name) from None

    def all_squares(self) -> range:
        """Every square."""
        return range(64)

    def sensor_map(self, rows: int, cols: int, layout: str) -> list[Optional[Square]]:
        """Sensor row * cols + col -> square: row 0 is rank 8 (the top as White sees the board)."""
        if layout != "full":
            return [None] * (rows * (cols // 2))
        return [(7 - r) * 8 + c if r < 8 and c < 8 else None for r in range(rows) for c in range(cols)]

    def move_squares(self, move: cc.Move) -> tuple[Square, ...]:
        """Squares to highlight for a move."""
        return (cc.move_from(move), cc.move_to(move))


def _chess_via(fr: Square, to: Square, ptype: int) -> tuple[Square, ...]:
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
        out: list[Square] = []
        x, y = fx + sx, fy + sy
        while (x, y) != (tx, ty):
            out.append(y * 8 + x)
            x += sx
            y += sy
        return tuple(out)
    return ()


if TYPE_CHECKING:
    _ADAPTER: type[GameAdapter] = ChessAdapter     # mypy checks that the class implements the Protocol
