"""Schematic drawing (SVG, schemdraw) of a profile's circuit (tools/hwnet.py).

The drawing uses net labels (flags) instead of long wires: every flag with the same
name is the same net, as in the netlist. It shows the microcontroller with every pin
the profile uses, one sensor cell (matrix: a corner of the matrix with its diodes and
the column pull-ups inside the microcontroller; 74HC165 / MCP23017: the first chip
with one input drawn in full), the clock's buttons, displays, buzzer and LEDs, and
the power entry. The netlist next to it lists every part.
"""
import re

import schemdraw
import schemdraw.elements as elm

SENSOR_PREFIXES = ("ROW", "COL", "SR_", "I2C_")
FONT = 10


def _tag(name):
    """A net flag wide enough for its name."""
    return elm.Tag(width=0.16 * len(name) + 0.5).label(name, fontsize=FONT)


def _flag(d, at, direction, name):
    """A short wire from `at` and a net flag named `name`, pointing left or right."""
    line = elm.Line().at(at).length(0.6)
    d += line.left() if direction == "left" else line.right()
    tag = _tag(name)
    d += tag.left() if direction == "left" else tag.right()


def _vflag(d, at, direction, name):
    """A net flag above (up) or below (down) a point."""
    line = elm.Line().at(at).length(0.5)
    d += line.up() if direction == "up" else line.down()
    tag = _tag(name)
    d += tag.up() if direction == "up" else tag.down()


def _title(d, xy, text, size=12):
    """A block's title (bold) or note line: drawn by schematic_svg around the block, not by schemdraw
    (whose bounding box does not follow long text)."""
    d.notes.append((size >= 12, text))


def _mcu(d, c, origin):
    """The microcontroller block; returns its lowest y."""
    u = [x for x in c.parts if x.ref == "U1"][0]
    left, right, top, bottom = [], [], [], []
    for q in u.pins:
        if q.net == "GND":
            bottom.append(q)
        elif q.net == "+5V":
            top.append(q)
        elif q.net == "+3V3":
            right.insert(0, q)
        elif q.net and q.net.startswith(SENSOR_PREFIXES):
            left.append(q)
        else:
            right.append(q)
    pins = []
    for side, group in (("left", left), ("right", right)):
        for q in reversed(group):           # schemdraw stacks a side's pins from the bottom up
            pins.append(elm.IcPin(name=q.name, pin=q.num, side=side, anchorname="p_" + q.num))
    for side, group in (("top", top), ("bottom", bottom)):
        for q in group:
            pins.append(elm.IcPin(name=q.name, pin=q.num, side=side, anchorname="p_" + q.num))
    n = max(len(left), len(right), 2)
    ic = elm.Ic(pins=pins, pinspacing=0.7, edgepadH=0.6, w=6, h=0.7 * n + 1.2, lblsize=FONT,
                pinlblsize=FONT - 1).at(origin)
    d += ic
    for q in left:
        _flag(d, getattr(ic, "p_" + q.num), "left", q.net)
    for q in right:
        _flag(d, getattr(ic, "p_" + q.num), "right", q.net)
    for q in top:
        _vflag(d, getattr(ic, "p_" + q.num), "up", q.net)
    for q in bottom:
        d += elm.Ground().at(getattr(ic, "p_" + q.num))
    _title(d, (origin[0], origin[1] + 0.7 * n + 3.2), "U1: %s (pins: header numbers)" % u.description)
    return origin[1] - 2


