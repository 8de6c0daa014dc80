"""Draughts perft: the published start-position tables, and king-heavy positions against pydraughts.

The deepest counts (international depth 7, the 8x8 variants at depth 8)
take seconds each and run in tools/bench_draughts.py (`make bench`); here
every variant goes one ply less than that.
"""
import io

import pytest

import draughts_oracle as oracle
from flagfall.games import draughts as host

# shared/perft-reference.md (Aart Bik, dctl tables; OEIS A133046 for checkers)
PUBLISHED = {
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961],
    "checkers": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146, 929899],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302, 907830],
}
TEST_DEPTH = {"international": 6, "checkers": 7, "russian": 7, "brazilian": 7}

# positions where many kings make the capture trees branch widely, found by a
# hill-climb that maximised the number of legal captures
DENSE = [
    # 139 different maximum captures (176 routes: pydraughts lists the same capture by several routes)
    ("international", "W:WK5,K38,K46,K48,K49:B9,10,13,17,18,27,28,31,33,39,40,41,42", 1),
    ("international", "W:WK8,K21,K22:B1,10,14,18,19,24,28,38,39,43,45", 2),
    ("russian", "W:WK1,K3,K4,K14,K29,K30:B7,8,9,10,16,17,18,23,24,25", 2),
    ("russian", "W:WK1,K2,K5,K11:B9,12,16,17,18,24,25,26", 2),
    ("brazilian", "W:WK1,K5,K13,K28,K31,K32:B2,10,11,14,16,17,20,21,24,25,26,27", 2),
    ("brazilian", "W:WK7:B13,14,15,16,23,24,25", 3),
    ("checkers", "W:WK5,K9,K12,K17,K20,K29:B6,7,8,14,15,16,22,23,24", 2),
]


@pytest.mark.parametrize("variant", sorted(TEST_DEPTH))
def test_start_position_matches_published_table(variant):
    for depth in range(1, TEST_DEPTH[variant] + 1):
        assert host.perft(variant, depth, None, False, io.StringIO()) == PUBLISHED[variant][depth - 1]


def test_draughts_is_international():
    assert host.perft("draughts", 4, None, False, io.StringIO()) == 4265


def test_divide_sums_to_total_and_names_each_move():
    out = io.StringIO()
    n = host.perft("russian", 4, None, True, out)
    lines = out.getvalue().splitlines()
    assert n == 1469 and len(lines) == 7
    assert sum(int(line.split(": ")[1]) for line in lines) == n
    assert [line.split(": ")[0] for line in lines] == host.moves("russian", None)


@pytest.mark.parametrize("variant,fen,depth", DENSE)
def test_dense_king_positions_against_pydraughts(variant, fen, depth):
    ours = host.perft(variant, depth, fen, False, io.StringIO())
    theirs = oracle.pyd_perft(oracle.pyd_board(variant, fen), depth, oracle.square_map(variant))
    assert ours == theirs
    assert ours > 10


def test_dense_position_has_more_than_100_maximum_captures():
    variant, fen, _ = DENSE[0]
    moves = host.moves(variant, fen)
    assert len(moves) == 139
    assert all("x" in m for m in moves)
    assert {len(m.split(":")[1].split(",")) for m in moves} == {6}


def test_perft_bad_fen_is_a_value_error():
    with pytest.raises(ValueError, match="square 99 does not exist"):
        host.perft("draughts", 1, "W:W99:B1", False, io.StringIO())
