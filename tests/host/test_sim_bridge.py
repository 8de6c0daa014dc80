"""The simulator as a serial device: the real bridge follows real games played on it by a noisy hand."""
import os
import re
import subprocess
import sys
import threading
import time

import pytest

from flagfall import sim as simm
from flagfall.bridge.engine import BridgeEngine
from flagfall.bridge.records import record_text
from flagfall.bridge.session import Session
from flagfall.serial_link import SerialLink
from flagfall.sim_web import serve_web

from repo import ROOT, flagfall_env
GAMES = os.path.join(ROOT, "host", "flagfall", "demo_games")


class Bridge:
    """A bridge session on its own thread, collecting the states it publishes."""

    def __init__(self, url, game, tc="300+2", **setup):
        self.states = []
        self.engine = BridgeEngine(game, clock_mode=True, tc=tc, identity=["simtest", "1", "1"],
                                   publish=lambda st, decs: self.states.append(st), **setup)
        self.session = Session(url, self.engine, retry_s=0.05, log=lambda t: None)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.stop.is_set():
            self.session.step()
            time.sleep(0.005)

    def wait(self, cond, timeout=10.0):
        end = time.monotonic() + timeout
        while not cond():
            if time.monotonic() > end:
                return False
            time.sleep(0.02)
        return True

    def close(self):
        self.stop.set()
        self.thread.join(3)
        self.session.close()


def play_and_check(profile, game, path, plies, noise, seed, speed=10.0):
    tags, texts, _ = simm.game_moves(game, path, 0)
    texts = texts[:plies]
    sim = simm.Simulator(profile, speed=speed, tc="300+2", seed=seed, noise=noise, log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    br = Bridge(ep.url(), game)
    try:
        assert br.wait(lambda: br.engine.started), "the bridge never got the device's snapshot"
        assert br.engine.hello["profile"] == profile and br.engine.hello["game"] == sim.profile["game"]
        sim.press("start")
        simm.play_game(sim, texts, think_ms=300)
        assert br.wait(lambda: br.engine.game.sans() == texts, 10), (br.engine.game.sans(), texts)
        st = br.states[-1]
        assert st["moves"] == texts and len(st["clocks"]) == len(texts)
        assert st["grid"] == sim.adapter.grid()              # the bridge's position is the hand's
        # the clock ran on the device: time was used and increments added
        assert all(c[0] != 300000 or c[1] != 300000 for c in st["clocks"][2:])
        return st
    finally:
        br.close()
        sim.stop()


def test_chess_game_with_handling_noise_reconstructed_exactly():
    st = play_and_check("pico-chess", "chess", os.path.join(GAMES, "chess.pgn"), 24, noise=0.25, seed=11)
    assert st["game"] == "chess" and st["to_move"] == "white"


def test_draughts_game_with_captures_reconstructed_exactly():
    tags, texts, _ = simm.game_moves("draughts", os.path.join(GAMES, "draughts.pdn"), 0)
    assert any("x" in t for t in texts[:20])                 # captures are in the stretch played
    st = play_and_check("pico-draughts10", "draughts", os.path.join(GAMES, "draughts.pdn"), 20, noise=0.2, seed=5)
    assert st["game"] == "draughts" and len(st["grid"]) == 10


def test_bridge_over_the_pseudo_terminal_and_reconnect_over_tcp():
    if not sys.platform.startswith("linux"):
        pytest.fail("the pseudo-terminal endpoint is tested on Linux")
    sim = simm.Simulator("pico-chess", speed=10, tc="300+2", seed=3, noise=0.0, log=lambda t: None).start()
    pty = sim.open_pty()
    ep = sim.listen_tcp("127.0.0.1", 0)
    assert re.fullmatch(r"/dev/pts/\d+", pty.path)
    br = Bridge(pty.path, "chess")
    try:
        assert br.wait(lambda: br.engine.started), "no snapshot over the pty"
        sim.press("start")
        simm.play_game(sim, ["e4", "e5"], think_ms=200)
        assert br.wait(lambda: br.engine.game.sans() == ["e4", "e5"])
    finally:
        br.close()
    # a second host on TCP; the line drops mid-game and the bridge comes back by itself
    br = Bridge(ep.url(), "chess")
    try:
        assert br.wait(lambda: br.engine.started)
        ep.disconnect()
        simm.play_game(sim, ["Nf3"], think_ms=200)            # on a fresh bridge: the board now differs
        assert br.wait(lambda: br.session.connects >= 2, 10), "the bridge did not reconnect"
    finally:
        br.close()
        sim.stop()


def test_flagfall_sim_command_serves_the_wire_protocol(tmp_path):
    env = flagfall_env()
    errlog = open(tmp_path / "sim.err", "w+")     # a file, not a pipe nobody reads: the sim can never block on it
    proc = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "sim", "--listen", "127.0.0.1:0", "--no-pty",
                             "--tc", "300+5"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errlog,
                            text=True, env=env)
    link = None
    seen = []

    def why():
        errlog.seek(0)
        return "frames seen: %r\nsim stderr:\n%s" % (seen[-20:], errlog.read()[-3000:])

    try:
        line = proc.stdout.readline()
        m = re.match(r"sim: pico-chess \(chess\) on (socket://127\.0\.0\.1:\d+)", line)
        assert m, line + why()
        link = SerialLink.open(m.group(1))
        link.send("REQ", ["hello"])
        end = time.monotonic() + 20
        while time.monotonic() < end and not any(k == "HELLO" for _, k, _ in seen):
            seen += link.poll()
        hello = [v for _, k, v in seen if k == "HELLO"]
        assert hello and hello[0][2:5] == ["pico-chess", "chess", 8], why()
        proc.stdin.write("lift e2\nplace e4\n")
        proc.stdin.flush()
        changes = []
        end = time.monotonic() + 20
        while time.monotonic() < end and len(changes) < 2:
            got = link.poll()
            seen += got
            changes += [c for _, k, v in got if k == "SQ" for c in v[1:]]
        # sensor = row * 8 + col with row 0 the 8th rank: e2 is 52, e4 is 36. Both changes may
        # settle in one scan on a loaded machine, and a scan reports in sensor order.
        assert sorted(changes) == [(36, True), (52, False)], why()
        proc.stdin.write("show\nquit\n")
        proc.stdin.flush()
        out, _ = proc.communicate(timeout=10)
        assert "white 5:00 | black 5:00" in out and proc.returncode == 0, out + why()
    finally:
        if link is not None:
            link.stream.close()
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        errlog.close()


