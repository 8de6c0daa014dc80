"""The firmware on a microcontroller build of MicroPython: the bare-metal `qemu` port, Cortex-M under QEMU.

    python tools/mcu.py test      # `make mcu-test`: build (cached in build/mcu), then on both CPUs every
                                  # core test from .mpy, every profile's app from .mpy and frozen under each
                                  # target's heap, the MCU-only tests (ticks wrap, single floats, scan cost)
    python tools/mcu.py bench     # the figures `make bench` prints (peak heaps per profile, target and CPU;
                                  # scan + debounce instruction counts)
    python tools/mcu.py build     # only the builds

Why: a Pico or an ESP32 differs from the WebAssembly build the other MicroPython tests use in a 32-bit ARM
(or Xtensa) instruction set, single-precision floats, `ticks_ms()` wrapping at 2**30, a fixed heap much
smaller than a browser's, and code frozen in flash. MicroPython's own CI answers that with its `qemu` port;
its source (v1.27.0) is copied from ../shared/micropython-1.27.0 (or $MICROPYTHON_SRC, or a clone of the
v1.27.0 tag) into build/mcu/ and built there: mpy-cross, then the port for each CPU (CPUS) and each target's
heap (TARGETS), with the firmware frozen in (FROZEN_MANIFEST) as a production image carries it.

The QEMU REPL is a pty; mpremote's transport drives it (raw REPL); the files the firmware and the tests read
are frozen into the image and served at /files (tools/mcufs.py).
Every QEMU process started here is stopped by its process id.
"""
import argparse
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, "build", "mcu")
MP_TAG = "v1.27.0"
MP_SRC_DEFAULT = os.path.join(ROOT, "..", "shared", "micropython-1.27.0")
MP_GIT = "https://github.com/micropython/micropython"

# The CPUs QEMU emulates with MicroPython's qemu port. The Cortex-M0 runs thumb-1 only, like the RP2040's
# two Cortex-M0+ cores; the Cortex-M3 runs thumb-2 (as an ESP32's Xtensa LX6, it is a 32-bit core with
# single-precision floats in software: no FPU is used by either build, MICROPY_FLOAT_IMPL=float).
# hz: the SysTick clock of QEMU's model of the board (hw/arm/mps2.c SYSCLK_FRQ, hw/arm/nrf51_soc.c HCLK_FRQ);
# with -icount shift=0 each instruction advances the virtual clock by 1 ns, so SysTick counts convert to
# instructions as counts * 1e9 / hz.
CPUS = {
    "cortex-m3": {"board": "MPS2_AN385", "march": "armv7m", "hz": 25000000,
                  "qemu": ["-machine", "mps2-an385"]},
    "cortex-m0": {"board": "MICROBIT", "march": "armv6m", "hz": 16000000,
                  "qemu": ["-machine", "microbit", "-global", "nrf51-soc.flash-size=1048576",
                           "-global", "nrf51-soc.sram-size=262144"]},
}

# The heap a stock MicroPython build leaves to Python on each target (MICROPY_HEAP_SIZE of the builds here):
TARGETS = {
    # ports/rp2/memmap_mp_rp2040.ld: the GC heap is the RP2040's 256 KB main SRAM less .data (which holds
    # gc.c, vm.c and parse.c copied to RAM for speed), .bss and the C heap (__GcHeapStart = __bss_end__ +
    # __micropy_c_heap_size__, __GcHeapEnd = end of RAM); a stock Pico build reports about 192 KB.
    "rp2040": {"heap": 192 * 1024, "clock_mhz": 125,
               "source": "ports/rp2/memmap_mp_rp2040.ld (256 KB SRAM less .data, .bss and the C heap)"},
    # ports/esp32/main.c: without SPIRAM the heap is min(largest free 8-bit block, half the IDF heap), about
    # 110 KB on an ESP32-WROOM (a figure architecture.md states as well); later versions may add areas
    # to it on demand (MICROPY_GC_SPLIT_HEAP_AUTO), which only makes this figure the floor.
    "esp32": {"heap": 110 * 1024, "clock_mhz": 160,
              "source": "ports/esp32/main.c (min(largest free block, half the IDF heap) without SPIRAM)"},
}
# The core tests (rules engines, clock, wire, the app on fake hardware, with the tests' own fixtures) are
# not a device's load: they run with the most heap the Cortex-M0 machine holds (256 KB of RAM less the
# port's static data and stack).
TARGETS["tests"] = {"heap": 232 * 1024, "clock_mhz": None, "source": "the core tests' build, not a device"}
# the profile's `mcu` -> its target; a Raspberry Pi runs CPython, not MicroPython: its profile runs here
# under the smallest target heap
MCU_TARGET = {"pico": "rp2040", "esp32-devkitc": "esp32", "raspberry-pi": "esp32"}
MARGIN = 0.25        # every state leaves at least this share of the target's free heap
CORE_TARGET = "tests"   # the heap the core tests run in


