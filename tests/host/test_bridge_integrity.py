"""Issue 13: one valid-looking frame must not stop a game; a damaged or edited journal is refused clearly.

Fault injection on the wire goes through the real bridge (Session + BridgeEngine over a TCP
socket against a scripted device); journal corruption goes through resume() and the
`flagfall bridge` command, which must answer with a clean message, never a traceback.
"""
import json
import os
import shutil
import subprocess
import sys
import time

from flagcore import wire
from flagfall.bridge import engine as eng_mod
from flagfall.bridge import journal as jmod
from flagfall.bridge import replay
from flagfall.bridge.session import Session
from flagfall.games import chess as pgn

from bridge_helpers import FakeDevice
from repo import flagfall_env
from test_bridge_journal import sarratt

ENV = flagfall_env()


def same_moves(a, b):
    return [x.rstrip("+#") for x in a] == [x.rstrip("+#") for x in b]


def _bad_frames(link):
    """Frames with a correct checksum and an impossible value (and some plain garbage)."""
    clk = [5, 1, 0, 300000, 299000, -1, "5:00", "4:59", "running", ""]
    return [
        link.frame("CLK", clk[:2] + [7] + clk[3:]),                       # side to move 7
        link.frame("CLK", clk[:5] + [9] + clk[6:]),                       # flag 9
        link.frame("FLAG", [5, 9, 5]),                                    # side 9
        link.frame("SNAP", [5, 32, wire.hexbits([1] * 32, 32)]),          # fewer sensors than the board
        link.frame("SNAP", [5, 64, "FF"]),                                # occupancy shorter than its count
        link.frame("HELLO", ["x", 1, "p", "chess", 3000, 3000, "full"]),  # a 3000x3000 board
        link.frame("HELLO", ["x", 1, "p", "draughts", 10, 5, "dark"]),    # another board in mid-game
        link.frame("SQ", [5, (100, 1)]),                                  # a sensor the board does not have
        link.frame("SQ", [5, (5000, 0)]),
        b"F1 1 BTN 1 white*0000\n",                                       # bad checksum
        b"\x00\xffgarbage\n",
        b"y" * 500 + b"\n",                                               # oversized
    ]


class FaultyDevice(FakeDevice):
    """The scripted device, with a burst of bad frames sent in the middle of the game."""

    def __init__(self, sans, seed, at, **kw):
        super().__init__(sans, seed, **kw)
        self.at = set(at)

    def _play(self, t):
        pos = self.pos
        data = super()._play(t)
        if pos in self.at:
            data = b"".join(_bad_frames(self.dev.link)) + data
        return data


def test_impossible_frames_are_rejected_and_the_game_goes_on(tmp_path):
    game = sarratt()
    presses = None
    dev = FaultyDevice(game.sans, seed=5, at=(), pace=0.003)
    presses = [i for i, s in enumerate(dev.script) if s[0] == "press"]
    dev.at = {presses[3] + 1, presses[12] + 2, presses[20]}
    dev.start()
    jp = str(tmp_path / "s.journal")
    eng = eng_mod.BridgeEngine("chess", journal_path=jp, out_dir=str(tmp_path), record_name="s",
                               tags={"White": "Sarratt", "Black": "NN"}, tc="300+2")
    logged = []
    sess = Session("socket://127.0.0.1:%d" % dev.port, eng, retry_s=0.05, poll_s=0.005, log=logged.append)
    end = time.time() + 60
    sess.run(stop=lambda: time.time() > end)
    sess.close()
    dev.stop()
    # nothing lost: every move, the result, the record
    assert same_moves(eng.game.sans(), game.sans), eng.game.decisions[-5:]
    assert eng.game.result == "1-0"
    with open(str(tmp_path / "s.pgn")) as f:
        assert same_moves(list(pgn.read_games(f.read()))[0].sans, game.sans)
    # a clear message for each kind of bad frame
    text = "\n".join(logged)
    for word in ("CLK field 3: 7 is outside 0..1", "CLK field 6: 9 is outside -1..1", "FLAG field 2: 9 is outside 0..1",
                 "SNAP reports 32 sensors, the board has 64", "SNAP of 64 sensors needs 16 hex digits",
                 "HELLO field 5: 3000 is outside 1..32", "HELLO changes the board in mid-game",
                 "SQ sensor 100 is outside the board's 64 sensors", "SQ field 2: 5000 is outside",
                 "checksum mismatch", "not printable ASCII", "exceeds 240"):
        assert word in text, (word, text[-3000:])
    assert "WARN" in text
    # ... and a journal note for each; the journal resumes to the same game
    header, entries = jmod.load(jp)
    lines = [e for e in entries if e["k"] == "reject" and "line" in e]
    frames = [e for e in entries if e["k"] == "reject" and "raw" in e]
    assert len(lines) == 20         # then only counted (a flood must not fill the journal)
    assert len(frames) == 3 * 3     # SNAP of 32 sensors, HELLO in mid-game, SQ sensor 100: each time
    assert not any(e["k"] == "f" and ("HELLO" in e["raw"] and "3000" in e["raw"]) for e in entries)
    again = eng_mod.resume(jp)
    assert again.game.sans() == eng.game.sans() and again.game.result == "1-0"
    assert not getattr(again, "quarantined", [])
    again.close()


