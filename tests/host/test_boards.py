"""Board profiles: every committed profile passes tools/check_boards.py, and each
kind of bad profile is rejected with a message that names the problem."""
import copy
import glob
import json
import os
import subprocess
import sys

import pytest

from repo import ROOT
sys.path.insert(0, os.path.join(ROOT, "tools"))

import check_boards  # noqa: E402

PROFILES = sorted(glob.glob(os.path.join(ROOT, "boards", "*.json")))


def load(name):
    with open(os.path.join(ROOT, "boards", name + ".json")) as f:
        return json.load(f)


def errors(p):
    return check_boards.check_profile(p, check_boards.load_mcus(), check_boards.load_preset_names())


def test_required_profiles_exist():
    names = {os.path.basename(p)[:-5] for p in PROFILES}
    assert {"pico-chess", "esp32-chess", "rpi-chess", "pico-draughts10", "pico-minzu14"} <= names
    kinds = {(load(n)["mcu"], load(n)["sensors"]["type"]) for n in names}
    assert ("pico", "matrix") in kinds and ("esp32-devkitc", "hc165") in kinds
    assert ("raspberry-pi", "mcp23017") in kinds
    assert any(load(n)["board"]["rows"] == 14 for n in names)
    assert any(load(n)["board"]["rows"] == 10 for n in names)


def test_check_boards_script_passes_every_committed_profile():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "check_boards.py")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "%d profiles, 0 rejected" % len(PROFILES) in r.stdout


def test_script_rejects_a_bad_file(tmp_path):
    p = load("pico-chess")
    p["leds"]["black"] = 16
    f = tmp_path / "pico-chess.json"
    f.write_text(json.dumps(p))
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "check_boards.py"), str(f)],
                       capture_output=True, text=True)
    assert r.returncode == 1
    assert "pin 16 used twice: TM1637 white CLK and LED black" in r.stdout


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: os.path.basename(p))
def test_each_profile_is_clean(path):
    with open(path) as f:
        p = json.load(f)
    assert errors(p) == []


def test_pin_used_twice():
    p = load("pico-chess")
    p["buzzer"]["pin"] = 3          # also matrix row 3
    assert "pin 3 used twice: matrix row 3 and buzzer" in errors(p)


def test_pin_used_twice_across_bus_and_button():
    p = load("esp32-chess")
    p["buttons"]["mode"] = 21       # the I2C SDA line
    assert any("pin 21 used twice" in e for e in errors(p))


def test_pin_the_board_lacks():
    p = load("pico-chess")
    p["leds"]["white"] = 25         # the Pico's own LED, not on the header
    assert "LED white uses pin 25, which a pico does not have" in errors(p)
    q = load("esp32-chess")
    q["sensors"]["clk"] = 7         # flash pin
    assert any("uses pin 7" in e for e in errors(q))
    r = load("rpi-chess")
    r["buttons"]["white"] = "D28"
    assert any("uses pin 'D28'" in e for e in errors(r))


def test_input_only_pins():
    p = load("esp32-chess")
    p["leds"]["white"] = 34
    p["buttons"]["start"] = 35
    errs = errors(p)
    assert "LED white drives pin 34, which is input-only on a esp32-devkitc" in errs
    assert any("needs a pull-up but pin 35" in e for e in errs)


def test_matrix_too_small_for_its_game():
    p = load("pico-chess")
    p["sensors"]["cols"] = p["sensors"]["cols"][:7]
    assert any(e.startswith("matrix too small for chess: 8x7 lines") for e in errors(p))
    d = load("pico-draughts10")
    d["board"]["layout"] = "full"   # 100 squares on a 10x5 matrix
    assert any(e.startswith("matrix too small for draughts") for e in errors(d))


