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
        """Keep text under name (written aside, then renamed over the old one: a power loss during the
        write leaves the old one whole; littlefs's rename is atomic)."""
        self.write_file(name + ".new", text)
        self.rename_file(name + ".new", name + ".txt")

    def load(self, name):
        """The text saved under name, or None."""
        try:
            return self.read_file(name + ".txt")
        except OSError:
            return None

    # the files under save/load: the working folder here, a model of the flash in the fake backend
    def write_file(self, path, text):
        """Write a whole file."""
        with open(path, "w") as f:
            f.write(text)

    def rename_file(self, old, new):
        """Rename a file over another."""
        import os
        os.rename(old, new)

    def read_file(self, path):
        """A whole file's text; OSError when there is none."""
        with open(path) as f:
            return f.read()
