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
  the stable GameId, moves with [%clk], WhiteClock/BlackClock while the game
  is in progress, result), main line only, each game once, in bodies of at
  most MAX_BODY_BYTES (lila's body limit; a larger round goes as several
  bodies, after the first push only those holding a change). Nothing is lost
  while the link is down: the latest state of every board is kept and the
  next push carries it.
* Lichess deletes no move it was given, so a correction (a board's moves no
  longer continuing what Lichess accepted) empties the Lichess round
  (POST .../reset) and pushes it whole. Before its first push the uploader
  reads what the round holds (.../{id}.pgn) and pushes nothing to a round
  holding another round's games.
* Lichess marks a pushed round finished when every game it is sent has a
  result (and, in today's lila RelayPush, every game the round holds), so a
  push holds every board of its range when it fits one body; boards without a
  state yet are sent as their pairing with no moves (`placeholder`), never
  left out.
* Pushes are coalesced: at most one per `window_s` per Lichess round, sent at
  once when the last one is older than the window. A 429 waits for its
  Retry-After (else a full minute, as the Lichess API asks); a 5xx, a timeout
  or a dropped connection backs off 1, 2, 4 ... up to `retry_max_s`.
* A Lichess round shows at most 100 boards and a push takes at most 100
  games (lichess-org/api #500, lila RelayPush): a larger round is split
  across several Lichess rounds by board range (`ID1:1-100,ID2:101-200`).

The uploader is not Lichess-only: a `Target` is any URL taking a POSTed
round record with the same answer, and `fmt="pdn"` pushes a draughts round.
The Lichess round itself (its addresses, the targets a --lichess-round names,
the token, creating a round) is lichess_round.py's.
"""
from __future__ import annotations

import argparse
import asyncio
import email.utils
import json
import re
import threading
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Sequence

from flagfall.broadcast import feeds
from flagfall.broadcast.lichess_round import (DEFAULT_BASE_URL, MAX_GAMES, ROUND_ID, STATUS_HINTS, TOKEN_ENV, USER_AGENT,
                                              Target, check_base_url, error_text, lichess_targets, read_token,
                                              round_map)

if TYPE_CHECKING:       # aiohttp and the hub are imported when a push starts: the command line stays quick
    import aiohttp

    from flagfall.broadcast.hub import Entry, Hub

MAX_BODY_BYTES = 512 * 1024     # lila's play.http.parser.maxMemoryBuffer (conf/base.conf): a bigger body gets 413
DEFAULT_WINDOW_S = 1.5          # at most one push per Lichess round in this time: a move is on Lichess within it
RATE_LIMITED_WAIT_S = 60.0      # a 429 without Retry-After: "wait a full minute" (Lichess API docs)
Log = Callable[[str], None]
Placeholder = Callable[[int], Optional[str]]
"""placeholder(board): the record text of a board that has no state yet (its pairing, no moves), or None."""


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
    """A target and what is known of it: what Lichess holds of each board, when, the answer, retries."""

    target: Target
    wake: asyncio.Event
    sent: dict[int, str] = field(default_factory=dict)      # board -> record text the service accepted
    sent_moves: dict[int, tuple[str, list[str]]] = field(default_factory=dict)   # board -> (GameId, moves) accepted
    held: Optional[dict[int, str]] = None   # the texts of a push refused as a whole: not sent again unchanged
    max_bytes: int = MAX_BODY_BYTES         # the largest body sent (lowered by a server's 413)
    checked: bool = False                   # what the Lichess round already holds has been read
    blocked: Optional[str] = None           # why nothing is pushed to this round at all (another round's games)
    too_big: set[int] = field(default_factory=set)     # boards whose one record is over max_bytes (said once)
    next_at: float = 0.0            # loop time before which no push is sent (window, Retry-After, backoff)
    failures: int = 0
    pushes: int = 0
    resets: int = 0
    last_push_ms: Optional[int] = None      # epoch ms of the last push Lichess accepted (2xx)
    last_answer: str = "not pushed yet"
    state: str = "waiting"          # waiting | live | offline | rate-limited | refused
    games: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    push_error: Optional[str] = None        # an error the service gave for the push as a whole (not one game)


class _Unreachable(Exception):
    """The service could not be reached (or answered 5xx / 429): the push is tried again later."""


class Pusher:
    """Pushes one round (tournament, round) of the hub to its targets; see the module docstring.

    Call attach(hub), then `await start()` on the event loop; `await close()` makes a last push
    of what changed (a few seconds at most) and stops. status() may be called from any thread.
    `other_boards` are the round's boards of a game this service does not take (board -> game):
    a round made only of those is refused here, with a ValueError saying why.
    """

    def __init__(self, targets: Sequence[Target], token: str, tournament: str, round_: str, *,
                 fmt: str = "pgn", window_s: float = DEFAULT_WINDOW_S, retry_base_s: float = 1.0,
                 retry_max_s: float = 60.0, timeout_s: float = 30.0, boards: Sequence[int] = (),
                 placeholder: Optional[Placeholder] = None, log: Optional[Log] = None, service: str = "lichess",
                 other_boards: Optional[Mapping[int, str]] = None) -> None:
        if fmt not in feeds.FORMATS:
            raise ValueError("a round is pushed as %s, not %r" % (" or ".join(feeds.FORMATS), fmt))
        others = dict(other_boards or {})
        if others and not boards:
            games = "/".join(sorted(set(others.values())))
            feed = ({feeds.format_for(g) for g in others.values()} & set(feeds.FORMATS)) - {fmt}
            raise ValueError("%s: round %s of %s is a %s round (boards %s): a Lichess broadcast takes chess games "
                             "only, so there is nothing to push to it; start the event without the Lichess round%s"
                             % (service, round_, tournament, games, _ranges(sorted(others)),
                                "".join(" (its feed is /feed/%s/%s.%s)" % (tournament, round_, f) for f in feed)))
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
        if others:
            self.log("%s: boards %s (%s) are not pushed: a Lichess broadcast takes chess games only"
                     % (service, _ranges(sorted(others)), "/".join(sorted(set(others.values())))))
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

    def texts(self, target: Target) -> list[tuple[int, str]]:
        """(board, record text) of every game of a target's boards, in board order, at most MAX_GAMES."""
        boards = sorted({b for b in self.entries if target.holds(b)} | {b for b in self.expected if target.holds(b)})
        out: list[tuple[int, str]] = []
        for b in boards[:MAX_GAMES]:
            e = self.entries.get(b)
            text = e.record(feeds.record_text) if e is not None else (self.placeholder(b) if self.placeholder else None)
            if text:
                out.append((b, text))
        return out

    async def start(self) -> None:
        """Open the HTTP session and start one pushing task per target."""
        import aiohttp
        loop = asyncio.get_running_loop()
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout_s),
                                             headers={"User-Agent": USER_AGENT})
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
                                                        if p.state != "rate-limited" and p.checked
                                                        and not p.blocked)), last_push_s)
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
            if p.blocked:
                continue
            await self._push(p)

    async def _request(self, method: str, url: str, body: Optional[bytes] = None) -> tuple[int, str, Optional[str]]:
        """(status, text, Retry-After) of one request with the token; aiohttp's errors pass through."""
        assert self.session is not None, "start() opens the session"
        headers = {"Authorization": "Bearer " + self.token}
        if body is not None:
            headers["Content-Type"] = "text/plain; charset=utf-8"
        async with self.session.request(method, url, data=body, headers=headers) as r:
            return r.status, await r.text(), r.headers.get("Retry-After")

    async def _push(self, p: _Part, final: bool = False) -> None:
        """Push what changed of the target's boards: the whole range in one body when it fits."""
        import aiohttp
        loop = asyncio.get_running_loop()
        items = self.texts(p.target)
        current = dict(items)
        if not items or current == p.sent or current == p.held:
            return
        try:
            if not p.checked:
                await self._check_round(p, items)
                if p.blocked:
                    self._snap()
                    return
            if p.sent_moves and self._corrected(p, items) and p.target.round_url:
                await self._reset(p)
            for chunk in self._to_send(p, items):
                await self._send(p, chunk, final)
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as e:
            if final:
                return
            delay = self._backoff(p)
            if p.state != "offline":
                self.log("%s: round %s unreachable (%s): the latest state is kept and pushed when the link "
                         "returns (next try in %g s)" % (self.service, p.target.name, _reason(e), delay))
            p.state, p.last_answer = "offline", _reason(e)
            self._later(p, loop.time() + delay)
        except _Unreachable:
            pass            # said, and the next try planned, where it was met
        self._snap()

    def _to_send(self, p: _Part, items: list[tuple[int, str]]) -> list[list[tuple[int, str]]]:
        """The bodies of this push: the whole range when it fits in one, else the parts holding a change."""
        chunks: list[list[tuple[int, str]]] = [[]]
        size = 0
        for b, text in items:
            n = len(text.encode("utf-8")) + 1
            if n > p.max_bytes:
                if b not in p.too_big:
                    p.too_big.add(b)
                    self.log("%s: round %s: board %d's record is %d KiB, over the %d KiB a push may hold: it is "
                             "not pushed" % (self.service, p.target.name, b, n // 1024, p.max_bytes // 1024))
                continue
            if size + n > p.max_bytes or len(chunks[-1]) >= MAX_GAMES:
                chunks.append([])
                size = 0
            chunks[-1].append((b, text))
            size += n
        chunks = [c for c in chunks if c]
        if len(chunks) == 1:
            return chunks
        return [c for c in chunks if any(p.sent.get(b) != text for b, text in c)]

    def _corrected(self, p: _Part, items: list[tuple[int, str]]) -> list[int]:
        """The boards whose moves no longer continue what the service holds (a correction, a restart)."""
        out = []
        for b, _ in items:
            e = self.entries.get(b)
            old = p.sent_moves.get(b)
            if e is None or old is None:
                continue
            gid, moves = str(e.state["tags"].get("GameId", "")), list(e.state["moves"])
            if gid == old[0] and moves[:len(old[1])] != old[1]:
                out.append(b)
        return out

    async def _reset(self, p: _Part) -> None:
        """Empty the Lichess round (lila keeps every move it was given: a corrected line would stay as a
        variation), so that the push that follows sends it whole."""
        assert p.target.round_url, "only a Lichess round is reset"
        boards = self._corrected(p, self.texts(p.target))
        status, text, _ = await self._request("POST", p.target.round_url + "/reset")
        if 200 <= status < 300:
            p.resets += 1
            p.sent, p.sent_moves = {}, {}
            self.log("%s: round %s emptied and pushed whole: the moves of board %s were corrected, and Lichess "
                     "keeps every move it was given" % (self.service, p.target.name, _ranges(boards)))
        else:
            why = error_text(text) or text[:200]
            self.log("%s: round %s could not be emptied after a correction on board %s (%d: %s): Lichess keeps the "
                     "old moves as a variation" % (self.service, p.target.name, _ranges(boards), status, why))
            for b in boards:            # said once: the old line stays; what is pushed now continues the new one
                p.sent_moves.pop(b, None)

    async def _check_round(self, p: _Part, items: list[tuple[int, str]]) -> None:
        """Before the first push: refuse a Lichess round that holds another round's games."""
        if not p.target.round_url:
            p.checked = True
            return
        status, text, _ = await self._request("GET", p.target.round_url + ".pgn")
        if status >= 500:
            self._server_error(p, status)
            raise _Unreachable()
        p.checked = True
        if status == 404:
            return          # the push says it, with what to do
        if status != 200:
            self.log("%s: could not read what round %s holds (%d: %s); pushing to it anyway"
                     % (self.service, p.target.name, status, error_text(text) or text[:200]))
            return
        from flagfall.games import chess as pgn
        ours = [_tags(t) for _, t in items]
        held = [g.tags for g in pgn.read_games(text)]
        # a new round's one empty chapter has no players: not a game
        foreign = [t for t in held if (t.get("White") or t.get("Black")) and not any(_same_game(t, o) for o in ours)]
        if not foreign:
            return
        names = ", ".join("%s - %s" % (t.get("White", "?"), t.get("Black", "?")) for t in foreign[:3])
        p.blocked = ("round %s already holds %d game%s that %s not round %s's (%s%s): it is another round's Lichess "
                     "round. Nothing is pushed to it: give round %s's own Lichess round (or empty this one on "
                     "Lichess first)" % (p.target.name, len(foreign), "s" if len(foreign) > 1 else "",
                                         "are" if len(foreign) > 1 else "is", self.key[1], names,
                                         ", ..." if len(foreign) > 3 else "", self.key[1]))
        self.log("%s: %s" % (self.service, p.blocked))
        p.state, p.last_answer = "refused", p.blocked

    async def _send(self, p: _Part, chunk: list[tuple[int, str]], final: bool) -> None:
        """One POST of these games; raises _Unreachable (after planning the next try) if it did not get through."""
        loop = asyncio.get_running_loop()
        body = "\n".join(t for _, t in chunk)
        boards = [b for b, _ in chunk]
        data = body.encode("utf-8")
        status, text, after = await self._request("POST", p.target.url, data)
        now = loop.time()
        if 200 <= status < 300:
            if p.state in ("offline", "rate-limited"):
                self.log("%s: round %s reached again: pushed %d games" % (self.service, p.target.name, len(boards)))
            p.failures = 0
            p.last_answer = "%d" % status
            self._answer(p, text, chunk)
            if p.push_error:            # taken as a whole by nobody: the same texts wait for a change
                p.held = dict(self.texts(p.target))
                self._later(p, now + self.retry_max_s)
                raise _Unreachable()
            p.held = None
            for b, t in chunk:
                p.sent[b] = t
                e = self.entries.get(b)
                if e is not None:
                    p.sent_moves[b] = (str(e.state["tags"].get("GameId", "")), list(e.state["moves"]))
            p.pushes += 1
            p.games = len(p.sent)
            p.last_push_ms = int(time.time() * 1000)
            p.next_at = now + self.window_s
            return
        if final:
            raise _Unreachable()
        if status == 429:
            delay = retry_after(after)
            self.log("%s: round %s: rate limited (429), next push in %g s" % (self.service, p.target.name, delay))
            p.state, p.last_answer = "rate-limited", "429"
            self._later(p, now + delay)
        elif status >= 500:
            self._server_error(p, status)
        elif status == 413:
            # the server takes smaller bodies than lila's limit: split smaller from now on (never a bigger retry)
            p.max_bytes = max(1024, min(p.max_bytes, len(data)) // 2)
            self.log("%s: round %s: a push of %d KiB is too large for the server (413): pushes are split at %d KiB "
                     "from now on" % (self.service, p.target.name, len(data) // 1024, p.max_bytes // 1024))
            p.state, p.last_answer = "refused", "413"
            self._later(p, now + self.retry_base_s)
        else:
            why = error_text(text) or text[:200]
            self.log("%s: round %s refused the push (%d): %s%s" % (self.service, p.target.name, status, why,
                                                                  STATUS_HINTS.get(status, "")))
            p.state, p.last_answer = "refused", "%d: %s" % (status, why)
            p.held = dict(self.texts(p.target))     # the same texts would be refused again: wait for a change ...
            self._later(p, now + self.retry_max_s)     # ... and at least retry_max_s (the setup may be fixed)
        raise _Unreachable()

    def _server_error(self, p: _Part, status: int) -> None:
        delay = self._backoff(p)
        self.log("%s: round %s: server error %d, next push in %g s" % (self.service, p.target.name, status, delay))
        p.state, p.last_answer = "offline", "%d" % status
        self._later(p, asyncio.get_running_loop().time() + delay)

    def _later(self, p: _Part, when: float) -> None:
        p.next_at = when
        p.wake.set()
        self._snap()

    def _backoff(self, p: _Part) -> float:
        p.failures += 1
        return float(min(self.retry_max_s, self.retry_base_s * 2 ** (p.failures - 1)))

    def _answer(self, p: _Part, text: str, chunk: list[tuple[int, str]]) -> None:
        """Read the per-game answer; say on the terminal which games are refused (when that changes).

        An entry whose tags match no game sent (lila answers an upstream round, or a body it cannot
        read, with one error and no tags) is an error of the push as a whole, said as lila gives it."""
        try:
            games = json.loads(text).get("games")
        except (ValueError, AttributeError):
            games = None
        refused: list[dict[str, Any]] = []
        whole: list[str] = []
        boards = [b for b, _ in chunk]
        if isinstance(games, list):
            sent = {b: _tags(t) for b, t in chunk}
            by_id = {t["GameId"]: b for b, t in sent.items() if t.get("GameId")}
            by_names = {(t.get("White", ""), t.get("Black", "")): b for b, t in sent.items()}
            for g in games:
                if not isinstance(g, dict) or "error" not in g:
                    continue
                raw = g.get("tags")
                tags: dict[str, Any] = raw if isinstance(raw, dict) else {}
                board = by_id.get(str(tags.get("GameId")))
                if board is None:
                    board = by_names.get((str(tags.get("White", "")), str(tags.get("Black", ""))))
                if board is None:
                    whole.append(str(g["error"])[:300])
                    continue
                refused.append({"round": p.target.name, "board": board, "game_id": tags.get("GameId"),
                                "white": tags.get("White"), "black": tags.get("Black"), "error": str(g["error"])[:300]})
        error = "; ".join(dict.fromkeys(whole)) or None
        if error and error != p.push_error:
            hint = _UPSTREAM_HINT if "upstream" in error.lower() else ""
            self.log("%s: round %s refused the push: %s%s" % (self.service, p.target.name, error, hint))
        elif p.push_error and not error:
            self.log("%s: round %s takes the push again" % (self.service, p.target.name))
        p.push_error = error
        kept = [r for r in p.refused if r["board"] not in boards]
        old = {(r["board"], r["error"]) for r in p.refused}
        for r in refused:
            if (r["board"], r["error"]) not in old:
                self.log("%s: round %s refused board %s (%s - %s): %s" % (
                    self.service, p.target.name, r["board"], r["white"], r["black"], r["error"]))
        now_refused = {r["board"] for r in refused}
        for board in sorted({r["board"] for r in p.refused if r["board"] in boards} - now_refused):
            self.log("%s: round %s took board %s again" % (self.service, p.target.name, board))
        p.refused = sorted(kept + refused, key=lambda r: r["board"])
        if error:
            p.state, p.last_answer = "refused", error
        else:
            p.state = "refused" if p.refused else "live"


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


_UPSTREAM_HINT = " (clear the round's source URL on Lichess: a round with a source cannot be pushed to)"


def _player(name: Any) -> frozenset[str]:
    """The words of a player's name (lowercase letters), to match "Carlsen, Magnus" with "Magnus Carlsen"."""
    return frozenset(w for w in re.split(r"[^a-z]+", str(name or "").lower()) if len(w) > 1)


def _same_game(held: Mapping[str, str], ours: Mapping[str, str]) -> bool:
    """True if a game the Lichess round holds is one of ours: the same GameId, else the same two players
    (Lichess may respell a name from its FIDE list, so a shared word of each name is enough)."""
    if held.get("GameId") and ours.get("GameId"):
        return held["GameId"] == ours["GameId"]
    return all(_player(held.get(side)) & _player(ours.get(side)) for side in ("White", "Black"))


_TAG = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', re.M)


def _tags(record: str) -> dict[str, str]:
    """The tags of one record text as written (PGN and PDN tag lines), unescaped."""
    return {m.group(1): re.sub(r"\\(.)", r"\1", m.group(2)) for m in _TAG.finditer(record)}


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

GROUP_TITLE = "pushing to a Lichess broadcast (for a hall the internet cannot reach)"


def add_arguments(g: Any) -> None:
    """--lichess-round and the options that go with it, added to `g`: a parser's argument group
    titled GROUP_TITLE (or the event file's section that is one)."""
    g.add_argument("--lichess-round", metavar="ID[:FIRST-LAST],...",
                   help="push the round's games to this Lichess broadcast round (the 8 characters at the end of the "
                        "round's URL; the round must have no source URL). A Lichess round shows at most 100 boards: "
                        "split a larger round by board ranges, ID1:1-100,ID2:101-200. The token (study:write) comes "
                        "from --lichess-token-file or $%s, never the command line" % TOKEN_ENV)
    g.add_argument("--lichess-token-file", metavar="FILE",
                   help="the push token: the first line of FILE (default: $%s)" % TOKEN_ENV)
    g.add_argument("--lichess-url", default=DEFAULT_BASE_URL, metavar="URL",
                   help="the Lichess server (default %s)" % DEFAULT_BASE_URL)
    g.add_argument("--lichess-window", type=float, default=DEFAULT_WINDOW_S, metavar="SECONDS",
                   help="at most one push per Lichess round in this time; changes in between are sent together "
                        "(default %g)" % DEFAULT_WINDOW_S)
    g.add_argument("--lichess-retry-max", type=float, default=60.0, metavar="SECONDS",
                   help="longest wait between tries while Lichess cannot be reached (default 60)")


@dataclass(frozen=True)
class PushSettings:
    """What a push is told, checked: where each part of the round goes, the token, at most one push
    per `window_s` per target, and the longest wait between tries while the service cannot be
    reached. `settings_from_arguments` makes them from --lichess-round and its options.

    An event of several rounds (flagfall event) also has `rounds`, each round's targets, and
    `tour_id`, the broadcast tournament whose rounds are made through Lichess's API for the rounds
    that have none; `targets` is then the round played at the start's, if given."""

    targets: tuple[Target, ...]
    token: str = field(repr=False)
    window_s: float = DEFAULT_WINDOW_S
    retry_max_s: float = 60.0
    rounds: Mapping[int, tuple[Target, ...]] = field(default_factory=dict)
    tour_id: Optional[str] = None
    base_url: str = DEFAULT_BASE_URL

    def for_targets(self, targets: Sequence[Target]) -> PushSettings:
        """These settings for another round's targets."""
        return replace(self, targets=tuple(targets))

    def pusher(self, tournament: str, round_: str, *, boards: Sequence[int] = (),
               placeholder: Optional[Placeholder] = None, log: Optional[Log] = None,
               other_boards: Optional[Mapping[int, str]] = None) -> Pusher:
        """The pusher of one round (tournament, round_) with these settings; ValueError for a round with
        nothing Lichess takes (other_boards: board -> game of another record format)."""
        return Pusher(self.targets, self.token, tournament, round_, window_s=self.window_s,
                      retry_max_s=self.retry_max_s, boards=boards, placeholder=placeholder, log=log,
                      other_boards=other_boards)


def settings_from_arguments(args: argparse.Namespace) -> PushSettings:
    """The settings --lichess-round and its options ask for (the token read from its file or the
    environment); ValueError saying what is wrong."""
    rounds_spec, tour_id = getattr(args, "lichess_rounds", None), getattr(args, "lichess_tournament", None)
    targets = lichess_targets(args.lichess_round, args.lichess_url) if args.lichess_round or not (
        rounds_spec or tour_id) else []
    rounds = round_map(rounds_spec, args.lichess_url) if rounds_spec else {}
    check_base_url(args.lichess_url)
    if tour_id is not None and not ROUND_ID.fullmatch(tour_id):
        raise ValueError("--lichess-tournament: %r is not a Lichess broadcast tournament id (8 letters or digits, "
                         "the part of the tournament's URL after its name)" % tour_id)
    if args.lichess_window <= 0 or args.lichess_retry_max <= 0:
        raise ValueError("--lichess-window and --lichess-retry-max must be above 0")
    return PushSettings(tuple(targets), read_token(args.lichess_token_file), window_s=args.lichess_window,
                        retry_max_s=args.lichess_retry_max, rounds=rounds, tour_id=tour_id,
                        base_url=args.lichess_url)


def describe(pusher: Pusher) -> str:
    """One line for the terminal: where the round is pushed."""
    return "%s push: %s" % (pusher.service, ", ".join(
        "boards %s to %s" % (t.boards_text(), t.url) for t in pusher.targets))
