"""The live session: hello check, start position, USB unplugged and plugged back."""
import subprocess
import sys
import time

from flagcore import wire
from flagfall.bridge import engine as eng_mod
from flagfall.bridge.session import Session
from flagfall.games import chess as pgn

from bridge_helpers import FakeDevice
from repo import flagfall_env
from test_bridge_journal import sarratt


def run_session(dev, tmp_path, timeout=60, game="chess", plies=None):
    """Follow the fake device until the game ends (or `plies` moves are in), at most `timeout` s."""
    eng = eng_mod.BridgeEngine(game, journal_path=str(tmp_path / "s.journal"), out_dir=str(tmp_path),
                               record_name="s", tags={"White": "Sarratt", "Black": "NN"}, tc="300+2")
    sess = Session("socket://127.0.0.1:%d" % dev.port, eng, retry_s=0.05, poll_s=0.005, log=lambda text: None)
    end = time.time() + timeout
    sess.run(stop=lambda: time.time() > end or (plies is not None and len(eng.game.moves) >= plies))
    sess.close()
    dev.stop()
    return eng, sess


def same_moves(a, b):
    return [x.rstrip("+#") for x in a] == [x.rstrip("+#") for x in b]


def test_unplugged_for_one_move_then_plugged_back(tmp_path):
    game = sarratt()
    dev = FakeDevice(game.sans, seed=21, pace=0.003)
    # cable out just after the 8th move's first lift: the rest of it, the next move, and both presses are lost
    presses = [i for i, s in enumerate(dev.script) if s[0] == "press"]
    start = presses[6] + 2
    dev.offline = {start: presses[8] + 1 - start}
    dev.start()
    eng, sess = run_session(dev, tmp_path)
    assert sess.connects >= 2
    assert same_moves(eng.game.sans(), game.sans), eng.game.decisions[-5:]
    assert eng.game.result == "1-0"
    assert any(m.how == "inferred after reconnect" or m.how == "clock" for m in eng.game.moves)
    with open(str(tmp_path / "s.pgn")) as f:
        rec = list(pgn.read_games(f.read()))[0]
    assert same_moves(rec.sans, game.sans)


def test_unplugged_for_two_whole_moves(tmp_path):
    game = sarratt()
    dev = FakeDevice(game.sans, seed=22, pace=0.003)
    # find a step that starts a move, then stay out for exactly two moves and their presses
    presses = [i for i, s in enumerate(dev.script) if s[0] == "press"]
    start = presses[9] + 2
    dev.offline = {start: presses[11] + 1 - start}
    dev.start()
    eng, sess = run_session(dev, tmp_path)
    assert sess.connects >= 2
    assert same_moves(eng.game.sans(), game.sans)
    inferred = [m for m in eng.game.moves if m.how == "inferred after reconnect"]
    assert len(inferred) >= 2


def test_minzu_unplugged_for_one_turn_in_each_phase(tmp_path):
    import random
    from flagcore import minzu as mz
    from flagfall.bridge import replay
    from flagfall.games import registry
    rng = random.Random(3)
    a = registry.make_adapter("minzu6")
    texts, phases = [], []
    while a.status() is None:
        m = replay.random_turn(a, rng)
        phases.append(a.g.phase)
        texts.append(a.text(m))
        a.push(m)
    for k in (5, 41):                      # a placement, then a move after the transition
        want = texts[:k + 4]
        dev = FakeDevice(want, seed=5, pace=0.002, game="minzu6")
        presses = [i for i, s in enumerate(dev.script) if s[0] == "press"]
        start = presses[k] + 2             # out from the next turn's first lift to its press
        dev.offline = {start: presses[k + 1] + 1 - start}
        dev.start()
        (tmp_path / str(k)).mkdir()
        eng, sess = run_session(dev, tmp_path / str(k), game="minzu6", plies=len(want))
        assert sess.connects >= 2
        assert eng.game.sans() == want, (k, eng.game.alert)
    assert phases[6] == mz.PLACE and phases[42] == mz.MOVE, phases[:45]


