"""The HAL backend for MicroPython's `machine` module (Pico, ESP32, ...); interface in device.hal."""

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

    def adc(self, pin, atten=None):
        """machine.ADC on a pin (the Pico's GP29 reads VSYS/3; an ESP32 pin wants atten=11 for ~3.1 V)."""
        a = self._m.ADC(self._m.Pin(pin))
        if atten:
            a.atten(getattr(self._m.ADC, "ATTN_%dDB" % atten))
        return a


class _MachineTone:
    def __init__(self, m, pin):
        self.pwm = m.PWM(m.Pin(pin))
        self.pwm.duty_u16(0)

    def on(self, freq):
        self.pwm.freq(freq)
        self.pwm.duty_u16(32768)

    def off(self):
        self.pwm.duty_u16(0)
