"""Clock benchmarks: update cost on CPython and MicroPython, 6-hour accuracy run on both."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BODY = os.path.join(ROOT, "tools", "mpbench_clock.py")

sys.path[:0] = [os.path.join(ROOT, "firmware")]
r1 = subprocess.run([sys.executable, BODY], cwd=ROOT, env=dict(os.environ, PYTHONPATH=os.path.join(ROOT, "firmware")))
r2 = subprocess.run(["node", os.path.join(ROOT, "tests/mp/run.mjs"), "--script", BODY], cwd=ROOT)
sys.exit(1 if r1.returncode or r2.returncode else 0)
