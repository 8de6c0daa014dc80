"""The circuit of a board profile as a netlist, its electrical rules check, and a KiCad netlist file.

Why our own and not SKiDL: SKiDL 3.0.0 (MIT) can describe parts without KiCad's symbol
libraries, but it imports InSpice (GPL-3.0-or-later) and matplotlib, numpy and h5py at
import time (about 380 MB in a venv), writes side files next to the script and puts the
date in its netlist. Everything here is a few hundred lines, deterministic, and needs
no library at all: parts are defined below with their real pin numbers and KiCad pin
types, and the netlist is written in KiCad's netlist format (version "E", readable by
KiCad's PCB editor and by kinparse, which the tests use as an independent reader).

    c = circuit(profile, mcu)      # Circuit: parts and nets
    erc(c)                         # [] or a list of problems, one line each
    kicad_netlist(c, source)       # text of hardware/<profile>/<profile>.net
"""

# KiCad pin types
IN, OUT, BIDI, PASSIVE, PWR_IN, PWR_OUT, NC = (
    "input", "output", "bidirectional", "passive", "power_in", "power_out", "no_connect")
DRIVERS = (OUT, BIDI, PWR_OUT)

# footprints from KiCad's standard libraries (names only, nothing is downloaded);
# modules and reed switches have none there: assign them in KiCad.
FP_DIODE = "Diode_THT:D_DO-35_SOD27_P7.62mm_Horizontal"
FP_R = "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal"
FP_C = "Capacitor_THT:C_Disc_D3.0mm_W1.6mm_P2.50mm"
FP_DIP16 = "Package_DIP:DIP-16_W7.62mm"
FP_DIP28 = "Package_DIP:DIP-28_W7.62mm"
FP_LED = "LED_THT:LED_D3.0mm"

# the power pins of each microcontroller board: net -> (pin name, pin number)
POWER_PINS = {
    "pico": {"+5V": ("VBUS", "40"), "+3V3": ("3V3(OUT)", "36"), "GND": ("GND", "38")},
    "esp32-devkitc": {"+5V": ("5V", "5V"), "+3V3": ("3V3", "3V3"), "GND": ("GND", "GND")},
    "raspberry-pi": {"+5V": ("5V", "2"), "+3V3": ("3V3", "1"), "GND": ("GND", "6")},
}


class Pin:
    """One pin of a part: number, name, KiCad type; pullup: the part pulls it up itself
    (an MCU's internal pull-up, a module's resistor); open_drain: it needs a pull-up."""

    def __init__(self, part, num, name, kind, pullup=False, open_drain=False):
        self.part, self.num, self.name, self.kind = part, str(num), name, kind
        self.pullup, self.open_drain = pullup, open_drain
        self.net = None

    def __repr__(self):
        return "%s.%s(%s)" % (self.part.ref, self.num, self.name)


class Part:
    """A component: reference, value, library part name, footprint, pins by number."""

    def __init__(self, ref, value, kind, pins, footprint="", description=""):
        self.ref, self.value, self.kind = ref, value, kind
        self.footprint, self.description = footprint, description
        self.pins = [Pin(self, *p) for p in pins]

    def pin(self, key):
        """The pin with this number or name."""
        for p in self.pins:
            if p.num == str(key) or p.name == key:
                return p
        raise KeyError("%s has no pin %r" % (self.ref, key))


class Circuit:
    """Parts and named nets; connect() puts pins on nets."""

    def __init__(self, name):
        self.name = name
        self.parts = []
        self.nets = {}           # name -> [pins], in the order connected
        self.counts = {}

    def add(self, prefix, value, kind, pins, footprint="", description=""):
        n = self.counts.get(prefix, 0) + 1
        self.counts[prefix] = n
        part = Part("%s%d" % (prefix, n), value, kind, pins, footprint, description)
        self.parts.append(part)
        return part

    def connect(self, net, *pins):
        for p in pins:
            if p.net is not None and p.net != net:
                raise ValueError("%r is already on net %s, not %s" % (p, p.net, net))
            if p.net is None:
                p.net = net
                self.nets.setdefault(net, []).append(p)

    def no_connect(self, *pins):
        for p in pins:
            p.kind = NC