def _matrix(d, p, origin):
    """A 2x2 corner of the reed matrix, with the column pull-ups that the MCU has inside."""
    s = p["sensors"]
    x0, y0 = origin
    nr, nc = len(s["rows"]), len(s["cols"])
    diodes = s.get("diodes", True)
    _title(d, (x0 - 2, y0 + 3.2), "Reed matrix %dx%d%s: sensor k on ROW k//%d and COL k%%%d"
           % (nr, nc, ", one 1N4148 per reed" if diodes else " (no diodes)", nc, nc))
    _title(d, (x0 - 2, y0 + 2.4), "(2 rows x 2 columns drawn; the rest repeat the pattern)", FONT)
    xs = [x0 + 2 + 5 * j for j in range(2)]
    rows_y = []
    for i in range(2):
        yc = y0 - 7 * i
        for j, x in enumerate(xs):
            d += elm.Dot().at((x, yc))
            d += elm.Line().right().length(1.2)
            if diodes:
                d += elm.Diode().down().length(2).label("D", fontsize=FONT, loc="bottom")
            else:
                d += elm.Line().down().length(2)
            d += elm.SwitchReed().down().length(2.4).label("S%d" % (i * nc + j), fontsize=FONT, loc="bottom")
            d += elm.Dot()
        rows_y.append(yc - 4.4)
    for i, y in enumerate(rows_y):
        d += elm.Line().at((x0, y)).to((xs[-1] + 3, y))
        d += elm.DotDotDot().right()
        d += elm.Line().at((x0, y)).left().length(0.1)
        d += _tag("ROW%d" % i).left()
    for j, x in enumerate(xs):
        top = y0 + 1.4
        d += elm.Line().at((x, rows_y[-1] - 0.6)).to((x, top))
        d += elm.Resistor().up().at((x, top)).length(2).label("pull-up\n(inside MCU)", fontsize=FONT - 1,
                                                              loc="bottom").linestyle("--")
        d += elm.Vdd().label("+3V3", fontsize=FONT)
        d += elm.Line().at((x, top + 0.7)).left().length(1.5)
        d += _tag("COL%d" % j).left()
    _title(d, None, "The firmware drives one row low at a time; a closed reed pulls its column low"
           + (" through its diode (anode on the column, band on the reed)." if diodes else "."), FONT)
    return rows_y[-1] - 3


def _hc165(d, p, origin):
    """Chip 0 of the 74HC165 chain with input D7 (sensor 0) drawn in full."""
    s = p["sensors"]
    x0, y0 = origin
    _title(d, (x0 - 2, y0 + 3.6), "74HC165 chain, %d chips (chip 0 = U2 drawn): sensor k on chip k//8, input D(7-k%%8)"
           % s["chips"])
    names = ["D%d" % i for i in range(8)]
    pins = [elm.IcPin(name=n, pin=str(num), side="left", anchorname=n) for n, num in
            zip(names, (11, 12, 13, 14, 3, 4, 5, 6))]
    pins += [elm.IcPin(name="QH", pin="9", side="right", anchorname="QH"),
             elm.IcPin(name="SER", pin="10", side="right", anchorname="SER"),
             elm.IcPin(name="CLK INH", pin="15", side="right", anchorname="INH"),
             elm.IcPin(name="CLK", pin="2", side="right", anchorname="CLK"),
             elm.IcPin(name="SH/LD", pin="1", side="right", anchorname="LD"),
             elm.IcPin(name="VCC", pin="16", side="top", anchorname="VCC"),
             elm.IcPin(name="GND", pin="8", side="bottom", anchorname="GND")]
    ic = elm.Ic(pins=pins, pinspacing=0.7, w=3.5, lblsize=FONT, pinlblsize=FONT - 1).at((x0 + 6, y0 - 4))
    d += ic
    for i in range(7):
        _flag(d, getattr(ic, "D%d" % i), "left", "S%d" % (7 - i))
    d += elm.Line().at(ic.D7).left().length(2)
    d += elm.Dot()
    node = d.here
    d += elm.Resistor().up().length(2).label("10k", fontsize=FONT)
    d += elm.Vdd().label("+3V3", fontsize=FONT)
    d += elm.SwitchReed().down().at(node).length(2).label("S0", fontsize=FONT, loc="bottom")
    d += elm.Ground()
    d += elm.Line().at(node).left().length(0.5)
    d += _tag("S0").left()
    _flag(d, ic.QH, "right", "SR_QH")
    _flag(d, ic.SER, "right", "SR_Q1" if s["chips"] > 1 else "+3V3")
    d += elm.Line().at(ic.INH).right().length(0.6)
    d += elm.Ground()
    _flag(d, ic.CLK, "right", "SR_CLK")
    _flag(d, ic.LD, "right", "SR_LOAD")
    _vflag(d, ic.VCC, "up", "+3V3")
    d += elm.Ground().at(ic.GND)
    y = y0 - 11
    for line in ("Every input has its own 10k pull-up to +3V3 and its reed to GND (a piece reads 0);",
                 "spare inputs get the pull-up only. QH of chip j+1 goes to SER of chip j (net SR_Qj+1);",
                 "SER of the last chip goes to +3V3. 100 nF from VCC to GND at every chip." +
                 (" SR_CLK/SR_QH are SPI SCK/MISO." if "spi" in s else "")):
        _title(d, None, line, FONT)
    return y - 1