def test_moves_that_commute_while_unplugged_go_to_the_operator():
    """Nf3 ... Bc4 or Bc4 ... Nf3 leave the same board: the bridge asks, never guesses."""
    from bridge_helpers import Hand
    h = Hand()
    h.play("e4", "e5")
    before = set(h.g.tracker.cur)
    after = (before - {6, 5, 51}) | {21, 26, 43}     # Nf3, Bc4 and ...d6 made with the cable out
    h.decs += h.g.snapshot(h.t, after)
    h.decs += h.g.catch_up(h.t, None, 3)
    assert h.moves() == ["e4", "e5"]
    assert "Nf3 d6 Bc4" in h.g.alert and "Bc4 d6 Nf3" in h.g.alert
    h.decs += h.g.operator(h.t, "moves", "Nf3", "d6")      # not the board's position: refused
    assert h.moves() == ["e4", "e5"]
    h.decs += h.g.operator(h.t, "moves", "Nf3", "d6", "Bc4")
    assert h.moves() == ["e4", "e5", "Nf3", "d6", "Bc4"]


def hello(rows, cols, layout, game="chess"):
    return wire.decode(wire.encode(0, "HELLO", ["1.0", 1, "p", game, rows, cols, layout]))[2]


def test_hello_must_fit_the_game():
    eng = eng_mod.BridgeEngine("draughts")
    eng.frame(1, "HELLO", hello(8, 8, "full"))
    assert "too small" in eng.hello_problem
    eng = eng_mod.BridgeEngine("chess")
    eng.frame(1, "HELLO", hello(8, 8, "dark", "checkers"))
    assert "dark" in eng.hello_problem
    # dark-squares-only boards report half the columns: 50 sensors fit 10x10 draughts
    eng = eng_mod.BridgeEngine("draughts")
    eng.frame(1, "HELLO", hello(10, 5, "dark", "draughts"))
    assert eng.hello_problem is None
    eng.frame(1, "HELLO", hello(8, 4, "dark", "draughts"))
    assert "too small" in eng.hello_problem
    eng = eng_mod.BridgeEngine("checkers")
    eng.frame(1, "HELLO", hello(8, 4, "dark", "checkers"))
    assert eng.hello_problem is None
    bad = wire.decode(wire.encode(0, "HELLO", ["1.0", 9, "p", "chess", 8, 8, "full"]))[2]
    eng = eng_mod.BridgeEngine("chess")
    eng.frame(1, "HELLO", bad)
    assert "protocol 9" in eng.hello_problem


def test_hello_of_a_revision_older_than_the_bridge_follows_is_named(monkeypatch):
    # today the bridge follows every revision (MIN_REVISION 1); one that stops following revision 1 names it
    eng = eng_mod.BridgeEngine("chess")
    eng.frame(1, "HELLO", hello(8, 8, "full"))
    assert eng.hello_problem is None and eng.hello["revision"] == 1
    monkeypatch.setattr(wire, "MIN_REVISION", 2)
    eng = eng_mod.BridgeEngine("chess")
    eng.frame(1, "HELLO", hello(8, 8, "full"))
    assert "speaks protocol revision 1, too old for this bridge (revision 2 and later)" in eng.hello_problem
    eng = eng_mod.BridgeEngine("chess")
    new = wire.decode(wire.encode(0, "HELLO", ["1.0", 1, "p", "chess", 8, 8, "full", 90, 25, 2]))[2]
    eng.frame(1, "HELLO", new)
    assert eng.hello_problem is None and eng.hello["revision"] == 2


def test_start_position_mismatch_lists_the_squares_to_fix():
    eng = eng_mod.BridgeEngine("chess")
    smap = eng.smap
    occ = set(eng.game.adapter.occupancy())
    occ.discard(12)      # e2 empty
    occ.add(28)          # e4 occupied
    bits = [1 if smap[i] in occ else 0 for i in range(64)]
    eng.frame(1, "SNAP", [1, 64, wire.hexbits(bits, 64)])
    assert eng.game.alert == "start position differs: put a piece on e2; clear e4"
    # fixing the board clears the alert; no move is invented
    inv = {sq: i for i, sq in enumerate(smap)}
    eng.frame(2, "SQ", [2, (inv[28], 0)])
    eng.frame(3, "SQ", [3, (inv[12], 1)])
    eng.tick(10000)
    assert eng.game.alert is None and eng.game.moves == []


