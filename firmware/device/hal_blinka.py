"""The HAL backend for Adafruit Blinka (board/digitalio/busio/pwmio) on a Raspberry Pi; interface in device.hal."""

from device.buses import Buses


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

    def gauge(self, cfg):
        """The battery's monitor on a profile bus: an INA219 read through Adafruit's maintained CircuitPython
        driver (adafruit-circuitpython-ina219, on Blinka); read_uv() gives the cell's voltage."""
        if cfg.get("gauge") != "ina219":
            raise ValueError("battery gauge %r: this backend reads an ina219" % cfg.get("gauge"))
        import adafruit_ina219
        return _INA219Cell(adafruit_ina219.INA219, self.bus(cfg["bus"]).bus, cfg.get("addr", 0x40))

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


class _INA219Cell:
    """The cell's voltage at the INA219's VIN+ (the pack's +): the bus voltage (VIN- to GND) plus the drop
    over the shunt, in microvolts (read_uv, as MicroPython's calibrated ADC).

    A chip that does not answer (not fitted, unplugged, its supply gone) raises OSError naming it, which
    flagcore.battery.Gauge takes as an unknown level: the clock runs on and shows "battery ?". The driver
    is made at the first read and made again after a failed one (its constructor probes the address and
    writes the calibration a chip that lost power has forgotten), so a chip plugged back is read again."""

    def __init__(self, driver, i2c, addr):
        self.driver = driver
        self.i2c = i2c
        self.addr = addr
        self.ina = None

    def read_uv(self):
        try:
            if self.ina is None:
                self.ina = self.driver(self.i2c, self.addr)
            return int(round((self.ina.bus_voltage + self.ina.shunt_voltage) * 1000000))
        except (OSError, ValueError) as e:      # the driver's probe raises ValueError, a read OSError
            self.ina = None
            raise OSError("battery monitor INA219 at 0x%02X does not answer: %s" % (self.addr, e))


class _BlinkaTone:
    def __init__(self, pwm):
        self.pwm = pwm

    def on(self, freq):
        self.pwm.frequency = freq
        self.pwm.duty_cycle = 32768

    def off(self):
        self.pwm.duty_cycle = 0