def _mcp(d, p, origin):
    """Expander 0 of the MCP23017 set with GPA0 (sensor 0) drawn in full."""
    s = p["sensors"]
    x0, y0 = origin
    _title(d, (x0 - 2, y0 + 3.6), "MCP23017 x%d at %s (expander 0 = U2 drawn): sensor k on expander k//16, GPA0-7 then GPB0-7"
           % (len(s["addresses"]), ", ".join("0x%02X" % a for a in s["addresses"])))
    pins = [elm.IcPin(name="GPA%d" % i, pin=str(21 + i), side="left", anchorname="A%d" % i) for i in range(8)]
    pins += [elm.IcPin(name="SDA", pin="13", side="right", anchorname="SDA"),
             elm.IcPin(name="SCL", pin="12", side="right", anchorname="SCL"),
             elm.IcPin(name="A0", pin="15", side="right", anchorname="AD0"),
             elm.IcPin(name="A1", pin="16", side="right", anchorname="AD1"),
             elm.IcPin(name="A2", pin="17", side="right", anchorname="AD2"),
             elm.IcPin(name="~RESET", pin="18", side="right", anchorname="RST"),
             elm.IcPin(name="VDD", pin="9", side="top", anchorname="VDD"),
             elm.IcPin(name="VSS", pin="10", side="bottom", anchorname="VSS")]
    pins = [x for x in pins if x.side != "right"] + list(reversed([x for x in pins if x.side == "right"]))
    ic = elm.Ic(pins=pins, pinspacing=0.7, w=3.5, lblsize=FONT, pinlblsize=FONT - 1).at((x0 + 6, y0 - 4))
    d += ic
    for i in range(1, 8):
        _flag(d, getattr(ic, "A%d" % i), "left", "S%d" % i)
    d += elm.Line().at(ic.A0).left().length(2.5)
    d += elm.SwitchReed().down().length(2).label("S0", fontsize=FONT, loc="bottom")
    d += elm.Ground()
    _flag(d, ic.SDA, "right", "I2C_SDA")
    _flag(d, ic.SCL, "right", "I2C_SCL")
    a = s["addresses"][0]
    for bit in range(3):
        _flag(d, getattr(ic, "AD%d" % bit), "right", "+3V3" if a >> bit & 1 else "GND")
    d += elm.Line().at(ic.RST).right().length(0.8)
    d += elm.Resistor().right().length(2).label("10k", fontsize=FONT)
    d += elm.Vdd().label("+3V3", fontsize=FONT)
    _vflag(d, ic.VDD, "up", "+3V3")
    d += elm.Ground().at(ic.VSS)
    y = y0 - 11
    for line in ("GPA0-7 and GPB0-7 (pins 21-28, 1-8) each take one reed to GND; the firmware turns on",
                 "the internal pull-ups. A0-A2 set the address 0x20 + A2A1A0 (expander 0 drawn: 0x%02X)." % a,
                 "100 nF from VDD to GND at every expander; INTA/INTB unused."):
        _title(d, None, line, FONT)
    return y - 1


