"""The host package works installed as a wheel, away from the repository (package data included)."""
import os
import subprocess
import sys

from repo import ROOT


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, (cmd, r.stdout[-2000:], r.stderr[-2000:])
    return r.stdout


def test_wheel_installs_into_a_fresh_venv_and_runs(tmp_path):
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), ROOT])
    wheels = list(dist.glob("flagfall-*.whl"))
    assert len(wheels) == 1, wheels
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", str(venv)])
    py = str(venv / "bin" / "python")
    run([py, "-m", "pip", "install", "-q", str(wheels[0])])
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    out = run([str(venv / "bin" / "flagfall"), "moves", "chess"], cwd=away, env=env)
    assert out.split() == sorted(out.split()) and len(out.split()) == 20 and "e2e4" in out.split()
    # package data (seeds, board profiles, demo games) and the device package the simulator runs
    probe = ("import flagfall, sys\n"
             "from flagfall import presets, sim, seeds\n"
             "from importlib import resources\n"
             "assert 'site-packages' in flagfall.__file__, flagfall.__file__\n"
             "assert presets.time_control('fide-blitz') is not None\n"
             "assert sim.load_profile('pico-chess')['game'] == 'chess'\n"
             "assert resources.files('flagfall.demo_games').joinpath('chess.pgn').read_text().startswith('[')\n"
             "print('ok')\n")
    assert run([py, "-c", probe], cwd=away, env=env).strip() == "ok"
