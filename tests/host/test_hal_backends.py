"""The real HAL backends against stand-ins for MicroPython's `machine` and Adafruit
Blinka's `board`/`digitalio`/`busio`/`pwmio`: each profile's drivers must make the
calls those libraries expect (no hardware here, so the libraries are recorded)."""
import json
import os
import sys
import types

import pytest

from device import hal as halmod
from device.app import App

from repo import ROOT


def profile(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


class Log(list):
    pass


def fake_machine(log):
    m = types.ModuleType("machine")

    class Pin:
        IN, OUT, OPEN_DRAIN, PULL_UP = "IN", "OUT", "OPEN_DRAIN", "PULL_UP"

        def __init__(self, n, mode=None, pull=None, value=None):
            self.n = n
            self.v = 1 if pull == "PULL_UP" else (value or 0)
            log.append(("Pin", n, mode, pull, value))

        def value(self, v=None):
            if v is None:
                return self.v
            self.v = v

    class I2C:
        def __init__(self, id, sda, scl, freq):
            log.append(("I2C", id, sda.n, scl.n, freq))

        def writeto(self, addr, buf):
            log.append(("i2c-write", addr, len(buf)))

        def writeto_mem(self, addr, reg, buf):
            log.append(("i2c-mem", addr, reg, bytes(buf)))

        def readfrom_mem_into(self, addr, reg, buf):
            for i in range(len(buf)):
                buf[i] = 0xFF

    class SPI:
        def __init__(self, id, **kw):
            log.append(("SPI", id, kw["sck"].n, kw["miso"].n, kw["baudrate"]))

        def readinto(self, buf):
            for i in range(len(buf)):
                buf[i] = 0xFF

    class PWM:
        def __init__(self, pin):
            log.append(("PWM", pin.n))

        def duty_u16(self, v):
            pass

        def freq(self, f):
            pass

    class ADC:
        ATTN_11DB = "11dB"

        def __init__(self, pin):
            log.append(("ADC", pin.n))

        def atten(self, a):
            log.append(("atten", a))

        def read_u16(self):
            return 25817            # 1300 mV of 3300: a 3.9 V cell behind the Pico's VSYS/3

    m.Pin, m.I2C, m.SPI, m.PWM, m.ADC = Pin, I2C, SPI, PWM, ADC
    m.SoftI2C = I2C
    return m


@pytest.mark.parametrize("name", ["pico-chess", "esp32-chess", "pico-minzu14", "pico-draughts10"])
def test_machine_backend_builds_every_driver(name, monkeypatch):
    log = Log()
    monkeypatch.setitem(sys.modules, "machine", fake_machine(log))
    import time
    monkeypatch.setattr(time, "ticks_ms", lambda: 0, raising=False)
    monkeypatch.setattr(time, "sleep_us", lambda n: None, raising=False)
    monkeypatch.setattr(time, "sleep_ms", lambda n: None, raising=False)
    p = profile(name)
    h = halmod.build("machine")
    app = App(p, h, None)
    app.step()
    pins = [e for e in log if e[0] == "Pin" and e[2] is not None]
    claimed = sorted(e[1] for e in pins)
    assert len(claimed) == len(set(claimed))          # every pin set up once
    s = p["sensors"]
    if s["type"] == "matrix":
        assert all(("Pin", r, "OUT", None, 1) in log for r in s["rows"])
        assert all(("Pin", c, "IN", "PULL_UP", None) in log for c in s["cols"])
    if s["type"] == "hc165" and "spi" in s:
        b = p["buses"][s["spi"]]
        assert ("SPI", b["id"], b["sck"], b["miso"], b["baudrate"]) in log
    for d in p["displays"]:
        if d["type"] == "tm1637":
            assert ("Pin", d["dio"], "OPEN_DRAIN", None, 1) in log
        else:
            assert ("i2c-write", d["addr"], 1 + 128 * 8) in log        # a full frame
    assert ("PWM", p["buzzer"]["pin"]) in log
    bat = p["battery"]
    assert ("ADC", bat["adc"]) in log
    assert (("atten", "11dB") in log) == ("atten" in bat)
    # 1300 mV at the pin: 3.9 V behind a divider of 3 (68 %), 2.6 V behind one of 2 (0 %: below the curve)
    assert app.battery.pct == (68 if bat["divider"] == 3 else 0)
    for k in ("white", "black", "start", "mode", "rocker"):
        if k in p["buttons"]:
            assert ("Pin", p["buttons"][k], "IN", "PULL_UP", None) in log


def fake_blinka(log):
    board = types.ModuleType("board")
    for n in range(28):
        setattr(board, "D%d" % n, "D%d" % n)
    digitalio = types.ModuleType("digitalio")

    class Direction:
        INPUT, OUTPUT = "in", "out"

    class Pull:
        UP = "up"

    class DriveMode:
        PUSH_PULL, OPEN_DRAIN = "pp", "od"

    class DigitalInOut:
        def __init__(self, pin):
            self.pin = pin
            self.value = True
            log.append(("DIO", pin))

        def __setattr__(self, k, v):
            object.__setattr__(self, k, v)
            if k in ("direction", "pull"):
                log.append((k, self.pin, v))

        def switch_to_output(self, value, drive_mode):
            log.append(("output", self.pin, value, drive_mode))

    digitalio.DigitalInOut, digitalio.Direction, digitalio.Pull, digitalio.DriveMode = \
        DigitalInOut, Direction, Pull, DriveMode
    busio = types.ModuleType("busio")

    class I2C:
        def __init__(self, scl, sda, frequency):
            log.append(("I2C", scl, sda, frequency))

        def try_lock(self):
            return True

        def unlock(self):
            pass

        def writeto(self, addr, buf):
            log.append(("i2c-write", addr, bytes(buf)))

        def writeto_then_readfrom(self, addr, out, buf):
            log.append(("i2c-read", addr, bytes(out), len(buf)))
            for i in range(len(buf)):
                buf[i] = 0xFF

    busio.I2C = I2C
    pwmio = types.ModuleType("pwmio")

    class PWMOut:
        def __init__(self, pin, frequency, duty_cycle, variable_frequency):
            log.append(("PWM", pin, variable_frequency))

    pwmio.PWMOut = PWMOut
    return {"board": board, "digitalio": digitalio, "busio": busio, "pwmio": pwmio}


def test_blinka_backend_on_the_raspberry_pi_profile(monkeypatch):
    log = Log()
    for k, v in fake_blinka(log).items():
        monkeypatch.setitem(sys.modules, k, v)
    p = profile("rpi-chess")
    h = halmod.build("blinka")
    app = App(p, h, None)
    app.step()
    assert ("I2C", "D3", "D2", 400000) in log
    for a in p["sensors"]["addresses"]:
        assert ("i2c-write", a, b"\x00\xff\xff") in log          # IODIR: all inputs
        assert ("i2c-write", a, b"\x0c\xff\xff") in log          # GPPU: all pull-ups
        assert ("i2c-read", a, b"\x12", 2) in log                # GPIOA and GPIOB
    for k in ("white", "black", "start", "mode"):
        assert ("pull", p["buttons"][k], "up") in log
    assert ("output", "D24", False, "pp") in log and ("PWM", "D18", True) in log
    assert app.scanner.n == 64 and sum(app.scanner.snapshot()) == 0
