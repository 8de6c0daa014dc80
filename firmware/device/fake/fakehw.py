"""Fake hardware backend: pins, buses and board models for the tests and the simulator.

FakeHAL implements the device.hal interface in memory. Never deployed:
tools/firmware_manifest.py ships only what a device imports. Models attach to pin
names the way the real parts are wired (attach_profile does it from a board
profile): a reed-switch matrix with or without diodes, a 74HC165 chain,
MCP23017 expanders, a TM1637 that decodes the bit-banged protocol, and a
battery that drains with time (FakeBattery). So the real drivers run unchanged
against them. The store that survives a power loss sits on a model of the flash (FakeFlash:
power cuts at any byte); its files (`files`, {name: text}) handed to a new FakeHAL
boot the device again after one. Time is `now` (advanced by the
caller) or an injected time source.
"""

from device.buses import Buses

_MASK = (1 << 30) - 1


class FakePin:
    """One pin: a level, plus optional read/write hooks from a model."""

    def __init__(self, hal, name, level):
        self.hal = hal
        self.name = name
        self.level = level

    def value(self, v=None):
        """Read (no argument) or drive the pin."""
        if v is None:
            r = self.hal.readers.get(self.name)
            return r() if r else self.level
        v = 1 if v else 0
        self.level = v
        w = self.hal.writers.get(self.name)
        if w:
            w(v)


class FakeI2C:
    """An I2C bus with model devices at addresses."""

    def __init__(self, hal, cfg):
        self.hal = hal
        self.cfg = cfg

    def _dev(self, addr):
        d = self.hal.i2c_devices.get(addr)
        if d is None:
            raise OSError(19, "no I2C device at 0x%02X" % addr)  # ENODEV, as MicroPython
        return d

    def writeto(self, addr, buf):
        """Write raw bytes to a device (the model copies what it keeps: like a real bus, no copy of the
        whole transfer is made in the device's heap, which tools/bench_firmware.py measures)."""
        self._dev(addr).write(buf)

    def writeto_mem(self, addr, reg, buf):
        """Write registers starting at reg."""
        self._dev(addr).write(bytes([reg]) + bytes(buf))

    def readfrom_mem_into(self, addr, reg, buf):
        """Read registers starting at reg into buf."""
        self._dev(addr).read_into(reg, buf)


class FakeSPI:
    """An SPI bus whose reads come from a model (a 74HC165 chain)."""

    def __init__(self, hal, cfg):
        self.hal = hal
        self.cfg = cfg
        self.written = bytearray()

    def readinto(self, buf):
        """Clock bytes in from the model."""
        src = self.hal.spi_source
        if src is None:
            for i in range(len(buf)):
                buf[i] = 0xFF
        else:
            src(buf)

    def write(self, buf):
        """Record bytes written."""
        self.written.extend(buf)


class FakeTone:
    """A buzzer PWM output that remembers its frequency (0 = silent)."""

    def __init__(self):
        self.freq = 0
        self.log = []

    def on(self, freq):
        """Sound at freq."""
        self.freq = freq

    def off(self):
        """Silence."""
        self.freq = 0


