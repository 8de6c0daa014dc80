"""Check board profiles (boards/*.json) against the microcontroller pin tables.

Rejects a profile that uses a pin twice, a pin its board lacks (or drives an
input-only pin), a sensor matrix or chain too small for its game, a bus or
I2C address clash, an unknown preset, a time control that does not parse,
no battery section (FIDE's low-battery indicator), a battery on a pin without an ADC, a
battery monitor on an undeclared bus, or a low-battery threshold that leaves less than 10 hours by the
power budget (tools/power.py, hardware/parts.json).
Usage: python tools/check_boards.py [PROFILE.json ...]   (default: boards/*.json)
Exit status 1 if any profile is rejected.
"""
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "firmware"))
sys.path.insert(0, os.path.join(ROOT, "host"))

from flagcore import timecontrol  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import power  # noqa: E402
from flagfall.games import registry  # noqa: E402

MCUS = os.path.join(ROOT, "hardware", "mcus.json")
SEEDS = os.path.join(ROOT, "seeds", "time_controls.json")

# game -> allowed (rows, cols) and layouts ("dark": sensors on dark squares only), from the registry
GAMES = {name: (set(spec.board_sizes), spec.layouts) for name, spec in registry.GAMES.items()}
BUTTONS = ("white", "black", "start", "mode", "rocker")


def load_mcus():
    """The microcontroller table from hardware/mcus.json."""
    with open(MCUS) as f:
        d = json.load(f)
    return {k: v for k, v in d.items() if not k.startswith("_")}


def load_preset_names():
    """Names of the presets in seeds/time_controls.json."""
    with open(SEEDS) as f:
        d = json.load(f)
    return {k for k, v in d.items() if not k.startswith("_") and isinstance(v, dict)}


def needed_sensors(board):
    """Sensors a board section needs: all squares, or the dark half."""
    n = board["rows"] * board["cols"]
    return n // 2 if board.get("layout", "full") == "dark" else n


def pin_uses(p):
    """Every (pin, use, direction) the profile claims; direction 'in', 'out' or 'io'."""
    uses = []
    s = p.get("sensors") or {}
    t = s.get("type")
    if t == "matrix":
        for i, pin in enumerate(s.get("rows", [])):
            uses.append((pin, "matrix row %d" % i, "out"))
        for i, pin in enumerate(s.get("cols", [])):
            uses.append((pin, "matrix column %d" % i, "in-pull"))
    elif t == "hc165":
        uses.append((s.get("load"), "74HC165 SH/LD", "out"))
        if "spi" not in s:
            uses.append((s.get("clk"), "74HC165 CLK", "out"))
            uses.append((s.get("data"), "74HC165 QH", "in"))
    for name, b in sorted((p.get("buses") or {}).items()):
        for key in ("sda", "scl", "sck", "miso", "mosi"):
            if key in b:
                uses.append((b[key], "%s %s" % (name, key.upper()), "in" if key == "miso" else "io"))
    for i, d in enumerate(p.get("displays") or []):
        if d.get("type") == "tm1637":
            uses.append((d.get("clk"), "TM1637 %s CLK" % d.get("side", i), "out"))
            uses.append((d.get("dio"), "TM1637 %s DIO" % d.get("side", i), "io"))
    btn = p.get("buttons") or {}
    for name in BUTTONS:
        if name in btn:
            uses.append((btn[name], "button %s" % name, "in-pull" if btn.get("active_low", True) else "in"))
    if p.get("buzzer"):
        uses.append((p["buzzer"].get("pin"), "buzzer", "out"))
    for side in ("white", "black"):
        if side in (p.get("leds") or {}):
            uses.append((p["leds"][side], "LED %s" % side, "out"))
    return uses


