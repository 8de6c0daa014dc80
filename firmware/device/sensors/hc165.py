"""Chained 74HC165 parallel-in shift registers, bit-banged or read over SPI.

cfg: {"type": "hc165", "chips": N, "load": PIN, "clk": PIN, "data": PIN} or
{"type": "hc165", "chips": N, "load": PIN, "spi": BUS} (SPI SCK on CLK, MISO
on QH). Inputs are pulled up; a closed reed pulls its input to ground.
Sensor k is chip k // 8 (chip 0 is the one whose QH goes to the MCU), input
D(7 - k % 8): the first bit shifted out is D7 of chip 0.
"""


class HC165:
    """A chain of 74HC165s."""

    def __init__(self, hal, cfg):
        self.hal = hal
        self.chips = cfg["chips"]
        self.n = 8 * self.chips
        self.load = hal.pin_out(cfg["load"], 1)
        self.spi = None
        if "spi" in cfg:
            self.spi = hal.bus(cfg["spi"])
            self.raw = bytearray(self.chips)
        else:
            self.clk = hal.pin_out(cfg["clk"], 0)
            self.data = hal.pin_in(cfg["data"], pull_up=False)

    def read_into(self, buf):
        """Latch every input, then shift them in; buf[k] = 1 where a reed is closed."""
        self.load.value(0)    # parallel load
        self.load.value(1)    # back to shifting
        lim = len(buf) if len(buf) < self.n else self.n
        if self.spi is not None:
            raw = self.raw
            self.spi.readinto(raw)
            for k in range(lim):
                buf[k] = 1 - ((raw[k >> 3] >> (7 - (k & 7))) & 1)
            return
        clk = self.clk
        data = self.data
        for k in range(lim):
            buf[k] = 1 - data.value()
            clk.value(1)
            clk.value(0)