def test_chain_and_expanders_too_small():
    p = load("pico-minzu14")
    p["sensors"]["chips"] = 24      # 192 inputs for 196 cells
    assert "74HC165 chain too small for minzu: 192 inputs for 196 sensors" in errors(p)
    q = load("rpi-chess")
    q["sensors"]["addresses"] = [32, 33, 34]
    assert "MCP23017 expanders too few for chess: 48 inputs for 64 sensors" in errors(q)


def test_board_size_must_fit_the_game():
    p = load("pico-chess")
    p["board"]["rows"] = 10
    assert any("a chess board is 8x8, not 10x8" in e for e in errors(p))
    q = load("pico-minzu14")
    q["board"]["layout"] = "dark"
    assert any("layout 'dark' is not used for minzu" in e for e in errors(q))


def test_i2c_address_clash_and_unknown_bus():
    p = load("rpi-chess")
    p["displays"][0]["addr"] = 33
    assert any("I2C address 0x21 used twice on i2c1" in e for e in errors(p))
    q = load("esp32-chess")
    q["displays"][0]["bus"] = "i2c9"
    assert any("bus 'i2c9'" in e for e in errors(q))


def test_hardware_buses_on_fixed_pins():
    p = load("pico-minzu14")
    p["buses"]["i2c1"]["sda"], p["buses"]["i2c1"]["scl"] = 4, 5     # I2C0's pins
    p["buses"]["spi0"]["miso"] = 8                                  # SPI1 RX
    errs = errors(p)
    assert "bus i2c1: GP4 cannot be I2C1 SDA" in errs and "bus i2c1: GP5 cannot be I2C1 SCL" in errs
    assert "bus spi0: GP8 cannot be SPI0 MISO" in errs
    q = load("rpi-chess")
    q["buses"]["i2c1"]["sda"], q["buses"]["i2c1"]["scl"] = "D20", "D21"
    assert "bus i2c1: SDA of I2C1 is D2, not D20" in errors(q)
    e = load("esp32-chess")
    e["buses"]["i2c0"]["sda"], e["buses"]["i2c0"]["scl"] = 13, 14   # the ESP32 routes I2C anywhere
    e["buzzer"]["pin"], e["leds"]["white"] = 12, 15
    assert errors(e) == []


def test_presets_and_time_controls_checked():
    p = load("pico-chess")
    p["presets"].append("no-such-preset")
    p["default_tc"] = "40/"
    errs = errors(p)
    assert "unknown preset 'no-such-preset' (see seeds/time_controls.json)" in errs
    assert any(e.startswith("default_tc: time control '40/'") for e in errs)


def test_buttons_required_and_backend_matches():
    p = load("esp32-chess")
    del p["buttons"]["black"]
    p["backend"] = "blinka"
    errs = errors(p)
    assert "buttons need white and black, or a rocker" in errs
    assert any(e.startswith("backend 'blinka' does not drive") for e in errs)


def test_generated_presets_module_is_current():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_presets.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    from device.presets import PRESETS
    with open(os.path.join(ROOT, "seeds", "time_controls.json")) as f:
        seeds = json.load(f)
    assert dict(PRESETS) == {k: v["tc"] for k, v in seeds.items() if isinstance(v, dict) and "tc" in v}


@pytest.mark.parametrize("path", PROFILES, ids=lambda p: os.path.basename(p))
def test_every_profile_runs_the_app_on_the_fake_backend(path):
    from device.app import App
    from device.fake.fakehw import FakeHAL, FakeStream
    from flagcore import wire
    with open(path) as f:
        p = json.load(f)
    hal = FakeHAL(now=500)
    board = hal.attach_profile(p)
    board.place(0)
    st = FakeStream()
    app = App(p, hal, st)
    host = wire.Link(wire.DEVICE_KINDS)
    boot = host.feed(st.take())
    assert [f[1] for f in boot] == ["HELLO", "SNAP", "CLK"]
    n = check_boards.needed_sensors(p["board"])
    assert boot[1][2][1] == n
    assert wire.unhexbits(boot[1][2][2], n)[0] == 1
    board.place(n - 1)               # the last sensor of the board is read too
    for _ in range(5):
        hal.advance(10)
        app.step()
    got = host.feed(st.take())
    assert [f for f in got if f[1] == "SQ"] == [(3, "SQ", [510, (n - 1, 1)])]
    assert host.errors == 0 and host.lost == 0


