"""Push a round's games to a broadcast service (Lichess) from a hall behind NAT.

A relay that polls the round's feed (/feed/<t>/<r>.pgn) needs the event
computer reachable from the internet; most halls are not. The uploader turns
it around: it POSTs the round's PGN to Lichess's broadcast push endpoint,

    POST {base}/api/broadcast/round/{roundId}/push      (text/plain PGN body)
    Authorization: Bearer <token with the study:write scope>

and reads the per-game answer, `{"games": [{"tags": {...}, "moves": N} |
{"tags": {...}, "error": "..."}]}` (lila controllers/RelayRound.push).

How it behaves (docs/broadcast.md, "Pushing to Lichess"):

* It takes the states the public hub accepts (a hub listener), so it lags by
  the event's --delay exactly like the public page and feeds; the arbiter's
  dashboard stays live.
* Each push is the whole of a Lichess round: every game of its board range,
  each written by the feed's one record writer (feeds.record_text: tags with
  the stable GameId, moves with [%clk], result), main line only. A correction
  therefore replaces the main line (no variation is ever sent), a game is
  never sent twice in one push, and nothing is lost while the link is down:
  the latest state of every board is kept and the next push carries it.
* Lichess marks a pushed round finished when every game it is sent has a
  result (lila RelayPush: `finished = games.forall(_.ending.isDefined)`), so a
  push always holds every board of its range; boards without a state yet are
  sent as their pairing with no moves (`placeholder`), never left out.
* Pushes are coalesced: at most one per `window_s` per Lichess round, sent at
  once when the last one is older than the window. A 429 waits for its
  Retry-After (else a full minute, as the Lichess API asks); a 5xx, a timeout
  or a dropped connection backs off 1, 2, 4 ... up to `retry_max_s`.
* A Lichess round shows at most 100 boards and a push takes at most 100
  games (lichess-org/api #500, lila RelayPush): a larger round is split
  across several Lichess rounds by board range (`ID1:1-100,ID2:101-200`).

The uploader is not Lichess-only: a `Target` is any URL taking a POSTed
round record with the same answer, and `fmt="pdn"` pushes a draughts round.
"""
from __future__ import annotations

import argparse
import asyncio
import email.utils
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from flagfall.broadcast import feeds
from flagfall.secretfile import read_secret

if TYPE_CHECKING:       # aiohttp and the hub are imported when a push starts: the command line stays quick
    import aiohttp

    from flagfall.broadcast.hub import Entry, Hub

DEFAULT_BASE_URL = "https://lichess.org"
TOKEN_ENV = "FLAGFALL_LICHESS_TOKEN"
MAX_GAMES = 100                 # games in one push, and boards one Lichess round shows
RATE_LIMITED_WAIT_S = 60.0      # a 429 without Retry-After: "wait a full minute" (Lichess API docs)
ROUND_ID = re.compile(r"[A-Za-z0-9]{8}")

Log = Callable[[str], None]
Placeholder = Callable[[int], Optional[str]]
"""placeholder(board): the record text of a board that has no state yet (its pairing, no moves), or None."""


@dataclass(frozen=True)
class Target:
    """Where one part of the round goes: a push URL and the boards (first..last, inclusive) it takes."""

    name: str           # what the terminal and the dashboard call it (the Lichess round id)
    url: str
    first: int = 1
    last: int = MAX_GAMES

    def holds(self, board: int) -> bool:
        """True if this target takes that board."""
        return self.first <= board <= self.last

    def boards_text(self) -> str:
        """The board range as written on the command line."""
        return "%d-%d" % (self.first, self.last)


def push_url(base_url: str, round_id: str) -> str:
    """Lichess's push endpoint of a broadcast round."""
    return "%s/api/broadcast/round/%s/push" % (base_url.rstrip("/"), round_id)


