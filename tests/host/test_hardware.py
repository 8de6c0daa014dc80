"""hardware/: the committed documents are exactly what tools/gen_hardware.py makes
from the profiles, and they cover every pin and every sensor."""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import check_boards  # noqa: E402
import gen_hardware  # noqa: E402

PROFILES = gen_hardware.load_profiles()
MCUS = gen_hardware.load_mcus()


def test_committed_files_match_the_profiles():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_hardware.py"), "--check"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for name in PROFILES:
        for f in ("README.md", "wiring.svg"):
            assert os.path.exists(os.path.join(ROOT, "hardware", name, f))


def test_a_profile_change_makes_the_documents_stale(monkeypatch):
    before = gen_hardware.render_all()
    changed = {k: dict(v) for k, v in PROFILES.items()}
    changed["pico-chess"]["buzzer"] = {"pin": 15, "kind": "passive"}
    monkeypatch.setattr(gen_hardware, "load_profiles", lambda: changed)
    after = gen_hardware.render_all()
    assert after["hardware/pico-chess/README.md"] != before["hardware/pico-chess/README.md"]
    assert "GP15 (pin 20) | BUZZ" in after["hardware/pico-chess/README.md"]


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
