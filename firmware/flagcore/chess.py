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

try:
    from micropython import const
except ImportError:
    const = lambda x: x

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
    "fide-2000": {"auto_repetition": 0, "auto_halfmoves": 0, "claim_repetition": 3, "claim_halfmoves": 100},
    "fide-2018": {"auto_repetition": 5, "auto_halfmoves": 150, "claim_repetition": 3, "claim_halfmoves": 100},
}

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

# Position hash for repetition, kept by push/pop (Zobrist hashing): one
# pseudo-random 30-bit number per piece and square, per castling state, per
# en-passant file and for the side to move, XORed together. 30 bits keep every
# value a MicroPython small int (no heap allocation on 32-bit ports). A hash
# match is confirmed by comparing the full positions (key()), so repetition
# counts stay exact. Rows of 64 per piece: ZI[piece code] is the row start.
ZCR = const(768)     # + castling rights (16)
ZEP = const(784)     # + en-passant file (8)
ZTURN = const(792)   # black to move
ZI = tuple(0 if not (p & 7) or p & 7 == 7 or not p & 24 else ((p & 7) - 1 + (p >> 4) * 6) * 64
           for p in range(23))
Z = [0] * 793


def _fill_z():
    # LCG x -> 22695477 x + 1 (mod 2**30) on two 15-bit halves, so no value
    # ever leaves the small-int range; a table value is the high halves of two steps
    hi = 0x1CE4
    lo = 0x2B1
    for i in range(1586):
        pl = 20021 * lo + 1
        hi = ((20021 * hi & 0x7FFF) + (692 * lo & 0x7FFF) + (pl >> 15)) & 0x7FFF
        lo = pl & 0x7FFF
        if i & 1:
            Z[i >> 1] |= hi
        else:
            Z[i >> 1] = hi << 15


_fill_z()
del _fill_z


def chess960_fen(n):
    """FEN of Chess960 start position n (0..959, Scharnagl's numbering: 518 is the standard array)."""
    if not isinstance(n, int) or n < 0 or n > 959:
        raise ChessError("Chess960 position number must be 0..959, got %r" % (n,))
    r = [""] * 8
    r[(n & 3) * 2 + 1] = "B"     # light-squared bishop: b, d, f or h file
    n >>= 2
    r[(n & 3) * 2] = "B"         # dark-squared bishop: a, c, e or g file
    n >>= 2
    _put(r, n % 6, "Q")          # queen on the (n mod 6)th free square
    n //= 6
    for i in range(5):           # knights: the nth pair of the five free squares
        if n < 4 - i:
            _put(r, i, "N")
            _put(r, i + n, "N")  # (the first knight's square is taken, so count from there)
            break
        n -= 4 - i
    _put(r, 0, "R")
    _put(r, 0, "K")
    _put(r, 0, "R")
    rank = "".join(r)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (rank.lower(), rank)


def _put(r, i, piece):
    for f in range(8):
        if not r[f]:
            if not i:
                r[f] = piece
                return
            i -= 1


def chess960_number(rank):
    """Start position number (0..959) of a back rank like 'RNBQKBNR', or -1 if it is not a Chess960 array."""
    if len(rank) != 8:
        return -1
    rank = rank.upper()
    if sorted(rank) != ["B", "B", "K", "N", "N", "Q", "R", "R"]:
        return -1
    bs = [f for f in range(8) if rank[f] == "B"]
    if not (bs[0] + bs[1]) & 1:
        return -1   # both bishops on one square colour
    light = bs[0] if bs[0] & 1 else bs[1]
    dark = bs[1] if bs[0] & 1 else bs[0]
    rest = [c for c in rank if c != "B"]
    n = light // 2 + 4 * (dark // 2) + 16 * rest.index("Q")
    rest.remove("Q")
    ks = [i for i in range(5) if rest[i] == "N"]
    k = 0
    for i in range(ks[0]):
        k += 4 - i
    n += 96 * (k + ks[1] - ks[0] - 1)
    if "".join(c for c in rest if c != "N") != "RKR":
        return -1   # the king must stand between the rooks
    return n