def test_bridge_command_exits_3_when_the_device_does_not_fit(tmp_path):
    dev = FakeDevice(["9-13"], seed=1, game="checkers")
    dev.script = []
    dev.start()
    env = flagfall_env()
    p = subprocess.run([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:%d" % dev.port,
                        "--game", "chess", "--out", str(tmp_path)], capture_output=True, env=env, timeout=60)
    dev.stop()
    assert p.returncode == 3
    assert b"does not fit" in p.stderr


def test_live_state_is_valid_after_every_decision():
    from flagfall import live
    from flagfall.bridge import replay
    states = []
    src = replay.GameSource({"White": "A", "Black": "B"}, list(sarratt().sans))
    eng, want, _ = replay.replay_game("chess", src, seed=3, noise=0.3,
                                      engine_kwargs={"publish": lambda st, decs: states.append(st)})
    assert len(states) >= len(want)
    for st in states:
        live.validate_state(st)
    assert states[-1]["moves"] == eng.game.sans()
    assert states[-1]["result"] == "1-0" and states[-1]["status"] == "finished"
    assert [st["seq"] for st in states] == sorted(set(st["seq"] for st in states))


def test_a_rebooted_device_gets_its_clock_back():
    from flagcore import clock as clockmod
    sent = []
    eng = eng_mod.BridgeEngine("chess", send=lambda kind, fields: sent.append((kind, fields)))
    c = clockmod.Clock("300+2")
    c.start(0, 1000)
    c.press(0, 5000)
    snap = c.snapshot(6000)
    eng.frame(6000, "HELLO", hello(8, 8, "full"))
    eng.frame(6000, "CLK", [6000, 1, 1, c.remaining[0], c.remaining[1], -1, "", "", "running", snap])
    eng.frame(9000, "HELLO", hello(8, 8, "full"))            # power lost and back
    blank = clockmod.Clock("300+2")
    eng.frame(9001, "CLK", [9001, 0, 0, 300000, 300000, -1, "", "", "ready", blank.snapshot(9001)])
    assert sent == [("RESTORE", [snap])]
    # a reconnect of a device that kept running is not a reboot: nothing is sent
    eng.frame(9500, "CLK", [9500, 2, 1, c.remaining[0], c.remaining[1], -1, "", "", "paused", snap])
    eng.frame(9600, "HELLO", hello(8, 8, "full"))
    eng.frame(9601, "CLK", [9601, 2, 1, c.remaining[0], c.remaining[1], -1, "", "", "paused", snap])
    assert len(sent) == 1


def test_live_state_is_valid_for_every_game():
    from flagfall import live
    from flagfall.bridge import replay
    for game, src in (("draughts", "random:1:1"), ("checkers", "random:1:2"), ("minzu6", "random:1:3"),
                      ("russian", "random:1:4"), ("brazilian", "random:1:5")):
        states = []
        s = next(replay.load_games(game, src))
        eng, want, _ = replay.replay_game(game, s, seed=1, noise=0.3,
                                          engine_kwargs={"publish": lambda st, d: states.append(st)})
        assert states and eng.game.sans() == want
        for st in states:
            live.validate_state(st)
        assert states[-1]["moves"] == want
        assert states[-1]["grid"] == eng.game.adapter.grid()


def test_arbiter_commands_are_journaled_and_carried_out(tmp_path):
    import pytest
    sent = []
    jp = str(tmp_path / "c.journal")
    eng = eng_mod.BridgeEngine("chess", journal_path=jp, clock_mode=False, settle_ms=1000,
                               fen="1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
                               send=lambda kind, fields: sent.append((kind, fields)))
    inv = {sq: i for i, sq in enumerate(eng.smap) if sq is not None}

    def sq(t, s, down):
        eng.frame(t, "SQ", [t, (inv[s], 1 if down else 0)])

    sq(10, 48, False)       # a7 up
    sq(20, 57, False)       # b8 up (the rook is taken)
    sq(30, 57, True)        # axb8
    eng.tick(2000)
    assert eng.game.sans() == ["axb8=Q+"]
    assert eng.command(2100, {"action": "promotion", "piece": "n"})["ok"]
    assert eng.game.sans() == ["axb8=N"]
    assert eng.command(2200, {"action": "clock", "side": "white", "delta_ms": 60000})["ok"]
    assert ("ADJ", ["white", 60000]) in sent
    with pytest.raises(ValueError):
        eng.command(2300, {"action": "fix_move", "ply": 0, "move": "Kd2"})   # the board shows axb8
    with pytest.raises(ValueError):
        eng.command(2300, {"action": "promotion", "piece": "k"})
    sq(3000, 60, False)     # Ke7
    sq(3100, 52, True)
    eng.tick(5000)
    assert eng.game.sans() == ["axb8=N", "Ke7"]
    with pytest.raises(ValueError) as e:
        eng.command(5050, {"action": "fix_move", "ply": 1, "move": "Kf7"})
    assert "does not show" in str(e.value)
    assert eng.command(5060, {"action": "fix_move", "ply": 1, "move": "Ke7"})["ok"]
    assert eng.game.sans() == ["axb8=N", "Ke7"]
    assert eng.command(5100, {"action": "result", "result": "1/2-1/2"})["ok"]
    assert eng.game.result == "1/2-1/2"
    eng.close()
    again = eng_mod.resume(jp)
    assert again.game.sans() == eng.game.sans() and again.game.result == "1/2-1/2"
    again.close()