def lichess_targets(spec: str, base_url: str = DEFAULT_BASE_URL) -> list[Target]:
    """Targets from `ID` (boards 1-100) or `ID1:1-100,ID2:101-200`; ValueError saying what is wrong.

    A Lichess round id is 8 letters or digits; a range spans at most 100 boards (what a Lichess
    round shows); ranges must not overlap.
    """
    from urllib.parse import urlsplit
    parts_url = urlsplit(base_url)
    if parts_url.scheme not in ("http", "https") or not parts_url.hostname:
        raise ValueError("--lichess-url must be an https:// URL (got %r)" % base_url)
    if parts_url.scheme == "http" and parts_url.hostname not in ("127.0.0.1", "localhost", "::1"):
        raise ValueError("--lichess-url %s: the token would travel unencrypted; use https:// (plain http is "
                         "only for a stand-in on this machine)" % base_url)
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
        t = Target(rid, push_url(base_url, rid), first, last)
        for o in out:
            if o.first <= t.last and t.first <= o.last:
                raise ValueError("--lichess-round: boards %s of %s overlap boards %s of %s"
                                 % (t.boards_text(), t.name, o.boards_text(), o.name))
        out.append(t)
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


def retry_after(value: Optional[str], default: float = RATE_LIMITED_WAIT_S) -> float:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date); `default` if absent or unreadable."""
    if not value:
        return default
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return default
    return max(0.0, when.timestamp() - time.time())


@dataclass
class _Part:
    """A target and what is known of it: the body last sent, when, the answer, retries."""

    target: Target
    wake: asyncio.Event
    sent_body: Optional[str] = None
    next_at: float = 0.0            # loop time before which no push is sent (window, Retry-After, backoff)
    failures: int = 0
    pushes: int = 0
    last_push_ms: Optional[int] = None      # epoch ms of the last push Lichess accepted (2xx)
    last_answer: str = "not pushed yet"
    state: str = "waiting"          # waiting | live | offline | rate-limited | refused
    games: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)


class Pusher:
    """Pushes one round (tournament, round) of the hub to its targets; see the module docstring.

    Call attach(hub), then `await start()` on the event loop; `await close()` makes a last push
    of what changed (a few seconds at most) and stops. status() may be called from any thread.
    """

    def __init__(self, targets: Sequence[Target], token: str, tournament: str, round_: str, *,
                 fmt: str = "pgn", window_s: float = 3.0, retry_base_s: float = 1.0, retry_max_s: float = 60.0,
                 timeout_s: float = 30.0, boards: Sequence[int] = (), placeholder: Optional[Placeholder] = None,
                 log: Optional[Log] = None, service: str = "lichess") -> None:
        if fmt not in feeds.FORMATS:
            raise ValueError("a round is pushed as %s, not %r" % (" or ".join(feeds.FORMATS), fmt))
        self.targets = list(targets)
        self.token = token
        self.key = (tournament, str(round_))
        self.fmt = fmt
        self.window_s = window_s
        self.retry_base_s = retry_base_s
        self.retry_max_s = retry_max_s
        self.timeout_s = timeout_s
        self.expected = sorted(set(boards))          # the round's boards of this format (placeholders for the missing)
        self.placeholder = placeholder
        self.log: Log = log or (lambda text: None)
        self.service = service
        self.entries: dict[int, Entry] = {}          # board -> latest accepted entry of the round
        self.parts: list[_Part] = []
        self.session: Optional[aiohttp.ClientSession] = None
        self.tasks: list[asyncio.Task[None]] = []
        self.other_rounds: set[str] = set()          # rounds seen that this pusher does not push (said once)
        self.lock = threading.Lock()
        self.snapshot: dict[str, Any] = {}
        outside = [b for b in self.expected if not any(t.holds(b) for t in self.targets)]
        if outside:
            self.log("%s: boards %s are in no pushed round: give another round for them (ID1:1-100,ID2:101-200)"
                     % (service, _ranges(outside)))

    # -- states in (on the event loop) --------------------------------------

    def attach(self, hub: Hub) -> None:
        """Follow the hub: every state it accepts is offered, and the boards it holds already are taken."""
        for key in hub.matching(*self.key):
            self.offer(hub.boards[key])
        hub.listeners.append(self.offer)

    def offer(self, entry: Entry) -> None:
        """A state the public hub accepted (already delayed): kept as the board's latest, its round woken."""
        t, r, b = entry.key
        if t != self.key[0]:
            return
        if r != self.key[1]:
            if r not in self.other_rounds:
                self.other_rounds.add(r)
                self.log("%s: round %s of %s is not pushed (this push is for round %s; start again with the "
                         "Lichess round of round %s)" % (self.service, r, t, self.key[1], r))
            return
        if feeds.format_for(entry.state["game"]) != self.fmt or not b.isdigit():
            return
        board = int(b)
        self.entries[board] = entry
        for p in self.parts:
            if p.target.holds(board):
                p.wake.set()

    # -- pushing --------------------------------------------------------------

    def body(self, target: Target) -> tuple[str, list[int]]:
        """The record of every game of a target's boards, in board order (at most MAX_GAMES), and the boards."""
        boards = sorted({b for b in self.entries if target.holds(b)} | {b for b in self.expected if target.holds(b)})
        texts: list[str] = []
        sent: list[int] = []
        for b in boards[:MAX_GAMES]:
            e = self.entries.get(b)
            text = e.record(feeds.record_text) if e is not None else (self.placeholder(b) if self.placeholder else None)
            if text:
                texts.append(text)
                sent.append(b)
        return "\n".join(texts), sent

    async def start(self) -> None:
        """Open the HTTP session and start one pushing task per target."""
        import aiohttp
        loop = asyncio.get_running_loop()
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout_s))
        for t in self.targets:
            p = _Part(t, asyncio.Event())
            self.parts.append(p)
            if any(t.holds(b) for b in set(self.entries) | set(self.expected)):
                p.wake.set()
            self.tasks.append(loop.create_task(self._run(p), name="push-%s" % t.name))
        self._snap()

    async def close(self, last_push_s: float = 5.0) -> None:
        """Stop; what changed since the last push is sent once more if the link allows (within last_push_s)."""
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            try:
                await task
            except asyncio.CancelledError:
                pass
        self.tasks = []
        if self.session is not None:
            try:
                await asyncio.wait_for(asyncio.gather(*(self._push(p, final=True) for p in self.parts
                                                        if p.state != "rate-limited")), last_push_s)
            except asyncio.TimeoutError:
                self.log("%s: the last push did not complete within %g s" % (self.service, last_push_s))
            await self.session.close()
            self.session = None

    async def _run(self, p: _Part) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await p.wake.wait()
            wait = p.next_at - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            p.wake.clear()
            await self._push(p)

    async def _push(self, p: _Part, final: bool = False) -> None:
        """One push of the target's whole range if it changed since the last accepted one."""
        import aiohttp
        assert self.session is not None, "start() opens the session"
        loop = asyncio.get_running_loop()
        body, boards = self.body(p.target)
        if not boards or body == p.sent_body:
            return
        try:
            async with self.session.post(p.target.url, data=body.encode("utf-8"), headers={
                    "Authorization": "Bearer " + self.token, "Content-Type": "text/plain; charset=utf-8"}) as r:
                text = await r.text()
                status = r.status
                after = r.headers.get("Retry-After")
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as e:
            if final:
                return
            delay = self._backoff(p)
            if p.state != "offline":
                self.log("%s: round %s unreachable (%s): the latest state is kept and pushed when the link "
                         "returns (next try in %g s)" % (self.service, p.target.name, _reason(e), delay))
            p.state, p.last_answer = "offline", _reason(e)
            self._later(p, loop.time() + delay)
            return
        now = loop.time()
        if 200 <= status < 300:
            if p.state in ("offline", "rate-limited"):
                self.log("%s: round %s reached again: pushed %d games" % (self.service, p.target.name, len(boards)))
            p.failures = 0
            p.sent_body = body
            p.pushes += 1
            p.games = len(boards)
            p.last_push_ms = int(time.time() * 1000)
            p.last_answer = "%d" % status
            self._answer(p, text, boards)
            p.next_at = now + self.window_s
        elif status == 429:
            delay = retry_after(after)
            self.log("%s: round %s: rate limited (429), next push in %g s" % (self.service, p.target.name, delay))
            p.state, p.last_answer = "rate-limited", "429"
            self._later(p, now + delay)
        elif status >= 500:
            delay = self._backoff(p)
            self.log("%s: round %s: server error %d, next push in %g s" % (self.service, p.target.name, status, delay))
            p.state, p.last_answer = "offline", "%d" % status
            self._later(p, now + delay)
        else:
            why = _error_text(text) or text[:200]
            self.log("%s: round %s refused the push (%d): %s%s" % (self.service, p.target.name, status, why,
                                                                  _HINTS.get(status, "")))
            p.state, p.last_answer = "refused", "%d: %s" % (status, why)
            p.sent_body = body          # the same body would be refused again: wait for a change ...
            self._later(p, now + self.retry_max_s)     # ... and at least retry_max_s (the setup may be fixed)
        self._snap()

    def _later(self, p: _Part, when: float) -> None:
        p.next_at = when
        p.wake.set()
        self._snap()

    def _backoff(self, p: _Part) -> float:
        p.failures += 1
        return float(min(self.retry_max_s, self.retry_base_s * 2 ** (p.failures - 1)))

    def _answer(self, p: _Part, text: str, boards: list[int]) -> None:
        """Read the per-game answer; say on the terminal which games are refused (when that changes)."""
        try:
            games = json.loads(text).get("games")
        except (ValueError, AttributeError):
            games = None
        refused: list[dict[str, Any]] = []
        if isinstance(games, list):
            by_id = {self._game_id(b): b for b in boards}
            for i, g in enumerate(games):
                if not isinstance(g, dict) or "error" not in g:
                    continue
                raw = g.get("tags")
                tags: dict[str, Any] = raw if isinstance(raw, dict) else {}
                board = by_id.get(str(tags.get("GameId")), boards[i] if i < len(boards) else None)
                refused.append({"round": p.target.name, "board": board, "game_id": tags.get("GameId"),
                                "white": tags.get("White"), "black": tags.get("Black"), "error": str(g["error"])[:300]})
        old = {(r["board"], r["error"]) for r in p.refused}
        for r in refused:
            if (r["board"], r["error"]) not in old:
                self.log("%s: round %s refused board %s (%s - %s): %s" % (
                    self.service, p.target.name, r["board"], r["white"], r["black"], r["error"]))
        now_refused = {r["board"] for r in refused}
        for board in sorted({r["board"] for r in p.refused} - now_refused, key=lambda x: (x is None, x or 0)):
            self.log("%s: round %s took board %s again" % (self.service, p.target.name, board))
        p.refused = refused
        p.state = "refused" if refused else "live"

    def _game_id(self, board: int) -> str:
        e = self.entries.get(board)
        return str(e.state["tags"].get("GameId")) if e is not None else ""

    # -- for the dashboard and the terminal ----------------------------------

    def _snap(self) -> None:
        rounds = [{"round": p.target.name, "boards": p.target.boards_text(), "state": p.state,
                   "last_push": p.last_push_ms, "last_answer": p.last_answer, "pushes": p.pushes, "games": p.games}
                  for p in self.parts]
        pushed = [p.last_push_ms for p in self.parts if p.last_push_ms is not None]
        snap = {"service": self.service, "last_push": max(pushed) if pushed else None, "rounds": rounds,
                "refused": [r for p in self.parts for r in p.refused]}
        with self.lock:
            self.snapshot = snap

    def status(self) -> dict[str, Any]:
        """For the event's dashboard JSON: {"last_push" (epoch ms), "rounds": [...], "refused": [{board, error, ...}]}."""
        with self.lock:
            copy: dict[str, Any] = json.loads(json.dumps(self.snapshot))
        return copy


