"""TM1637 four-digit 7-segment display (the common clock module with a colon).

Two-wire, bit-banged: CLK and DIO, LSB first, start/stop like I2C but with no
address. cfg: {"type": "tm1637", "clk": PIN, "dio": PIN, "side": "white",
"brightness": 0..7, "delay_us": 5}. show(lines) shows lines[0] made to fit
four digits: clock times keep their colon ("5:00", "1:29" for 1:29:58,
"12:3" for 12.3 s).
"""

# segment bits: a=1 b=2 c=4 d=8 e=16 f=32 g=64; bit 7 is the colon after digit 2
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


def _right(t):
    t = t[-4:]
    return " " * (4 - len(t)) + t


def _left(t):
    t = t[:4]
    return t + " " * (4 - len(t))


def fit4(text):
    """Four display characters and a colon flag for a clock or menu text."""
    if ":" in text:
        try:
            return _time4(text.strip())
        except ValueError:
            pass  # not a clock time (a message): shown as text
    return _left(text.upper()), False


def _time4(t):
    for ch in t:
        if ch not in "0123456789:.":
            raise ValueError(t)
    if t.count(":") == 2:                     # h:mm:ss -> h:mm (hh:mm from 10 h)
        h, m, _ = t.split(":")
        return _right(h + m), True
    m, rest = t.split(":")
    if "." in rest:                           # 0:12.3 -> 12:3 (seconds and tenths)
        s, d = rest.split(".")
        if m == "0":
            return _left(s + d), True
        return _right(m + s), True
    return _right(m + rest), True              # m:ss or mm:ss


def encode_segments(chars, colon, out):
    """Fill out[0:4] with segment bytes for 4 characters."""
    for i in range(4):
        out[i] = _FONT.get(chars[i].upper(), 0x40)
    if colon:
        out[1] |= 0x80


def decode_segments(segs):
    """Text shown by 4 segment bytes (':' after the second digit if the colon is lit)."""
    s = ""
    for i in range(4):
        s += _DECODE.get(segs[i] & 0x7F, "?")
        if i == 1 and segs[1] & 0x80:
            s += ":"
    return s


class TM1637:
    """One TM1637 module."""

    def __init__(self, hal, cfg):
        self.hal = hal
        self.side = cfg.get("side", "white")
        self.delay = cfg.get("delay_us", 5)
        self.brightness = cfg.get("brightness", 7) & 7
        self.clk = hal.pin_out(cfg["clk"], 1)
        self.dio = hal.pin_out(cfg["dio"], 1, open_drain=True)
        self.buf = bytearray(4)
        self.text = None
        self._command(0x88 | self.brightness)

    def _start(self):
        self.dio.value(0)
        self.hal.sleep_us(self.delay)

    def _stop(self):
        clk = self.clk
        dio = self.dio
        clk.value(0)
        dio.value(0)
        clk.value(1)
        self.hal.sleep_us(self.delay)
        dio.value(1)

    def _byte(self, b):
        clk = self.clk
        dio = self.dio
        d = self.delay
        for i in range(8):
            clk.value(0)
            dio.value((b >> i) & 1)
            self.hal.sleep_us(d)
            clk.value(1)
            self.hal.sleep_us(d)
        clk.value(0)
        dio.value(1)      # release DIO: the chip pulls it low to acknowledge
        clk.value(1)
        self.hal.sleep_us(d)

    def _command(self, cmd):
        self._start()
        self._byte(cmd)
        self._stop()

    def show(self, lines):
        """Show lines[0] (other lines are for bigger displays)."""
        text = lines[0] if lines else ""
        if text == self.text:
            return
        self.text = text
        chars, colon = fit4(text)
        encode_segments(chars, colon, self.buf)
        self._command(0x40)          # write data, auto-increment address
        self._start()
        self._byte(0xC0)             # from digit 0
        for b in self.buf:
            self._byte(b)
        self._stop()
        self._command(0x88 | self.brightness)
