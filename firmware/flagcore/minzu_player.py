"""A fast minzu tiaoqi computer player (captures first, then a one-ply look-ahead) and the self-play soak.

Rule 72 of rulebook 003 lets a computer take part through a human operator
who makes its moves on the board; the player therefore hands out one
decision at a time, like a person lifting and setting down pieces.
"""
from flagcore import minzu as mz

_NONE = 255


class Rng:
    """A small xorshift32 generator, identical on CPython and MicroPython."""

    def __init__(self, seed=1):
        self.s = (seed * 2654435761 + 12345) & 0xFFFFFFFF or 1

    def next(self):
        """The next 32-bit value."""
        s = self.s
        s ^= (s << 13) & 0xFFFFFFFF
        s ^= s >> 17
        s ^= (s << 5) & 0xFFFFFFFF
        self.s = s
        return s

    def below(self, n):
        """A value in 0 .. n-1."""
        return self.next() % n


def door_threat(g, side):
    """Most doors `side` could complete with one move now (approximate, for the look-ahead)."""
    b = g.board
    cols = g.cols
    rows = g.rows
    nb = g.nb
    v = side + 1
    flying = g.flying(side)
    slide = g.rules.slide
    best = 0
    for e in range(g.n):
        if b[e]:
            continue
        r = e // cols
        c = e % cols
        k = 0
        blocks = 0   # bit per block (0 up-left, 1 up-right, 2 down-left, 3 down-right)
        if r > 0 and c > 0 and b[e - 1] == v and b[e - cols] == v and b[e - cols - 1] == v:
            k += 1
            blocks |= 1
        if r > 0 and c < cols - 1 and b[e + 1] == v and b[e - cols] == v and b[e - cols + 1] == v:
            k += 1
            blocks |= 2
        if r < rows - 1 and c > 0 and b[e - 1] == v and b[e + cols] == v and b[e + cols - 1] == v:
            k += 1
            blocks |= 4
        if r < rows - 1 and c < cols - 1 and b[e + 1] == v and b[e + cols] == v and b[e + cols + 1] == v:
            k += 1
            blocks |= 8
        if k <= best:
            continue
        # is there a piece of `side` outside these blocks that can reach e?
        if flying:
            if g.on_board[side] > 3 * k:
                best = k
            continue
        for d in range(4):
            j = nb[4 * e + d]
            first = True
            while j != _NONE:
                if b[j] == v:
                    if not first or not _in_blocks(e, j, blocks, cols):
                        best = k
                    break
                if b[j] or not slide:
                    break
                first = False
                j = nb[4 * j + d]
            if best == k:
                break
    return best


def _in_blocks(e, j, blocks, cols):
    # is the neighbour j of e part of one of the blocks (bits) around e?
    if j == e - 1:
        return blocks & 5
    if j == e + 1:
        return blocks & 10
    if j == e - cols:
        return blocks & 3
    return blocks & 12


def jump_threat(g, side):
    """1 if `side` has a jump available now, else 0."""
    b = g.board
    nb = g.nb
    v = side + 1
    w = 2 - side
    for i in range(g.n):
        if b[i] != v:
            continue
        for d in range(4):
            c = nb[4 * i + d]
            if c != _NONE and b[c] == w:
                e = nb[4 * c + d]
                if e != _NONE and b[e] == 0:
                    return 1
    return 0


