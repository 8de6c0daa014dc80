"""Chess rules (FIDE Laws, file 004 arts. 3 and 5): one engine for the device and the host.

Public squares are ints 0..63 with a1=0, b1=1, ..., h8=63 (as in
python-chess). Inside, the board is a 10x12 mailbox: a list of 120 ints
whose border cells hold OFF, so a ray or a knight jump stops on one list
lookup without any bounds test. Pieces are ints: the type (PAWN..KING) in
the low 3 bits plus WBIT or BBIT for the colour, so "is this an enemy piece"
is one AND and an empty cell is 0.

A move is an int: from | to << 7 | promotion type << 14, with mailbox
indices. Use move_from()/move_to()/uci()/san() to read one, and
parse_uci()/parse_san()/parse_move() to make one from text.

Legal moves come from pin and check detection around the king, not from
make-then-test, except for en passant (rare; tested by playing it).
make()/unmake() are the fast pair used by search and perft; push()/pop()
do the same and also keep the position keys used for repetition.
"""

from flagcore._compat import const

WHITE = 0
BLACK = 1

PAWN = const(1)
KNIGHT = const(2)
BISHOP = const(3)
ROOK = const(4)
QUEEN = const(5)
KING = const(6)

WBIT = const(8)
BBIT = const(16)
OFF = const(32)

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

PIECE_CHARS = ".pnbrqk"
FILES = "abcdefgh"

# castling right bits, in FEN order
WK = const(1)
WQ = const(2)
BK = const(4)
BQ = const(8)

# rulesets (values and articles in seeds/chess_rules.json): automatic
# repetition count, automatic half-move limit (0 = none), claim thresholds
EDITIONS = {
    "fide-2000": {"auto_repetition": 0, "auto_halfmoves": 0, "claim_repetition": 3, "claim_halfmoves": 100,
                  "art_mate": "FIDE 5.1", "art_stalemate": "FIDE 5.2(1)", "art_dead": "FIDE 5.2(2)",
                  "art_repetition": "", "art_halfmoves": ""},
    "fide-2018": {"auto_repetition": 5, "auto_halfmoves": 150, "claim_repetition": 3, "claim_halfmoves": 100,
                  "art_mate": "FIDE 5.1.1", "art_stalemate": "FIDE 5.2.1", "art_dead": "FIDE 5.2.2",
                  "art_repetition": "FIDE 9.6.1", "art_halfmoves": "FIDE 9.6.2"},
}
# status() reasons by flagcore.outcome termination
STATUS_REASONS = (None, "checkmate", "stalemate", "dead position", "fivefold repetition", "75-move rule")

KN = (21, 19, 12, 8, -8, -12, -19, -21)
ORTH = (10, -10, 1, -1)
DIAG = (11, 9, -9, -11)
ROYAL = (10, -10, 1, -1, 11, 9, -9, -11)
SLIDE = (None, None, None, DIAG, ORTH, ROYAL, None)

# 64-square index <-> mailbox index
MB = tuple(21 + (s & 7) + 10 * (s >> 3) for s in range(64))
_SQ = [-1] * 120
for _s in range(64):
    _SQ[MB[_s]] = _s
SQ = tuple(_SQ)
del _SQ

# castling rights kept after a move from or to each mailbox cell
_cm = [15] * 120
_cm[25] = 15 & ~(WK | WQ)
_cm[28] = 15 & ~WK
_cm[21] = 15 & ~WQ
_cm[95] = 15 & ~(BK | BQ)
_cm[98] = 15 & ~BK
_cm[91] = 15 & ~BQ
CMASK = tuple(_cm)
del _cm

# standard castling: rook cell of each right (WK, WQ, BK, BQ)
CROOK = (28, 21, 98, 91)

# Position hash for repetition, kept by push/pop: like Zobrist hashing, an
# XOR of one number per piece on its cell, the castling rights, the en-passant
# file and the side to move, but each number is computed, not looked up in a
# table (heap is scarce on the device): a piece code p on mailbox cell c gives
# (p << 7 | c) * ZK. Every value stays below 2**30, a MicroPython small int
# (no allocation). A hash match is confirmed by comparing the full positions
# (key()), so repetition counts are exact whatever the hash collides on.
ZK = const(324027)    # odd; 3030 * ZK < 2**30
ZCR = const(32)       # + castling rights (16)
ZEP = const(64)       # + en-passant file (8)
ZTURN = const(100)    # black to move


def _castle_cells(fr, to, rook_on_to):
    # (king end, rook start, rook end) cells of castling fr -> to
    base = 91 if fr > 90 else 21
    if to > fr:
        return base + 6, to if rook_on_to else base + 7, base + 5
    return base + 2, to if rook_on_to else base, base + 3


_BLANK = ("blank",)   # Board(_BLANK) skips set-up (copy() fills it in); MicroPython has no __new__ here


class ChessError(ValueError):
    """Bad input to the chess engine: a broken FEN or an illegal or unreadable move."""


class FenError(ChessError):
    """A FEN that does not describe a legal chess position."""


class IllegalMoveError(ChessError):
    """A move that is unparseable, ambiguous or illegal in the position."""