def fail(msg):
    raise SystemExit("mcu: " + msg)


def need_tools():
    """The toolchain and QEMU, or an error that says how to install them."""
    missing = [t for t in ("arm-none-eabi-gcc", "qemu-system-arm", "make") if shutil.which(t) is None]
    if missing:
        fail("%s not found: install them with `apt-get install gcc-arm-none-eabi libnewlib-arm-none-eabi "
             "qemu-system-arm make` (or `make system-packages`)" % ", ".join(missing))
    r = subprocess.run(["arm-none-eabi-gcc", "-print-file-name=libc.a"], capture_output=True, text=True)
    if not os.path.isabs(r.stdout.strip()):
        fail("newlib for arm-none-eabi not found: `apt-get install libnewlib-arm-none-eabi`")


def log(msg):
    print("mcu: " + msg, flush=True)


def micropython_source():
    """A writable copy of the MicroPython v1.27.0 source in build/mcu (made once)."""
    dst = os.path.join(BUILD, "micropython")
    stamp = os.path.join(dst, ".flagfall-source")
    if os.path.exists(stamp):
        return dst
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    os.makedirs(BUILD, exist_ok=True)
    src = os.environ.get("MICROPYTHON_SRC") or MP_SRC_DEFAULT
    if os.path.isdir(os.path.join(src, "ports", "qemu")):
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("build", "build-*"))
        # CI's ../shared has no write bits, and the copy keeps modes: the build writes inside the tree
        for d, _, names in os.walk(dst):
            os.chmod(d, os.stat(d).st_mode | 0o700)
            for n in names:
                f = os.path.join(d, n)
                os.chmod(f, os.stat(f).st_mode | 0o600)
        origin = os.path.abspath(src)
    else:
        log("no MicroPython source at %s: cloning the %s tag" % (src, MP_TAG))
        r = subprocess.run(["git", "clone", "-q", "--depth", "1", "--branch", MP_TAG, MP_GIT, dst])
        if r.returncode:
            fail("no MicroPython source: set MICROPYTHON_SRC to a v1.27.0 tree (../shared/micropython-1.27.0 "
                 "has one), or allow `git clone --branch %s %s`" % (MP_TAG, MP_GIT))
        subprocess.run(["make", "-C", os.path.join(dst, "ports", "qemu"), "submodules"], check=True,
                       stdout=subprocess.DEVNULL)
        origin = MP_GIT + "@" + MP_TAG
    with open(stamp, "w") as f:
        f.write(origin + "\n")
    return dst


def make(args, what):
    t0 = time.time()
    r = subprocess.run(["make", "-j%d" % (os.cpu_count() or 2)] + args, capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout[-4000:] + r.stderr[-4000:])
        fail("building %s failed (make %s)" % (what, " ".join(args)))
    return time.time() - t0


def mpy_cross():
    """build/mcu/micropython/mpy-cross/build/mpy-cross, built from the same source as the port."""
    src = micropython_source()
    exe = os.path.join(src, "mpy-cross", "build", "mpy-cross")
    dt = make(["-C", os.path.join(src, "mpy-cross")], "mpy-cross")
    log("mpy-cross ready (%.1f s)" % dt)
    return exe


