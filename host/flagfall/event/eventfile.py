"""The event file: a whole event in one TOML file, in the sections of `flagfall event --help`.

    [tournament]          name, site, date, slug, game, time-control, laws, penalties, ...
    [pairings]            file, round, from-games
    [boards]              map (a boards file or "auto") or sim, autoplay, speed, think, seed
    [web]                 host, port, delay, frame-ancestors, token-file
    [storage]             out, mirror
    [mqtt]                url, password-file, ca, key-file
    [lichess]             round, token-file, url, window, retry-max

Each key is one option of `flagfall event` (`Sections` records which, as the options are added to
their --help group), so the file and the command line cannot drift apart. The file's values are
the parser's defaults: a flag on the command line overrides the file. Secrets never go in the file
(a token, a password in a broker URL): it names the files they are in. Relative paths are taken
from the event file's folder. `dump` writes the file that a set of options means
(`flagfall event --print-config`). docs/event.md walks through it section by section.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

if sys.version_info >= (3, 11):
    import tomllib
else:   # pragma: no cover - the host needs Python 3.11 (pyproject.toml)
    raise ImportError("the event file needs Python 3.11 or newer (tomllib)")


class EventFileError(ValueError):
    """A mistake in an event file, with where it is: 'FILE:LINE: [section] key: what is wrong'."""


@dataclass
class Option:
    """One key of a section: the option it sets (argparse `dest`), its flag, and how its value reads."""
    section: str
    key: str
    action: argparse.Action
    path: bool = False          # a file or folder: relative to the event file's folder
    default: Any = None         # the option's own default (the file's values become the parser's)
    table: bool = False         # the file may give a table {K = "V", ...}: the option's "K=V;K=V" text


@dataclass
class Sections:
    """The event file's sections, built with the command's options: `section(...)` gives the
    --help group that a section's options are added to, and records each option's key."""
    parser: argparse.ArgumentParser
    options: dict[tuple[str, str], Option] = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)

    def section(self, name: str, title: str, prefix: str = "") -> Section:
        """The [name] section: a --help group titled `title`. A key is its option's flag without
        `prefix` (--lichess-window in [lichess] is `window`) unless given."""
        self.titles[name] = title
        return Section(self, name, self.parser.add_argument_group("[%s] %s" % (name, title)), prefix)

    def by_dest(self) -> dict[str, Option]:
        """Each option of the file by its argparse dest."""
        return {o.action.dest: o for o in self.options.values()}


class Section:
    """One section's --help group: add_argument as on a parser, plus key= (the key in the file, when
    not the flag's name), path=True (relative to the file's folder) and in_file=False (a secret or a
    one-off: the command line only)."""

    def __init__(self, sections: Sections, name: str, group: Any, prefix: str) -> None:
        self.sections = sections
        self.name = name
        self.group = group
        self.prefix = prefix

    def add_argument(self, *flags: str, key: Optional[str] = None, path: bool = False, in_file: bool = True,
                     table: bool = False, **kwargs: Any) -> argparse.Action:
        action: argparse.Action = self.group.add_argument(*flags, **kwargs)
        path = path or str(action.metavar).split("|")[0] in ("FILE", "DIR", "PATH")
        if in_file:
            long = [f for f in flags if f.startswith("--")][0][2:]
            k = key or (long[len(self.prefix):] if self.prefix and long.startswith(self.prefix) else long)
            self.sections.options[(self.name, k)] = Option(self.name, k, action, path, action.default, table)
        return action


def _key_line(text: str, section: str, key: Optional[str] = None) -> int:
    """The line of `key` in [section] (of the section's header without a key), else 1."""
    current = ""
    header = 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = re.match(r"\[\s*([^\]]+?)\s*\]", line)
        if m and not line.startswith("[["):
            current = m.group(1).strip().strip('"')
            if current == section:
                header = n
            continue
        if current == section and key is not None:
            m = re.match(r"""("?)([A-Za-z0-9_\-]+)\1\s*=""", line)
            if m and m.group(2) == key:
                return n
    return header or 1


def _value(o: Option, v: Any, base: str) -> Any:
    """The option's value from the file's `v`, converted and checked as the command line would."""
    a = o.action
    if a.nargs == 0:            # a switch (store_true)
        if not isinstance(v, bool):
            raise ValueError("must be true or false (got %s)" % _toml(v))
        return v
    if o.table and isinstance(v, dict):
        if not all(isinstance(x, str) for x in v.values()):
            raise ValueError("must be a table of texts in quotes, {1 = \"...\", ...}")
        v = ";".join("%s=%s" % kv for kv in v.items())
    if isinstance(v, bool) or isinstance(v, (dict, list)):
        raise ValueError("must be %s (got %s)" % (_kind(a), _toml(v)))
    conv = a.type
    if conv is int:
        if not isinstance(v, int):
            raise ValueError("must be a whole number (got %s)" % _toml(v))
    elif conv is float:
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError("must be a number (got %s)" % _toml(v))
        v = float(v)
    elif isinstance(v, datetime.date) and not isinstance(v, datetime.datetime):
        v = v.isoformat()           # date = 2026-11-26, a TOML date
    elif not isinstance(v, str):
        raise ValueError("must be text in quotes (got %s)" % _toml(v))
    elif callable(conv):
        v = conv(v)
    if a.choices is not None and v not in a.choices:
        raise ValueError("must be one of %s (got %s)" % (", ".join(map(str, a.choices)), _toml(v)))
    if o.path and isinstance(v, str) and v != "auto" and not os.path.isabs(v):
        v = os.path.normpath(os.path.join(base, os.path.expanduser(v)))
    return v


def _kind(a: argparse.Action) -> str:
    return "a whole number" if a.type is int else "a number" if a.type is float else "text in quotes"


def load(path: str, sections: Sections) -> dict[str, Any]:
    """The options (argparse dest -> value) an event file sets; EventFileError saying where and why
    for a file that cannot be read, is not TOML, or has an unknown key, a value of the wrong kind
    or a secret."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise EventFileError("%s: cannot read the event file: %s" % (path, e.strerror or e)) from None
    try:
        text = raw.decode("utf-8")
        data = tomllib.loads(text)
    except UnicodeDecodeError as e:
        raise EventFileError("%s: not UTF-8 text (byte %d)" % (path, e.start)) from None
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        where = "%s:%s:%s" % (path, m.group(1), m.group(2)) if m else path
        raise EventFileError("%s: not a TOML file: %s" % (where, re.sub(r"\s*\(at line.*\)", "", str(e)))) from None
    base = os.path.dirname(os.path.abspath(path))
    out: dict[str, Any] = {}
    for name, table in data.items():
        if not isinstance(table, dict):
            raise EventFileError("%s:%d: %s is outside any section: put it under its [section] (sections: %s)"
                                 % (path, _key_line(text, "", name), name, ", ".join(sections.titles)))
        if name not in sections.titles:
            raise EventFileError("%s:%d: [%s] is not a section of an event file (sections: %s)"
                                 % (path, _key_line(text, name), name, ", ".join(sections.titles)))
        for key, v in table.items():
            line = _key_line(text, name, key)
            o = sections.options.get((name, key))
            if o is None:
                keys = sorted(k for s, k in sections.options if s == name)
                secret = " (secrets stay out of the file: give token-file)" if key in ("token", "password") else ""
                raise EventFileError("%s:%d: [%s] %s is not a key of this section%s (its keys: %s)"
                                     % (path, line, name, key, secret, ", ".join(keys)))
            try:
                value = _value(o, v, base)
            except (ValueError, TypeError, argparse.ArgumentTypeError) as e:
                raise EventFileError("%s:%d: [%s] %s %s" % (path, line, name, key, e)) from None
            if isinstance(value, str) and re.match(r"mqtts?://[^/@]*:[^/@]*@", value):
                raise EventFileError("%s:%d: [%s] %s holds a password: put it in a file and name it with "
                                     "password-file (secrets stay out of the event file)" % (path, line, name, key))
            out[o.action.dest] = value
    return out


def _toml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)     # a TOML basic string (the same escapes)
    return "a %s" % ("table" if isinstance(v, dict) else "list")


def _bare(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml(key)


def dump(args: argparse.Namespace, sections: Sections, *, header: str = "") -> str:
    """The event file that `args` mean: every option of the file that is set (not None, not False,
    not its default) in its section, defaults left out; secrets are never in `sections`."""
    lines = [header] if header else []
    for name, title in sections.titles.items():
        rows = []
        for (s, key), o in sections.options.items():
            if s != name:
                continue
            v = getattr(args, o.action.dest, None)
            if v is None or v is False or v == o.default:
                continue
            if o.path and isinstance(v, str) and v != "auto":
                v = os.path.abspath(v)
            if o.table and isinstance(v, str) and "=" in v:
                pairs = [p.partition("=") for p in v.split(";") if p.strip()]
                v_text = "{%s}" % ", ".join("%s = %s" % (_bare(k.strip()), _toml(x.strip())) for k, _, x in pairs)
                rows.append("%s = %s" % (key, v_text))
                continue
            rows.append("%s = %s" % (key, _toml(v)))
        if rows:
            lines += ["", "[%s]   # %s" % (name, title)] + rows
    return "\n".join(lines).lstrip("\n") + "\n"
