"""One LED per side: lit while that side's clock runs, or as the host sets it.

cfg: {"white": PIN, "black": PIN, "active_low": false}.
"""


class Leds:
    """The two side LEDs."""

    def __init__(self, hal, cfg):
        self.inv = 1 if cfg.get("active_low", False) else 0
        self.pins = (hal.pin_out(cfg["white"], self.inv), hal.pin_out(cfg["black"], self.inv))
        self.on = bytearray(2)

    def set(self, side, on):
        """Light (1) or darken (0) a side's LED."""
        on = 1 if on else 0
        if self.on[side] != on:
            self.on[side] = on
            self.pins[side].value(on ^ self.inv)
