"""A Lichess broadcast round, as a push reaches it (lichess_push.py pushes to it): its API addresses,
the targets of a push (round ids and the board range each takes, from --lichess-round), the push
token, lila's error answers in words, and creating a round of a broadcast tournament once.
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Callable, Optional

from flagcore import VERSION
from flagfall.secretfile import read_secret

DEFAULT_BASE_URL = "https://lichess.org"
TOKEN_ENV = "FLAGFALL_LICHESS_TOKEN"
MAX_GAMES = 100                 # games in one push, and boards one Lichess round shows
USER_AGENT = "Flagfall/%s (broadcast push)" % VERSION
ROUND_ID = re.compile(r"[A-Za-z0-9]{8}")


@dataclass(frozen=True)
class Target:
    """Where one part of the round goes: a push URL and the boards (first..last, inclusive) it takes."""

    name: str           # what the terminal and the dashboard call it (the Lichess round id)
    url: str
    first: int = 1
    last: int = MAX_GAMES
    round_url: Optional[str] = None     # a Lichess round's API address (its .pgn export, /reset); None elsewhere

    def holds(self, board: int) -> bool:
        """True if this target takes that board."""
        return self.first <= board <= self.last

    def boards_text(self) -> str:
        """The board range as written on the command line."""
        return "%d-%d" % (self.first, self.last)


def round_url(base_url: str, round_id: str) -> str:
    """A Lichess broadcast round's API address: + "/push", + "/reset", + ".pgn" (its games)."""
    return "%s/api/broadcast/round/%s" % (base_url.rstrip("/"), round_id)


def push_url(base_url: str, round_id: str) -> str:
    """Lichess's push endpoint of a broadcast round."""
    return round_url(base_url, round_id) + "/push"


def check_base_url(base_url: str) -> None:
    """ValueError unless base_url is an https:// server (plain http only on this machine: a stand-in)."""
    from urllib.parse import urlsplit
    parts_url = urlsplit(base_url)
    if parts_url.scheme not in ("http", "https") or not parts_url.hostname:
        raise ValueError("--lichess-url must be an https:// URL (got %r)" % base_url)
    if parts_url.scheme == "http" and parts_url.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("--lichess-url %s: the token would travel unencrypted; use https:// (plain http is "
                         "only for a stand-in on this machine)" % base_url)


def lichess_targets(spec: str, base_url: str = DEFAULT_BASE_URL) -> list[Target]:
    """Targets from `ID` (boards 1-100) or `ID1:1-100,ID2:101-200`; ValueError saying what is wrong.

    A Lichess round id is 8 letters or digits; a range spans at most 100 boards (what a Lichess
    round shows); ranges must not overlap.
    """
    check_base_url(base_url)
    parts = [p.strip() for p in spec.split(",") if p.strip()]
    if not parts:
        raise ValueError("--lichess-round needs a round id (the 8 characters at the end of the round's URL)")
    out: list[Target] = []
    for part in parts:
        rid, _, rng = part.partition(":")
        if not ROUND_ID.fullmatch(rid):
            raise ValueError("--lichess-round: %r is not a Lichess round id (8 letters or digits, the last part "
                             "of the round's URL)" % rid)
        if rng:
            m = re.fullmatch(r"([0-9]{1,4})-([0-9]{1,4})", rng)
            if not m:
                raise ValueError("--lichess-round: %r: the boards are a range FIRST-LAST, e.g. %s:1-100" % (part, rid))
            first, last = int(m.group(1)), int(m.group(2))
            if not 1 <= first <= last:
                raise ValueError("--lichess-round: %r: the range must go from board 1 or more upwards" % part)
            if last - first + 1 > MAX_GAMES:
                raise ValueError("--lichess-round: %r spans %d boards; a Lichess round shows at most %d: split it, "
                                 "e.g. %s:%d-%d,ID2:%d-%d" % (part, last - first + 1, MAX_GAMES, rid, first,
                                                               first + MAX_GAMES - 1, first + MAX_GAMES,
                                                               min(last, first + 2 * MAX_GAMES - 1)))
        elif len(parts) > 1:
            raise ValueError("--lichess-round: with several rounds give each its boards, e.g. ID1:1-100,ID2:101-200")
        else:
            first, last = 1, MAX_GAMES
        t = Target(rid, push_url(base_url, rid), first, last, round_url(base_url, rid))
        for o in out:
            if o.first <= t.last and t.first <= o.last:
                raise ValueError("--lichess-round: boards %s of %s overlap boards %s of %s"
                                 % (t.boards_text(), t.name, o.boards_text(), o.name))
        out.append(t)
    return out


def round_map(spec: str, base_url: str = DEFAULT_BASE_URL) -> dict[int, tuple[Target, ...]]:
    """Each round's targets from `R=ID[:FIRST-LAST],...;R=...` (--lichess-rounds; the event file's
    `rounds = {1 = "ID", ...}`); ValueError saying what is wrong."""
    out: dict[int, tuple[Target, ...]] = {}
    for part in (p.strip() for p in spec.split(";")):
        if not part:
            continue
        r, eq, ids = part.partition("=")
        if not eq or not r.strip().isdigit() or int(r) < 1:
            raise ValueError("--lichess-rounds: %r: give each round as R=ID (e.g. 1=AbCdEfGh;2=IjKlMnOp)" % part)
        if int(r) in out:
            raise ValueError("--lichess-rounds: round %d is given twice" % int(r))
        try:
            out[int(r)] = tuple(lichess_targets(ids.strip(), base_url))
        except ValueError as e:
            raise ValueError("--lichess-rounds: round %d: %s" % (int(r), str(e).replace("--lichess-round: ", "")))
    if not out:
        raise ValueError("--lichess-rounds: no round given (e.g. 1=AbCdEfGh;2=IjKlMnOp)")
    return out


