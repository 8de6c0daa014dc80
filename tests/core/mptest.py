"""Assertion helpers that work under pytest and under MicroPython.

Core tests are plain functions named test_* using assert and these helpers,
so the same file runs on CPython (pytest) and on MicroPython (tests/mp).
"""


def raises(exc_type, fn, *args, **kwargs):
    """Call fn and return the exception it raises; fail if it does not raise exc_type."""
    try:
        fn(*args, **kwargs)
    except exc_type as e:
        return e
    raise AssertionError("expected %s from %r" % (exc_type.__name__, fn))


def data_path(name):
    """Path of a file under seeds/, the same on both runtimes."""
    for base in ("seeds", "../seeds", "/seeds"):
        p = base + "/" + name
        try:
            open(p).close()
            return p
        except OSError:
            pass
    raise OSError("seeds/%s not found (cwd must be the repository root)" % name)