def frozen_manifest(cpu):
    """The manifest frozen into every image: the whole firmware tree (with the fake hardware the app runs on
    here) and the bench harness, as a production image carries the firmware in flash; and the staged files
    (stage(cpu)) with the file system that serves them (tools/mcufs.py)."""
    path = os.path.join(BUILD, "manifest-%s.py" % cpu)
    fw = os.path.join(ROOT, "firmware")
    text = ("# generated by tools/mcu.py\n"
            "package('flagcore', base_path=%r)\n"
            "package('device', base_path=%r)\n"
            "module('mpbench_firmware.py', base_path=%r)\n"
            "module('mcufs.py', base_path=%r)\n"
            "module('mcufiles.py', base_path=%r)\n" % (fw, fw, os.path.join(ROOT, "tools"),
                                                      os.path.join(ROOT, "tools"), stage(cpu)))
    old = open(path).read() if os.path.exists(path) else None
    if old != text:
        with open(path, "w") as f:
            f.write(text)
    return path


def firmware(cpu, target):
    """The port's firmware.elf for one CPU with one target's heap (built or brought up to date)."""
    src = micropython_source()
    port = os.path.join(src, "ports", "qemu")
    board = CPUS[cpu]["board"]
    heap = TARGETS[target]["heap"]
    build = "build-%s-%s" % (board, target)
    bdir = os.path.join(port, build)
    # the heap is one array in main.c: a second target's build starts from a copy of the first one's
    # objects and recompiles only main.c (MICROPY_HEAP_SIZE is not a dependency make sees)
    stamp = os.path.join(bdir, ".heap")
    if not os.path.isdir(bdir):
        for other in TARGETS:
            obuild = os.path.join(port, "build-%s-%s" % (board, other))
            if other != target and os.path.exists(os.path.join(obuild, "firmware.elf")):
                shutil.copytree(obuild, bdir, symlinks=True)
                break
    if not os.path.exists(stamp) or open(stamp).read() != str(heap):
        if os.path.exists(os.path.join(bdir, "main.o")):
            os.remove(os.path.join(bdir, "main.o"))
    dt = make(["-C", port, "BOARD=" + board, "BUILD=" + build, "MICROPY_HEAP_SIZE=%d" % heap,
               "FROZEN_MANIFEST=" + frozen_manifest(cpu)], "the qemu port for %s (%s heap)" % (cpu, target))
    with open(stamp, "w") as f:
        f.write(str(heap))
    log("firmware %s / %s (MICROPY_HEAP_SIZE=%d) ready (%.1f s)" % (cpu, target, heap, dt))
    return os.path.join(bdir, "firmware.elf")


class Qemu:
    """One emulated board running the port's firmware; its REPL through mpremote's serial transport.

    icount: QEMU's -icount shift (virtual time advances 2**shift ns per instruction: deterministic), only for
    the instruction counts; elsewhere QEMU runs as fast as it can."""

    def __init__(self, cpu, elf, icount=None):
        from mpremote.transport_serial import SerialTransport
        cmd = (["qemu-system-arm"] + CPUS[cpu]["qemu"] + ["-nographic", "-monitor", "null", "-semihosting",
                                                          "-serial", "pty", "-kernel", elf])
        if icount is not None:
            cmd += ["-icount", "shift=%d,align=off,sleep=off" % icount]
        self.cpu = cpu
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT)
        dev = None
        deadline = time.time() + 20
        while dev is None and time.time() < deadline:
            self.log.seek(0)
            m = re.search(rb"char device redirected to (\S+)", self.log.read())
            if m:
                dev = m.group(1).decode()
            elif self.proc.poll() is not None:
                break
            else:
                time.sleep(0.05)
        if dev is None:
            self.log.seek(0)
            out = self.log.read().decode(errors="replace")
            self.stop()
            fail("QEMU did not start (%s):\n%s" % (" ".join(cmd), out))
        self.t = SerialTransport(dev, baudrate=115200)
        self.t.read_until = self._read_until

    def _read_until(self, min_num_bytes, ending, timeout=10, data_consumer=None, timeout_overall=None):
        """mpremote's read_until (same arguments), waiting for the device with select() where mpremote
        sleeps 10 ms after every byte that was not there yet."""
        data = b""
        start = last = time.monotonic()
        ser = self.t.serial
        while not data.endswith(ending):
            if ser.inWaiting() > 0:
                c = ser.read(1)
                data = c if data_consumer else data + c
                if data_consumer:
                    data_consumer(c)
                last = time.monotonic()
                continue
            now = time.monotonic()
            if timeout is not None and now >= last + timeout:
                break
            if timeout_overall is not None and now >= start + timeout_overall:
                break
            select.select([ser.fd], [], [], 0.2)
        return data

    def fresh(self):
        """A fresh interpreter (soft reset in the raw REPL)."""
        self.t.enter_raw_repl(soft_reset=True)

    def run(self, code, timeout=600):
        """Run code in the raw REPL; returns (stdout, stderr) as text."""
        self.t.exec_raw_no_follow(code)
        out, err = self.t.follow(timeout)
        return out.decode(errors="replace").replace("\r\n", "\n"), err.decode(errors="replace").replace("\r\n", "\n")

    def stop(self):
        """Stop QEMU by its process id."""
        try:
            if getattr(self, "t", None) is not None:
                self.t.serial.close()
        except OSError:
            pass
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


