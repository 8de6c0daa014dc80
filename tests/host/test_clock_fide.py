"""FIDE's clock standard on the host side: the real device app on fake hardware talking to the bridge.
The battery reaches the live state, both flags reach the record, and frames of older firmware (without
the battery and second-flag fields) are still read (docs/protocol.md, Versioning)."""
import json
import os

from device.app import App
from device.fake.fakehw import FakeHAL, FakeStream
from flagcore import clock as clockmod
from flagcore import wire
from flagfall.bridge import engine as eng_mod
from flagfall.bridge import records

from repo import ROOT


class Device:
    """A profile's firmware (esp32-chess unless named) on fake hardware, its frames fed to a bridge line by line."""

    def __init__(self, name: str = "esp32-chess"):
        with open(os.path.join(ROOT, "boards", name + ".json")) as f:
            self.p = json.load(f)
        self.hal = FakeHAL(now=1000)
        board = self.hal.attach_profile(self.p)
        for i in list(range(16)) + list(range(48, 64)):
            board.place(i)
        self.st = FakeStream()
        self.app = App(self.p, self.hal, self.st)
        self.eng = eng_mod.BridgeEngine("chess", clock_mode=True)
        self.host = wire.Link(wire.HOST_KINDS)
        self.lines: list[bytes] = []

    def pump(self) -> None:
        for line in self.st.take().splitlines(keepends=True):
            self.lines.append(line)
            self.eng.frame_line(self.hal.now, line)

    def run(self, ms: int, step: int = 50) -> None:
        for _ in range(ms // step):
            self.hal.advance(step)
            self.app.step()
            self.pump()

    def send(self, kind: str, fields: list) -> None:
        self.st.inbox.extend(self.host.frame(kind, fields))
        self.run(50)

    def click(self, name: str) -> None:
        pin = self.p["buttons"][name]
        self.hal.set_input(pin, 0)
        self.run(100)
        self.hal.set_input(pin, 1)
        self.run(100)


def test_the_battery_level_reaches_the_live_state():
    d = Device()
    d.pump()
    clock = d.eng.state()["clock"]
    assert clock["battery"] == d.app.battery.pct == 100 and clock["battery_low"] is False
    d.hal.battery.set(10)
    d.run(120000, step=1000)
    clock = d.eng.state()["clock"]
    assert clock["battery"] <= 11 and clock["battery_low"] is True


def test_the_raspberry_pis_battery_reaches_the_live_state_and_an_unknown_level_leaves_it():
    # rpi-chess reads its cell through an INA219 (the fake gauge here): the same CLK field, the same live
    # state; a monitor that stops answering takes the level out of the state (unknown), it is not kept
    d = Device("rpi-chess")
    d.pump()
    assert d.eng.state()["clock"]["battery"] == d.app.battery.pct == 100
    d.hal.battery.set(30)                  # under rpi-chess's low_pct (45)
    d.run(60000, step=1000)
    clock = d.eng.state()["clock"]
    assert clock["battery"] <= 31 and clock["battery_low"] is True
    cell, d.hal.battery = d.hal.battery, None
    d.run(5000, step=1000)
    assert "battery" not in d.eng.state()["clock"] and d.app.battery.pct == -1
    d.hal.battery = cell
    d.run(5000, step=1000)
    assert d.eng.state()["clock"]["battery"] == d.app.battery.pct <= 31


def test_both_flags_reach_the_record_with_the_first_named():
    d = Device()
    d.send("TC", ["W10-B15"])
    d.send("START", ["white"])
    d.run(11000)                           # white's flag: the bridge decides the game (time forfeit)
    assert d.eng.game.result == "0-1"
    d.click("white")                       # play went on (nobody told the clock): black's clock runs
    d.run(16000)
    assert d.app.clock.second_flag() == clockmod.BLACK
    text = records.record_text(d.eng.game)
    assert '[Flags "both fell, White\'s first"]' in text
    assert '[Result "0-1"]' in text        # the first flag decided it


def test_frames_of_older_firmware_are_still_read():
    d = Device()
    d.pump()
    hello = [f for f in d.lines if b" HELLO " in f][0]
    seq, kind, values = wire.decode(hello, wire.DEVICE_KINDS)
    old_hello = wire.encode(seq, "HELLO", values[:7])        # the seven fields before the battery
    old_clk = wire.encode(seq + 1, "CLK", [5, 0, 0, 300000, 300000, -1, "5:00", "5:00", "ready", ""])
    assert len(wire.decode(old_hello, wire.DEVICE_KINDS)[2]) == 7
    assert len(wire.decode(old_clk, wire.DEVICE_KINDS)[2]) == 10
    eng = eng_mod.BridgeEngine("chess", clock_mode=True)
    eng.frame_line(1, old_hello)
    eng.frame_line(2, old_clk)
    assert eng.hello is not None and eng.hello["profile"] == "esp32-chess"
    assert "battery" not in eng.state()["clock"]
    # a field count between the old and the new one is still refused, as a peer too old to follow;
    # beyond the new one is a later revision's frame: its trailing field is dropped (docs/protocol.md)
    full = [5, 0, 0, 1, 1, -1, "", "", "", "", -1, 0, -1]

    def line(fields):
        text = " ".join(["F1", "3", "CLK"] + [wire.escape(str(x)) for x in fields]).encode()
        return text + b"*%04X\n" % wire.crc16(text)
    for fields in (full[:11], full[:12]):
        try:
            wire.decode(line(fields), wire.DEVICE_KINDS)
        except wire.WireError as e:
            assert "CLK needs 13 fields, got %d: the peer speaks an older protocol revision" % len(fields) in str(e)
        else:
            raise AssertionError("a CLK of %d fields was accepted" % len(fields))
    assert wire.decode(line(full + [0]), wire.DEVICE_KINDS)[2] == full


def test_the_simulators_battery_drains_with_device_time():
    import time
    from flagfall.sim import Simulator
    sim = Simulator("pico-chess", speed=100000.0, log=lambda text: None)   # 1 s of real time: 27.8 h
    assert sim.app.battery is not None and sim.app.battery.pct >= 90     # full at boot (the sim's start took a few device minutes)
    time.sleep(0.5)                        # about 14 hours of device time: half the fake cell
    for _ in range(200):
        sim.app.step()
    level = sim.app.battery.pct
    assert level <= 70, level              # at least half a second passed: drained (more if the machine is slow)
    assert sim.app.faces()[2][-1] == "battery %d%%" % level or sim.app.faces()[2][-1].startswith("BATTERY LOW")
