"""Minzu tiaoqi (rulebook 003): placement, squares, jumps and flying, decision by decision.

A turn is a sequence of *decisions*, each a small int (kind << 16 | a << 8 | b):
place a piece, mark an opponent piece, remove a piece, step, slide, fly,
jump one segment, stop a jump chain, capture a piece of the mover's choice.
`Game.decisions()` lists the legal next decisions at every point, so a
sensor board can be followed one lift at a time; whole turns are just the
decisions played in a row.

Cells are ints r * cols + c; row letters A.. from the top, column digits
0.. from the left, "A0" is the top-left cell [2]. Sides: LIGHT (0) places
first [6], DARK (1) moves first [14]. Rule numbers in brackets cite 003.
"""
from flagcore._compat import const

LIGHT = const(0)
DARK = const(1)
SIDE_NAMES = ("light", "dark")

# phases
PLACE = const(0)   # placement [6-11]
CLEAR = const(1)   # marked pieces leave the board [12]
REMOVE = const(2)  # dark takes one light piece, then light one dark [13, 14]
MOVE = const(3)    # moving and flying [15-37]
OVER = const(4)

# flagcore.outcome termination of each rule that ends a game (others: ARBITER 13)
_TERMINATION = {38: 7, 40: 6, 68: 8, 39: 9, 67: 11, 70: 13, 25: 13}
PHASE_NAMES = ("place", "clear", "remove", "move", "over")

# decision kinds
K_PLACE = const(1)
K_MARK = const(2)
K_REMOVE = const(3)
K_CAPTURE = const(4)
K_STEP = const(5)
K_SLIDE = const(6)
K_FLY = const(7)
K_JUMP = const(8)
K_STOP = const(9)
KIND_NAMES = ("", "place", "mark", "remove", "capture", "step", "slide", "fly", "jump", "stop")
STOP = K_STOP << 16

_NONE = const(255)
_MARK = const(4)

SIZES = ("6", "7", "8", "9", "14", "7x8")


class IllegalDecision(ValueError):
    """A decision that is not legal in the present position."""


class Ruleset:
    """The options of rulebook 003, with the rule each one comes from (see seeds/minzu_rules.json)."""

    RULES = {
        "slide": 19, "compulsory": 20, "flying": 34, "fly_at": 30,
        "multi_jump_when_flying": 35, "single_jump_at": 36,
        "max_squares_placing": 11, "max_squares_moving": 22,
        "per_square": 22, "per_qiang": 26, "lose_below": 68,
        "violations_to_lose": 67, "quiet_draw": 70,
    }

    def __init__(self, **options):
        self.slide = True              # [19] slides on; off gives Tibetan jiu
        self.compulsory = False        # [20] capture when able, and continue a chain
        self.flying = True             # [34] a match may cancel flying
        self.fly_at = 0                # [30] 0: the board's side length (7x8: 7)
        self.multi_jump_when_flying = True  # [35]
        self.single_jump_at = 3        # [36] with this many pieces or fewer single jumps are allowed
        self.max_squares_placing = 4   # [11]
        self.max_squares_moving = 2    # [22]
        self.per_square = 1            # [22] one piece per door
        self.per_qiang = 2             # [26] two pieces per full line
        self.lose_below = 3            # [68] fewer than three pieces loses
        self.violations_to_lose = 3    # [67]
        self.quiet_draw = 0            # [70] arbiter draw after this many turns without capture; 0: never
        for k in options:
            if k not in self.RULES:
                raise ValueError("unknown minzu option %r" % k)
            setattr(self, k, options[k])

    def as_dict(self):
        """The options as a plain dict."""
        d = {}
        for k in self.RULES:
            d[k] = getattr(self, k)
        return d

    @classmethod
    def from_seed(cls, data):
        """A ruleset from the parsed seeds/minzu_rules.json (its "options" values)."""
        opts = {}
        for k, v in data["options"].items():
            opts[k] = v["value"]
        return cls(**opts)


DEFAULT = Ruleset()


def parse_size(size):
    """(rows, cols) from 6, 7, 8, 9, 14, '9', '7x8' or a (rows, cols) pair."""
    if isinstance(size, tuple):
        return size
    s = str(size).strip().lower()
    if s == "7x8":
        return (8, 7)   # 7 cells wide, 8 high: rows A-H, columns 0-6 (docs/minzu.md)
    if s not in SIZES:
        raise ValueError("unknown board size %r (choose from 6, 7, 8, 9, 14, 7x8)" % (size,))
    n = int(s)
    return (n, n)


