"""Issue 20, faults of the event process: a damaged journal quarantines its board alone, simulated boards
resume with the event after kill -9, a second journal copy (--mirror), a read-only out folder.

Each test runs the real `flagfall event` in its own process; where the issue asks, the boards are in
processes of their own too (`flagfall sim --listen`, reached with --boards socket://...), and every
board's record is compared, move by move, with what the simulated players really played.
"""
import glob
import os
import subprocess
import sys
import time
import pytest

import chess.pgn  # test oracle only

from flagfall.tournament import pairings
from processes import call
from repo import ROOT, flagfall_env
from test_event import read_pgn

pytestmark = pytest.mark.serial     # timing under faults: run apart (pyproject.toml, markers)

DATA = os.path.join(ROOT, "tests", "data", "event")
CSV = os.path.join(DATA, "open2026-r4.csv")
BUNDLED_CHESS = os.path.join(ROOT, "host", "flagfall", "demo_games", "chess.pgn")


def record_moves(path):
    with open(path) as f:
        g = chess.pgn.read_game(f)
    board = g.board()
    out = []
    for mv in g.mainline_moves():
        out.append(board.san(mv))
        board.push(mv)
    return out


def clocks_of(path):
    with open(path) as f:
        g = chess.pgn.read_game(f)
    return [n.clock() for n in g.mainline()]


