"""Issue 20 item 10: a second journal copy (--mirror): a full or failing disk plus a crash loses nothing."""
import errno
import json
import os

import pytest

from flagfall.bridge import journal as jmod


class FullDisk:
    """os.fsync refusing (ENOSPC) for the files under one folder while `full` is set: a disk that is full."""

    def __init__(self, monkeypatch, folder):
        self.folder = os.path.abspath(folder)
        self.full = False
        self.refused = 0
        real = os.fsync

        def fsync(fd):
            if self.full and os.readlink("/proc/self/fd/%d" % fd).startswith(self.folder + os.sep):
                self.refused += 1
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(fd)
        monkeypatch.setattr(os, "fsync", fsync)


def entries(n, start=0):
    return [{"k": "tick", "t": 1000 + i} for i in range(start, start + n)]


def lines_of(path):
    _, es = jmod.load(path)
    return [e["t"] for e in es]


def test_a_full_disk_then_a_crash_loses_nothing_with_a_mirror(tmp_path, monkeypatch):
    monkeypatch.setattr(jmod, "MIRROR_RETRY_S", 0.0)
    main, usb = str(tmp_path / "disk" / "b.journal"), str(tmp_path / "usb" / "b.journal")
    disk = FullDisk(monkeypatch, str(tmp_path / "disk"))
    j = jmod.Journal(main, mirror=usb).open()
    j.append({"k": "header", "v": 2, "game": "chess"})
    for e in entries(5):
        j.append(e)
    disk.full = True
    for e in entries(20, 5):
        j.append(e)                     # no error: the mirror holds every entry
    assert disk.refused >= 1 and j.problem and "b.journal" in j.problem and "No space left" in j.problem
    assert lines_of(usb) == [1000 + i for i in range(25)] and lines_of(main) == [1000 + i for i in range(5)]
    # kill -9 while the disk is still full: what was held in memory for the journal's disk dies ...
    j.f = None
    j.copies = []
    disk.full = False
    # ... and the restart resumes from the longer valid copy, written back over the shorter one
    note = jmod.reconcile(main, usb)
    assert note and "taken from %s" % usb in note
    assert lines_of(main) == lines_of(usb) == [1000 + i for i in range(25)]
    j = jmod.Journal(main, mirror=usb).open()
    j.append({"k": "tick", "t": 9999})
    j.close()
    assert lines_of(main) == lines_of(usb) and lines_of(main)[-1] == 9999


def test_the_copy_behind_is_written_back_when_its_disk_allows(tmp_path, monkeypatch):
    monkeypatch.setattr(jmod, "MIRROR_RETRY_S", 0.0)
    main, usb = str(tmp_path / "disk" / "b.journal"), str(tmp_path / "usb" / "b.journal")
    disk = FullDisk(monkeypatch, str(tmp_path / "usb"))       # this time the USB stick fails
    j = jmod.Journal(main, mirror=usb).open()
    j.append({"k": "header", "v": 2, "game": "chess"})
    disk.full = True
    for e in entries(10):
        j.append(e)
    assert j.problem and "usb" in j.problem
    disk.full = False
    j.append({"k": "tick", "t": 5000})
    assert j.problem is None
    j.close()
    with open(main, "rb") as a, open(usb, "rb") as b:
        assert a.read() == b.read()
    assert lines_of(usb) == [1000 + i for i in range(10)] + [5000]


def test_both_copies_refusing_raise_and_the_entry_is_written_once_later(tmp_path, monkeypatch):
    monkeypatch.setattr(jmod, "MIRROR_RETRY_S", 0.0)
    main, usb = str(tmp_path / "d" / "disk" / "b.journal"), str(tmp_path / "d" / "usb" / "b.journal")
    disk = FullDisk(monkeypatch, str(tmp_path / "d"))
    j = jmod.Journal(main, mirror=usb).open()
    j.append({"k": "header", "v": 2, "game": "chess"})
    disk.full = True
    with pytest.raises(OSError):
        j.append({"k": "tick", "t": 1})        # the caller (the engine) keeps it in memory, as without a mirror
    disk.full = False
    j.append({"k": "tick", "t": 1})
    j.close()
    assert lines_of(main) == lines_of(usb) == [1]


def test_a_damaged_journal_is_replaced_by_its_valid_mirror_and_kept_aside(tmp_path):
    main, usb = str(tmp_path / "disk" / "b.journal"), str(tmp_path / "usb" / "b.journal")
    j = jmod.Journal(main, mirror=usb).open()
    j.append({"k": "header", "v": 2, "game": "chess"})
    for e in entries(6):
        j.append(e)
    j.close()
    with open(main) as f:
        text = f.read().split("\n")
    text[3] = text[3].replace('"t":1002', '"t":1102')
    with open(main, "w") as f:
        f.write("\n".join(text))
    with pytest.raises(jmod.JournalError):
        jmod.load(main)
    note = jmod.reconcile(main, usb)
    assert "damaged" in note and os.path.exists(main + ".damaged")
    assert lines_of(main) == [1000 + i for i in range(6)]
    # both damaged (differently): refused, nothing overwritten
    for i, p in enumerate((main, usb)):
        with open(p, "a") as f:
            f.write(json.dumps({"k": "tick", "t": i}) + "\n")
    with pytest.raises(jmod.JournalError, match="both damaged"):
        jmod.reconcile(main, usb)


def test_a_restart_while_the_journals_disk_is_still_full_runs_on_the_mirror_and_writes_back_later(tmp_path,
                                                                                                    monkeypatch):
    """Issue 34: the shorter copy cannot be brought up to date at open() (its disk is still full after a
    kill -9): the journal opens anyway, reads from the mirror, appends to it alone, and writes the lines
    the other copy lacks once its disk takes them, also with no new entry."""
    monkeypatch.setattr(jmod, "MIRROR_RETRY_S", 0.0)
    main, usb = str(tmp_path / "disk" / "b.journal"), str(tmp_path / "usb" / "b.journal")
    disk = FullDisk(monkeypatch, str(tmp_path / "disk"))
    j = jmod.Journal(main, mirror=usb).open()
    j.append({"k": "header", "v": 2, "game": "chess"})
    for e in entries(4):
        j.append(e)
    disk.full = True
    for e in entries(6, 4):
        j.append(e)
    j.f, j.copies = None, []                  # kill -9 with the disk still full
    with pytest.raises(jmod.CopyRefused):
        jmod.reconcile(main, usb)             # the longer copy cannot be written over the shorter one
    j = jmod.Journal(main, mirror=usb).open()
    assert j.source == usb and "running on %s alone" % usb in j.note and "lacks 6 lines" in j.note
    assert j.problem and "No space left" in j.problem and "running on %s alone" % usb in j.problem
    assert not os.path.exists(main + ".tmp")  # what the refused copy took of the full disk is given back
    _, es = jmod.load(j.source)
    assert [e["t"] for e in es] == [1000 + i for i in range(10)]
    j.append({"k": "tick", "t": 7777})
    assert lines_of(usb)[-1] == 7777 and lines_of(main) == [1000 + i for i in range(4)]
    disk.full = False
    assert j.catch_up() and j.problem is None  # no new entry needed
    j.close()
    with open(main, "rb") as a, open(usb, "rb") as b:
        assert a.read() == b.read()
    assert lines_of(main) == [1000 + i for i in range(10)] + [7777]
