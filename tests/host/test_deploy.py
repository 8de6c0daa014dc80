"""`flagfall deploy`: the exact mpremote commands of a dry run, and refusals."""
import os
import subprocess

import pytest

from flagfall import cli
from flagfall.commands import deploy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fake_build(tmp_path):
    b = tmp_path / "build"
    (b / "flagcore").mkdir(parents=True)
    (b / "device").mkdir()
    (b / "flagcore" / "__init__.mpy").write_bytes(b"M")
    (b / "device" / "app.mpy").write_bytes(b"M")
    (b / "main.py").write_text("# main\n")
    return b


def test_dry_run_prints_the_exact_commands(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc = cli.main(["deploy", "--board", "pico-chess", "--port", "/dev/ttyACM0",
                   "--build", "build/firmware", "--dry-run"])
    assert rc == 0
    out = capsys.readouterr().out
    prepare = "mpremote connect /dev/ttyACM0 exec '%s'" % deploy.PREPARE
    assert out == prepare + "\n" + "\n".join([
        "mpremote connect /dev/ttyACM0 fs cp -r build/firmware/flagcore build/firmware/device :/lib/",
        "mpremote connect /dev/ttyACM0 fs cp build/firmware/main.py :/main.py",
        "mpremote connect /dev/ttyACM0 fs cp boards/pico-chess.json :/board.json",
        "mpremote connect /dev/ttyACM0 reset",
    ]) + "\n"


def test_a_real_run_calls_mpremote_in_order_and_stops_on_failure(tmp_path, monkeypatch, capsys):
    build = fake_build(tmp_path)
    calls = []

    class R:
        def __init__(self, rc):
            self.returncode = rc

    def fake_run(cmd, *a, **k):
        calls.append(cmd)
        return R(1 if cmd[-1] == ":/main.py" else 0)

    monkeypatch.setattr(subprocess, "run", fake_run)
    rc = cli.main(["deploy", "--board", "pico-draughts10", "--port", "COM3", "--build", str(build)])
    assert rc == 1
    assert [c[1:4] for c in calls] == [["connect", "COM3", "exec"], ["connect", "COM3", "fs"],
                                       ["connect", "COM3", "fs"]]
    assert calls[0][0].endswith("mpremote")
    assert "mpremote failed" in capsys.readouterr().err


def test_refusals(tmp_path, capsys):
    with pytest.raises(deploy.DeployError, match="run `make firmware` first"):
        deploy.plan("pico-chess", "/dev/ttyACM0", str(tmp_path / "nothing"))
    with pytest.raises(deploy.DeployError, match="no serial port"):
        deploy.plan("pico-chess", "", str(fake_build(tmp_path)))
    with pytest.raises(deploy.DeployError, match="no board profile"):
        deploy.plan("no-such-board", "x", str(tmp_path), check_build=False)
    with pytest.raises(deploy.DeployError, match="'blinka' backend"):
        deploy.plan("rpi-chess", "x", str(tmp_path), check_build=False)
    assert cli.main(["deploy", "--board", "rpi-chess", "--port", "x", "--dry-run"]) == 2


def test_prepare_script_runs_on_micropython(tmp_path):
    # the exec step, inside real MicroPython whose /lib holds the packages as on a device
    script = tmp_path / "prep.py"
    script.write_text(
        "import os\n"
        "assert 'flagcore' in os.listdir('/lib') and 'device' in os.listdir('/lib')\n"
        + deploy.PREPARE +
        "assert 'flagcore' not in os.listdir('/lib') and 'device' not in os.listdir('/lib')\n"
        "print('prepare ok')\n"
        + deploy.PREPARE +               # a second deploy finds nothing to remove: no error
        "print('again ok')\n")
    r = subprocess.run(["node", os.path.join(ROOT, "tests", "mp", "run.mjs"), "--script", str(script)],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "prepare ok" in r.stdout and "again ok" in r.stdout
