"""Chained 74HC165 parallel-in shift registers, bit-banged or read over SPI.

    s = HC165(load, clk, data, chips=8)          # three pins: SH/LD, CLK, QH
    s = HC165_SPI(spi, load, chips=8)            # SPI: SCK on CLK, MISO on QH
    s.read_into(buf)                             # buf[k] = 1 where reed k is closed

Inputs are pulled up; a closed reed pulls its input to ground. Sensor k is
chip k // 8 (chip 0 is the one whose QH goes to the MCU), input D(7 - k % 8):
the first bit shifted out is D7 of chip 0. read_into allocates nothing.
"""


class HC165:
    """A chain of 74HC165s on three pins (load and clk outputs, data an input)."""

    def __init__(self, load, clk, data, *, chips=1):
        self.load = load
        self.clk = clk
        self.data = data
        self.chips = chips
        self.n = 8 * chips
        load.value(1)
        clk.value(0)

    def read_into(self, buf):
        """Latch every input, then shift them in; buf[k] = 1 where a reed is closed."""
        self.load.value(0)    # parallel load
        self.load.value(1)    # back to shifting
        lim = len(buf) if len(buf) < self.n else self.n
        clk = self.clk
        data = self.data
        for k in range(lim):
            buf[k] = 1 - data.value()
            clk.value(1)
            clk.value(0)


class HC165_SPI:
    """A chain of 74HC165s read over SPI (anything with readinto(buf)), latched by the load pin."""

    def __init__(self, spi, load, *, chips=1):
        self.spi = spi
        self.load = load
        self.chips = chips
        self.n = 8 * chips
        self.raw = bytearray(chips)
        load.value(1)

    def read_into(self, buf):
        """Latch every input, then read the chain; buf[k] = 1 where a reed is closed."""
        self.load.value(0)
        self.load.value(1)
        lim = len(buf) if len(buf) < self.n else self.n
        raw = self.raw
        self.spi.readinto(raw)
        for k in range(lim):
            buf[k] = 1 - ((raw[k >> 3] >> (7 - (k & 7))) & 1)