class Player:
    """Captures first, then the move that leaves the opponent the fewest immediate captures."""

    def __init__(self, seed=1, lookahead=6):
        self.rng = Rng(seed)
        self.plan = []
        self.look = lookahead

    def choose(self, g):
        """The next decision for the side to move in g."""
        if self.plan:
            d = self.plan.pop(0)
            if g.is_legal(d):
                return d
            self.plan = []
        ph = g.phase
        if ph == mz.PLACE:
            if g.pending:
                return self._target(g, mz.K_MARK)
            return self._place(g)
        if ph == mz.CLEAR:
            return g.decisions()[0]
        if ph == mz.REMOVE:
            return self._target(g, mz.K_REMOVE)
        if g.pending:
            return self._target(g, mz.K_CAPTURE)
        self.plan = self._plan_move(g)
        return self.plan.pop(0)

    def _target(self, g, kind):
        # the opponent piece with the most friends in its 2x2 blocks (the likeliest door)
        b = g.board
        cols = g.cols
        rows = g.rows
        w = 2 - g.turn
        best = -1
        pick = -1
        for i in range(g.n):
            if b[i] != w:
                continue
            r = i // cols
            c = i % cols
            s = 0
            for dr in (-1, 0):
                for dc in (-1, 0):
                    r0 = r + dr
                    c0 = c + dc
                    if 0 <= r0 < rows - 1 and 0 <= c0 < cols - 1:
                        j = r0 * cols + c0
                        k = (b[j] == w) + (b[j + 1] == w) + (b[j + cols] == w) + (b[j + cols + 1] == w)
                        s += k * k
            s = s * 4 + self.rng.below(4)
            if s > best:
                best = s
                pick = i
        return kind << 16 | pick << 8

    def _place(self, g):
        b = g.board
        v = g.turn + 1
        w = 2 - g.turn
        best = -1
        pick = 0
        for d in g.decisions():
            i = (d >> 8) & 255
            b[i] = v
            mine = g.squares_at(i, v)
            b[i] = w
            theirs = g.squares_at(i, w)
            b[i] = 0
            s = mine * 100 + theirs * 60 + self._friends(g, i, v) * 3 + self.rng.below(5)
            if s > best:
                best = s
                pick = d
        return pick

    def _friends(self, g, i, v):
        b = g.board
        nb = g.nb
        k = 0
        for d in range(4):
            j = nb[4 * i + d]
            if j != _NONE and b[j] == v:
                k += 1
        return k

    def _chains(self, g, path, me, base, out):
        # every way to play out a jump chain: (gain, decisions)
        for d in g.decisions():
            h = g.copy()
            h.apply(d)
            p = path + [d]
            if h.phase == mz.OVER:
                out.append((1000, p))
            elif h.jump_at >= 0:
                self._chains(h, p, me, base, out)
            else:
                out.append((h.captured[1 - me] - base + h.pending, p))

    def _plan_move(self, g):
        me = g.turn
        opp = 1 - me
        cands = []
        simple = []
        for d in g.decisions():
            if d >> 16 == mz.K_JUMP:
                h = g.copy()
                h.apply(d)
                if h.phase == mz.OVER:
                    cands.append((1000, [d]))
                elif h.jump_at >= 0:
                    self._chains(h, [d], me, g.captured[opp], cands)
                else:
                    cands.append((h.captured[opp] - g.captured[opp] + h.pending, [d]))
            else:
                simple.append(d)
        for d in simple:
            cands.append((g.move_gain((d >> 8) & 255, d & 255), [d]))
        best = -1
        for c in cands:
            if c[0] > best:
                best = c[0]
        top = [c for c in cands if c[0] == best]
        if best >= 1000 or len(top) == 1:
            return top[0][1][:]
        # one-ply look-ahead on a sample: leave the opponent the fewest captures
        n = len(top)
        tries = self.look if self.look < n else n
        pick = None
        pick_score = 0
        for _ in range(tries):
            c = top[self.rng.below(n)]
            h = g.copy()
            for d in c[1]:
                h.apply(d)
            while h.phase == mz.MOVE and h.pending and h.turn == me:
                h.apply(self._target(h, mz.K_CAPTURE))
            if h.phase == mz.OVER:
                return c[1][:]
            score = door_threat(h, opp) * 4 + jump_threat(h, opp) * 3 + self.rng.below(3)
            if pick is None or score < pick_score:
                pick = c
                pick_score = score
        return pick[1][:]


# ---- self-play soak ---------------------------------------------------------

def transition_error(g, phase0, turn0, kind):
    """None if the phase change from phase0 (by a decision of `kind`) is one the rules allow."""
    ph = g.phase
    if ph == phase0:
        if ph == mz.REMOVE and turn0 == mz.LIGHT:
            return "still removing after light's removal"
        return None
    if ph == mz.OVER:
        if g.reason not in (38, 40, 68, 70, 39, 25, 67):
            return "game ended by rule %d" % g.reason
        if g.reason == 40 and g.has_move(g.turn):
            return "rule 40 loss with a legal move"
        if g.reason in (38, 68) and min(g.on_board) >= g.rules.lose_below:
            return "rule %d ending with %d and %d pieces" % (g.reason, g.on_board[0], g.on_board[1])
        return None
    if phase0 == mz.PLACE and ph in (mz.CLEAR, mz.REMOVE):
        if g.on_board[0] + g.on_board[1] != g.n:
            return "placement ended with empty cells"
        if (ph == mz.CLEAR) != bool(g.marked[0] or g.marked[1]):
            return "clear phase without marked pieces (or skipped with some)"
        return None
    if phase0 == mz.CLEAR and ph == mz.REMOVE:
        if g.marked[0] or g.marked[1]:
            return "marked pieces left after clearing"
        return None
    if phase0 == mz.REMOVE and ph == mz.MOVE:
        if turn0 != mz.LIGHT or g.turn != mz.DARK or kind != mz.K_REMOVE:
            return "moving phase began out of order"
        return None
    return "phase %s -> %s not allowed" % (mz.PHASE_NAMES[phase0], mz.PHASE_NAMES[ph])


def play_game(size, seed=1, rules=None, check=True, texts=None, max_plies=200000, kinds=None):
    """Play one self-play game; returns (game, decisions played, list of invariant failures).

    texts, if a list, receives each decision's text; kinds, if a list of ten
    ints, counts the decisions by kind (K_PLACE ... K_STOP).
    """
    g = mz.Game(size, rules)
    p = Player(seed)
    fails = []
    n = 0
    while g.phase != mz.OVER and n < max_plies:
        d = p.choose(g)
        if check and not g.is_legal(d):
            fails.append("ply %d: player chose illegal %s" % (n, g.text(d)))
            break
        if texts is not None:
            texts.append(g.text(d))
        if kinds is not None:
            kinds[d >> 16] += 1
        ph = g.phase
        tn = g.turn
        g.apply(d)
        n += 1
        if check:
            err = g.invariants() or transition_error(g, ph, tn, d >> 16)
            if err:
                fails.append("ply %d (%s): %s" % (n, g.text(d), err))
                break
    if g.phase != mz.OVER:
        fails.append("no result after %d decisions" % n)
    return g, n, fails
