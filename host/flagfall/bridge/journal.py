"""The bridge journal: one JSON object per line, appended and fsync'd before it is acted on.

Line 1 is the header ({"k": "header", "v": 1, "game": ..., ...}: everything
needed to rebuild the game). Then inputs, in the order they were processed:

    {"k": "f", "t": ms, "raw": "<wire frame text>"}   a frame from the device
    {"k": "tick", "t": ms}                             a settle evaluation that decided something
    {"k": "op", "t": ms, "cmd": ..., "args": [...]}    an operator command
    {"k": "link", "t": ms, "state": "up"|"down"}      the connection came and went

and decisions ({"k": "d", ...}) after the input that caused them, written
before the bridge acts on them (record files, clock penalties, broadcast).
Replaying the inputs through the deterministic Game rebuilds the exact
state; the decisions are there for audit and to check the rebuild.

A kill -9 can cut the last line short: load() ignores an incomplete last
line (no newline, or not valid JSON) and truncates it away when the journal
is reopened for appending.
"""
import json
import os

VERSION = 1


class JournalError(ValueError):
    """A journal that cannot be used (missing header, other game, corrupt middle)."""


class Journal:
    """Append-only, fsync'd JSON-lines file."""

    def __init__(self, path, fsync=True):
        self.path = path
        self.fsync = fsync
        self.f = None
        self.lines = 0

    def open(self):
        """Open for appending, dropping a torn last line left by a crash."""
        d = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(d, exist_ok=True)
        good = _good_length(self.path) if os.path.exists(self.path) else 0
        self.f = open(self.path, "ab")
        if self.f.tell() != good:
            self.f.truncate(good)
            self.f.seek(good)
        if self.fsync:
            _fsync_dir(d)
        return self

    def append(self, obj):
        """Write one entry and make it durable before returning.

        OSError (a full disk) leaves the file as it was before the call, so the
        caller can keep the entry and append it again later."""
        data = (json.dumps(obj, separators=(",", ":"), sort_keys=True) + "\n").encode()
        pos = self.f.tell()
        try:
            self.f.write(data)
            self.f.flush()
            if self.fsync:
                os.fsync(self.f.fileno())
        except OSError:
            self._undo(pos)
            raise
        self.lines += 1

    def _undo(self, pos):
        # drop what a failed write left behind (a torn line, buffered bytes) so the next append is clean
        try:
            self.f.close()
        except OSError:
            pass
        with open(self.path, "r+b") as f:
            f.truncate(pos)
        self.f = open(self.path, "ab")

    def close(self):
        """Close the file."""
        if self.f is not None:
            self.f.close()
            self.f = None


def _good_length(path):
    """Byte length of the journal up to its last complete, valid line."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.rfind(b"\n") + 1
    # a line torn mid-write is either missing its newline or not valid JSON
    while end > 0:
        start = data.rfind(b"\n", 0, end - 1) + 1
        try:
            json.loads(data[start:end])
            break
        except ValueError:
            end = start
    return end


def load(path):
    """(header, entries) of a journal; an incomplete last line is ignored."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    torn = lines.pop()  # text after the last newline: an unfinished line
    entries = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            entries.append(json.loads(line))
        except ValueError:
            if i == len(lines) - 1:
                break   # torn before its newline reached the disk in full
            raise JournalError("%s line %d is not valid JSON" % (path, i + 1))
    del torn
    if not entries or entries[0].get("k") != "header":
        raise JournalError("%s has no header line" % path)
    if entries[0].get("v") != VERSION:
        raise JournalError("%s is journal version %r, this bridge reads %d" % (path, entries[0].get("v"), VERSION))
    return entries[0], entries[1:]


def _fsync_dir(d):
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
