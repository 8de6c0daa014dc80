"""The bridge journal: one JSON object per line, appended and fsync'd before it is acted on.

Line 1 is the header ({"k": "header", "v": 2, "game": ..., ...}: everything
needed to rebuild the game). Then inputs, in the order they were processed:

    {"k": "f", "t": ms, "raw": "<wire frame text>"}   a frame from the device
    {"k": "tick", "t": ms}                             a settle evaluation that decided something
    {"k": "op", "t": ms, "cmd": ..., "args": [...]}    an operator command
    {"k": "cmd", "t": ms, "cmd": {...}}                an arbiter command (docs/live-state.md)
    {"k": "link", "t": ms, "state": "up"|"down"}      the connection came and went

and decisions ({"k": "d", ...}) after the input that caused them, written
before the bridge acts on them (record files, clock penalties, broadcast).
Replaying the inputs through the deterministic Game rebuilds the exact
state; the decisions are there for audit and to check the rebuild
(check_decisions). Notes that are not inputs ({"k": "reject"}: a line or
frame from the device that was refused; {"k": "quarantine"}: a journaled
frame the bridge failed on, skipped again on resume; {"k": "refused"}: a
command from the network that was not obeyed; {"k": "arbiter"}: an arbiter's action on the
event dashboard, who, what and its outcome) are passed over by a rebuild.

Integrity (version 2): every line carries "h", the first HASH_LEN hex digits
of SHA-256 over the previous line's "h" and the line's own canonical JSON
(without "h"). load() recomputes the chain: a line whose text was changed, a
line added or removed in the middle, or a line appended by hand is refused
with the line number. The chain finds edits and damage; it is not a
signature (anyone who can write the file can recompute it). The record's path
is stored relative to the journal's folder, so a copied out-folder resumes
into the copy. Version 1 journals (no chain, record path as given) are still
read and appended to without a chain.

A second copy (mirror, `flagfall event --mirror DIR`: another disk or a USB
stick) gets every line too: an entry counts as written once one copy holds
it, a copy the disk refuses is brought up to date from memory when its disk
allows (Journal.problem says so meanwhile), and reconcile() makes both copies
the longer valid one before a resume, so a full or failing disk plus a crash
loses nothing. A copy that cannot be brought up to date at open() (its disk is
still full after the crash), or not even made (a full disk refuses a new file
or folder too), does not stop the journal: the other copy is the one read
(Journal.source) and appended to, and the lines the copy lacks wait in its
backlog until its disk takes them. With no copy open, append() refuses as a
full disk does: the caller keeps the entries and appends them again.

A kill -9 can cut the last line short: load() ignores an incomplete last
line (no newline, or not valid JSON) and truncates it away when the journal
is reopened for appending. A journal cut off further back (a lost tail) is
found by comparing with the record file on disk before it is rewritten
(check_record): the bridge refuses to replace a record that holds more moves.
"""
from __future__ import annotations

import errno
import hashlib
import json
import os
import time
from typing import TYPE_CHECKING, Any, BinaryIO, Iterable, Mapping, Optional, Sequence, Union

if TYPE_CHECKING:
    from flagfall.bridge.decisions import Decision

Entry = dict[str, Any]
"""A journal line as JSON: {"k": kind, ...} (see the module docstring)."""

VERSION = 2
READABLE = (1, 2)
HASH_LEN = 16

# keys (and their types) each kind of line needs to be replayed
NEEDS: dict[str, tuple[tuple[str, Union[type, tuple[type, ...]]], ...]] = {
    "header": (("game", str),),
    "f": (("t", (int, float)), ("raw", str)),
    "tick": (("t", (int, float)),),
    "op": (("t", (int, float)), ("cmd", str)),
    "cmd": (("t", (int, float)), ("cmd", dict)),
    "link": (("t", (int, float)), ("state", str)),
    "d": (("kind", str),),
}
# decisions compared with the rebuild: the ones a record or a clock depends on
CHECKED_DECISIONS = ("move", "takeback", "result", "penalty", "promotion", "adjust", "restart")


class JournalError(ValueError):
    """A journal that cannot be used (missing header, other game, corrupt middle, edited)."""


