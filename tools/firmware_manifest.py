"""The firmware files one board needs: exactly the modules its device imports, nothing else.

    python tools/firmware_manifest.py BOARD [--json]     # BOARD: a name in boards/ or a .json path

Prints the files (relative to firmware/), one per line. What a device
imports is: main.py and the app's core (ALWAYS below), the HAL backend of the
profile's `backend`, and the drivers its sensors, displays, buttons, buzzer
and LEDs name (device.factory.modules, the same table the factory builds
from). Never the fake hardware (device/fake/), the examples, or a rules
engine: the device runs no game rules (README: "Which rules engines run on
the device"). tests/host/test_firmware_manifest.py runs the app on every
profile with its real backend (against stand-ins of `machine` and Blinka)
and checks that the modules it imports are exactly these.
`make firmware BOARD=...` compiles this list (tools/mpy_compile.py --board).
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
if FIRMWARE not in sys.path:
    sys.path.insert(0, FIRMWARE)

from device import factory, hal  # noqa: E402  (pure Python: no hardware touched)

# imported on every device: the entry point, the app and what it always uses
ALWAYS = ("main", "flagcore", "flagcore._compat", "flagcore.ticks", "flagcore.timecontrol", "flagcore.clock",
          "flagcore.display", "flagcore.wire", "flagcore.scan",
          "device", "device.app", "device.buses", "device.hal", "device.presets",
          "device.stdio", "device.drivers")

# shipped on every device but imported only while in use (and dropped again): the clock's menu
# (device/menu.py, while the mode button's menu is open, the clock stopped) and the self-test
# (device/selftest.py), entered from that menu or by the host frame TEST. A running game never
# holds them in the heap; tools/bench_firmware.py measures a game without them and each of them apart.
# The factory (device/factory.py) likewise: imported while the app builds its parts at boot, then dropped;
# so is device/resume.py (a game brought back after a power loss), and device/view.py (the settings
# view, mode while the clock runs) while the view shows; device/tcentry.py (a new control entered with
# the buttons) takes the menu's turn in the heap while it is open, and device/slots.py (the user's stored
# controls) is imported while the menu reads them or a control is stored; device/arbiter.py (the
# arbiter's entries over a game under way) takes the list's turn too.
LAZY = ("device.factory", "device.menu", "device.selftest", "device.view", "device.resume", "device.tcentry",
        "device.slots", "device.arbiter")

# game -> rules-engine modules the device imports: none. The device reports square
# events and keeps the clock; the bridge on the host decides legality (README, "Which
# rules engines run on the device"). An engine added here without the app importing
# it (or the other way round) fails tests/host/test_firmware_manifest.py.
RULES_ON_DEVICE = {}


def profile_path(board):
    """boards/<board>.json for a name, or the path given."""
    if board.endswith(".json") or os.sep in board or "/" in board:
        return board
    return os.path.join(ROOT, "boards", board + ".json")


def load(board):
    """The profile dict of a board name or path; ValueError with a clear message when missing."""
    path = profile_path(board)
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        names = sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "boards")) if n.endswith(".json"))
        raise ValueError("no board profile %s (profiles: %s)" % (path, ", ".join(names)))


def modules(profile, lazy=True):
    """The dotted module names a device running this profile imports, sorted (lazy=False: not LAZY)."""
    backend = profile.get("backend", "machine")
    if backend not in hal.BACKENDS:
        raise ValueError("profile %s: backend %r has no device module (%s)" % (
            profile.get("name", "?"), backend, ", ".join(sorted(hal.BACKENDS))))
    rules = set(RULES_ON_DEVICE.get(profile.get("game"), ()))
    return sorted(set(ALWAYS) | {hal.BACKENDS[backend]} | set(factory.modules(profile)) | rules
                  | (set(LAZY) if lazy else set()))


def module_file(name):
    """firmware/-relative file of a module: a package is its __init__.py."""
    rel = name.replace(".", "/")
    if os.path.isdir(os.path.join(FIRMWARE, rel)):
        return rel + "/__init__.py"
    return rel + ".py"


def files(profile):
    """The firmware/-relative .py files of the manifest, sorted."""
    out = sorted(module_file(m) for m in modules(profile))
    for f in out:
        if not os.path.exists(os.path.join(FIRMWARE, f)):
            raise ValueError("manifest names %s, which does not exist" % f)
        if f.startswith("device/fake/"):
            raise ValueError("manifest names fake hardware %s" % f)
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("board", help="profile name in boards/ (e.g. pico-chess) or a .json path")
    ap.add_argument("--json", action="store_true", help="print {board, files} as JSON")
    args = ap.parse_args(argv)
    try:
        p = load(args.board)
        fs = files(p)
    except ValueError as e:
        print("firmware_manifest: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"board": p.get("name", args.board), "files": fs}, indent=1))
    else:
        print("\n".join(fs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
