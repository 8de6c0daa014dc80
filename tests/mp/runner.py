# Test runner executed inside MicroPython by tests/mp/run.mjs.
# Imports every flagcore module (an import MicroPython cannot satisfy is a
# failure), then runs every test_* function of tests/core/test_*.py.
import os
import sys
import gc

filters = ARGS  # set by run.mjs
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


for fname in sorted(os.listdir("/lib/flagcore")):
    if fname.endswith(".py"):
        mod = "flagcore." + fname[:-3] if fname != "__init__.py" else "flagcore"
        try:
            __import__(mod)
            imported += 1
        except Exception as e:
            _report("import " + mod, e)
print("imported %d core modules" % imported)

for fname in sorted(os.listdir("/tests")):
    if not (fname.startswith("test_") and fname.endswith(".py")):
        continue
    modname = fname[:-3]
    if filters and not any(f in modname for f in filters):
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
