"""Generate hardware/<profile>/ from the board profiles: BOM, wiring table, sensor map,
build notes (README.md), a wiring diagram (wiring.svg), a schematic (schematic.svg, drawn
with schemdraw) and a KiCad netlist (<profile>.net) that passes the electrical rules
check of tools/hwnet.py, plus hardware/README.md.

Everything is derived from boards/*.json and hardware/mcus.json, so the
documents cannot drift from the firmware's pin map.
Usage: python tools/gen_hardware.py           write the files
       python tools/gen_hardware.py --check   exit 1 if a committed file differs
"""
import argparse
import glob
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HW = os.path.join(ROOT, "hardware")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_boards  # noqa: E402
import hwnet  # noqa: E402
import power  # noqa: E402

GAME_NAMES = {
    "chess": "chess", "draughts": "international draughts", "brazilian": "Brazilian draughts",
    "russian": "Russian draughts", "checkers": "English checkers", "minzu": "minzu tiaoqi",
}
# square (cell) pitch suggested per game, mm, and where the figure comes from
SQUARE_MM = {
    "chess": (55, "tournament boards use 5-6 cm squares for FIDE-size pieces (king 9.5 cm tall, bases 40-50 % "
                  "of a piece's height: FIDE Standards of Chess Equipment, 2022, art. 2.3-2.4)"),
    "draughts": (45, "FMJD fixes no board size; tournament pieces are about 35-40 mm across and the square "
                     "a few mm more than the piece"),
    "checkers": (50, "no rulebook figure is in seeds/; 2-inch (50 mm) squares with 32-38 mm checkers are the "
                     "common club size"),
    "minzu": (30, "we found no standard size; 30 mm cells leave room for 22-25 mm pieces and the 14 mm reeds"),
}
# legibility: a digit of height h is read comfortably to about 250 h (our design rule, stated in
# docs/clock.md): FIDE asks for 3 m, so 12 mm
LEGIBLE_PER_MM = 0.25      # metres per mm of digit height
LEGIBLE_M = 3.0
RUNNING_SIDE_M = 10.0


def load_profiles():
    """Every profile in boards/, by name."""
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "boards", "*.json"))):
        with open(path) as f:
            p = json.load(f)
        out[p["name"]] = p
    return out


def load_mcus():
    """The microcontroller table."""
    with open(os.path.join(HW, "mcus.json")) as f:
        return json.load(f)


