"""Device drivers on the fake backend: buttons, TM1637, menu, buzzer, sensors, HAL."""
from device import factory
from device import hal as halmod
from device.drivers.tm1637 import TM1637, decode_segments
from device.fake.fakehw import FakeHAL
from device.menu import Menu
from flagcore.display import fit4
from mptest import raises


def test_button_press_at_first_edge_and_bounce_ignored():
    hal = FakeHAL()
    b = factory.buttons(hal, {"white": 1, "black": 2, "start": 3, "mode": 4, "debounce_ms": 30})
    hal.set_input(1, 0)
    assert b.poll(100) == 1 and b.events == [("white", 100)]
    b.events = []
    for t, v in ((102, 1), (104, 0), (109, 1), (115, 0), (125, 0)):  # contact bounce
        hal.set_input(1, v)
        b.poll(t)
    assert b.events == []
    hal.set_input(1, 1)
    b.poll(140)              # released after the window
    hal.set_input(1, 0)
    b.poll(200)
    assert b.events == [("white", 200)]


def test_rocker_reports_the_side_pressed():
    hal = FakeHAL()
    b = factory.buttons(hal, {"rocker": 5, "start": 6, "mode": 7})
    hal.set_input(5, 0)
    b.poll(10)
    hal.set_input(5, 1)
    b.poll(100)
    assert b.events == [("white", 10), ("black", 100)]


def test_button_held_at_power_up_is_not_a_press():
    hal = FakeHAL()
    hal.set_input(3, 0)                    # start held down while the device boots
    b = factory.buttons(hal, {"white": 1, "black": 2, "start": 3, "mode": 4})
    assert b.poll(0) == 0
    hal.set_input(3, 1)
    b.poll(50)
    hal.set_input(3, 0)
    assert b.poll(100) == 1 and b.events == [("start", 100)]


def test_fit4_clock_texts():
    assert fit4("5:00") == (" 500", True)
    assert fit4("1:29:58") == (" 129", True)
    assert fit4("12:03:00") == ("1203", True)
    assert fit4("0:12.3") == ("123 ", True)
    assert fit4("59:59") == ("5959", True)
    assert fit4("P  3") == ("P  3", False)
    assert fit4("hello") == ("HELL", False)


def test_tm1637_bit_stream_decodes_to_the_text():
    hal = FakeHAL()
    prof = {"board": {"rows": 1, "cols": 1}, "displays": [{"type": "tm1637", "clk": 1, "dio": 2, "side": "white"}]}
    hal.attach_profile(prof)
    d = TM1637(hal.pin_out(1, 1), hal.pin_out(2, 1, open_drain=True), brightness=3)
    d.show(*fit4("1:29:58"))
    model = hal.tm1637["white"]
    assert model.text() == " 1:29" and model.display_on and model.brightness == 3
    d.show(*fit4("0:05.7"))
    assert model.text() == "05:7 "
    assert decode_segments(bytearray([0x3F, 0x86, 0x5B, 0x4F])) == "01:23"


def test_menu_presets_and_custom_entry():
    m = Menu([("a", "300"), ("b", "180+2")], current="180+2")
    assert m.lines() == ("menu 2/4", "b", "180+2")
    assert m.press("black") is None and m.lines()[1] == "test" and m.faces()[1] == "TEST"
    assert m.press("black") is None and m.lines()[1] == "custom"
    assert m.press("black") is None and m.lines()[1] == "a"
    assert m.press("start") == ("select", "300")
    m = Menu([("a", "300")])
    m.press("white")                       # wraps to custom
    assert m.press("start") == ("custom", None)     # the app opens the control entry (device/tcentry.py)
    assert Menu([("a", "300")]).press("mode") == ("cancel", None)
    # the user's stored controls come first and the list opens on U1
    m = Menu([("a", "300")], current="300", stored=[(2, "900+10"), (5, "W300-B240")])
    assert m.lines() == ("menu 1/5", "U2", "900+10") and m.faces() == ("U  2", "  15")
    m.press("black")
    assert m.faces() == ("U  5", "   5")
    m.press("black")
    assert m.faces() == ("P  1", "   5")    # the profile's presets keep their numbers
    assert m.press("white") is None and m.press("start") == ("select", "W300-B240")


def test_buzzer_beeps_without_blocking():
    hal = FakeHAL()
    z = factory.buzzer(hal, {"pin": 9, "freq": 2000})
    z.beep(100, 50)
    assert hal.tones[9].freq == 2000 and z.sounding()
    z.update(149)
    assert z.sounding()
    z.update(150)
    assert hal.tones[9].freq == 0 and not z.sounding()
    a = factory.buzzer(hal, {"pin": 10, "kind": "active"})
    a.beep(0, 10)
    assert hal.pins[10].level == 1
    a.update(10)
    assert hal.pins[10].level == 0


def _chain(spi):
    hal = FakeHAL()
    cfg = {"type": "hc165", "chips": 3, "load": 1}
    if spi:
        cfg["spi"] = "spi0"
        hal.set_buses({"spi0": {"kind": "spi", "sck": 2, "miso": 3}})
    else:
        cfg["clk"] = 2
        cfg["data"] = 3
    prof = {"board": {"rows": 4, "cols": 6}, "sensors": cfg}
    board = hal.attach_profile(prof)
    return hal, board, factory.sensors(hal, cfg)


def test_hc165_bit_banged_and_spi_read_the_same():
    for spi in (False, True):
        hal, board, s = _chain(spi)
        for k in (0, 7, 8, 13, 23):
            board.place(k)
        buf = bytearray(24)
        s.read_into(buf)
        assert [k for k in range(24) if buf[k]] == [0, 7, 8, 13, 23], spi


def test_mcp23017_sets_pull_ups_and_reads_both_ports():
    hal = FakeHAL()
    hal.set_buses({"i2c1": {"kind": "i2c", "sda": 2, "scl": 3}})
    cfg = {"type": "mcp23017", "bus": "i2c1", "addresses": [0x20, 0x21]}
    board = hal.attach_profile({"board": {"rows": 4, "cols": 8}, "sensors": cfg})
    s = factory.sensors(hal, cfg)
    assert hal.i2c_devices[0x21].regs[0x0C] == 0xFF and hal.i2c_devices[0x21].regs[0x0D] == 0xFF
    for k in (0, 9, 16, 31):
        board.place(k)
    buf = bytearray(32)
    s.read_into(buf)
    assert [k for k in range(32) if buf[k]] == [0, 9, 16, 31]


def test_matrix_reads_every_crossing():
    hal = FakeHAL()
    cfg = {"type": "matrix", "rows": [0, 1, 2], "cols": [3, 4], "diodes": True}
    board = hal.attach_profile({"board": {"rows": 3, "cols": 2}, "sensors": cfg})
    m = factory.sensors(hal, cfg)
    board.place(1)
    board.place(4)
    buf = bytearray(6)
    m.read_into(buf)
    assert list(buf) == [0, 1, 0, 0, 1, 0]
    assert [hal.pins[p].level for p in (0, 1, 2)] == [1, 1, 1]   # rows left idle high


def test_hal_refuses_double_claims_and_unknown_names():
    hal = FakeHAL()
    hal.pin_in(4)
    raises(ValueError, hal.pin_out, 4)
    raises(ValueError, hal.bus, "i2c7")
    raises(ValueError, halmod.build, "arduino")
    assert halmod.build("fake").name == "fake"