def _clock(d, p, c, origin):
    """Buttons, displays, buzzer and LEDs, each from its net flag."""
    x0, y0 = origin
    _title(d, (x0, y0 + 1.6), "Clock: buttons (internal pull-ups), displays, buzzer, LEDs")
    y = y0
    btn = p["buttons"]
    for name in ("white", "black", "rocker", "start", "mode"):
        if name not in btn:
            continue
        d += _tag("BTN_%s" % name.upper()).at((x0 + 1.5, y)).left()
        d += elm.Line().at((x0 + 1.5, y)).right().length(0.5)
        if name == "rocker":
            d += elm.Switch().right().length(2).label("lever reed switch (NO)", fontsize=FONT)
        else:
            d += elm.Button().right().length(2).label("%s" % name, fontsize=FONT)
        d += elm.Line().right().length(0.5)
        d += elm.Ground()
        y -= 2.2
    for part in c.parts:
        if part.kind not in ("TM1637_module", "SSD1306_module"):
            continue
        pins = [elm.IcPin(name=q.name, side="left", anchorname="m" + q.num) for q in reversed(part.pins)]
        ic = elm.Ic(pins=pins, pinspacing=0.7, w=3, lblsize=FONT, pinlblsize=FONT - 1,
                    label="%s %s" % (part.ref, part.value.split()[0])).theta(0).anchor("m" + part.pins[0].num).at((x0 + 4.5, y))
        d += ic
        for q in part.pins:
            at = getattr(ic, "m" + q.num)
            if q.net == "GND":
                d += elm.Line().at(at).left().length(0.6)
                d += elm.Ground()
            else:
                _flag(d, at, "left", q.net)
        y -= 0.7 * len(part.pins) + 1.6
    if p.get("buzzer"):
        d += _tag("BUZZ").at((x0 + 1.5, y)).left()
        d += elm.Line().at((x0 + 1.5, y)).right().length(0.3)
        if p["buzzer"].get("kind", "passive") == "passive":
            d += elm.Resistor().right().length(2).label("100", fontsize=FONT)
        sp = elm.Speaker().right().label("piezo", fontsize=FONT)
        d += sp
        d += elm.Line().at(sp.in2).left().length(0.4)
        d += elm.Ground()
        y -= 2.4
    for side in ("white", "black"):
        if side in (p.get("leds") or {}):
            d += _tag("LED_%s" % side.upper()).at((x0 + 1.5, y)).left()
            d += elm.Line().at((x0 + 1.5, y)).right().length(0.3)
            d += elm.Resistor().right().length(2).label("330", fontsize=FONT)
            d += elm.LED().right().length(1.8).label(side, fontsize=FONT)
            d += elm.Line().right().length(0.3)
            d += elm.Ground()
            y -= 2.2
    return y


def _power(d, p, c, mcu, origin):
    """USB power entry and decoupling."""
    x0, y0 = origin
    _title(d, (x0, y0 + 1.6), "Power: J1 (USB)")
    j = elm.Ic(pins=[elm.IcPin(name="VBUS", pin="1", side="right", anchorname="vbus"),
                     elm.IcPin(name="GND", pin="2", side="right", anchorname="gnd")],
               pinspacing=0.8, w=2.2, lblsize=FONT, pinlblsize=FONT - 1).theta(0).at((x0, y0))
    d += j
    _flag(d, j.vbus, "right", "+5V")
    d += elm.Line().at(j.gnd).right().length(0.6)
    d += elm.Ground()
    _title(d, None, "+5V: J1, USB VBUS (%s)." % POWER_NOTE.get(p["mcu"], "5 V"), FONT)
    for part in mcu["power"].split("; "):
        _title(d, None, part[:1].upper() + part[1:] + ".", FONT)
    caps = sum(1 for x in c.parts if x.kind == "C")
    y = y0 - 2
    if caps:
        d += elm.Vdd().at((x0 + 6, y0 + 0.5)).label("+3V3", fontsize=FONT)
        d += elm.Capacitor().down().at((x0 + 6, y0 + 0.5)).length(1.6).label("100n x %d" % caps, fontsize=FONT, loc="bottom")
        d += elm.Ground()
        _title(d, None, "100 nF: one at each chip, close to its supply pins.", FONT)
        y -= 3.5
    return y


