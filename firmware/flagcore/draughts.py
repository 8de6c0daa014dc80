"""Draughts rules: international (FMJD 10x10), Brazilian, Russian and English checkers.

One move generator, parameterised by variant (see SPECS). Squares are
numbered as in FMJD 2.6 and checkers 1.5: 1 is the top-left playing square as
White sees the board (b10 on 10x10, b8 on 8x8), row by row, so White (light)
starts on the high numbers and Black/Red (dark) on 1..12 or 1..20.

Internally the board is a padded bytearray in which the four diagonal
neighbours of every square sit at fixed offsets, with WALL bytes around the
edge and in one ghost column per two rows, so rays stop by themselves.

THE CAPTURE RULE (Rules.captures, _man, _king):
- capturing is compulsory (FMJD 4.1-4.6, checkers 1.19); a started sequence
  must be completed;
- a jumped piece stays on the board until the sequence ends and cannot be
  jumped twice (FMJD 4.8, 4.11, the "Turkish strike"): it is marked TAKEN,
  which blocks like a wall;
- international and Brazilian: the sequence capturing the most pieces is
  compulsory, a king counting as one (FMJD 4.13), free choice among equals
  (4.14); a man that passes the last row mid-capture stays a man (4.15);
- Russian: free choice of sequence; a man reaching the last row mid-capture
  becomes a king at once and continues as one; a king must land where it can
  go on capturing if such a square exists;
- checkers: men capture forwards only, kings one step; crowning ends the
  move (1.18); free choice of sequence (1.19);
- two sequences with the same start, end and captured set are one move.

A move in internal form is (frm, to) for a plain move and
(frm, to, captured, path, crowned) for a capture, all in internal indices;
Game.legal() wraps them in Move objects with square numbers.
"""

from flagcore._compat import const

EMPTY = const(0)
WHITE = const(1)
BLACK = const(2)
KING = const(4)
WALL = const(8)
TAKEN = const(16)  # a piece already jumped in the sequence being built

# what a man does on reaching the last row during a capture
STAYS = const(0)      # stays a man unless the move ends there (FMJD 4.15)
CONTINUES = const(1)  # becomes a king and captures on as one (Russian)
ENDS = const(2)       # is crowned and the move ends (checkers 1.18)

# name: (squares per row, men capture backwards, flying kings,
#        maximum capture, crowning mid-capture, side that moves first)
SPECS = {
    "international": (5, True, True, True, STAYS, WHITE),
    "brazilian": (4, True, True, True, STAYS, WHITE),
    "russian": (4, True, True, False, CONTINUES, WHITE),
    "checkers": (4, False, False, False, ENDS, BLACK),
}
ALIASES = {"draughts": "international", "english": "checkers", "standard": "international"}
# variants whose records are usually algebraic (c3-d4), with their capture separator
ALGEBRAIC = {"russian": ":", "brazilian": "x"}
FILES = "abcdefghij"


class DraughtsError(ValueError):
    """A malformed position, square, move text or variant name."""


def variant_name(name):
    """The canonical variant name for a name or alias; raises DraughtsError."""
    key = ALIASES.get(name, name)
    if key not in SPECS:
        raise DraughtsError("unknown draughts variant %r (choose from %s)"
                            % (name, ", ".join(sorted(list(SPECS) + list(ALIASES)))))
    return key


