"""hardware/: the committed documents are exactly what tools/gen_hardware.py makes
from the profiles, and they cover every pin and every sensor."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from repo import ROOT
sys.path.insert(0, os.path.join(ROOT, "tools"))

import check_boards  # noqa: E402
import gen_hardware  # noqa: E402
import hwnet  # noqa: E402

PROFILES = gen_hardware.load_profiles()
MCUS = gen_hardware.load_mcus()


def test_committed_files_match_the_profiles():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_hardware.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for name in PROFILES:
        for f in ("README.md", "wiring.svg", "schematic.svg", name + ".net"):
            assert os.path.exists(os.path.join(ROOT, "hardware", name, f))


def test_a_profile_change_makes_the_documents_stale(monkeypatch):
    before = gen_hardware.render_all()
    changed = {k: dict(v) for k, v in PROFILES.items()}
    # every Pico pin is taken on this board: swap the buzzer and the white LED
    changed["pico-chess"]["buzzer"] = {"pin": 27, "kind": "passive"}
    changed["pico-chess"]["leds"] = {"white": 26, "black": 28}
    monkeypatch.setattr(gen_hardware, "load_profiles", lambda: changed)
    after = gen_hardware.render_all()
    for f in ("README.md", "schematic.svg", "pico-chess.net"):
        assert after["hardware/pico-chess/" + f] != before["hardware/pico-chess/" + f], f
    assert "GP27 (pin 32) | BUZZ" in after["hardware/pico-chess/README.md"]


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_pin_and_sensor_is_documented(name):
    p = PROFILES[name]
    mcu = MCUS[p["mcu"]]
    files = gen_hardware.render_all()
    doc = files["hardware/%s/README.md" % name]
    svg = files["hardware/%s/wiring.svg" % name]
    ET.fromstring(svg)  # well-formed
    for pin, use, _ in check_boards.pin_uses(p):
        label = gen_hardware.pin_label(mcu, pin)
        assert "| %s |" % label in doc, (pin, use)
        assert ">%s<" % label in svg, (pin, use)
    n = gen_hardware.sensor_count(p)
    assert "| %d | reed switch" % n in doc
    grid = doc.split("## Sensor map")[1].split("```")[1]
    labels = re.findall(r"\S+", grid)
    wired = [x for x in labels if x != "."]
    assert len(wired) == n and len(set(wired)) == n
    assert len(labels) == p["board"]["rows"] * p["board"]["cols"]
    if p["sensors"]["type"] == "matrix":
        assert "anode to the column line, cathode (the band)" in doc
    for heading in ("Bill of materials", "Wiring", "Build notes", "Reed switches and magnets", "Power"):
        assert heading in doc


def test_dark_square_positions_follow_the_numbering():
    p = PROFILES["pico-draughts10"]
    # FMJD: square 1 is the top row's first dark square (column b), 6 starts row 2 at column a
    assert gen_hardware.square_position(p, 0) == (0, 1)
    assert gen_hardware.square_position(p, 5) == (1, 0)
    assert gen_hardware.square_position(p, 49) == (9, 8)


# -- schematic, netlist and electrical rules check ------------------------------------------

_RENDERED = []


def _rendered():
    """render_all() once for the tests that only read it."""
    if not _RENDERED:
        _RENDERED.append(gen_hardware.render_all())
    return _RENDERED[0]


def _circuit(name):
    p = PROFILES[name]
    return gen_hardware.the_circuit(p, MCUS[p["mcu"]])


def _remove(c, part):
    c.parts.remove(part)
    for q in part.pins:
        if q.net is not None:
            c.nets[q.net].remove(q)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_every_profile_passes_the_electrical_rules_check(name):
    p = PROFILES[name]
    c = _circuit(name)
    assert hwnet.erc(c) == []
    n = gen_hardware.sensor_count(p)
    reeds = [x for x in c.parts if x.kind == "Reed"]
    assert len(reeds) == n
    # every sensor reaches the microcontroller or a chip input through its reed (and diode)
    for r in reeds:
        nets = {q.net for q in r.pins}
        assert len(nets) == 2 and None not in nets
    if p["sensors"]["type"] == "matrix" and p["sensors"].get("diodes", True):
        assert sum(1 for x in c.parts if x.kind == "D" and x.value == "1N4148") == n
        # anode on a column line, cathode towards the reed
        d = [x for x in c.parts if x.value == "1N4148"][0]
        assert d.pin("A").net.startswith("COL") and d.pin("K").net.startswith("S")
    u = [x for x in c.parts if x.ref == "U1"][0]
    for pin, use, _ in check_boards.pin_uses(p):
        q = hwnet.mcu_pin(u, MCUS[p["mcu"]], pin)
        assert q.net is not None and len(c.nets[q.net]) >= 2, (pin, use)


def test_erc_finds_a_floating_input():
    c = _circuit("esp32-chess")
    pullup = [q.part for q in c.nets["S0"] if q.part.kind == "R"][0]
    _remove(c, pullup)
    problems = hwnet.erc(c)
    assert len(problems) == 1 and "net S0" in problems[0] and "not driven" in problems[0], problems


def test_erc_finds_a_matrix_column_without_its_pullup():
    c = _circuit("pico-chess")
    u = [x for x in c.parts if x.ref == "U1"][0]
    u.pin("GP8").pullup = False            # COL0 as a plain input: nothing holds it high
    problems = hwnet.erc(c)
    assert problems and all("COL0" in x for x in problems), problems


def test_erc_finds_two_outputs_on_one_net():
    c = _circuit("pico-chess")
    row1 = list(c.nets.pop("ROW1"))
    for q in row1:
        q.net = "ROW0"
    c.nets["ROW0"] += row1
    assert any("ROW0 is driven by 2 outputs" in x for x in hwnet.erc(c))


def test_erc_finds_an_unconnected_pin_and_a_missing_i2c_pullup():
    c = _circuit("pico-minzu14")
    oled = [x for x in c.parts if x.kind == "SSD1306_module"][0]
    for q in oled.pins:
        q.pullup = False
    problems = hwnet.erc(c)
    assert any("I2C_SDA is open-drain and has no pull-up" in x for x in problems), problems
    c = _circuit("pico-minzu14")
    chip = [x for x in c.parts if x.kind == "74HC165"][3]
    c.nets["GND"].remove(chip.pin("CLK_INH"))
    chip.pin("CLK_INH").net = None
    assert hwnet.erc(c) == ["%r (74HC165) is not connected" % chip.pin("CLK_INH")]


def test_erc_finds_power_inputs_without_a_supply():
    c = _circuit("rpi-chess")
    u = [x for x in c.parts if x.ref == "U1"][0]
    u.pin("3V3").kind = hwnet.PASSIVE
    assert any("+3V3 has power inputs and no power output" in x for x in hwnet.erc(c))


def _sexp(text):
    """A minimal S-expression reader (independent of tools/hwnet.py's writer): nested lists of strings."""
    tokens = re.findall(r'\(|\)|"(?:[^"\\]|\\.)*"|[^\s()]+', text)
    stack = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(t[1:-1].replace('\\"', '"') if t.startswith('"') else t)
    assert len(stack) == 1 and len(stack[0]) == 1, "unbalanced parentheses"
    return stack[0][0]


def _netlist_nets(tree):
    """{net name: sorted [(ref, pin)]} and the component refs of a parsed KiCad netlist."""
    sections = {x[0]: x[1:] for x in tree[1:] if isinstance(x, list)}
    refs = [dict((f[0], f[1]) for f in comp[1:] if isinstance(f, list) and len(f) == 2)["ref"]
            for comp in sections["components"]]
    nets = {}
    for net in sections["nets"]:
        fields = {f[0]: f for f in net[1:]}
        nodes = [dict((g[0], g[1]) for g in f[1:]) for f in net[1:] if f[0] == "node"]
        nets[fields["name"][1]] = sorted((n["ref"], n["pin"]) for n in nodes)
    return refs, nets


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_committed_netlist_lists_every_part_and_connection(name):
    with open(os.path.join(ROOT, "hardware", name, name + ".net")) as f:
        tree = _sexp(f.read())
    assert tree[0] == "export" and tree[1] == ["version", "E"]
    refs, nets = _netlist_nets(tree)
    c = _circuit(name)
    assert sorted(refs) == sorted(x.ref for x in c.parts) and len(set(refs)) == len(refs)
    assert nets == {"/" + n: sorted((q.part.ref, q.num) for q in pins) for n, pins in c.nets.items()}


def test_kinparse_reads_a_netlist_the_same_way():
    # a third-party KiCad netlist reader (slow: pyparsing), on the smallest profile
    try:
        import kinparse
    except ImportError:
        pytest.fail("kinparse is missing: pip install -e '.[dev]' (or make setup)")
    import warnings
    path = os.path.join(ROOT, "hardware", "pico-checkers", "pico-checkers.net")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        nl = kinparse.parse_netlist(path)
    with open(path) as f:
        refs, nets = _netlist_nets(_sexp(f.read()))
    assert sorted(p.ref for p in nl.parts) == sorted(refs)
    assert {n.name: sorted((x.ref, x.num) for x in n.pins) for n in nl.nets} == nets


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_the_schematic_shows_every_mcu_pin_and_net(name):
    p = PROFILES[name]
    svg = _rendered()["hardware/%s/schematic.svg" % name]
    ET.fromstring(svg)
    c = _circuit(name)
    u = [x for x in c.parts if x.ref == "U1"][0]
    for q in u.pins:
        assert ">%s<" % q.name in svg, q.name
        if q.net != "GND":
            assert ">%s<" % q.net in svg, q.net
    assert "schematic" in svg and p["name"] in svg