def test_unknown_profile_is_refused_clearly():
    with pytest.raises(ValueError, match="no board profile 'nope'.*pico-chess"):
        simm.Simulator("nope")


def test_web_control_moves_pieces_and_presses_the_clock():
    import json
    import urllib.request
    sim = simm.Simulator("pico-draughts10", tc="300", noise=0.0, log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    link = SerialLink.open(ep.url())
    try:
        url = serve_web(sim, "127.0.0.1", 0)

        def post(path, obj):
            req = urllib.request.Request(url + path, json.dumps(obj).encode(), {"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=5) as r:
                    return r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                return e.code, json.loads(e.read())
        with urllib.request.urlopen(url, timeout=5) as r:
            assert b"Flagfall simulator" in r.read()
        with urllib.request.urlopen(url + "api/state", timeout=5) as r:
            st = json.loads(r.read())
        assert st["rows"] == 10 and len(st["squares"]) == 50 and len(st["occupied"]) == 40
        time.sleep(0.2)
        link.poll()
        assert post("api/square", {"row": 6, "col": 1}) == (200, {"ok": True})    # square 31: lift its man
        time.sleep(0.2)                                   # a hand slower than the scan: two reports, in order
        assert post("api/square", {"row": 5, "col": 2}) == (200, {"ok": True})    # square 27: put it down
        assert post("api/square", {"row": 0, "col": 0})[0] == 400                  # a light square: no sensor
        assert post("api/press", {"button": "white"}) == (200, {"ok": True})
        assert post("api/play", {"move": "99-98"})[0] == 400
        frames = []
        end = time.monotonic() + 15
        while time.monotonic() < end and not any(k == "BTN" for _, k, _ in frames):
            frames += link.poll()
        changes = [c for _, k, v in frames if k == "SQ" for c in v[1:]]
        assert changes == [(30, False), (26, True)], changes     # sensor i is draughts square i + 1
        assert [v[1] for _, k, v in frames if k == "BTN"] == ["white"]
    finally:
        link.stream.close()
        sim.stop()


@pytest.mark.parametrize("tc", ["300+2", "300d5", "300b5"])
def test_each_move_records_the_clock_after_its_press(tc):
    # A move's clock is the mover's time once the press has added the increment (or given
    # back the Bronstein delay), exactly as the device shows it: never the pre-press reading.
    sim = simm.Simulator("pico-chess", speed=10, tc=tc, seed=8, noise=0.0, log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    br = Bridge(ep.url(), "chess", tc=tc)
    try:
        assert br.wait(lambda: br.engine.started)
        sim.press("start")
        shown = []
        for i, text in enumerate(["e4", "c5", "Nf3", "d6", "d4", "cxd4"]):
            mover = i % 2
            sim.play(text, think_ms=700)
            assert br.wait(lambda: len(br.engine.game.moves) == i + 1), (text, br.engine.game.sans())
            sim.wait(100)          # the mover's clock stands still until the next press
            c = sim.app.clock
            shown.append(c.shown_ms(mover))
            if tc == "300+2":      # the press added its increment: 2 s for each move made
                assert c.allotted[mover] == 300000 + 2000 * (i // 2 + 1)
                assert c.shown_ms(mover) == c.allotted[mover] - c.used[mover]
        recorded = [m.clock_ms for m in br.engine.game.moves]
        assert recorded == shown, (recorded, shown)
        clock = next(st for st in br.states if len(st["moves"]) == 6)["clock"]   # published with the move
        if tc == "300d5":   # viewers hold the running side's time through its delay window
            assert clock["running"] == "white" and 0 < clock["delay_ms"] <= 5000, clock
        else:
            assert "delay_ms" not in clock, clock
    finally:
        br.close()
        sim.stop()


def _hand_moves(sim, steps, mover):
    """Lifts ('-sq') and placements ('+sq') by hand, then `mover` presses its clock."""
    for st in steps:
        sim.wait(150)
        (sim.lift if st[0] == "-" else sim.place)(st[1:])
    sim.wait(250)
    sim.press(mover)


@pytest.mark.parametrize("profile,game,opening,illegal,reply,stops_at", [
    # 3.Ndf3?? (the knight is pinned by Bb4) and Black, not noticing, takes on d4
    ("pico-chess", "chess", ["d4", "e5", "Nd2", "Bb4"], ["-d2", "+f3"], ["-e5", "-d4", "+d4"],
     ["d4", "e5", "Nd2", "Bb4"]),
    # 2.31-26?? while 28x19 is compulsory, and Black replies 20-24
    ("pico-draughts10", "draughts", ["32-28", "19-23"], ["-31", "+26"], ["-20", "+24"], ["32-28", "19-23"]),
])
@pytest.mark.parametrize("penalties", ["auto", "confirm"])
def test_an_illegal_move_and_the_unnoticing_reply_stop_the_record_on_the_simulator(
        profile, game, opening, illegal, reply, stops_at, penalties):
    """Issue #19: the record never shows a legal-looking game nobody played; the arbiter is alerted."""
    sim = simm.Simulator(profile, speed=10.0, tc="300+2", seed=3, noise=0.0, log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    br = Bridge(ep.url(), game, penalties=penalties)
    try:
        assert br.wait(lambda: br.engine.started), "the bridge never got the device's snapshot"
        sim.press("start")
        simm.play_game(sim, opening, think_ms=300)
        assert br.wait(lambda: br.engine.game.sans() == opening, 10), br.engine.game.sans()
        _hand_moves(sim, illegal, "white")
        _hand_moves(sim, reply, "black")
        # auto: the penalty is applied at once; confirm: the arbiter is asked to apply it
        counted = [1, 0] if penalties == "auto" else [0, 0]
        assert br.wait(lambda: br.engine.game.alert is not None and br.engine.game.illegal == counted, 10), \
            (br.engine.game.sans(), br.engine.game.alert)
        sim.wait(3000)
        g = br.engine.game
        assert g.sans() == stops_at and g.takebacks == [] and "illegal move" in g.alert
        if penalties == "confirm":
            assert "by White" in g.alert, g.alert        # the arbiter is asked to penalise White
        assert br.states[-1]["moves"] == stops_at
        written = record_text(g)
        assert ("[IllegalMoves " in written) == (penalties == "auto"), written
        movetext = re.sub(r"\{[^}]*\}", " ", written.split("\n\n", 1)[-1])
        assert [w for w in movetext.split() if not re.fullmatch(r"\d+\.+|\*", w)] == stops_at, written
    finally:
        br.close()
        sim.stop()
