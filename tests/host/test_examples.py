"""Every driver has firmware/examples/<driver>_simpletest.py, and each runs against the fake
hardware, under CPython and inside MicroPython, checking what the part shows or reads."""
import glob
import os
import subprocess
import sys

import pytest

from repo import ROOT
DRIVERS = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(ROOT, "firmware", "device", "drivers", "*.py"))
                 if not p.endswith("__init__.py"))
EXAMPLES = os.path.join(ROOT, "firmware", "examples")


def test_every_driver_has_a_simpletest():
    have = sorted(os.path.basename(p)[:-len("_simpletest.py")]
                  for p in glob.glob(os.path.join(EXAMPLES, "*_simpletest.py")))
    assert DRIVERS and have == DRIVERS, "drivers without an example: %s; examples without a driver: %s" % (
        sorted(set(DRIVERS) - set(have)), sorted(set(have) - set(DRIVERS)))


@pytest.mark.parametrize("driver", DRIVERS)
def test_example_runs_on_cpython(driver):
    path = os.path.join(EXAMPLES, driver + "_simpletest.py")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware"))
    r = subprocess.run([sys.executable, path], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "%s_simpletest ok" % driver


@pytest.mark.parametrize("driver", DRIVERS)
def test_example_runs_on_micropython(driver):
    path = os.path.join(EXAMPLES, driver + "_simpletest.py")
    r = subprocess.run(["node", os.path.join(ROOT, "tests", "mp", "run.mjs"), "--script", path],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == "%s_simpletest ok" % driver
