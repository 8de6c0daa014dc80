"""The page's clock text (static/clockfmt.js) is the display model's (flagcore.display.format_ms), run in Node."""
import json
import os
import random
import shutil
import subprocess

import pytest

from flagcore import display

from repo import ROOT

JS = os.path.join(ROOT, "host", "flagfall", "broadcast", "static", "clockfmt.js")


# the page loads clockfmt.js as a plain script: run it the same way, in a fresh global scope
LOAD = ("const vm = require('vm'), fs = require('fs'); const g = {}; "
        "vm.runInNewContext(fs.readFileSync(%s, 'utf8'), g); const c = g.clockfmt; " % json.dumps(JS))


def test_js_format_matches_python_display_model():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required (the project's MicroPython harness needs it too)")
    rng = random.Random(8)
    values = list(range(0, 3000, 7)) + [19899, 19900, 19901, 19999, 20000, 20001, 59999, 60000, 60001,
                                         3599000, 3599001, 3600000, 3600001, 36000000, -5, -1000]
    values += [rng.randrange(0, 30000) for _ in range(500)] + [rng.randrange(0, 10 * 3600000) for _ in range(500)]
    script = (LOAD + "const v = %s; const out = [];"
              "for (const ms of v) { out.push([c.formatMs(ms, false), c.formatMs(ms, true)]); }"
              "console.log(JSON.stringify(out));" % (json.dumps(values),))
    r = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    for ms, (down, up) in zip(values, got):
        assert down == display.format_ms(ms), ms
        assert up == display.format_ms(ms, True), ms


def test_js_side_ms_counts_the_running_side_only():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required")
    clock = {"white_ms": 60000, "black_ms": 50000, "running": "black", "flag": None, "at_ms": 1000, "tc": "300"}
    up = dict(clock, tc="-")
    script = (LOAD + "const k = %s, u = %s;"
              "console.log(JSON.stringify([c.sideMs(k, 'white', 4000), c.sideMs(k, 'black', 4000),"
              "c.sideMs(u, 'black', 4000), c.sideMs(Object.assign({}, k, {flag: 'black'}), 'black', 4000)]));"
              % (json.dumps(clock), json.dumps(up)))
    r = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert json.loads(r.stdout) == [60000, 47000, 53000, 50000]


def test_js_side_ms_stands_still_through_a_simple_delay():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required")
    clock = {"white_ms": 60000, "black_ms": 50000, "running": "black", "flag": None, "at_ms": 1000,
             "tc": "300d5", "delay_ms": 5000}
    script = (LOAD + "const k = %s;"
              "console.log(JSON.stringify([1000, 5999, 6000, 9000].map(t => c.sideMs(k, 'black', t))"
              ".concat([c.sideMs(k, 'white', 9000)])));" % json.dumps(clock))
    r = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == [50000, 50000, 50000, 47000, 60000]
