"""`flagfall perft chess` and `flagfall moves chess` from the command line."""
import os
import subprocess
import sys

import chess as oracle

from flagfall import cli

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FLAGFALL = os.path.join(os.path.dirname(sys.executable), "flagfall")


def run(*args):
    return subprocess.run([FLAGFALL] + list(args), capture_output=True, text=True, timeout=120)


def test_perft_last_line_is_count():
    r = run("perft", "chess", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "8902"


def test_perft_divide_with_fen():
    r = run("perft", "chess", "2", "--fen", KIWIPETE, "--divide")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[-1] == "2039"
    div = dict(line.split(": ") for line in lines[:-1])
    assert len(div) == 48
    assert sum(int(v) for v in div.values()) == 2039
    assert list(div) == sorted(div)
    o = oracle.Board(KIWIPETE)
    for u, n in div.items():
        o.push(oracle.Move.from_uci(u))
        assert int(n) == o.legal_moves.count(), u
        o.pop()


def test_perft_depth_zero_and_bad_fen(capsys):
    assert cli.main(["perft", "chess", "0"]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == "1"
    assert cli.main(["perft", "chess", "1", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]) == 2
    err = capsys.readouterr().err
    assert "no white king" in err


def test_moves_sorted_uci():
    r = run("moves", "chess")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split()
    assert lines == sorted(m.uci() for m in oracle.Board().legal_moves)
    assert len(lines) == 20


def test_moves_with_fen_promotions_and_castling(capsys):
    fen = "r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert cli.main(["moves", "chess", "--fen", fen]) == 0
    lines = capsys.readouterr().out.split()
    assert lines == sorted(m.uci() for m in oracle.Board(fen).legal_moves)
    assert "e1g1" in lines and "b7a8q" in lines and "b7b8n" in lines


def test_moves_bad_fen_is_a_clear_error(capsys):
    assert cli.main(["moves", "chess", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"]) == 2
    err = capsys.readouterr().err
    assert "8 ranks" in err and "Traceback" not in err