def square(name):
    """Square index 0..63 from a name like 'e4'; raises ChessError."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345678":
        raise ChessError("bad square name %r" % (name,))
    return FILES.index(name[0]) + 8 * (ord(name[1]) - 49)


def square_name(sq):
    """Name like 'e4' of a square index 0..63."""
    return FILES[sq & 7] + chr(49 + (sq >> 3))


def move_from(m):
    """From-square (0..63) of a move."""
    return SQ[m & 127]


def move_to(m):
    """To-square (0..63) of a move."""
    return SQ[(m >> 7) & 127]


def move_promotion(m):
    """Promotion piece type (KNIGHT..QUEEN) of a move, or 0."""
    return m >> 14


def make_move(frm, to, promotion=0):
    """A move int from 0..63 squares and an optional promotion piece type."""
    return MB[frm] | MB[to] << 7 | promotion << 14


def uci(m):
    """UCI text of a move, e.g. 'e2e4', 'e7e8q', 'e1g1'."""
    s = FILES[SQ[m & 127] & 7] + chr(49 + (SQ[m & 127] >> 3))
    t = SQ[(m >> 7) & 127]
    s += FILES[t & 7] + chr(49 + (t >> 3))
    if m >> 14:
        s += PIECE_CHARS[m >> 14]
    return s


def _sqname(mb):
    s = SQ[mb]
    return FILES[s & 7] + chr(49 + (s >> 3))


class Board:
    """A chess position with its move history (make/unmake, push/pop)."""
    # Board(fen, chess960=True) plays Chess960: castling rights belong to rook
    # files and a castling move is written king-to-rook (docs/chess.md)

    def __init__(self, fen=None, chess960=False):
        self.b = [OFF] * 120
        self.kings = [0, 0]
        self.turn = WHITE
        self.castling = 0
        self.ep = 0          # mailbox index of the en-passant target cell, 0 = none
        self.halfmove = 0
        self.fullmove = 1
        self.chess960 = bool(chess960)
        self.crook = CROOK   # rook cell of each castling right (WK, WQ, BK, BQ), 0 = none
        self._cm = CMASK     # castling rights kept after a move from or to each cell
        self._mv = []        # moves made
        self._un = []        # undo words: captured | castling << 5 | ep << 9 | halfmove << 16
        self._keys = []      # position hash after each push (the first: the set-up position)
        if fen is not _BLANK:
            self.set_fen(START_FEN if fen is None else fen)

    # ---- FEN -----------------------------------------------------------

    def set_fen(self, fen):
        """Set up the position from a FEN; raises FenError naming what is wrong."""
        if not isinstance(fen, str):
            raise FenError("FEN must be text, got %r" % (fen,))
        parts = fen.split()
        if len(parts) == 4:
            parts += ["0", "1"]
        if len(parts) != 6:
            raise FenError("FEN needs 6 fields (or 4), got %d: %r" % (len(parts), fen))
        rows = parts[0].split("/")
        if len(rows) != 8:
            raise FenError("FEN board needs 8 ranks separated by '/', got %d: %r" % (len(rows), fen))
        b = [OFF] * 120
        for s in MB:
            b[s] = 0
        kings = [-1, -1]
        for ri in range(8):
            rank = 7 - ri
            f = 0
            for ch in rows[ri]:
                if ch in "12345678":
                    f += ord(ch) - 48
                    continue
                lo = ch.lower()
                t = PIECE_CHARS.find(lo)
                if t <= 0:
                    raise FenError("bad piece letter %r in FEN rank %d: %r" % (ch, rank + 1, fen))
                if f > 7:
                    break
                color = WBIT if ch != lo else BBIT
                sq = MB[rank * 8 + f]
                b[sq] = t | color
                if t == KING:
                    c = 0 if color == WBIT else 1
                    if kings[c] >= 0:
                        raise FenError("two %s kings in FEN: %r" % (("white", "black")[c], fen))
                    kings[c] = sq
                if t == PAWN and (rank == 0 or rank == 7):
                    raise FenError("pawn on rank %d in FEN: %r" % (rank + 1, fen))
                f += 1
            if f != 8:
                raise FenError("FEN rank %d has %d squares, not 8: %r" % (rank + 1, f, fen))
        if kings[0] < 0 or kings[1] < 0:
            raise FenError("FEN has no %s king: %r" % ("white" if kings[0] < 0 else "black", fen))
        if parts[1] not in ("w", "b"):
            raise FenError("side to move must be 'w' or 'b', got %r: %r" % (parts[1], fen))
        turn = 0 if parts[1] == "w" else 1
        cr = 0
        crook = CROOK
        if self.chess960 or parts[2].strip("KQkq-"):
            # Chess960, or rook files (Shredder-FEN): read by flagcore.chess960
            from flagcore import chess960
            cr, crook = chess960.castling_field(parts[2], b, kings, self.chess960, fen)
        elif parts[2] != "-":
            for ch in parts[2]:
                i = "KQkq".find(ch)
                if i < 0:
                    raise FenError("bad castling field %r: %r" % (parts[2], fen))
                cr |= 1 << i
        # a right needs the king and that rook on their home squares
        for i in range(4):
            if not self.chess960 and cr >> i & 1 and (b[25 + (i >> 1) * 70] != KING | (8 << (i >> 1))
                                                      or b[CROOK[i]] != ROOK | (8 << (i >> 1))):
                raise FenError("impossible castling right %r: king or rook not on its home square"
                               " (for Chess960 read it as chess960): %r" % ("KQkq"[i], fen))
        ep = 0
        if parts[3] != "-":
            try:
                e = square(parts[3])
            except ChessError:
                raise FenError("bad en-passant square %r: %r" % (parts[3], fen))
            e = MB[e]
            # the pawn that just moved two squares must stand in front of it
            if turn == 0:
                ok = 71 <= e <= 78 and b[e - 10] == PAWN | BBIT and not b[e] and not b[e + 10]
            else:
                ok = 41 <= e <= 48 and b[e + 10] == PAWN | WBIT and not b[e] and not b[e - 10]
            if not ok:
                raise FenError("impossible en-passant square %r: %r" % (parts[3], fen))
            ep = e
        try:
            hm = int(parts[4])
            fm = int(parts[5])
        except ValueError:
            raise FenError("half-move and move number must be numbers: %r" % (fen,))
        if hm < 0 or hm > 9999 or fm < 1:
            raise FenError("half-move clock or move number out of range: %r" % (fen,))
        self.b = b
        self.kings = kings
        self.turn = turn
        self.castling = cr
        self.crook = crook
        self._cm = CMASK
        if self.chess960:
            cm = bytearray(b"\x0f" * 120)
            for i in range(4):
                if cr >> i & 1:
                    cm[crook[i]] &= 15 ^ (1 << i)
                    cm[kings[i >> 1]] &= 12 if i < 2 else 3
            self._cm = cm
        self.ep = ep
        self.halfmove = hm
        self.fullmove = fm
        self._mv = []
        self._un = []
        if self._attacked(kings[1 - turn], BBIT if turn else WBIT):
            raise FenError("the side not to move is in check: %r" % (fen,))
        self._keys = [self._hash()]

    def fen(self, shredder=False):
        """FEN of the position (en-passant square given after every double step)."""
        # castling as X-FEN: KQkq, or the rook's file letter when another rook stands
        # further out on that side (Chess960); shredder=True: always the files (HAha)
        b = self.b
        rows = []
        for rank in range(7, -1, -1):
            row = ""
            empty = 0
            for f in range(8):
                p = b[MB[rank * 8 + f]]
                if not p:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                ch = PIECE_CHARS[p & 7]
                row += ch.upper() if p & WBIT else ch
            if empty:
                row += str(empty)
            rows.append(row)
        if self.chess960 or shredder:
            from flagcore import chess960
            cr = chess960.castling_text(self, shredder)
        else:
            cr = "".join("KQkq"[i] for i in range(4) if self.castling >> i & 1) or "-"
        ep = _sqname(self.ep) if self.ep else "-"
        return "%s %s %s %s %d %d" % ("/".join(rows), "wb"[self.turn], cr, ep, self.halfmove, self.fullmove)

    def copy(self):
        """An independent copy of the position and its history."""
        c = Board(_BLANK)
        c.chess960 = self.chess960
        c.crook = self.crook
        c._cm = self._cm
        c.b = self.b[:]
        c.kings = self.kings[:]
        c.turn = self.turn
        c.castling = self.castling
        c.ep = self.ep
        c.halfmove = self.halfmove
        c.fullmove = self.fullmove
        c._mv = self._mv[:]
        c._un = self._un[:]
        c._keys = self._keys[:]
        return c

    def castling_rooks(self):
        # squares of the rooks with castling rights (white h-side, white a-side,
        # black h-side, black a-side); -1 where there is no right
        cr = self.castling
        return tuple(SQ[self.crook[i]] if cr >> i & 1 else -1 for i in range(4))

    def piece_at(self, sq):
        """(colour, piece type) on square 0..63, or None if it is empty."""
        p = self.b[MB[sq]]
        if not p:
            return None
        return (0 if p & WBIT else 1, p & 7)

    def occupied(self):
        """Bitmask (bit n = square n) of the occupied squares."""
        b = self.b
        m = 0
        for s in range(64):
            if b[MB[s]]:
                m |= 1 << s
        return m

    # ---- attacks -------------------------------------------------------

    def _attacked(self, s, tbit):
        """True if mailbox cell s is attacked by the pieces of colour bit tbit."""
        b = self.b
        if tbit == WBIT:
            if b[s - 9] == 9 or b[s - 11] == 9:
                return True
        elif b[s + 9] == 17 or b[s + 11] == 17:
            return True
        n = KNIGHT | tbit
        for d in KN:
            if b[s + d] == n:
                return True
        k = KING | tbit
        for d in ROYAL:
            if b[s + d] == k:
                return True
        r = ROOK | tbit
        qn = QUEEN | tbit
        for d in ORTH:
            t = s + d
            q = b[t]
            while not q:
                t += d
                q = b[t]
            if q == r or q == qn:
                return True
        r = BISHOP | tbit
        for d in DIAG:
            t = s + d
            q = b[t]
            while not q:
                t += d
                q = b[t]
            if q == r or q == qn:
                return True
        return False

    def is_attacked(self, sq, color):
        """True if square 0..63 is attacked by colour (0 white, 1 black)."""
        return self._attacked(MB[sq], BBIT if color else WBIT)

    def is_check(self):
        """True if the side to move is in check."""
        us = self.turn
        return self._attacked(self.kings[us], WBIT if us else BBIT)

    # ---- move generation -------------------------------------------------

    def legal_moves(self):
        """All legal moves of the side to move, as move ints (FIDE arts. 3.1-3.9)."""
        b = self.b
        us = self.turn
        if us:
            ubit = BBIT
            tbit = WBIT
            fwd = -10
            dbl = 81
            prom = 29
        else:
            ubit = WBIT
            tbit = BBIT
            fwd = 10
            dbl = 31
            prom = 90
        ksq = self.kings[us]
        nchk = 0
        block = None
        pins = None
        e = KNIGHT | tbit
        for d in KN:
            if b[ksq + d] == e:
                nchk += 1
                block = (ksq + d,)
        e = PAWN | tbit
        if b[ksq + fwd + 1] == e:
            nchk += 1
            block = (ksq + fwd + 1,)
        if b[ksq + fwd - 1] == e:
            nchk += 1
            block = (ksq + fwd - 1,)
        eq = QUEEN | tbit
        for dirs, es in ((ORTH, ROOK | tbit), (DIAG, BISHOP | tbit)):
            for d in dirs:
                t = ksq + d
                q = b[t]
                while not q:
                    t += d
                    q = b[t]
                if q & ubit:
                    t2 = t + d
                    q2 = b[t2]
                    while not q2:
                        t2 += d
                        q2 = b[t2]
                    if q2 == es or q2 == eq:
                        if pins is None:
                            pins = {}
                        pins[t] = tuple(range(ksq + d, t2 + d, d))
                elif q == es or q == eq:
                    nchk += 1
                    block = tuple(range(ksq + d, t + d, d))
        moves = []
        app = moves.append
        if nchk < 2:
            for s in MB:
                p = b[s]
                if not p & ubit:
                    continue
                p &= 7
                if p == 1:
                    t = s + fwd
                    if not b[t]:
                        if t > prom if fwd > 0 else t < prom:
                            m = s | t << 7
                            app(m | 0x14000)
                            app(m | 0x10000)
                            app(m | 0xC000)
                            app(m | 0x8000)
                        else:
                            app(s | t << 7)
                            if dbl <= s <= dbl + 7 and not b[t + fwd]:
                                app(s | (t + fwd) << 7)
                    for t in (s + fwd - 1, s + fwd + 1):
                        if b[t] & tbit:
                            if t > prom if fwd > 0 else t < prom:
                                m = s | t << 7
                                app(m | 0x14000)
                                app(m | 0x10000)
                                app(m | 0xC000)
                                app(m | 0x8000)
                            else:
                                app(s | t << 7)
                elif p == 2:
                    for d in KN:
                        t = s + d
                        q = b[t]
                        if not q or q & tbit:
                            app(s | t << 7)
                elif p != 6:
                    for d in SLIDE[p]:
                        t = s + d
                        q = b[t]
                        while not q:
                            app(s | t << 7)
                            t += d
                            q = b[t]
                        if q & tbit:
                            app(s | t << 7)
            if pins is not None or nchk:
                out = []
                for m in moves:
                    s = m & 127
                    if pins is not None and s in pins and (m >> 7) & 127 not in pins[s]:
                        continue
                    if nchk and (m >> 7) & 127 not in block:
                        continue
                    out.append(m)
                moves = out
                app = moves.append
            ep = self.ep
            if ep:
                for s in (ep - fwd - 1, ep - fwd + 1):
                    if b[s] == PAWN | ubit and self._ep_safe(s):
                        app(s | ep << 7)
        b[ksq] = 0
        for d in ROYAL:
            t = ksq + d
            q = b[t]
            if (not q or q & tbit) and not self._attacked(t, tbit):
                app(ksq | t << 7)
        b[ksq] = KING | ubit
        cr = self.castling
        if cr and not nchk:
            if self.chess960:
                from flagcore import chess960
                chess960.castles(self, app, us, ksq, tbit)
            elif us:
                if cr & BK and not b[96] and not b[97] and not self._attacked(96, tbit) \
                        and not self._attacked(97, tbit):
                    app(95 | 97 << 7)
                if cr & BQ and not b[94] and not b[93] and not b[92] and not self._attacked(94, tbit) \
                        and not self._attacked(93, tbit):
                    app(95 | 93 << 7)
            else:
                if cr & WK and not b[26] and not b[27] and not self._attacked(26, tbit) \
                        and not self._attacked(27, tbit):
                    app(25 | 27 << 7)
                if cr & WQ and not b[24] and not b[23] and not b[22] and not self._attacked(24, tbit) \
                        and not self._attacked(23, tbit):
                    app(25 | 23 << 7)
        return moves

    def has_legal_move(self):
        """True if the side to move has at least one legal move."""
        return len(self.legal_moves()) > 0

    # ---- make / unmake ---------------------------------------------------

    def make(self, m):
        """Play move m (assumed legal) without recording a position key."""
        b = self.b
        fr = m & 127
        to = (m >> 7) & 127
        p = b[fr]
        cap = b[to]
        ep = self.ep
        self._mv.append(m)
        self._un.append(cap | self.castling << 5 | ep << 9 | self.halfmove << 16)
        b[to] = p
        b[fr] = 0
        self.ep = 0
        pt = p & 7
        if pt == 1:
            self.halfmove = 0
            if to == ep:
                b[to - 10 if p & WBIT else to + 10] = 0
            elif to - fr == 20 or fr - to == 20:
                self.ep = (fr + to) >> 1
            elif m >> 14:
                b[to] = (m >> 14) | (p & 24)
        elif pt == 6 and (cap & p & 24 or to - fr == 2 or fr - to == 2):
            # castling: king and rook to their end cells (Chess960: the move is king-to-rook)
            self.halfmove += 1
            kd, rf, rd = _castle_cells(fr, to, cap)
            r = cap or b[rf]
            b[to] = 0
            b[rf] = 0
            b[rd] = r
            b[kd] = p
            self.kings[self.turn] = kd
        else:
            if cap:
                self.halfmove = 0
            else:
                self.halfmove += 1
            if pt == 6:
                self.kings[self.turn] = to
        if self.castling:
            cm = self._cm
            self.castling &= cm[fr] & cm[to]
        if self.turn:
            self.turn = 0
            self.fullmove += 1
        else:
            self.turn = 1

    def unmake(self):
        """Take back the last move made with make() or push() (not its position key)."""
        m = self._mv.pop()
        u = self._un.pop()
        b = self.b
        fr = m & 127
        to = (m >> 7) & 127
        p = b[to]
        if self.turn:
            self.turn = 0
        else:
            self.turn = 1
            self.fullmove -= 1
        self.castling = (u >> 5) & 15
        ep = (u >> 9) & 127
        self.ep = ep
        self.halfmove = u >> 16
        cap = u & 31
        if cap & (8 << self.turn) or (p & 7 == 6 and (to - fr == 2 or fr - to == 2)):
            # castling (Chess960: king-to-rook, the "captured" piece is the own rook)
            kd, rf, rd = _castle_cells(fr, to, cap)
            r = b[rd]
            b[kd] = 0
            b[rd] = 0
            b[rf] = r
            b[fr] = KING | (r & 24)
            self.kings[self.turn] = fr
            return
        b[fr] = p
        b[to] = cap
        pt = p & 7
        if m >> 14:
            b[fr] = PAWN | (p & 24)
        elif pt == 1:
            if to == ep:
                if p & WBIT:
                    b[to - 10] = PAWN | BBIT
                else:
                    b[to + 10] = PAWN | WBIT
        elif pt == 6:
            self.kings[self.turn] = fr

    def push(self, m):
        """Play move m (assumed legal) and record the new position's hash for repetition."""
        # the hash is updated by the cells the move changes (no allocation); pushes and an
        # unbalanced make() should not be mixed: the hashes follow the pushed moves
        keys = self._keys
        if len(keys) != len(self._mv) + 1:
            self.make(m)   # history made partly with make(): hash from scratch
            keys.append(self._hash())
            return
        b = self.b
        fr = m & 127
        to = (m >> 7) & 127
        p = b[fr]
        q = b[to]
        h = keys[-1] ^ (ZCR + self.castling) * ZK ^ ZTURN * ZK
        ep = self.ep
        if ep and self._ep_capturable():
            h ^= (ZEP + (ep - 1) % 10) * ZK
        pt = p & 7
        if pt == 6 and (q & p & 24 or to - fr == 2 or fr - to == 2):
            self.make(m)   # castling (rare): king and rook may land on each other's cells
            keys.append(self._hash())
            return
        if pt == 1 and to == ep:
            c = to - 10 if p & WBIT else to + 10
            h ^= (p << 7 | fr) * ZK ^ (b[c] << 7 | c) * ZK ^ (p << 7 | to) * ZK
            self.make(m)
        else:
            h ^= (p << 7 | fr) * ZK
            if q:
                h ^= (q << 7 | to) * ZK
            self.make(m)
            h ^= (b[to] << 7 | to) * ZK   # the moved piece, or what it promoted to
        h ^= (ZCR + self.castling) * ZK
        if self.ep and self._ep_capturable():
            h ^= (ZEP + (self.ep - 1) % 10) * ZK
        keys.append(h)

    def pop(self):
        """Take back the last pushed move; returns it."""
        m = self._mv[-1]
        self.unmake()
        keys = self._keys
        if len(keys) > 1:
            keys.pop()
        else:
            keys[0] = self._hash()   # the move was made with make(), not pushed
        return m

    def _hash(self):
        # position hash from scratch (what push() keeps up to date)
        b = self.b
        h = (ZCR + self.castling) * ZK
        for c in MB:
            p = b[c]
            if p:
                h ^= (p << 7 | c) * ZK
        if self.turn:
            h ^= ZTURN * ZK
        if self.ep and self._ep_capturable():
            h ^= (ZEP + (self.ep - 1) % 10) * ZK
        return h

    def _ep_safe(self, s):
        # en passant from cell s: play it and look (two pawns leave one rank: the king may be uncovered)
        b = self.b
        ep = self.ep
        cap = ep - 10 if self.turn == 0 else ep + 10
        b[ep] = b[s]
        b[s] = 0
        q = b[cap]
        b[cap] = 0
        bad = self._attacked(self.kings[self.turn], BBIT if self.turn == 0 else WBIT)
        b[s] = b[ep]
        b[ep] = 0
        b[cap] = q
        return not bad

    def _ep_capturable(self):
        # a legal en-passant capture exists: then the ep square counts for repetition
        ep = self.ep
        p = PAWN | (BBIT if self.turn else WBIT)
        cap = ep - 10 if self.turn == 0 else ep + 10
        b = self.b
        return (b[cap - 1] == p and self._ep_safe(cap - 1)) or (b[cap + 1] == p and self._ep_safe(cap + 1))

    def move_stack(self):
        """The moves played so far (a new list)."""
        return self._mv[:]

    def perft(self, depth):
        """Leaf count of the legal-move tree to depth, making and unmaking every move."""
        if depth < 1:
            return 1
        moves = self.legal_moves()
        make = self.make
        unmake = self.unmake
        if depth == 1:
            for m in moves:
                make(m)
                unmake()
            return len(moves)
        n = 0
        d = depth - 1
        perft = self.perft
        for m in moves:
            make(m)
            n += perft(d)
            unmake()
        return n

    # ---- text -----------------------------------------------------------

    def _where(self):
        return "in position %s" % self.fen()

    def parse_uci(self, text, legal=None):
        """The legal move for UCI text like 'e2e4' or 'a7a8q'; raises IllegalMoveError."""
        t = text.strip()
        if len(t) not in (4, 5):
            raise IllegalMoveError("cannot read move %r as UCI %s" % (text, self._where()))
        try:
            fr = MB[square(t[0:2])]
            to = MB[square(t[2:4])]
        except ChessError:
            raise IllegalMoveError("cannot read move %r as UCI %s" % (text, self._where()))
        promo = 0
        if len(t) == 5:
            promo = "nbrq".find(t[4].lower()) + 2
            if promo < 2:
                raise IllegalMoveError("bad promotion piece in %r %s" % (text, self._where()))
        m = fr | to << 7 | promo << 14
        if legal is None:
            legal = self.legal_moves()
        if m not in legal:
            # castling in the other convention: e1g1 in Chess960, e1h1 in standard chess
            p = self.b[fr]
            if not promo and p & 7 == KING and (fr == 25 or fr == 95):
                if self.chess960 and (to == fr + 2 or to == fr - 2) and self.b[to] & 7 != ROOK:
                    m = fr | (fr + 3 if to > fr else fr - 4) << 7
                elif not self.chess960 and (to == fr + 3 or to == fr - 4) and self.b[to] == ROOK | (p & 24):
                    m = fr | (fr + 2 if to > fr else fr - 2) << 7
            if m not in legal:
                raise IllegalMoveError("illegal move %r %s" % (text, self._where()))
        return m

    def san(self, m, legal=None):
        """SAN of legal move m, with disambiguation and '+'/'#' marks."""
        b = self.b
        fr = m & 127
        to = (m >> 7) & 127
        p = b[fr]
        pt = p & 7
        if legal is None:
            legal = self.legal_moves()
        if pt == KING and (to - fr == 2 or fr - to == 2 or b[to] & p & 24):
            s = "O-O" if to > fr else "O-O-O"
        elif pt == PAWN:
            s = ""
            if (to - fr) % 10:
                s = FILES[SQ[fr] & 7] + "x"
            s += _sqname(to)
            if m >> 14:
                s += "=" + "NBRQ"[(m >> 14) - 2]
        else:
            s = "NBRQK"[pt - 2]
            same_f = same_r = False
            other = False
            for o in legal:
                of = o & 127
                if of != fr and (o >> 7) & 127 == to and b[of] == p:
                    other = True
                    if SQ[of] & 7 == SQ[fr] & 7:
                        same_f = True
                    if SQ[of] >> 3 == SQ[fr] >> 3:
                        same_r = True
            if other:
                if not same_f:
                    s += FILES[SQ[fr] & 7]
                elif not same_r:
                    s += chr(49 + (SQ[fr] >> 3))
                else:
                    s += _sqname(fr)
            if b[to]:
                s += "x"
            s += _sqname(to)
        self.make(m)
        if self.is_check():
            s += "#" if not self.legal_moves() else "+"
        self.unmake()
        return s

    def parse_san(self, text, legal=None):
        """The legal move for SAN text in its common spellings; raises IllegalMoveError."""
        # Accepts O-O/0-0, e8=Q/e8Q/e8(Q), exd6 e.p., Ng1f3, e2-e4, and trailing
        # +, #, !, ? marks.
        if legal is None:
            legal = self.legal_moves()
        t = text.strip()
        while t and t[-1] in "+#!?":
            t = t[:-1]
        if t.endswith("e.p.") or t.endswith("ep"):
            t = t[:-4] if t.endswith("e.p.") else t[:-2]
            t = t.rstrip()
        b = self.b
        us = self.turn
        ubit = BBIT if us else WBIT
        if t in ("O-O", "0-0", "o-o", "O-O-O", "0-0-0", "o-o-o"):
            fr = self.kings[us]
            if self.chess960:
                i = 2 * us + (0 if len(t) == 3 else 1)
                to = self.crook[i] if self.castling >> i & 1 else 0
            else:
                to = fr + (2 if len(t) == 3 else -2)
            m = fr | to << 7
            if to and b[fr] == KING | ubit and m in legal:
                return m
            raise IllegalMoveError("illegal castling %r %s" % (text, self._where()))
        promo = 0
        if len(t) >= 3 and t[-1] in "NBRQnbrq" and t[-2] in "18=/":
            promo = "nbrq".find(t[-1].lower()) + 2
            t = t[:-1]
            if t and t[-1] in "=/(":
                t = t[:-1]
        elif t.endswith(")") and len(t) >= 5 and t[-3] == "(":
            promo = "nbrq".find(t[-2].lower()) + 2
            t = t[:-3]
        t = t.replace("x", "").replace("X", "").replace("-", "").replace(":", "")
        if len(t) < 2:
            raise IllegalMoveError("cannot read move %r %s" % (text, self._where()))
        pt = PAWN
        if t[0] in "NBRQKP":
            pt = PIECE_CHARS.index(t[0].lower())
            t = t[1:]
        try:
            to = MB[square(t[-2:])]
        except ChessError:
            raise IllegalMoveError("cannot read move %r %s" % (text, self._where()))
        dis = t[:-2]
        df = dr = -1
        for ch in dis:
            if ch in FILES:
                df = FILES.index(ch)
            elif ch in "12345678":
                dr = ord(ch) - 49
            else:
                raise IllegalMoveError("cannot read move %r %s" % (text, self._where()))
        if pt == PAWN and df < 0:
            df = SQ[to] & 7   # a pawn move without a file is a push along its own file
        found = []
        want = pt | ubit
        for m in legal:
            if (m >> 7) & 127 != to or m >> 14 != promo:
                continue
            fr = m & 127
            if b[fr] != want or b[to] & ubit:   # (a king onto its own rook is castling, not Kxh1)
                continue
            if df >= 0 and SQ[fr] & 7 != df:
                continue
            if dr >= 0 and SQ[fr] >> 3 != dr:
                continue
            found.append(m)
        if len(found) == 1:
            return found[0]
        if not found:
            if pt == PAWN and not promo and (SQ[to] >> 3) in (0, 7):
                raise IllegalMoveError("move %r needs a promotion piece %s" % (text, self._where()))
            raise IllegalMoveError("illegal move %r %s" % (text, self._where()))
        raise IllegalMoveError("ambiguous move %r (%s) %s"
                               % (text, ", ".join(uci(m) for m in found), self._where()))

    def parse_move(self, text):
        """A legal move from UCI or SAN text; raises IllegalMoveError naming move and position."""
        if not isinstance(text, str):
            raise IllegalMoveError("move must be text, got %r %s" % (text, self._where()))
        legal = self.legal_moves()
        t = text.strip()
        if 4 <= len(t) <= 5 and t[0] in FILES and t[1] in "12345678" and t[2] in FILES and t[3] in "12345678":
            return self.parse_uci(t, legal)
        return self.parse_san(t, legal)

    # ---- occupancy (for the sensor board) ------------------------------------

    def occupancy_change(self, m):
        """(squares emptied, squares filled) by legal move m, as tuples of 0..63."""
        # A plain capture empties only the from-square: the target stays occupied.
        # En passant also empties the captured pawn's square; castling moves two pieces.
        b = self.b
        fr = m & 127
        to = (m >> 7) & 127
        p = b[fr]
        pt = p & 7
        if pt == KING and (to - fr == 2 or fr - to == 2 or b[to] & p & 24):
            # castling: in Chess960 king and rook may start or end on each other's squares,
            # or not move; only squares that change state are listed (a swap changes none)
            kf, kt, rf, rt = self.castling_squares(m)
            return (tuple(s for s in (kf, rf) if s != kt and s != rt),
                    tuple(s for s in (kt, rt) if s != kf and s != rf))
        if pt == PAWN and to == self.ep:
            cap = to - 10 if p & WBIT else to + 10
            return (SQ[fr], SQ[cap]), (SQ[to],)
        if b[to]:
            return (SQ[fr],), ()
        return (SQ[fr],), (SQ[to],)

    def occupancy_masks(self, m):
        """(emptied, filled) bitmasks (bit n = square n) of legal move m."""
        e, f = self.occupancy_change(m)
        em = 0
        fm = 0
        for s in e:
            em |= 1 << s
        for s in f:
            fm |= 1 << s
        return em, fm

    def captured_square(self, m):
        """Square 0..63 of the piece legal move m captures, or -1."""
        to = (m >> 7) & 127
        p = self.b[m & 127]
        if p & 7 == PAWN and to == self.ep:
            return SQ[to - 10 if p & WBIT else to + 10]
        q = self.b[to]
        return SQ[to] if q and not q & p & 24 else -1   # (own rook: Chess960 castling)

    def is_castling(self, m):
        # legal move m is castling: king two squares, or king onto its own rook (Chess960)
        fr = m & 127
        to = (m >> 7) & 127
        p = self.b[fr]
        return p & 7 == KING and (to - fr == 2 or fr - to == 2 or self.b[to] & p & 24 != 0)

    def castling_squares(self, m):
        # castling move m: (king from, king to, rook from, rook to) as squares 0..63, else None
        if not self.is_castling(m):
            return None
        fr = m & 127
        to = (m >> 7) & 127
        kd, rf, rd = _castle_cells(fr, to, self.b[to])
        return SQ[fr], SQ[kd], SQ[rf], SQ[rd]

    # ---- game state -------------------------------------------------------

    def key(self):
        """Position key for repetition (FIDE 9.2): pieces, side, castling, en passant if capturable."""
        b = self.b
        k = bytearray(34)
        for i in range(32):
            p = b[MB[2 * i]]
            q = b[MB[2 * i + 1]]
            k[i] = ((p & 7) | (p >> 1 & 8)) | ((q & 7) | (q >> 1 & 8)) << 4
        k[32] = self.turn | self.castling << 1
        if self.ep and self._ep_capturable():
            k[33] = self.ep
        return bytes(k)

    def repetitions(self):
        """How many times the present position has occurred (counting now)."""
        # pushed positions since the last pawn move or capture; a hash match is compared in full
        keys = self._keys
        h = keys[-1]
        lim = self.halfmove
        n = len(keys) - 1
        if n < lim:
            lim = n
        n = len(self._mv)
        if n < lim:
            lim = n
        far = 0
        i = 4   # two plies back cannot repeat: both sides would have to stand still
        while i <= lim:
            if keys[-1 - i] == h:
                far = i
            i += 2
        if not far:
            return 1
        mv = self._mv
        back = mv[len(mv) - far:]
        cur = self.key()
        n = 1
        for i in range(1, far + 1):
            self.unmake()
            if not i & 1 and keys[-1 - i] == h and self.key() == cur:
                n += 1
        for m in back:
            self.make(m)
        return n

    def can_checkmate(self, color):
        """False only if colour cannot mate by any series of legal moves (material test)."""
        # Covers the standard cases: a lone king; king and one knight when the
        # opponent has nothing but king and queens (nothing that could block its
        # own king); king and bishops all on one square colour when no knight or
        # pawn is on the board and every bishop stands on that colour. Anything
        # else answers True (no helpmate search), so a position that is dead only
        # because of its pawn structure or piece placement is not recognised.
        b = self.b
        mine = BBIT if color else WBIT
        knights = 0
        bishops = 0
        other = 0
        theirs = 0
        light = dark = False
        any_pawn = any_knight = False
        for s in range(64):
            p = b[MB[s]]
            if not p:
                continue
            t = p & 7
            if t == PAWN:
                any_pawn = True
            elif t == KNIGHT:
                any_knight = True
            elif t == BISHOP:
                if ((s >> 3) + s) & 1:
                    light = True
                else:
                    dark = True
            if p & mine:
                if t == KNIGHT:
                    knights += 1
                elif t == BISHOP:
                    bishops += 1
                elif t != KING:
                    other += 1
            elif t != KING and t != QUEEN:
                theirs += 1
        if other:
            return True
        if knights:
            return knights > 1 or bishops > 0 or theirs > 0
        if bishops:
            return (light and dark) or any_pawn or any_knight
        return False

    def flag_result(self, color):
        """Result when colour's flag falls: a loss, or a draw if the opponent cannot mate (FIDE 6.9)."""
        if not self.can_checkmate(1 - color):
            return "1/2-1/2"
        return "0-1" if color == WHITE else "1-0"

    def is_dead_position(self):
        """True if neither side can checkmate (FIDE 2000 art. 5.2(2)), by the material test."""
        return not self.can_checkmate(WHITE) and not self.can_checkmate(BLACK)

    def ending(self, edition="fide-2000"):
        """None while the game goes on by rule in this edition, else (winner, termination, article)."""
        # The shape every rules engine shares (flagcore.outcome): winner 0 White,
        # 1 Black, None a draw; termination a flagcore.outcome constant; article
        # the FIDE Laws article of the edition.
        ed = _edition(edition)
        if not self.legal_moves():
            if self.is_check():
                return (1 - self.turn, 1, ed["art_mate"])         # outcome.CHECKMATE
            return (None, 2, ed["art_stalemate"])                 # outcome.STALEMATE
        if self.is_dead_position():
            return (None, 3, ed["art_dead"])                      # outcome.DEAD_POSITION
        if ed["auto_repetition"] and self.repetitions() >= ed["auto_repetition"]:
            return (None, 4, ed["art_repetition"])                # outcome.REPETITION
        if ed["auto_halfmoves"] and self.halfmove >= ed["auto_halfmoves"]:
            return (None, 5, ed["art_halfmoves"])                 # outcome.MOVE_LIMIT
        return None

    def status(self, edition="fide-2000"):
        """(result, reason) if the game has ended by rule in this edition, else None."""
        # result is '1-0', '0-1' or '1/2-1/2'; reason one of 'checkmate', 'stalemate',
        # 'dead position', 'fivefold repetition', '75-move rule' (a reading of ending() for people)
        e = self.ending(edition)
        if e is None:
            return None
        res = "1/2-1/2" if e[0] is None else ("1-0", "0-1")[e[0]]
        return (res, STATUS_REASONS[e[1]])

    def claims(self, edition="fide-2000"):
        """Draw claims the side to move could make now (FIDE 2000 arts. 9.2, 9.3)."""
        # Returns a list with 'threefold repetition' and/or '50-move rule',
        # counting the claim made by announcing a move that completes it.
        ed = _edition(edition)
        out = []
        legal = self.legal_moves()
        if not legal:
            return out
        need = ed["claim_repetition"]
        b = self.b
        if self.repetitions() >= need:
            out.append("threefold repetition")
        else:
            for m in legal:
                # only a quiet non-pawn move can lead back to an earlier position
                if b[(m >> 7) & 127] or b[m & 127] & 7 == PAWN:
                    continue
                self.push(m)
                n = self.repetitions()
                self.pop()
                if n >= need:
                    out.append("threefold repetition")
                    break
        lim = ed["claim_halfmoves"]
        if self.halfmove >= lim:
            out.append("50-move rule")
        elif self.halfmove + 1 >= lim:
            for m in legal:
                if not b[(m >> 7) & 127] and b[m & 127] & 7 != PAWN:
                    self.make(m)
                    ok = self.has_legal_move()
                    self.unmake()
                    if ok:
                        out.append("50-move rule")
                        break
        return out


def _edition(name):
    ed = EDITIONS.get(name)
    if ed is None:
        raise ChessError("unknown rules edition %r (choose from %s)" % (name, ", ".join(sorted(EDITIONS))))
    return ed