_HINTS = {
    401: " (the token is not valid: make one with the study:write scope at lichess.org/account/oauth/token)",
    403: " (the token's account must be a contributor of the broadcast, and the token needs study:write)",
    404: " (no such broadcast round: check the id, the last 8 characters of the round's URL)",
    400: " (a round with a source URL cannot be pushed to: clear the round's source on Lichess)",
}


def _error_text(text: str) -> str:
    try:
        obj = json.loads(text)
    except ValueError:
        return ""
    return str(obj.get("error", ""))[:300] if isinstance(obj, dict) else ""


def _reason(e: BaseException) -> str:
    if isinstance(e, asyncio.TimeoutError):
        return "no answer in time"
    return ("%s: %s" % (type(e).__name__, e))[:200]


def _ranges(boards: Sequence[int]) -> str:
    out: list[str] = []
    for b in boards:
        if out and out[-1].split("-")[-1] == str(b - 1):
            out[-1] = "%s-%d" % (out[-1].split("-")[0], b)
        else:
            out.append(str(b))
    return ", ".join(out)


# -- the command line (flagfall event, flagfall serve) ------------------------

def add_arguments(p: argparse.ArgumentParser) -> None:
    """--lichess-round and the options that go with it."""
    g = p.add_argument_group("pushing to a Lichess broadcast (for a hall the internet cannot reach)")
    g.add_argument("--lichess-round", metavar="ID[:FIRST-LAST],...",
                   help="push the round's games to this Lichess broadcast round (the 8 characters at the end of the "
                        "round's URL; the round must have no source URL). A Lichess round shows at most 100 boards: "
                        "split a larger round by board ranges, ID1:1-100,ID2:101-200. The token (study:write) comes "
                        "from --lichess-token-file or $%s, never the command line" % TOKEN_ENV)
    g.add_argument("--lichess-token-file", metavar="FILE",
                   help="the push token: the first line of FILE (default: $%s)" % TOKEN_ENV)
    g.add_argument("--lichess-url", default=DEFAULT_BASE_URL, metavar="URL",
                   help="the Lichess server (default %s)" % DEFAULT_BASE_URL)
    g.add_argument("--lichess-window", type=float, default=3.0, metavar="SECONDS",
                   help="at most one push per Lichess round in this time; changes in between are sent together "
                        "(default 3)")
    g.add_argument("--lichess-retry-max", type=float, default=60.0, metavar="SECONDS",
                   help="longest wait between tries while Lichess cannot be reached (default 60)")


