"""Minzu tiaoqi: decision API, position and decision text, invariants, a short self-play soak.

Runs under pytest and under MicroPython (tests/mp); the long soak is in tools/bench_minzu.py.
"""
import sys

from flagcore import minzu as mz
from flagcore import minzu_player as mpl
from flagcore.minzu import Game, Ruleset, from_text, LIGHT, DARK
from mptest import raises


def _walk(size, seed, every):
    """Play a self-play game, calling every(game) before each decision."""
    g = Game(size, Ruleset(quiet_draw=60))
    p = mpl.Player(seed)
    while g.phase != mz.OVER:
        every(g)
        g.play(p.choose(g))
    every(g)
    return g


def test_position_text_round_trips_at_every_decision():
    seen = {}

    def check(g):
        t = g.to_text()
        h = from_text(t, g.rules)
        assert h.to_text() == t
        assert h.decisions() == g.decisions()
        assert h.on_board == g.on_board and h.captured == g.captured and h.in_hand == g.in_hand
        seen[mz.PHASE_NAMES[g.phase]] = 1
        if g.jump_at >= 0:
            seen["jump"] = 1
        if g.pending and g.phase == mz.MOVE:
            seen["capture"] = 1

    for seed in (1, 2, 3):
        _walk("6", seed, check)
    for k in ("place", "remove", "move", "over", "jump", "capture"):
        assert k in seen, k


def test_decision_text_round_trips():
    def check(g):
        for d in g.decisions():
            assert g.decision(g.text(d)) == d
    _walk("7", 4, check)
    _walk("7x8", 5, check)


def test_start_positions():
    assert mz.start_text(6) == "6/6/6/6/6/6 L place 0 -"
    assert mz.start_text("7x8") == "/".join(["7"] * 8) + " L place 0 -"
    assert from_text(mz.start_text(14)).n == 196


def test_malformed_positions_give_clear_errors():
    bad = {
        "": "5 fields",
        "6/6/6/6/6 L place 0 -": "not a minzu board",
        "6/6/6/6/6/5 L place 0 -": "row F has 5 cells",
        "6/6/6/6/6/5Q L place 0 -": "bad character 'Q' in row F",
        "6/6/6/6/6/6 W place 0 -": "turn must be L or D",
        "6/6/6/6/6/6 L fly 0 -": "phase must be one of",
        "6/6/6/6/6/6 L place x -": "pending count must be a number",
        "6/6/6/6/6/6 D place 0 -": "light's turn",
        "DD4/6/6/6/6/6 L place 0 -": "as many pieces as dark",
        "LD4/6/6/6/6/6 L move 0 Z9/1": "off the",
        "LD4/6/6/6/6/6 L move 0 A0": "jump field",
        "LD4/6/6/6/6/6 L over 0 -": "result",
        "lD4/6/6/6/6/6 L move 0 -": "marked pieces",
    }
    for text in bad:
        e = raises(ValueError, from_text, text)
        assert bad[text] in str(e), (text, str(e))


def test_malformed_and_illegal_decisions():
    g = Game(6)
    for t in ("Q", "A", "E4-", "A77", "*", "x", "A0-ZZ"):
        raises(ValueError, g.decision, t)
    e = raises(mz.IllegalDecision, g.decision, "A0")
    assert "illegal" in str(e)
    assert isinstance(e, ValueError)
    raises(mz.IllegalDecision, g.play, mz.K_PLACE << 16 | 0)
    raises(ValueError, Game, 10)
    raises(ValueError, Ruleset, fly=True)


def test_decision_kinds_and_cells():
    g = Game(6)
    d = g.decision("C3")
    assert mz.kind(d) == mz.K_PLACE and mz.src(d) == g.cell("C3")
    g = from_text("1LD3/6/6/6/LLL3/2DDDD D move 0 -", Ruleset(flying=False))
    d = g.decision("A2:A0")
    assert mz.kind(d) == mz.K_JUMP and mz.src(d) == 2 and mz.dst(d) == 0
    assert mz.over(d) == 1
    g = from_text("6/6/2D3/2L3/2D3/DD1LLL L move 0 -", Ruleset(flying=False))
    for t, cell in (("D2:B2", "C2"), ("D2:F2", "E2")):
        assert mz.over(g.decision(t)) == g.cell(cell)


def test_invariants_catch_a_corrupt_state():
    g = Game(6)
    g.play("C3")
    assert g.invariants() is None
    g.board[0] = 2
    assert "count" in g.invariants()
    g = Game(6)
    g.in_hand[0] -= 1
    assert "in hand" in g.invariants()


def test_copy_is_independent():
    g = Game(6)
    g.play("C3")
    h = g.copy()
    h.play("D2")
    assert g.board[g.cell("D2")] == 0 and g.turn == DARK and h.turn == LIGHT


def test_selfplay_soak_every_size_keeps_invariants():
    # on the qemu port (tools/mcu.py: an emulated Cortex-M, where this soak took most of the core tests'
    # time) one game per size: the rules engine runs on the host, never on a device
    seeds = (1,) if sys.platform == "qemu" else (1, 2)
    for size in mz.SIZES:
        for seed in seeds:
            g, n, fails = mpl.play_game(size, seed, Ruleset(quiet_draw=100))
            assert fails == [], (size, seed, fails)
            assert g.phase == mz.OVER and g.result in ("1-0", "0-1", "1/2-1/2")
            assert n > g.n                             # placement alone takes a decision per cell


def test_selfplay_is_deterministic():
    a = []
    b = []
    mpl.play_game("6", 9, Ruleset(quiet_draw=100), texts=a)
    mpl.play_game("6", 9, Ruleset(quiet_draw=100), texts=b)
    assert a == b and len(a) > 36


def test_quiet_draw_is_off_by_default():
    assert mz.DEFAULT.quiet_draw == 0
    g = from_text("L5/6/6/6/6/DDDDD1 L move 0 -", Ruleset(quiet_draw=1, flying=False))
    g.play("A0-B0")
    assert g.phase == mz.OVER and g.result == "1/2-1/2" and g.reason == 70


def test_transition_checker_rejects_a_wrong_phase_change():
    g = from_text("6/6/6/6/6/6 L place 0 -")
    g.phase = mz.MOVE
    assert mpl.transition_error(g, mz.PLACE, LIGHT, mz.K_PLACE) is not None


def _seed():
    import json
    from mptest import data_path
    with open(data_path("minzu_rules.json")) as f:
        return json.load(f)


def test_seed_options_match_the_ruleset_defaults():
    data = _seed()
    assert Ruleset.from_seed(data).as_dict() == Ruleset().as_dict()
    assert sorted(data["options"].keys()) == sorted(Ruleset.RULES.keys())
    for k in data["options"]:
        assert data["options"][k]["rule"] == Ruleset.RULES[k], k
    assert data["options"]["slide"]["value"] is True and data["options"]["compulsory"]["value"] is False
    assert data["options"]["violations_to_lose"]["value"] == 3
    assert data["clock"]["byo_yomi"]["rule"] == 56


def test_seed_boards_match_the_engine():
    data = _seed()
    assert sorted(data["boards"].keys()) == sorted(mz.SIZES)
    for s in mz.SIZES:
        b = data["boards"][s]
        g = Game(s)
        assert (b["rows"], b["cols"]) == (g.rows, g.cols)
        assert [b["light"], b["dark"]] == g.total
        assert b["fly_at"] == g.fly_at
        assert b["centre"] == [g.name(i) for i in g.centre()]
    for item in data["interpretations"]:
        assert 1 <= item["rule"] <= 77 and item["decision"]