def bus_pin_errors(rule, name, b):
    """Problems routing one profile bus on a board whose hardware buses use fixed pins."""
    errs = []
    kind = b.get("kind")
    bid = b.get("id", 0)
    if rule == "rp2040":
        # RP2040 datasheet, GPIO function table: I2C(n // 2 % 2) SDA on even n, SCL on odd n;
        # SPI(n // 8 % 2) with RX, CSn, SCK, TX for n % 4 = 0, 1, 2, 3
        if kind == "i2c" and bid != "soft":
            for role, want in (("sda", 0), ("scl", 1)):
                n = b.get(role)
                if isinstance(n, int) and ((n // 2) % 2 != bid or n % 2 != want):
                    errs.append("%s: GP%d cannot be I2C%s %s" % (name, n, bid, role.upper()))
        elif kind == "spi":
            for role, want in (("miso", 0), ("sck", 2), ("mosi", 3)):
                n = b.get(role)
                if isinstance(n, int) and ((n // 8) % 2 != bid or n % 4 != want):
                    errs.append("%s: GP%d cannot be SPI%s %s" % (name, n, bid, role.upper()))
    elif rule == "raspberry-pi":
        fixed = {("i2c", 1): {"sda": "D2", "scl": "D3"}, ("spi", 0): {"sck": "D11", "miso": "D9", "mosi": "D10"}}
        want = fixed.get((kind, bid))
        if want is None:
            errs.append("%s: use I2C bus 1 or SPI bus 0 on a Raspberry Pi" % name)
        else:
            for role, pin in sorted(want.items()):
                if role in b and b[role] != pin:
                    errs.append("%s: %s of %s%d is %s, not %s" % (name, role.upper(), kind.upper(), bid, pin, b[role]))
    return errs


def check_profile(p, mcus, presets, name="profile"):
    """Every problem found in one profile (an empty list when it is good)."""
    errs = []
    for key in ("name", "mcu", "backend", "game", "board", "buttons"):
        if key not in p:
            errs.append("missing %r" % key)
    if errs:
        return errs
    mcu = mcus.get(p["mcu"])
    if mcu is None:
        return ["unknown mcu %r (known: %s)" % (p["mcu"], ", ".join(sorted(mcus)))]
    if p["backend"] != mcu["backend"]:
        errs.append("backend %r does not drive a %s (use %r)" % (p["backend"], p["mcu"], mcu["backend"]))
    # board size against the game
    game = GAMES.get(p["game"])
    b = p["board"]
    if game is None:
        errs.append("unknown game %r (known: %s)" % (p["game"], ", ".join(sorted(GAMES))))
    else:
        sizes, layouts = game
        if (b.get("rows"), b.get("cols")) not in sizes:
            errs.append("a %s board is %s, not %sx%s" % (p["game"], " or ".join(
                "%dx%d" % s for s in sorted(sizes)), b.get("rows"), b.get("cols")))
        if b.get("layout", "full") not in layouts:
            errs.append("layout %r is not used for %s (%s)" % (b.get("layout"), p["game"], ", ".join(layouts)))
    need = needed_sensors(b) if "rows" in b and "cols" in b else 0
    # sensors large enough
    s = p.get("sensors")
    buses = p.get("buses") or {}
    if s:
        t = s.get("type")
        geo_rows = b.get("rows", 0)
        geo_cols = b.get("cols", 0) // (2 if b.get("layout") == "dark" else 1)
        if t == "matrix":
            nr, nc = len(s.get("rows", [])), len(s.get("cols", []))
            if nr < geo_rows or nc < geo_cols:
                errs.append("matrix too small for %s: %dx%d lines for a %dx%d sensor grid (%d sensors)" % (
                    p["game"], nr, nc, geo_rows, geo_cols, need))
            elif nr != geo_rows or nc != geo_cols:
                errs.append("matrix of %dx%d lines does not match the %dx%d sensor grid" % (nr, nc, geo_rows, geo_cols))
        elif t == "hc165":
            cap = 8 * s.get("chips", 0)
            if cap < need:
                errs.append("74HC165 chain too small for %s: %d inputs for %d sensors" % (p["game"], cap, need))
            if "spi" in s and buses.get(s["spi"], {}).get("kind") != "spi":
                errs.append("sensors use SPI bus %r, which the profile does not declare" % s["spi"])
        elif t == "mcp23017":
            addrs = s.get("addresses", [])
            if 16 * len(addrs) < need:
                errs.append("MCP23017 expanders too few for %s: %d inputs for %d sensors" % (p["game"], 16 * len(addrs), need))
            for a in addrs:
                if not 0x20 <= a <= 0x27:
                    errs.append("MCP23017 address 0x%02X outside 0x20-0x27" % a)
            if buses.get(s.get("bus"), {}).get("kind") != "i2c":
                errs.append("sensors use I2C bus %r, which the profile does not declare" % s.get("bus"))
        else:
            errs.append("unknown sensor type %r" % t)
    for bname, b in sorted(buses.items()):
        if b.get("kind") not in ("i2c", "spi"):
            errs.append("bus %s: kind must be i2c or spi" % bname)
            continue
        errs.extend(bus_pin_errors(mcu.get("bus_pins", "any"), "bus " + bname, b))
    # I2C addresses per bus
    addrs = {}
    if s and s.get("type") == "mcp23017":
        for a in s.get("addresses", []):
            addrs.setdefault(s.get("bus"), []).append((a, "MCP23017"))
    for d in p.get("displays") or []:
        if d.get("type") == "ssd1306":
            if buses.get(d.get("bus"), {}).get("kind") != "i2c":
                errs.append("SSD1306 on I2C bus %r, which the profile does not declare" % d.get("bus"))
            addrs.setdefault(d.get("bus"), []).append((d.get("addr", 0x3C), "SSD1306"))
        elif d.get("type") != "tm1637":
            errs.append("unknown display type %r" % d.get("type"))
    bat = p.get("battery") or {}
    if "gauge" in bat:
        addrs.setdefault(bat.get("bus"), []).append((bat.get("addr", 0x40), "the battery's %s" % bat["gauge"].upper()))
    for bus, lst in addrs.items():
        seen = {}
        for a, what in lst:
            if a in seen:
                errs.append("I2C address 0x%02X used twice on %s (%s and %s)" % (a, bus, seen[a], what))
            seen[a] = what
    # buttons
    btn = p["buttons"]
    if not (("white" in btn and "black" in btn) or "rocker" in btn):
        errs.append("buttons need white and black, or a rocker")
    for k in ("start", "mode"):
        if k not in btn:
            errs.append("buttons need %r" % k)
    # pins
    pins = mcu["pins"]
    used = {}
    for pin, use, direction in pin_uses(p):
        key = str(pin)
        if pin is None:
            errs.append("%s has no pin" % use)
            continue
        if key not in pins:
            errs.append("%s uses pin %r, which a %s does not have" % (use, pin, p["mcu"]))
            continue
        if key in used:
            errs.append("pin %r used twice: %s and %s" % (pin, used[key], use))
        used[key] = use
        if pin in mcu.get("input_only", []):
            if direction in ("out", "io"):
                errs.append("%s drives pin %r, which is input-only on a %s" % (use, pin, p["mcu"]))
            elif direction == "in-pull":
                errs.append("%s needs a pull-up but pin %r has none on a %s" % (use, pin, p["mcu"]))
    # battery: an ADC pin nothing else uses (or an I2C monitor), and a threshold that keeps 10 hours
    # (tools/power.py); every profile has one: FIDE asks every electronic clock for a battery indicator
    bat = p.get("battery")
    if not bat:
        errs.append("no battery section: FIDE asks for a low-battery indicator (an ADC pin, or an I2C "
                    "monitor \"gauge\": \"ina219\"), with the pack and low_pct of the power budget")
    elif "gauge" in bat:
        # an I2C monitor (a Raspberry Pi has no analog input): on a declared I2C bus, its address checked below
        if bat["gauge"] != "ina219":
            errs.append("battery gauge %r: the firmware reads an ina219" % bat["gauge"])
        if buses.get(bat.get("bus"), {}).get("kind") != "i2c":
            errs.append("battery gauge on I2C bus %r, which the profile does not declare" % bat.get("bus"))
        errs.extend(power.problems(p))
    else:
        adc = mcu.get("adc") or {}
        pin = bat.get("adc")
        if str(pin) not in adc:
            errs.append("battery on pin %r, which is not an analog input of a %s (%s)" % (
                pin, p["mcu"], ", ".join(sorted(adc, key=str)) or "it has none"))
        elif str(pin) in used:
            errs.append("pin %r used twice: %s and the battery" % (pin, used[str(pin)]))
        errs.extend(power.problems(p))
    # time controls
    for n in p.get("presets", []):
        if n not in presets:
            errs.append("unknown preset %r (see seeds/time_controls.json)" % n)
    if "default_tc" in p:
        try:
            timecontrol.parse(p["default_tc"])
        except ValueError as e:
            errs.append("default_tc: %s" % e)
    if p["name"] != name and name != "profile":
        errs.append("name %r differs from the file name %r" % (p["name"], name))
    return errs


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    paths = argv or sorted(glob.glob(os.path.join(ROOT, "boards", "*.json")))
    mcus = load_mcus()
    presets = load_preset_names()
    bad = 0
    for path in paths:
        with open(path) as f:
            try:
                p = json.load(f)
            except ValueError as e:
                print("%s: not JSON: %s" % (path, e))
                bad += 1
                continue
        name = os.path.basename(path)[:-5]
        errs = check_profile(p, mcus, presets, name)
        for e in errs:
            print("%s: %s" % (os.path.relpath(path, ROOT) if path.startswith(ROOT) else path, e))
        bad += bool(errs)
    print("check_boards: %d profiles, %d rejected" % (len(paths), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