@dataclass(frozen=True)
class PushSettings:
    """What a push is told, checked: where each part of the round goes, the token, at most one push
    per `window_s` per target, and the longest wait between tries while the service cannot be
    reached. `settings_from_arguments` makes them from --lichess-round and its options."""

    targets: tuple[Target, ...]
    token: str = field(repr=False)
    window_s: float = 3.0
    retry_max_s: float = 60.0

    def pusher(self, tournament: str, round_: str, *, boards: Sequence[int] = (),
               placeholder: Optional[Placeholder] = None, log: Optional[Log] = None) -> Pusher:
        """The pusher of one round (tournament, round_) with these settings."""
        return Pusher(self.targets, self.token, tournament, round_, window_s=self.window_s,
                      retry_max_s=self.retry_max_s, boards=boards, placeholder=placeholder, log=log)


def settings_from_arguments(args: argparse.Namespace) -> PushSettings:
    """The settings --lichess-round and its options ask for (the token read from its file or the
    environment); ValueError saying what is wrong."""
    targets = lichess_targets(args.lichess_round, args.lichess_url)
    if args.lichess_window <= 0 or args.lichess_retry_max <= 0:
        raise ValueError("--lichess-window and --lichess-retry-max must be above 0")
    return PushSettings(tuple(targets), read_token(args.lichess_token_file), window_s=args.lichess_window,
                        retry_max_s=args.lichess_retry_max)


def describe(pusher: Pusher) -> str:
    """One line for the terminal: where the round is pushed."""
    return "%s push: %s" % (pusher.service, ", ".join(
        "boards %s to %s" % (t.boards_text(), t.url) for t in pusher.targets))
