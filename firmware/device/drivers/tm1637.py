"""TM1637: four 7-segment digits with a colon (the common clock module).

Two wires, bit-banged: CLK and DIO, LSB first, start and stop conditions as
in I2C but no address. Pass the two pins as output pin objects (anything with
value()); DIO must be open drain (the chip pulls it low to acknowledge) and
both idle high:

    from machine import Pin
    d = TM1637(Pin(16, Pin.OUT, value=1), Pin(17, Pin.OPEN_DRAIN, value=1), brightness=3)
    d.show("1234", colon=True)      # "12:34"
    d.write(b"\\x3f\\x06\\x5b\\x4f")     # raw segments, digit 0 first

The driver shows characters; what a clock text looks like in four digits is
the display model's job (flagcore.display.fit4).
"""

from flagcore._compat import const

_CMD_DATA = const(0x40)      # data command: write, auto-increment address
_CMD_ADDR = const(0xC0)      # address command: digit 0
_CMD_CTRL = const(0x80)      # display control: | 0x08 on | brightness 0..7
_DISPLAY_ON = const(0x08)
_COLON = const(0x80)         # bit 7 of digit 1 lights the colon
_UNKNOWN = const(0x40)       # a character with no glyph shows as "-"

# segment bits: a=1 b=2 c=4 d=8 e=16 f=32 g=64
_FONT = {
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66, "5": 0x6D, "6": 0x7D,
    "7": 0x07, "8": 0x7F, "9": 0x6F, " ": 0x00, "-": 0x40, "_": 0x08,
    "A": 0x77, "B": 0x7C, "C": 0x39, "D": 0x5E, "E": 0x79, "F": 0x71, "G": 0x3D,
    "H": 0x76, "I": 0x30, "J": 0x1E, "L": 0x38, "N": 0x54, "O": 0x5C, "P": 0x73,
    "R": 0x50, "S": 0x6D, "T": 0x78, "U": 0x3E, "Y": 0x6E,
}
_DECODE = {}
for _c in "YUTSRPONLJIHGFEDCBA_- 9876543210":
    _DECODE[_FONT[_c]] = _c


def encode_segments(chars, colon, out):
    """Fill out[0:4] with the segment bytes of 4 characters (and the colon)."""
    for i in range(4):
        out[i] = _FONT.get(chars[i].upper(), _UNKNOWN) if i < len(chars) else 0
    if colon:
        out[1] |= _COLON


def decode_segments(segs):
    """Text shown by 4 segment bytes (':' after the second digit if the colon is lit)."""
    s = ""
    for i in range(4):
        s += _DECODE.get(segs[i] & 0x7F, "?")
        if i == 1 and segs[1] & _COLON:
            s += ":"
    return s


def _no_wait(us):
    pass


class TM1637:
    """One TM1637 module on two pins."""

    def __init__(self, clk, dio, *, brightness=7, delay_us=5, sleep_us=None):
        self.clk = clk
        self.dio = dio
        self.delay = delay_us
        if sleep_us is None:
            import time
            sleep_us = getattr(time, "sleep_us", _no_wait)
        self.sleep_us = sleep_us
        self.buf = bytearray(4)
        self._brightness = brightness & 7
        self._command(_CMD_CTRL | _DISPLAY_ON | self._brightness)

    @property
    def brightness(self):
        """0 (dim) .. 7 (bright)."""
        return self._brightness

    @brightness.setter
    def brightness(self, v):
        self._brightness = v & 7
        self._command(_CMD_CTRL | _DISPLAY_ON | self._brightness)

    def _start(self):
        self.dio.value(0)
        self.sleep_us(self.delay)

    def _stop(self):
        clk = self.clk
        dio = self.dio
        clk.value(0)
        dio.value(0)
        clk.value(1)
        self.sleep_us(self.delay)
        dio.value(1)

    def _byte(self, b):
        clk = self.clk
        dio = self.dio
        d = self.delay
        wait = self.sleep_us
        for i in range(8):
            clk.value(0)
            dio.value((b >> i) & 1)
            wait(d)
            clk.value(1)
            wait(d)
        clk.value(0)
        dio.value(1)      # release DIO: the chip pulls it low to acknowledge
        clk.value(1)
        wait(d)

    def _command(self, cmd):
        self._start()
        self._byte(cmd)
        self._stop()

    def write(self, segments):
        """Send up to 4 segment bytes, digit 0 first."""
        self._command(_CMD_DATA)
        self._start()
        self._byte(_CMD_ADDR)
        for b in segments:
            self._byte(b)
        self._stop()
        self._command(_CMD_CTRL | _DISPLAY_ON | self._brightness)

    def show(self, chars, colon=False):
        """Show up to 4 characters (digits, space, '-', '_' and the letters of the font)."""
        encode_segments(chars, colon, self.buf)
        self.write(self.buf)
