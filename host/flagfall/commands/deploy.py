"""Copy a board's compiled firmware and its profile to a device with mpremote, then reset it.

    flagfall deploy --board pico-chess [--port auto] [--build build/firmware/pico-chess] [--dry-run]

The build folder is what `make firmware BOARD=pico-chess` writes
(tools/mpy_compile.py --board): only the modules that board's device imports
(tools/firmware_manifest.py), flagcore/ and device/ as .mpy files, main.py as
source, and manifest.json naming the board. Everything happens in ONE mpremote
session: remove old copies of /lib/flagcore and /lib/device (no stale .py may
shadow a new .mpy), copy the packages to /lib, main.py to /main.py, the profile
to /board.json, and reset. --port auto (the default) is mpremote's own
detection (the first USB serial device); `mpremote connect list` shows the
ports. --dry-run prints the command and runs nothing; the build must exist
either way. Profiles for the Blinka backend (a Raspberry Pi) are not deployed
this way: run firmware/main.py on the Pi itself.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
from typing import Optional

NAME = "deploy"
HELP = "copy a board's compiled firmware and profile to a device (one mpremote session) and reset it"

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGES = ("flagcore", "device")
PORTS_HINT = "`mpremote connect list` shows the serial ports"

# Runs on the device: remove old package folders, make sure /lib exists.
PREPARE = (
    "import os\n"
    "def rm(p):\n"
    " try:\n"
    "  if os.stat(p)[0] & 0x4000:\n"
    "   for n in os.listdir(p):\n"
    "    rm(p + \"/\" + n)\n"
    "   os.rmdir(p)\n"
    "  else:\n"
    "   os.remove(p)\n"
    " except OSError:\n"
    "  pass\n"
    "for p in (\"/lib/flagcore\", \"/lib/device\"):\n"
    " rm(p)\n"
    "try:\n"
    " os.mkdir(\"/lib\")\n"
    "except OSError:\n"
    " pass\n"
)


class DeployError(Exception):
    """A deploy that cannot go ahead; the message says what to do."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--board", required=True, help="profile name in boards/ (e.g. pico-chess) or a .json path")
    p.add_argument("--port", default="auto",
                   help="serial port of the device (/dev/ttyACM0, COM3), or auto (default): mpremote picks the "
                        "first USB serial device; " + PORTS_HINT)
    p.add_argument("--build", help="folder written by `make firmware BOARD=...` (default build/firmware/BOARD)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote command, run nothing")


def profile_path(board: str) -> str:
    """Path of a profile given by name or path (relative to the current folder when inside it)."""
    if board.endswith(".json") or os.sep in board or "/" in board:
        return board
    path = os.path.join(ROOT, "boards", board + ".json")
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def default_build(board: str) -> str:
    """build/firmware/<profile name> (relative to the current folder when inside the project)."""
    name = os.path.basename(board)[:-5] if board.endswith(".json") else board
    path = os.path.join(ROOT, "build", "firmware", name)
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def check_build(build: str, name: str) -> None:
    """Refuse a build folder that is missing, incomplete or made for another board."""
    if not os.path.isdir(build):
        raise DeployError("no build folder %s: run `make firmware BOARD=%s` first" % (build, name))
    try:
        with open(os.path.join(build, "manifest.json")) as f:
            built_for = json.load(f).get("board")
    except (OSError, ValueError):
        raise DeployError("%s has no manifest.json (not a board build): run `make firmware BOARD=%s`"
                          % (build, name))
    if built_for != name:
        raise DeployError("%s was built for %s, not %s: run `make firmware BOARD=%s`"
                          % (build, built_for, name, name))
    for need in ("main.py", os.path.join("flagcore", "__init__.mpy"), os.path.join("device", "app.mpy")):
        if not os.path.exists(os.path.join(build, need)):
            raise DeployError("%s has no %s: run `make firmware BOARD=%s` again" % (build, need, name))


def plan(board: str, port: str, build: Optional[str] = None, check: bool = True) -> list[str]:
    """The one mpremote command (argument list) a deploy runs: connect + exec + cp + cp + cp + reset."""
    if not port:
        raise DeployError("no serial port: pass --port auto (mpremote finds the device) or a port; " + PORTS_HINT)
    path = profile_path(board)
    try:
        with open(path) as f:
            profile = json.load(f)
    except OSError:
        raise DeployError("no board profile %s (see boards/)" % path)
    except ValueError as e:
        raise DeployError("profile %s is not JSON: %s" % (path, e))
    name = profile.get("name", board)
    if profile.get("backend") != "machine":
        raise DeployError("profile %s uses the %r backend: run firmware/main.py --profile %s on that "
                          "machine instead of deploying with mpremote" % (name, profile.get("backend"), path))
    build = build or default_build(board)
    if check:
        check_build(build, name)
    return (["mpremote", "connect", port, "exec", PREPARE,
             "+", "fs", "cp", "-r"] + [os.path.join(build, p) for p in PACKAGES] + [":/lib/",
             "+", "fs", "cp", os.path.join(build, "main.py"), ":/main.py",
             "+", "fs", "cp", path, ":/board.json",
             "+", "reset"])


def _mpremote() -> str:
    exe = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return exe if os.path.exists(exe) else (shutil.which("mpremote") or "mpremote")


def run(args: argparse.Namespace) -> int:
    try:
        cmd = plan(args.board, args.port, args.build)
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 2
    print(shlex.join(cmd), flush=True)
    if args.dry_run:
        return 0
    r = subprocess.run([_mpremote()] + cmd[1:])
    if r.returncode:
        where = "plugged in (--port auto found none?)" if args.port == "auto" else "on %s" % args.port
        print("deploy: mpremote failed (exit %d); is the device %s? %s" % (r.returncode, where, PORTS_HINT),
              file=sys.stderr)
        return 1
    print("deploy: %s is on %s and has been reset" % (args.board, args.port))
    return 0