class Rules:
    """Geometry and move generation for one variant."""

    def __init__(self, name="international"):
        self.name = name = variant_name(name)
        half, self.men_back, self.flying, self.maximum, self.crown_mid, self.first = SPECS[name]
        self.half = half
        self.size = 2 * half
        self.nsq = n = 2 * half * half
        self.dirs = (-(half + 1), -half, half, half + 1)
        up = (-(half + 1), -half)
        down = (half, half + 1)
        self.fwd = (None, up, down)
        self.mcap = (None, self.dirs, self.dirs) if self.men_back else self.fwd
        last = self._idx(n)
        self.s2i = bytearray(n + 1)
        self.i2s = bytearray(last + half + 3)
        self.empty = bytearray([WALL] * len(self.i2s))
        self.promo = bytearray(len(self.i2s))
        for s in range(1, n + 1):
            i = self._idx(s)
            self.s2i[s] = i
            self.i2s[i] = s
            self.empty[i] = EMPTY
            if s <= half:
                self.promo[i] = WHITE
            elif s > n - half:
                self.promo[i] = BLACK
        self.rows = 3 if half == 4 else 4
        self._mb = (None, bytes((WHITE,)), bytes((BLACK,)))
        self._kb = (None, bytes((WHITE | KING,)), bytes((BLACK | KING,)))

    def _idx(self, s):
        return s + (s - 1) // (2 * self.half) + self.half + 1

    def start(self):
        """The start position as a new bytearray (FMJD 2.8, checkers 1.11)."""
        b = self.empty[:]
        k = self.rows * self.half
        for s in range(1, k + 1):
            b[self.s2i[s]] = BLACK
            b[self.s2i[self.nsq + 1 - s]] = WHITE
        return b

    # -- move generation ---------------------------------------------------

    def moves(self, b, side):
        """Every legal move of `side` on board `b`, in internal form."""
        opp = side ^ 3
        quiet = []
        mb = self._mb[side]
        f0, f1 = self.fwd[side]
        mc = self.mcap[side]
        i = b.find(mb)
        while i >= 0:
            for d in mc:
                if b[i + d] & opp and b[i + d + d] == 0:
                    return self.captures(b, side)
            if b[i + f0] == 0:
                quiet.append((i, i + f0))
            if b[i + f1] == 0:
                quiet.append((i, i + f1))
            i = b.find(mb, i + 1)
        kb = self._kb[side]
        i = b.find(kb)
        fly = self.flying
        while i >= 0:
            for d in self.dirs:
                t = i + d
                if fly:
                    while b[t] == 0:
                        quiet.append((i, t))
                        t += d
                elif b[t] == 0:
                    quiet.append((i, t))
                    continue
                if b[t] & opp and b[t + d] == 0:
                    return self.captures(b, side)
            i = b.find(kb, i + 1)
        return quiet

    def captures(self, b, side):
        """Every legal capture of `side` (internal form), deduplicated."""
        self._b = b
        self._out = out = []
        self._best = 0
        self._caps = []
        for code in (side, side | KING):
            pb = bytes((code,))
            i = b.find(pb)
            while i >= 0:
                b[i] = EMPTY  # lifted: the piece may pass its own square again
                self._path = [i]
                self._crowned = False
                self._man_start = code == side
                if code == side:
                    self._man(i, side)
                else:
                    self._king(i, side, 0)
                b[i] = code
                i = b.find(pb, i + 1)
        self._b = None
        if len(out) > 1:
            seen = {}
            res = []
            for m in out:
                key = (m[0], m[1], tuple(sorted(m[2])))
                if key not in seen:
                    seen[key] = 1
                    res.append(m)
            out = res
        self._out = None
        return out

    def _record(self):
        caps = self._caps
        n = len(caps)
        if self.maximum:
            if n < self._best:
                return
            if n > self._best:
                self._best = n
                del self._out[:]
        path = self._path
        to = path[-1]
        crown = self._man_start and (self._crowned or bool(self.promo[to] & self._side))
        self._out.append((path[0], to, tuple(caps), tuple(path), crown))

    def _man(self, i, side):
        b = self._b
        opp = side ^ 3
        found = False
        self._side = side
        for d in self.mcap[side]:
            c = i + d
            if b[c] & opp:
                t = c + d
                if b[t] == 0:
                    found = True
                    p = b[c]
                    b[c] = TAKEN
                    self._caps.append(c)
                    self._path.append(t)
                    if self.promo[t] & side and self.crown_mid:
                        if self.crown_mid == ENDS:
                            self._record()
                        else:
                            self._crowned = True
                            self._king(t, side, d)
                            self._crowned = False
                    else:
                        self._man(t, side)
                    self._caps.pop()
                    self._path.pop()
                    b[c] = p
        if not found and self._caps:
            self._record()
        return found

    def _can_king(self, i, side, back):
        # can a king on i capture, not counting the way it came?
        b = self._b
        opp = side ^ 3
        for d in self.dirs:
            if d == back:
                continue
            c = i + d
            while b[c] == 0:
                c += d
            if b[c] & opp and b[c + d] == 0:
                return True
        return False

    def _king(self, i, side, lastd):
        b = self._b
        opp = side ^ 3
        fly = self.flying
        found = False
        self._side = side
        for d in self.dirs:
            if d == -lastd:
                continue
            c = i + d
            if fly:
                while b[c] == 0:
                    c += d
            if b[c] & opp:
                t = c + d
                if b[t] == 0:
                    found = True
                    p = b[c]
                    b[c] = TAKEN
                    self._caps.append(c)
                    path = self._path
                    if fly:
                        lands = []
                        while b[t] == 0:
                            lands.append(t)
                            t += d
                        go = [x for x in lands if self._can_king(x, side, -d)]
                        for x in (go or lands):
                            path.append(x)
                            if go:
                                self._king(x, side, d)
                            else:
                                self._record()
                            path.pop()
                    else:
                        path.append(t)
                        self._king(t, side, d)
                        path.pop()
                    self._caps.pop()
                    b[c] = p
        if not found and self._caps:
            self._record()
        return found

    def play(self, b, m, side):
        """Apply internal move m of `side` to board b in place."""
        frm = m[0]
        to = m[1]
        p = b[frm]
        b[frm] = EMPTY
        if len(m) > 2:
            for c in m[2]:
                b[c] = EMPTY
            if m[4]:
                p |= KING
        elif p == side and self.promo[to] & side:
            p |= KING
        b[to] = p

    def perft(self, b, side, depth):
        """Leaves of the legal-move tree below (b, side) at `depth` plies."""
        ms = self.moves(b, side)
        if depth <= 1:
            return len(ms) if depth == 1 else 1
        n = 0
        opp = side ^ 3
        play = self.play
        perft = self.perft
        for m in ms:
            c = b[:]
            play(c, m, side)
            n += perft(c, opp, depth - 1)
        return n

    # -- squares and positions ---------------------------------------------

    def square_name(self, s, algebraic=False):
        """Square number s as text: '32', or 'c3' when algebraic."""
        if not algebraic:
            return str(s)
        h = self.half
        r = (s - 1) // h
        col = 2 * ((s - 1) % h) + (1 - r % 2)
        return FILES[col] + str(self.size - r)

    def parse_square(self, text):
        """Square number from '32' or 'c3'; DraughtsError if not a playing square."""
        t = text.strip().lower()
        n = self.nsq
        if t.isdigit():
            s = int(t)
            if not 1 <= s <= n:
                raise DraughtsError("square %s does not exist (%s has squares 1-%d)"
                                    % (t, self.name, n))
            return s
        if len(t) >= 2 and t[0] in FILES and t[1:].isdigit():
            col = FILES.index(t[0])
            rank = int(t[1:])
            if col >= self.size or not 1 <= rank <= self.size:
                raise DraughtsError("square %s is off the %dx%d board" % (text, self.size, self.size))
            r = self.size - rank
            if (r + col) % 2 == 0:
                raise DraughtsError("square %s is a light square (not played on)" % text)
            return r * self.half + col // 2 + 1
        raise DraughtsError("bad square %r (a number 1-%d or a square like c3)" % (text, n))

    def parse_fen(self, fen):
        """(board, side) from a PDN FEN like 'W:W31,32,K45:B1,2'; DraughtsError if malformed."""
        t = fen.strip().strip('"').rstrip(".").strip()
        parts = [p.strip() for p in t.split(":")]
        if len(parts) < 2 or parts[0].upper() not in ("W", "B"):
            raise DraughtsError("bad FEN %r: expected e.g. W:W31,32,K45:B1,2 "
                                "(side to move, then W and B piece lists)" % fen)
        side = WHITE if parts[0].upper() == "W" else BLACK
        b = self.empty[:]
        seen = {}
        for part in parts[1:]:
            if not part:
                continue
            col = part[0].upper()
            if col not in ("W", "B"):
                raise DraughtsError("bad FEN %r: piece list %r must start with W or B" % (fen, part))
            if col in seen:
                raise DraughtsError("bad FEN %r: two %s piece lists" % (fen, col))
            seen[col] = 1
            colour = WHITE if col == "W" else BLACK
            for item in part[1:].split(","):
                item = item.strip()
                if not item:
                    continue
                code = colour
                if item[0] in "Kk":
                    code |= KING
                    item = item[1:]
                try:
                    if "-" in item:
                        lo, hi = item.split("-", 1)
                        lo = self.parse_square(lo)
                        hi = self.parse_square(hi)
                        if hi < lo:
                            raise DraughtsError("empty range %s" % item)
                        squares = range(lo, hi + 1)
                    else:
                        squares = (self.parse_square(item),)
                except DraughtsError as e:
                    raise DraughtsError("bad FEN %r: %s" % (fen, e))
                for s in squares:
                    i = self.s2i[s]
                    if b[i] != EMPTY:
                        raise DraughtsError("bad FEN %r: square %d given twice" % (fen, s))
                    if code == colour and self.promo[i] & colour:
                        raise DraughtsError("bad FEN %r: a %s man on %d would be a king"
                                            % (fen, "white" if colour == WHITE else "black", s))
                    b[i] = code
        return b, side

    def fen(self, b, side, algebraic=False):
        """PDN FEN of (b, side): 'W:W31,32,K45:B1,2'."""
        out = ["W" if side == WHITE else "B"]
        for colour, letter in ((WHITE, "W"), (BLACK, "B")):
            items = []
            for s in range(1, self.nsq + 1):
                p = b[self.s2i[s]]
                if p & colour:
                    items.append(("K" if p & KING else "") + self.square_name(s, algebraic))
            out.append(letter + ",".join(items))
        return ":".join(out)


