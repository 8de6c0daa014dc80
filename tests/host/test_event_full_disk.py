"""Issue 34: a full disk does not stop the event. The out folder is a small real tmpfs (full_disk.Tmpfs)
filled up mid-round; the event is killed (kill -9) while it is full, started again while it is still
full, and the disk is freed later. The boards are `flagfall sim --listen` processes playing a real
game; every record is compared, move by move, with what their players really played.

With a journal mirror on another disk nothing is lost and nobody has to do anything: the restart
resumes from the mirror and runs on it alone, the out folder's copy is written back once the disk has
room. Without one the event still comes up and follows every board; the moves that were held only in
memory when it was killed are the ones the arbiter is alerted to and enters (as from the scoresheets);
every move after the restart is kept in memory and written once the disk takes it.
"""
import os
import time

import chess.pgn
import pytest

from full_disk import Tmpfs
from processes import EventProcess, SimProcess, call
from test_event_recovery import BUNDLED_CHESS, CSV, clocks_of, record_moves

pytestmark = pytest.mark.serial     # timing under faults: run apart (pyproject.toml, markers)

BOARDS = (1, 2)


def _plies(d):
    return {b["board"]: b["plies"] for b in d["boards"] if b["board"] in BOARDS}


def _enter_missed_moves(ev, sim, board):
    """The arbiter enters the moves the board was not followed for, from what was played; a move the
    players make meanwhile changes the board, so the entry is made again with it."""
    for _ in range(20):
        have = _plies(ev.dashboard())[board]
        missed = sim.played[have:]
        st, reply = call(ev.url + "api/event/board/%d" % board, {"action": "enter_moves", "moves": " ".join(missed)})
        if st == 200:
            return len(missed)
        time.sleep(0.2)
    raise AssertionError("the missed moves of board %d were refused: %s" % (board, reply))


@pytest.mark.parametrize("mirrored", [True, False], ids=["mirror", "no-mirror"])
def test_a_full_disk_kill_9_restart_while_full_then_freed(tmp_path, mirrored):
    with Tmpfs(str(tmp_path / "disk"), size_kb=2048) as disk:
        out, usb = os.path.join(disk.path, "out"), str(tmp_path / "usb" / "event")
        sims = {n: SimProcess(BUNDLED_CHESS, n, think_ms=900) for n in BOARDS}
        boards = str(tmp_path / "boards.txt")
        with open(boards, "w") as f:
            f.write("".join("%d %s\n" % (n, s.url) for n, s in sims.items()))
        args = ["--pairings", CSV, "--round", "4", "--boards", boards, "--out", out, "--tc", "5400+30"]
        if mirrored:
            args += ["--mirror", usb]
        ev = EventProcess(*args)
        entered = {n: 0 for n in BOARDS}
        try:
            d = ev.wait(lambda d: all(p >= 3 for p in _plies(d).values()))
            disk.keep_full()                              # the out folder's disk is full from now on
            at_full = _plies(d)
            # the journal's disk refuses too (once the page its last lines were in is full): the dashboard
            # says the board runs on the mirror, or holds the moves in memory
            held = "running on %s" % usb if mirrored else "cannot write the journal"
            d = ev.wait(lambda d: all(b["plies"] >= at_full[b["board"]] + 2 and held in (b["alert"] or "")
                                      and "No space left" in b["alert"] for b in d["boards"][:2]), timeout=60)
            # moves held by the mirror alone, or in memory alone: more than the bridge would infer by itself
            # after the restart (three), so that without a mirror the arbiter has to enter them
            at_held = _plies(d)
            d = ev.wait(lambda d: all(b["plies"] >= at_held[b["board"]] + 4 for b in d["boards"][:2]), timeout=60)
            assert all(held in (b["alert"] or "") for b in d["boards"][:2]), d["boards"][:2]
            ev.kill9()                                    # while the disk is still full
            ev = EventProcess(*args)                      # started again while it is still full: it comes up
            said = "".join(ev.lines)
            assert "cannot write" not in said or "exit" not in said, said
            if mirrored:
                assert all("board %d: resumed" % n in said and "running on %s alone" % os.path.join(
                    usb, "round-4", "board-%d.journal" % n) in said for n in BOARDS), said
            d = ev.dashboard()
            assert [b["status"] for b in d["boards"][:2]] != ["failed", "failed"], d["boards"][:2]
            if not mirrored:
                for n in BOARDS:
                    ev.wait(lambda d: "moves were made while the board was disconnected"
                            in (d["boards"][n - 1]["alert"] or ""))
                    entered[n] = _enter_missed_moves(ev, sims[n], n)
                    assert entered[n] > 0
            resumed = _plies(ev.dashboard())
            d = ev.wait(lambda d: all(b["plies"] >= resumed[b["board"]] + 3 for b in d["boards"][:2]), timeout=60)
            assert all("No space left" in (b["alert"] or "") for b in d["boards"][:2]), d["boards"][:2]
            disk.free()                                   # the disk has room again: everything is written
            d = ev.wait(lambda d: all(b["alert"] is None for b in d["boards"][:2]), timeout=30)
            for n in BOARDS:
                st, reply = call(ev.url + "api/event/board/%d" % n, {"action": "result", "result": "1/2-1/2"})
                assert st == 200, reply
            seen = _plies(ev.dashboard())
        finally:
            code, stdout, stderr = ev.stop()
            for s in sims.values():
                s.stop()
        assert code == 0, stderr
        assert "Traceback" not in stderr, stderr
        for n in BOARDS:
            path = os.path.join(out, "round-4", "board-%d.pgn" % n)
            rec = record_moves(path)
            # every move played, in order, none invented; with the mirror none needed the arbiter
            assert len(rec) == seen[n] and rec == sims[n].played[:len(rec)], (n, rec, sims[n].played)
            assert (entered[n] == 0) == mirrored
            if mirrored:
                # every move has its clock, except a move found after the restart whose clock no reading
                # told (the record lists it as inferred: the sims play on while the event is down)
                with open(path) as f:
                    inferred = [x.rstrip("+#") for x in (chess.pgn.read_headers(f).get("InferredMoves") or "").split("; ")]
                for i, c in enumerate(clocks_of(path)):
                    played = "%d%s %s" % (i // 2 + 1, "." if i % 2 == 0 else "...", rec[i].rstrip("+#"))
                    assert c is not None or played in inferred, (n, played, inferred)
                with open(os.path.join(out, "round-4", "board-%d.journal" % n), "rb") as a, \
                        open(os.path.join(usb, "round-4", "board-%d.journal" % n), "rb") as b:
                    assert a.read() == b.read()           # both copies whole again
