"""The MicroPython harness itself: it must fail on a core module MicroPython cannot import."""
import os
import shutil
import subprocess

from repo import ROOT


def _run(core_dir, *args):
    env = dict(os.environ, FLAGFALL_CORE_DIR=str(core_dir))
    return subprocess.run(["node", os.path.join(ROOT, "tests/mp/run.mjs"), *args],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)


def test_incompatible_core_module_fails_the_run(tmp_path):
    core = tmp_path / "flagcore"
    shutil.copytree(os.path.join(ROOT, "firmware/flagcore"), core)
    (core / "uses_dataclasses.py").write_text("from dataclasses import dataclass\n")
    r = _run(core, "test_clock")
    assert r.returncode != 0
    assert "FAIL import flagcore.uses_dataclasses" in r.stdout
    assert "micropython:" in r.stdout and " 1 failed" in r.stdout


def test_real_core_passes_and_counts(tmp_path):
    r = _run(os.path.join(ROOT, "firmware/flagcore"), "test_clock")
    assert r.returncode == 0, r.stdout + r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert last.startswith("micropython: ") and last.endswith(" 0 failed")
    assert int(last.split()[1]) >= 30
