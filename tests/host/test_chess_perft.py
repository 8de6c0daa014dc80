"""Perft of the chess engine: the published counts, and python-chess as an oracle on real positions.

The deep counts (start position depth 5, Kiwipete depth 4) are the slow part
(about 10 s together on CPython); they are the issue's required proof.
"""
import glob
import os
import random

import chess as oracle

from flagcore import chess as core
from flagfall.games import chess as pgn

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# chessprogramming.org "Perft Results" (positions 1-6) and shared/perft-reference.md (start)
PUBLISHED = [
    (core.START_FEN, [20, 400, 8902, 197281, 4865609]),
    (KIWIPETE, [48, 2039, 97862, 4085603]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238, 674624]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467, 422333]),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", [6, 264, 9467, 422333]),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", [44, 1486, 62379]),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", [46, 2079, 89890]),
]


def test_published_perft_counts():
    for fen, counts in PUBLISHED:
        b = core.Board(fen)
        for depth, want in enumerate(counts, 1):
            assert b.perft(depth) == want, (fen, depth)
        assert b.fen() == fen


def _oracle_divide(board, depth):
    out = {}
    for m in board.legal_moves:
        board.push(m)
        out[m.uci()] = _oracle_perft(board, depth - 1)
        board.pop()
    return out


def _oracle_perft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += _oracle_perft(board, depth - 1)
        board.pop()
    return n


def test_divide_matches_python_chess_on_positions_from_real_games():
    rng = random.Random(2026)
    path = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "data", "chess", "*1575-1861.pgn")))[0]
    games = list(pgn.read_file(path))
    checked = 0
    for g in rng.sample(games, 40):
        b, moves = g.replay()
        for _ in range(rng.randrange(len(moves) + 1)):
            b.pop()
        fen = b.fen()
        o = oracle.Board(fen)
        ours = {}
        for m in b.legal_moves():
            b.make(m)
            ours[core.uci(m)] = b.perft(2)
            b.unmake()
        assert ours == _oracle_divide(o, 3), fen
        checked += 1
    assert checked == 40