def test_arbiter_restart_goes_back_to_the_start_position():
    eng = eng_mod.BridgeEngine("chess", clock_mode=False, settle_ms=1000)
    inv = {sq: i for i, sq in enumerate(eng.smap) if sq is not None}
    eng.frame(10, "SQ", [10, (inv[12], 0)])
    eng.frame(20, "SQ", [20, (inv[28], 1)])
    eng.tick(2000)
    assert eng.game.sans() == ["e4"]
    eng.command(2100, {"action": "restart"})
    assert eng.game.sans() == [] and "put a piece on e2; clear e4" in eng.game.alert
    eng.frame(3000, "SQ", [3000, (inv[28], 0)])
    eng.frame(3010, "SQ", [3010, (inv[12], 1)])
    eng.tick(5000)
    assert eng.game.alert is None and eng.game.sans() == []


def test_bridge_command_takes_operator_commands_on_stdin(tmp_path):
    dev = FakeDevice(["e4", "e5", "Nf3"], seed=4, pace=0.01)
    dev.start()
    env = flagfall_env()
    p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:%d" % dev.port,
                          "--game", "chess", "--out", str(tmp_path), "--name", "op"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines = []
    try:
        while len([x for x in lines if x.startswith("move ")]) < 3:
            line = p.stdout.readline()
            assert line, p.stderr.read()
            lines.append(line)
        p.stdin.write("result 1-0 Black resigned\n")
        p.stdin.flush()
        out, err = p.communicate(timeout=30)
    finally:
        dev.stop()
        if p.poll() is None:
            p.kill()
    assert p.returncode == 0, err
    assert "result 1-0 (Black resigned)" in out
    with open(str(tmp_path / "op.pgn")) as f:
        rec = list(pgn.read_games(f.read()))[0]
    assert rec.sans == ["e4", "e5", "Nf3"] and rec.result == "1-0"
    assert rec.tags["Termination"] == "Black resigned"


def test_clock_changes_are_published_without_a_move():
    from flagcore import clock as clockmod
    published = []
    eng = eng_mod.BridgeEngine("chess", publish=lambda st, decs: published.append((st, decs)))
    smap = eng.smap
    occ = set(eng.game.adapter.occupancy())
    eng.frame(1, "SNAP", [1, 64, wire.hexbits([1 if smap[i] in occ else 0 for i in range(64)], 64)])
    c = clockmod.Clock("300+2")
    c.start(0, 1000)
    n = len(published)
    eng.frame(1000, "CLK", [1000, 1, 0, 300000, 300000, -1, "", "", "running", c.snapshot(1000)])
    assert len(published) == n + 1                     # the clock started: viewers must know
    st = published[-1][0]
    assert st["clock"]["running"] == "white" and published[-1][1] == []
    eng.frame(2000, "CLK", [2000, 1, 0, 299000, 300000, -1, "", "", "running", c.snapshot(2000)])
    assert len(published) == n + 1                     # the running side ticking down is counted by viewers
    eng.frame(2500, "CLK", [2500, 2, 0, 298500, 300000, -1, "", "", "paused", c.snapshot(2500)])
    assert len(published) == n + 2 and published[-1][0]["clock"]["running"] is None
