"""Issue 34: a full disk does not stop the event. The out folder is a small real tmpfs (full_disk.Tmpfs)
filled up mid-round, new files and folders refused too; the event is killed (kill -9) while it is full,
started again while it is still full (with the arbiter token it keeps in the out folder, as a user starts
it), the games end while it is full (the round's files wait), and the disk is freed later. The boards are
`flagfall sim --listen` processes playing a real game; every record is compared, move by move, with what
their players really played.

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
from processes import EventProcess, SimProcess, wait_until
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
        st, reply = ev.act(board, {"action": "enter_moves", "moves": " ".join(missed)})
        if st == 200:
            return len(missed)
        time.sleep(0.2)
    raise AssertionError("the missed moves of board %d were refused: %s" % (board, reply))


@pytest.mark.parametrize("mirrored", [True, False], ids=["mirror", "no-mirror"])
def test_a_full_disk_kill_9_restart_while_full_then_freed(tmp_path, mirrored):
    with Tmpfs(str(tmp_path / "disk"), size_kb=2048) as disk:
        out, usb = os.path.join(disk.path, "out"), str(tmp_path / "usb" / "event")
        # the players begin once the event follows their boards (it starts slowly on a busy machine)
        sims = {n: SimProcess(BUNDLED_CHESS, n, think_ms=900, wait=5.0) for n in BOARDS}
        boards = str(tmp_path / "boards.txt")
        with open(boards, "w") as f:
            f.write("".join("%d %s\n" % (n, s.url) for n, s in sims.items()))
        args = ["--pairings", CSV, "--round", "4", "--boards", boards, "--out", out, "--tc", "5400+30"]
        if mirrored:
            args += ["--mirror", usb]
        ev = EventProcess(*args, token=None)              # its own token, kept in the out folder
        with open(os.path.join(out, "arbiter-token")) as f:
            ev.token = f.read().strip()
        entered = {n: 0 for n in BOARDS}
        try:
            others = [b["board"] for b in ev.dashboard()["boards"] if b["board"] not in BOARDS]
            for n in others:                              # the round's other boards: their players are absent
                st, reply = ev.act(n, {"action": "forfeit", "forfeit": "-/-"})
                assert st == 200, reply
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
            token = ev.token
            ev = EventProcess(*args, token=None)          # started again while it is still full: it comes up
            ev.token = token
            said = "".join(ev.lines)
            assert "token: %s" % os.path.join(out, "arbiter-token") in said, said     # the kept token
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
            for n in BOARDS:          # the games end while the disk is still full: the round's files wait
                st, reply = ev.act(n, {"action": "result", "result": "1/2-1/2"})
                assert st == 200, reply
            seen = _plies(ev.dashboard())
            assert wait_until(lambda: "cannot write round 4's files" in "".join(ev.lines), 15), ev.lines[-5:]
            st, reply = ev.call("api/event/round-files", {})      # the dashboard's "Write round files"
            assert st == 507 and "No space left" in reply["error"], (st, reply)
            disk.free()                                   # the disk has room again: everything is written
            d = ev.wait(lambda d: all(b["alert"] is None for b in d["boards"][:2]), timeout=30)
            assert wait_until(lambda: "round 4 finished: %s" % os.path.join(out, "round-4.pgn") in "".join(ev.lines),
                              15), ev.lines[-5:]
        finally:
            code, stdout, stderr = ev.stop()
            for s in sims.values():
                s.stop()
        assert code == 0, stderr
        assert "Traceback" not in stderr, stderr
        with open(os.path.join(out, "round-4.pgn")) as f:     # the round's file, written once the disk had room
            games = {int(g.headers["Board"]): g for g in iter(lambda: chess.pgn.read_game(f), None)}
        for n in BOARDS:
            path = os.path.join(out, "round-4", "board-%d.pgn" % n)
            rec = record_moves(path)
            # every move played, in order, none invented; with the mirror none needed the arbiter
            assert len(rec) == seen[n] and rec == sims[n].played[:len(rec)], (n, rec, sims[n].played)
            board = games[n].board()
            assert [board.san_and_push(m) for m in games[n].mainline_moves()] == rec
            assert games[n].headers["Result"] == "1/2-1/2"
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


@pytest.mark.parametrize("mirrored", [True, False], ids=["mirror", "no-mirror"])
def test_a_start_on_a_disk_that_refuses_even_new_folders_and_files(tmp_path, monkeypatch, mirrored):
    """A full ext4 or XFS disk refuses a new folder or file too (Tmpfs.fill takes its inodes): the event
    starts on it all the same, the arbiter token shown instead of kept, every board's journal on the
    mirror alone (or in memory), and everything is written to the out folder once its disk has room."""
    import argparse

    from flagfall.bridge import journal as jmod
    from flagfall.commands import event as event_cmd
    from flagfall.event import runner
    from flagfall.tournament import model
    monkeypatch.setattr(jmod, "MIRROR_RETRY_S", 0.0)
    players = [model.Player("P%d" % i) for i in range(4)]
    rnd = model.Round("Club", "Here", None, "300+2", 4, [model.Pairing(1, players[0], players[1]),
                                                         model.Pairing(2, players[2], players[3])])
    with Tmpfs(str(tmp_path / "disk"), size_kb=512) as disk:
        out = os.path.join(disk.path, "out")
        usb = str(tmp_path / "usb") if mirrored else None
        disk.fill()
        with pytest.raises(OSError):
            os.mkdir(out)                                 # the disk refuses a new folder, as a full ext4 does
        token, where = event_cmd.arbiter_token(argparse.Namespace(token_file=None, token=None, out=out))
        assert where.startswith(token) and "not kept" in where and "No space left" in where
        said = []
        ev = runner.Event(rnd, tournament="club", out_dir=out, mirror=usb, log=said.append)
        for b in ev.boards.values():
            b.ensure_engine()
        assert not os.path.exists(out) and all(b.refusal is None for b in ev.boards.values())
        b = ev.board(1)
        b.engine.command(10, {"action": "enter_moves", "moves": "e4 e5 Nf3"})
        assert b.engine.plies() == 3
        problems = ev.storage_problems()
        if mirrored:        # the mirror holds every entry; the out folder's copy is written back later
            assert [e["cmd"]["moves"] for e in jmod.load(b.mirror_path)[1] if e.get("k") == "cmd"] == ["e4 e5 Nf3"]
            assert not os.path.exists(b.journal_path)
            assert "running on %s alone" % b.mirror_path in (b.engine.alert() or ""), b.engine.alert()
        else:               # held in memory, said (every minute by flagfall event)
            assert len(problems) == 2 and all("held in memory" in p and "No space left" in p for p in problems)
        disk.free()
        for _ in range(2):
            for x in ev.boards.values():
                x.step()                                  # no device: the event's loop writes them all the same
                x.engine.tick(10 ** 6)
        assert ev.storage_problems() == [] and all(not x.engine.alert() for x in ev.boards.values())
        for x in ev.boards.values():
            _, entries = jmod.load(x.journal_path)
            assert [e["cmd"]["moves"] for e in entries if e.get("k") == "cmd"] == (["e4 e5 Nf3"] if x is b else [])
            if mirrored:
                with open(x.journal_path, "rb") as f1, open(x.mirror_path, "rb") as f2:
                    assert f1.read() == f2.read()         # both copies whole
        assert record_moves(b.record_path) == ["e4", "e5", "Nf3"]
        ev.stop()


def test_an_empty_token_file_left_by_a_crash_is_replaced(tmp_path):
    """A start whose disk refused the token, killed before removing the empty file it had made (or a
    power cut before the file's text reached the disk), leaves OUT/arbiter-token empty: the next start
    makes a new token and keeps it, instead of refusing to start on every restart."""
    import argparse

    from flagfall.commands import event as event_cmd
    out = tmp_path / "out"
    out.mkdir()
    (out / "arbiter-token").write_text("")
    args = argparse.Namespace(token_file=None, token=None, out=str(out))
    token, where = event_cmd.arbiter_token(args)
    assert where == str(out / "arbiter-token") and len(token) >= 20
    assert (out / "arbiter-token").read_text().strip() == token and (out / "arbiter-token").stat().st_mode & 0o777 == 0o600
    assert event_cmd.arbiter_token(args) == (token, where)        # kept: the next start reads it
