"""Differential test against pydraughts 0.6.7: legal-move sets at every ply of random games.

Here a sample of games per variant (pydraughts needs ~0.1-0.4 s per game);
tools/bench_draughts.py plays 1,000 games per variant the same way.
Moves are compared as (start, end, set of captured squares).

Where pydraughts differs from the rulebook: it lists one capture several
times when different routes take the same pieces from the same start to the
same end (a loop capture clockwise and anticlockwise, FMJD 4.8: a piece may
not be jumped twice but an empty square may be passed again). By FMJD 4.13
and the perft convention (shared/perft-reference.md) that is one move; those
duplicates are counted, not treated as mismatches, and are checked by
test_loop_capture_pydraughts_lists_twice.
"""
import pytest

import draughts_oracle as oracle
from flagcore.draughts import Game

SAMPLE = {"international": 12, "brazilian": 25, "russian": 25, "checkers": 25}


@pytest.mark.parametrize("variant", sorted(SAMPLE))
def test_random_games_agree_with_pydraughts(variant):
    stats = {}
    mismatches = oracle.random_games(variant, SAMPLE[variant], seed=2024, stats=stats)
    assert mismatches == []
    assert stats["games"] == SAMPLE[variant]
    assert stats["plies"] > 30 * SAMPLE[variant]
    assert stats["captures"] > 5 * SAMPLE[variant]


@pytest.mark.parametrize("variant,fen", [
    ("international", "W:WK5,K38,K46,K48,K49:B9,10,13,17,18,27,28,31,33,39,40,41,42"),
    ("international", "W:WK8,K21,K22,36,37:BK1,10,14,18,19,24,28,K38,39,43,45"),
    ("russian", "W:WK1,K3,K4,K14,K29,K30:B7,8,9,10,16,17,18,23,24,25"),
    ("brazilian", "W:WK1,K5,K13,K28,K31,K32:B2,10,11,14,16,17,20,21,24,25,26,27"),
    ("checkers", "W:WK5,K9,K12,K17,K20,K29:B6,7,8,14,15,16,22,23,24"),
])
def test_random_games_from_king_positions_agree_with_pydraughts(variant, fen):
    stats = {}
    assert oracle.random_games(variant, 3, seed=7, stats=stats, fen=fen) == []
    assert stats["captures"] >= 3


def test_loop_capture_pydraughts_lists_twice():
    # white man 33 takes 28, 18, 19 and 29 and lands on 33 again, either way round.
    # FMJD 4.8/4.13 and the perft tables: one move. pydraughts: two (marked difference).
    fen = "W:W33:B18,19,28,29"
    ours = oracle.our_moves(Game("international", fen))
    theirs = oracle.pyd_moves(oracle.pyd_board("international", fen), oracle.square_map("international"))
    key = (33, 33, frozenset((18, 19, 28, 29)))
    assert list(ours) == [key]
    assert list(theirs) == [key]
    assert len(theirs[key]) == 2


def test_square_maps_agree_on_the_start_position():
    for variant in ("international", "brazilian", "russian", "checkers"):
        ours = oracle.our_moves(Game(variant))
        theirs = oracle.pyd_moves(oracle.pyd_board(variant), oracle.square_map(variant))
        assert set(ours) == set(theirs) and len(ours) in (7, 9)


def test_a_planted_rule_change_is_caught():
    # the check can fail: without the maximum rule, international moves differ from pydraughts
    from flagcore import draughts as core
    saved = core.SPECS["international"]
    core.SPECS["international"] = (5, True, True, False, core.STAYS, core.WHITE)
    try:
        assert oracle.random_games("international", 3, seed=1) != []
    finally:
        core.SPECS["international"] = saved
