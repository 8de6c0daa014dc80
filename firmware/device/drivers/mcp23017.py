"""MCP23017 16-bit I2C port expander, every pin an input with its pull-up (reeds to ground).

    x = MCP23017(i2c, address=0x20)
    x.read_into(buf, start=0)       # buf[start + k] = 1 where pin k (A0..A7, B0..B7) is closed

One chip per object; a board with several reads them in turn (the factory
chains them). read_into allocates nothing.
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