def _journal_lines(path):
    with open(path) as f:
        return [json.loads(x) for x in f.read().splitlines()]


def _write_lines(path, objs):
    with open(path, "w") as f:
        for o in objs:
            f.write(json.dumps(o, separators=(",", ":"), sort_keys=True) + "\n")


def _as_version_1(objs):
    """The same journal as an old bridge (version 1: no hash chain) would have written it."""
    out = []
    for o in objs:
        o = dict(o)
        o.pop("h", None)
        if o["k"] == "header":
            o["v"] = 1
            o.pop("record", None)
        out.append(o)
    return out


def _played(tmp_path, name="g", plies=None):
    """A journal (and record) of Sarratt's game, replayed through the engine."""
    sans = list(sarratt().sans)
    if plies:
        sans = sans[:plies]
    src = replay.GameSource({"White": "A", "Black": "B"}, sans)
    jp = str(tmp_path / (name + ".journal"))
    eng, want, _ = replay.replay_game("chess", src, seed=11, noise=0.5, journal_path=jp,
                                      engine_kwargs={"out_dir": str(tmp_path), "record_name": name})
    eng.close()
    return jp, eng, want


def test_a_journaled_frame_that_cannot_be_handled_is_quarantined_on_resume(tmp_path):
    """An old journal (written before frames were checked) holding impossible frames: every restart
    used to fail the same way. Now they are skipped with a message and every move is kept."""
    jp, eng, want = _played(tmp_path)
    objs = _as_version_1(_journal_lines(jp))
    link = wire.Link(wire.HOST_KINDS)
    bad = [{"k": "f", "t": 5000, "raw": b.decode().rstrip("\n")} for b in _bad_frames(link)[:9]]
    mid = len(objs) // 2
    objs[mid:mid] = bad
    _write_lines(jp, objs)
    again = eng_mod.resume(jp)
    assert again.game.sans() == want and again.game.result == "1-0"
    assert len(again.quarantined) == 9
    assert "FLAG field 2: 9 is outside 0..1" in "\n".join(again.quarantined)
    again.close()
    # the command says so and goes on (the game is over: it ends at once)
    p = subprocess.run([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:9",
                        "--game", "chess", "--out", str(tmp_path), "--name", "g", "--no-stdin"],
                       capture_output=True, text=True, timeout=60, env=ENV)
    assert p.returncode == 0, p.stderr
    assert "resumed" in p.stdout and "Traceback" not in p.stderr
    assert p.stderr.count("WARN journal") == 9 and "skipped" in p.stderr


