"""Both players acting inside the settle window: no innocent side penalised, the record an arbiter writes.

Driven through the real engine with a virtual device whose clock is the
firmware's clock engine (presses become CLK frames, as on a real board), so
the clock's move count and the record are checked to stay in step.
"""
from flagcore import chess as cc
from flagcore import wire

from flagfall.bridge import decisions as D
from flagfall.bridge import replay
from flagfall.bridge.engine import BridgeEngine


class Table:
    """A chess board and clock on the table, played by hand, followed by a bridge engine."""

    def __init__(self, settle_ms=1500, **kw):
        self.dev = replay.VirtualDevice("chess", None, "300+2", True)
        self.eng = BridgeEngine("chess", clock_mode=None, settle_ms=settle_ms, tc="300+2", fsync=False, **kw)
        self.host = wire.Link(wire.DEVICE_KINDS)
        self.t = 1000
        self.decs = []
        self.deliver(self.dev.hello())
        self.deliver(self.dev.snapshot(self.t))
        self.dev.clock.start(0, self.t)
        self.deliver(self.dev.clock_frame(self.t))

    def deliver(self, data):
        for seq, kind, values in self.host.feed(data):
            self.decs += self.eng.frame(self.t, kind, values, data.decode().rstrip("\n"))

    def wait(self, ms):
        end = self.t + ms
        while self.t < end:
            self.t = min(end, self.t + 100)
            self.decs += self.eng.tick(self.t)

    def lift(self, name):
        self.t += 120
        self.deliver(self.dev.square(self.t, cc.square(name), False))
        self.decs += self.eng.tick(self.t)

    def put(self, name):
        self.t += 120
        self.deliver(self.dev.square(self.t, cc.square(name), True))
        self.decs += self.eng.tick(self.t)

    def move(self, frm, to):
        self.lift(frm)
        self.put(to)

    def press(self, side):
        """`side` presses its clock button (the device ignores a press by the side not running)."""
        self.t += 150
        if self.dev.clock.to_move == side:
            self.dev.clock.press(side, self.t)
        self.deliver(self.dev.clock_frame(self.t))
        self.decs += self.eng.tick(self.t)

    def moves(self):
        return self.eng.game.sans()

    def kinds(self, kind):
        return [d for d in self.decs if d.kind == kind]

    def in_step(self):
        """The clock's move count minus the presses that made no move equals the record's length."""
        c = self.dev.clock
        return c.moves[0] + c.moves[1] - self.eng.press_base == len(self.eng.game.moves)


def opening(tb, *pairs):
    for frm, to in pairs:
        side = tb.dev.clock.to_move
        tb.move(frm, to)
        tb.press(side)
        tb.wait(300)


def test_quick_takeback_by_agreement_records_the_new_moves_and_penalises_nobody():
    tb = Table()
    opening(tb, ("e2", "e4"), ("e7", "e5"))
    tb.move("g1", "f3")
    tb.press(0)
    assert tb.moves() == ["e4", "e5", "Nf3"]
    # within a second: Black presses the clock back, White returns the knight and plays Nc3
    tb.wait(200)
    tb.press(1)
    tb.move("f3", "g1")
    tb.move("b1", "c3")
    tb.press(0)
    tb.move("b8", "c6")
    tb.press(1)
    tb.wait(4000)
    assert tb.moves() == ["e4", "e5", "Nc3", "Nc6"]
    assert tb.kinds(D.PENALTY) == [] and tb.eng.game.illegal == [0, 0]
    assert [d.text for d in tb.kinds(D.TAKEBACK)] == ["Nf3"] and tb.eng.game.takebacks == ["2. Nf3"]
    assert tb.eng.game.alert is None and tb.in_step()
    # the game goes on normally
    tb.move("g1", "f3")
    tb.press(0)
    assert tb.moves()[-1] == "Nf3" and tb.in_step()


def test_castling_finished_after_the_reply_records_both_moves():
    tb = Table()
    opening(tb, ("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6"))
    # White puts the king on g1 and presses; Black replies ...d6 and presses; only then the rook
    tb.move("e1", "g1")
    tb.press(0)
    tb.move("d7", "d6")
    tb.press(1)
    tb.move("h1", "f1")
    tb.wait(2000)
    tb.move("b1", "c3")
    tb.press(0)
    tb.wait(2000)
    assert tb.moves()[6:] == ["O-O", "d6", "Nc3"]
    assert tb.kinds(D.PENALTY) == [] and tb.eng.game.alert is None and tb.in_step()


def test_a_press_by_the_side_that_did_not_move_is_never_penalised():
    tb = Table()
    opening(tb, ("e2", "e4"))
    # Black presses at once while White, not on move, moves a piece of its own
    tb.press(1)
    tb.move("d2", "d4")
    tb.wait(4000)
    assert tb.kinds(D.PENALTY) == [] and tb.eng.game.illegal == [0, 0]
    assert tb.eng.game.alert                                 # the arbiter is told, nobody is penalised


def test_an_illegal_move_still_costs_the_mover_and_shows_in_the_record_at_once(tmp_path):
    tb = Table(penalties="auto", out_dir=str(tmp_path), record_name="g")
    opening(tb, ("e2", "e4"), ("e7", "e5"))
    tb.move("g1", "g3")                                      # a knight cannot go there
    tb.press(0)
    tb.wait(4000)
    assert [(d.side, d.outcome) for d in tb.kinds(D.PENALTY)] == [(0, "penalty")]
    assert '[IllegalMoves "White 1, Black 0"]' in (tmp_path / "g.pgn").read_text()


def test_with_penalties_confirmed_by_the_arbiter_nothing_is_applied_until_confirmed():
    tb = Table(penalties="confirm")
    opening(tb, ("e2", "e4"), ("e7", "e5"))
    tb.move("g1", "g3")
    tb.press(0)
    tb.wait(4000)
    assert tb.kinds(D.PENALTY) == [] and "the arbiter applies the penalty" in tb.eng.game.alert
    reply = tb.eng.command(tb.t, {"action": "penalty", "side": "white"})
    assert reply["ok"] and tb.eng.game.illegal == [1, 0]
    assert [(d.side, d.outcome) for d in tb.eng.game.decisions if d.kind == D.PENALTY] == [(0, "penalty")]