# -- parts -------------------------------------------------------------------------

def resistor(c, value, a_net, b_net):
    r = c.add("R", value, "R", [(1, "~", PASSIVE), (2, "~", PASSIVE)], FP_R)
    c.connect(a_net, r.pin(1))
    c.connect(b_net, r.pin(2))
    return r


def capacitor(c, value, a_net, b_net):
    x = c.add("C", value, "C", [(1, "~", PASSIVE), (2, "~", PASSIVE)], FP_C)
    c.connect(a_net, x.pin(1))
    c.connect(b_net, x.pin(2))
    return x


def reed(c, a_net, b_net, what):
    s = c.add("S", "reed NO 10-20AT", "Reed", [(1, "~", PASSIVE), (2, "~", PASSIVE)], "", what)
    c.connect(a_net, s.pin(1))
    c.connect(b_net, s.pin(2))
    return s


def hc165(c):
    """74HC165 (DIP-16): parallel-in shift register."""
    pins = [(1, "SH/~LD", IN), (2, "CLK", IN), (3, "D4", IN), (4, "D5", IN), (5, "D6", IN), (6, "D7", IN),
            (7, "~QH", OUT), (8, "GND", PWR_IN), (9, "QH", OUT), (10, "SER", IN), (11, "D0", IN), (12, "D1", IN),
            (13, "D2", IN), (14, "D3", IN), (15, "CLK_INH", IN), (16, "VCC", PWR_IN)]
    return c.add("U", "74HC165", "74HC165", pins, FP_DIP16)


def mcp23017(c):
    """MCP23017 (DIP-28): 16-bit I2C expander; GP pins are inputs with the internal pull-ups on."""
    pins = [(i + 1, "GPB%d" % i, IN, True) for i in range(8)]
    pins += [(9, "VDD", PWR_IN), (10, "VSS", PWR_IN), (11, "NC", NC), (12, "SCL", IN, False, True),
             (13, "SDA", BIDI, False, True), (14, "NC", NC), (15, "A0", IN), (16, "A1", IN), (17, "A2", IN),
             (18, "~RESET", IN), (19, "INTB", OUT), (20, "INTA", OUT)]
    pins += [(21 + i, "GPA%d" % i, IN, True) for i in range(8)]
    return c.add("U", "MCP23017", "MCP23017", pins, FP_DIP28)


# -- the circuit of a profile -----------------------------------------------------------

def _mcu_part(c, p, mcu, uses):
    """The microcontroller board with every pin the profile uses, plus power pins."""
    pins = []
    seen = set()
    for pin, use, direction in uses:
        if pin in seen:
            continue
        seen.add(pin)
        info = mcu["pins"][str(pin)]
        num = info["header"].split()[-1]
        kind = {"out": OUT, "in": IN, "in-pull": IN, "io": BIDI}[direction]
        pins.append((num, info["label"], kind, direction == "in-pull"))
    power = POWER_PINS[p["mcu"]]
    pins.append((power["+5V"][1], power["+5V"][0], PWR_IN))
    pins.append((power["+3V3"][1], power["+3V3"][0], PWR_OUT))
    pins.append((power["GND"][1], power["GND"][0], PWR_IN))
    return c.add("U", mcu["title"].split(" (")[0], p["mcu"], pins, "", mcu["title"])


def mcu_pin(u, mcu, pin):
    """The MCU part's pin for a profile pin name."""
    return u.pin(mcu["pins"][str(pin)]["label"])


