"""Broken FEN never crashes the engine: random mutations of real FENs either raise FenError
(a ValueError with a message) or give a position whose moves python-chess agrees with."""
import random

import chess as oracle

from flagcore import chess as core

SEEDS = [
    core.START_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
]
ALPHABET = "pnbrqkPNBRQK12345678/ wb-KQkqabcdefgh0x"


def mutate(rng, fen):
    s = list(fen)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(3)
        i = rng.randrange(len(s) + 1)
        if op == 0 and s:
            del s[min(i, len(s) - 1)]
        elif op == 1:
            s.insert(i, rng.choice(ALPHABET))
        elif s:
            s[min(i, len(s) - 1)] = rng.choice(ALPHABET)
    return "".join(s)


def test_mutated_fens_error_cleanly_or_agree_with_python_chess():
    rng = random.Random(7)
    rejected = accepted = compared = 0
    for _ in range(4000):
        fen = mutate(rng, rng.choice(SEEDS))
        try:
            b = core.Board(fen)
        except core.FenError as e:
            assert str(e) and isinstance(e, ValueError)
            rejected += 1
            continue
        accepted += 1
        moves = sorted(core.uci(m) for m in b.legal_moves())
        n = b.perft(2)
        try:
            o = oracle.Board(b.fen())
        except ValueError:
            continue
        if o.status() == oracle.STATUS_VALID:
            assert moves == sorted(m.uci() for m in o.legal_moves), fen
            want = 0
            for m in list(o.legal_moves):
                o.push(m)
                want += o.legal_moves.count()
                o.pop()
            assert n == want, fen
            compared += 1
    assert rejected > 1000 and accepted > 100 and compared > 100
