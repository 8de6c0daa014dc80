"""LEDs simple test: light white's LED, then black's, then neither.

On a MicroPython board: white's LED on GPIO 27, black's on GPIO 28 (to ground through a resistor).
Anywhere else: the fake hardware's pins.
"""
from device.drivers.leds import Leds

WHITE, BLACK = 27, 28
try:
    from machine import Pin
    pins = (Pin(WHITE, Pin.OUT, value=0), Pin(BLACK, Pin.OUT, value=0))
    hal = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    hal = FakeHAL()
    pins = (hal.pin_out(WHITE, 0), hal.pin_out(BLACK, 0))

leds = Leds(pins[0], pins[1], active_low=False)
for w, b in ((1, 0), (0, 1), (0, 0)):
    leds.set(0, w)
    leds.set(1, b)
    if hal is not None:
        assert (hal.pins[WHITE].level, hal.pins[BLACK].level) == (w, b)
    print("white %s, black %s" % ("on" if w else "off", "on" if b else "off"))
print("leds_simpletest ok")
