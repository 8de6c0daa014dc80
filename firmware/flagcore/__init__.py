"""Flagfall core: pure logic shared by the device and the host.

Everything in this package imports unchanged on MicroPython and CPython:
no I/O, no hardware, no wall clock. Time comes in as ticks.
"""

VERSION = "0.1.0"
