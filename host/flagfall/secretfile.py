"""Secrets kept in files (the arbiter token, the MQTT key and password, the Lichess token): one
reader, so that every command reads them and refuses a bad file the same way."""
from __future__ import annotations


def read_secret(path: str, what: str, *, exact: bool = False) -> str:
    """The first line of the file at `path`: the secret `what` names ("token", "key", ...), without
    its surrounding blanks (exact: only without its line end, for a password that may hold them).

    ValueError saying why for a file that cannot be read or whose first line is empty."""
    try:
        with open(path, encoding="utf-8") as f:
            line = f.readline()
    except OSError as e:
        raise ValueError("cannot read the %s file %s: %s" % (what, path, e.strerror or e)) from None
    text = line.rstrip("\r\n") if exact else line.strip()
    if not text:
        raise ValueError("the %s file %s is empty: put the %s on its first line" % (what, path, what))
    return text
