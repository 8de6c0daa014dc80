"""A stand-in for Lichess's broadcast push endpoint, on 127.0.0.1, for the uploader's tests and bench.

It implements the documented contract of `POST /api/broadcast/round/{id}/push`
(lila controllers/RelayRound.push and relay/RelayPush; Lichess API reference):

* `Authorization: Bearer <token>` with the study:write scope: 401 without it or
  with another token, 404 for a round it does not know;
* a text/plain PGN body of at most 100 games (400 `{"error": ...}` otherwise, or
  for a body with no game) and at most 512 KiB (413, Play's answer to a body over
  lila's `play.http.parser.maxMemoryBuffer`);
* a round with a source URL (`upstream`) answers 200 with one error and no tags
  (RelayPush.cantHaveUpstream);
* 200 `{"games": [{"tags": {...}, "moves": N} | {"tags": {...}, "error": "..."}]}`,
  one entry per game in the order sent;
* a game is matched by its GameId first (else White and Black); moves are never
  deleted, as in lila: a main line that continues the held one extends it, a
  shorter one changes nothing, one that differs becomes the main line and the old
  line stays as a variation (`variations` counts them); the round is finished
  when every game sent has a result (RelayPush);
* `GET /api/broadcast/round/{id}.pgn` exports the held games (tags, main line,
  result), `POST /api/broadcast/round/{id}/reset` deletes them (RelayApi.reset),
  `POST /broadcast/{tourId}/new` (form field `name`) creates a round of a known
  tournament and answers as lila's `myRound` JSON;
* what a test asks for: a game refused (`refuse[game_id] = "error text"`), 429
  with Retry-After (`rate_limit(n, seconds)`), 5xx (`fail(n, 503)`), and an
  outage where every connection is dropped without an answer (`offline = True`).

Moves are replayed by Flagfall's own chess rules (flagcore.chess) when
`replay` is on, so an illegal move is refused as Lichess refuses it; the bench
turns that off to measure the uploader, not the stand-in.
"""
from __future__ import annotations

import asyncio
import re
import threading
import time
from typing import Any, Optional

from aiohttp import web

TOKEN = "lip_standin-study-write"
MAX_BODY = 512 * 1024
TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
MOVE_NUMBER = re.compile(r"^\d+\.+$")
RESULTS = ("1-0", "0-1", "1/2-1/2", "0-0", "*")    # lila #16081 (2024) takes 0-0, a double forfeit, too


def split_games(body: str) -> list[str]:
    """The games of a PGN text: a game starts at a tag line that follows movetext or the start."""
    games: list[list[str]] = []
    in_moves = True
    for line in body.splitlines():
        s = line.strip()
        if s.startswith("[") and in_moves:
            games.append([])
            in_moves = False
        if not games:
            continue
        if s and not s.startswith("["):
            in_moves = True
        games[-1].append(line)
    return ["\n".join(g) for g in games]


def parse_game(text: str) -> dict[str, Any]:
    """{"tags", "moves" (SAN main line), "result", "variations" (count of '(' in the movetext)}."""
    tags: dict[str, str] = {}
    movetext: list[str] = []
    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            tags[m.group(1)] = m.group(2)
        else:
            movetext.append(line)
    mt = " ".join(movetext)
    mt = re.sub(r"\{[^}]*\}", " ", mt)
    mt = re.sub(r";[^\n]*", " ", mt)
    variations = mt.count("(")
    moves, result = [], "*"
    for tok in mt.replace("(", " ( ").replace(")", " ) ").split():
        if MOVE_NUMBER.match(tok) or tok in ("(", ")") or tok.startswith("$"):
            continue
        if tok in RESULTS:
            result = tok
            continue
        moves.append(re.sub(r"^\d+\.+", "", tok))
    # scalachess's Parser: the movetext's result fills the Result tag only when there is none
    # (`result.filterNot(_ => preTags.exists(_.Result))`): the tag wins
    return {"tags": tags, "moves": moves, "result": tags.get("Result", result), "variations": variations}


