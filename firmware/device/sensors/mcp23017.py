"""MCP23017 16-bit I2C port expanders, every pin an input with its pull-up.

cfg: {"type": "mcp23017", "bus": BUS, "addresses": [32, 33, ...]}. A closed
reed pulls its pin to ground. Sensor k is expander k // 16 (in the order of
`addresses`), pin A0..A7 for k % 16 < 8, then B0..B7.
"""

_IODIRA = 0x00
_GPPUA = 0x0C
_GPIOA = 0x12


class MCP23017:
    """One or more MCP23017s on one I2C bus."""

    def __init__(self, hal, cfg):
        self.i2c = hal.bus(cfg["bus"])
        self.addrs = list(cfg["addresses"])
        self.n = 16 * len(self.addrs)
        self.two = bytearray(2)
        ff = bytearray(b"\xff\xff")
        for a in self.addrs:
            self.i2c.writeto_mem(a, _IODIRA, ff)   # all inputs
            self.i2c.writeto_mem(a, _GPPUA, ff)    # all pull-ups on

    def read_into(self, buf):
        """Read both ports of every expander; buf[k] = 1 where a reed is closed."""
        lim = len(buf) if len(buf) < self.n else self.n
        two = self.two
        k = 0
        for a in self.addrs:
            self.i2c.readfrom_mem_into(a, _GPIOA, two)
            v = two[0] | (two[1] << 8)
            for b in range(16):
                if k < lim:
                    buf[k] = 1 - ((v >> b) & 1)
                k += 1
