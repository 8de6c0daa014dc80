"""SSD1306 simple test: three lines of text on a 128x64 OLED over I2C.

On a MicroPython board: I2C 0 on SDA GPIO 4, SCL GPIO 5, the OLED at 0x3C.
Anywhere else: the fake hardware, whose SSD1306 model keeps the last frame
sent (drawn by framebuf under MicroPython; blank on CPython, which has no
framebuf, but the same bytes go over the bus).
"""
from device.drivers.ssd1306 import SSD1306_I2C

ADDR = 0x3C
try:
    from machine import I2C, Pin
    i2c = I2C(0, sda=Pin(4), scl=Pin(5), freq=400000)
    model = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    hal = FakeHAL()
    model = hal.add_ssd1306(ADDR)
    i2c = hal.i2c({"sda": 4, "scl": 5})

oled = SSD1306_I2C(128, 64, i2c, addr=ADDR)
oled.fill(0)
oled.text("Flagfall", 0, 0, 1)
oled.text("W 1:30:00", 0, 16, 1)
oled.text("B 1:30:00", 0, 32, 1)
oled.show()
if model is not None:
    assert len(model.frame) == 128 * 64 // 8 and model.commands > 20
    if oled.fb is not None:        # framebuf drew the text: pages 0, 2 and 4 have pixels, 6 and 7 none
        lit = [sum(1 for b in model.frame[p * 128:(p + 1) * 128] if b) for p in range(8)]
        assert lit[0] and lit[2] and lit[4] and not lit[6] and not lit[7], lit
        print("lit columns per page: %r" % lit)
    print("frame of %d bytes sent to 0x%02X" % (len(model.frame), ADDR))
oled.contrast(64)
oled.poweroff()
oled.poweron()
print("ssd1306_simpletest ok")