def size_text(rows, cols):
    """The size name of a board: '9' or '7x8'."""
    if rows == cols:
        return str(rows)
    return "%dx%d" % (cols, rows)


_GEOM = {}


def _geometry(rows, cols):
    key = rows * 256 + cols
    g = _GEOM.get(key)
    if g is None:
        n = rows * cols
        nb = bytearray(4 * n)
        for i in range(n):
            r = i // cols
            c = i % cols
            nb[4 * i] = i - cols if r > 0 else _NONE
            nb[4 * i + 1] = i + 1 if c < cols - 1 else _NONE
            nb[4 * i + 2] = i + cols if r < rows - 1 else _NONE
            nb[4 * i + 3] = i - 1 if c > 0 else _NONE
        g = nb
        _GEOM[key] = g
    return g


def cell_name(cols, i):
    """'E4' for cell i on a board `cols` wide."""
    return chr(65 + i // cols) + str(i % cols)


def parse_cell(rows, cols, text):
    """Cell index from 'E4' (case-insensitive); ValueError if malformed or off the board."""
    t = text.strip().upper()
    if len(t) < 2 or not ("A" <= t[0] <= "Z") or not t[1:].isdigit():
        raise ValueError("malformed cell %r (expected a row letter and a column number, e.g. E4)" % text)
    r = ord(t[0]) - 65
    c = int(t[1:])
    if r >= rows or c >= cols:
        raise ValueError("cell %r is off the %s board" % (text, size_text(rows, cols)))
    return r * cols + c


def kind(d):
    """The kind of a decision (K_PLACE ... K_STOP)."""
    return d >> 16


def src(d):
    """The first cell of a decision."""
    return (d >> 8) & 255


def dst(d):
    """The second cell of a decision (target of a move or jump)."""
    return d & 255


def over(d):
    """The cell of the piece a jump decision captures (between its two cells)."""
    return (((d >> 8) & 255) + (d & 255)) >> 1


class Game:
    """A game of minzu tiaoqi on one board, driven decision by decision."""

    def __init__(self, size=9, rules=None):
        self.rows, self.cols = parse_size(size)
        if self.rows * self.cols > 256:
            raise ValueError("board too large")
        self.n = self.rows * self.cols
        self.nb = _geometry(self.rows, self.cols)
        self.rules = rules if rules is not None else DEFAULT
        self.fly_at = self.rules.fly_at or min(self.rows, self.cols)
        self.board = bytearray(self.n)
        self.total = [(self.n + 1) // 2, self.n // 2]   # [3] odd boards: the first player has one more
        self.in_hand = [self.total[0], self.total[1]]
        self.on_board = [0, 0]
        self.marked = [0, 0]
        self.captured = [0, 0]
        self.turn = LIGHT
        self.phase = PLACE
        self.pending = 0       # marks or captures the side to move still has to choose
        self.jump_at = -1      # cell of the piece in an unfinished jump chain
        self.jumped = 0        # pieces captured so far in that chain
        self.turns = 0         # completed turns
        self.plies = 0         # decisions played
        self.quiet = 0         # moving-phase turns in a row without a capture
        self.took = 0          # pieces captured in the turn under way
        self.winner = -1       # -1: none (draw when the game is over)
        self.result = None     # '1-0' light wins, '0-1' dark wins, '1/2-1/2'
        self.reason = 0        # rule number that ended the game
        self.warnings = [0, 0]

    # ---- geometry ------------------------------------------------------

    def size_text(self):
        """'9' or '7x8'."""
        return size_text(self.rows, self.cols)

    def cell(self, text):
        """Cell index from its name."""
        return parse_cell(self.rows, self.cols, text)

    def name(self, i):
        """Name of cell i."""
        return cell_name(self.cols, i)

    def is_light_cell(self, i):
        """Cell colour [1]: even boards have a light bottom-right cell, odd boards dark bottom corners."""
        s = i // self.cols + i % self.cols
        if self.n % 2:
            return s % 2 == 1
        return s % 2 == (self.rows + self.cols) % 2

    def centre(self):
        """The cells the first placements must use [8]."""
        rows = self.rows
        cols = self.cols
        if rows % 2 and cols % 2:
            return [(rows // 2) * cols + cols // 2]
        if rows % 2 == 0 and cols % 2 == 0:
            out = []
            for r in (rows // 2 - 1, rows // 2):
                for c in (cols // 2 - 1, cols // 2):
                    i = r * cols + c
                    if not self.is_light_cell(i):
                        out.append(i)
            return out
        if rows % 2 == 0:
            c = cols // 2
            return [(rows // 2 - 1) * cols + c, (rows // 2) * cols + c]
        r = rows // 2
        return [r * cols + cols // 2 - 1, r * cols + cols // 2]

    # ---- counts --------------------------------------------------------

    def squares_at(self, i, v):
        """Complete 2x2 blocks of value v containing cell i (which must hold v)."""
        b = self.board
        cols = self.cols
        r = i // cols
        c = i % cols
        up = r > 0
        down = r < self.rows - 1
        left = c > 0
        right = c < cols - 1
        k = 0
        if up and left and b[i - 1] == v and b[i - cols] == v and b[i - cols - 1] == v:
            k += 1
        if up and right and b[i + 1] == v and b[i - cols] == v and b[i - cols + 1] == v:
            k += 1
        if down and left and b[i - 1] == v and b[i + cols] == v and b[i + cols - 1] == v:
            k += 1
        if down and right and b[i + 1] == v and b[i + cols] == v and b[i + cols + 1] == v:
            k += 1
        return k

    def qiangs_at(self, i, v):
        """Full rows and columns of value v through cell i [26] (0, 1 or 2)."""
        b = self.board
        cols = self.cols
        r = i // cols
        c = i % cols
        k = 1
        for j in range(r * cols, r * cols + cols):
            if b[j] != v:
                k = 0
                break
        k2 = 1
        for j in range(c, self.n, cols):
            if b[j] != v:
                k2 = 0
                break
        return k + k2

    def gain_at(self, i, v):
        """Pieces a move ending on cell i (holding v) captures by doors and qiang [22, 26, 27]."""
        rules = self.rules
        sq = self.squares_at(i, v)
        if sq > rules.max_squares_moving:
            sq = rules.max_squares_moving
        return sq * rules.per_square + self.qiangs_at(i, v) * rules.per_qiang

    def move_gain(self, a, t):
        """Capture count of moving the piece on a to the empty cell t, without playing it."""
        b = self.board
        v = b[a]
        b[a] = 0
        b[t] = v
        g = self.gain_at(t, v)
        b[t] = 0
        b[a] = v
        return g

    def flying(self, side):
        """True when `side` is in the flying phase: at most side-length pieces [30, 37]."""
        return self.rules.flying and self.phase == MOVE and self.on_board[side] <= self.fly_at

    def _restricted(self, side):
        # [35] flying jumps must take two or more; [36] not with three pieces or fewer
        return (self.rules.multi_jump_when_flying and self.flying(side)
                and self.on_board[side] > self.rules.single_jump_at)

    # ---- decisions -----------------------------------------------------

    def decisions(self):
        """The legal next decisions (ints), in board order."""
        out = []
        ph = self.phase
        if ph == OVER:
            return out
        b = self.board
        me = self.turn
        theirs = 2 - me
        if ph == PLACE:
            if self.pending:
                for i in range(self.n):
                    if b[i] == theirs:
                        out.append(K_MARK << 16 | i << 8)
                return out
            placed = self.on_board[0] + self.on_board[1]
            ctr = self.centre()
            if placed == 0 or (placed == 1 and len(ctr) == 2):
                for i in ctr:
                    if b[i] == 0:
                        out.append(K_PLACE << 16 | i << 8)
                return out
            for i in range(self.n):
                if b[i] == 0:
                    out.append(K_PLACE << 16 | i << 8)
            return out
        if ph == CLEAR:
            for i in range(self.n):
                if b[i] & _MARK:
                    out.append(K_REMOVE << 16 | i << 8)
            return out
        if ph == REMOVE:
            for i in range(self.n):
                if b[i] == theirs:
                    out.append(K_REMOVE << 16 | i << 8)
            return out
        if self.pending:
            for i in range(self.n):
                if b[i] == theirs:
                    out.append(K_CAPTURE << 16 | i << 8)
            return out
        if self.jump_at >= 0:
            self._jumps_from(self.jump_at, out, False)
            if self._may_stop(len(out)):
                out.append(STOP)
            return out
        mine = me + 1
        restricted = self._restricted(me)
        for i in range(self.n):
            if b[i] == mine:
                self._jumps_from(i, out, restricted)
        if out and self.rules.compulsory:
            return out
        nb = self.nb
        if self.flying(me):
            for i in range(self.n):
                if b[i] == mine:
                    for j in range(self.n):
                        if b[j] == 0:
                            out.append(K_FLY << 16 | i << 8 | j)
            return out
        slide = self.rules.slide
        for i in range(self.n):
            if b[i] == mine:
                for d in range(4):
                    j = nb[4 * i + d]
                    if j != _NONE and b[j] == 0:
                        out.append(K_STEP << 16 | i << 8 | j)   # [18]
                        if slide:
                            j = nb[4 * j + d]
                            while j != _NONE and b[j] == 0:
                                out.append(K_SLIDE << 16 | i << 8 | j)   # [19]
                                j = nb[4 * j + d]
        return out

    def _jumps_from(self, i, out, need_two):
        # [16, 17] over one orthogonally adjacent opponent piece into the empty cell beyond
        b = self.board
        nb = self.nb
        theirs = 2 - self.turn
        for d in range(4):
            c = nb[4 * i + d]
            if c == _NONE or b[c] != theirs:
                continue
            e = nb[4 * c + d]
            if e == _NONE or b[e] != 0:
                continue
            if need_two and not self._continues(i, c, e):
                continue
            out.append(K_JUMP << 16 | i << 8 | e)

    def _continues(self, i, c, e):
        # would the piece on i, having jumped c and landed on e, have a further jump?
        b = self.board
        nb = self.nb
        v = b[i]
        cv = b[c]
        theirs = 2 - self.turn
        b[i] = 0
        b[c] = 0
        b[e] = v
        ok = False
        for d in range(4):
            c2 = nb[4 * e + d]
            if c2 != _NONE and b[c2] == theirs:
                e2 = nb[4 * c2 + d]
                if e2 != _NONE and b[e2] == 0:
                    ok = True
                    break
        b[e] = 0
        b[c] = cv
        b[i] = v
        return ok

    def _may_stop(self, more):
        if not more:
            return False   # the chain is over by itself
        if self.rules.compulsory:
            return False   # [20] option: a started chain must go on
        if self.jumped < 2 and self._restricted(self.turn):
            return False   # [35]
        return True

    def has_move(self, side):
        """True if `side` could move now in the moving phase [40]."""
        if self.on_board[side] == 0:
            return False
        b = self.board
        if self.flying(side):
            return self.on_board[0] + self.on_board[1] < self.n
        nb = self.nb
        mine = side + 1
        theirs = 2 - side
        for i in range(self.n):
            if b[i] != mine:
                continue
            for d in range(4):
                j = nb[4 * i + d]
                if j == _NONE:
                    continue
                if b[j] == 0:
                    return True
                if b[j] == theirs:
                    e = nb[4 * j + d]
                    if e != _NONE and b[e] == 0:
                        return True
        return False

    def is_legal(self, d):
        """True if decision d may be played now."""
        return d in self.decisions()

    def play(self, d):
        """Play decision d (an int or its text) after checking that it is legal."""
        if isinstance(d, str):
            d = self.decision(d)
        elif d not in self.decisions():
            raise IllegalDecision("illegal decision %s" % self.text(d))
        self.apply(d)
        return d

    def apply(self, d):
        """Play a decision known to be legal (no check)."""
        k = d >> 16
        a = (d >> 8) & 255
        t = d & 255
        b = self.board
        me = self.turn
        opp = 1 - me
        self.plies += 1
        if k == K_PLACE:
            b[a] = me + 1
            self.on_board[me] += 1
            self.in_hand[me] -= 1
            sq = self.squares_at(a, me + 1)   # [9, 11]
            if sq > self.rules.max_squares_placing:
                sq = self.rules.max_squares_placing
            avail = self.on_board[opp] - self.marked[opp]
            self.pending = sq if sq < avail else avail
            if not self.pending:
                self._end_placement_turn()
        elif k == K_MARK:
            b[a] |= _MARK
            self.marked[opp] += 1
            self.pending -= 1
            if not self.pending:
                self._end_placement_turn()
        elif k == K_REMOVE:
            s = (b[a] & 3) - 1
            b[a] = 0
            self.on_board[s] -= 1
            self.captured[s] += 1
            if self.phase == CLEAR:
                self.marked[s] -= 1
                if not (self.marked[0] or self.marked[1]):
                    self.phase = REMOVE
                    self.turn = DARK   # [14]
                    self._check_counts()
            elif me == DARK:
                self.turn = LIGHT      # [13]
                self._check_counts()
            else:
                self.phase = MOVE
                self.turn = DARK       # [14] dark moves first
                if not self._check_counts() and not self.has_move(DARK):
                    self._finish(LIGHT, 40)
        elif k == K_CAPTURE:
            self._take(a)
            if self.phase != OVER:
                self.pending -= 1
                if not self.pending:
                    self._end_turn()
        elif k == K_JUMP:
            v = b[a]
            b[a] = 0
            b[t] = v
            self.jumped += 1
            self._take(over(d))
            if self.phase == OVER:
                return
            out = []
            self._jumps_from(t, out, False)
            if out:
                self.jump_at = t
            else:
                self._finish_move(t)
        elif k == K_STOP:
            self._finish_move(self.jump_at)
        else:   # step, slide, fly
            v = b[a]
            b[a] = 0
            b[t] = v
            self._finish_move(t)

    def _take(self, i):
        s = (self.board[i] & 3) - 1
        self.board[i] = 0
        self.on_board[s] -= 1
        self.captured[s] += 1
        self.took += 1
        if self.on_board[s] < self.rules.lose_below:
            self._finish(1 - s, 38 if self.on_board[s] == 0 else 68)

    def _finish_move(self, t):
        # [21, 27] after the move: doors and qiang of the moved piece, counts added
        self.jump_at = -1
        self.jumped = 0
        g = self.gain_at(t, self.turn + 1)
        left = self.on_board[1 - self.turn]
        self.pending = g if g < left else left
        if not self.pending:
            self._end_turn()

    def _end_turn(self):
        self.turns += 1
        if self.took:
            self.quiet = 0
        else:
            self.quiet += 1
        self.took = 0
        self.turn = 1 - self.turn
        if not self.has_move(self.turn):
            self._finish(1 - self.turn, 40)
        elif self.rules.quiet_draw and self.quiet >= self.rules.quiet_draw:
            self._finish(-1, 70)

    def _end_placement_turn(self):
        self.turns += 1
        if self.in_hand[0] or self.in_hand[1]:
            self.turn = 1 - self.turn
            return
        # [10] the board is full (marked pieces included): placement ends
        if self.marked[0] or self.marked[1]:
            self.phase = CLEAR     # [12]
        else:
            self.phase = REMOVE    # [13]
        self.turn = DARK           # [14]

    def _check_counts(self):
        lose = self.rules.lose_below
        l0 = self.on_board[0] < lose
        l1 = self.on_board[1] < lose
        if l0 and l1:
            self._finish(-1, 68)
        elif l0 or l1:
            s = 0 if l0 else 1
            self._finish(1 - s, 38 if self.on_board[s] == 0 else 68)
        return self.phase == OVER

    def ending(self):
        """None while the game goes on, else (winner, termination, article) as flagcore.outcome
        describes: winner 0 Light, 1 Dark, None a draw; the article is the rule ('rule 68')."""
        if self.phase != OVER:
            return None
        return (None if self.winner < 0 else self.winner, _TERMINATION.get(self.reason, 13),
                "rule %d" % self.reason)

    def _finish(self, winner, rule):
        self.phase = OVER
        self.pending = 0
        self.jump_at = -1
        self.winner = winner
        self.reason = rule
        self.result = ("1-0", "0-1", "1/2-1/2")[winner if winner >= 0 else 2]

    # ---- outside the board: resignation, arbiter, conduct ----------------

    def resign(self, side):
        """`side` resigns [39]."""
        if self.phase == OVER:
            raise IllegalDecision("the game is over")
        self._finish(1 - side, 39)

    def arbiter_win(self, side, rule=25):
        """The arbiter awards the game to `side` (e.g. a double daliang [25, 39])."""
        if self.phase == OVER:
            raise IllegalDecision("the game is over")
        self._finish(side, rule)

    def arbiter_draw(self):
        """The arbiter declares a draw on request [70]."""
        if self.phase == OVER:
            raise IllegalDecision("the game is over")
        self._finish(-1, 70)

    def violation(self, side, rule=62):
        """Record a violation (a warning [62-64]); the third in one game loses [67]. Returns the count."""
        self.warnings[side] += 1
        if self.warnings[side] >= self.rules.violations_to_lose and self.phase != OVER:
            self._finish(1 - side, 67)
        return self.warnings[side]

    # ---- daliang [23-25, 39] --------------------------------------------

    def daliangs(self, side, slides=False):
        """(a, b) pairs where the piece on a can shuttle to the empty b and back, forming a door each time [23]; with slides=True, chariots [24]."""
        b = self.board
        nb = self.nb
        v = side + 1
        out = []
        for a in range(self.n):
            if b[a] != v or not self.squares_at(a, v):
                continue
            for d in range(4):
                j = nb[4 * a + d]
                while j != _NONE and b[j] == 0:
                    b[a] = 0
                    b[j] = v
                    ok = self.squares_at(j, v) > 0
                    b[j] = 0
                    b[a] = v
                    if ok:
                        out.append((a, j))
                    if not slides:
                        break
                    j = nb[4 * j + d]
        return out

    def has_door(self, side):
        """True if `side` has a complete 2x2 door anywhere [22]."""
        v = side + 1
        b = self.board
        cols = self.cols
        for r in range(self.rows - 1):
            for c in range(cols - 1):
                i = r * cols + c
                if b[i] == v and b[i + 1] == v and b[i + cols] == v and b[i + cols + 1] == v:
                    return True
        return False

    def double_daliang(self, side):
        """True if `side` has two independent daliang (no cell shared) and the opponent has no door [25, 39]."""
        ds = self.daliangs(side)
        if len(ds) < 2 or self.has_door(1 - side):
            return False
        cols = self.cols
        for x in range(len(ds)):
            a1, b1 = ds[x]
            blk1 = _block_cells(a1, b1, cols)
            for y in range(x + 1, len(ds)):
                a2, b2 = ds[y]
                if a2 in blk1 or b2 in blk1:
                    continue
                blk2 = _block_cells(a2, b2, cols)
                shared = False
                for q in blk1:
                    if q in blk2:
                        shared = True
                        break
                if not shared:
                    return True
        return False

    # ---- text --------------------------------------------------------------

    def text(self, d):
        """Text of a decision: E4 place, *E4 mark, xE4 remove/capture, E4-E6 step/slide/fly, E4:E6 jump, stop."""
        k = d >> 16
        if k == K_STOP:
            return "stop"
        a = cell_name(self.cols, (d >> 8) & 255)
        if k == K_PLACE:
            return a
        if k == K_MARK:
            return "*" + a
        if k == K_REMOVE or k == K_CAPTURE:
            return "x" + a
        t = cell_name(self.cols, d & 255)
        if k == K_JUMP:
            return a + ":" + t
        return a + "-" + t

    def parse(self, text):
        """A decision's int from its text (syntax only; ValueError if malformed)."""
        t = text.strip()
        if t.lower() == "stop":
            return STOP
        if not t:
            raise ValueError("empty decision")
        ch = t[0]
        if ch == "*":
            return K_MARK << 16 | self.cell(t[1:]) << 8
        if ch == "x" or ch == "X":
            k = K_CAPTURE if self.phase == MOVE else K_REMOVE
            return k << 16 | self.cell(t[1:]) << 8
        for sep in "-:":
            p = t.find(sep)
            if p > 0:
                a = self.cell(t[:p])
                b = self.cell(t[p + 1:])
                if sep == ":":
                    return K_JUMP << 16 | a << 8 | b
                if self.flying(self.turn):
                    return K_FLY << 16 | a << 8 | b
                k = K_STEP if self._adjacent(a, b) else K_SLIDE
                return k << 16 | a << 8 | b
        return K_PLACE << 16 | self.cell(t) << 8

    def _adjacent(self, a, b):
        nb = self.nb
        for d in range(4):
            if nb[4 * a + d] == b:
                return True
        return False

    def decision(self, text):
        """The legal decision written as `text`; ValueError if malformed, IllegalDecision if not legal."""
        d = self.parse(text)
        if d not in self.decisions():
            if self.phase == OVER:
                raise IllegalDecision("%s: the game is over (%s)" % (text, self.result))
            raise IllegalDecision("illegal decision %r in the %s phase" % (text, PHASE_NAMES[self.phase]))
        return d

    def to_text(self):
        """The position as text: rows turn phase pending jump [result rule] (docs/minzu.md)."""
        b = self.board
        rows = []
        for r in range(self.rows):
            s = ""
            run = 0
            for c in range(self.cols):
                v = b[r * self.cols + c]
                if v == 0:
                    run += 1
                    continue
                if run:
                    s += str(run)
                    run = 0
                s += ".LD..ld."[v]
            if run:
                s += str(run)
            rows.append(s)
        jump = "-"
        if self.jump_at >= 0:
            jump = "%s/%d" % (self.name(self.jump_at), self.jumped)
        out = "%s %s %s %d %s" % ("/".join(rows), "LD"[self.turn], PHASE_NAMES[self.phase], self.pending, jump)
        if self.phase == OVER:
            out += " %s %d" % (self.result, self.reason)
        return out

    def copy(self):
        """An independent copy of the game state."""
        g = Game((self.rows, self.cols), self.rules)
        g.board[:] = self.board
        g.in_hand = self.in_hand[:]
        g.on_board = self.on_board[:]
        g.marked = self.marked[:]
        g.captured = self.captured[:]
        g.warnings = self.warnings[:]
        for k in ("turn", "phase", "pending", "jump_at", "jumped", "turns", "plies",
                  "quiet", "took", "winner", "result", "reason"):
            setattr(g, k, getattr(self, k))
        return g

    def invariants(self):
        """None if the state is consistent, else a description of what is wrong."""
        cnt = [0, 0]
        mk = [0, 0]
        b = self.board
        for i in range(self.n):
            v = b[i]
            if v:
                s = (v & 3) - 1
                if s not in (0, 1) or v & ~7:
                    return "bad cell value %d at %s" % (v, self.name(i))
                cnt[s] += 1
                if v & _MARK:
                    mk[s] += 1
        for s in (0, 1):
            if cnt[s] != self.on_board[s] or mk[s] != self.marked[s]:
                return "%s count %d/%d marked on board, recorded %d/%d" % (
                    SIDE_NAMES[s], cnt[s], mk[s], self.on_board[s], self.marked[s])
            if self.on_board[s] + self.captured[s] + self.in_hand[s] != self.total[s]:
                return "%s: %d on board + %d captured + %d in hand != %d" % (
                    SIDE_NAMES[s], self.on_board[s], self.captured[s], self.in_hand[s], self.total[s])
            if self.in_hand[s] < 0:
                return "%s has negative pieces in hand" % SIDE_NAMES[s]
        ph = self.phase
        if ph != PLACE and ph != OVER and (self.in_hand[0] or self.in_hand[1]):
            return "pieces in hand after placement"
        if ph == PLACE and (self.captured[0] or self.captured[1]):
            return "captures during placement"
        if (mk[0] or mk[1]) and ph not in (PLACE, CLEAR, OVER):
            return "marked pieces in the %s phase" % PHASE_NAMES[ph]
        if ph == CLEAR and not (mk[0] or mk[1]):
            return "clear phase without marked pieces"
        if ph == OVER:
            if self.result is None:
                return "game over without a result"
            return None
        if self.result is not None:
            return "result set while the game goes on"
        if not self.decisions():
            return "no legal decision for %s in the %s phase" % (SIDE_NAMES[self.turn], PHASE_NAMES[ph])
        if ph == MOVE:
            for s in (0, 1):
                if self.on_board[s] < self.rules.lose_below:
                    return "%s has %d pieces but the game goes on" % (SIDE_NAMES[s], self.on_board[s])
        return None


def _block_cells(a, b, cols):
    # the cells of the doors a daliang uses: the 3x3 area around a and b
    out = []
    for i in (a, b):
        for dr in (-cols, 0, cols):
            for dc in (-1, 0, 1):
                out.append(i + dr + dc)
    return out


def from_text(text, rules=None):
    """A Game from position text (see Game.to_text); ValueError naming the problem if malformed."""
    parts = text.split()
    if len(parts) not in (5, 7):
        raise ValueError("position needs 5 fields (rows turn phase pending jump), or 7 when over; got %d" % len(parts))
    rowtexts = parts[0].split("/")
    grid = []
    for rt in rowtexts:
        row = []
        num = ""
        for ch in rt:
            if "0" <= ch <= "9":
                num += ch
                continue
            if num:
                row.extend([0] * int(num))
                num = ""
            if ch == ".":
                v = 0
            elif ch in "LD":
                v = 1 if ch == "L" else 2
            elif ch in "ld":
                v = 5 if ch == "l" else 6
            else:
                raise ValueError("bad character %r in row %s of the position (use L D l d . or digits)" % (ch, chr(65 + len(grid))))
            row.append(v)
        if num:
            row.extend([0] * int(num))
        grid.append(row)
    rows = len(grid)
    cols = len(grid[0])
    for r in range(rows):
        if len(grid[r]) != cols:
            raise ValueError("row %s has %d cells, row A has %d" % (chr(65 + r), len(grid[r]), cols))
    size = None
    for s in SIZES:
        if parse_size(s) == (rows, cols):
            size = s
    if size is None:
        raise ValueError("a %d-row, %d-column board is not a minzu board (6, 7, 8, 9, 14 or 7x8)" % (rows, cols))
    g = Game(size, rules)
    for r in range(rows):
        for c in range(cols):
            v = grid[r][c]
            i = r * cols + c
            g.board[i] = v
            if v:
                s = (v & 3) - 1
                g.on_board[s] += 1
                if v & _MARK:
                    g.marked[s] += 1
    if parts[1] not in ("L", "D"):
        raise ValueError("turn must be L or D, not %r" % parts[1])
    g.turn = 0 if parts[1] == "L" else 1
    if parts[2] not in PHASE_NAMES:
        raise ValueError("phase must be one of %s, not %r" % (", ".join(PHASE_NAMES), parts[2]))
    g.phase = PHASE_NAMES.index(parts[2])
    if not parts[3].isdigit():
        raise ValueError("pending count must be a number, not %r" % parts[3])
    g.pending = int(parts[3])
    for s in (0, 1):
        if g.on_board[s] > g.total[s]:
            raise ValueError("%s has %d pieces on the board, more than its %d" % (SIDE_NAMES[s], g.on_board[s], g.total[s]))
    if g.phase == PLACE:
        for s in (0, 1):
            g.in_hand[s] = g.total[s] - g.on_board[s]
        placed = g.on_board[0] + g.on_board[1]
        if g.on_board[0] - g.on_board[1] not in (0, 1):
            raise ValueError("placement: light must have placed as many pieces as dark or one more")
        # light places on even counts; a placer still marking has just placed
        want = LIGHT if (placed % 2 == (1 if g.pending else 0)) else DARK
        if g.turn != want:
            raise ValueError("placement: it is %s's turn after %d placements" % (SIDE_NAMES[want], placed))
        if g.pending > g.rules.max_squares_placing:
            raise ValueError("at most %d marks pending" % g.rules.max_squares_placing)
    else:
        g.in_hand = [0, 0]
        if g.phase not in (CLEAR, OVER) and (g.marked[0] or g.marked[1]):
            raise ValueError("marked pieces (l, d) only in the place and clear phases")
        if g.phase == CLEAR and not (g.marked[0] or g.marked[1]):
            raise ValueError("clear phase needs marked pieces")
    for s in (0, 1):
        g.captured[s] = g.total[s] - g.on_board[s] - g.in_hand[s]
    if parts[4] != "-":
        if g.phase != MOVE:
            raise ValueError("a jump chain is only possible in the move phase")
        p = parts[4].find("/")
        if p < 0 or not parts[4][p + 1:].isdigit():
            raise ValueError("jump field must be - or CELL/N (e.g. E4/1), not %r" % parts[4])
        g.jump_at = g.cell(parts[4][:p])
        g.jumped = int(parts[4][p + 1:])
        if g.board[g.jump_at] != g.turn + 1:
            raise ValueError("the jumping piece on %s is not %s's" % (parts[4][:p], SIDE_NAMES[g.turn]))
    if g.phase == OVER:
        if len(parts) != 7 or parts[5] not in ("1-0", "0-1", "1/2-1/2") or not parts[6].isdigit():
            raise ValueError("a finished game needs result (1-0, 0-1, 1/2-1/2) and rule number fields")
        g.result = parts[5]
        g.winner = ("1-0", "0-1").index(parts[5]) if parts[5] != "1/2-1/2" else -1
        g.reason = int(parts[6])
    elif len(parts) == 7:
        raise ValueError("result fields are only allowed in the over phase")
    return g


def start_text(size):
    """The empty-board start position of a size."""
    return Game(size).to_text()
