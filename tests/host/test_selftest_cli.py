"""`flagfall selftest` against the simulator (the real firmware on fake hardware, over TCP),
with a scripted hand and injected faults: a stuck reed, a dead matrix row, a missing diode."""
import io
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from flagfall import cli
from flagfall import selftest as st
from flagfall import sim as simm

from repo import ROOT


def wait_for(cond, timeout=15.0):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)


def hand_touch_each(sim):
    """Clear the board, then touch every square with a piece in turn (put it down, take it off)."""
    for k in range(sim.fake.n):
        if sim.fake.occ[k]:
            sim._do(sim.fake.lift, k)
            sim.wait(0)
    for k in range(sim.fake.n):
        sim._do(sim.fake.place, k)
        sim.wait(0)
        sim._do(sim.fake.lift, k)
        sim.wait(0)


def hand_fill_then_clear(sim):
    """Clear the board, fill it square by square (pieces left on), then clear it again."""
    for k in range(sim.fake.n):
        if sim.fake.occ[k]:
            sim._do(sim.fake.lift, k)
            sim.wait(0)
    for k in range(sim.fake.n):
        sim._do(sim.fake.place, k)
        sim.wait(0)
    for k in range(sim.fake.n):
        sim._do(sim.fake.lift, k)
        sim.wait(0)


def press_all(sim):
    for b in ("white", "black", "start", "mode"):
        sim.press(b)
        sim.wait(60)


def run_selftest(tmp_path, hand, faults=(), profile="pico-chess", idle=1.5, yes=True, buttons=True):
    sim = simm.Simulator(profile, speed=4, log=lambda t: None)
    if faults:
        st.apply_faults(sim, list(faults))
    sim.start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    out = io.StringIO()
    box = {}
    argv = ["selftest", "--port", ep.url(), "--out", str(tmp_path / "report"), "--idle", str(idle), "--wait", "10"]
    if yes:
        argv.append("--yes")

    def cmd():
        old = sys.stdout
        sys.stdout = out
        try:
            box["rc"] = cli.main(argv)
        finally:
            sys.stdout = old
    t = threading.Thread(target=cmd, daemon=True)
    t.start()
    try:
        wait_for(lambda: sim.app.selftest is not None)
        time.sleep(0.5)                       # past the display pattern, as a maker would be
        hand(sim)
        if buttons:
            press_all(sim)
        t.join(60)
        assert not t.is_alive(), "selftest did not finish:\n" + out.getvalue()
        assert sim.app.selftest is None, "the device was left in its self-test"
    finally:
        sim.stop()
    rep = json.loads((tmp_path / "report.json").read_text())
    text = (tmp_path / "report.txt").read_text()
    return box["rc"], rep, text, out.getvalue()


def bad(rep):
    return {b["sensor"]: b for b in rep["bad_sensors"]}


def test_a_good_board_passes(tmp_path):
    rc, rep, text, out = run_selftest(tmp_path, hand_touch_each)
    assert rc == 0, out
    assert rep["result"] == "pass" and rep["ticked"] == rep["checked"] == 64
    assert rep["bad_sensors"] == [] and rep["ghosts"] == [] and rep["lines"] == []
    assert rep["buttons"]["missing"] == [] and rep["display"] == "ok"
    assert text.startswith("Flagfall self-test of pico-chess (chess): PASS")
    assert "2. Take every piece off" in out and "3. Press each clock button once: white, black, start, mode" in out


def test_stuck_sensor_and_dead_row_are_named(tmp_path):
    rc, rep, text, out = run_selftest(tmp_path, hand_touch_each, faults=["stuck:e4", "dead-row:6"])
    assert rc == 1 and rep["result"] == "fail"
    b = bad(rep)
    e4 = 4 * 8 + 4                           # sensor row 4 (rank 4), column 4
    assert b[e4]["square"] == "e4" and b[e4]["fault"].startswith("stuck closed")
    assert (b[e4]["matrix_row"], b[e4]["matrix_col"]) == (4, 4) and b[e4]["wiring"] == "R4C4"
    row6 = list(range(48, 56))               # rank 2
    assert sorted(k for k in b if b[k]["fault"] == "never closed") == row6
    assert [b[k]["square"] for k in row6] == ["a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"]
    assert rep["lines"] == ["matrix row 6 (pin 6): none of its 8 sensors ever closed"]
    assert not rep["ghosts"]
    assert rep["ticked"] == 64 - 9
    assert "e4   sensor 36  R4C4" in text and "matrix row 4 (pin 4), column 4 (pin 12)" in text
    assert "line: matrix row 6 (pin 6)" in text
    assert " 4  + + + + S + + +" in text and " 6  . . . . . . . ." in text


def test_missing_diode_shows_as_ghosting(tmp_path):
    # switch c7 (sensor row 1, column 2) without its diode: filling the board square by square,
    # placing a piece on row r's column 2 also closes the rest of row r (through c7 and row 1)
    rc, rep, text, out = run_selftest(tmp_path, hand_fill_then_clear, faults=["no-diode:c7"])
    assert rc == 1 and rep["result"] == "fail"
    assert rep["ghosts"], out
    g = rep["ghosts"][0]
    assert g["source"] == "rectangle" and 8 + 2 in g["corners"]
    ghost = bad(rep)
    assert ghost and all(b["fault"].startswith("ghost") for b in ghost.values())
    assert 2 * 8 + 3 in ghost                # the first square that closed by itself: d6
    assert "ghost:" in text and "GHOST" in out
    assert rep["ticked"] == 64              # every sensor itself works