def geometry(p):
    """(rows, cols) of the sensor grid."""
    b = p["board"]
    return (b["rows"], b["cols"] // 2) if b.get("layout") == "dark" else (b["rows"], b["cols"])


def sensor_count(p):
    """Sensors on the board."""
    r, c = geometry(p)
    return r * c


def square_name(p, k):
    """Human name of the square under sensor k."""
    b = p["board"]
    rows, cols = b["rows"], b["cols"]
    if b.get("layout") == "dark":
        return "%d" % (k + 1)                      # draughts/checkers square number
    r, c = divmod(k, cols)
    if p["game"] == "minzu":
        return "%s%d" % (chr(ord("A") + r), c)     # rows A.. from the top, columns 0.. (rule 2)
    return "%s%d" % ("abcdefghijklmn"[c], rows - r)


def square_position(p, k):
    """(row, col) on the physical board of sensor k (row 0 at the top)."""
    b = p["board"]
    if b.get("layout") == "dark":
        half = b["cols"] // 2
        r, i = divmod(k, half)
        return r, 2 * i + (1 if r % 2 == 0 else 0)  # dark squares: (row + col) odd
    return divmod(k, b["cols"])


# -- wiring -------------------------------------------------------------------

def wiring(p):
    """Groups of (component, [(pin, signal, terminal, note)]) from a profile."""
    groups = []
    s = p.get("sensors") or {}
    buses = p.get("buses") or {}
    rows, cols = geometry(p)
    bat = p.get("battery")
    if bat and "gauge" in bat:
        bus = buses[bat["bus"]]
        groups.append(("Battery (%s) and its %s monitor at 0x%02X on %s" % (
            bat["pack"], bat["gauge"].upper(), bat.get("addr", 0x40), bat["bus"]), [
            (bus["sda"], "SDA", "INA219 SDA", "shared with the bus's other devices"),
            (bus["scl"], "SCL", "INA219 SCL", ""),
            ("3V3", "VCC", "INA219 VCC", "the monitor's supply"),
            ("GND", "GND", "INA219 GND", "common with the pack's - and the step-up's GND"),
            ("-", "VIN+", "INA219 VIN+", "the pack's + (after its protection board)"),
            ("-", "VIN-", "INA219 VIN-", "the step-up's input +: the Pi's whole current crosses the 0.1 ohm shunt"),
            ("5V", "5V", "the step-up's 5 V out", "the Pi's 5 V pins (2 and 4), read as the battery level over I2C")]))
    elif bat:
        groups.append(("Battery (%s)" % bat["pack"], [
            (bat["adc"], "VBAT", "VSYS/3 inside the Pico (the cell reaches VSYS through the P-MOSFET)"
             if bat.get("divider") == 3 and p["mcu"] == "pico" else
             "middle of the 100k/100k divider from the cell's + to GND", "read as the battery level")]))
    if s.get("type") == "matrix":
        t = []
        for i, pin in enumerate(s["rows"]):
            t.append((pin, "ROW%d" % i, "row line %d" % i, "driven low in turn; switch cathode side"))
        for i, pin in enumerate(s["cols"]):
            t.append((pin, "COL%d" % i, "column line %d" % i, "input, internal pull-up"))
        groups.append(("Reed matrix %dx%d (%s)" % (len(s["rows"]), len(s["cols"]),
                                                   "1N4148 per switch" if s.get("diodes", True) else "no diodes"), t))
    elif s.get("type") == "hc165":
        t = [(s["load"], "SH/LD", "SH/LD (pin 1) of every chip", "low = latch inputs")]
        if "spi" in s:
            b = buses[s["spi"]]
            t.append((b["sck"], "%s SCK" % s["spi"].upper(), "CLK (pin 2) of every chip", "SPI clock"))
            t.append((b["miso"], "%s MISO" % s["spi"].upper(), "QH (pin 9) of chip 0", "SPI data in"))
        else:
            t.append((s["clk"], "CLK", "CLK (pin 2) of every chip", "shift clock"))
            t.append((s["data"], "QH", "QH (pin 9) of chip 0", "serial data in"))
        groups.append(("74HC165 chain, %d chips" % s["chips"], t))
    elif s.get("type") == "mcp23017":
        b = buses[s["bus"]]
        addrs = ", ".join("0x%02X" % a for a in s["addresses"])
        groups.append(("MCP23017 x%d (%s)" % (len(s["addresses"]), addrs), [
            (b["sda"], "%s SDA" % s["bus"].upper(), "SDA (pin 13) of every chip", "I2C data"),
            (b["scl"], "%s SCL" % s["bus"].upper(), "SCL (pin 12) of every chip", "I2C clock"),
        ]))
    for d in p.get("displays") or []:
        if d["type"] == "tm1637":
            groups.append(("TM1637 display (%s)" % d.get("side", "white"), [
                (d["clk"], "CLK", "CLK", "4-digit module"),
                (d["dio"], "DIO", "DIO", "open drain"),
            ]))
        else:
            b = buses[d["bus"]]
            groups.append(("SSD1306 OLED %dx%d at 0x%02X" % (d.get("width", 128), d.get("height", 64),
                                                             d.get("addr", 0x3C)), [
                (b["sda"], "%s SDA" % d["bus"].upper(), "SDA", "shared bus" if s.get("bus") == d["bus"] else "I2C data"),
                (b["scl"], "%s SCL" % d["bus"].upper(), "SCL", "shared bus" if s.get("bus") == d["bus"] else "I2C clock"),
            ]))
    btn = p["buttons"]
    t = []
    for name in ("white", "black", "rocker", "start", "mode"):
        if name in btn:
            what = {"rocker": "rocker contact (closed = white's side down)",
                    "start": "start/pause button", "mode": "mode/menu button"}.get(name, "%s's clock button" % name)
            t.append((btn[name], name.upper(), what, "other side to GND, internal pull-up"))
    groups.append(("Clock buttons", t))
    if p.get("buzzer"):
        z = p["buzzer"]
        groups.append(("Buzzer (%s)" % z.get("kind", "passive"), [
            (z["pin"], "BUZZ", "+ through 100 ohm" if z.get("kind", "passive") == "passive" else "+ (active buzzer)",
             "- to GND"),
        ]))
    if p.get("leds"):
        groups.append(("Side LEDs", [
            (p["leds"][side], "LED_%s" % side[0].upper(), "%s LED anode through 330 ohm" % side, "cathode to GND")
            for side in ("white", "black")
        ]))
    return groups


# supply terminals a wiring row may name instead of a GPIO ("-": not on the board's header at all)
POWER_PINS = {"3V3": "3.3 V (pin 1 or 17)", "5V": "5 V (pin 2 or 4)", "GND": "GND (pin 6)", "-": "(pack side)"}


def pin_label(mcu, pin):
    """'GP4 (pin 6)' style label of a pin."""
    info = mcu["pins"].get(str(pin))
    if str(pin) in POWER_PINS:  # a supply terminal, not a GPIO (the battery monitor's wiring)
        return POWER_PINS[str(pin)]
    if info is None:            # an analog input on the board itself (the Pico's VSYS/3 on GP29)
        return mcu["adc"][str(pin)]
    return "%s (%s)" % (info["label"], info["header"])


# -- bill of materials ---------------------------------------------------------

def bom(p, mcu):
    """Rows (qty, part, note) of the bill of materials."""
    n = sensor_count(p)
    s = p.get("sensors") or {}
    game = p["game"]
    pieces = power.pieces(p)
    parts = power.load_parts()["parts"]
    rows = [(1, mcu["title"], "with a USB cable")]
    rows.append((n, "reed switch, normally open, glass 2x14 mm (10-20 AT)", "one under each %s" % (
        "dark square" if p["board"].get("layout") == "dark" else "square" if game != "minzu" else "cell")))
    rows.append((pieces, "neodymium disc magnet 6x2 mm (N35 or stronger)", "one in the base of each piece"))
    if s.get("type") == "matrix":
        if s.get("diodes", True):
            rows.append((n, "1N4148 signal diode", "one in series with each reed switch"))
    elif s.get("type") == "hc165":
        rows.append((s["chips"], "74HC165 (DIP-16 or SOIC-16)", "parallel-in shift register, 8 sensors each"))
        rows.append((8 * s["chips"], "10 kohm resistor", "pull-up on every input (unused inputs too)"))
        rows.append((s["chips"], "100 nF ceramic capacitor", "decoupling, one per chip"))
    elif s.get("type") == "mcp23017":
        rows.append((len(s["addresses"]), "MCP23017 (DIP-28)", "16 inputs each, internal pull-ups used"))
        rows.append((len(s["addresses"]), "100 nF ceramic capacitor", "decoupling, one per chip"))
        rows.append((len(s["addresses"]), "10 kohm resistor", "RESET pull-up, one per chip"))
    for d in p.get("displays") or []:
        if d["type"] == "tm1637":
            rows.append((1, parts["tm1637"]["module"] + " (with colon)", "%s's time" % d.get("side")))
        else:
            rows.append((1, parts["ssd1306"]["module"],
                         "both times, menu, messages, battery level"))
    btn = p["buttons"]
    # quiet buttons (FIDE: at most 40 dB at 1 m): the contact is a sealed reed, which makes no click;
    # what sounds is the lever or plunger meeting its stop, which felt damps
    if "rocker" in btn:
        rows.append((1, "rocker (see-saw) lever with a 6x2 mm magnet under white's end, felt pads at both stops",
                     "the players' clock lever"))
        rows.append((1, "reed switch, normally open, glass 2x14 mm (10-20 AT)", "the lever's contact (silent)"))
    else:
        rows.append((2, "30 mm plunger button with a 6x2 mm magnet in the plunger and a felt-padded stop",
                     "white's and black's clock buttons"))
        rows.append((2, "reed switch, normally open, glass 2x14 mm (10-20 AT)", "the buttons' contacts (silent)"))
    rows.append((2, "silicone rubber-dome push button, 12 mm (no click dome)", "start/pause and mode"))
    if p.get("buzzer"):
        rows.append((1, "passive piezo buzzer" if p["buzzer"].get("kind", "passive") == "passive"
                     else "active 3 V buzzer", "low time and flag"))
        rows.append((1, "100 ohm resistor", "buzzer series resistor"))
    if p.get("leds"):
        rows.append((2, "5 mm high-brightness LED (1000 mcd or more at 20 mA)",
                     "one per side, lit while that side's clock runs (seen from 10 m)"))
        rows.append((2, "330 ohm resistor", "LED series resistors"))
    bat = p.get("battery")
    if bat and "gauge" in bat:
        pack = power.load_parts()["packs"][bat["pack"]]
        reg = power.load_parts()["regulators"][p["mcu"]]
        rows.append((8, "18650 Li-ion cell, 3000 mAh (e.g. Samsung INR18650-30Q)", pack["title"]))
        rows.append((1, "8 x 18650 holder wired in parallel, and a slide switch rated 5 A", "the battery and its on/off switch"))
        rows.append((1, "TP4056 charger module with DW01A protection (USB-C)",
                     "charges the pack (1 A: a day for 24 Ah, overnight from half), cuts off at 2.5 V"))
        rows.append((1, reg["title"][2:], "the cell to the Pi's 5 V"))
        rows.append((1, "INA219 breakout (e.g. Adafruit 904: 0.1 ohm shunt, I2C at 0x40)",
                     "the battery gauge: the cell's voltage (and the current) over I2C, read with the CircuitPython "
                     "driver adafruit-circuitpython-ina219 on Blinka"))
    elif bat:
        pack = power.load_parts()["packs"][bat["pack"]]
        rows.append((2, "18650 Li-ion cell, 3000 mAh (e.g. Samsung INR18650-30Q)", pack["title"]))
        rows.append((1, "2 x 18650 holder wired in parallel, and a slide switch", "the battery and its on/off switch"))
        rows.append((1, "TP4056 charger module with DW01A protection (USB-C)", "charges the pack, cuts off at 2.5 V"))
        if p["mcu"] == "pico":
            rows.append((1, "DMG2305UX P-channel MOSFET and a 100 kohm resistor",
                         "the cell to VSYS without a diode's drop (Pico datasheet, 'Powering Pico')"))
        else:
            rows.append((1, "AP2112K-3.3 LDO with 1 uF in and out", "the cell to the DevKitC's 3V3 pin"))
            rows.append((2, "100 kohm resistor (1 %)", "battery divider to the ADC pin (ratio %s)" % bat.get("divider")))
    rows.append((1, "perfboard or PCB, hook-up wire, 2.54 mm headers", ""))
    return rows


# -- sensor map ------------------------------------------------------------------

def sensor_label(p, k):
    """Where sensor k is wired: matrix line pair, shift-register input or expander pin."""
    s = p.get("sensors") or {}
    if s.get("type") == "matrix":
        nc = len(s["cols"])
        return "R%dC%d" % (k // nc, k % nc)
    if s.get("type") == "hc165":
        return "%d.D%d" % (k // 8, 7 - k % 8)
    if s.get("type") == "mcp23017":
        a = s["addresses"][k // 16]
        i = k % 16
        return "%X%s%d" % (a & 7, "A" if i < 8 else "B", i % 8)
    return "?"


def sensor_map(p):
    """A text grid: each square shows its sensor's wiring label (board as seen from white/first player)."""
    b = p["board"]
    rows, cols = b["rows"], b["cols"]
    grid = [["." for _ in range(cols)] for _ in range(rows)]
    for k in range(sensor_count(p)):
        r, c = square_position(p, k)
        grid[r][c] = sensor_label(p, k)
    w = max(len(x) for row in grid for x in row)
    lines = []
    for r in range(rows):
        lines.append(" ".join(x.rjust(w) for x in grid[r]))
    return "\n".join(lines)


# -- documents ------------------------------------------------------------------

def notes(p, mcu):
    """Build notes in Markdown."""
    s = p.get("sensors") or {}
    out = []
    out.append("### Reed switches and magnets\n")
    out.append("- Use normally-open glass reed switches about 2x14 mm rated 10-20 AT (ampere-turns): "
               "less sensitive ones need magnets too strong for a smooth board, more sensitive ones "
               "close under the neighbouring square.")
    out.append("- Lay each reed flat, its long axis along the row, with one end of the glass under the centre "
               "of its square (see Mechanical); bend the leads at least 2 mm from the glass (the seal cracks "
               "otherwise).")
    out.append("- Glue one 6x2 mm neodymium disc in the centre of every piece base, all with the same pole down. "
               "Test one square before building all: with the board top in place the reed should close "
               "with the piece centred and stay open with it on the next square (about 15 mm off centre). "
               "Thicker tops need larger magnets (8x3 mm).")
    out.append("- The firmware debounces each square for %d ms (`debounce_ms` in the profile)." % s.get("debounce_ms", 30))
    out.append("")
    if s.get("type") == "matrix":
        out.append("### Matrix and diode orientation\n")
        out.append("- Each reed switch is in series with a 1N4148: **anode to the column line, cathode (the band) "
                   "to the row line**. The firmware drives one row low at a time and reads the columns, which "
                   "have pull-ups, so current flows column -> diode -> reed -> row.")
        out.append("- Without diodes three pieces on the corners of a rectangle make the fourth corner read "
                   "occupied (a ghost). The firmware then reports a `ghost` warning instead of a move "
                   "(set `\"diodes\": false` only for a matrix built without them).")
        out.append("- Sensor k sits at row line k // %d and column line k %% %d." % (len(s["cols"]), len(s["cols"])))
        out.append("")
    elif s.get("type") == "hc165":
        out.append("### 74HC165 chain\n")
        out.append("- Chip 0 is the one whose QH (pin 9) goes to the microcontroller. The QH of chip j+1 goes "
                   "to SER (pin 10) of chip j; SER of the last chip goes to 3V3.")
        out.append("- SH/LD (pin 1) and CLK (pin 2) go to every chip; CLK INH (pin 15) to GND; VCC (16) to 3V3, "
                   "GND (8) to GND, 100 nF across each chip's supply.")
        out.append("- Every input D0-D7 has a 10 kohm pull-up to 3V3 and its reed switch to GND, so a piece "
                   "reads 0. Pull unused inputs up too.")
        out.append("- Sensor k is chip k // 8, input D(7 - k % 8) (label `chip.Dn` in the map below)" +
                   (", read over SPI: SCK on CLK, MISO on QH; nothing on MOSI." if "spi" in s else "."))
        out.append("")
    elif s.get("type") == "mcp23017":
        out.append("### MCP23017 expanders\n")
        out.append("- Set each chip's address with A0-A2 (pins 15-17): 0x20 + the 3-bit value; this "
                   "profile uses %s." % ", ".join("0x%02X" % a for a in s["addresses"]))
        out.append("- VDD (9) to 3V3, VSS (10) to GND, RESET (18) to 3V3 through 10 kohm, 100 nF per chip. "
                   "Every GPA/GPB pin takes a reed switch to GND; the firmware turns on the internal pull-ups.")
        out.append("- Sensor k is expander k // 16, GPA0-7 then GPB0-7 (label `<A2A1A0><port><bit>` in the map).")
        out.append("- Enable I2C on the Pi (`sudo raspi-config`, Interface options) and install Blinka "
                   "(`pip install adafruit-blinka adafruit-circuitpython-ina219`, or `pip install flagfall[pi]`); run `python3 firmware/main.py --profile boards/%s.json`." % p["name"])
        out.append("")
    out.append("### Clock hardware\n")
    btn = p["buttons"]
    if "rocker" in btn:
        out.append("- The rocker's reed switch closes to GND when white's side of the lever is down (the magnet "
                   "in that end comes over it). The firmware "
                   "takes the first edge as the press time and ignores bounce for %d ms." % btn.get("debounce_ms", 30))
    else:
        out.append("- Each button connects its pin to GND when pressed (internal pull-ups). The firmware takes "
                   "the first edge as the press time and ignores bounce for %d ms." % btn.get("debounce_ms", 30))
    out.append("- Start/pause starts white's clock, pauses and resumes. Mode (clock not running) opens the "
               "time-control menu: white/black step through the presets, start chooses, the last entry "
               "enters minutes and increment (docs/firmware.md).")
    for d in p.get("displays") or []:
        if d["type"] == "tm1637":
            out.append("- Power the TM1637 modules from 3V3, not 5 V: their pull-ups would lift CLK/DIO to 5 V.")
            break
    for d in p.get("displays") or []:
        if d["type"] == "ssd1306":
            out.append("- The SSD1306 module runs on 3V3; most modules carry their own I2C pull-ups.")
            break
    out.append("")
    out.append("### Power\n")
    out.append("- %s." % mcu["power"])
    out.append("- Logic is %s throughout; ground: %s." % (mcu["logic"], mcu["ground"]))
    b = power.budget(p)
    if b is None:
        out.append("- No battery: this board runs from its supply (see Power budget).")
    else:
        out.append("- Battery: %s. The budget below gives %.0f mA at worst (%.0f mA typical): %.0f h on a full pack, "
                   "and the low-battery signal at %d %% leaves %.1f h." % (
                       b["pack"]["title"], b["total_ma"], b["typical_ma"], b["hours_full"],
                       p["battery"]["low_pct"], b["hours_after"]))
    if mcu.get("notes"):
        out.append("- %s" % mcu["notes"])
    return "\n".join(out)


def the_circuit(p, mcu):
    """The profile's circuit (tools/hwnet.py)."""
    return hwnet.circuit(p, mcu, check_boards.pin_uses, sensor_count, sensor_label)


def mechanical(p, mcu):
    """Mechanical notes for this profile, Markdown."""
    b = p["board"]
    key = p["game"] if p["game"] in SQUARE_MM else ("draughts" if b["rows"] == 10 else "checkers")
    sq, why = SQUARE_MM[key]
    rows, cols = b["rows"], b["cols"]
    out = ["- Square (cell) size: about %d mm, so the playing area is %d x %d mm plus a 20-30 mm border for "
           "the frame. Why: %s." % (sq, cols * sq, rows * sq, why),
           "- Reeds: %d, one per %s, %s. Put one end of the reed's glass (not its middle) under the centre "
           "of the square: a disc magnet straight above the middle of a reed can leave it open, because "
           "the field there crosses the reed instead of running along it. Keep every reed in the same "
           "direction." % (sensor_count(p), "dark square" if b.get("layout") == "dark" else "square" if p["game"] != "minzu"
                            else "cell", "on a %d mm grid" % sq),
           "- Board top: 2-4 mm (plywood, MDF, acrylic or a printed vinyl on 2 mm board). A thicker top "
           "needs a stronger magnet; test before cutting (see [BUILDING.md](../BUILDING.md#1-choose-magnet-and-top-together)).",
           "- Enclosure: a frame 15-25 mm deep under the top holds the reeds, diodes or chips and the wiring; "
           "the microcontroller sits in the clock housing or a side pocket with its USB socket reachable.",
           ]
    if "rocker" in p["buttons"]:
        out.append("- Clock lever: a see-saw (rocker) on a 3-4 mm steel pin, a 6x2 mm magnet in white's end and a "
                   "reed switch under it (one lead to %s, the other to GND), so white's side down closes it. "
                   "End the lever's travel on felt pads: the reed itself makes no sound, the stops do "
                   "(FIDE: at most 40 dB at 1 m)." % pin_label(mcu, p["buttons"]["rocker"]))
    else:
        out.append("- Clock buttons: two 30 mm plungers on the top of the clock housing, one per side, each with "
                   "a 6x2 mm magnet that closes a reed switch (between its pin and GND) when pressed, a spring "
                   "and a felt-padded stop: no snap-action click (FIDE: at most 40 dB at 1 m). Mount them "
                   "15-20 cm apart so a hand hits one only.")
    return "\n".join(out)


def readme(p, mcu):
    """hardware/<name>/README.md text."""
    out = ["# %s" % p["name"], "", p.get("title", ""), "",
           "Generated from `boards/%s.json` by `tools/gen_hardware.py`; do not edit by hand." % p["name"], "",
           "Game: %s, %dx%d board, %d sensors%s. Microcontroller: %s (`%s` backend)." % (
               GAME_NAMES.get(p["game"], p["game"]), p["board"]["rows"], p["board"]["cols"], sensor_count(p),
               " on the dark squares" if p["board"].get("layout") == "dark" else "",
               mcu["title"], p["backend"]), "",
           "Schematic: [schematic.svg](schematic.svg). KiCad netlist: [%s.net](%s.net) (every part and net; "
           "passes the electrical rules check in `tests/host/test_hardware.py`). Wiring diagram: "
           "[wiring.svg](wiring.svg). How to build and bring it up: [../BUILDING.md](../BUILDING.md). "
           "No photos of a built unit exist yet." % (p["name"], p["name"]), "",
           "![schematic](schematic.svg)", "", "## Bill of materials", "",
           "| qty | part | for |", "|---:|---|---|"]
    for q, part, note in bom(p, mcu):
        out.append("| %d | %s | %s |" % (q, part, note))
    out += ["", "## Wiring", "", "| MCU pin | signal | goes to | notes |", "|---|---|---|---|"]
    for comp, rows in wiring(p):
        for pin, sig, term, note in rows:
            out.append("| %s | %s | %s: %s | %s |" % (pin_label(mcu, pin), sig, comp, term, note))
    out.append("| 3V3 | power | every module's VCC/VDD, pull-ups | %s |" % mcu["power"].split(";")[-1].strip())
    out.append("| GND | ground | every module, reed/button return | %s |" % mcu["ground"])
    out += ["", "## Sensor map", "",
            "Each square shows the wiring of its sensor; row 0 is the far side from white (the first player). "
            "Sensor index k (the number in `SQ` frames, docs/protocol.md) runs row by row from the top left"
            + (" over the dark squares only (k + 1 is the square number)." if p["board"].get("layout") == "dark" else "."),
            "", "```", sensor_map(p), "```", "", "## Mechanical", "", mechanical(p, mcu), "",
            "## Build notes", "", notes(p, mcu), "", "## Power budget", "", budget_text(p, mcu), "",
            "## Legibility and the running side", "", legibility(p), ""]
    return "\n".join(out)


def budget_text(p, mcu):
    """The power budget (tools/power.py) in Markdown: every part's current, the cell, the threshold."""
    b = power.budget(p)
    if b is None:
        return "No battery section in the profile."
    reg = b["regulator"]
    out = ["Generated from `hardware/parts.json` by `tools/power.py` (which `tools/check_boards.py` runs on "
           "every profile). Currents are at the cell: parts on the 3V3 rail%s count through %s%s." % (" (and the Pi itself on 5 V)" if reg.get("rail_mv") else "",
               reg["title"], " (x %.2f: %.1f V / (%.1f V x %.0f %%))" % (
                   b["factor"], reg.get("rail_mv", power.RAIL_MV) / 1000.0, b["pack"]["v_min_mv"] / 1000.0,
                   100 * reg.get("efficiency", 1))
               if b["factor"] != 1.0 else " (the same current)"), "",
           "| qty | part | mA typical | mA worst | drawn from | mA at the cell (worst) | source |",
           "|---:|---|---:|---:|---|---:|---|"]
    for qty, title, ma, ma_max, rail, cell, source in b["rows"]:
        out.append("| %d | %s | %g | %g | %s | %.2f | %s |" % (qty, title, ma, ma_max, rail, cell, source))
    out.append("| | **total** | | | | **%.1f** | typical %.1f mA |" % (b["total_ma"], b["typical_ma"]))
    low = p["battery"]["low_pct"]
    out += ["", "- Pack: %s: %d mAh, counted as %d mAh usable (x %.1f: %s)." % (
                b["pack"]["title"], b["pack"]["mah"], b["usable_mah"], b["pack"]["derate"], b["pack"]["source"]),
            "- %d hours after the low-battery signal at the worst case need %.0f mAh: %.1f %% of the usable "
            "capacity, so the signal must come at %d %% or more." % (
                power.HOURS_AFTER_SIGNAL, b["need_mah"], 100 * b["need_mah"] / b["usable_mah"], b["low_pct_min"]),
            "- The profile signals at `low_pct` %d %%: %.1f h remain after it (worst case), %.0f h on a full pack." % (
                low, b["hours_after"], b["hours_full"]),
            "- The level is read from the cell voltage (%s) on the discharge curve in "
            "`firmware/flagcore/battery.py`; the signal is a beep and a message on the faces for 2 s; the level and "
            "the signal are in every `CLK` frame." % (mcu["adc"][str(p["battery"]["adc"])] + ", divider %s" % p["battery"].get("divider", 1)
             if "adc" in p["battery"] else "an %s at 0x%02X on %s: VIN+ to GND, the bus voltage plus the shunt's drop, "
             "read by the HAL through Adafruit's CircuitPython driver on Blinka; a monitor that does not answer "
             "makes the level unknown, shown as `battery ?` and sent as -1, never a full one" % (
                 p["battery"]["gauge"].upper(), p["battery"].get("addr", 0x40), p["battery"]["bus"]))]
    return "\n".join(out)


def legibility(p):
    """Digit height and contrast for 3 m, and the running-side indicator for 10 m, in Markdown."""
    parts = power.load_parts()["parts"]
    out = []
    kinds = []
    for d in p.get("displays") or []:
        if d["type"] not in kinds:
            kinds.append(d["type"])
    for kind in kinds:
        part = parts[kind]
        h = part["digit_mm"]
        reach = h * LEGIBLE_PER_MM
        out.append("- %s: digits %.1f mm high, read to about %.1f m (250 x the height): %s at %.0f m. "
                   "Contrast: %s." % (part["module"], h, reach, "meets FIDE's legibility" if reach >= LEGIBLE_M
                                      else "does NOT meet FIDE's legibility", LEGIBLE_M, part["contrast"]))
        if reach < LEGIBLE_M:
            out.append("  For 3 m the times need digits of 12 mm: a 2.42 in SSD1309 OLED (0.43 mm pixels, the "
                       "SSD1306 command set) with 28-pixel digits, or two TM1637 modules as on the Pico profiles; "
                       "the firmware draws only the 8-pixel font today.")
    if p.get("leds"):
        out.append("- Running side: %s. The LED of the side whose clock runs is lit (docs/firmware.md)." %
                   parts["led"]["intensity"])
    if "rocker" in p["buttons"]:
        out.append("- The rocker lever also shows the running side: the side that is up is the one whose clock runs.")
    out.append("- Neither distance has been measured on a built unit: a tester reads the faces from 3 m and "
               "names the running side from 10 m in a lit hall (docs/clock.md, the FIDE table).")
    return "\n".join(out)


def _esc(t):
    return str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def svg(p, mcu):
    """A wiring diagram: the microcontroller on the left, every net to its part on the right."""
    groups = wiring(p)
    row_h = 18
    y = 60
    rows = []
    boxes = []
    for comp, nets in groups:
        top = y
        y += row_h  # title row
        for pin, sig, term, note in nets:
            rows.append((y, pin, sig, term))
            y += row_h
        boxes.append((top, y, comp))
        y += 10
    height = y + 20
    width = 900
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
           'font-family="monospace" font-size="12">' % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="20" y="24" font-size="16" font-weight="bold">%s: wiring</text>' % _esc(p["name"]),
           '<text x="20" y="42">%s</text>' % _esc(p.get("title", ""))]
    out.append('<rect x="20" y="%d" width="230" height="%d" fill="#eef4ff" stroke="black"/>' % (56, height - 76))
    out.append('<text x="30" y="%d" font-weight="bold">%s</text>' % (56 + 14, _esc(mcu["title"][:30])))
    for top, bottom, comp in boxes:
        out.append('<rect x="520" y="%d" width="360" height="%d" fill="#fff6e6" stroke="black"/>' % (top - 4, bottom - top))
        out.append('<text x="530" y="%d" font-weight="bold">%s</text>' % (top + 10, _esc(comp[:44])))
    for yy, pin, sig, term in rows:
        out.append('<text x="30" y="%d">%s</text>' % (yy + 10, _esc(pin_label(mcu, pin))))
        out.append('<circle cx="250" cy="%d" r="3"/>' % (yy + 6))
        out.append('<line x1="250" y1="%d" x2="520" y2="%d" stroke="#1a5fb4"/>' % (yy + 6, yy + 6))
        out.append('<text x="300" y="%d" fill="#1a5fb4">%s</text>' % (yy + 3, _esc(sig)))
        out.append('<circle cx="520" cy="%d" r="3"/>' % (yy + 6))
        out.append('<text x="530" y="%d">%s</text>' % (yy + 10, _esc(term[:44])))
    out.append('<text x="20" y="%d">3V3 and GND go to every part (see the wiring table).</text>' % (height - 6))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def index(profiles, mcus):
    """hardware/README.md text."""
    out = ["# Hardware", "",
           "One folder per board profile in `boards/`, generated by `tools/gen_hardware.py` "
           "(`make test` checks that they match the profiles). Each has a bill of materials, "
           "a wiring table, a sensor map, mechanical and build notes (README.md), a schematic "
           "(`schematic.svg`), a KiCad netlist of every part (`<profile>.net`, checked by an electrical "
           "rules check) and a wiring diagram (`wiring.svg`).", "",
           "**Building one:** [BUILDING.md](BUILDING.md): choosing magnet and board top, step-by-step "
           "assembly, bring-up. No photos of a built unit exist yet: the designs are checked against the "
           "firmware's pin maps and an electrical rules check, and run in the simulator, but nobody has "
           "reported building one.", "",
           "| profile | game | microcontroller | sensors | displays | schematic | netlist |",
           "|---|---|---|---|---|---|---|"]
    for name, p in sorted(profiles.items()):
        disp = ", ".join(d["type"].upper() for d in p.get("displays") or [])
        out.append("| [%s](%s/README.md) | %s | %s | %d via %s | %s | [svg](%s/schematic.svg) | [%s.net](%s/%s.net) |" % (
            name, name, GAME_NAMES.get(p["game"], p["game"]), mcus[p["mcu"]]["title"], sensor_count(p),
            p["sensors"]["type"], disp, name, name, name, name))
    out += ["", "The schematics are drawn with schemdraw (MIT, a PyPI package without dependencies); the "
            "netlists and their electrical rules check are Flagfall's own (`tools/hwnet.py`: SKiDL would "
            "bring InSpice, GPL-3.0, and ~380 MB of numerical packages). The netlists are written in KiCad's "
            "netlist format (version E) and the tests read them back with kinparse; nobody has imported one "
            "into KiCad yet, and the modules and reeds have no footprint assigned.",
            "", "`mcus.json` lists the pins each microcontroller board offers (used by "
            "`tools/check_boards.py`, which rejects a profile with a pin used twice, a pin the board lacks, "
            "or a matrix too small for its game).", "",
            "`parts.json` lists every part's current draw, the battery packs and the regulators: "
            "`tools/power.py` turns them into each battery profile's power budget (its README's \"Power "
            "budget\"), and `tools/check_boards.py` rejects a low-battery threshold that leaves less than "
            "the 10 hours FIDE asks for after the signal. The same table gives the digit height and "
            "contrast of each display and the LED's intensity for the README's \"Legibility and the running "
            "side\" (docs/clock.md has the FIDE table).", ""]
    return "\n".join(out)


def render_all():
    """{relative path: text} of every generated file."""
    profiles = load_profiles()
    mcus = load_mcus()
    try:
        import hwdraw
    except ImportError as e:
        raise SystemExit("gen_hardware: %s: install the dev dependencies (make setup, or "
                         "pip install -e '.[dev]'; schemdraw draws the schematics)" % e)
    files = {"hardware/README.md": index(profiles, mcus)}
    for name, p in profiles.items():
        mcu = mcus[p["mcu"]]
        c = the_circuit(p, mcu)
        problems = hwnet.erc(c)
        if problems:
            raise SystemExit("gen_hardware: %s fails the electrical rules check:\n  %s"
                             % (name, "\n  ".join(problems)))
        files["hardware/%s/README.md" % name] = readme(p, mcu)
        files["hardware/%s/wiring.svg" % name] = svg(p, mcu)
        files["hardware/%s/schematic.svg" % name] = hwdraw.schematic_svg(p, c, mcu)
        files["hardware/%s/%s.net" % (name, name)] = hwnet.kicad_netlist(c, "boards/%s.json" % name)
    return files


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="fail if a committed file differs")
    args = ap.parse_args(argv)
    files = render_all()
    stale = []
    for rel, text in sorted(files.items()):
        path = os.path.join(ROOT, rel)
        if args.check:
            try:
                with open(path) as f:
                    if f.read() != text:
                        stale.append(rel)
            except OSError:
                stale.append(rel)
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    if args.check:
        for rel in stale:
            print("%s is out of date: run python tools/gen_hardware.py" % rel, file=sys.stderr)
        return 1 if stale else 0
    print("gen_hardware: wrote %d files" % len(files))
    return 0


if __name__ == "__main__":
    sys.exit(main())