class FakeHAL(Buses):
    """In-memory HAL; `board` (a FakeBoard) appears after attach_profile()."""

    name = "fake"
    battery = None             # a FakeBattery once add_battery() wired one
    files = None               # the store: {name: text} once something was saved

    def __init__(self, now=0, time_source=None):
        self.now = now
        self.time_source = time_source
        self.pins = {}
        self.preset = {}
        self.readers = {}
        self.writers = {}
        self.i2c_devices = {}
        self.spi_source = None
        self.tones = {}
        self.board = None
        self.tm1637 = {}
        self.flash = FakeFlash()

    # -- time ------------------------------------------------------------
    def ticks_ms(self):
        """Milliseconds, wrapping at 2**30: injected source or `now`."""
        if self.time_source is not None:
            return self.time_source() & _MASK
        return self.now & _MASK

    def advance(self, ms):
        """Move fake time forward."""
        self.now += ms

    def sleep_us(self, n):
        """No-op: fake hardware settles at once."""

    def sleep_ms(self, n):
        """No-op unless time is fake and manual: then time moves."""
        if self.time_source is None:
            self.now += n

    # -- pins and buses ---------------------------------------------------
    def _claim(self, pin, level):
        if pin in self.pins:
            raise ValueError("pin %r claimed twice" % (pin,))
        p = FakePin(self, pin, self.preset.pop(pin, level))
        self.pins[pin] = p
        return p

    def pin_in(self, pin, pull_up=True):
        """An input pin (idle high with a pull-up)."""
        return self._claim(pin, 1 if pull_up else 0)

    def pin_out(self, pin, value=0, open_drain=False):
        """An output pin."""
        p = self._claim(pin, 1 if value else 0)
        w = self.writers.get(pin)
        if w:
            w(p.level)
        return p

    def set_input(self, pin, level):
        """Drive an input from outside (a button); before the pin is claimed, its level at claim."""
        if pin in self.pins:
            self.pins[pin].level = level
        else:
            self.preset[pin] = level

    def i2c(self, cfg):
        """A fake I2C bus."""
        return FakeI2C(self, cfg)

    def spi(self, cfg):
        """A fake SPI bus."""
        return FakeSPI(self, cfg)

    def adc(self, pin, atten=None):
        """An analog input (read_u16): what a model puts on it (the battery), 0 without one."""
        self._claim(pin, 0)
        return FakeADC(self, pin)

    def gauge(self, cfg):
        """The cell's voltage from an I2C monitor (the Raspberry Pi's INA219) on a profile bus: the fake
        battery's, through read_uv() as the Blinka backend's (device/hal_blinka.py)."""
        self.bus(cfg["bus"])
        return FakeGauge(self)

    # the store: device.buses.Buses.save/load (written aside, renamed) on a model of the flash
    def write_file(self, path, text):
        """Write a whole file to the fake flash (PowerCut when its power goes mid-write)."""
        self.flash.write(path, text)

    def rename_file(self, old, new):
        """Rename on the fake flash (one atomic commit, as littlefs's)."""
        self.flash.rename(old, new)

    def read_file(self, path):
        """A file's text from the fake flash."""
        return self.flash.read(path)

    @property
    def files(self):
        """{name: text} of what the store keeps (a copy), or None before anything was saved."""
        f = self.flash.files
        out = {}
        for path in f:
            if path.endswith(".txt"):
                out[path[:-4]] = f[path].decode()
        return out or None

    @files.setter
    def files(self, kept):
        """Boot on a store that keeps {name: text} (a device after a power loss)."""
        self.flash.files = {}
        for name in kept or {}:
            self.flash.files[name + ".txt"] = kept[name].encode()

    def raw_ms(self):
        """Milliseconds without the wrap (for models that measure long spans)."""
        return self.time_source() if self.time_source is not None else self.now

    def tone(self, pin):
        """A fake buzzer output."""
        self._claim(pin, 0)
        t = FakeTone()
        self.tones[pin] = t
        return t

    # -- models -----------------------------------------------------------
    def attach_profile(self, profile):
        """Wire board models for a profile's sensors and displays; returns the FakeBoard."""
        s = profile.get("sensors")
        self.add_board(sensor_count(profile))
        if s:
            t = s["type"]
            if t == "matrix":
                self.add_matrix(s["rows"], s["cols"], s.get("diodes", True))
            elif t == "hc165":
                self.add_hc165(s["load"], s["chips"], s.get("clk"), s.get("data"), spi="spi" in s)
            elif t == "mcp23017":
                for k, addr in enumerate(s["addresses"]):
                    self.add_mcp23017(addr, k * 16)
            else:
                raise ValueError("no fake model for sensor type %r" % t)
        for d in profile.get("displays", ()):
            if d["type"] == "tm1637":
                self.add_tm1637(d["clk"], d["dio"], d.get("side", "white"))
            elif d["type"] == "ssd1306":
                self.add_ssd1306(d.get("addr", 0x3C))
        b = profile.get("battery")
        if b:
            # a cell on an analog pin, or measured by an I2C monitor (the gauge: no pin, no divider)
            self.add_battery(b.get("adc"), b.get("divider", 1), b.get("chemistry", "li-ion"))
        return self.board

    # one part at a time (attach_profile uses these; so do the driver examples)
    def add_board(self, n):
        """The pieces over n sensors (a FakeBoard, also `hal.board`)."""
        self.board = FakeBoard(n)
        return self.board

    def add_matrix(self, rows, cols, diodes=True):
        """Reed switches on the crossings of row pins (driven) and column pins (read)."""
        return MatrixModel(self, self.board, rows, cols, diodes)

    def add_hc165(self, load, chips, clk=None, data=None, spi=False):
        """A 74HC165 chain: load pin, then clk/data pins or (spi=True) the SPI bus's reads."""
        cfg = {"load": load, "chips": chips}
        if spi:
            cfg["spi"] = True
        else:
            cfg["clk"] = clk
            cfg["data"] = data
        return _HC165Model(self, self.board, cfg)

    def add_mcp23017(self, address, first=0):
        """An MCP23017 at an I2C address whose 16 pins are sensors first .. first + 15."""
        m = _MCP23017Model(self.board, first)
        self.i2c_devices[address] = m
        return m

    def add_tm1637(self, clk, dio, side="white"):
        """A TM1637 on two pins that decodes what the driver sends (model.text())."""
        m = _TM1637Model(self, clk, dio)
        self.tm1637[side] = m
        return m

    def add_battery(self, pin, divider=1, chemistry="li-ion", pct=100, hours=30):
        """A cell behind a divider on an analog pin, full at pct and empty after `hours` (FakeBattery)."""
        self.battery = FakeBattery(self, pin, divider, chemistry, pct, hours)
        return self.battery

    def add_ssd1306(self, addr=0x3C):
        """An SSD1306 at an I2C address that keeps the last frame (model.frame)."""
        m = _SSD1306Model()
        self.i2c_devices[addr] = m
        return m