class CopyRefused(JournalError):
    """reconcile(): the longer valid copy `src` could not be written over `dst` (its disk refuses)."""

    def __init__(self, text: str, src: str, dst: str, why: str) -> None:
        super().__init__(text)
        self.src = src
        self.dst = dst
        self.why = why


DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
"""A disk that has no room (now): the writer keeps what it could not write and tries again."""


def disk_full(err: BaseException) -> bool:
    """True for an OSError saying the disk (or the user's quota) is full."""
    return isinstance(err, OSError) and err.errno in DISK_FULL


def _canonical(obj: object) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def line_hash(prev: str, obj: object) -> str:
    """The chain value of a line: SHA-256 over the previous line's value and this line's JSON (no "h")."""
    return hashlib.sha256((prev + _canonical(obj)).encode()).hexdigest()[:HASH_LEN]


MIRROR_RETRY_S = 2.0       # a copy behind (its disk refused) is written back at most this often


class _Copy:
    """One file of a journal: the journal itself or its mirror; lines it still lacks (its disk refused)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.f: Optional[BinaryIO] = None
        self.backlog: list[tuple[str, bytes]] = []     # ("h", line) written to the other copy only
        self.error: Optional[str] = None
        self.retry_at = 0.0


class Journal:
    """Append-only, fsync'd JSON-lines file, optionally with a second copy (mirror)."""

    def __init__(self, path: str, fsync: bool = True, mirror: Optional[str] = None) -> None:
        self.path = path
        self.mirror = mirror
        self.fsync = fsync
        self.f: Optional[BinaryIO] = None
        self.lines = 0
        self.chain = False      # version 2: every line carries "h"
        self.prev = ""          # "h" of the last line
        self.copies: list[_Copy] = []
        self.note: Optional[str] = None      # open(): which copy was taken, when they differed
        self.problem: Optional[str] = None   # a copy is behind (its disk refuses): why
        self.source = path      # a copy holding every entry (the mirror when the journal's disk refused at open)
        self.new = True         # no entry yet (its first is the header)

    def open(self) -> Journal:
        """Open for appending, dropping a torn last line left by a crash; with a mirror, both copies
        are first made the longer valid one (reconcile). A copy its disk refuses (full: the longer copy
        cannot be written over it, or not even its file or folder can be made) does not stop the journal:
        it is brought up to date from the other copy when its disk takes it; with no copy open, append
        refuses (OSError) until a disk takes the file."""
        refused: Optional[CopyRefused] = None
        if self.mirror:
            try:
                self.note = reconcile(self.path, self.mirror)
            except CopyRefused as e:        # the disk of the shorter copy is full: run on the other one
                refused = e
                self.note = str(e)
        self.copies = [_Copy(p) for p in ([self.path, self.mirror] if self.mirror else [self.path])]
        held: dict[str, bytes] = {}
        shut: dict[str, str] = {}           # copies whose file cannot even be opened (a full disk): why
        for c in self.copies:
            d = os.path.dirname(os.path.abspath(c.path))
            data = b""
            if os.path.exists(c.path):
                with open(c.path, "rb") as f:
                    data = f.read()
            good = _good_length(data)
            held[c.path] = data[:good]
            try:
                c.f = out = _open_append(c.path)
            except OSError as e:
                if not disk_full(e):
                    raise
                shut[c.path] = e.strerror or str(e)
                continue
            if out.tell() != good:
                out.truncate(good)
                out.seek(good)
            if self.fsync:
                _fsync_dir(d)
        if refused is not None:
            self.source = refused.src
        else:                               # the copies agree: one that is open
            self.source = next((c.path for c in self.copies if c.path not in shut), self.path)
        full = held.get(self.source, b"")
        self.new = not full
        self._pick_up(full)
        behind = dict(shut)
        if refused is not None:
            behind.setdefault(refused.dst, refused.why)
        for c in self.copies:
            why = behind.get(c.path)
            if why is None or c.path == self.source:
                continue
            have = held.get(c.path, b"")
            if not full.startswith(have):
                raise JournalError("%s (and it is not a beginning of %s: bring it up to date by hand)"
                                   % (refused or c.path, self.source))
            c.error = "%s (%s)" % (c.path, why)
            c.retry_at = time.monotonic() + MIRROR_RETRY_S
            c.backlog = [(_hash_of(line), line + b"\n") for line in full[len(have):].split(b"\n")[:-1]]
            if c.backlog:
                self.note = "%s lacks %d lines and its disk refuses them (%s): running on %s alone until the " \
                            "disk takes them" % (c.path, len(c.backlog), why, self.source)
        self._say()
        self.f = self.copies[0].f
        return self

    def catch_up(self) -> bool:
        """Write the lines a copy lacks if its disk takes them now (at most every MIRROR_RETRY_S, also
        without a new entry: a game that ended while a disk was full); True when every copy is whole."""
        for c in self.copies:
            if c.backlog:
                self._catch_up(c)
        self._say()
        return self.problem is None

    def _pick_up(self, data: bytes) -> None:
        """Chain mode and last hash of an existing journal."""
        first = data[:data.find(b"\n") + 1] if b"\n" in data else b""
        try:
            head = json.loads(first) if first.strip() else {}
        except ValueError:
            head = {}
        self.chain = isinstance(head, dict) and head.get("k") == "header" and _version(head) >= 2
        if self.chain:
            last = data[data.rfind(b"\n", 0, len(data) - 1) + 1:]
            try:
                self.prev = str(json.loads(last).get("h", ""))
            except (ValueError, AttributeError):
                self.prev = ""

    def append(self, obj: Mapping[str, Any]) -> None:
        """Write one entry and make it durable before returning.

        OSError (a full disk) leaves the file and the chain as they were before the
        call, so the caller can keep the entry and append it again later; ValueError
        if the journal is not open."""
        if not self.copies:
            raise ValueError("the journal %s is not open" % self.path)
        chain, prev = self.chain, self.prev
        if obj.get("k") == "header" and self.new:
            self.chain = _version(obj) >= 2
            self.prev = ""
        if self.chain:
            obj = dict(obj)
            obj.pop("h", None)
            self.prev = line_hash(self.prev, obj)
            obj["h"] = self.prev
        data = (_canonical(obj) + "\n").encode()
        if len(self.copies) < 2:
            c = self.copies[0]
            try:
                self._write(c, data)
            except OSError:
                self.chain, self.prev = chain, prev
                self.f = c.f        # a failed write reopens the file
                raise
            self.f = c.f
            self.lines += 1
            self.new = False
            return
        # a mirror: the entry is written once one copy holds it; a copy that refuses keeps it in its backlog
        err: Optional[OSError] = None
        done = 0
        for c in self.copies:
            if c.backlog and not self._catch_up(c):
                c.backlog.append((self.prev, data))
                continue
            try:
                self._write(c, data)
                done += 1
            except OSError as e:
                err = e
                c.error = "%s (%s)" % (c.path, e.strerror or e)
                c.retry_at = time.monotonic() + MIRROR_RETRY_S
                c.backlog.append((self.prev, data))
        if not done:
            for c in self.copies:       # the caller keeps the entry and appends it again
                c.backlog.pop()
            self.chain, self.prev = chain, prev
            self.f = self.copies[0].f
            raise err or OSError("no copy of the journal %s could be written" % self.path)
        self.f = self.copies[0].f
        self.lines += 1
        self.new = False
        self._say()

    def _write(self, c: _Copy, data: bytes) -> None:
        f = c.f
        if f is None:       # reopened after a failed write, or never opened: its disk refused even the file
            c.f = f = _open_append(c.path)
        pos = f.tell()
        try:
            f.write(data)
            f.flush()
            if self.fsync:
                os.fsync(f.fileno())
        except OSError:
            self._undo(c, pos)
            raise

    def _catch_up(self, c: _Copy) -> bool:
        """Write a copy's backlog (lines the other copy holds); False if its disk still refuses."""
        if time.monotonic() < c.retry_at:
            return False
        c.retry_at = time.monotonic() + MIRROR_RETRY_S
        try:
            if c.f is not None:
                c.f.close()
                c.f = None
            try:
                with open(c.path, "rb") as rf:
                    data = rf.read()
            except FileNotFoundError:       # its disk refused even the file: made now
                data = b""
            good = _good_length(data)
            last = data[data.rfind(b"\n", 0, max(good - 1, 0)) + 1:good] if good else b""
            try:
                have = str(json.loads(last).get("h", "")) if last else ""
            except (ValueError, AttributeError):
                have = ""
            hs = [h for h, _ in c.backlog]
            if have and have in hs:          # a line whose fsync failed may have reached the disk
                del c.backlog[:hs.index(have) + 1]
            c.f = _open_append(c.path)
            if c.f.tell() != good:
                c.f.truncate(good)
                c.f.seek(good)
            while c.backlog:
                self._write(c, c.backlog[0][1])
                c.backlog.pop(0)
        except OSError as e:
            c.error = "%s (%s)" % (c.path, e.strerror or e)
            return False
        c.error = None
        return True

    def _say(self) -> None:
        behind = [c for c in self.copies if c.backlog]
        if not behind:
            self.problem = None
            return
        ok = [c.path for c in self.copies if not c.backlog]
        self.problem = "cannot write the journal copy %s: running on %s alone, which holds every entry; %d " \
                       "lines are written back when the disk allows" % (behind[0].error or behind[0].path,
                                                                          ", ".join(ok), len(behind[0].backlog))

    def _undo(self, c: _Copy, pos: int) -> None:
        # drop what a failed write left behind (a torn line, buffered bytes) so the next append is clean
        try:
            if c.f is not None:
                c.f.close()
        except OSError:
            pass
        c.f = None
        with open(c.path, "r+b") as f:
            f.truncate(pos)
        c.f = open(c.path, "ab")

    def close(self) -> None:
        """Close the file (and its mirror)."""
        for c in self.copies:
            if c.f is not None:
                try:
                    c.f.close()
                except OSError:
                    pass
                c.f = None
        if self.f is not None and not self.copies:
            self.f.close()
        self.f = None


