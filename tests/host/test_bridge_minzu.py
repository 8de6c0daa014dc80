"""Bridge hard cases for minzu tiaoqi: placements, the marking gesture, clearing, removal,
steps, slides, flying, jump chains and captures chosen by removing pieces."""
import random

import pytest

from flagcore import minzu as mz
from flagfall.bridge import replay, virtualboard as vb
from flagfall.games import registry
from flagfall.bridge.game import Game
from flagfall.games import minzu as rec

from bridge_helpers import Hand


def random_turn(a, rng):
    """A random legal turn (all its decisions) for adapter a."""
    return replay.random_turn(a, rng)


def follow(size, seed, clock, noise=0.35, max_turns=300):
    """Play a random game on the virtual board; return (bridge game, truth adapter, kinds seen)."""
    rng = random.Random(seed)
    truth = registry.make_adapter("minzu", size=size)
    g = Game("minzu", clock_mode=clock, settle_ms=1500, options={"size": size})
    t = 0
    kinds = set()
    running = 0                     # whose clock runs: a player presses only his own
    while truth.status() is None and truth.ply() < max_turns:
        if clock:
            g.clock_side = running
        m = random_turn(truth, rng)
        kinds.update(mz.kind(d) for d in m)
        t += 3000
        for dt, sq, down in vb.events_for_move(truth, m, rng, noise):
            t += dt
            g.square(t, sq, down)
        mover = truth.side()
        text = truth.text(m)
        truth.push(m)
        if clock and running == mover:
            t += vb.press_delay(rng, noise)
            running = 1 - mover
            g.press(t, mover, (600000 - truth.ply() * 1000, 590000 - truth.ply() * 1000))
        t += 2000
        g.tick(t)
        assert g.adapter.position() == truth.position(), (seed, truth.ply(), text, g.decisions[-3:])
    return g, truth, kinds


@pytest.mark.parametrize("size", ["6", "7", "9", "7x8"])
def test_random_games_with_noise_follow_every_turn(size):
    seen = set()
    for seed in range(6):
        g, truth, kinds = follow(size, seed, clock=seed % 2 == 0)
        seen |= kinds
        assert len(g.moves) == truth.ply()
        assert g.result == (truth.status() or ("*",))[0]
    # every kind of decision was exercised (fly needs few pieces: not on every size)
    assert {mz.K_PLACE, mz.K_MARK, mz.K_REMOVE, mz.K_STEP, mz.K_SLIDE, mz.K_JUMP, mz.K_CAPTURE} <= seen


def test_record_is_the_minzu_format():
    g, truth, _ = follow("6", 3, clock=True)
    text = g.adapter.record_text({"White": "a", "Black": "b", "Termination": g.reason or ""}, g.sans(), g.result, None)
    r = list(rec.read_games(text))[0]
    assert r.tags["Light"] == "a" and r.tags["Size"] == "6"
    assert r.replay().to_text() == truth.position()


def test_record_carries_the_clock_after_each_timed_turn():
    from flagfall.bridge import records as brec
    g, truth, _ = follow("6", 4, clock=True)
    text = brec.record_text(g)
    r = rec.read_games(text)[0]
    assert r.replay().to_text() == truth.position()
    want = [m.clock_ms // 1000 for m in g.moves if m.clock_ms is not None]
    assert len(want) > 20 and [int(r.clocks[n]) for n in sorted(r.clocks)] == want


def placement_forming_a_square():
    """A 6x6 position where light's next placement completes a 2x2 square (one mark)."""
    rng = random.Random(1)
    for _ in range(200):
        a = registry.make_adapter("minzu", size="6")
        while a.status() is None and a.g.phase == mz.PLACE:
            for d in a.g.decisions():
                if mz.kind(d) == mz.K_PLACE:
                    g = a.g.copy()
                    g.apply(d)
                    if g.pending == 1 and g.turn == a.g.turn:
                        return a, d
            a.push(random_turn(a, rng))
    raise AssertionError("no square-forming placement found")


def test_mark_is_the_gesture_after_the_placement():
    a, place = placement_forming_a_square()
    theirs = [i for i in range(a.g.n) if a.g.board[i] & 3 == 2 - a.g.turn]
    fen = a.g.to_text()
    cell = mz.src(place)
    # the gesture before the placement does not count; after it, it is the mark
    h = Hand("minzu", fen=fen, options={"size": "6"})
    h.up(theirs[0]).down(theirs[0]).down(cell).press().settle()
    assert h.moves() == []
    h.up(theirs[0]).down(theirs[0])
    assert len(h.moves()) == 1 and h.moves()[0].endswith("*" + a.g.name(theirs[0]))
    assert h.g.adapter.g.board[theirs[0]] & 4


def test_two_gestures_for_one_mark_are_ambiguous():
    a, place = placement_forming_a_square()
    theirs = [i for i in range(a.g.n) if a.g.board[i] & 3 == 2 - a.g.turn]
    h = Hand("minzu", fen=a.g.to_text(), options={"size": "6"})
    h.down(mz.src(place)).up(theirs[0]).down(theirs[0]).up(theirs[1]).down(theirs[1]).press().settle()
    assert h.moves() == []
    assert "ambiguous" in h.g.alert


def test_replay_of_minzu_records_and_random_games(tmp_path):
    g, truth, _ = follow("6", 5, clock=True)
    p = tmp_path / "m.txt"
    p.write_text(truth.record_text({"White": "a", "Black": "b"}, [], truth.status()[0] if truth.status() else "*",
                                   None))
    assert replay.run("minzu", str(p), seed=2, noise=0.4) == (1, truth.ply(), 0)
    games, moves, bad = replay.run("minzu7", "random:3:4", seed=1, noise=0.4, clock=False)
    assert games == 3 and moves > 100 and bad == 0


def test_every_turn_text_parses_back_to_the_turn():
    # the clearing of the marked pieces and dark's removal are one turn written as two tokens
    rng = random.Random(9)
    a = registry.make_adapter("minzu", size="6")
    two_tokens = 0
    while a.status() is None:
        m = random_turn(a, rng)
        text = a.text(m)
        two_tokens += " " in text
        assert a.canonical(a.parse(text)) == a.canonical(m), text
        a.push(m)
    assert two_tokens >= 1
