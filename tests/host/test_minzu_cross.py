"""The same minzu self-play games, decision for decision, on CPython and inside MicroPython."""
import os
import subprocess

from flagcore import minzu as core
from flagcore import minzu_player as player

from repo import ROOT
CASES = (("6", 11), ("7x8", 12), ("9", 13), ("14", 14))

SCRIPT = """
from flagcore import minzu as mz, minzu_player as mp
for size, seed in %r:
    t = []
    g, n, f = mp.play_game(size, seed, mz.Ruleset(quiet_draw=100), True, t)
    print("GAME", size, seed, g.to_text().replace(" ", "_"), len(f), " ".join(t))
"""


def test_games_are_identical_on_both_interpreters(tmp_path):
    script = tmp_path / "cross.py"
    script.write_text(SCRIPT % (CASES,))
    r = subprocess.run(["node", os.path.join(ROOT, "tests/mp/run.mjs"), "--script", str(script)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    lines = [x for x in r.stdout.splitlines() if x.startswith("GAME ")]
    assert len(lines) == len(CASES)
    for line, (size, seed) in zip(lines, CASES):
        _, s, sd, final, nf, moves = line.split(" ", 5)
        t = []
        g, n, f = player.play_game(size, seed, core.Ruleset(quiet_draw=100), True, t)
        assert (s, int(sd)) == (size, seed)
        assert nf == "0" and f == []
        assert moves.split(" ") == t
        assert final == g.to_text().replace(" ", "_")