def test_battery_pin_needs_an_adc_and_a_threshold_that_keeps_10_hours():
    import power
    p = load("pico-chess")
    b = power.budget(p)
    # the committed threshold keeps 10 h at the worst-case current, and the next lower one would not
    assert b["hours_after"] >= power.HOURS_AFTER_SIGNAL
    assert p["battery"]["low_pct"] >= b["low_pct_min"]
    low = copy.deepcopy(p)
    low["battery"]["low_pct"] = b["low_pct_min"] - 1
    errs = errors(low)
    assert any(e.startswith("battery low_pct %d leaves" % (b["low_pct_min"] - 1)) and "needs at least %d %%" %
               b["low_pct_min"] in e for e in errs), errs
    # a larger display current raises the threshold the budget demands
    data = power.load_parts()
    data["parts"]["tm1637"]["ma_max"] *= 2
    assert power.budget(p, data)["low_pct_min"] > b["low_pct_min"]
    wrong = copy.deepcopy(p)
    wrong["battery"]["adc"] = 20                   # a plain GPIO, and a button's
    assert any("battery on pin 20, which is not an analog input of a pico" in e for e in errors(wrong))
    taken = copy.deepcopy(p)
    taken["battery"]["adc"] = 27                   # an ADC pin, but the white LED's
    assert "pin 27 used twice: LED white and the battery" in errors(taken)
    rpi = load("rpi-chess")
    rpi["battery"] = {"adc": "D4", "pack": "18650-1s2p", "low_pct": 40}
    assert any("not an analog input of a raspberry-pi" in e and "it has none" in e for e in errors(rpi))
    pack = copy.deepcopy(p)
    pack["battery"]["pack"] = "aa-4s"
    assert any("battery pack 'aa-4s' is not in hardware/parts.json" in e for e in errors(pack))


def test_every_profile_needs_a_battery_and_the_pis_monitor_keeps_10_hours():
    import power
    bare = load("pico-chess")
    del bare["battery"]
    assert any(e.startswith("no battery section: FIDE asks for a low-battery indicator") for e in errors(bare))
    # the Raspberry Pi's INA219: its threshold held to the budget like an ADC profile's
    rpi = load("rpi-chess")
    b = power.budget(rpi)
    assert b["hours_after"] >= power.HOURS_AFTER_SIGNAL and rpi["battery"]["low_pct"] >= b["low_pct_min"]
    assert "INA219" in " ".join(row[1] for row in b["rows"])      # the monitor's own current is in the budget
    low = copy.deepcopy(rpi)
    low["battery"]["low_pct"] = b["low_pct_min"] - 1
    assert any(e.startswith("battery low_pct %d leaves" % (b["low_pct_min"] - 1)) for e in errors(low)), errors(low)
    nobus = copy.deepcopy(rpi)
    nobus["battery"]["bus"] = "i2c7"
    assert "battery gauge on I2C bus 'i2c7', which the profile does not declare" in errors(nobus)
    clash = copy.deepcopy(rpi)
    clash["battery"]["addr"] = clash["sensors"]["addresses"][0]
    assert any(e.startswith("I2C address 0x%02X used twice" % clash["battery"]["addr"]) and "INA219" in e
               for e in errors(clash)), errors(clash)
    other = copy.deepcopy(rpi)
    other["battery"]["gauge"] = "max17048"
    assert "battery gauge 'max17048': the firmware reads an ina219" in errors(other)
    assert "battery gauge 'max17048' is not in hardware/parts.json (its current is part of the budget)" in errors(other)
