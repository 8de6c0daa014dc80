"""The firmware a device gets is exactly what it imports: for every board profile, the
app is started through firmware/main.py with the profile's real backend (against the
recorded stand-ins of `machine` and Blinka from test_hal_backends), in a fresh
interpreter, and the firmware modules it imported must equal tools/firmware_manifest.py's
list; a build for that board holds those files and nothing else (never fake hardware)."""
import glob
import json
import os
import subprocess
import sys

import pytest

from repo import ROOT
sys.path.insert(0, os.path.join(ROOT, "tools"))
import firmware_manifest  # noqa: E402

PROFILES = sorted(os.path.basename(p)[:-5] for p in glob.glob(os.path.join(ROOT, "boards", "*.json")))

TRACE = r'''
import importlib.util, json, sys, time
sys.path[:0] = [%(tests)r, %(firmware)r]
from test_hal_backends import fake_blinka, fake_machine, Log
sys.path.remove(%(firmware)r)            # main.py puts firmware/ on the path itself
for k in [k for k in sys.modules if k.split(".")[0] in ("device", "flagcore", "main")]:
    del sys.modules[k]                    # the stand-ins' module imported the app: start clean
log = Log()
sys.modules["machine"] = fake_machine(log)
sys.modules.update(fake_blinka(log))
time.ticks_ms = lambda: 0
time.sleep_us = lambda n: None
time.sleep_ms = lambda n: None


class Stream:
    def __init__(self):
        self.out = bytearray()

    def read(self):
        return None

    def write(self, b):
        self.out.extend(b)


spec = importlib.util.spec_from_file_location("main", %(main)r)
main = importlib.util.module_from_spec(spec)
sys.modules["main"] = main
spec.loader.exec_module(main)
st = Stream()
main.main(["--profile", %(profile)r], stream=st, steps=20)
assert st.out.startswith(b"HELLO") or b"HELLO" in st.out, st.out[:80]
mods = sorted(k for k in sys.modules if k.split(".")[0] in ("device", "flagcore", "main"))
print(json.dumps(mods))
'''


def imported_by_device(name):
    code = TRACE % {"tests": os.path.join(ROOT, "tests", "host"), "firmware": os.path.join(ROOT, "firmware"),
                    "main": os.path.join(ROOT, "firmware", "main.py"),
                    "profile": os.path.join(ROOT, "boards", name + ".json")}
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)          # only what main.py puts on the path itself
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", env=env,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", PROFILES)
def test_manifest_is_exactly_what_the_device_imports(name):
    profile = firmware_manifest.load(name)
    want = firmware_manifest.modules(profile, lazy=False)
    assert set(firmware_manifest.modules(profile)) - set(want) == set(firmware_manifest.LAZY)
    got = imported_by_device(name)
    assert got == want, "imported but not shipped: %s; shipped but never imported: %s" % (
        sorted(set(got) - set(want)), sorted(set(want) - set(got)))
    assert not [m for m in want if m.startswith("device.fake")]
    for m in ("flagcore.chess", "flagcore.draughts", "flagcore.minzu", "flagcore.minzu_player"):
        assert m not in want                  # no rules engine runs on the device (README)


def test_manifests_differ_by_the_drivers_each_board_names():
    pico = set(firmware_manifest.modules(firmware_manifest.load("pico-chess")))
    esp = set(firmware_manifest.modules(firmware_manifest.load("esp32-chess")))
    rpi = set(firmware_manifest.modules(firmware_manifest.load("rpi-chess")))
    assert pico - esp == {"device.drivers.matrix", "device.drivers.tm1637"}
    assert esp - pico == {"device.drivers.hc165", "device.drivers.ssd1306"}
    assert rpi - esp == {"device.drivers.mcp23017", "device.hal_blinka"}


def test_board_build_holds_exactly_the_manifest(tmp_path):
    out = tmp_path / "fw"
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mpy_compile.py"), "--board", "esp32-chess",
                        "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    files = sorted(os.path.relpath(os.path.join(d, f), out) for d, _, fs in os.walk(out) for f in fs)
    want = [f if f == "main.py" else f[:-3] + ".mpy"
            for f in firmware_manifest.files(firmware_manifest.load("esp32-chess"))]
    assert files == sorted(want + ["manifest.json"])
    assert json.loads((out / "manifest.json").read_text()) == {"board": "esp32-chess", "files": want}
    assert not [f for f in files if "fake" in f or "examples" in f]
    # a second build for another board replaces the first (no stale driver left behind)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mpy_compile.py"), "--board", "pico-chess",
                        "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (out / "device" / "drivers" / "ssd1306.mpy").exists()
    assert (out / "device" / "drivers" / "tm1637.mpy").exists()


def test_unknown_board_and_foreign_output_folder_are_refused(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "firmware_manifest.py"), "no-such-board"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "no board profile" in r.stderr and "pico-chess" in r.stderr
    (tmp_path / "notes.txt").write_text("mine")
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mpy_compile.py"), "--board", "pico-chess",
                        "--out", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode != 0 and "not a firmware build" in r.stderr
    assert (tmp_path / "notes.txt").exists()


def _imports(path, module_level=False):
    """Firmware modules a file imports anywhere (module level or inside functions), or at module level only."""
    import ast
    with open(path) as f:
        tree = ast.parse(f.read())
    out = set()
    for node in (tree.body if module_level else ast.walk(tree)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module)
            out.update("%s.%s" % (node.module, a.name) for a in node.names)
    return {m for m in out if m.split(".")[0] in ("device", "flagcore")}


LAZY_EXTENSIONS = (("flagcore.chess", "flagcore.chess960"), ("flagcore.wire", "flagcore.wirelimits"))


def test_no_import_cycle_in_the_firmware():
    fw = os.path.join(ROOT, "firmware")
    graph = {}
    for d, _, fs in os.walk(fw):
        for f in fs:
            if f.endswith(".py") and "examples" not in d:
                rel = os.path.relpath(os.path.join(d, f), fw)[:-3].replace(os.sep, ".")
                name = rel[:-len(".__init__")] if rel.endswith(".__init__") else rel
                graph[name] = _imports(os.path.join(d, f))
    for k in graph:
        graph[k] = {m for m in graph[k] if m in graph and m != k}
    # an optional extension imported inside a function only when it is needed (flagcore.chess loads
    # flagcore.chess960 for a Chess960 board, to spare a standard game its heap): not a cycle at import
    for parent, extension in LAZY_EXTENSIONS:
        assert extension not in _imports(os.path.join(fw, *parent.split(".")) + ".py", module_level=True)
        graph[parent].discard(extension)
    state = {}

    def visit(m, path):
        if state.get(m) == 1:
            raise AssertionError("import cycle: %s" % " -> ".join(path + [m]))
        if state.get(m) == 2:
            return
        state[m] = 1
        for n in sorted(graph[m]):
            visit(n, path + [m])
        state[m] = 2
    for m in sorted(graph):
        visit(m, [])
    assert "device.fake.fakehw" in graph["device.hal"]        # the graph sees function-level imports
    assert "device.hal" not in graph["device.fake.fakehw"]     # ... and the fake no longer imports the HAL