def test_leaving_the_test_on_the_device_is_undone(tmp_path):
    def hand(sim):
        for _ in range(3):                    # three "mode" in a row leave the device's self-test
            sim.press("mode")
            sim.wait(60)
        wait_for(lambda: sim.app.selftest is not None)   # ... and the command puts it back
        hand_touch_each(sim)
    rc, rep, text, out = run_selftest(tmp_path, hand)
    assert "left its self-test" in out and rc == 0, out


def test_missing_buttons_and_unconfirmed_display_fail(tmp_path):
    rc, rep, text, out = run_selftest(tmp_path, hand_touch_each, yes=False, buttons=False, idle=1.0)
    assert rc == 1
    assert rep["bad_sensors"] == []
    assert rep["buttons"]["missing"] == ["white", "black", "start", "mode"]
    assert rep["display"] == "not confirmed"
    assert "never pressed: white, black, start, mode" in text and "display pattern: not confirmed" in text


def test_hc165_board_names_chip_and_input(tmp_path):
    rc, rep, text, out = run_selftest(tmp_path, hand_touch_each, faults=["stuck:a8"], profile="esp32-chess")
    assert rc == 1
    b = bad(rep)
    assert list(b) == [0] and b[0]["chip"] == 0 and b[0]["input"] == "D7" and b[0]["wiring"] == "0.D7"


def test_wiring_labels_match_the_hardware_docs():
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    try:
        import gen_hardware
    finally:
        sys.path.pop(0)
    for name in ("pico-chess", "esp32-chess", "rpi-chess", "pico-checkers", "pico-minzu14"):
        p = simm.load_profile(name)
        table = st.sensor_table(p)
        assert len(table) == gen_hardware.sensor_count(p)
        for s in table:
            assert s.wiring == gen_hardware.sensor_label(p, s.index), (name, s)
            assert s.cell == tuple(gen_hardware.square_position(p, s.index)), (name, s)


def test_fault_texts_are_checked():
    sim = simm.Simulator("pico-chess", log=lambda t: None)
    for spec, word in (("stuck", "use stuck:SQUARE"), ("melted:e4", "unknown fault"), ("dead-row:x", "row number"),
                       ("stuck:z9", "z9"), ("dead-row:8", "no matrix row 8")):
        with pytest.raises(ValueError, match=word):
            st.apply_faults(sim, [spec])


def test_cli_help_and_no_device():
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "selftest", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "stuck-closed" in r.stdout and "--fault stuck:e4" in r.stdout
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "selftest", "--port", "socket://127.0.0.1:9",
                        "--wait", "1"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "no device answered" in r.stderr


def test_live_page_shows_the_map():
    import urllib.request
    from flagcore import wire
    s = st.Session(simm.load_profile("pico-chess"))
    s.feed((0, "SNAP", [0, 64, wire.hexbits([1] * 16 + [0] * 48, 64)]))
    s.feed((1, "SQ", [5, (0, 0)]))
    s.feed((2, "SQ", [9, (0, 1)]))
    s.feed((3, "BTN", [10, "start"]))
    url = st.serve_web(s, "127.0.0.1", 0)
    page = urllib.request.urlopen(url, timeout=10).read().decode()
    assert "Flagfall self-test" in page
    got = json.loads(urllib.request.urlopen(url + "api/state", timeout=10).read())
    assert got["rows"] == 8 and got["cells"][0][0] == "#"      # a8: opened, closed again
    assert got["cells"][0][1] == "#"                            # b8: closed from the start (so far)
    assert s.map_text(final=True).splitlines()[0] == " 0  # S S S S S S S"   # ... and never opened: stuck
    assert got["cells"][7][0] == "." and got["ticked"] == 1 and got["total"] == 64
    assert got["buttons"] == ["start"] and "start" not in got["missing"]
    assert got["log"][-1] == "button start pressed"


def test_device_ghost_warning_on_a_board_without_diodes():
    from flagcore import wire
    p = simm.load_profile("pico-chess")
    p["sensors"]["diodes"] = False
    s = st.Session(p)
    s.feed((0, "SNAP", [0, 64, wire.hexbits([0] * 64, 64)]))
    lines = s.feed((1, "WARN", ["ghost", "possible ghost on squares 9 10 (matrix without diodes): "
                                         "not reported until a corner piece is lifted"]))
    assert lines == ["GHOST: the device holds back b7 (sensor 9, R1C1), c7 (sensor 10, R1C2) "
                     "(matrix without diodes)"]
    assert s.feed((2, "WARN", ["ghost", "cleared"])) == []
    rep = s.report()
    assert [b["square"] for b in rep["bad_sensors"] if b["fault"].startswith("ghost")] == ["b7", "c7"]
    assert rep["ghosts"][0]["source"] == "device"
