"""Chess960 against python-chess (chess960=True): perft, move sets, SAN, X-FEN/Shredder-FEN, repetition, CLI.

python-chess (GPL-3.0) is only the oracle here; Flagfall never imports it.
The random games are biased toward castling (70 % of the plies where castling
is legal), so castling where the king stays, where the rook stays and where
they swap squares all occur, and the test checks that they did.
"""
import random
import subprocess
import sys
import os

import chess as oracle

from flagcore import chess as core
from flagcore import chess960
from flagfall import cli

FLAGFALL = os.path.join(os.path.dirname(sys.executable), "flagfall")


def _operft(board, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += _operft(board, depth - 1)
        board.pop()
    return n


def test_perft_matches_python_chess_on_random_start_positions():
    rng = random.Random(960)
    numbers = rng.sample(range(960), 33)
    for i, n in enumerate(numbers):
        depth = 4 if i < 3 else 3
        fen = chess960.fen(n)
        ours = chess960.board(n).perft(depth)
        theirs = _operft(oracle.Board(fen, chess960=True), depth)
        assert ours == theirs, (n, fen, depth)


def _castle_kind(b, m):
    kf, kt, rf, rt = b.castling_squares(m)
    if kf == kt:
        return "king stays"
    if rf == rt:
        return "rook stays"
    if (kf, rf) == (rt, kt):
        return "swap"
    return "both move"


def _compare(b, o, where):
    legal = b.legal_moves()
    assert sorted(core.uci(m) for m in legal) == sorted(m.uci() for m in o.legal_moves), where
    assert sorted(b.san(m, legal) for m in legal) == sorted(o.san(m) for m in o.legal_moves), where
    assert b.fen() == o.fen(en_passant="fen"), where
    assert b.fen(shredder=True) == o.fen(shredder=True, en_passant="fen"), where
    assert b.is_check() == o.is_check(), where
    assert (b.repetitions() >= 3) == o.is_repetition(3), where
    st = b.status()
    assert (st is not None and st[1] == "checkmate") == o.is_checkmate(), where
    assert (st is not None and st[1] == "stalemate") == o.is_stalemate(), where
    for m in legal:
        if b.is_castling(m):
            om = oracle.Move.from_uci(core.uci(m))
            assert o.is_castling(om) and o.is_kingside_castling(om) == (b.san(m, legal) == "O-O"), where
    return legal


def test_random_games_rich_in_castling_agree_with_python_chess():
    rng = random.Random(2026)
    kinds = {}
    plies = 0
    perfts = 0
    for g in range(150):
        n = rng.randrange(960)
        b = chess960.board(n)
        o = oracle.Board(chess960.fen(n), chess960=True)
        for ply in range(rng.randrange(20, 90)):
            where = (n, ply, b.fen(shredder=True))
            legal = _compare(b, o, where)
            if not legal:
                break
            if ply % 15 == 7:
                # perft 2 below the position, move by move (divide)
                ours = {}
                for m in legal:
                    b.make(m)
                    ours[core.uci(m)] = len(b.legal_moves())
                    b.unmake()
                theirs = {}
                for om in o.legal_moves:
                    o.push(om)
                    theirs[om.uci()] = o.legal_moves.count()
                    o.pop()
                assert ours == theirs, where
                perfts += 1
            cs = [m for m in legal if b.is_castling(m)]
            m = rng.choice(cs) if cs and rng.random() < 0.7 else rng.choice(legal)
            om = oracle.Move.from_uci(core.uci(m))
            san = o.san(om)
            assert b.parse_san(san) == m and b.parse_move(core.uci(m)) == m, where
            if b.is_castling(m):
                k = _castle_kind(b, m)
                kinds[k] = kinds.get(k, 0) + 1
            e, f = b.occupancy_change(m)
            occ = b.occupied()
            b.push(m)
            o.push(om)
            plies += 1
            for s in e:
                occ &= ~(1 << s)
            for s in f:
                occ |= 1 << s
            assert occ == b.occupied(), where
            if rng.random() < 0.05:
                assert b.pop() == m
                o.pop()
                b.push(m)
                o.push(om)
        _compare(b, o, (n, "end"))
    assert plies > 5000 and perfts > 300
    # every kind of Chess960 castling was played and checked
    assert all(kinds.get(k, 0) >= 10 for k in ("king stays", "rook stays", "swap", "both move")), kinds


def test_xfen_letters_match_python_chess():
    # rooks standing further out than the castling rook need the file letter in X-FEN
    for fen in ("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1", "rr2k3/8/8/8/8/8/8/RR2K3 w Aa - 0 1",
                "4k1rr/8/8/8/8/8/8/4K1RR w Gg - 0 1", "r1r1k1rr/8/8/8/8/8/8/R1R1K1RR w CGcg - 0 1",
                "2r1kr1r/8/8/8/8/8/8/2R1KR1R w HCh - 0 1"):
        b = core.Board(fen, chess960=True)
        o = oracle.Board(fen, chess960=True)
        assert b.fen() == o.fen(), fen
        assert b.fen(shredder=True) == o.fen(shredder=True), fen
        assert core.Board(b.fen(), chess960=True).fen(shredder=True) == b.fen(shredder=True)
        assert sorted(core.uci(m) for m in b.legal_moves()) == sorted(m.uci() for m in o.legal_moves), fen


def test_repetition_in_chess960_matches_python_chess():
    rng = random.Random(5)
    for n in rng.sample(range(960), 20):
        b = chess960.board(n)
        o = oracle.Board(chess960.fen(n), chess960=True)
        for ply in range(120):
            legal = b.legal_moves()
            if not legal:
                break
            # knights and kings shuffle (repetitions), with some castling and pawn moves
            quiet = [m for m in legal if b.piece_at(core.move_from(m))[1] in (core.KNIGHT, core.KING)
                     and b.captured_square(m) < 0]
            m = rng.choice(quiet) if quiet and rng.random() < 0.85 else rng.choice(legal)
            b.push(m)
            o.push(oracle.Move.from_uci(core.uci(m)))
            for k in (2, 3, 5):
                assert (b.repetitions() >= k) == o.is_repetition(k), (n, ply)
            assert ("threefold repetition" in b.claims()) == (o.can_claim_threefold_repetition()
                                                              and not o.is_checkmate() and not o.is_stalemate())


def run(*args):
    return subprocess.run([FLAGFALL] + list(args), capture_output=True, text=True, timeout=120)


def test_cli_perft_and_moves_chess960():
    fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    r = run("perft", "chess960", "3", "--fen", fen)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == "12189"
    fen = "1r2k1r1/1p4p1/8/8/8/8/1P4P1/1R2K1R1 w GBgb - 0 1"
    r = run("perft", "chess960", "2", "--fen", fen, "--divide")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    div = dict(line.split(": ") for line in lines[:-1])
    o = oracle.Board(fen, chess960=True)
    assert sorted(div) == sorted(m.uci() for m in o.legal_moves)
    assert "e1g1" in div and "e1b1" in div            # castling king-to-rook
    assert int(lines[-1]) == _operft(o, 2)


def test_cli_moves_chess960(capsys):
    fen = "4k3/8/8/8/8/8/8/5KR1 w K - 0 1"
    assert cli.main(["moves", "chess960", "--fen", fen]) == 0
    lines = capsys.readouterr().out.split()
    assert lines == sorted(m.uci() for m in oracle.Board(fen, chess960=True).legal_moves)
    assert "f1g1" in lines                            # the king and rook swap squares
    assert cli.main(["moves", "chess960", "--position", "0"]) == 0
    lines = capsys.readouterr().out.split()
    assert lines == sorted(m.uci() for m in oracle.Board.from_chess960_pos(0).legal_moves)
    assert cli.main(["moves", "chess960"]) == 0       # no FEN: the standard array (518)
    assert len(capsys.readouterr().out.split()) == 20
    # errors are one clear line
    assert cli.main(["moves", "chess960", "--position", "960"]) == 2
    assert "0..959" in capsys.readouterr().err
    assert cli.main(["moves", "chess", "--fen", "4k3/8/8/8/8/8/8/6KR w K - 0 1"]) == 2
    err = capsys.readouterr().err
    assert "chess960" in err and "Traceback" not in err
    assert cli.main(["perft", "chess960", "1", "--fen", "4k3/8/8/8/8/8/8/R3K3 w K - 0 1"]) == 2
    assert "impossible castling right 'K'" in capsys.readouterr().err
