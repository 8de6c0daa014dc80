"""`flagfall moves/perft/selfplay minzu` on the command line."""
import subprocess
import sys

from flagcore import minzu as core
from flagfall import cli
from flagfall.games import minzu as rec

from repo import ROOT, flagfall_env


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_moves_lists_next_decisions(capsys):
    code, out, _ = run(capsys, "moves", "minzu", "--size", "8")
    assert code == 0 and out == ["D4", "E3"]
    code, out, _ = run(capsys, "moves", "minzu", "--size", "6", "--position",
                       "LL4/L5/3DD1/3D2/6/6 L place 0 -")
    assert code == 0 and "B1" in out and len(out) == 30
    code, out, _ = run(capsys, "moves", "minzu", "--position", "LL4/LL4/3DD1/3D2/6/6 L place 1 -")
    assert code == 0 and out == ["*C3", "*C4", "*D3"]


def test_moves_rejects_bad_input(capsys):
    code, out, err = run(capsys, "moves", "minzu", "--size", "10")
    assert code == 2 and "unknown board size" in err and out == []
    code, out, err = run(capsys, "moves", "minzu", "--position", "6/6/6 L place 0 -")
    assert code == 2 and "not a minzu board" in err


def test_perft_counts_decisions(capsys):
    code, out, _ = run(capsys, "perft", "minzu", "3", "--fen", "6")
    assert code == 0 and out[-1] == "68"


def test_selfplay_summary_and_record(capsys, tmp_path):
    f = tmp_path / "games.txt"
    code, out, err = run(capsys, "selfplay", "minzu", "--size", "7", "--games", "6", "--seed", "3",
                         "--record", str(f))
    assert code == 0
    lines = dict(x.split(": ", 1) for x in out)
    assert lines["games"] == "6" and lines["invariant failures"] == "0"
    assert int(lines["light wins"]) + int(lines["dark wins"]) + int(lines["draws"]) == 6
    assert lines["average length"].endswith("decisions")
    games = rec.read_games(f.read_text())
    assert len(games) == 6
    for g in games:
        end = g.replay()
        assert end.phase == core.OVER and end.result == g.result
    assert sum(1 for g in games if g.result == "1-0") == int(lines["light wins"])


def test_selfplay_rejects_other_games_and_sizes(capsys):
    code, _, err = run(capsys, "selfplay", "chess", "--games", "1")
    assert code == 2 and "only minzu" in err
    code, _, err = run(capsys, "selfplay", "minzu", "--size", "5", "--games", "1")
    assert code == 2 and "unknown board size" in err


def test_selfplay_runs_as_a_program():
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "selfplay", "minzu", "--size", "6",
                        "--games", "3", "--options", "slide=off"],
                       cwd=ROOT, capture_output=True, text=True,
                       env=flagfall_env())
    assert r.returncode == 0, r.stderr
    assert "invariant failures: 0" in r.stdout
