"""`flagfall perft` and `flagfall moves` for the draughts variants."""
import subprocess
import sys

import pytest

from repo import ROOT


def _run(*args):
    return subprocess.run([sys.executable, "-m", "flagfall.cli", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


@pytest.mark.parametrize("variant,depth,count", [
    ("draughts", 4, 4265), ("international", 3, 658), ("brazilian", 5, 7473),
    ("russian", 5, 7482), ("checkers", 5, 7361)])
def test_perft_last_line_is_the_count(variant, depth, count):
    r = _run("perft", variant, str(depth))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == str(count)


def test_perft_with_fen_and_divide():
    r = _run("perft", "russian", "2", "--fen", "W:WKe1:Bd2,b2,f2,f4,e3", "--divide")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert all(": " in line for line in lines[:-1])
    assert int(lines[-1]) == sum(int(line.split(": ")[1]) for line in lines[:-1])


def test_moves_start_position_sorted():
    r = _run("moves", "checkers")
    assert r.returncode == 0
    lines = r.stdout.split()
    assert lines == sorted(lines) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


def test_moves_captures_list_captured_squares_ascending():
    r = _run("moves", "russian", "--fen", "W:WK31:B19,23,25,26,27")
    assert r.stdout.split() == ["31x29:19,25,27", "31x29:25,26"]
    r = _run("moves", "draughts", "--fen", "W:W33:B18,19,28,29")
    assert r.stdout.split() == ["33x33:18,19,28,29"]


@pytest.mark.parametrize("fen,message", [
    ("W:W51:B1", "square 51 does not exist (international has squares 1-50)"),
    ("W31,32", "bad FEN"),
    ("W:W31,31:B1", "square 31 given twice"),
])
def test_bad_fen_exits_2_with_message(fen, message):
    r = _run("moves", "draughts", "--fen", fen)
    assert r.returncode == 2
    assert message in r.stderr
    r = _run("perft", "draughts", "1", "--fen", fen)
    assert r.returncode == 2 and message in r.stderr
