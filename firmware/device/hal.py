"""The small hardware interface the factory opens pins and buses with, and its real backends.

A HAL gives:
    pin_in(pin, pull_up=True)  -> object with value() -> 0/1
    pin_out(pin, value=0)      -> object with value(v)
    i2c(cfg)                   -> writeto(addr, buf), writeto_mem(addr, reg, buf),
                                  readfrom_mem_into(addr, reg, buf)
    spi(cfg)                   -> readinto(buf), write(buf)
    tone(pin)                  -> on(freq), off()  (PWM for a passive buzzer)
    ticks_ms(), sleep_us(n), sleep_ms(n)
Pins are what the profile names them: GPIO numbers for `machine`, board
attribute names ("D4") for Blinka. Buses are declared once in the profile
("buses": {"i2c0": {"kind": "i2c", ...}}) and the factory asks for them by name
with bus(name) (device.buses). build(name) returns a backend by name.
"""

from device.buses import Buses


class MachineHAL(Buses):
    """MicroPython `machine` backend (Pico, ESP32, ...)."""

    name = "machine"

    def __init__(self):
        import machine
        import time
        self._m = machine
        self._t = time
        self.ticks_ms = time.ticks_ms
        self.sleep_us = time.sleep_us
        self.sleep_ms = time.sleep_ms

    def pin_in(self, pin, pull_up=True):
        """An input pin, pulled up unless told otherwise."""
        P = self._m.Pin
        return P(pin, P.IN, P.PULL_UP if pull_up else None)

    def pin_out(self, pin, value=0, open_drain=False):
        """An output pin set to value (open drain for a shared data line)."""
        P = self._m.Pin
        return P(pin, P.OPEN_DRAIN if open_drain else P.OUT, value=value)

    def i2c(self, cfg):
        """An I2C bus from a profile bus section {id, sda, scl, freq}."""
        m = self._m
        freq = cfg.get("freq", 400000)
        if cfg.get("id", 0) == "soft":
            return m.SoftI2C(sda=m.Pin(cfg["sda"]), scl=m.Pin(cfg["scl"]), freq=freq)
        return m.I2C(cfg.get("id", 0), sda=m.Pin(cfg["sda"]), scl=m.Pin(cfg["scl"]), freq=freq)

    def spi(self, cfg):
        """An SPI bus from a profile bus section {id, sck, miso, mosi?, baudrate}."""
        m = self._m
        kw = {"baudrate": cfg.get("baudrate", 1000000), "polarity": cfg.get("polarity", 0),
              "phase": cfg.get("phase", 0), "sck": m.Pin(cfg["sck"]), "miso": m.Pin(cfg["miso"])}
        if "mosi" in cfg:
            kw["mosi"] = m.Pin(cfg["mosi"])
        return m.SPI(cfg.get("id", 0), **kw)

    def tone(self, pin):
        """PWM tone output for a passive buzzer."""
        return _MachineTone(self._m, pin)


class _MachineTone:
    def __init__(self, m, pin):
        self.pwm = m.PWM(m.Pin(pin))
        self.pwm.duty_u16(0)

    def on(self, freq):
        self.pwm.freq(freq)
        self.pwm.duty_u16(32768)

    def off(self):
        self.pwm.duty_u16(0)


