"""Wrapping ticks, as MicroPython's time.ticks_* functions (the core's one ticks shim).

On MicroPython the native functions are used. On CPython a portable shim
with the same period (2**30) stands in, so code, tests and benchmark bodies
behave the same. ticks_us (microseconds, same period, same ticks_diff) is
for benchmarks, never for the clock.
"""

try:
    from time import ticks_add, ticks_diff, ticks_ms, ticks_us  # MicroPython
    NATIVE = True
except ImportError:  # CPython
    NATIVE = False

PERIOD = 1 << 30
_HALF = PERIOD >> 1
_MASK = PERIOD - 1


def wrap(t):
    """Reduce an integer to the tick range [0, 2**30)."""
    return t & _MASK


if not NATIVE:
    import time as _time

    def ticks_ms():
        """Milliseconds from an arbitrary point, wrapping at 2**30."""
        return int(_time.monotonic() * 1000) & _MASK

    def ticks_us():
        """Microseconds from an arbitrary point, wrapping at 2**30 (compare with ticks_diff)."""
        return int(_time.perf_counter() * 1000000) & _MASK

    def ticks_add(t, delta):
        """Tick t moved by delta milliseconds (either sign), wrapped."""
        return (t + delta) & _MASK

    def ticks_diff(a, b):
        """Signed difference a - b of two ticks, correct across the wrap."""
        return ((a - b + _HALF) & _MASK) - _HALF
