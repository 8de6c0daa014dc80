"""SSD1306 monochrome OLED (128x64 or 128x32) over I2C.

    d = SSD1306_I2C(128, 64, i2c, addr=0x3C)
    d.fill(0)
    d.text("5:00", 0, 0, 1)
    d.show()                # send the frame

The frame is drawn with MicroPython's `framebuf` (or adafruit_framebuf under
Blinka); where neither exists (CPython with the fake hardware) fill() and
text() draw nothing and show() still sends the (blank) frame, so the bus
traffic is the same.
"""

from flagcore._compat import const

try:
    import framebuf
    _FB = framebuf.FrameBuffer
    _MONO = framebuf.MONO_VLSB
except ImportError:
    try:
        import adafruit_framebuf as framebuf
        _FB = framebuf.FrameBuffer
        _MONO = framebuf.MVLSB
    except ImportError:
        _FB = None
        _MONO = 0

_CONTROL_CMD = const(0x80)     # control byte: one command follows
_CONTROL_DATA = const(0x40)    # control byte: display data follows
_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)   # follow RAM
_SET_NORM_INV = const(0xA6)    # not inverted
_SET_DISP = const(0xAE)        # | 1 = on
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)   # | 1: column 127 is SEG0
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)  # | 8: scan COM from the bottom
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)


class SSD1306_I2C:
    """One SSD1306 on an I2C bus (anything with writeto(addr, buf))."""

    def __init__(self, width, height, i2c, *, addr=0x3C, external_vcc=False):
        self.width = width
        self.height = height
        self.i2c = i2c
        self.addr = addr
        self.external_vcc = external_vcc
        self.pages = height // 8
        self.cmd = bytearray(2)
        self.cmd[0] = _CONTROL_CMD
        # one buffer: the data control byte, then the frame, sent in one write
        self.buf = bytearray(1 + width * self.pages)
        self.buf[0] = _CONTROL_DATA
        self.fb = _FB(memoryview(self.buf)[1:], width, height, _MONO) if _FB else None
        self.init_display()

    def write_cmd(self, c):
        """Send one command byte."""
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def init_display(self):
        """The power-up sequence, then display on."""
        for c in (
            _SET_DISP,                               # off
            _SET_MEM_ADDR, 0x00,                     # horizontal addressing
            _SET_DISP_START_LINE,
            _SET_SEG_REMAP | 1,
            _SET_COM_OUT_DIR | 8,
            _SET_DISP_OFFSET, 0x00,
            _SET_DISP_CLK_DIV, 0x80,
            _SET_PRECHARGE, 0x22 if self.external_vcc else 0xF1,
            _SET_VCOM_DESEL, 0x30,
            _SET_CONTRAST, 0xCF,
            _SET_ENTIRE_ON,
            _SET_NORM_INV,
            _SET_CHARGE_PUMP, 0x10 if self.external_vcc else 0x14,
            _SET_MUX_RATIO, self.height - 1,
            _SET_COM_PIN_CFG, 0x12 if self.height == 64 else 0x02,
            _SET_DISP | 1,                           # on
        ):
            self.write_cmd(c)

    def poweroff(self):
        """Display off (RAM kept)."""
        self.write_cmd(_SET_DISP)

    def poweron(self):
        """Display on."""
        self.write_cmd(_SET_DISP | 1)

    def contrast(self, v):
        """Contrast 0..255."""
        self.write_cmd(_SET_CONTRAST)
        self.write_cmd(v & 0xFF)

    def fill(self, c):
        """Clear (0) or light (1) the whole frame."""
        if self.fb is not None:
            self.fb.fill(c)

    def text(self, s, x, y, c=1):
        """Draw 8x8 text at (x, y)."""
        if self.fb is not None:
            self.fb.text(s, x, y, c)

    def show(self):
        """Send the frame to the display."""
        for c in (_SET_COL_ADDR, 0, self.width - 1, _SET_PAGE_ADDR, 0, self.pages - 1):
            self.write_cmd(c)
        self.i2c.writeto(self.addr, self.buf)
