"""TM1637 simple test: a clock time with its colon, every digit, a word, the brightness.

On a MicroPython board: CLK on GPIO 16, DIO on GPIO 17 (change CLK and DIO).
Anywhere else (a PC, the tests): the fake hardware, whose TM1637 model
decodes the bit stream, so the example checks what the display shows.
"""
from device.drivers.tm1637 import TM1637
from flagcore.display import fit4

CLK, DIO = 16, 17
try:
    from machine import Pin
    clk, dio = Pin(CLK, Pin.OUT, value=1), Pin(DIO, Pin.OPEN_DRAIN, value=1)
    model = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    hal = FakeHAL()
    model = hal.add_tm1637(CLK, DIO)
    clk, dio = hal.pin_out(CLK, 1), hal.pin_out(DIO, 1, open_drain=True)

display = TM1637(clk, dio, brightness=5)


def shows(text):
    if model is not None:
        assert model.text() == text, (model.text(), text)
        print("shows %r" % text)


display.show(*fit4("1:29:58"))      # the display model fits a clock time: h:mm, colon lit
shows(" 1:29")
display.show("1234", colon=True)
shows("12:34")
for d in "0123456789":
    display.show(d * 4)
    shows(d * 4)
display.show("PLAY")
shows("PLAY")
display.brightness = 2
if model is not None:
    assert model.brightness == 2 and model.display_on
print("tm1637_simpletest ok")
