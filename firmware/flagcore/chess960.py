"""Chess960 start positions by number (0..959), in Scharnagl's standard numbering."""
# 518 is the standard array RNBQKBNR. Number n places, in order: the
# light-squared bishop on file b, d, f or h (n mod 4), the dark-squared bishop
# on a, c, e or g (next digit base 4), the queen on the (digit base 6)th free
# square, the knights on one of the ten pairs of the five free squares (the rest,
# 0..9, in the order NN---, N-N--, N--N-, N---N, -NN--, ..., ---NN), and rook,
# king, rook on the three squares left. Black mirrors White. The rules of play
# are in flagcore.chess (Board(fen, chess960=True)); the castling field of
# X-FEN and Shredder-FEN is read and written here (chess imports this module only
# for Chess960 boards and Shredder-FEN, so standard games do not carry it).
from flagcore import chess
from flagcore.chess import FILES, ROOK, WBIT, BBIT, OFF, CROOK, FenError


def fen(n):
    """X-FEN of start position n (0..959): fen(518) == chess.START_FEN."""
    if not isinstance(n, int) or n < 0 or n > 959:
        raise chess.ChessError("Chess960 position number must be 0..959, got %r" % (n,))
    r = [""] * 8
    r[(n & 3) * 2 + 1] = "B"
    n >>= 2
    r[(n & 3) * 2] = "B"
    n >>= 2
    _put(r, n % 6, "Q")
    n //= 6
    for i in range(5):
        if n < 4 - i:
            _put(r, i, "N")
            _put(r, i + n, "N")   # the first knight took a square: count on from it
            break
        n -= 4 - i
    _put(r, 0, "R")
    _put(r, 0, "K")
    _put(r, 0, "R")
    rank = "".join(r)
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w KQkq - 0 1" % (rank.lower(), rank)


def _put(r, i, piece):
    # piece on the ith free square of rank r
    for f in range(8):
        if not r[f]:
            if not i:
                r[f] = piece
                return
            i -= 1


def board(n):
    """A chess960 Board at start position n."""
    return chess.Board(fen(n), chess960=True)


def number(rank):
    """Number (0..959) of a back rank like 'RNBQKBNR' (either case), or -1 if it is not a Chess960 array."""
    if not isinstance(rank, str) or len(rank) != 8:
        return -1
    rank = rank.upper()
    if sorted(rank) != ["B", "B", "K", "N", "N", "Q", "R", "R"]:
        return -1
    b1 = rank.index("B")
    b2 = rank.rindex("B")
    if not (b1 + b2) & 1:
        return -1   # both bishops on one square colour
    light = b1 if b1 & 1 else b2
    dark = b2 if b1 & 1 else b1
    rest = [c for c in rank if c != "B"]
    n = light // 2 + 4 * (dark // 2) + 16 * rest.index("Q")
    rest.remove("Q")
    k1 = rest.index("N")
    k2 = rest.index("N", k1 + 1)
    for i in range(k1):
        n += 96 * (4 - i)
    n += 96 * (k2 - k1 - 1)
    if "".join(c for c in rest if c != "N") != "RKR":
        return -1   # the king must stand between the rooks
    return n


def number_of(b):
    """Start position number (0..959) of a Board if it stands in one, else -1."""
    # White to move, pawns on their ranks, the back ranks a mirrored Chess960
    # array, all four castling rights on the two rooks, no en-passant square.
    if b.turn or b.castling != 15 or b.ep:
        return -1
    rank = ""
    for f in range(8):
        w = b.piece_at(f)
        if w is None or w[0] != chess.WHITE or b.piece_at(56 + f) != (chess.BLACK, w[1]) \
                or b.piece_at(8 + f) != (chess.WHITE, chess.PAWN) or b.piece_at(48 + f) != (chess.BLACK, chess.PAWN):
            return -1
        for r in (16, 24, 32, 40):
            if b.piece_at(r + f) is not None:
                return -1
        rank += chess.PIECE_CHARS[w[1]]
    n = number(rank)
    if n >= 0:
        lo = rank.index("r")
        hi = rank.rindex("r")
        if b.castling_rooks() != (hi, lo, 56 + hi, 56 + lo):
            return -1
    return n


def castling_field(text, b, kings, c960, fen):
    """(rights bits, rook cell per right) of a FEN castling field: KQkq (X-FEN) or rook files (Shredder-FEN)."""
    # b is the board's mailbox, kings the two king cells; without c960 only the
    # standard king and rook squares are accepted. Raises FenError.
    cr = 0
    crook = [0, 0, 0, 0]
    if text == "-":
        return cr, tuple(crook)
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
        if not r or (not c960 and (k != base + 4 or r != CROOK[i])):
            raise FenError("impossible castling right %r: king or rook not on its home square%s: %r"
                           % (ch, "" if c960 else " (for Chess960 read it as chess960)", fen))
        if crook[i] and crook[i] != r:
            raise FenError("two castling rights on one side of a king in %r: %r" % (text, fen))
        crook[i] = r
        cr |= 1 << i
    return cr, tuple(crook)


def castling_text(board, shredder=False):
    """Castling field of a Board: X-FEN, or Shredder-FEN (rook files, HAha) if shredder."""
    # X-FEN: KQkq, or the rook's file letter when another rook of that colour
    # stands further out on that side
    cr = board.castling
    if not cr:
        return "-"
    b = board.b
    out = ""
    for i in range(4):
        if not cr >> i & 1:
            continue
        r = board.crook[i]
        f = FILES[(r - 1) % 10]
        if not shredder:
            rp = b[r]
            d = 1 if i & 1 == 0 else -1
            t = r + d
            while b[t] != OFF and b[t] != rp:
                t += d
            if b[t] == OFF:
                f = "kq"[i & 1]
        out += f.upper() if i < 2 else f
    return out


def castles(board, app, us, ksq, tbit):
    """Append (app) the legal Chess960 castling moves of side us, written king-to-rook."""
    # Called by Board.legal_moves when the king (on cell ksq) is not in check.
    # FIDE Chess960 rules: every cell between the king's start and end cells and
    # between the rook's start and end cells (ends included) must be empty but for
    # the king and that rook; the king may not stand on, pass over or reach an
    # attacked cell (tbit: the attacker's colour bit). The end cell is judged with
    # the rook already on its end cell, as python-chess does.
    b = board.b
    base = 91 if us else 21
    kp = b[ksq]
    for i in ((2, 3) if us else (0, 1)):
        if not board.castling >> i & 1:
            continue
        r = board.crook[i]
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
            if board._attacked(t, tbit):
                ok = False
                break
            t += d
        if ok:
            rp = b[r]
            b[r] = 0
            b[rd] = rp
            ok = not board._attacked(kd, tbit)
            b[rd] = 0
            b[r] = rp
        b[ksq] = kp
        if ok:
            app(ksq | r << 7)
