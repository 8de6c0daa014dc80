"""Minzu tiaoqi on the bridge: whole turns rebuilt from occupancy, guided by what the board shows.

The rules engine (flagcore.minzu) is decision by decision. A turn is the
decisions from the start of a player's turn until the turn passes: a
placement with its marks, the clearing of every marked piece, an opening
removal, or a move (step, slide, fly or jump chain) with the opponent pieces
it captures by choice. The number of possible turns explodes with the capture
choices (any one of 40 pieces, any two ...), so the turns are not listed in
advance: candidates_for(emptied, filled, tracker) walks the decision tree
following only decisions the board can show:

    place C3             C3 was filled
    mark *D4             the gesture: the opponent piece on D4 lifted and put
                         back *after* the placement (touch evidence)
    remove / capture xE4 E4 was emptied
    step, slide, fly     origin emptied, landing filled
    jump chain           origin emptied, every jumped piece emptied, the last
                         landing filled (the hops in between need not be seen)

and keeps the turns whose whole occupancy change is exactly the board's.
Squares are cells r * cols + c (A0 = 0, row letters from the top).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from flagcore import minzu as mz

from flagfall.occupancy import Candidate, Touch
from flagfall.games.protocol import AdapterBase, Outcome, Physical, Prefs, Square, Travel

if TYPE_CHECKING:
    from flagfall.occupancy import Tracker
    from flagfall.games.protocol import GameAdapter
    from flagfall.games.registry import GameSpec

Turn = tuple[int, ...]
"""A move here: the decisions of one turn (flagcore.minzu decision ints)."""


class MinzuAdapter(AdapterBase):
    """Minzu tiaoqi through flagcore.minzu (lazy candidates, see the module docstring)."""

    variant = "minzu"
    lazy = True

    def __init__(self, spec: GameSpec, size: str = "9", fen: Optional[str] = None,
                 rules: Optional[mz.Ruleset] = None) -> None:
        self.spec = spec
        if fen:
            self.g = mz.from_text(fen, rules)
        else:
            self.g = mz.Game(size, rules)
        self.start_fen = fen
        self.size = self.g.size_text()
        self.rows = self.g.rows
        self.cols = self.g.cols
        self.nsquares = self.g.n
        self.stack: list[tuple[mz.Game, list[str]]] = []          # (game copy before, decision texts of the turn)
        self.texts: list[str] = []          # decision texts of the whole game, for the record

    def start_key(self) -> str:
        """Text naming the start position."""
        return self.start_fen or ("minzu %s" % self.size)

    def all_squares(self) -> range:
        """Every cell."""
        return range(self.g.n)

    def side(self) -> int:
        """0 light, 1 dark."""
        return self.g.turn

    def occupancy(self) -> frozenset[Square]:
        """Occupied cells (marked pieces are still on the board)."""
        b = self.g.board
        return frozenset(i for i in range(self.g.n) if b[i])

    def candidates(self) -> list[Candidate]:
        """Not listed in advance (see candidates_for)."""
        return []

    def _turn_over(self, g: mz.Game, me: int, phase: int) -> bool:
        # the clearing of the marked pieces and dark's opening removal are one turn: the same
        # player takes pieces off, with one press of the clock at most
        if phase == mz.CLEAR and g.phase == mz.REMOVE and g.turn == me:
            return False
        return g.phase == mz.OVER or g.turn != me or g.phase != phase

    def candidates_for(self, e: frozenset[Square], f: frozenset[Square], tracker: Tracker,
                       limit: int = 16) -> list[Candidate]:
        """Turns whose occupancy change is exactly (e, f), with the marks the board showed."""
        g0 = self.g
        me = g0.turn
        phase = g0.phase
        start = bytes(g0.board)
        returned: set[Square] = set()
        for s in tracker.first_up:
            d = tracker.last_down.get(s)
            if d is not None and d > tracker.first_up[s] and s in tracker.cur:
                returned.add(s)
        out: list[Candidate] = []

        def finish(g: mz.Game, seq: list[int]) -> None:
            b = g.board
            em: set[Square] = set()
            fi: set[Square] = set()
            marks: list[Square] = []
            for i in range(g.n):
                if start[i] and not b[i]:
                    em.add(i)
                elif b[i] and not start[i]:
                    fi.add(i)
                if b[i] & 4 and not start[i] & 4:
                    marks.append(i)
            if em != e or fi != f:
                return
            placed = [mz.src(d) for d in seq if mz.kind(d) == mz.K_PLACE]
            touch: list[Touch] = [(m, (), tuple(placed)) for m in marks]
            first = seq[0]
            k = mz.kind(first)
            origin = mz.src(first) if k in (mz.K_STEP, mz.K_SLIDE, mz.K_FLY, mz.K_JUMP) else -1
            if origin >= 0 and origin not in em and origin in start and b[origin]:
                touch.append((origin, ()))     # a jump chain back to its own cell
            out.append(Candidate(em, fi, touch, [tuple(seq)], origin, " ".join(g0.text(d) for d in seq)))

        def dfs(g: mz.Game, seq: list[int]) -> None:
            if len(out) >= limit:
                return
            if seq and self._turn_over(g, me, phase):
                finish(g, seq)
                return
            for d in g.decisions():
                k = mz.kind(d)
                a = mz.src(d)
                if k == mz.K_PLACE:
                    if a not in f:
                        continue
                elif k == mz.K_MARK:
                    if a not in returned or a in e or a in f:
                        continue
                elif k in (mz.K_REMOVE, mz.K_CAPTURE):
                    if a not in e:
                        continue
                elif k in (mz.K_STEP, mz.K_SLIDE, mz.K_FLY):
                    if a not in e or mz.dst(d) not in f:
                        continue
                elif k == mz.K_JUMP:
                    if g.jump_at < 0 and a not in e and a not in tracker.first_up:
                        continue
                    if mz.over(d) not in e:
                        continue
                    t = mz.dst(d)
                    if t in e:
                        continue
                g2 = g.copy()
                g2.apply(d)
                seq.append(d)
                dfs(g2, seq)
                seq.pop()

        dfs(g0, [])
        return out

    def choose(self, cand: Candidate, prefs: Optional[Prefs] = None) -> Turn:
        """The decisions of the turn (a jump chain on its canonical route)."""
        return self.canonical(cand.moves[0])

    def is_promotion(self, move: Turn) -> bool:
        """No promotions."""
        return False

    def is_legal(self, move: Turn) -> bool:
        """True if the whole turn can be played now."""
        g = self.g.copy()
        for d in move:
            if d not in g.decisions():
                return False
            g.apply(d)
        return True

    def canonical(self, move: Turn) -> Turn:
        """The same turn with its jump chain on the first route (in cell order) that has the same
        start, end and captured pieces: routes the board cannot tell apart are one move, as in draughts."""
        idx = [i for i, d in enumerate(move) if mz.kind(d) == mz.K_JUMP]
        if len(idx) < 2:
            return move
        lo, hi = idx[0], idx[-1]
        jumps = move[lo:hi + 1]
        end = mz.dst(jumps[-1])
        caps = frozenset(mz.over(d) for d in jumps)
        g = self.g.copy()
        for d in move[:lo]:
            g.apply(d)
        best: list[tuple[tuple[int, ...], list[int]]] = []

        def dfs(g: mz.Game, seq: list[int], taken: frozenset[Square]) -> None:
            if len(seq) == len(jumps):
                if mz.dst(seq[-1]) == end and taken == caps:
                    route = tuple(mz.dst(d) for d in seq)
                    if not best or route < best[0][0]:
                        best[:] = [(route, list(seq))]
                return
            for d in g.decisions():
                if mz.kind(d) != mz.K_JUMP or mz.over(d) not in caps or mz.over(d) in taken:
                    continue
                if not seq and mz.src(d) != mz.src(jumps[0]):
                    continue
                g2 = g.copy()
                g2.apply(d)
                dfs(g2, seq + [d], taken | {mz.over(d)})

        dfs(g, [], frozenset())
        if not best:
            return move
        return tuple(move[:lo]) + tuple(best[0][1]) + tuple(move[hi + 1:])

    def text(self, move: Turn) -> str:
        """The record token of a turn (docs/minzu.md); marks and captures in cell order."""
        rec = self.spec.module()        # the family's record format (flagfall.games.minzu)
        move = self.canonical(move)
        g = self.g.copy()
        texts = [g.text(d) for d in move]
        toks = rec.group_turns(g, texts)
        return " ".join(self._canonical(t) for t in toks)

    def _canonical(self, token: str) -> str:
        # the order in which simultaneous marks or captures are chosen changes nothing
        import re
        m = re.match(r"^(.*?)((?:[*xX][A-Za-z]\d{1,2})*)$", token)
        assert m is not None            # the pattern matches every text
        head, tail = m.group(1), m.group(2)
        items = re.findall(r"[*xX][A-Za-z]\d{1,2}", tail)
        items.sort(key=lambda it: (it[0], self.g.cell(it[1:])))
        return head + "".join(items)

    def parse(self, text: str) -> Turn:
        """A turn (tuple of decisions) from its record token(s) (the clearing and a removal are two)."""
        rec = self.spec.module()        # the family's record format (flagfall.games.minzu)
        g = self.g.copy()
        texts = rec.expand_turns(g, text.split())
        g = self.g.copy()
        out: list[int] = []
        for t in texts:
            d = mz.STOP if t == "stop" else g.decision(t)
            g.apply(d)
            out.append(d)
        return tuple(out)

    def push(self, move: Turn) -> None:
        """Play a turn."""
        before = self.g.copy()
        texts: list[str] = []
        for d in move:
            texts.append("stop" if d == mz.STOP else self.g.text(d))
            self.g.apply(d)
        self.stack.append((before, texts))
        self.texts.extend(texts)

    def pop(self) -> Turn:
        """Take back the last turn; returns it."""
        before, texts = self.stack.pop()
        g = before
        move: list[int] = []
        for t in texts:
            d = mz.STOP if t == "stop" else g.parse(t)
            move.append(d)
        self.g = before.copy()
        del self.texts[len(self.texts) - len(texts):]
        return tuple(move)

    def ply(self) -> int:
        """Turns played."""
        return len(self.stack)

    def ending(self) -> Optional[Outcome]:
        """How the game ended by rule, or None."""
        return Outcome.of(self.g.ending())

    def owner(self, sq: Square) -> Optional[int]:
        """Side of the piece on a cell, or None."""
        v = self.g.board[sq] & 3
        return None if not v else v - 1

    def movable(self, sq: Square) -> bool:
        """Touch-move is a chess rule: never an alert here."""
        return False

    def can_win(self, side: int) -> bool:
        """A side with pieces can win."""
        return True

    def physical(self, move: Turn) -> Physical:
        """Hand motions of a turn for the virtual board."""
        g = self.g.copy()
        travel: list[Travel] = []
        remove: list[Square] = []
        touch: list[Square] = []
        chain: Optional[tuple[Square, Square, list[Square]]] = None   # a jump chain: from, to, via
        for d in move:
            k = mz.kind(d)
            a = mz.src(d)
            if k == mz.K_PLACE:
                travel.append(Travel(None, a, ()))
            elif k == mz.K_MARK:
                touch.append(a)
            elif k in (mz.K_REMOVE, mz.K_CAPTURE):
                remove.append(a)
            elif k in (mz.K_STEP, mz.K_SLIDE, mz.K_FLY):
                travel.append(Travel(a, mz.dst(d), ()))
            elif k == mz.K_JUMP:
                remove.append(mz.over(d))
                if chain is None:
                    chain = (a, mz.dst(d), [])
                else:
                    chain[2].append(chain[1])
                    chain = (chain[0], mz.dst(d), chain[2])
            g.apply(d)
        if chain is not None:
            travel.insert(0, Travel(chain[0], chain[1], tuple(chain[2])))
        return Physical(tuple(travel), tuple(remove), touch_after=tuple(touch))

    def position(self) -> str:
        """Position text (docs/minzu.md)."""
        return self.g.to_text()

    def grid(self) -> list[str]:
        """Rows: x light, o dark, * marked."""
        b = self.g.board
        rows: list[str] = []
        for r in range(self.rows):
            row = ""
            for c in range(self.cols):
                v = b[r * self.cols + c]
                row += "*" if v & 4 else ".xo"[v & 3]
            rows.append(row)
        return rows

    def cell(self, sq: Square) -> tuple[int, int]:
        """(row, col) of a cell."""
        return (sq // self.cols, sq % self.cols)

    def sensor_map(self, rows: int, cols: int, layout: str) -> list[Optional[Square]]:
        """Sensor row * cols + col -> cell (the board's own rows and columns)."""
        if layout != "full":
            return [None] * (rows * (cols // 2))
        return [r * self.cols + c if r < self.rows and c < self.cols else None
                for r in range(rows) for c in range(cols)]

    def name(self, sq: Square) -> str:
        """Cell name."""
        return self.g.name(sq)

    def move_squares(self, move: Turn) -> tuple[Square, ...]:
        """Cells to highlight."""
        out: list[Square] = []
        for d in move:
            k = mz.kind(d)
            if k in (mz.K_PLACE, mz.K_STEP, mz.K_SLIDE, mz.K_FLY, mz.K_JUMP):
                out.append(mz.src(d))
                if k != mz.K_PLACE:
                    out.append(mz.dst(d))
        return tuple(dict.fromkeys(out))

    def record_text(self, tags: dict[str, str], texts: Sequence[str], result: str,
                    clocks: Optional[Sequence[Optional[float]]], notes: Optional[Sequence[str]] = None) -> str:
        """The game record (minzu format) from the decisions played (`texts`, one per turn, are
        what the bridge showed; the record keeps every decision); clocks after each turn (the
        format has no comments: notes are not written)."""
        rec = self.spec.module()        # the family's record format (flagfall.games.minzu)
        t = dict(tags)
        t.setdefault("Light", t.pop("White", "?"))
        t.setdefault("Dark", t.pop("Black", "?"))
        timed: dict[int, Optional[float]] = {}
        if clocks:
            n = 0
            for (_, turn), secs in zip(self.stack, clocks):
                n += len(turn)
                timed[n] = secs
        r = rec.Record(dict(t, Game="minzu", Size=self.size), list(self.texts), result, timed)
        if self.start_fen:
            r.tags["SetUp"] = self.start_fen
        text: str = rec.write_game(r)
        return text


if TYPE_CHECKING:
    _ADAPTER: type[GameAdapter] = MinzuAdapter     # mypy checks that the class implements the Protocol