class StandIn:
    """The push endpoint on 127.0.0.1 in its own thread; rounds are given as ids."""

    def __init__(self, rounds: list[str], token: str = TOKEN, replay: bool = True, tours: tuple[str, ...] = ()) -> None:
        self.token = token
        self.replay = replay
        self.tours: dict[str, list[str]] = {t: [] for t in tours}     # tournament id -> its round ids, created
        self.upstream: set[str] = set()            # rounds with a source URL: a push is refused
        self.resets: list[str] = []                # the round ids reset, in order
        self.user_agents: set[str] = set()
        self.max_body = MAX_BODY
        self.rounds: dict[str, dict[str, dict[str, Any]]] = {r: {} for r in rounds}   # id -> key -> game
        self.finished: dict[str, bool] = {r: False for r in rounds}
        self.pushes: list[dict[str, Any]] = []     # every request: t (monotonic), round, status, games, ids, moves
        self.refuse: dict[str, str] = {}           # GameId -> error text
        self.offline = False
        self._rate_limited = 0
        self._retry_after = "60"
        self._failing = 0
        self._fail_status = 503
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        self.url = ""
        ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, args=(ready,), daemon=True, name="lichess-standin")
        self.thread.start()
        assert ready.wait(10), "the stand-in did not start"

    # -- what a test asks for
    def rate_limit(self, n: int, retry_after: str) -> None:
        """The next n requests get 429 with this Retry-After."""
        with self.lock:
            self._rate_limited, self._retry_after = n, retry_after

    def fail(self, n: int, status: int = 503) -> None:
        """The next n requests get this server error."""
        with self.lock:
            self._failing, self._fail_status = n, status

    def games(self, round_id: str) -> dict[str, dict[str, Any]]:
        """The games the round holds: key (GameId) -> {"tags", "moves", "result", "variations"}."""
        with self.lock:
            return {k: dict(v) for k, v in self.rounds[round_id].items()}

    def accepted(self, round_id: Optional[str] = None) -> list[dict[str, Any]]:
        """The pushes answered 200 (of one round)."""
        with self.lock:
            return [p for p in self.pushes if p["status"] == 200 and (round_id is None or p["round"] == round_id)]

    def close(self) -> None:
        """Stop the server and its thread."""
        self.loop.call_soon_threadsafe(self._stop.set)
        self.thread.join(10)

    # -- the server
    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self._stop = asyncio.Event()

        async def main() -> None:
            app = web.Application(client_max_size=8 * 1024 * 1024)
            app.router.add_post("/api/broadcast/round/{id}/push", self._push)
            app.router.add_post("/api/broadcast/round/{id}/reset", self._reset)
            app.router.add_get("/api/broadcast/round/{id:[A-Za-z0-9]{8}}.pgn", self._export)
            app.router.add_post("/broadcast/{tour}/new", self._create)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            port = runner.addresses[0][1]
            self.url = "http://127.0.0.1:%d" % port
            ready.set()
            await self._stop.wait()
            await runner.cleanup()
        self.loop.run_until_complete(main())
        self.loop.close()

    def _log(self, rid: str, status: int, n: int = 0, ids: Optional[list[str]] = None,
             moves: Optional[list[int]] = None, size: int = 0) -> None:
        with self.lock:
            self.pushes.append({"t": time.monotonic(), "round": rid, "status": status, "games": n, "ids": ids or [],
                                "moves": moves or [], "bytes": size})

    async def _push(self, request: web.Request) -> web.StreamResponse:
        rid = request.match_info["id"]
        raw = await request.read()
        body = raw.decode("utf-8")
        self.user_agents.add(request.headers.get("User-Agent", ""))
        if self.offline:            # the hall's link is down: the connection drops without an answer
            self._log(rid, 0)
            assert request.transport is not None
            request.transport.abort()
            raise ConnectionResetError("stand-in offline")
        auth = request.headers.get("Authorization", "")
        if auth != "Bearer " + self.token:
            self._log(rid, 401)
            return web.json_response({"error": "No such token"}, status=401)
        if rid not in self.rounds:
            self._log(rid, 404)
            return web.json_response({"error": "Not found"}, status=404)
        with self.lock:
            if self._rate_limited:
                self._rate_limited -= 1
                limited = True
            else:
                limited = False
            failing = self._failing > 0
            if failing:
                self._failing -= 1
        if limited:
            self._log(rid, 429)
            return web.json_response({"error": "Too many requests"}, status=429,
                                     headers={"Retry-After": self._retry_after})
        if failing:
            self._log(rid, self._fail_status)
            return web.Response(status=self._fail_status, text="Bad gateway")
        if len(raw) > self.max_body:
            self._log(rid, 413, size=len(raw))
            return web.Response(status=413, text="Request Entity Too Large")
        if rid in self.upstream:
            self._log(rid, 200)
            return web.json_response({"games": [{"tags": {}, "error": "The relay has an upstream URL, and cannot be "
                                                                      "pushed to."}]})
        texts = split_games(body)
        if not texts:
            self._log(rid, 400)
            return web.json_response({"error": "No game in the PGN"}, status=400)
        if len(texts) > 100:
            self._log(rid, 400, len(texts))
            return web.json_response({"error": "Too many games (max 100)"}, status=400)
        answer = []
        held = []
        for text in texts:
            g = parse_game(text)
            tags = g["tags"]
            err = self.refuse.get(tags.get("GameId", ""))
            if err is None and self.replay and "GameType" not in tags:      # chess: replayed as Lichess does
                err = _replay_error(tags, g["moves"])
            if err is not None:
                answer.append({"tags": tags, "error": err})
            else:
                answer.append({"tags": tags, "moves": len(g["moves"])})
            held.append(g)
        with self.lock:
            games = self.rounds[rid]
            for g in held:
                key = g["tags"].get("GameId") or "%s - %s" % (g["tags"].get("White"), g["tags"].get("Black"))
                old = games.get(key)
                if old is not None:
                    g["variations"] += old["variations"]
                    if g["moves"] == old["moves"][:len(g["moves"])]:
                        g["moves"] = old["moves"]           # lila deletes no move: a shorter line changes nothing
                    elif old["moves"] != g["moves"][:len(old["moves"])]:
                        g["variations"] += 1                # the old line stays, as a variation
                games[key] = g
            # RelayPush: every game sent has a result, and so has every chapter of the round
            self.finished[rid] = bool(held) and all(g["result"] != "*" for g in held) and \
                all(g["result"] != "*" for g in games.values())
        self._log(rid, 200, len(texts), [g["tags"].get("GameId", "") for g in held],
                  [len(g["moves"]) for g in held], len(body.encode()))
        return web.json_response({"games": answer})


    def _authorised(self, request: web.Request) -> bool:
        return request.headers.get("Authorization", "") == "Bearer " + self.token

    async def _reset(self, request: web.Request) -> web.StreamResponse:
        rid = request.match_info["id"]
        if not self._authorised(request):
            return web.json_response({"error": "No such token"}, status=401)
        if rid not in self.rounds:
            return web.json_response({"error": "Not found"}, status=404)
        with self.lock:
            self.rounds[rid] = {}
            self.finished[rid] = False
            self.resets.append(rid)
        return web.json_response({"ok": True})

    async def _export(self, request: web.Request) -> web.StreamResponse:
        rid = request.match_info["id"]
        if rid not in self.rounds:
            return web.json_response({"error": "Not found"}, status=404)
        with self.lock:
            games = list(self.rounds[rid].values())
        texts = []
        for g in games:
            tags = "".join('[%s "%s"]\n' % (k, v) for k, v in g["tags"].items() if k != "Result")
            moves = " ".join(("%d. %s" % (i // 2 + 1, m)) if i % 2 == 0 else m for i, m in enumerate(g["moves"]))
            texts.append('%s[Result "%s"]\n\n%s %s\n' % (tags, g["result"], moves, g["result"]))
        return web.Response(text="\n".join(texts), content_type="application/x-chess-pgn")

    async def _create(self, request: web.Request) -> web.StreamResponse:
        tour = request.match_info["tour"]
        if not self._authorised(request):
            return web.json_response({"error": "No such token"}, status=401)
        if tour not in self.tours:
            return web.json_response({"error": "Not found"}, status=404)
        form = await request.post()
        name = str(form.get("name", "")).strip()
        if not name:
            return web.json_response({"error": {"name": ["This field is required"]}}, status=400)
        with self.lock:
            rid = "R%07d" % (sum(len(r) for r in self.tours.values()) + 1)
            self.tours[tour].append(rid)
            self.rounds[rid] = {}
            self.finished[rid] = False
        slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
        return web.json_response({"round": {"id": rid, "name": name, "slug": slug, "createdAt": int(time.time() * 1000),
                                            "url": "%s/broadcast/t/%s/%s" % (self.url, slug, rid)},
                                  "tour": {"id": tour, "name": "stand-in", "slug": "stand-in"},
                                  "study": {"writeable": True}})


def _replay_error(tags: dict[str, str], moves: list[str]) -> Optional[str]:
    """Lichess's per-game error for a move its rules refuse, by Flagfall's chess rules (None: all legal)."""
    from flagcore import chess
    try:
        c960 = tags.get("Variant", "").lower() == "chess960"
        board = chess.Board(tags["FEN"], chess960=c960) if tags.get("FEN") else chess.Board()
    except (ValueError, KeyError) as e:
        return "Invalid FEN: %s" % e
    for san in moves:
        try:
            board.push(board.parse_san(san))
        except ValueError:
            return "Invalid move: %s" % san
    return None