class Move:
    """A legal move: start, end, landing path and captured squares (numbers)."""

    def __init__(self, rules, m, crown):
        n = rules.i2s
        self.internal = m
        self.frm = n[m[0]]
        self.to = n[m[1]]
        self.crown = bool(crown)
        if len(m) > 2:
            self.path = tuple([n[x] for x in m[3]])
            self.order = tuple([n[x] for x in m[2]])
            self.captured = tuple(sorted(self.order))
        else:
            self.path = (self.frm, self.to)
            self.order = ()
            self.captured = ()

    def key(self):
        """(start, end, captured squares): what makes two moves different."""
        return (self.frm, self.to, self.captured)

    def __eq__(self, other):
        return isinstance(other, Move) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __repr__(self):
        return "Move(%s)" % self.short()

    def short(self):
        """FROM-TO, or FROMxTO:C1,C2 with the captured squares ascending (numbers)."""
        if not self.captured:
            return "%d-%d" % (self.frm, self.to)
        return "%dx%d:%s" % (self.frm, self.to, ",".join([str(c) for c in self.captured]))


def _unplay(b, rec):
    # undo on board b the move of history record rec (see Game.push)
    a = rec[0]
    b[(a >> 7) & 127] = EMPTY
    b[a & 127] = (a >> 14) & 31
    for k in range(2, len(rec)):
        b[rec[k] & 127] = rec[k] >> 7