def _valid_lines(path: str) -> Optional[int]:
    """How many lines a journal copy holds if it loads (missing: 0), None if it is damaged."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return 0        # missing, or created by a start whose disk refused even the header
    try:
        _, entries = load(path)
    except (OSError, JournalError):
        return None
    return len(entries) + 1


def reconcile(path: str, mirror: str) -> Optional[str]:
    """Make a journal and its mirror the same: the longer valid copy is written over the other
    (atomically; a copy that is damaged is kept aside as PATH.damaged, never deleted). Returns a note
    when a copy was replaced, None when they agreed (the same bytes: the resume checks the chain).
    JournalError if they differ and neither is valid, or the longer one cannot be written over the
    other (the journal's disk still refuses)."""
    if os.path.exists(path) and os.path.exists(mirror) and os.path.getsize(path) == os.path.getsize(mirror):
        with open(path, "rb") as a, open(mirror, "rb") as b:
            if a.read() == b.read():
                return None          # the same bytes: nothing to choose (the resume checks the chain)
    n_path, n_mirror = _valid_lines(path), _valid_lines(mirror)
    if n_path is None and n_mirror is None:
        raise JournalError("%s and its mirror %s are both damaged" % (path, mirror))
    if n_mirror is not None and (n_path is None or n_mirror > n_path):
        src, dst, n_src, n_dst = mirror, path, n_mirror, n_path
    elif n_path is not None and (n_mirror is None or n_path > n_mirror):
        src, dst, n_src, n_dst = path, mirror, n_path, n_mirror
    else:
        return None
    try:
        if n_dst is None:
            os.replace(dst, dst + ".damaged")
        with open(src, "rb") as f:
            data = f.read()
        good = _good_length(data)
        os.makedirs(os.path.dirname(os.path.abspath(dst)), exist_ok=True)
        tmp = dst + ".tmp"
        with open(tmp, "wb") as out:
            out.write(data[:good])
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, dst)
        _fsync_dir(os.path.dirname(os.path.abspath(dst)))
    except OSError as e:
        try:
            os.remove(dst + ".tmp")       # what a full disk took of it: the room is the disk's again
        except OSError:
            pass
        raise CopyRefused("cannot bring %s up to date from %s (%s): free the disk, or copy it by hand"
                          % (dst, src, e.strerror or e), src, dst, e.strerror or str(e)) from None
    return "%s was %s: taken from %s (%d lines)" % (
        dst, "damaged (kept as %s.damaged)" % dst if n_dst is None else "%d lines" % n_dst, src, n_src)


