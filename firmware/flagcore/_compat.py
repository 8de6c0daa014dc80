"""The one MicroPython/CPython shim of the core: `const`.

On MicroPython `const(x)` comes from the `micropython` module and the
compiler folds it (a name starting with `_` then takes no RAM at all); on
CPython it is the identity. The compiler recognises `X = const(...)` by the
name `const`, so `from flagcore._compat import const` folds as well as the
direct import. Wrapping tick arithmetic (`ticks_ms`, `ticks_us`,
`ticks_add`, `ticks_diff`) is the other shim; it lives in flagcore.ticks.
"""

try:
    from micropython import const
except ImportError:  # CPython
    def const(x):
        """Stand-in for micropython.const: the value itself."""
        return x
