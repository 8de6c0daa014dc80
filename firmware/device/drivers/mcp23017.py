"""MCP23017 16-bit I2C port expander, every pin an input with its pull-up (reeds to ground).

    x = MCP23017(i2c, address=0x20)
    x.read_into(buf, start=0)       # buf[start + k] = 1 where pin k (A0..A7, B0..B7) is closed

One chip per object; a board with several reads them in turn (Chain, built
by the factory). read_into allocates nothing.
"""

from flagcore._compat import const

_IODIRA = const(0x00)     # direction, port A (B follows: BANK=0 order)
_GPPUA = const(0x0C)      # pull-ups, port A
_GPIOA = const(0x12)      # pin levels, port A


class MCP23017:
    """One MCP23017 on an I2C bus (writeto_mem, readfrom_mem_into)."""

    n = 16

    def __init__(self, i2c, *, address=0x20):
        self.i2c = i2c
        self.address = address
        self.two = bytearray(2)
        ff = bytearray(b"\xff\xff")
        i2c.writeto_mem(address, _IODIRA, ff)   # all inputs
        i2c.writeto_mem(address, _GPPUA, ff)    # all pull-ups on

    def gpio(self):
        """The 16 pin levels, A0 = bit 0 .. B7 = bit 15."""
        two = self.two
        self.i2c.readfrom_mem_into(self.address, _GPIOA, two)
        return two[0] | (two[1] << 8)

    def read_into(self, buf, start=0):
        """buf[start + k] = 1 where pin k reads closed (low), for the part of buf that exists."""
        v = self.gpio()
        lim = len(buf) - start
        if lim > 16:
            lim = 16
        for b in range(lim):
            buf[start + b] = 1 - ((v >> b) & 1)


class Chain:
    """Several sensor chips read in turn into one buffer (chip i's first sensor follows chip i-1's last)."""

    def __init__(self, chips):
        self.chips = chips
        self.n = 0
        for c in chips:
            self.n += c.n

    def read_into(self, buf):
        """Every chip's sensors, in order; buf[k] = 1 where sensor k is closed."""
        k = 0
        for c in self.chips:
            if k >= len(buf):
                break
            c.read_into(buf, k)
            k += c.n