class PowerCut(OSError):
    """The power went while the fake flash was being written."""


class FakeFlash:
    """The store's flash, to test a power cut at every byte of a write (under CPython and MicroPython).

    Files are kept whole once written (`files`: path -> bytes). `cut_after` = k cuts the power after k
    more bytes reached the flash (a rename is one more step): the write stops there with PowerCut,
    the part written stays in the file being written, a rename not reached is not done. `writes`
    counts the files written. The wear (bytes programmed, blocks erased) is measured on littlefs
    itself, not here: tools/bench_wear.py (docs/clock.md, "Flash wear")."""

    def __init__(self):
        self.files = {}
        self.cut_after = None
        self.writes = 0

    def image(self):
        """What the flash holds (for a new FakeHAL after a power cycle)."""
        return dict(self.files)

    def restore(self, image):
        """Hold the files of an image()."""
        self.files = dict(image)

    def _bytes(self, n):
        """n more bytes reach the flash, unless the power goes first."""
        if self.cut_after is not None:
            if self.cut_after < n:
                self.cut_after = 0
                raise PowerCut("power cut")
            self.cut_after -= n

    def write(self, path, text):
        """Write a whole file, byte by byte (the power may go after any of them)."""
        data = text.encode()
        cut = self.cut_after
        if cut is not None and cut < len(data):
            self.files[path] = data[:cut]    # the bytes that reached the flash before the power went
            self._bytes(len(data))
        self.files[path] = data
        self._bytes(len(data))
        self.writes += 1

    def rename(self, old, new):
        """Rename old over new: done whole or not at all."""
        self._bytes(1)
        self.files[new] = self.files.pop(old)

    def read(self, path):
        """A file's text; OSError when there is none."""
        if path not in self.files:
            raise OSError(2, "no file %s" % path)
        return self.files[path].decode()


def sensor_count(profile):
    """Sensors the profile's board needs: every square, or only the dark ones."""
    b = profile["board"]
    n = b["rows"] * b["cols"]
    return n // 2 if b.get("layout") == "dark" else n