def test_a_frame_the_engine_fails_on_is_skipped_live_and_on_resume(tmp_path):
    """If handling one frame raises (a bug), the session logs it, marks it in the journal and goes on;
    resume skips the same frame instead of failing at it on every restart."""
    jp = str(tmp_path / "q.journal")
    eng = eng_mod.BridgeEngine("chess", journal_path=jp, clock_mode=False, settle_ms=500)
    dev = replay.VirtualDevice("chess", clock=False)
    stream = dev.hello() + dev.snapshot(10) + dev.button(20, "boom") + dev.square(30, 12, False) \
        + dev.square(40, 28, True)

    class Stream:
        def __init__(self, data):
            self.data = data

        def read(self, n):
            d, self.data = self.data[:n], self.data[n:]
            return d

        def write(self, b):
            pass

    from flagfall.serial_link import SerialLink
    real = eng._frame

    def frame(t, kind, values):
        if kind == "BTN" and values[1] == "boom":
            raise KeyError("boom")          # a bug in the engine, for one frame
        return real(t, kind, values)
    eng._frame = frame
    logged = []
    sess = Session("test", eng, log=logged.append, opener=lambda: SerialLink(Stream(stream)))
    for _ in range(3):
        sess.step()
    eng.tick(10 ** 13)
    assert eng.game.sans() == ["e4"]
    assert any("could not be handled and is skipped: KeyError" in x for x in logged), logged
    eng.close()
    _, entries = jmod.load(jp)
    assert [e for e in entries if e["k"] == "f" and "boom" in e["raw"]][0]["quarantined"].startswith("KeyError")
    again = eng_mod.resume(jp)
    assert again.game.sans() == ["e4"]
    assert len(again.quarantined) == 1 and "KeyError" in again.quarantined[0]


