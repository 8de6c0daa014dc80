"""Repetition kept by push/pop (a hash per ply, confirmed on the full position) against python-chess.

python-chess (GPL-3.0) is only the oracle. Random games that shuffle pieces
back and forth (many repetitions), with pawn double steps next to enemy pawns
(en passant possible or not, pinned or not), castling rights being lost, and
takebacks at random: after every push and pop the repetition count, the
threefold claim and the fide-2018 fivefold rule must agree, and the hash kept
incrementally must equal the hash computed from scratch.
"""
import random

import chess as oracle

from flagcore import chess as core

STARTS = [
    core.START_FEN,
    "r3k2r/pppq1ppp/2n2n2/3pp3/3PP3/2N2N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/1p1p4/8/2P1P3/R3K2R w KQ - 0 1",            # double steps beside enemy pawns
    "4k3/8/8/8/4p3/8/3P4/3QK2R w K - 0 1",
    "r3k3/8/8/2b5/4p3/8/3P1P2/4K1NR w Kq - 0 1",           # an en-passant capture pinned by the bishop
]


def _check(b, o, where):
    assert b._keys[-1] == b._hash(), where
    n = b.repetitions()
    for k in (2, 3, 4, 5):
        assert (n >= k) == o.is_repetition(k), (where, k, n)
    claim = "threefold repetition" in b.claims()
    assert claim == (o.can_claim_threefold_repetition() and not o.is_checkmate() and not o.is_stalemate()), where
    st = b.status("fide-2018")
    five = st is not None and st[1] == "fivefold repetition"
    assert five == (o.is_fivefold_repetition() and not o.is_checkmate() and not o.is_stalemate()
                    and not o.is_insufficient_material()), where


def test_repetitions_with_takebacks_match_python_chess():
    rng = random.Random(16)
    checked = 0
    reps = 0
    for g in range(60):
        fen = STARTS[g % len(STARTS)]
        b = core.Board(fen)
        o = oracle.Board(fen)
        for ply in range(160):
            where = (fen, ply, b.fen())
            legal = b.legal_moves()
            if not legal or o.is_insufficient_material():
                break
            quiet = [m for m in legal if b.captured_square(m) < 0
                     and b.piece_at(core.move_from(m))[1] not in (core.PAWN,)]
            r = rng.random()
            stack = b.move_stack()
            back = core.make_move(core.move_to(stack[-2]), core.move_from(stack[-2])) if len(stack) > 1 else -1
            if back in legal and r < 0.6:
                m = back          # undo one's own last move: positions repeat
            else:
                m = rng.choice(quiet) if quiet and r < 0.9 else rng.choice(legal)
            b.push(m)
            o.push(oracle.Move.from_uci(core.uci(m)))
            _check(b, o, where)
            checked += 1
            reps += b.repetitions() >= 3
            if b.move_stack() and rng.random() < 0.2:
                for _ in range(rng.randrange(1, 4)):
                    if not b.move_stack():
                        break
                    b.pop()
                    o.pop()
                    _check(b, o, where)
                    checked += 1
    assert checked > 5000 and reps > 100


def test_make_between_pushes_falls_back_to_a_full_hash():
    # make() does not record a hash: a later push must still give the right one
    b = core.Board()
    b.push(b.parse_move("Nf3"))
    b.make(b.parse_move("Nf6"))
    b.push(b.parse_move("Ng1"))
    assert b._keys[-1] == b._hash()
    b.pop()
    b.unmake()
    b.pop()
    assert b.fen() == core.START_FEN and b._keys == [b._hash()]
