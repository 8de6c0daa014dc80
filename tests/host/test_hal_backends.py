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
        # the INA219 battery monitor at 0x40 (rpi-chess): its registers, 16 bits big-endian (TI datasheet):
        # bus voltage 3.840 V (4 mV a bit, from bit 3) and 10 mV over the shunt (10 uV a bit): 3.850 V at VIN+
        ina219 = {0x00: 0x399F, 0x01: 1000, 0x02: (3840 // 4) << 3, 0x05: 0}

        absent = set()          # addresses where no chip answers (Linux's i2c-dev: OSError 121, EREMOTEIO)

        def __init__(self, scl, sda, frequency):
            log.append(("I2C", scl, sda, frequency))
            self.pointer = 0

        def _answer(self, addr):
            if addr in self.absent:
                raise OSError(121, "Remote I/O error")

        def try_lock(self):
            return True

        def unlock(self):
            pass

        def writeto(self, addr, buf, start=0, end=None):
            buf = bytes(buf)[start:end]
            self._answer(addr)
            log.append(("i2c-write", addr, buf))
            if addr == 0x40 and buf:
                self.pointer = buf[0]
                if len(buf) == 3:
                    self.ina219[buf[0]] = buf[1] << 8 | buf[2]

        def readfrom_into(self, addr, buf, start=0, end=None):
            end = len(buf) if end is None else end
            self._answer(addr)
            v = self.ina219.get(self.pointer, 0) if addr == 0x40 else 0xFFFF
            for i in range(start, end):
                buf[i] = (v >> 8 if (i - start) % 2 == 0 else v) & 0xFF

        def writeto_then_readfrom(self, addr, out, buf, out_start=0, out_end=None, in_start=0, in_end=None):
            out = bytes(out)[out_start:out_end]
            self._answer(addr)
            log.append(("i2c-read", addr, out, len(buf)))
            if addr == 0x40:
                self.pointer = out[0]
                self.readfrom_into(addr, buf, in_start, in_end)
                return
            for i in range(len(buf)):
                buf[i] = 0xFF

    class SPI:
        pass

    busio.I2C, busio.SPI = I2C, SPI
    pwmio = types.ModuleType("pwmio")

    class PWMOut:
        def __init__(self, pin, frequency, duty_cycle, variable_frequency):
            log.append(("PWM", pin, variable_frequency))

    pwmio.PWMOut = PWMOut
    return {"board": board, "digitalio": digitalio, "busio": busio, "pwmio": pwmio}


def test_blinka_backend_on_the_raspberry_pi_profile(monkeypatch):
    try:
        import adafruit_ina219  # noqa: F401
    except ImportError:
        raise AssertionError("the Raspberry Pi's battery gauge is read with adafruit-circuitpython-ina219: "
                             "install the dev extra (make setup, or pip install -e .[dev])")
    log = Log()
    for k, v in fake_blinka(log).items():
        monkeypatch.setitem(sys.modules, k, v)
    monkeypatch.delitem(sys.modules, "adafruit_ina219")          # imported again on the stand-ins
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
    # the battery: the INA219 read through Adafruit's CircuitPython driver (adafruit-circuitpython-ina219) on
    # this stand-in of busio; 3.850 V at the cell is 61 % on the Li-ion curve, shown as the other profiles show it
    from flagcore.battery import CURVES, level
    assert "adafruit_ina219" in sys.modules, "the Blinka backend reads the gauge with the CircuitPython driver"
    assert app.battery.mv == 3850 and app.battery.pct == level(3850, CURVES["li-ion"]) == 61
    assert ("i2c-read", 0x40, b"\x02", 3) in log             # the bus-voltage register (the driver reads into buf[1:3])
    assert app.faces()[2][-1] == "battery 61%"


def _blinka_pi(monkeypatch, tmp_path, bus_mv=None, absent=()):
    """rpi-chess's app on the Blinka stand-ins, the INA219 read through Adafruit's driver: its bus-voltage
    register set to bus_mv (no current: no drop over the shunt), or no chip answering at the addresses
    in absent. Returns (app, the stand-in I2C class, the host's end of the serial line)."""
    from device.fake.fakehw import FakeStream
    from flagcore import wire
    log = Log()
    mods = fake_blinka(log)
    i2c = mods["busio"].I2C
    if bus_mv is not None:
        i2c.ina219[0x02] = (bus_mv // 4) << 3            # 4 mV a bit, from bit 3 (TI's INA219 datasheet)
        i2c.ina219[0x01] = 0
    i2c.absent.update(absent)
    for k, v in mods.items():
        monkeypatch.setitem(sys.modules, k, v)
    monkeypatch.delitem(sys.modules, "adafruit_ina219", raising=False)
    monkeypatch.chdir(tmp_path)                          # the Blinka backend keeps its snapshot in the working folder
    stream = FakeStream()
    app = App(profile("rpi-chess"), halmod.build("blinka"), stream)
    host = wire.Link(wire.DEVICE_KINDS)

    def frames():
        out = []
        for chunk in stream.chunks():
            out += host.feed(chunk)
        return out
    return app, i2c, frames


def _read_battery_now(app):
    """The next step reads the battery (it is read every BATTERY_MS of the Blinka backend's real clock)."""
    app.battery.due = app.ticks_ms()
    app.step()


def test_the_raspberry_pis_ina219_reads_a_low_cell_low(monkeypatch, tmp_path):
    # 3.400 V at the pack: 5 % on the Li-ion curve, under rpi-chess's low_pct (45, from its power budget)
    app, _, frames = _blinka_pi(monkeypatch, tmp_path, bus_mv=3400)
    low_pct = profile("rpi-chess")["battery"]["low_pct"]
    assert app.battery.mv == 3400 and app.battery.pct == 5 < low_pct and app.battery.low
    assert app.faces()[2][-1] == "BATTERY LOW 5%"
    hello = [f for f in frames() if f[1] == "HELLO"][-1]
    assert hello[2][7:9] == [5, low_pct]                 # the level and the threshold, to the host
    app.send_clock(app.ticks_ms())
    clk = [f for f in frames() if f[1] == "CLK"][-1]
    assert clk[2][10:12] == [5, 1]                       # CLK: battery 5 %, the low signal given


def test_a_missing_ina219_is_an_unknown_level_never_a_full_one(monkeypatch, tmp_path):
    # no chip at 0x40 (not fitted, unplugged): the clock still starts and keeps time; the level is unknown,
    # shown as such and sent as -1 (as a board without a battery input), never 100 or a remembered level
    app, i2c, frames = _blinka_pi(monkeypatch, tmp_path, absent={0x40})
    b = app.battery
    assert b.pct == -1 and not b.low
    assert app.faces()[2][-1] == "battery ?"
    assert [f for f in frames() if f[1] == "HELLO"][-1][2][7] == -1
    app.on_button("start", app.ticks_ms())
    app.send_clock(app.ticks_ms())
    clk = [f for f in frames() if f[1] == "CLK"][-1]
    assert clk[2][1] == 1 and clk[2][10:12] == [-1, 0]   # running; battery unknown, no signal
    # the chip answers again (plugged back): the driver is made anew and the cell read
    i2c.absent.clear()
    _read_battery_now(app)
    assert b.pct == 61 and app.faces()[2][-1] == "battery 61%"
    # and stops answering mid-game: unknown again, not the last level
    i2c.absent.add(0x40)
    _read_battery_now(app)
    assert b.pct == -1 and app.faces()[2][-1] == "battery ?"
    app.send_clock(app.ticks_ms())
    assert [f for f in frames() if f[1] == "CLK"][-1][2][10] == -1
