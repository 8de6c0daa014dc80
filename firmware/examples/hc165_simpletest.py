"""74HC165 simple test: a chain of 2 chips (16 reeds), bit-banged, then over SPI.

On a MicroPython board: SH/LD on GPIO 1, CLK on GPIO 2, QH on GPIO 3 (bit-banged);
for SPI, SCK on CLK and MISO on QH of the same chain (SPI 0).
Anywhere else: the fake hardware's 74HC165 model, magnets on sensors 0, 7 and 13.
"""
from device.drivers.hc165 import HC165, HC165_SPI

LOAD, CLK, DATA, CHIPS = 1, 2, 3, 2
try:
    from machine import SPI, Pin
    board = None

    def bitbanged():
        return HC165(Pin(LOAD, Pin.OUT, value=1), Pin(CLK, Pin.OUT, value=0), Pin(DATA, Pin.IN), chips=CHIPS)

    def over_spi():
        spi = SPI(0, baudrate=1000000, sck=Pin(CLK), miso=Pin(DATA))
        return HC165_SPI(spi, Pin(LOAD, Pin.OUT, value=1), chips=CHIPS)
except ImportError:
    from device.fake.fakehw import FakeHAL

    def rig(spi):
        hal = FakeHAL()
        b = hal.add_board(8 * CHIPS)
        hal.add_hc165(LOAD, CHIPS, CLK, DATA, spi=spi)
        for k in (0, 7, 13):
            b.place(k)
        return hal, b

    def bitbanged():
        hal, _ = rig(False)
        return HC165(hal.pin_out(LOAD, 1), hal.pin_out(CLK, 0), hal.pin_in(DATA, pull_up=False), chips=CHIPS)

    def over_spi():
        hal, _ = rig(True)
        return HC165_SPI(hal.spi({"sck": CLK, "miso": DATA}), hal.pin_out(LOAD, 1), chips=CHIPS)
    board = True

for make in (bitbanged, over_spi):
    chain = make()
    buf = bytearray(chain.n)
    chain.read_into(buf)
    closed = [k for k in range(chain.n) if buf[k]]
    print("%s: closed %r" % (type(chain).__name__, closed))
    if board is not None:
        assert closed == [0, 7, 13], closed
print("hc165_simpletest ok")
