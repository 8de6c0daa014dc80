"""Device side of the firmware: hardware access, drivers, the time-control menu and the app.

Everything reaches hardware through a HAL object (device.hal): MicroPython
`machine` or Adafruit Blinka on a device, the fake backend
(device.fake.fakehw, never deployed) in the tests and the simulator. The
drivers (device.drivers) take explicit pins or buses and keyword options;
device.factory maps a board profile (boards/*.json) to their constructors.
"""

import sys


def unload(name):
    """Let a lazily imported module of this package (menu, selftest) leave the heap: forget it in
    sys.modules and here; the next `import device.<name>` loads it again."""
    sys.modules.pop("device." + name, None)
    globals().pop(name, None)