class FakeADC:
    """An analog input pin, read as machine.ADC.read_u16 reads it (0-65535 for 0-3.3 V), from a model."""

    def __init__(self, hal, pin):
        self.hal = hal
        self.pin = pin

    def read_u16(self):
        """The pin's voltage (a model's millivolts) on the 16-bit scale."""
        b = self.hal.battery
        mv = b.pin_mv() if b is not None and b.pin == self.pin else 0
        return min(65535, (mv * 65535 + 1650) // 3300)


class FakeGauge:
    """An I2C battery monitor (INA219) reading the fake battery's cell voltage: read_uv() in microvolts.
    With no battery model (`hal.battery = None`) the monitor does not answer, as the Blinka backend's
    when the chip is missing: OSError."""

    def __init__(self, hal):
        self.hal = hal

    def read_uv(self):
        """The cell's voltage now; OSError without a battery model (no monitor answering)."""
        b = self.hal.battery
        if b is None:
            raise OSError(5, "battery monitor does not answer")
        return b.cell_mv() * 1000


class FakeBattery:
    """A cell that drains steadily: `pct` now, `hours` from full to empty (the simulator's battery).

    The level follows the fake time (an injected source or `now`); set(pct) puts a level in at
    once (a swapped or nearly empty cell); the pin sees the cell's voltage on its discharge curve
    (flagcore.battery.CURVES) through the divider."""

    def __init__(self, hal, pin, divider, chemistry, pct, hours):
        from flagcore.battery import CURVES
        self.hal = hal
        self.pin = pin
        self.divider = divider
        self.curve = CURVES[chemistry]
        self.hours = hours
        self.set(pct)

    def set(self, pct):
        """The level from now on starts at pct."""
        self.start_pct = pct
        self.start_ms = self.hal.raw_ms()

    def pct(self):
        """The level now (a float, 0 at empty)."""
        p = self.start_pct - (self.hal.raw_ms() - self.start_ms) * 100.0 / (self.hours * 3600000)
        return p if p > 0 else 0.0

    def cell_mv(self):
        """The cell's voltage now."""
        return voltage(int(self.pct() + 0.5), self.curve)

    def pin_mv(self):
        """What the analog pin reads: the cell through the divider."""
        return int(self.cell_mv() / self.divider)


def voltage(pct, curve):
    """The cell voltage (mV) at a level in percent on a (mV, percent) curve: flagcore.battery.level() inverted."""
    if pct <= curve[0][1]:
        return curve[0][0]
    for i in range(1, len(curve)):
        v1, p1 = curve[i]
        if pct <= p1:
            v0, p0 = curve[i - 1]
            return v0 + (v1 - v0) * (pct - p0) // (p1 - p0)
    return curve[-1][0]


class FakeBoard:
    """Which sensors have a magnet over them (1 = piece present)."""

    def __init__(self, n):
        self.n = n
        self.occ = bytearray(n)

    def place(self, sq):
        """Put a piece on sensor sq."""
        self.occ[sq] = 1

    def lift(self, sq):
        """Take the piece off sensor sq."""
        self.occ[sq] = 0

    def set_all(self, bits):
        """Set every sensor from a sequence of 0/1."""
        for i in range(self.n):
            self.occ[i] = 1 if bits[i] else 0


class MatrixModel:
    # rows are driven low one at a time; a column reads low through a closed
    # switch (and, with diodes, only through one switch)
    def __init__(self, hal, board, rows, cols, diodes):
        self.hal = hal
        self.board = board
        self.rows = rows
        self.cols = cols
        self.diodes = diodes
        for c, name in enumerate(cols):
            hal.readers[name] = self._reader(c)

    def _reader(self, c):
        def read():
            return 0 if self._low(c) else 1
        return read

    def _low(self, c):
        occ = self.board.occ
        nc = len(self.cols)
        pins = self.hal.pins
        if self.diodes:
            # no allocation here: the app's scan loop runs through this model in the benches
            for r in range(len(self.rows)):
                p = pins.get(self.rows[r])
                if p is not None and p.level == 0 and occ[r * nc + c]:
                    return True
            return False
        return self._sneak(c)

    def _sneak(self, c):
        # no diodes: current flows both ways through switches (sneak paths)
        return self._reached(c, (), None)

    def _reached(self, c, dead, backwards):
        # True if current finds a way from column c to a driven row (a dead row is never driven):
        # through a switch from its column to its row, and backwards through switch k only if
        # backwards is None (no diodes at all) or k is in it (a switch missing its diode)
        occ = self.board.occ
        nc = len(self.cols)
        nr = len(self.rows)
        pins = self.hal.pins
        low_rows = [r for r, name in enumerate(self.rows)
                    if name in pins and pins[name].level == 0 and r not in dead]
        seen_r = set(low_rows)
        seen_c = set()
        todo = list(low_rows)
        while todo:
            r = todo.pop()
            for cc in range(nc):
                if occ[r * nc + cc] and cc not in seen_c:
                    seen_c.add(cc)
                    for rr in range(nr):
                        k = rr * nc + cc
                        if occ[k] and rr not in seen_r and (backwards is None or k in backwards):
                            seen_r.add(rr)
                            todo.append(rr)
        return c in seen_c


class _HC165Model:
    # bit k shifted out is sensor k (chip k // 8 nearest the MCU first, D7 first);
    # inputs are pulled up and a closed reed pulls to ground
    def __init__(self, hal, board, cfg):
        self.hal = hal
        self.board = board
        self.bits = 8 * cfg["chips"]
        self.latched = bytearray(self.bits)
        self.pos = 0
        self.clk_level = 0
        hal.writers[cfg["load"]] = self._load
        if "spi" in cfg:
            hal.spi_source = self._spi
        else:
            hal.writers[cfg["clk"]] = self._clk
            hal.readers[cfg["data"]] = self._data

    def _load(self, v):
        if v == 0:  # parallel load while SH/LD is low
            occ = self.board.occ
            for k in range(self.bits):
                self.latched[k] = 0 if (k < len(occ) and occ[k]) else 1
            self.pos = 0

    def _clk(self, v):
        if v and not self.clk_level:
            self.pos += 1
        self.clk_level = v

    def _data(self):
        return self.latched[self.pos] if self.pos < self.bits else 1

    def _spi(self, buf):
        for j in range(len(buf)):
            v = 0
            for b in range(8):
                k = self.pos + 8 * j + b
                bit = self.latched[k] if k < self.bits else 1
                v |= bit << (7 - b)
            buf[j] = v
        self.pos += 8 * len(buf)


class _MCP23017Model:
    # registers in BANK=0 order; GPIOA 0x12, GPIOB 0x13; pins read low when a
    # reed closes, high through the pull-up when enabled, else float (read 0)
    def __init__(self, board, first):
        self.board = board
        self.first = first
        self.regs = bytearray(22)
        self.regs[0] = 0xFF
        self.regs[1] = 0xFF

    def write(self, data):
        reg = data[0]
        for i, v in enumerate(data[1:]):
            if reg + i < 22:
                self.regs[reg + i] = v

    def _port(self, p):
        occ = self.board.occ
        pull = self.regs[0x0C + p]
        v = 0
        for b in range(8):
            k = self.first + 8 * p + b
            closed = k < len(occ) and occ[k]
            if not closed and pull & (1 << b):
                v |= 1 << b
        return v

    def read_into(self, reg, buf):
        for i in range(len(buf)):
            r = reg + i
            buf[i] = self._port(r - 0x12) if r in (0x12, 0x13) else self.regs[r % 22]


class _SSD1306Model:
    def __init__(self):
        self.commands = 0
        self.data_bytes = 0
        self.frame = b""

    def write(self, data):
        if data[0] == 0x40:
            n = len(data) - 1
            self.data_bytes += n
            if len(self.frame) != n:
                self.frame = bytearray(n)
            self.frame[:] = memoryview(data)[1:]   # the display's own RAM: overwritten in place
        else:
            self.commands += len(data) - 1

    def read_into(self, reg, buf):
        raise OSError(5, "SSD1306 is write-only")


class _TM1637Model:
    # decodes start/stop conditions and LSB-first bytes clocked on CLK rising edges
    def __init__(self, hal, clk, dio):
        self.hal = hal
        self.clk = clk
        self.dio = dio
        self.clk_level = 1
        self.dio_level = 1
        self.bits = 0
        self.nbits = 0
        self.frame = []
        self.segments = bytearray(6)
        self.display_on = False
        self.brightness = 0
        hal.writers[clk] = self._clk
        hal.writers[dio] = self._dio

    def _dio(self, v):
        if self.clk_level:
            if self.dio_level and not v:      # start
                self.frame = []
                self.bits = 0
                self.nbits = 0
            elif v and not self.dio_level:    # stop
                self._apply(self.frame)
        self.dio_level = v

    def _clk(self, v):
        if v and not self.clk_level:
            if self.nbits < 8:
                self.bits |= self.dio_level << self.nbits
            self.nbits += 1
            if self.nbits == 9:               # 9th clock is the ACK
                self.frame.append(self.bits)
                self.bits = 0
                self.nbits = 0
        self.clk_level = v

    def _apply(self, f):
        if not f:
            return
        cmd = f[0]
        if cmd & 0xC0 == 0xC0:
            addr = cmd & 0x07
            for i, b in enumerate(f[1:]):
                if addr + i < 6:
                    self.segments[addr + i] = b
        elif cmd & 0xF0 == 0x80:
            self.display_on = bool(cmd & 0x08)
            self.brightness = cmd & 0x07

    def text(self):
        """The four digits as characters (via the driver's font), colon as ':' after digit 2."""
        from device.drivers.tm1637 import decode_segments
        return decode_segments(self.segments[:4])


class FakeStream:
    """A serial line in memory: the host side writes `inbox`, the app fills `outbox`."""

    def __init__(self):
        self.inbox = bytearray()
        # what the device sent, one chunk per write: a test that reads it only at the end would otherwise
        # grow one bytearray that needs a contiguous block of the whole output (tens of KB on a
        # microcontroller's fragmented heap, tools/mcu.py); a real serial line keeps none of it
        self.outbox = []

    def read(self):
        """Bytes waiting for the device (possibly empty)."""
        if not self.inbox:
            return None
        b = bytes(self.inbox)
        self.inbox = bytearray()
        return b

    def write(self, b):
        """The device sends bytes."""
        self.outbox.append(bytes(b))

    def take(self):
        """Everything the device has sent since the last take()."""
        b = b"".join(self.outbox)
        self.outbox = []
        return b

    def chunks(self):
        """What the device has sent since the last take(), as it wrote it (no block the size of the whole)."""
        c = self.outbox
        self.outbox = []
        return c
