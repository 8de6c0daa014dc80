"""Firmware figures on a microcontroller build of MicroPython (tools/mcu.py: the qemu port, Cortex-M3 and
Cortex-M0): per profile and CPU the peak heap of the game, the self-test and the menu, from .mpy and frozen,
against the free heap of the profile's target (a stock RP2040 or ESP32 build), and the instructions of a
scan + debounce pass (QEMU -icount). Exit status 1 if a state leaves less than 25 % of its target's heap or
the scan pass allocates."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mcu  # noqa: E402

if __name__ == "__main__":
    sys.exit(mcu.bench())