class BlinkaHAL(Buses):
    """Adafruit Blinka backend (board/digitalio/busio) for a Raspberry Pi scanning the board itself."""

    name = "blinka"

    def __init__(self):
        import board
        import digitalio
        import time
        self._board = board
        self._dio = digitalio
        self._time = time

    def ticks_ms(self):
        """Wrapping milliseconds, as time.ticks_ms."""
        return int(self._time.monotonic() * 1000) & 0x3FFFFFFF

    def sleep_us(self, n):
        """Busy-free short sleep."""
        self._time.sleep(n / 1000000)

    def sleep_ms(self, n):
        """Sleep n ms."""
        self._time.sleep(n / 1000)

    def _p(self, name):
        return getattr(self._board, name)

    def pin_in(self, pin, pull_up=True):
        """An input pin, pulled up unless told otherwise."""
        d = self._dio.DigitalInOut(self._p(pin))
        d.direction = self._dio.Direction.INPUT
        if pull_up:
            d.pull = self._dio.Pull.UP
        return _BlinkaPin(d)

    def pin_out(self, pin, value=0, open_drain=False):
        """An output pin set to value (open drain for a shared data line)."""
        d = self._dio.DigitalInOut(self._p(pin))
        mode = self._dio.DriveMode.OPEN_DRAIN if open_drain else self._dio.DriveMode.PUSH_PULL
        d.switch_to_output(value=bool(value), drive_mode=mode)
        return _BlinkaPin(d)

    def i2c(self, cfg):
        """An I2C bus from a profile bus section {sda, scl, freq}."""
        import busio
        return _BlinkaI2C(busio.I2C(self._p(cfg["scl"]), self._p(cfg["sda"]), frequency=cfg.get("freq", 400000)))

    def spi(self, cfg):
        """An SPI bus from a profile bus section {sck, miso, mosi?, baudrate}."""
        import busio
        mosi = self._p(cfg["mosi"]) if "mosi" in cfg else None
        return _BlinkaSPI(busio.SPI(self._p(cfg["sck"]), MOSI=mosi, MISO=self._p(cfg["miso"])),
                          cfg.get("baudrate", 1000000))

    def tone(self, pin):
        """PWM tone output for a passive buzzer."""
        import pwmio
        return _BlinkaTone(pwmio.PWMOut(self._p(pin), frequency=2000, duty_cycle=0, variable_frequency=True))


class _BlinkaPin:
    def __init__(self, d):
        self.d = d

    def value(self, v=None):
        if v is None:
            return 1 if self.d.value else 0
        self.d.value = bool(v)


class _BlinkaI2C:
    def __init__(self, bus):
        self.bus = bus
        self._reg = bytearray(1)

    def _lock(self):
        while not self.bus.try_lock():
            pass

    def writeto(self, addr, buf):
        self._lock()
        try:
            self.bus.writeto(addr, buf)
        finally:
            self.bus.unlock()

    def writeto_mem(self, addr, reg, buf):
        self.writeto(addr, bytes([reg]) + bytes(buf))

    def readfrom_mem_into(self, addr, reg, buf):
        self._reg[0] = reg
        self._lock()
        try:
            self.bus.writeto_then_readfrom(addr, self._reg, buf)
        finally:
            self.bus.unlock()


class _BlinkaSPI:
    def __init__(self, bus, baudrate):
        self.bus = bus
        self.baudrate = baudrate

    def _lock(self):
        while not self.bus.try_lock():
            pass
        self.bus.configure(baudrate=self.baudrate)

    def readinto(self, buf):
        self._lock()
        try:
            self.bus.readinto(buf)
        finally:
            self.bus.unlock()

    def write(self, buf):
        self._lock()
        try:
            self.bus.write(buf)
        finally:
            self.bus.unlock()


class _BlinkaTone:
    def __init__(self, pwm):
        self.pwm = pwm

    def on(self, freq):
        self.pwm.frequency = freq
        self.pwm.duty_cycle = 32768

    def off(self):
        self.pwm.duty_cycle = 0


def build(name, **kw):
    """The HAL backend named by a profile: 'machine', 'blinka' or 'fake'."""
    if name == "machine":
        return MachineHAL()
    if name == "blinka":
        return BlinkaHAL()
    if name == "fake":
        try:
            from device.fake.fakehw import FakeHAL
        except ImportError:
            raise ValueError("the fake backend is not on this device (it is never deployed)")
        return FakeHAL(**kw)
    raise ValueError("unknown hardware backend %r (machine, blinka, fake)" % name)