POWER_NOTE = {"pico": "the Pico's USB socket", "esp32-devkitc": "the DevKitC's USB socket",
              "raspberry-pi": "the Pi's own supply"}


def _block(draw):
    """Draw one block in a drawing of its own: (width, height, viewBox, inner SVG)."""
    d = schemdraw.Drawing(show=False)
    d.config(fontsize=FONT, unit=2, lw=1.2)
    d.notes = []
    draw(d)
    svg = d.get_imagedata("svg")
    svg = svg.decode() if isinstance(svg, bytes) else svg
    x, y, w, h = [float(v) for v in re.search(r'viewBox="([^"]+)"', svg).group(1).split()]
    w += 60            # schemdraw's bounding box does not always cover a label's text
    vb = "%.2f %.2f %.2f %.2f" % (x, y, w, h)
    inner = svg[svg.index(">") + 1:svg.rindex("</svg>")]
    return w, h, vb, inner, d.notes


def schematic_svg(p, c, mcu):
    """The SVG text of the schematic of profile p (c: its hwnet circuit)."""
    schemdraw.use("svg")
    t = p["sensors"]["type"]
    sensor = {"matrix": _matrix, "hc165": _hc165, "mcp23017": _mcp}[t]
    blocks = [
        _block(lambda d: _mcu(d, c, (0, 0))),
        _block(lambda d: _clock(d, p, c, (0, 0))),
        _block(lambda d: sensor(d, p, (0, 0))),
        _block(lambda d: _power(d, p, c, mcu, (0, 0))),
    ]
    line_h, gap = 16, 30
    cells = []
    for w, h, vb, inner, notes in blocks:
        titles = [x for big, x in notes if big]
        lines = [x for big, x in notes if not big]
        width = max([w] + [7.0 * len(x) for x in lines] + [8.0 * len(x) for x in titles])
        cells.append((width, len(titles) * 20 + h + len(lines) * line_h + 6, (w, h, vb, inner, titles, lines)))
    top = 48
    row1 = max(cells[0][1], cells[1][1])
    pos = [(0, top), (cells[0][0] + gap, top), (0, top + row1 + gap), (cells[2][0] + gap, top + row1 + gap)]
    width = max(cells[0][0] + gap + cells[1][0], cells[2][0] + gap + cells[3][0]) + 20
    height = top + row1 + gap + max(cells[2][1], cells[3][1]) + 20
    out = ['<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
           'width="%.0f" height="%.0f" viewBox="-10 -10 %.0f %.0f" font-family="sans-serif">' % (width, height, width, height),
           '<rect x="-10" y="-10" width="%.0f" height="%.0f" fill="white"/>' % (width, height),
           '<text x="0" y="16" font-size="18" font-weight="bold">%s: schematic</text>' % _esc(p["name"]),
           '<text x="0" y="36" font-size="12">Generated from boards/%s.json by tools/gen_hardware.py. Flags with the same '
           'name are one net; every part and net is in %s.net (KiCad netlist).</text>' % (_esc(p["name"]), _esc(p["name"]))]
    for (cw, ch, (w, h, vb, inner, titles, lines)), (x, y) in zip(cells, pos):
        for t_ in titles:
            y += 20
            out.append('<text x="%.1f" y="%.1f" font-size="13" font-weight="bold">%s</text>' % (x, y - 5, _esc(t_)))
        out.append('<svg x="%.1f" y="%.1f" width="%.1f" height="%.1f" viewBox="%s">' % (x, y, w, h, vb))
        out.append(inner)
        out.append("</svg>")
        y += h + 4
        for line in lines:
            y += line_h
            out.append('<text x="%.1f" y="%.1f" font-size="11">%s</text>' % (x, y - 4, _esc(line)))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _esc(t):
    return str(t).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
