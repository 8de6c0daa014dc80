# Test runner executed inside MicroPython by tests/mp/run.mjs (WebAssembly) and
# tools/mcu.py (the qemu port, with the modules and tests compiled to .mpy).
# Imports every flagcore module (an import MicroPython cannot satisfy is a
# failure), then runs every test_* function of tests/core/test_*.py.
import os
import sys
import gc

filters = ARGS  # set by run.mjs
# where the firmware and the tests are (tools/mcu.py sets them: its folder is mounted at /remote)
LIB = globals().get("LIB", "/lib")
TESTS = globals().get("TESTS", "/tests")
EXACT = globals().get("EXACT", False)   # ARGS name whole modules (tools/mcu.py: one module per interpreter)
# False: only what each test module imports (tools/mcu.py: a microcontroller's heap does not hold every
# rules engine at once, and a device never imports them; the WebAssembly run checks they all import)
IMPORT_ALL = globals().get("IMPORT_ALL", True)
passed = 0
failed = 0
failures = []
imported = 0


def _report(name, err):
    global failed
    failed += 1
    failures.append(name)
    print("FAIL", name)
    sys.print_exception(err)


def _module(fname):
    """test_x.py or test_x.mpy -> test_x; None for another file"""
    for ext in (".py", ".mpy"):
        if fname.endswith(ext):
            return fname[:-len(ext)]
    return None


for fname in sorted(os.listdir(LIB + "/flagcore")) if IMPORT_ALL else ():
    base = _module(fname)
    if base:
        mod = "flagcore." + base if base != "__init__" else "flagcore"
        try:
            __import__(mod)
            imported += 1
        except Exception as e:
            _report("import " + mod, e)
print("imported %d core modules" % imported)

for fname in sorted(os.listdir(TESTS)):
    modname = _module(fname)
    if not (modname and fname.startswith("test_")):
        continue
    if filters and not any(f == modname if EXACT else f in modname for f in filters):
        continue
    try:
        mod = __import__(modname)
    except Exception as e:
        _report(modname, e)
        continue
    n = 0
    for name in sorted(dir(mod)):
        if not name.startswith("test_"):
            continue
        fn = getattr(mod, name)
        if not callable(fn):
            continue
        n += 1
        try:
            fn()
            passed += 1
        except Exception as e:
            _report(modname + "." + name, e)
        gc.collect()
    print("%s: %d tests" % (modname, n))

print("micropython: %d passed, %d failed" % (passed, failed))
if failed or not passed:
    raise SystemExit(1)