_staged = {}


def stage(cpu):
    """build/mcu/stage-CPU/mcufiles.py: the files frozen into the image for tools/mcufs.py to serve at /files:
    lib/ (the whole firmware tree and the bench harness compiled to .mpy for that CPU), tests/ (the core
    tests, also .mpy), boards/ and seeds/ (the tests and the app read them). Written only when it changes
    (make then keeps the image)."""
    if cpu in _staged:
        return _staged[cpu]
    exe = mpy_cross()
    base = os.path.join(BUILD, "stage-" + cpu)
    tmp = os.path.join(base, "tree")
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    lib = os.path.join(tmp, "lib")
    march = CPUS[cpu]["march"]
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "mpy_compile.py"), "--out", lib,
                        "--mpy-cross", exe, "--march", march], capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write(r.stdout + r.stderr)
        fail("mpy-cross rejected the firmware for %s" % cpu)
    sources = [(os.path.join(ROOT, "tools", "mpbench_firmware.py"), os.path.join(lib, "mpbench_firmware.mpy"))]
    tests = os.path.join(ROOT, "tests", "core")
    for f in sorted(os.listdir(tests)):
        if f.endswith(".py"):
            sources.append((os.path.join(tests, f), os.path.join(tmp, "tests", f[:-3] + ".mpy")))
    os.makedirs(os.path.join(tmp, "tests"))
    for src, dst in sources:
        r = subprocess.run([exe, "-march=" + march, "-o", dst, "-s", os.path.basename(src), src],
                           capture_output=True, text=True)
        if r.returncode:
            fail("mpy-cross rejected %s:\n%s" % (src, r.stderr))
    for d in ("boards", "seeds"):
        shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d),
                        ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    files = {}
    for d, dirs, names in os.walk(tmp):
        dirs.sort()
        for n in sorted(names):
            full = os.path.join(d, n)
            with open(full, "rb") as f:
                files[os.path.relpath(full, tmp).replace(os.sep, "/")] = f.read()
    shutil.rmtree(tmp)
    text = "# generated by tools/mcu.py: the files tools/mcufs.py serves\nFILES = {\n%s}\n" % "".join(
        "    %r: %r,\n" % kv for kv in sorted(files.items()))
    path = os.path.join(base, "mcufiles.py")
    if not os.path.exists(path) or open(path).read() != text:
        with open(path, "w") as f:
            f.write(text)
    log("%d files staged for %s (%.0f KB)" % (len(files), cpu, sum(map(len, files.values())) / 1024))
    _staged[cpu] = base
    return base


# The rules engines (flagcore.chess, chess960, draughts, minzu, minzu_player) run on the host, never on a
# device (tools/firmware_manifest.py RULES_ON_DEVICE): their test modules run on one CPU here, the
# Cortex-M3, and every other core test on both. They are half the core tests' time under QEMU, and CI's
# time is short (docs/firmware.md, "On a microcontroller").
RULES_ENGINES = ("chess", "chess960", "draughts", "minzu", "minzu_player")
RULES_CPU = "cortex-m3"


