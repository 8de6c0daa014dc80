"""Named buses from the board profile, shared by every driver, and the store that survives a power
loss (a mixin of every HAL backend).

The profile declares its buses once ("buses": {"i2c0": {"kind": "i2c",
"sda": 4, "scl": 5}}); the factory asks for one by name with hal.bus(name)
and gets the backend's bus object, opened on first use. save(name, text) and
load(name) keep a text in a file in the working folder (flash on a
microcontroller): written as <name>.new, then renamed to <name>.txt, so a
power loss during the write leaves the previous one whole.
"""


class Buses:
    """Named buses from the profile, opened on first use and shared by drivers."""

    buses = None
    _open = None

    def set_buses(self, buses):
        """Declare the profile's buses (name -> section with kind 'i2c' or 'spi')."""
        self.buses = buses or {}
        self._open = {}

    def bus(self, name):
        """The bus object for a profile bus name."""
        if self._open is None:
            self.set_buses({})
        b = self._open.get(name)
        if b is None:
            cfg = self.buses.get(name)
            if cfg is None:
                raise ValueError("profile declares no bus %r" % name)
            b = self.i2c(cfg) if cfg["kind"] == "i2c" else self.spi(cfg)
            self._open[name] = b
        return b

    def save(self, name, text):
        """Keep text under name (written aside, then renamed over the old one)."""
        import os
        with open(name + ".new", "w") as f:
            f.write(text)
        os.rename(name + ".new", name + ".txt")

    def load(self, name):
        """The text saved under name, or None."""
        try:
            with open(name + ".txt") as f:
                return f.read()
        except OSError:
            return None
