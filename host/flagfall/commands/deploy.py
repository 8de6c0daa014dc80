"""Copy the compiled firmware and a board profile to a device with mpremote, then reset it.

    flagfall deploy --board pico-chess --port /dev/ttyACM0 --build build/firmware [--dry-run]

The build folder is what `make firmware` writes (tools/mpy_compile.py):
flagcore/ and device/ as .mpy files and main.py as source. On the device
they go to /lib/flagcore, /lib/device and /main.py, the profile to
/board.json; old copies of the two packages are removed first so no stale
.py can shadow a new .mpy. --dry-run prints the mpremote commands instead of
running them. Profiles for the Blinka backend (a Raspberry Pi) are not
deployed this way: run firmware/main.py on the Pi itself.
"""
import json
import os
import shlex
import shutil
import subprocess
import sys

NAME = "deploy"
HELP = "copy compiled firmware and a board profile to a device (mpremote) and reset it"

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGES = ("flagcore", "device")

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


def add_arguments(p):
    p.add_argument("--board", required=True, help="profile name in boards/ (e.g. pico-chess) or a .json path")
    p.add_argument("--port", required=True, help="serial port of the device (e.g. /dev/ttyACM0, COM3)")
    p.add_argument("--build", default="build/firmware", help="folder written by `make firmware`")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote commands, run nothing")


def profile_path(board):
    """Path of a profile given by name or path (relative to the current folder when inside it)."""
    if board.endswith(".json") or os.sep in board or "/" in board:
        return board
    path = os.path.join(ROOT, "boards", board + ".json")
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def plan(board, port, build, check_build=True):
    """The mpremote commands (argument lists) a deploy runs, in order."""
    if not port:
        raise DeployError("no serial port: pass --port (make deploy PORT=/dev/ttyACM0)")
    path = profile_path(board)
    try:
        with open(path) as f:
            profile = json.load(f)
    except OSError:
        raise DeployError("no board profile %s (see boards/)" % path)
    except ValueError as e:
        raise DeployError("profile %s is not JSON: %s" % (path, e))
    if profile.get("backend") != "machine":
        raise DeployError("profile %s uses the %r backend: run firmware/main.py --profile %s on that "
                          "machine instead of deploying with mpremote" % (
                              profile.get("name", board), profile.get("backend"), path))
    if check_build:
        for need in ("main.py", os.path.join("flagcore", "__init__.mpy"), os.path.join("device", "app.mpy")):
            if not os.path.exists(os.path.join(build, need)):
                raise DeployError("%s has no %s: run `make firmware` first" % (build, need))
    conn = ["mpremote", "connect", port]
    return [
        conn + ["exec", PREPARE],
        conn + ["fs", "cp", "-r"] + [os.path.join(build, p) for p in PACKAGES] + [":/lib/"],
        conn + ["fs", "cp", os.path.join(build, "main.py"), ":/main.py"],
        conn + ["fs", "cp", path, ":/board.json"],
        conn + ["reset"],
    ]


def _mpremote():
    exe = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return exe if os.path.exists(exe) else (shutil.which("mpremote") or "mpremote")


def run(args):
    try:
        cmds = plan(args.board, args.port, args.build, check_build=not args.dry_run)
    except DeployError as e:
        print("deploy: %s" % e, file=sys.stderr)
        return 2
    for cmd in cmds:
        print(shlex.join(cmd), flush=True)
        if args.dry_run:
            continue
        r = subprocess.run([_mpremote()] + cmd[1:])
        if r.returncode:
            print("deploy: mpremote failed (exit %d); is the device on %s?" % (r.returncode, args.port),
                  file=sys.stderr)
            return 1
    if not args.dry_run:
        print("deploy: %s is on %s and has been reset" % (args.board, args.port))
    return 0
