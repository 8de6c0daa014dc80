"""Helpers for the bridge tests: drive a bridge Game with square names and hand motions."""
import itertools

from flagcore import chess as cc

from flagfall.bridge.game import Game


def sq(name):
    """Chess square index from a name, or an int (draughts number) unchanged."""
    return cc.square(name) if isinstance(name, str) else name


class Hand:
    """Feeds a Game with timed lifts/placements, presses and ticks."""

    def __init__(self, game="chess", fen=None, clock=True, settle_ms=1000, **kw):
        self.g = Game(game, clock_mode=clock, settle_ms=settle_ms, fen=fen, **kw)
        self.t = 1000
        self.decs = []

    def up(self, *names):
        """Lift pieces."""
        for n in names:
            self.t += 100
            self.decs += self.g.square(self.t, sq(n), False)
        return self

    def down(self, *names):
        """Place pieces."""
        for n in names:
            self.t += 100
            self.decs += self.g.square(self.t, sq(n), True)
        return self

    def steps(self, seq):
        """seq: list of (name, down)."""
        for n, d in seq:
            (self.down if d else self.up)(n)
        return self

    def press(self, side=None, times=(60000, 60000)):
        """The side to move presses its clock."""
        self.t += 200
        if side is None:
            side = self.g.adapter.side()
        self.decs += self.g.press(self.t, side, times)
        return self

    def settle(self):
        """Let the settle time pass."""
        self.t += self.g.settle_ms + 1
        self.decs += self.g.tick(self.t)
        return self

    def moves(self):
        """Moves committed so far."""
        return self.g.sans()

    def kinds(self, k):
        """Decisions of one kind."""
        return [d for d in self.decs if d["k"] == k]

    def play(self, *texts):
        """Play moves by the canonical physical order with a press each (setting up a position)."""
        from flagfall.bridge import virtualboard as vb
        for text in texts:
            a = self.g.adapter
            m = a.parse(text)
            for dt, s, down in vb.events_for_move(a, m):
                self.t += dt
                self.decs += self.g.square(self.t, s, down)
            if self.g.clock_mode:
                self.press()
            else:
                self.settle()
        return self


def orders(*pieces):
    """Every interleaving of several step sequences, each keeping its own order."""
    seqs = [list(p) for p in pieces]
    total = sum(len(s) for s in seqs)
    out = []
    for owner in set(itertools.permutations([i for i, s in enumerate(seqs) for _ in s], total)):
        pos = [0] * len(seqs)
        seq = []
        for i in owner:
            seq.append(seqs[i][pos[i]])
            pos[i] += 1
        out.append(seq)
    return sorted(out, key=str)