def core_modules(cpu=None):
    """The core test modules to run on cpu (None: all)."""
    out = []
    for f in sorted(os.listdir(os.path.join(ROOT, "tests", "core"))):
        if not (f.startswith("test_") and f.endswith(".py")):
            continue
        with open(os.path.join(ROOT, "tests", "core", f)) as fh:
            src = fh.read()
        rules = re.search(r"^from flagcore import (%s)\b|^from flagcore\.(%s) import" % (
            "|".join(RULES_ENGINES), "|".join(RULES_ENGINES)), src, re.M)
        if cpu is None or not rules or cpu == RULES_CPU:
            out.append(f[:-3])
    return out


RUNNER = os.path.join(ROOT, "tests", "mp", "runner.py")


# the first lines of every program: the files at /files (the current folder); with the firmware from .mpy
# files, /files/lib comes before the frozen modules (.frozen) in sys.path
MOUNT = "import sys\nimport mcufs\nmcufs.mount()\n"
MOUNT_MPY = MOUNT + "sys.path[:0] = ['/files/lib']\n"


def core_tests(q, modules):
    """Every core test module in a fresh interpreter (tests/mp/runner.py on the .mpy files); returns
    (passed, failed names, seconds)."""
    with open(RUNNER) as f:
        runner = f.read()
    passed = 0
    failed = []
    t0 = time.time()
    for mod in modules:
        t1 = time.time()
        q.fresh()
        code = (MOUNT_MPY + "sys.path[:0] = ['/files/tests']\nARGS = [%r]\nLIB = '/files/lib'\n"
                "TESTS = '/files/tests'\nEXACT = True\nIMPORT_ALL = False\n" % mod) + runner
        out, err = q.run(code)
        m = re.search(r"micropython: (\d+) passed, (\d+) failed", out)
        names = re.findall(r"^FAIL (\S+)", out, re.M)
        if m is None or err.strip() and "SystemExit" not in err:
            failed.append(mod)
            sys.stdout.write("[%s] %s did not finish:\n%s%s\n" % (q.cpu, mod, out[-3000:], err[-3000:]))
            continue
        passed += int(m.group(1))
        log("%s: %s %s passed, %s failed (%.1f s)" % (q.cpu, mod, m.group(1), m.group(2), time.time() - t1))
        if int(m.group(2)):
            failed += names
            sys.stdout.write("[%s] %s:\n%s\n" % (q.cpu, mod, out[-6000:]))
    return passed, failed, time.time() - t0


STATES = ("game", "selftest", "menu")


def profiles():
    return sorted(n[:-5] for n in os.listdir(os.path.join(ROOT, "boards")) if n.endswith(".json"))