def _castling_field(text, b, kings, c960, fen):
    """(rights bits, rook cell per right) from a FEN castling field: KQkq (X-FEN) or rook files (Shredder)."""
    cr = 0
    crook = [0, 0, 0, 0]
    if text == "-":
        return cr, crook
    for ch in text:
        lo = ch.lower()
        if lo != "k" and lo != "q" and lo not in FILES:
            raise FenError("bad castling field %r: %r" % (text, fen))
        c = 0 if ch != lo else 1
        base = 91 if c else 21
        k = kings[c]
        rook = ROOK | (BBIT if c else WBIT)
        r = 0
        if base <= k <= base + 7:
            if lo == "k" or lo == "q":
                # X-FEN: the outermost rook on that side of the king
                t = base + 7 if lo == "k" else base
                d = -1 if lo == "k" else 1
                while t != k:
                    if b[t] == rook:
                        r = t
                        break
                    t += d
            elif b[base + FILES.index(lo)] == rook:
                r = base + FILES.index(lo)
        i = 2 * c + (1 if r < k else 0)
        std = k == base + 4 and r == CROOK[i]
        if not r or (not c960 and not std):
            if c960:
                why = "needs the king on its back rank and a rook there on that side (X-FEN K/Q) or file"
            elif r:
                why = "king or rook not on its home square (a Chess960 position? read it as chess960)"
            else:
                why = "king or rook not on its home square"
            raise FenError("impossible castling right %r: %s: %r" % (ch, why, fen))
        if crook[i] and crook[i] != r:
            raise FenError("two castling rights on one side of the %s king in %r: %r"
                           % (("white", "black")[c], text, fen))
        crook[i] = r
        cr |= 1 << i
    return cr, tuple(crook)


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
    """A chess position with its move history (make/unmake, push/pop).

    Board(fen, chess960=True) plays Chess960: castling rights belong to rook
    files and a castling move is written king-to-rook (see the module text).
    """

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
        cr, crook = _castling_field(parts[2], b, kings, self.chess960, fen)
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
        if self.chess960:
            self.crook = crook
            cm = bytearray(b"\x0f" * 120)
            for i in range(4):
                if cr >> i & 1:
                    cm[crook[i]] &= 15 ^ (1 << i)
                    cm[kings[i >> 1]] &= 12 if i < 2 else 3
            self._cm = cm
        else:
            self.crook = CROOK
            self._cm = CMASK
        self.ep = ep
        self.halfmove = hm
        self.fullmove = fm
        self._mv = []
        self._un = []
        if self._attacked(kings[1 - turn], BBIT if turn else WBIT):
            raise FenError("the side not to move is in check: %r" % (fen,))
        self._keys = [self._hash()]

    def fen(self, shredder=False):
        """FEN of the position (en-passant square given after every double step).

        Castling rights are written as in X-FEN: KQkq, or the rook's file
        letter when another rook stands further out on the same side (Chess960);
        shredder=True writes the rook files always (Shredder-FEN, e.g. HAha).
        """
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
        cr = self._castling_text(shredder)
        ep = _sqname(self.ep) if self.ep else "-"
        return "%s %s %s %s %d %d" % ("/".join(rows), "wb"[self.turn], cr, ep, self.halfmove, self.fullmove)

    def _castling_text(self, shredder):
        cr = self.castling
        if not cr:
            return "-"
        b = self.b
        out = ""
        for i in range(4):
            if not cr >> i & 1:
                continue
            r = self.crook[i]
            f = FILES[(r - 1) % 10]
            if not shredder:
                # X-FEN: K or Q unless another rook of that colour stands further out
                rp = b[r]
                d = 1 if i & 1 == 0 else -1
                t = r + d
                while b[t] != OFF and b[t] != rp:
                    t += d
                if b[t] == OFF:
                    f = "kq"[i & 1]
            out += f.upper() if i < 2 else f
        return out

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

    def chess960_pos(self):
        """Chess960 start position number (0..959) if this is one (white to move, all castling rights), else -1."""
        if self.turn or self.castling != 15 or self.ep:
            return -1
        b = self.b
        rank = ""
        for f in range(8):
            p = b[21 + f]
            if not p & WBIT or b[91 + f] != p + 8 or b[31 + f] != PAWN | WBIT or b[81 + f] != PAWN | BBIT:
                return -1
            for r in (41, 51, 61, 71):
                if b[r + f]:
                    return -1
            rank += PIECE_CHARS[p & 7]
        n = chess960_number(rank)
        if n >= 0 and self.crook != (21 + rank.rindex("r"), 21 + rank.index("r"),
                                     91 + rank.rindex("r"), 91 + rank.index("r")):
            return -1
        return n

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
                    if b[s] == PAWN | ubit:
                        # play it and look: the captured pawn may uncover a rank attack
                        cap = ep - fwd
                        b[ep] = b[s]
                        b[s] = 0
                        b[cap] = 0
                        bad = self._attacked(ksq, tbit)
                        b[s] = b[ep]
                        b[ep] = 0
                        b[cap] = PAWN | tbit
                        if not bad:
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
                self._castles960(app, us, ksq, tbit)
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

    def _castles960(self, app, us, ksq, tbit):
        """Append the Chess960 castling moves (king to own rook) that are legal; the king is not in check.

        FIDE Chess960 rules: every square between the king's start and end squares and
        between the rook's start and end squares (ends included) must be empty but for
        the king and that rook; no square the king stands on or passes over or reaches
        may be attacked. The end square is judged with the rook already on its end square.
        """
        b = self.b
        base = 91 if us else 21
        kp = b[ksq]
        for i in ((2, 3) if us else (0, 1)):
            if not self.castling >> i & 1:
                continue
            r = self.crook[i]
            if i & 1:
                kd = base + 2
                rd = base + 3
            else:
                kd = base + 6
                rd = base + 5
            lo = min(ksq, kd, r, rd)
            hi = max(ksq, kd, r, rd)
            t = lo
            while t <= hi:
                if b[t] and t != ksq and t != r:
                    break
                t += 1
            if t <= hi:
                continue
            b[ksq] = 0
            ok = True
            d = 1 if kd > ksq else -1
            t = ksq + d
            while kd != ksq and t != kd:
                if self._attacked(t, tbit):
                    ok = False
                    break
                t += d
            if ok:
                rp = b[r]
                b[r] = 0
                b[rd] = rp
                ok = not self._attacked(kd, tbit)
                b[rd] = 0
                b[r] = rp
            b[ksq] = kp
            if ok:
                app(ksq | r << 7)

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
        elif pt == 6 and cap & p & 24:
            # Chess960 castling, written king-to-rook: both go to their end squares
            self.halfmove += 1
            b[to] = 0
            base = 91 if self.turn else 21
            if to > fr:
                b[base + 5] = cap
                b[base + 6] = p
                self.kings[self.turn] = base + 6
            else:
                b[base + 3] = cap
                b[base + 2] = p
                self.kings[self.turn] = base + 2
        else:
            if cap:
                self.halfmove = 0
            else:
                self.halfmove += 1
            if pt == 6:
                self.kings[self.turn] = to
                if to - fr == 2:
                    b[fr + 1] = b[fr + 3]
                    b[fr + 3] = 0
                elif fr - to == 2:
                    b[fr - 1] = b[fr - 4]
                    b[fr - 4] = 0
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
        if cap & (8 << self.turn):
            # Chess960 castling (king-to-rook): clear both end squares, put king and rook back
            base = 91 if self.turn else 21
            if to > fr:
                b[base + 5] = 0
                b[base + 6] = 0
            else:
                b[base + 3] = 0
                b[base + 2] = 0
            b[fr] = KING | (cap & 24)
            b[to] = cap
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
            if to - fr == 2:
                b[fr + 3] = b[fr + 1]
                b[fr + 1] = 0
            elif fr - to == 2:
                b[fr - 4] = b[fr - 1]
                b[fr - 1] = 0

    def push(self, m):
        """Play move m (assumed legal) and record the new position's hash for repetition.

        The hash is updated from the previous one by the squares the move
        changes (no allocation in the common case). Do not mix push() with an
        unbalanced make(): the hashes follow the pushed moves.
        """
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
        h = keys[-1] ^ Z[ZCR + self.castling] ^ Z[ZTURN]
        ep = self.ep
        if ep and self._ep_capturable():
            h ^= Z[ZEP + (ep - 1) % 10]
        pt = p & 7
        if pt == 6 and (q & p & 24 or to - fr == 2 or fr - to == 2):
            # castling: the king and the rook, on whatever squares they start and end
            base = 91 if self.turn else 21
            if to > fr:
                kd = base + 6
                rd = base + 5
                rf = to if q else base + 7
            else:
                kd = base + 2
                rd = base + 3
                rf = to if q else base
            h ^= self._zcells(fr, rf, kd, rd)
            self.make(m)
            h ^= self._zcells(fr, rf, kd, rd)
        elif pt == 1 and to == ep:
            c = to - 10 if p & WBIT else to + 10
            h ^= Z[ZI[p] + SQ[fr]] ^ Z[ZI[b[c]] + SQ[c]] ^ Z[ZI[p] + SQ[to]]
            self.make(m)
        else:
            h ^= Z[ZI[p] + SQ[fr]]
            if q:
                h ^= Z[ZI[q] + SQ[to]]
            self.make(m)
            h ^= Z[ZI[b[to]] + SQ[to]]   # the moved piece, or what it promoted to
        h ^= Z[ZCR + self.castling]
        if self.ep and self._ep_capturable():
            h ^= Z[ZEP + (self.ep - 1) % 10]
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

    def _zcells(self, fr, rf, kd, rd):
        """Hash of what stands on a castling's king and rook start and end cells (each cell once)."""
        b = self.b
        h = 0
        p = b[fr]
        if p:
            h ^= Z[ZI[p] + SQ[fr]]
        p = b[rf]
        if p:
            h ^= Z[ZI[p] + SQ[rf]]
        if kd != fr and kd != rf:
            p = b[kd]
            if p:
                h ^= Z[ZI[p] + SQ[kd]]
        if rd != fr and rd != rf:
            p = b[rd]
            if p:
                h ^= Z[ZI[p] + SQ[rd]]
        return h

    def _hash(self):
        """Position hash from scratch (what push() keeps up to date)."""
        b = self.b
        h = Z[ZCR + self.castling]
        for s in range(64):
            p = b[MB[s]]
            if p:
                h ^= Z[ZI[p] + s]
        if self.turn:
            h ^= Z[ZTURN]
        if self.ep and self._ep_capturable():
            h ^= Z[ZEP + (self.ep - 1) % 10]
        return h

    def _ep_capturable(self):
        """True if the side to move has a legal en-passant capture (the ep square counts for repetition)."""
        ep = self.ep
        b = self.b
        if self.turn:
            ubit = BBIT
            tbit = WBIT
            fwd = -10
        else:
            ubit = WBIT
            tbit = BBIT
            fwd = 10
        cap = ep - fwd
        ksq = self.kings[self.turn]
        for s in (cap - 1, cap + 1):
            if b[s] == PAWN | ubit:
                # play it and look: the king may stand in check, or on a line the two pawns leave
                b[ep] = b[s]
                b[s] = 0
                b[cap] = 0
                bad = self._attacked(ksq, tbit)
                b[s] = b[ep]
                b[ep] = 0
                b[cap] = PAWN | tbit
                if not bad:
                    return True
        return False

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
        """The legal move for SAN text in its common spellings; raises IllegalMoveError.

        Accepts O-O/0-0, e8=Q/e8Q/e8(Q), exd6 e.p., Ng1f3, e2-e4, and trailing
        +, #, !, ? marks.
        """
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
        """(squares emptied, squares filled) by legal move m, as tuples of 0..63.

        A plain capture empties only the from-square: the target stays occupied.
        En passant also empties the captured pawn's square; castling moves two pieces.
        """
        b = self.b
        fr = m & 127
        to = (m >> 7) & 127
        p = b[fr]
        pt = p & 7
        if pt == KING and b[to] & p & 24:
            # Chess960 castling (king-to-rook): king and rook may start or end on each other's
            # squares, or not move; only cells that change state are listed (a swap changes none)
            base = 91 if p & BBIT else 21
            kd = base + (6 if to > fr else 2)
            rd = base + (5 if to > fr else 3)
            e = tuple(SQ[c] for c in (fr, to) if c != kd and c != rd)
            f = tuple(SQ[c] for c in (kd, rd) if c != fr and c != to)
            return e, f
        if pt == KING and (to - fr == 2 or fr - to == 2):
            if to > fr:
                return (SQ[fr], SQ[fr + 3]), (SQ[to], SQ[fr + 1])
            return (SQ[fr], SQ[fr - 4]), (SQ[to], SQ[fr - 1])
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

    def move_effects(self):
        """[(move, emptied mask, filled mask)] for every legal move: the bridge's lookup table."""
        out = []
        for m in self.legal_moves():
            e, f = self.occupancy_masks(m)
            out.append((m, e, f))
        return out

    def captured_square(self, m):
        """Square 0..63 of the piece legal move m captures, or -1."""
        to = (m >> 7) & 127
        p = self.b[m & 127]
        if p & 7 == PAWN and to == self.ep:
            return SQ[to - 10 if p & WBIT else to + 10]
        q = self.b[to]
        return SQ[to] if q and not q & p & 24 else -1   # (own rook: Chess960 castling)

    def is_castling(self, m):
        """True if legal move m is castling (king two squares, or king onto its own rook in Chess960)."""
        fr = m & 127
        to = (m >> 7) & 127
        p = self.b[fr]
        return p & 7 == KING and (to - fr == 2 or fr - to == 2 or self.b[to] & p & 24 != 0)

    def castling_squares(self, m):
        """For a castling move m: (king from, king to, rook from, rook to) as squares 0..63, else None."""
        if not self.is_castling(m):
            return None
        fr = m & 127
        to = (m >> 7) & 127
        base = 91 if self.b[fr] & BBIT else 21
        if to > fr:
            kd = base + 6
            rd = base + 5
            rf = to if self.b[to] else base + 7
        else:
            kd = base + 2
            rd = base + 3
            rf = to if self.b[to] else base
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
        """How many times the present position has occurred (counting now).

        Looks back over the pushed positions since the last pawn move or
        capture; a position whose hash matches is compared in full (key()).
        """
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
        """False only if colour cannot mate by any series of legal moves (material test).

        Covers the standard cases: a lone king; king and one knight when the
        opponent has nothing but king and queens (nothing that could block its
        own king); king and bishops all on one square colour when no knight or
        pawn is on the board and every bishop stands on that colour. Anything
        else answers True (no helpmate search), so a position that is dead only
        because of its pawn structure or piece placement is not recognised.
        """
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

    def status(self, edition="fide-2000"):
        """(result, reason) if the game has ended by rule in this edition, else None.

        result is '1-0', '0-1' or '1/2-1/2'; reason one of 'checkmate',
        'stalemate', 'dead position', 'fivefold repetition', '75-move rule'.
        """
        ed = _edition(edition)
        if not self.legal_moves():
            if self.is_check():
                return ("0-1" if self.turn == WHITE else "1-0", "checkmate")
            return ("1/2-1/2", "stalemate")
        if self.is_dead_position():
            return ("1/2-1/2", "dead position")
        if ed["auto_repetition"] and self.repetitions() >= ed["auto_repetition"]:
            return ("1/2-1/2", "fivefold repetition")
        if ed["auto_halfmoves"] and self.halfmove >= ed["auto_halfmoves"]:
            return ("1/2-1/2", "75-move rule")
        return None

    def claims(self, edition="fide-2000"):
        """Draw claims the side to move could make now (FIDE 2000 arts. 9.2, 9.3).

        Returns a list with 'threefold repetition' and/or '50-move rule',
        counting the claim made by announcing a move that completes it.
        """
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