def damage(path):
    """Change one character in the middle of a journal (as a disk error or a hand edit would)."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    i = len(lines) // 2
    lines[i] = lines[i].replace(b'"t":1', b'"t":2', 1)
    assert b'"t":2' in lines[i]
    with open(path, "wb") as f:
        f.write(b"\n".join(lines))


SHORT_GAME = """[Event "short"]
[White "A"]
[Black "B"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *
"""


def test_a_damaged_journal_quarantines_its_board_alone_and_the_arbiter_starts_it_from_the_device(
        tmp_path, event_process, sim_process):
    short = str(tmp_path / "short.pgn")
    with open(short, "w") as f:
        f.write(SHORT_GAME)
    out = str(tmp_path / "out")
    # boards 1 and 3 play long bundled games slowly; board 2 plays a short game to its end
    sims = {1: sim_process(BUNDLED_CHESS, 1, think_ms=2500), 2: sim_process(short, 1, think_ms=400),
            3: sim_process(BUNDLED_CHESS, 2, think_ms=2500)}
    boards = str(tmp_path / "boards.txt")
    with open(boards, "w") as f:
        f.write("".join("%d %s\n" % (n, s.url) for n, s in sims.items()))
    args = ["--pairings", CSV, "--round", "4", "--boards", boards, "--out", out, "--tc", "5400+30"]
    ev = event_process(*args)
    try:
        ev.wait(lambda d: d["boards"][1]["plies"] == 8 and all(d["boards"][i]["plies"] >= 3 for i in (0, 2)))
        ev.kill9()
        journal = os.path.join(out, "round-4", "board-2.journal")
        damage(journal)
        ev = event_process(*args)
        d = ev.dashboard()
        b2 = d["boards"][1]
        assert b2["status"] == "failed" and "cannot resume" in b2["failure"] and "hash chain" in b2["failure"], b2
        assert "start_from_device" in b2["choices"] and "leave it to the arbiter" in b2["choices"]
        assert b2["actions"] == ["start_from_device"]
        assert any("board 2: FAILED" in line for line in ev.lines), ev.lines
        # the other boards are followed: they go on recording what their players play
        before = {b["board"]: b["plies"] for b in d["boards"]}
        ev.wait(lambda d: all(d["boards"][i]["plies"] >= before[i + 1] + 2 for i in (0, 2)), timeout=60)
        st, reply = call(ev.url + "api/event/board/2", {"action": "result", "result": "1-0"})
        assert st == 422 and "start_from_device" in reply["error"], reply
        # the arbiter starts board 2 from the device: the damaged journal is kept aside, never deleted
        st, reply = call(ev.url + "api/event/board/2/start-from-device", {})
        assert st == 200 and reply["ok"], reply
        kept = glob.glob(journal + ".damaged-*")
        assert len(kept) == 1 and os.path.exists(journal)
        d = ev.wait(lambda d: d["boards"][1]["plies"] == 8 and d["boards"][1]["status"] == "playing", timeout=30)
        assert d["boards"][1]["failure"] is None and d["boards"][1]["alert"] is None
        st, reply = call(ev.url + "api/event/board/2", {"action": "result", "result": "1/2-1/2"})
        assert st == 200, reply
    finally:
        code, stdout, stderr = ev.stop()
        for s in sims.values():
            s.stop()
    assert code == 0, stderr
    assert "Traceback" not in stderr, stderr
    # every board's record is what its players played, move by move
    rnd_dir = os.path.join(out, "round-4")
    assert record_moves(os.path.join(rnd_dir, "board-2.pgn")) == sims[2].played == \
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6".split()
    for n in (1, 3):
        rec = record_moves(os.path.join(rnd_dir, "board-%d.pgn" % n))
        assert len(rec) >= 5 and rec == sims[n].played[:len(rec)], (n, rec, sims[n].played)
    games = read_pgn(open(os.path.join(out, "round-4.pgn")).read())
    assert [len(list(g.mainline_moves())) for g in games[:3]] == \
        [len(record_moves(os.path.join(rnd_dir, "board-%d.pgn" % n))) for n in (1, 2, 3)]
    assert games[1].headers["Result"] == "1/2-1/2"


def test_simulated_boards_resume_with_the_event_after_kill_9(tmp_path, event_process):
    from flagfall.event.simboards import round_game as _source
    from flagfall.event import runner
    out = str(tmp_path / "out")
    args = ["--pairings", CSV, "--round", "4", "--sim", "3", "--autoplay", "--speed", "10", "--think", "2",
            "--out", out, "--tc", "5400+30"]
    ev = event_process(*args)
    try:
        ev.wait(lambda d: all(b["plies"] >= 10 for b in d["boards"][:3]))
        ev.kill9()
        recorded = {n: record_moves(os.path.join(out, "round-4", "board-%d.pgn" % n)) for n in (1, 2, 3)}
        ev = event_process(*args)
        assert all("resumed" in line for line in ev.lines[:3]), ev.lines
        d = ev.wait(lambda d: all(b["plies"] >= len(recorded[b["board"]]) + 10 for b in d["boards"][:3]))
        assert all(b["alert"] is None and b["status"] == "playing" for b in d["boards"][:3]), d["boards"][:3]
    finally:
        code, stdout, stderr = ev.stop()
    assert code == 0, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert "illegal" not in stdout, stdout
    # the moves are the source games', in order, through the restart; the clocks go on from where they were
    rnd = pairings.read_pairings(CSV, 4)
    fake = runner.Event(rnd, tournament="x", out_dir=str(tmp_path / "scratch"))
    for n in (1, 2, 3):
        path = os.path.join(out, "round-4", "board-%d.pgn" % n)
        moves = record_moves(path)
        src = _source(fake, n).texts
        assert moves == src[:len(moves)] and len(moves) >= len(recorded[n]) + 10, (n, moves, src)
        clocks = clocks_of(path)
        assert all(c is not None for c in clocks)
        for i in range(2, len(clocks)):
            # a side's clock from move to move: +30 s increment less a few seconds of thinking (never
            # back to the start's 1:30:00, nor a jump)
            assert 30 - 15 <= clocks[i] - clocks[i - 2] <= 30 + 1, (n, i, clocks[i - 2:i + 1])
    fake.stop()


def test_an_out_folder_that_cannot_be_written_is_named_in_the_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    out = str(blocker / "out")
    r = subprocess.run([sys.executable, "-m", "flagfall.cli", "event", "--pairings", CSV, "--round", "4", "--sim", "1",
                        "--port", "0", "--out", out], capture_output=True, text=True, env=flagfall_env(), timeout=60)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "cannot write to the out folder %s" % out in r.stderr and "--port" not in r.stderr, r.stderr


def test_a_full_disk_then_kill_9_while_still_full_loses_nothing_with_a_mirror(tmp_path, event_process, sim_process):
    out, usb = str(tmp_path / "disk" / "out"), str(tmp_path / "usb" / "event")
    full = str(tmp_path / "the-disk-is-full")
    sims = {1: sim_process(BUNDLED_CHESS, 1, think_ms=2500), 2: sim_process(BUNDLED_CHESS, 2, think_ms=2500)}
    boards = str(tmp_path / "boards.txt")
    with open(boards, "w") as f:
        f.write("".join("%d %s\n" % (n, s.url) for n, s in sims.items()))
    args = ["--pairings", CSV, "--round", "4", "--boards", boards, "--out", out, "--mirror", usb, "--tc", "5400+30"]
    ev = event_process(*args, python=(os.path.join(ROOT, "tests", "host", "full_disk.py"), out, full))
    try:
        d = ev.wait(lambda d: all(b["plies"] >= 3 for b in d["boards"][:2]))
        open(full, "w").close()                       # the event's disk is full from now on
        at_full = {b["board"]: b["plies"] for b in d["boards"][:2]}
        d = ev.wait(lambda d: all(b["plies"] >= at_full[b["board"]] + 4 for b in d["boards"][:2]), timeout=60)
        assert all("No space left" in (b["alert"] or "") for b in d["boards"][:2]), [b["alert"] for b in d["boards"]]
        st, reply = call(ev.url + "api/event/board/2", {"action": "result", "result": "0-1"})
        assert st == 200, reply
        d = ev.wait(lambda d: d["boards"][0]["plies"] >= at_full[1] + 6 and d["boards"][1]["result"] == "0-1")
        seen = {b["board"]: b["plies"] for b in d["boards"][:2]}
        ev.kill9()                                    # while the disk is still full
        os.remove(full)
        ev = event_process(*args)
        assert any("journal copies differed" in line and "taken from %s" % usb in line for line in ev.lines), ev.lines
        d = ev.dashboard()
        assert d["boards"][0]["plies"] >= seen[1] and d["boards"][1]["plies"] == seen[2], (seen, d["boards"][:2])
        assert d["boards"][1]["result"] == "0-1" and d["boards"][1]["status"] == "finished"
        d = ev.wait(lambda d: d["boards"][0]["plies"] >= seen[1] + 2 and d["boards"][0]["alert"] is None)
        st, reply = call(ev.url + "api/event/board/1", {"action": "result", "result": "1/2-1/2"})
        assert st == 200, reply
    finally:
        code, stdout, stderr = ev.stop()
        for s in sims.values():
            s.stop()
    assert code == 0, stderr
    rnd_dir = os.path.join(out, "round-4")
    for n in (1, 2):
        rec = record_moves(os.path.join(rnd_dir, "board-%d.pgn" % n))
        assert len(rec) >= seen[n] and rec == sims[n].played[:len(rec)], (n, rec, sims[n].played)
        assert all(c is not None for c in clocks_of(os.path.join(rnd_dir, "board-%d.pgn" % n)))
        with open(os.path.join(rnd_dir, "board-%d.journal" % n), "rb") as a, \
                open(os.path.join(usb, "round-4", "board-%d.journal" % n), "rb") as b:
            assert a.read() == b.read()               # both copies whole again
    games = read_pgn(open(os.path.join(out, "round-4.pgn")).read())
    assert [g.headers["Result"] for g in games[:2]] == ["1/2-1/2", "0-1"]