def _open_append(path: str) -> BinaryIO:
    """A journal copy opened for appending, its folder made first (a full disk may have refused it)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    return open(path, "ab")


def _hash_of(line: bytes) -> str:
    """The chain value ("h") a journal line carries, "" for a version 1 line."""
    try:
        return str(json.loads(line).get("h", ""))
    except (ValueError, AttributeError):
        return ""


def _version(header: Mapping[str, Any]) -> int:
    v = header.get("v")
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _good_length(data: bytes) -> int:
    """Byte length of the journal up to its last complete, valid line."""
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


def load(path: str) -> tuple[Entry, list[Entry]]:
    """(header, entries) of a journal; an incomplete last line is ignored.

    Raises JournalError, naming the line, for a corrupt or edited line (version 2:
    the hash chain), a line without the keys its kind needs, an unknown version.
    A frame followed by a "quarantine" note comes back with "quarantined": why.
    """
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    lines.pop()  # text after the last newline: an unfinished line
    entries: list[Entry] = []
    numbers: list[int] = []
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            if i == len(lines) - 1:
                break   # torn before its newline reached the disk in full
            raise JournalError("%s line %d is not valid JSON" % (path, i + 1))
        if not isinstance(obj, dict):
            raise JournalError("%s line %d is not a JSON object" % (path, i + 1))
        entries.append(obj)
        numbers.append(i + 1)
    if not entries or entries[0].get("k") != "header":
        raise JournalError("%s has no header line" % path)
    header = entries[0]
    v = _version(header)
    if v not in READABLE:
        raise JournalError("%s is journal version %r, this bridge reads %s"
                           % (path, header.get("v"), " and ".join(str(x) for x in READABLE)))
    if v >= 2:
        prev = ""
        for obj, n in zip(entries, numbers):
            h = obj.pop("h", None)
            if h is None:
                raise JournalError("%s line %d has no hash (\"h\"): it was not written by the bridge "
                                   "(added by hand?); refusing to resume from an edited journal" % (path, n))
            if h != line_hash(prev, obj):
                raise JournalError("%s line %d does not match the journal's hash chain: its text was changed, "
                                   "or a line before it was removed or added; refusing to resume from an "
                                   "edited journal" % (path, n))
            prev = h
    for obj, n in zip(entries, numbers):
        k = obj.get("k")
        if not isinstance(k, str):
            raise JournalError("%s line %d has no kind (\"k\")" % (path, n))
        for key, types in NEEDS.get(k, ()):
            if key not in obj:
                raise JournalError("%s line %d: a %r line needs the key %r" % (path, n, k, key))
            if not isinstance(obj[key], types) or isinstance(obj[key], bool):
                raise JournalError("%s line %d: key %r of a %r line has the wrong type (%s)"
                                   % (path, n, key, k, type(obj[key]).__name__))
        if k == "link" and obj["state"] not in ("up", "down"):
            raise JournalError("%s line %d: link state must be up or down" % (path, n))
        if k == "op" and not isinstance(obj.get("args", []), list):
            raise JournalError("%s line %d: key 'args' of an 'op' line must be a list" % (path, n))
    _mark_quarantined(entries)
    return header, entries[1:]


def _mark_quarantined(entries: list[Entry]) -> None:
    """A "quarantine" note names a frame the bridge failed on: mark the frame so the rebuild skips it."""
    for i, e in enumerate(entries):
        if e.get("k") != "quarantine" or not isinstance(e.get("raw"), str):
            continue
        for j in range(i - 1, -1, -1):
            f = entries[j]
            if f.get("k") == "f" and f.get("raw") == e["raw"] and "quarantined" not in f:
                f["quarantined"] = str(e.get("why", "quarantined"))
                break


def command_ids(entries: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """{id: time} of the arbiter commands in a journal's entries that carry an id (a signed MQTT
    command's id is its signature: the set a restarted bridge refuses replays from)."""
    out: dict[str, int] = {}
    for e in entries:
        cmd = e.get("cmd") if e.get("k") == "cmd" else None
        if isinstance(cmd, dict) and isinstance(cmd.get("id"), str):
            out[cmd["id"]] = int(e["t"])
    return out


