"""Self-play soak in the test suite: hundreds of games with invariant checks after every decision.

The full soak (1,000 games per board size) is tools/bench_minzu.py.
"""
import pytest

from flagcore import minzu as core
from flagfall.commands import selfplay

GAMES = {"6": 150, "7": 120, "7x8": 100, "8": 100, "9": 80, "14": 20}


@pytest.mark.parametrize("size", core.SIZES)
def test_soak(size):
    s = selfplay.soak(size, GAMES[size], seed=1000)
    assert s["failures"] == 0, s["first_failures"]
    assert s["games"] == GAMES[size]
    assert s["light"] + s["dark"] + s["draws"] == s["games"]
    assert s["decisions"] > s["games"] * core.Game(size).n


@pytest.mark.parametrize("options", ["slide=off", "compulsory=on", "flying=off", "slide=off,compulsory=on"])
def test_soak_with_options(options):
    for size in ("6", "9"):
        s = selfplay.soak(size, 15, seed=7, options=options)
        assert s["failures"] == 0, (options, s["first_failures"])
