"""Device side of the firmware: hardware access, drivers, the time-control menu and the app.

Everything reaches hardware through a HAL object (device.hal): MicroPython
`machine`, Adafruit Blinka, or the fake backend (device.fakehw) used by the
tests and the simulator. Drivers take (hal, cfg) where cfg is their section
of the board profile (boards/*.json).
"""