def profile_target(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return MCU_TARGET[json.load(f)["mcu"]]


_menu_presses = {}
_menu_lock = threading.Lock()


def menu_presses(name):
    """The menu's presses on board name's buttons (tools/mpbench_firmware.py, run here on CPython, where it
    builds the app in a module global: one thread at a time, once per board)."""
    with _menu_lock:
        if name not in _menu_presses:
            for d in ("tools", "firmware"):
                if os.path.join(ROOT, d) not in sys.path:
                    sys.path.insert(0, os.path.join(ROOT, d))
            import mpbench_firmware
            mpbench_firmware.BOARDS = os.path.join(ROOT, "boards")
            _menu_presses[name] = mpbench_firmware.menu_presses(name)
        return _menu_presses[name]


def app_program(name, states, mpy):
    """The device-side program for one profile: the board's firmware imported module by module (its
    manifest, tools/firmware_manifest.py), then for each state the app built afresh on the fake hardware
    and the scripted game, the self-test or the menu that tools/bench_firmware.py drives
    (tools/mpbench_firmware.py), with gc.collect() before each step and the peak of gc.mem_alloc() - base
    after it (base: after the harness, the fake hardware and the host side's flagcore.wirelimits, as in
    the WebAssembly bench; an upper bound; the app of the state before is garbage by then, collected).
    Prints one RESULT line of JSON per state."""
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import firmware_manifest
    mods = [m for m in firmware_manifest.modules(firmware_manifest.load(name), lazy=False) if m != "main"]
    prog = [MOUNT_MPY if mpy else MOUNT,
            "import gc, json\nimport mpbench_firmware as bf\nimport device.fake.fakehw\nimport flagcore.wirelimits\n"
            "bf.BOARDS = 'boards'\ngc.collect()\nfree0 = gc.mem_free()\nbase = gc.mem_alloc()\npeak = 0\n"
            "def seen():\n    global peak\n    a = gc.mem_alloc() - base\n    if a > peak:\n        peak = a\n"
            "for m in %r:\n    gc.collect()\n    __import__(m)\n    seen()\n"
            "gc.collect()\ncode = gc.mem_alloc() - base\nimports = peak\n" % mods]
    for state in states:
        prog.append("peak = imports\nbf.rig = None\ngc.collect()\n"
                    "n = bf.setup(%r)\nseen()\ngc.collect()\nbf.build()\nseen()\nbf.check()\n"
                    "gc.collect()\nbooted = gc.mem_alloc() - base\n" % name)
        if state == "game":
            prog.append("for i in range(n):\n    gc.collect()\n    bf.step(i)\n    seen()\n    bf.check()\n")
        elif state == "selftest":
            prog.append("gc.collect()\nbf.selftest(1)\nseen()\nbf.check()\n"
                        "for i in range(bf.SELFTEST_STEPS):\n    gc.collect()\n    bf.selftest_step(i)\n    seen()\n"
                        "    bf.check()\ngc.collect()\nbf.selftest(0)\nseen()\nbf.check()\n"
                        "assert bf.rig.app.selftest is None\n")
        else:
            prog.append("for name in %r:\n    gc.collect()\n    bf.menu_press(name)\n    seen()\n"
                        "    bf.check()\nassert bf.rig.app.menu is None and bf.rig.app.clock.tc.text() == '600+2'\n"
                        % (menu_presses(name),))
        prog.append("gc.collect()\nprint('RESULT', json.dumps({'state': %r, 'peak': peak, 'free0': free0, "
                    "'code': code, 'booted': booted, 'retained': gc.mem_alloc() - base, "
                    "'errors': bf.rig.host.errors, 'frames': bf.rig.frames, 'tc': bf.rig.app.clock.tc.text()}))\n"
                    % state)
    return "".join(prog)


def run_app(q, name, mpy):
    """One profile's app in each of its states, in a fresh interpreter: ([RESULT dict...], failure text)."""
    q.fresh()
    states = STATES      # a rocker board's menu too, by flips (mpbench_firmware.menu_presses)
    out, err = q.run(app_program(name, states, mpy))
    res = [json.loads(x) for x in re.findall(r"^RESULT (.*)$", out, re.M)]
    if len(res) != len(states) or err.strip():
        return res, (out + err)[-3000:]
    for r in res:
        if r["errors"]:
            return res, "%s: %d host-side errors decoding the device's frames" % (r["state"], r["errors"])
    return res, None


def scan_instructions(q, names, passes=300):
    """Instructions per scan + debounce pass (the profile's driver fills the scanner's bytearray on the fake
    pins, the scanner debounces it: the sensor part of App.step()), with QEMU's -icount shift=0 (one
    instruction = 1 ns of virtual time). Read with time.ticks_us(), which the port computes from SysTick as if
    clocked at 25 MHz (ports/qemu/mcu/arm/ticks.c): instructions = us * 1000 * 25 MHz / the board's SysTick
    clock. An empty loop of the same passes is subtracted. The driver reads Python models of the parts (the
    fake hardware), which cost far more than a real machine.Pin; a matrix's settle waits (settle_us per
    row, a busy wait) count as the instructions that wait runs. So the debounce alone (Scanner.update on a
    quiet board, the same code as on a device) is measured too.
    Returns {profile: (pass instructions, debounce instructions, sensors)}."""
    scale = 1000 * 25000000.0 / CPUS[q.cpu]["hz"]
    out = {}
    for name in names:
        q.fresh()
        o, e = q.run(MOUNT + "import gc, json, time\nfrom device.app import App\nfrom device.fake.fakehw import FakeHAL\n"
                     "with open('boards/%s.json') as f:\n    p = json.load(f)\n"
                     "hal = FakeHAL(now=0)\nhal.attach_profile(p)\napp = App(p, hal, None)\n"
                     "s = app.scanner\nd = app.sensor\nraw = s.raw\n"
                     "for t in range(50):\n    d.read_into(raw)\n    s.update(t)\n"
                     "gc.collect()\ngc.disable()\n"
                     "t0 = time.ticks_us()\nfor t in range(%d):\n    pass\nempty = time.ticks_diff(time.ticks_us(), t0)\n"
                     "a = gc.mem_alloc()\nt0 = time.ticks_us()\n"
                     "for t in range(%d):\n    d.read_into(raw)\n    s.update(t)\n"
                     "full = time.ticks_diff(time.ticks_us(), t0)\nalloc = gc.mem_alloc() - a\n"
                     "t0 = time.ticks_us()\nfor t in range(%d, %d):\n    s.update(t)\n"
                     "deb = time.ticks_diff(time.ticks_us(), t0)\nalloc += gc.mem_alloc() - a\ngc.enable()\n"
                     "print('SCAN', s.n, full - empty, deb - empty, alloc)\n"
                     % (name, passes, passes, passes, 2 * passes))
        m = re.search(r"SCAN (\d+) (-?\d+) (-?\d+) (-?\d+)", o)
        if m is None or e.strip():
            fail("scan pass measurement failed for %s on %s:\n%s%s" % (name, q.cpu, o, e))
        n, us, deb, alloc = map(int, m.groups())
        if alloc:
            fail("%s's scan pass allocated %d bytes in %d passes on %s" % (name, alloc, passes, q.cpu))
        out[name] = (int(round(us * scale / passes)), int(round(deb * scale / passes)), n)
    return out


def run_cpu(cpu, core=True, apps=True, scan=True):
    """Everything on one CPU; returns {"core": (passed, failed, s), "apps": [...], "scan": {...}, "failed": [..]}"""
    res = {"failed": [], "apps": [], "scan": {}}
    if core:
        with Qemu(cpu, firmware(cpu, CORE_TARGET)) as q:
            passed, failed, dt = core_tests(q, core_modules(cpu))
        res["core"] = (passed, failed, dt)
        res["failed"] += ["%s %s" % (cpu, f) for f in failed]
    if apps:
        for target in ("rp2040", "esp32"):
            with Qemu(cpu, firmware(cpu, target)) as q:
                for name in profiles():
                    if profile_target(name) != target:
                        continue
                    for mpy in (True, False):
                        rs, err = run_app(q, name, mpy)
                        how = "mpy" if mpy else "frozen"
                        if err:
                            res["failed"].append("%s %s %s (%s heap): %s" % (cpu, name, how, target, err))
                        for r in rs:
                            state = r["state"]
                            r.update(cpu=cpu, profile=name, how=how, target=target)
                            limit = (1 - MARGIN) * TARGETS[target]["heap"]
                            if r["peak"] > limit:
                                res["failed"].append("%s %s %s %s: peak heap %d bytes > %d (%d %% of the %s's %d)" % (
                                    cpu, name, state, how, r["peak"], limit, 100 * (1 - MARGIN), target,
                                    TARGETS[target]["heap"]))
                            res["apps"].append(r)
    if scan:
        with Qemu(cpu, firmware(cpu, "rp2040"), icount=0) as q:
            res["scan"] = scan_instructions(q, profiles())
    return res


def run_all(jobs=2, **kw):
    """Builds first (make, sequentially), then the two CPUs, each with its own QEMU: in parallel with
    jobs=2, one after the other with jobs=1 (`make test` runs them beside pytest, on the core it leaves idle)."""
    need_tools()
    t0 = time.time()
    for cpu in CPUS:
        for target in TARGETS:
            firmware(cpu, target)
    log("builds ready in %.0f s" % (time.time() - t0))
    results = {}
    errors = []

    def one(cpu):
        try:
            results[cpu] = run_cpu(cpu, **kw)
        except BaseException as e:      # reported below, with the CPU's name
            errors.append("%s: %s" % (cpu, e))
    if jobs > 1:
        threads = [threading.Thread(target=one, args=(cpu,)) for cpu in CPUS]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    else:
        for cpu in CPUS:
            one(cpu)
    if errors:
        fail("; ".join(errors))
    log("ran in %.0f s" % (time.time() - t0))
    return results


def test(jobs=2):
    res = run_all(jobs=jobs)
    failed = []
    total = 0
    for cpu in CPUS:
        r = res[cpu]
        passed, cfailed, dt = r["core"]
        total += passed
        log("%s: core tests %d passed, %d failed (%.0f s, one module per interpreter, MICROPY_HEAP_SIZE=%d)"
            % (cpu, passed, len(cfailed), dt, TARGETS[CORE_TARGET]["heap"]))
        apps = r["apps"]
        log("%s: app runs %d (profiles x game/self-test/menu x .mpy/frozen), worst peak %s" % (
            cpu, len(apps), max(("%d of %d bytes (%s %s %s)" % (a["peak"], TARGETS[a["target"]]["heap"],
                                                               a["profile"], a["state"], a["how"])
                                 for a in apps), key=lambda s: int(s.split()[0]), default="-")))
        for name, (ins, deb, n) in sorted(r["scan"].items()):
            log("%s: %s: scan + debounce pass %d instructions on fake pins, debounce alone %d (%d sensors), "
                "0 bytes allocated" % (cpu, name, ins, deb, n))
        total += len(apps) + len(r["scan"])
        failed += r["failed"]
    for f in failed:
        print("FAIL " + f)
    print("mcu: %d passed, %d failed" % (total, len(failed)))
    return 1 if failed else 0


def bench():
    """The figures: per CPU and profile, the peak heap of each state from .mpy and frozen against the
    target's free heap, and the scan pass in instructions and in microseconds at the target's clock."""
    res = run_all(core=False)
    bad = []
    for cpu in CPUS:
        r = res[cpu]
        for a in sorted(r["apps"], key=lambda a: (a["profile"], a["state"], a["how"])):
            heap = TARGETS[a["target"]]["heap"]
            print("mcu_heap_%s_%s_%s_%s: %d bytes peak (%.1f KB, %.0f %% of the %s's %.0f KB free heap; "
                  "code %.1f KB, booted %.1f KB)" % (cpu, a["profile"], a["state"], a["how"], a["peak"],
                                                     a["peak"] / 1024, 100.0 * a["peak"] / heap, a["target"],
                                                     heap / 1024, a["code"] / 1024, a["booted"] / 1024))
        for name, (ins, deb, n) in sorted(r["scan"].items()):
            mhz = TARGETS[profile_target(name)]["clock_mhz"]
            print("mcu_scan_%s_%s: %d instructions per scan + debounce pass on fake pins (%d sensors), %.0f us "
                  "at %d MHz; debounce alone %d instructions, %.0f us" % (
                      cpu, name, ins, n, ins / float(mhz), mhz, deb, deb / float(mhz)))
        bad += r["failed"]
    print("mcu_heap_method: the qemu port built with MICROPY_HEAP_SIZE of the profile's target (%s); per "
          "profile and form (.mpy, frozen) a fresh interpreter that imports the board's manifest, then per state "
          "the app built afresh; gc.collect() before each step, peak = max of gc.mem_alloc() - base "
          "after it (base after the harness, the fake hardware and flagcore.wirelimits); limit %d %% of "
          "the target's heap" % (", ".join("%s %d KB: %s" % (t, TARGETS[t]["heap"] // 1024, TARGETS[t]["source"])
                                          for t in ("rp2040", "esp32")), 100 * (1 - MARGIN)))
    print("mcu_scan_method: QEMU -icount shift=0 (1 instruction = 1 ns of virtual time), %d passes less an "
          "empty loop, SysTick at %s; microseconds assume one instruction per cycle at the target's clock "
          "(RP2040 125 MHz; ESP32 160 MHz, an Xtensa core whose instruction count differs from the ARM's)"
          % (300, ", ".join("%s %d MHz" % (c, CPUS[c]["hz"] // 1000000) for c in CPUS)))
    for b in bad:
        print("FAILED: " + b)
    return 1 if bad else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("test", "bench", "build"))
    ap.add_argument("--jobs", type=int, choices=(1, 2), default=2,
                    help="test: the two CPUs at once (2, the default) or one after the other (1)")
    args = ap.parse_args(argv)
    if args.what == "build":
        need_tools()
        for cpu in CPUS:
            for target in TARGETS:
                firmware(cpu, target)
        return 0
    if args.what == "test":
        return test(jobs=args.jobs)
    return bench()


if __name__ == "__main__":
    sys.exit(main())