def read_token(path: Optional[str], environ: Optional[dict[str, str]] = None) -> str:
    """The push token: the first line of `path`, else $FLAGFALL_LICHESS_TOKEN; ValueError if none."""
    env = os.environ if environ is None else environ
    if path:
        return read_secret(path, "Lichess token")
    token = env.get(TOKEN_ENV, "").strip()
    if not token:
        raise ValueError("pushing to Lichess needs a token with the study:write scope (lichess.org/account/oauth/token): "
                         "give it in a file with --lichess-token-file FILE or in $%s (never on the command line)"
                         % TOKEN_ENV)
    return token


ROUNDS_FILE = "lichess-rounds.json"
"""In the out folder: the Lichess rounds made for the event, {tournament id: {round name: round id}}."""


def create_round(base_url: str, token: str, tour_id: str, name: str, out_dir: str, *,
                 timeout_s: float = 30.0, warn: Optional[Callable[[str], object]] = None) -> str:
    """The id of the Lichess round `name` of broadcast tournament `tour_id`, made through Lichess's
    round-creation endpoint (POST {base}/broadcast/{tourId}/new, form field `name`; token with
    study:write) the first time it is asked for, and kept in OUT/lichess-rounds.json so that a
    restart never makes it twice. ValueError (lila's answer, as given) or OSError (no link) if not made.
    A full disk that refuses the file does not lose the round made: its id is returned and `warn` told.
    """
    import urllib.error
    import urllib.parse
    import urllib.request

    from flagfall.bridge.journal import disk_full
    from flagfall.bridge.records import write_atomic
    if not ROUND_ID.fullmatch(tour_id):
        raise ValueError("%r is not a Lichess broadcast tournament id (8 letters or digits, the part of the "
                         "tournament's URL after its name)" % tour_id)
    name = name.strip()
    if not name:
        raise ValueError("a Lichess round needs a name")
    path = os.path.join(out_dir, ROUNDS_FILE)
    try:
        with open(path, encoding="utf-8") as f:
            made: dict[str, dict[str, str]] = json.load(f)
    except FileNotFoundError:
        made = {}
    except ValueError as e:
        raise ValueError("%s cannot be read (%s): it keeps the Lichess rounds already made; mend or remove it"
                         % (path, e)) from None
    known = made.get(tour_id, {}).get(name)
    if known:
        return known
    req = urllib.request.Request(
        "%s/broadcast/%s/new" % (base_url.rstrip("/"), tour_id), method="POST",
        data=urllib.parse.urlencode({"name": name}).encode("ascii"),
        headers={"Authorization": "Bearer " + token, "Accept": "application/json", "User-Agent": USER_AGENT,
                 "Content-Type": "application/x-www-form-urlencoded"})
    try:
        with urllib.request.urlopen(req, timeout=timeout_s) as r:
            answer = json.loads(r.read().decode("utf-8"))
    except urllib.error.HTTPError as e:
        text = e.read().decode("utf-8", "replace")
        raise ValueError("Lichess did not create round %r of broadcast %s (%d): %s%s"
                         % (name, tour_id, e.code, error_text(text) or text[:300],
                            " (no such broadcast tournament, or not yours: check its id)" if e.code == 404
                            else STATUS_HINTS.get(e.code, ""))) from None
    except ValueError as e:
        raise ValueError("Lichess's answer to creating round %r is not JSON (%s)" % (name, e)) from None
    rid = ((answer.get("round") or {}) if isinstance(answer, dict) else {}).get("id")
    if not isinstance(rid, str) or not ROUND_ID.fullmatch(rid):
        raise ValueError("Lichess's answer to creating round %r holds no round id: %s" % (name, str(answer)[:300]))
    made.setdefault(tour_id, {})[name] = rid
    try:
        write_atomic(path, json.dumps(made, indent=1, sort_keys=True) + "\n")
    except OSError as e:
        if not disk_full(e):
            raise
        if warn is not None:
            warn("lichess: round %r of broadcast %s is %s, not kept in %s (%s): a restart before the disk has "
                 "room makes it again unless given as --lichess-rounds" % (name, tour_id, rid, path, e.strerror))
    return rid


STATUS_HINTS = {
    401: " (the token is not valid: make one with the study:write scope at lichess.org/account/oauth/token)",
    403: " (the token's account must be a contributor of the broadcast, and the token needs study:write)",
    404: " (no such broadcast round: check the id, the last 8 characters of the round's URL)",
}


def error_text(text: str) -> str:
    """lila's `{"error": ...}` (a text, or a form's {field: [messages]}) as it gives it; "" if none."""
    try:
        obj = json.loads(text)
    except ValueError:
        return ""
    if not isinstance(obj, dict) or not obj.get("error"):
        return ""
    err = obj["error"]
    if isinstance(err, dict):
        err = "; ".join("%s: %s" % (k, " ".join(map(str, v)) if isinstance(v, list) else v) for k, v in err.items())
    return str(err)[:300]
