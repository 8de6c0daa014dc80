"""One LED per side: lit while that side's clock runs, or as the host sets it.

    leds = Leds(Pin(27, Pin.OUT), Pin(28, Pin.OUT), active_low=False)
    leds.set(0, 1)      # white's LED on
"""


class Leds:
    """The two side LEDs on output pins (white, black)."""

    def __init__(self, white, black, *, active_low=False):
        self.inv = 1 if active_low else 0
        self.pins = (white, black)
        self.on = bytearray(2)
        white.value(self.inv)
        black.value(self.inv)

    def set(self, side, on):
        """Light (1) or darken (0) a side's LED."""
        on = 1 if on else 0
        if self.on[side] != on:
            self.on[side] = on
            self.pins[side].value(on ^ self.inv)
