"""Chess960 on the board: castling recognised from occupancy in every case, the rules' order followed.

FIDE Guidelines II (Chess960): castling on a physical board is done by lifting
the king first, moving the rook, then placing the king. Where the board alone
cannot tell castling from a rook or king move (the king or the rook already on
its castling square, or the two swapping squares), the king lifted first
decides; a position the hands leave ambiguous goes to the operator, never a guess.
"""
import random

from flagcore import chess as cc
from flagcore import chess960

from bridge_helpers import Hand
from flagfall.bridge import virtualboard as vb
from flagfall.games import registry


def castlings(board):
    return [m for m in board.legal_moves() if board.is_castling(m)]


def test_every_castling_of_random_960_games_is_followed_in_the_rules_order():
    rng = random.Random(960)
    seen = {"king stays": 0, "rook stays": 0, "swap": 0, "plain": 0}
    for game in range(60):
        n = rng.randrange(960)
        h = Hand("chess960", fen=chess960.fen(n), settle_ms=800)
        a = h.g.adapter
        for ply in range(40):
            # the board cannot see which piece replaced a pawn: queens only here
            legal = [m for m in a.board.legal_moves() if cc.move_promotion(m) in (0, cc.QUEEN)]
            if not legal or h.g.result != "*":
                break
            cs = castlings(a.board)
            m = rng.choice(cs) if cs and rng.random() < 0.7 else rng.choice(legal)
            text = a.text(m)
            if a.board.is_castling(m):
                kf, kt, rf, rt = a.board.castling_squares(m)
                kind = "swap" if (kf, rf) == (rt, kt) else "king stays" if kf == kt else \
                    "rook stays" if rf == rt else "plain"
                seen[kind] += 1
            for dt, sq, down in vb.events_for_move(a, m):
                h.t += dt
                h.decs += h.g.square(h.t, sq, down)
            h.press()
            assert h.moves()[-1] == text, (n, text, h.moves()[-3:], [d.describe() for d in h.decs[-4:]])
    assert all(v >= 3 for v in seen.values()), seen


def test_king_already_home_castling_needs_the_king_lifted_else_the_operator_is_asked():
    # White: king on g1, rook on h1: O-O leaves the king on g1 and takes the rook to f1, which the
    # board alone sees as the rook jumping over its king
    fen = "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1"
    h = Hand("chess960", fen=fen)
    h.up("g1").up("h1").down("f1").down("g1").press()        # the king off first, as the rules say
    assert h.moves() == ["O-O"]
    h = Hand("chess960", fen=fen)
    h.up("h1").down("f1").press().settle()                   # the king never lifted: never guessed
    assert h.moves() == [] and "castling not shown" in h.g.alert and "king" in h.g.alert
    assert h.kinds("penalty") == []
    h.decs += h.g.operator(h.t + 10, "move", "O-O")           # the operator confirms it
    assert h.moves() == ["O-O"]


def test_king_and_rook_swapping_squares_is_castling_only_when_both_were_lifted():
    # White: king on f1, rook on g1: O-O puts the king on g1 and the rook on f1
    fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3KR1 w GBgb - 0 1"
    h = Hand("chess960", fen=fen)
    h.up("f1").up("g1").down("f1").down("g1").press()
    assert h.moves() == ["O-O"]
    h = Hand("chess960", fen=fen)
    h.up("g1").down("g1").press().settle()               # the rook touched and put back: no move
    assert h.moves() == [] and h.kinds("penalty") == []


def test_start_positions_by_number_and_the_start_check():
    a = registry.make_adapter("chess960", position=0)
    assert a.position().startswith("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w")
    assert registry.make_adapter("chess960").position().split()[0] == cc.START_FEN.split()[0]
    try:
        registry.make_adapter("chess960", position=960)
    except ValueError as e:
        assert "0..959" in str(e)
    else:
        raise AssertionError("position 960 accepted")