def test_hash_chain_refuses_an_edited_or_extended_journal(tmp_path):
    jp, eng, want = _played(tmp_path)
    good = open(jp).read().splitlines()
    assert all('"h":"' in line for line in good)
    assert jmod.load(jp)[0]["v"] == 2
    # a decision's text changed in the middle
    i = next(i for i, line in enumerate(good) if '"kind":"move"' in line and i > len(good) // 2)
    t = json.loads(good[i])["text"]
    edited = good[i].replace('"text":"%s"' % t, '"text":"%s"' % ("Qh5" if t != "Qh5" else "Qh4"))
    assert edited != good[i]
    open(jp, "w").write("\n".join(good[:i] + [edited] + good[i + 1:]) + "\n")
    try:
        eng_mod.resume(jp)
    except jmod.JournalError as e:
        assert "line %d does not match the journal's hash chain" % (i + 1) in str(e)
    else:
        raise AssertionError("an edited decision was accepted")
    # a valid JSON line appended by hand
    extra = json.dumps({"k": "op", "t": 10 ** 13, "cmd": "result", "args": ["0-1"]})
    open(jp, "w").write("\n".join(good + [extra]) + "\n")
    try:
        jmod.load(jp)
    except jmod.JournalError as e:
        assert "line %d has no hash" % (len(good) + 1) in str(e)
    else:
        raise AssertionError("an appended line was accepted")
    # the last line itself changed
    last = json.loads(good[-1])
    last["t"] = last.get("t", 0) + 1
    open(jp, "w").write("\n".join(good[:-1] + [json.dumps(last)]) + "\n")
    try:
        jmod.load(jp)
    except jmod.JournalError as e:
        assert "line %d does not match" % len(good) in str(e)
    else:
        raise AssertionError("an edited last line was accepted")
    # a line removed in the middle
    open(jp, "w").write("\n".join(good[:5] + good[6:]) + "\n")
    try:
        jmod.load(jp)
    except jmod.JournalError as e:
        assert "line 6 does not match" in str(e)
    else:
        raise AssertionError("a removed line went unnoticed")
    # untouched, it resumes; and what the resumed bridge appends continues the chain
    open(jp, "w").write("\n".join(good) + "\n")
    again = eng_mod.resume(jp)
    again.tick(10 ** 13)
    again.link(10 ** 13, True)
    again.close()
    h, entries = jmod.load(jp)
    assert entries[-1] == {"k": "link", "t": 10 ** 13, "state": "up"}


def test_decisions_are_checked_against_the_rebuild(tmp_path):
    """Without a chain (an old journal), an edited decision is still found: the rebuild takes another."""
    jp, eng, want = _played(tmp_path)
    old = _as_version_1(_journal_lines(jp))
    edited = [dict(o) for o in old]
    d = [o for o in edited if o["k"] == "d" and o["kind"] == "move"][7]
    d["text"] = "Qh5" if d["text"] != "Qh5" else "Qh4"
    _write_lines(jp, edited)
    try:
        eng_mod.resume(jp)
    except jmod.JournalError as e:
        assert "decision move %r is not one the rebuild" % d["text"] in str(e)
    else:
        raise AssertionError("an edited decision was accepted")
    # an old journal that was not edited still resumes (version 1 compatibility)
    _write_lines(jp, old)
    again = eng_mod.resume(jp, out_dir=str(tmp_path / "old"))
    assert again.game.sans() == want
    again.close()


def test_a_line_missing_a_key_gives_the_clean_cannot_resume_message(tmp_path):
    jp, eng, want = _played(tmp_path, name="board")
    objs = _as_version_1(_journal_lines(jp))
    i = next(i for i, o in enumerate(objs) if o["k"] == "f" and i > 10)
    del objs[i]["raw"]
    _write_lines(jp, objs)
    try:
        jmod.load(jp)
    except jmod.JournalError as e:
        assert "line %d: a 'f' line needs the key 'raw'" % (i + 1) in str(e)
    else:
        raise AssertionError("a line without its frame was accepted")
    p = subprocess.run([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:9",
                        "--game", "chess", "--out", str(tmp_path), "--no-stdin"],
                       capture_output=True, text=True, timeout=60, env=ENV)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "cannot resume from" in p.stderr and "needs the key 'raw'" in p.stderr and "--new" in p.stderr


def test_a_journal_cut_off_in_the_middle_never_shortens_the_record(tmp_path):
    jp, eng, want = _played(tmp_path, name="board")
    rec = str(tmp_path / "board.pgn")
    before = open(rec).read()
    data = open(jp, "rb").read()
    open(jp, "wb").write(data[:len(data) // 2])     # the tail is lost, the cut falls inside a line
    try:
        eng_mod.resume(jp)
    except jmod.JournalError as e:
        msg = str(e)
        assert "holds %d moves but its journal rebuilds only" % len(want) in msg
        assert "Refusing to overwrite the longer record" in msg
    else:
        raise AssertionError("a cut-off journal resumed and would shorten the record")
    assert open(rec).read() == before
    p = subprocess.run([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:9",
                        "--game", "chess", "--out", str(tmp_path), "--no-stdin"],
                       capture_output=True, text=True, timeout=60, env=ENV)
    assert p.returncode == 2 and "cut off" in p.stderr and "Traceback" not in p.stderr
    assert open(rec).read() == before
    # --new keeps the longer record (and the journal) aside instead of overwriting it, once a device
    # has answered (a bridge writes nothing before that)
    dev = FakeDevice([], seed=1)
    dev.start()
    p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:%d" % dev.port,
                          "--game", "chess", "--out", str(tmp_path), "--no-stdin", "--new"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        for _ in range(400):
            if os.path.exists(rec + ".1") and os.path.exists(rec):
                break
            time.sleep(0.05)
    finally:
        p.kill()
        p.communicate()
        dev.stop()
    assert open(rec + ".1").read() == before and os.path.exists(jp + ".1")


def test_the_record_path_is_relative_to_the_out_folder(tmp_path):
    a = tmp_path / "a"
    a.mkdir()
    jp, eng, want = _played(a, name="board", plies=10)
    header, _ = jmod.load(jp)
    assert header["record"] == "board.pgn"
    b = tmp_path / "b"
    shutil.copytree(str(a), str(b))
    original = open(str(a / "board.pgn")).read()
    os.utime(str(a / "board.pgn"), (1, 1))
    again = eng_mod.resume(str(b / "board.journal"))
    assert os.path.abspath(again.record_path) == os.path.abspath(str(b / "board.pgn"))
    again.command(10 ** 13, {"action": "result", "result": "1/2-1/2"})
    again.close()
    assert "1/2-1/2" in open(str(b / "board.pgn")).read()
    assert open(str(a / "board.pgn")).read() == original and os.stat(str(a / "board.pgn")).st_mtime == 1


def test_an_operator_typo_does_not_make_the_journal_unresumable(tmp_path):
    """`mvoe e4` is journaled (every input is, before it is carried out) and refused; resume refuses it
    again instead of failing on it at every restart."""
    import pytest
    jp = str(tmp_path / "o.journal")
    eng = eng_mod.BridgeEngine("chess", journal_path=jp, clock_mode=False, settle_ms=500)
    with pytest.raises(ValueError):
        eng.operator(100, "mvoe", "e4")
    with pytest.raises(ValueError):
        eng.operator(200, "promote", "x", "n")
    eng.close()
    again = eng_mod.resume(jp)
    assert again.game.moves == [] and again.game.result == "*"
    again.close()