def _subset(small, big):
    for x in small:
        if x not in big:
            return False
    return True


class Game:
    """A game in progress: position, legal moves, push/pop, notation, game end and draws."""

    def __init__(self, variant="international", fen=None):
        self.rules = r = Rules(variant)
        self.variant = r.name
        if fen:
            self.board, self.side = r.parse_fen(fen)
        else:
            self.board, self.side = r.start(), r.first
        # one undo record per ply, newest last: a tuple of small ints (see
        # push), a few bytes per ply, which matters on a microcontroller;
        # len(history) is the number of moves played
        self.history = []
        # draw-rule counters, in plies: kings = consecutive non-capturing king
        # moves; change = since the last capture or crowning; eg = since the
        # current FMJD 6.3/6.4 endgame class (eg_class) arose
        self.kings = 0
        self.change = 0
        self.eg = 0
        self.eg_class = self._eg_class()
        self._legal = None

    # -- moves --------------------------------------------------------------

    def legal(self):
        """The legal moves of the side to move, as Move objects (cached)."""
        if self._legal is None:
            r = self.rules
            b = self.board
            side = self.side
            out = []
            for m in r.moves(b, side):
                crown = m[4] if len(m) > 2 else (b[m[0]] == side and r.promo[m[1]] & side)
                out.append(Move(r, m, crown))
            self._legal = out
        return self._legal

    def push(self, move):
        """Play a legal Move (or move text); returns the Move played."""
        if not isinstance(move, Move):
            move = self.parse(move)
        elif move not in self.legal():
            raise DraughtsError("illegal move %s" % move.short())
        b = self.board
        m = move.internal
        p = b[m[0]]
        caps = m[2] if len(m) > 2 else ()
        # record: (from | to << 7 | piece << 14, draw counters, captured | piece << 7, ...)
        rec = [m[0] | m[1] << 7 | p << 14,
               min(self.kings, 1023) | min(self.change, 1023) << 10
               | min(self.eg, 255) << 20 | (self.eg_class and self.eg_class - 62) << 28]
        for c in caps:
            rec.append(c | b[c] << 7)
        self.history.append(tuple(rec))
        self.rules.play(b, m, self.side)
        self.kings = 0 if caps or not p & KING else self.kings + 1
        self.change = 0 if caps or move.crown else self.change + 1
        self.side ^= 3
        cls = self._eg_class()
        if cls == self.eg_class:
            self.eg += 1
        else:
            self.eg_class = cls
            self.eg = 0
        self._legal = None
        return move

    def pop(self):
        """Take back the last move; returns it (a Move of the restored position)."""
        rec = self.history.pop()
        c = rec[1]
        self.kings = c & 1023
        self.change = (c >> 10) & 1023
        self.eg = (c >> 20) & 255
        self.eg_class = (0, 63, 64)[c >> 28]
        _unplay(self.board, rec)
        self.side ^= 3
        self._legal = None
        a = rec[0]
        n = self.rules.i2s
        caps = sorted([n[x & 127] for x in rec[2:]])
        for m in self.legal():
            if m.frm == n[a & 127] and m.to == n[(a >> 7) & 127] and list(m.captured) == caps:
                return m
        return None

    def repetitions(self):
        """How many times the current position (same side to move) has occurred."""
        h = self.history
        n = min(self.kings, len(h))
        if n < 4:
            return 1
        b = self.board[:]
        count = 1
        for ply in range(1, n + 1):
            _unplay(b, h[len(h) - ply])
            if ply % 2 == 0 and b == self.board:
                count += 1
        return count

    # -- notation -----------------------------------------------------------

    def algebraic(self):
        """True if this variant's records are usually algebraic (Russian, Brazilian)."""
        return self.variant in ALGEBRAIC

    def move_text(self, move, algebraic=None):
        """PDN text of a legal move: '32-28', '28x19', or the full path '28x19x10' when
        another legal capture has the same start and end."""
        if algebraic is None:
            algebraic = self.algebraic()
        r = self.rules
        sep = "-"
        if move.captured:
            sep = ALGEBRAIC.get(self.variant, "x") if algebraic else "x"
        squares = (move.frm, move.to)
        if move.captured:
            for o in self.legal():
                if o.frm == move.frm and o.to == move.to and o.captured != move.captured:
                    squares = move.path
                    break
        return sep.join([r.square_name(s, algebraic) for s in squares])

    def parse(self, text):
        """The legal Move that a PDN move text ('32-28', '28x19x10', 'c3:e5') denotes.

        Raises DraughtsError if it is malformed, illegal or ambiguous."""
        cands = self.candidates(text)
        if not cands:
            raise DraughtsError("illegal move %r in %s" % (text, self.fen()))
        if len(cands) > 1:
            raise DraughtsError("ambiguous move %r: %s" % (text, ", ".join([m.short() for m in cands])))
        return cands[0]

    def candidates(self, text):
        """Every legal Move that a move text could denote (several if it is ambiguous)."""
        t = text.strip().rstrip("!?*+#=")
        for sep in "x:X":
            t = t.replace(sep, "x")
        capture = "x" in t
        parts = t.split("x") if capture else t.split("-")
        if len(parts) < 2 or (not capture and len(parts) != 2):
            raise DraughtsError("bad move %r (expected e.g. 32-28, 28x19 or c3:e5)" % text)
        squares = [self.rules.parse_square(p) for p in parts]
        frm = squares[0]
        to = squares[-1]
        out = [m for m in self.legal() if m.frm == frm and m.to == to]
        strict = [m for m in out if bool(m.captured) == capture]
        if strict:
            out = strict
        # else: some records write a capture with '-' or a plain move with 'x'
        # (PROF2.pdn); the squares alone decide then
        if len(squares) > 2 and out:
            implied = self._path_captures(squares)
            if implied is None:
                return []
            out = [m for m in out if _subset(implied, m.captured)]
            exact = [m for m in out if len(m.captured) == len(implied)]
            out = exact or out
        return out

    def match(self, emptied, filled):
        """Legal moves after which exactly the squares `emptied` lost a piece and `filled`
        gained one (square numbers), as a sensor board sees a move."""
        e = sorted(set(emptied))
        f = sorted(set(filled))
        out = []
        for m in self.legal():
            me = list(m.captured)
            mf = []
            if m.frm != m.to:  # a loop capture leaves its own square occupied
                me.append(m.frm)
                mf.append(m.to)
            if sorted(me) == e and mf == f:
                out.append(m)
        return out

    def _path_captures(self, squares):
        # opponent pieces on the legs of a written path; None if a leg is not a diagonal
        r = self.rules
        b = self.board
        opp = self.side ^ 3
        found = []
        for k in range(len(squares) - 1):
            a = r.s2i[squares[k]]
            z = r.s2i[squares[k + 1]]
            leg = None
            for d in r.dirs:
                x = a + d
                on = []
                while b[x] != WALL and x != z:
                    if b[x] & opp:
                        on.append(r.i2s[x])
                    x += d
                if x == z:
                    leg = on
                    break
            if leg is None:
                return None
            for c in leg:
                if c not in found:
                    found.append(c)
        return found

    def fen(self, algebraic=False):
        """PDN FEN of the current position."""
        return self.rules.fen(self.board, self.side, algebraic)

    # -- game end and draws ---------------------------------------------------

    def material(self):
        """(white men, white kings, black men, black kings)."""
        wm = wk = bm = bk = 0
        for p in self.board:
            if p == WHITE:
                wm += 1
            elif p == WHITE | KING:
                wk += 1
            elif p == BLACK:
                bm += 1
            elif p == BLACK | KING:
                bk += 1
        return wm, wk, bm, bk

    def _eg_class(self):
        # FMJD 6.3 / 6.4 apply (63 / 64) when one side has a lone king and the
        # other 3 / at most 2 pieces with at least one king; 0 otherwise
        if self.variant not in ("international", "brazilian"):
            return 0
        wm, wk, bm, bk = self.material()
        for sm, sk, lm, lk in ((wm, wk, bm, bk), (bm, bk, wm, wk)):
            if lm == 0 and lk == 1 and sk >= 1:
                if sm + sk == 3:
                    return 63
                if sm + sk <= 2:
                    return 64
        return 0

    def outcome(self):
        """None while the game goes on, else (winner, reason, article); winner None = draw.

        Draws the rules decide by themselves (FMJD 6.1-6.4, Russian 7.2) are
        reported here; checkers draws are claims (1.32), see claims()."""
        e = self._end()
        return None if e is None else (e[0], e[2], e[3])

    def ending(self):
        """None while the game goes on, else (winner, termination, article) as flagcore.outcome
        describes: winner 0 for the side that moves first (White; Red in checkers), 1 the other."""
        e = self._end()
        if e is None:
            return None
        w = e[0]
        if w is not None:
            w = 0 if w == self.rules.first else 1
        return (w, e[1], e[3])

    def _end(self):
        # (winner colour or None, outcome termination, reason text, article); terminations are
        # flagcore.outcome's NO_LEGAL_MOVE 6, NO_PIECES 7, REPETITION 4, MOVE_LIMIT 5
        v = self.variant
        if not self.legal():
            loser = self.side
            art = "1.29" if v == "checkers" else "FMJD 7.2.2-7.2.3"
            wm, wk, bm, bk = self.material()
            left = wm + wk if loser == WHITE else bm + bk
            if left:
                return (loser ^ 3, 6, "no legal move", art)
            return (loser ^ 3, 7, "no pieces left", art)
        if v == "checkers":
            return None
        if self.repetitions() >= 3:
            return (None, 4, "threefold repetition", "Russian 7.2" if v == "russian" else "FMJD 6.1")
        if v != "russian":
            if self.kings >= 50:
                return (None, 5, "25 moves of kings only", "FMJD 6.2")
            if self.eg_class == 63 and self.eg >= 32:
                return (None, 5, "16 moves each in 3 pieces against a lone king", "FMJD 6.3")
            if self.eg_class == 64 and self.eg >= 10:
                return (None, 5, "5 moves each in 2 pieces against a lone king", "FMJD 6.4")
            return None
        if self.kings >= 30:
            return (None, 5, "15 moves each of kings only", "Russian 7.2")
        wm, wk, bm, bk = self.material()
        if (wm + wk == 1 and wk == 1 and bk >= 3 and bm == 0) or (bm + bk == 1 and bk == 1 and wk >= 3 and wm == 0):
            if self.change >= 30:
                return (None, 5, "15 moves each in 3 kings against a lone king", "Russian 7.2")
        if wk and bk:
            n = wm + wk + bm + bk
            limit = 10 if n <= 3 else 60 if n <= 5 else 120 if n <= 7 else 0
            if limit and self.change >= limit:
                return (None, 5, "%d moves each in a %d-piece ending without capture or crowning"
                        % (limit // 2, n), "Russian 7.2.6")
        return None

    def claims(self):
        """Draws a player may claim now (checkers 1.32): list of (reason, article)."""
        out = []
        if self.variant == "checkers":
            if self.repetitions() >= 3:
                out.append(("threefold repetition", "1.32.1"))
            if self.kings >= 80:
                out.append(("40 moves without a man move or capture", "1.32.2"))
        return out
