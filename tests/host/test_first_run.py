"""`make run` as a newcomer meets it: a build without setuptools warnings, a Ctrl-C hint, a port in use
explained with the make variable, and a second run that starts the demo afresh."""
import fnmatch
import os
import re
import signal
import socket
import subprocess
import sys
import tomllib

from repo import ROOT, flagfall_env


def _env(**extra):
    env = flagfall_env()
    env.pop("FLAGFALL_PORT_HINT", None)
    env.update(extra)
    return env


def test_every_folder_of_package_data_is_a_listed_package_and_the_license_is_spdx():
    conf = tomllib.load(open(os.path.join(ROOT, "pyproject.toml"), "rb"))
    assert conf["project"]["license"] == "MIT"          # an SPDX expression, not the deprecated table
    st = conf["tool"]["setuptools"]
    packages, dirs, data = set(st["packages"]), st["package-dir"], st["package-data"]
    base = os.path.join(ROOT, dirs["flagfall"])
    for folder, subdirs, files in os.walk(base):
        subdirs[:] = [d for d in subdirs if d != "__pycache__"]
        rel = os.path.relpath(folder, base)
        name = "flagfall" if rel == "." else "flagfall." + rel.replace(os.sep, ".")
        if not files:
            continue
        assert name in packages, "%s holds files but is not in [tool.setuptools] packages" % name
        for f in files:
            if not f.endswith(".py"):
                assert any(fnmatch.fnmatch(f, pat) for pat in data.get(name, [])), \
                    "%s/%s is not in [tool.setuptools.package-data] %r" % (name, f, name)


def test_the_wheel_builds_without_setuptools_warnings(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), ROOT],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout + r.stderr
    assert "BuildBackendWarning" not in out and "SetuptoolsDeprecationWarning" not in out, out[-3000:]


def test_make_run_tells_the_event_which_make_variable_sets_the_port():
    r = subprocess.run(["make", "-n", "run", "WEB_PORT=8123"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    line = [x for x in r.stdout.splitlines() if "flagfall event events/demo.toml" in x]
    assert line and "--port 8123" in line[0] and 'FLAGFALL_PORT_HINT="make run WEB_PORT=' in line[0], r.stdout


def test_a_port_in_use_names_what_to_change(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        base = [sys.executable, "-m", "flagfall.cli", "event", "--demo", "--port", str(port), "--out", str(tmp_path)]
        r = subprocess.run(base, capture_output=True, text=True, timeout=60, env=_env())
        assert r.returncode == 2 and "(try --port)" in r.stderr, r.stderr
        r = subprocess.run(base, capture_output=True, text=True, timeout=60,
                           env=_env(FLAGFALL_PORT_HINT="make run WEB_PORT=<another port>"))
        assert r.returncode == 2 and "%d" % port in r.stderr and "(try make run WEB_PORT=<another port>)" in r.stderr


def test_the_demo_says_ctrl_c_stops_it_and_a_second_run_starts_afresh(tmp_path):
    out = str(tmp_path / "event")

    def demo():
        p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "event", "--demo", "--port", "0", "--out", out,
                              "--speed", "20", "--think", "0.2", "--verbose"],   # a line per move
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
        lines = []
        for line in p.stdout:
            lines.append(line)
            if line.startswith("Ctrl-C stops it") or len(lines) > 50:
                break
        for line in p.stdout:           # until a few moves are made
            lines.append(line)
            if re.match(r"board \d: move 3 ", line):
                break
        p.send_signal(signal.SIGINT)
        rest, err = p.communicate(timeout=30)
        return p.returncode, lines + rest.splitlines(True), err

    code, lines, err = demo()
    assert code == 0 and "Traceback" not in err, err
    assert any(x.startswith("Ctrl-C stops it") for x in lines), lines
    assert os.path.exists(os.path.join(out, "round-1", "board-1.journal"))
    token = open(os.path.join(out, "arbiter-token")).read()
    code, lines, err = demo()
    assert open(os.path.join(out, "arbiter-token")).read() == token      # an open dashboard keeps working
    # the simulated boards begin a new game each run: the earlier journals are kept aside, not resumed
    assert code == 0 and "Traceback" not in err and "illegal" not in "".join(lines), (err, lines)
    assert any("moved to %s.previous" % out in x for x in lines)
    assert os.path.exists(os.path.join(out + ".previous", "round-1", "board-1.journal"))
    assert not any("resumed" in x for x in lines)