def circuit(p, mcu, pin_uses, sensor_count, sensor_label):
    """The whole circuit of profile p (mcu: its entry of hardware/mcus.json).

    pin_uses: check_boards.pin_uses; sensor_count/sensor_label: from gen_hardware (passed in
    so that this module stays free of the tools' imports)."""
    c = Circuit(p["name"])
    j = c.add("J", "USB 5V", "USB_power", [(1, "VBUS", PWR_OUT), (2, "GND", PWR_OUT)], "",
              "USB cable from the host computer or a 5 V supply")
    u = _mcu_part(c, p, mcu, pin_uses(p))
    power = POWER_PINS[p["mcu"]]
    c.connect("+5V", j.pin("VBUS"), u.pin(power["+5V"][0]))
    c.connect("GND", j.pin("GND"), u.pin(power["GND"][0]))
    c.connect("+3V3", u.pin(power["+3V3"][0]))
    s = p.get("sensors") or {}
    buses = p.get("buses") or {}
    n = sensor_count(p)
    if s.get("type") == "matrix":
        nc = len(s["cols"])
        for i, pin in enumerate(s["rows"]):
            c.connect("ROW%d" % i, mcu_pin(u, mcu, pin))
        for i, pin in enumerate(s["cols"]):
            c.connect("COL%d" % i, mcu_pin(u, mcu, pin))
        for k in range(n):
            row, col = "ROW%d" % (k // nc), "COL%d" % (k % nc)
            what = "sensor %d (%s)" % (k, sensor_label(p, k))
            if s.get("diodes", True):
                d = c.add("D", "1N4148", "D", [(1, "K", PASSIVE), (2, "A", PASSIVE)], FP_DIODE, what)
                mid = "S%d_D" % k
                c.connect(col, d.pin("A"))
                c.connect(mid, d.pin("K"))
                reed(c, mid, row, what)
            else:
                reed(c, col, row, what)
    elif s.get("type") == "hc165":
        if "spi" in s:
            b = buses[s["spi"]]
            clk_pin, data_pin = b["sck"], b["miso"]
        else:
            clk_pin, data_pin = s["clk"], s["data"]
        c.connect("SR_LOAD", mcu_pin(u, mcu, s["load"]))
        c.connect("SR_CLK", mcu_pin(u, mcu, clk_pin))
        chips = [hc165(c) for _ in range(s["chips"])]
        for i, chip in enumerate(chips):
            c.connect("SR_LOAD", chip.pin("SH/~LD"))
            c.connect("SR_CLK", chip.pin("CLK"))
            c.connect("GND", chip.pin("CLK_INH"), chip.pin("GND"))
            c.connect("+3V3", chip.pin("VCC"))
            c.no_connect(chip.pin("~QH"))
            capacitor(c, "100n", "+3V3", "GND")
            if i == 0:
                c.connect("SR_QH", mcu_pin(u, mcu, data_pin), chip.pin("QH"))
            else:
                c.connect("SR_Q%d" % i, chip.pin("QH"), chips[i - 1].pin("SER"))
            if i == len(chips) - 1:
                c.connect("+3V3", chip.pin("SER"))
            for bit in range(8):
                k = i * 8 + (7 - bit)         # sensor k is chip k // 8, input D(7 - k % 8)
                net = "S%d" % k if k < n else "SPARE_%d_D%d" % (i, bit)
                c.connect(net, chip.pin("D%d" % bit))
                resistor(c, "10k", "+3V3", net)
                if k < n:
                    reed(c, net, "GND", "sensor %d (%s)" % (k, sensor_label(p, k)))
    elif s.get("type") == "mcp23017":
        b = buses[s["bus"]]
        for i, addr in enumerate(s["addresses"]):
            x = mcp23017(c)
            c.connect("+3V3", x.pin("VDD"))
            c.connect("GND", x.pin("VSS"))
            c.connect("I2C_SDA", x.pin("SDA"))
            c.connect("I2C_SCL", x.pin("SCL"))
            for bit, name in enumerate(("A0", "A1", "A2")):
                c.connect("+3V3" if addr >> bit & 1 else "GND", x.pin(name))
            resistor(c, "10k", "+3V3", "EXP%d_RESET" % i)
            c.connect("EXP%d_RESET" % i, x.pin("~RESET"))
            c.no_connect(x.pin("INTA"), x.pin("INTB"))
            capacitor(c, "100n", "+3V3", "GND")
            for j2 in range(16):
                k = i * 16 + j2
                gp = x.pin("GP%s%d" % ("A" if j2 < 8 else "B", j2 % 8))
                if k < n:
                    c.connect("S%d" % k, gp)
                    reed(c, "S%d" % k, "GND", "sensor %d (%s)" % (k, sensor_label(p, k)))
                else:
                    c.no_connect(gp)          # spare input, held by its internal pull-up
    for name, b in sorted(buses.items()):
        if b.get("kind") == "i2c":
            sda, scl = mcu_pin(u, mcu, b["sda"]), mcu_pin(u, mcu, b["scl"])
            if p["mcu"] == "raspberry-pi":     # 1.8 kohm pull-ups on the Pi itself
                sda.pullup = scl.pullup = True
            c.connect("I2C_SDA", sda)
            c.connect("I2C_SCL", scl)
    for d in p.get("displays") or []:
        if d["type"] == "tm1637":
            side = d.get("side", "white").upper()
            m = c.add("M", "TM1637 4-digit", "TM1637_module",
                      [(1, "CLK", IN, True), (2, "DIO", BIDI, True, True), (3, "VCC", PWR_IN), (4, "GND", PWR_IN)],
                      "", "%s's time (module with its own 10 kohm pull-ups)" % d.get("side", "white"))
            c.connect("DISP_%s_CLK" % side, mcu_pin(u, mcu, d["clk"]), m.pin("CLK"))
            c.connect("DISP_%s_DIO" % side, mcu_pin(u, mcu, d["dio"]), m.pin("DIO"))
        else:
            m = c.add("M", "SSD1306 %dx%d" % (d.get("width", 128), d.get("height", 64)), "SSD1306_module",
                      [(1, "GND", PWR_IN), (2, "VCC", PWR_IN), (3, "SCL", IN, True, True), (4, "SDA", BIDI, True, True)],
                      "", "OLED module at 0x%02X with its own I2C pull-ups" % d.get("addr", 0x3C))
            c.connect("I2C_SCL", m.pin("SCL"))
            c.connect("I2C_SDA", m.pin("SDA"))
        c.connect("+3V3", m.pin("VCC"))
        c.connect("GND", m.pin("GND"))
    btn = p["buttons"]
    for name in ("white", "black", "rocker", "start", "mode"):
        if name not in btn:
            continue
        net = "BTN_%s" % name.upper()
        c.connect(net, mcu_pin(u, mcu, btn[name]))
        if name == "rocker":
            # a reed under the lever, closed by a magnet in white's end: a silent contact (docs/clock.md)
            sw = c.add("SW", "lever reed switch (NO)", "SW_Reed", [(1, "1", PASSIVE), (2, "2", PASSIVE)], "",
                       "clock lever: closes when white's side is down")
            c.connect("GND", sw.pin(2))
            c.connect(net, sw.pin(1))
        else:
            sw = c.add("SW", "push button", "SW_Push", [(1, "1", PASSIVE), (2, "2", PASSIVE)], "",
                       "%s button%s" % (name, " (a reed under a magnet plunger)" if name in ("white", "black")
                                        else " (rubber dome)"))
            c.connect(net, sw.pin(1))
            c.connect("GND", sw.pin(2))
    if p.get("buzzer"):
        z = p["buzzer"]
        c.connect("BUZZ", mcu_pin(u, mcu, z["pin"]))
        bz = c.add("BZ", "piezo %s" % z.get("kind", "passive"), "Buzzer", [(1, "+", PASSIVE), (2, "-", PASSIVE)], "")
        if z.get("kind", "passive") == "passive":
            resistor(c, "100", "BUZZ", "BUZZ_R")
            c.connect("BUZZ_R", bz.pin("+"))
        else:
            c.connect("BUZZ", bz.pin("+"))
        c.connect("GND", bz.pin("-"))
    for side in ("white", "black"):
        if side in (p.get("leds") or {}):
            net = "LED_%s" % side.upper()
            c.connect(net, mcu_pin(u, mcu, p["leds"][side]))
            led = c.add("D", "LED 3mm", "LED", [(1, "K", PASSIVE), (2, "A", PASSIVE)], FP_LED, "%s's clock runs" % side)
            resistor(c, "330", net, net + "_A")
            c.connect(net + "_A", led.pin("A"))
            c.connect("GND", led.pin("K"))
    return c


# -- electrical rules check --------------------------------------------------------------

def _pulled_up(c, pins):
    """A pin of the net pulls it up itself, or a resistor joins it to a net with a power output."""
    for q in pins:
        if q.pullup:
            return True
        if q.part.kind == "R":
            other = [x for x in q.part.pins if x is not q][0]
            if any(x.kind == PWR_OUT for x in c.nets.get(other.net, ())):
                return True
    return False


def erc(c):
    """Electrical rules check; a list of problems (empty when the circuit passes)."""
    problems = []
    for part in c.parts:
        for q in part.pins:
            if q.kind == NC:
                if q.net is not None:
                    problems.append("%r is marked not connected but is on net %s" % (q, q.net))
            elif q.net is None:
                problems.append("%r (%s) is not connected" % (q, part.value))
    for name, pins in sorted(c.nets.items()):
        if len(pins) < 2:
            problems.append("net %s has only one pin (%r)" % (name, pins[0]))
            continue
        drivers = [q for q in pins if q.kind in (OUT, PWR_OUT)]
        if len(drivers) > 1:
            problems.append("net %s is driven by %d outputs: %s" % (name, len(drivers), drivers))
        if any(q.kind == PWR_IN for q in pins) and not any(q.kind == PWR_OUT for q in pins):
            problems.append("net %s has power inputs and no power output" % name)
        if any(q.kind == IN for q in pins) and not any(q.kind in DRIVERS for q in pins) and not _pulled_up(c, pins):
            problems.append("net %s: inputs %s are not driven (a switch or diode alone leaves them floating)"
                            % (name, [q for q in pins if q.kind == IN]))
        if any(q.open_drain for q in pins) and not _pulled_up(c, pins):
            problems.append("net %s is open-drain and has no pull-up" % name)
    return problems


# -- KiCad netlist -------------------------------------------------------------------------

def _q(text):
    return '"%s"' % str(text).replace("\\", "\\\\").replace('"', '\\"')


def kicad_netlist(c, source):
    """KiCad netlist text (version "E"): components, their library parts, nets."""
    out = ['(export (version "E")',
           "  (design",
           "    (source %s)" % _q(source),
           '    (tool "flagfall tools/gen_hardware.py"))',
           "  (components"]
    for part in c.parts:
        out.append("    (comp (ref %s)" % _q(part.ref))
        out.append("      (value %s)" % _q(part.value))
        if part.footprint:
            out.append("      (footprint %s)" % _q(part.footprint))
        if part.description:
            out.append("      (description %s)" % _q(part.description))
        out.append('      (libsource (lib "flagfall") (part %s) (description ""))' % _q(part.kind))
        out.append("      (tstamps %s))" % _q(part.ref))
    out.append("  )")
    out.append("  (libparts")
    seen = {}
    for part in c.parts:
        if part.kind in seen:
            continue
        seen[part.kind] = True
        out.append('    (libpart (lib "flagfall") (part %s)' % _q(part.kind))
        out.append("      (pins")
        for q in part.pins:
            out.append("        (pin (num %s) (name %s) (type %s))" % (_q(q.num), _q(q.name), _q(q.kind)))
        out.append("      ))")
    out.append("  )")
    out.append("  (nets")
    for code, name in enumerate(sorted(c.nets, key=_net_order), 1):
        out.append("    (net (code %s) (name %s)" % (_q(code), _q("/" + name)))
        for q in sorted(c.nets[name], key=lambda x: (_ref_order(x.part.ref), x.num)):
            out.append("      (node (ref %s) (pin %s) (pinfunction %s) (pintype %s))"
                       % (_q(q.part.ref), _q(q.num), _q(q.name), _q(q.kind)))
        out.append("    )")
    out.append("  )")
    out.append(")")
    return "\n".join(out) + "\n"


def _ref_order(ref):
    i = len(ref.rstrip("0123456789"))
    return ref[:i], int(ref[i:])


def _net_order(name):
    head = name.rstrip("0123456789")
    tail = name[len(head):]
    return (0 if name in ("GND", "+3V3", "+5V") else 1, head, int(tail) if tail else -1, name)
