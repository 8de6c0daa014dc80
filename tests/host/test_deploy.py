"""`flagfall deploy` and `make deploy`: one chained mpremote session (exact dry-run command
line, parsed by mpremote's own command parsers), PORT=auto, refusals (a missing or foreign
build folder is an error, also in a dry run), and a deploy that needs only the venv."""
import json
import os
import shlex
import subprocess

import pytest

from flagfall import cli
from flagfall.commands import deploy

from repo import ROOT


def fake_build(tmp_path, board="pico-chess"):
    b = tmp_path / "build"
    (b / "flagcore").mkdir(parents=True)
    (b / "device").mkdir()
    (b / "flagcore" / "__init__.mpy").write_bytes(b"M")
    (b / "device" / "app.mpy").write_bytes(b"M")
    (b / "main.py").write_text("# main\n")
    (b / "manifest.json").write_text(json.dumps({"board": board, "files": []}))
    return b


def test_dry_run_prints_one_chained_mpremote_session(capsys, monkeypatch, tmp_path):
    build = fake_build(tmp_path)
    monkeypatch.chdir(ROOT)
    rc = cli.main(["deploy", "--board", "pico-chess", "--port", "/dev/ttyACM0", "--build", str(build), "--dry-run"])
    assert rc == 0
    out = capsys.readouterr().out
    want = ["mpremote", "connect", "/dev/ttyACM0", "exec", deploy.PREPARE,
            "+", "fs", "cp", "-r", "%s/flagcore" % build, "%s/device" % build, ":/lib/",
            "+", "fs", "cp", "%s/main.py" % build, ":/main.py",
            "+", "fs", "cp", "boards/pico-chess.json", ":/board.json",
            "+", "reset"]
    assert out == shlex.join(want) + "\n"          # one line: one session, not five
    assert shlex.split(out) == want


def test_port_defaults_to_mpremote_auto_detection_and_build_to_the_board_folder(monkeypatch):
    monkeypatch.chdir(ROOT)
    cmd = deploy.plan("pico-chess", "auto", check=False)
    assert cmd[:3] == ["mpremote", "connect", "auto"]
    assert "build/firmware/pico-chess/flagcore" in cmd and "build/firmware/pico-chess/main.py" in cmd
    args = cli.build_parser().parse_args(["deploy", "--board", "pico-chess"])
    assert args.port == "auto" and args.build is None
    import argparse
    p = argparse.ArgumentParser()
    deploy.add_arguments(p)
    assert "mpremote connect list" in p.format_help().replace("\n", " ").replace("  ", " ")


def test_missing_build_folder_is_an_error_even_in_a_dry_run(tmp_path, capsys):
    rc = cli.main(["deploy", "--board", "pico-chess", "--build", str(tmp_path / "nothing"), "--dry-run"])
    assert rc == 2
    err = capsys.readouterr().err
    assert "no build folder" in err and "make firmware BOARD=pico-chess" in err


def test_a_build_for_another_board_is_refused(tmp_path):
    build = fake_build(tmp_path, board="esp32-chess")
    with pytest.raises(deploy.DeployError, match="built for esp32-chess, not pico-chess"):
        deploy.plan("pico-chess", "auto", str(build))
    (build / "manifest.json").unlink()
    with pytest.raises(deploy.DeployError, match="no manifest.json"):
        deploy.plan("pico-chess", "auto", str(build))


def test_a_real_run_is_one_mpremote_call_and_a_failure_says_how_to_find_the_port(tmp_path, monkeypatch, capsys):
    build = fake_build(tmp_path, board="pico-draughts10")
    calls = []

    class R:
        def __init__(self, rc):
            self.returncode = rc

    def fake_run(cmd, *a, **k):
        calls.append(cmd)
        return R(1)

    monkeypatch.setattr(subprocess, "run", fake_run)
    rc = cli.main(["deploy", "--board", "pico-draughts10", "--port", "COM3", "--build", str(build)])
    assert rc == 1
    assert len(calls) == 1
    assert calls[0][0].endswith("mpremote") and calls[0][1:3] == ["connect", "COM3"]
    assert calls[0][-2:] == ["+", "reset"]
    err = capsys.readouterr().err
    assert "mpremote failed" in err and "mpremote connect list" in err


def test_refusals(tmp_path, capsys):
    with pytest.raises(deploy.DeployError, match="run `make firmware BOARD=pico-chess` first"):
        deploy.plan("pico-chess", "/dev/ttyACM0", str(tmp_path / "nothing"))
    with pytest.raises(deploy.DeployError, match="no serial port.*mpremote connect list"):
        deploy.plan("pico-chess", "", str(fake_build(tmp_path)))
    with pytest.raises(deploy.DeployError, match="no board profile"):
        deploy.plan("no-such-board", "x", str(tmp_path), check=False)
    with pytest.raises(deploy.DeployError, match="'blinka' backend"):
        deploy.plan("rpi-chess", "x", str(tmp_path), check=False)
    assert cli.main(["deploy", "--board", "rpi-chess", "--port", "x", "--dry-run"]) == 2


def test_the_chained_command_parses_with_mpremotes_own_parsers(tmp_path):
    # mpremote's main loop, without a device: every segment must be a command its parser accepts
    import argparse
    from mpremote import main as mpm
    cmd = deploy.plan("pico-chess", "auto", str(fake_build(tmp_path)))
    mpm.prepare_command_expansions(type("NoUserConfig", (), {"commands": {}})())   # no ~/.config/mpremote
    args = cmd[1:]
    seen = []
    while args:
        if args[0] == "+":
            args.pop(0)
            continue
        mpm.do_command_expansion(args)
        name = args.pop(0)
        _, parser_func = mpm._COMMANDS[name]
        end = args.index("+") if "+" in args else len(args)
        p = parser_func()
        p.add_argument("next_command", nargs=argparse.REMAINDER)
        parsed = p.parse_args(args[:end])
        seen.append(name)
        args = parsed.next_command + args[end:]
    assert seen == ["connect", "exec", "fs", "fs", "fs", "exec"]   # `reset` expands to an exec


def test_make_deploy_needs_only_the_venv():
    r = subprocess.run(["make", "-n", "-B", "deploy", "BOARD=esp32-chess", "PORT="], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    for never in ("npm", "apt-get", "node_modules", "chromium", "mosquitto"):
        assert never not in out, (never, out)
    assert "pip install --quiet -e '.[firmware]'" in out
    assert "tools/mpy_compile.py --board esp32-chess --out build/firmware/esp32-chess" in out
    assert '--port "auto" --build build/firmware/esp32-chess' in out


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