def record_path(header: Mapping[str, Any], journal_path: str) -> Optional[str]:
    """Where the header's record is: relative to the journal's folder (version 2), as written (version 1)."""
    rec = header.get("record")
    if not rec or not isinstance(rec, str):
        return None
    if _version(header) >= 2 and not os.path.isabs(rec):
        return os.path.join(os.path.dirname(journal_path), rec)
    return rec


def stored_record_path(record: Optional[str], journal_path: Optional[str]) -> Optional[str]:
    """The record's path as a version 2 header stores it: relative to the journal's folder."""
    if not record or not journal_path:
        return record
    try:
        return os.path.relpath(os.path.abspath(record), os.path.dirname(os.path.abspath(journal_path)))
    except ValueError:          # another drive (Windows): keep it absolute
        return os.path.abspath(record)


def check_decisions(entries: Sequence[Mapping[str, Any]], decisions: Iterable[Decision]) -> Optional[str]:
    """None if the journal's decisions (moves, results, penalties...) are the rebuild's, in order, else why not.

    decisions: the rebuilt game's decisions (Game.decisions, decisions.Decision). Only the kinds in
    CHECKED_DECISIONS are compared, from the journal's last restart on; the rebuild
    may hold more (decisions that were never journaled), never different ones.
    """
    journaled: list[tuple[int, Entry]] = []
    for i, e in enumerate(entries):
        if e.get("k") == "d" and e.get("kind") in CHECKED_DECISIONS:
            if e["kind"] == "restart":
                journaled = []
            d = dict(e)
            d["k"] = d.pop("kind")
            d.pop("h", None)
            journaled.append((i + 2, d))
    rebuilt = [json.loads(_canonical(d.as_dict())) for d in decisions if d.kind in CHECKED_DECISIONS]
    pos = 0
    for line, d in journaled:
        want = json.loads(_canonical(d))
        while pos < len(rebuilt) and rebuilt[pos] != want:
            pos += 1
        if pos == len(rebuilt):
            return ("line %d: the journal's decision %s %r is not one the rebuild of its inputs takes "
                    "(the journal was edited, or this bridge decides differently from the one that wrote it)"
                    % (line, d["k"], d.get("text", "")))
        pos += 1
    return None


