"""SSD1306 128x64 (or 128x32) OLED over I2C.

cfg: {"type": "ssd1306", "bus": "i2c0", "addr": 60, "width": 128,
"height": 64, "side": "both"}. show(lines) draws up to height/16 lines of
8x8 text. Drawing uses MicroPython's `framebuf` (or adafruit_framebuf under
Blinka); where neither exists (the fake backend on CPython) the text is kept
in `lines` and nothing is drawn.
"""

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

_INIT = (
    0xAE,             # display off
    0x20, 0x00,       # horizontal addressing
    0x40,             # start line 0
    0xA1,             # segment remap (column 127 is SEG0)
    0xC8,             # scan COM from the bottom
    0xD3, 0x00,       # no vertical offset
    0xD5, 0x80,       # clock divide
    0xD9, 0xF1,       # pre-charge
    0xDB, 0x30,       # VCOMH level
    0x81, 0xCF,       # contrast
    0xA4,             # follow RAM
    0xA6,             # not inverted
    0x8D, 0x14,       # charge pump on (3.3 V modules)
)


class SSD1306:
    """One SSD1306 OLED on an I2C bus."""

    def __init__(self, hal, cfg):
        self.side = cfg.get("side", "both")
        self.addr = cfg.get("addr", 0x3C)
        self.width = cfg.get("width", 128)
        self.height = cfg.get("height", 64)
        self.i2c = hal.bus(cfg["bus"])
        self.pages = self.height // 8
        self.cmd = bytearray(2)
        self.cmd[0] = 0x80
        # one buffer: a 0x40 data prefix, then the frame, sent in one write
        self.buf = bytearray(1 + self.width * self.pages)
        self.buf[0] = 0x40
        self.fb = _FB(memoryview(self.buf)[1:], self.width, self.height, _MONO) if _FB else None
        self.lines = None
        for c in _INIT:
            self._c(c)
        self._c(0xA8)
        self._c(self.height - 1)
        self._c(0xDA)
        self._c(0x12 if self.height == 64 else 0x02)
        self._c(0xAF)

    def _c(self, c):
        self.cmd[1] = c
        self.i2c.writeto(self.addr, self.cmd)

    def show(self, lines):
        """Draw the lines (up to height/16 of them, 16 characters each)."""
        lines = tuple(lines)
        if lines == self.lines:
            return
        self.lines = lines
        if self.fb is not None:
            self.fb.fill(0)
            for i in range(min(len(lines), self.pages // 2)):
                self.fb.text(lines[i][:self.width // 8], 0, i * 16, 1)
        for c in (0x21, 0, self.width - 1, 0x22, 0, self.pages - 1):
            self._c(c)
        self.i2c.writeto(self.addr, self.buf)
