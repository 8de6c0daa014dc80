"""The small hardware interface the factory opens pins and buses with; build() picks a backend.

A HAL gives:
    pin_in(pin, pull_up=True)  -> object with value() -> 0/1
    pin_out(pin, value=0)      -> object with value(v)
    i2c(cfg)                   -> writeto(addr, buf), writeto_mem(addr, reg, buf),
                                  readfrom_mem_into(addr, reg, buf)
    spi(cfg)                   -> readinto(buf), write(buf)
    tone(pin)                  -> on(freq), off()  (PWM for a passive buzzer)
    adc(pin, atten=None)       -> read_u16() (0-65535 for 0-3.3 V), and read_uv() where the port
                                  calibrates (ESP32): an analog pin (the battery's divider);
                                  atten: the ESP32's input attenuation in dB (11 for up to ~3.1 V)
    gauge(cfg)                 -> read_uv(): the cell's voltage from an I2C monitor on a profile bus
                                  (cfg: the battery section, {"gauge": "ina219", "bus", "addr"}; the
                                  Blinka backend only: a Raspberry Pi has no analog input)
    save(name, text), load(name) -> the store that survives a power loss (a file in flash;
                                  load gives None when there is none)
    ticks_ms(), sleep_us(n), sleep_ms(n)
Pins are what the profile names them: GPIO numbers for `machine`, board
attribute names ("D4") for Blinka. Buses are declared once in the profile
("buses": {"i2c0": {"kind": "i2c", ...}}) and the factory asks for them by name
with bus(name) (device.buses). build(name) returns a backend by name,
importing only its module: device.hal_machine (MicroPython), device.hal_blinka
(a Raspberry Pi) or device.fake.fakehw (tests and simulator, never deployed).
"""

BACKENDS = {"machine": "device.hal_machine", "blinka": "device.hal_blinka"}


def build(name, **kw):
    """The HAL backend named by a profile: 'machine', 'blinka' or 'fake'."""
    if name == "machine":
        from device.hal_machine import MachineHAL
        return MachineHAL()
    if name == "blinka":
        from device.hal_blinka import BlinkaHAL
        return BlinkaHAL()
    if name == "fake":
        try:
            from device.fake.fakehw import FakeHAL
        except ImportError:
            raise ValueError("the fake backend is not on this device (it is never deployed)")
        return FakeHAL(**kw)
    raise ValueError("unknown hardware backend %r (machine, blinka, fake)" % name)