def record_moves(game_name: str, text: str) -> Optional[int]:
    """The number of moves (minzu: decisions) in a record's text, or None if it cannot be read."""
    from flagfall.games import registry
    try:
        n: Optional[int] = registry.spec(game_name).module().moves_in_record(text)
        return n
    except Exception:        # noqa: BLE001 - any reader error means "cannot tell"
        return None


def check_record(path: Optional[str], game_name: str, new_text: str) -> Optional[str]:
    """Before a resume rewrites the record at path with new_text: JournalError if that loses moves.

    Returns a note (text) when the old record could not be read and was kept
    aside as PATH.before-resume, else None.
    """
    if not path or not os.path.exists(path):
        return None
    with open(path, encoding="utf-8", errors="replace") as f:
        old = f.read()
    if old == new_text:
        return None
    have = record_moves(game_name, old)
    now = record_moves(game_name, new_text)
    if have is None or now is None:
        keep = path + ".before-resume"
        os.replace(path, keep)
        return "the record %s could not be read back; it is kept as %s" % (path, keep)
    if have > now:
        raise JournalError("the record %s holds %d moves but its journal rebuilds only %d: the journal was cut "
                           "off (a lost tail?). Refusing to overwrite the longer record. Restore the whole "
                           "journal, or move the record aside to resume with the %d moves and enter the "
                           "missing ones with `moves ...` once the board is connected" % (path, have, now, now))
    return None


def _fsync_dir(d: str) -> None:
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
