"""The JSON API: every board's state, one board's (its plies, its earlier games), a round's boards,
the rounds held, the standings after a round (flagfall.tournament.standings, from the event's TRF
and the results played), the server's counters; and for the arbiter (token): a board's alert, the
check that opens the page's panel, and the action on a board.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
from typing import Any, Mapping, Optional, Sequence

from aiohttp import web

from flagfall import live, records
from flagfall.broadcast.auth import arbiter_only
from flagfall.broadcast.http_helpers import HUB_KEY, SLUG, board_entry, board_key, cors, error, query_filter, read_json
from flagfall.broadcast.hub import History
from flagfall.games import registry
from flagfall.tournament import model, pairings, standings, team_standings, teams, trf

log = logging.getLogger("flagfall.broadcast")

ROUNDS_MIN_S = 1.0          # the list of rounds is made at most this often

STANDINGS_CACHE_KEY: web.AppKey[dict[object, Any]] = web.AppKey("standings_cache", dict)   # TRF, tables, rounds made
STANDINGS_TRF_KEY = web.AppKey("standings_trf", str)   # the event's pairing file: a TRF's results start the standings
TEAM_TIEBREAKS_KEY = web.AppKey("team_tiebreaks", tuple)   # flagfall event --team-tiebreaks (canonical codes)
STANDINGS_SCORING_KEY = web.AppKey("standings_scoring", tuple)   # flagfall event --scoring: (win, draw) points


async def api_boards(request: web.Request) -> web.Response:
    t, r, b = query_filter(request)
    hub = request.app[HUB_KEY]
    out = []
    for key in hub.matching(t, r, b):
        st = dict(hub.boards[key].state)
        st.pop("pgn", None)
        out.append(st)
    return cors(web.json_response({"now": live.now_ms(), "boards": out}, dumps=live.dumps))


async def api_board(request: web.Request) -> web.Response:
    st = request.app[HUB_KEY].get(board_key(request))
    if st is None:
        return error(404, "no board %s" % "/".join(board_key(request)))
    return cors(web.json_response(st, dumps=live.dumps))


def _plies(history: History) -> list[Optional[dict[str, Any]]]:
    return [None if p is None else {"grid": p[0].split("/"), "last_move": p[1]} for p in history]


def replayed(state: live.Message) -> Optional[History]:
    """The position after each ply of a state's game, replayed from its moves by the game's rules (from its
    FEN tag's start, if any), in the hub's History form; None if a move does not replay or the end is not
    the state's own position (a game the rules here cannot replay is never shown wrong)."""
    fen = (state.get("tags") or {}).get("FEN")
    try:
        a = registry.make_adapter(state["game"], fen=fen)
        grid = "/".join(a.grid())
        out: History = [(grid, [])]
        for text in state["moves"]:
            move = a.parse(text)
            a.push(move)
            grid = "/".join(a.grid())
            out.append((grid, [list(a.cell(sq)) for sq in a.move_squares(move)]))
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return out if grid == "/".join(state["grid"]) else None


def fill_history(history: History, state: live.Message) -> History:
    """`history` (the hub's, shared along a board's entries) with the positions no state showed (the plies
    before a restart of the event or the server, several moves in one state) filled in by replaying the
    state's moves: the moves are on the server, so a viewer steps back through every one."""
    if len(history) == len(state["moves"]) + 1 and None not in history:
        return history
    whole = replayed(state)
    if whole is not None:
        history[:] = whole
    return history


async def api_plies(request: web.Request) -> web.Response:
    """The position after each ply of the board's game (null only where the moves cannot be replayed)."""
    e = board_entry(request)
    return cors(web.json_response({"k": e.k, "seq": e.seq, "plies": _plies(fill_history(e.history, e.state))},
                                  dumps=live.dumps))


def _game_line(st: live.Message, index: Optional[int] = None) -> dict[str, Any]:
    tags = st.get("tags") or {}
    d = {"White": tags.get("White", "?"), "Black": tags.get("Black", "?"), "result": st["result"],
         "status": st["status"], "moves": len(st["moves"]), "ts": st["ts"]}
    if index is not None:
        d["index"] = index
    return d


async def api_games(request: web.Request) -> web.Response:
    """A board's finished earlier games (oldest first) and the current one."""
    e = board_entry(request)
    return cors(web.json_response({"k": e.k, "games": [_game_line(st, i) for i, (st, _) in enumerate(e.archive)],
                                    "current": _game_line(e.state)}))


async def api_game(request: web.Request) -> web.Response:
    """One of a board's earlier games: its last state (with the record text) and `plies` (as /plies)."""
    e = board_entry(request)
    i = request.match_info["n"]
    if not i.isdigit() or int(i) >= len(e.archive):
        return error(404, "board %s has no earlier game %s (it has %d)" % (e.k, i[:10], len(e.archive)))
    st, hist = e.archive[int(i)]
    st = dict(st)
    st["k"] = e.k
    st["plies"] = _plies(fill_history(hist, st))
    return cors(web.json_response(st, dumps=live.dumps))


async def api_round(request: web.Request) -> web.Response:
    """Every board of a round, in board order: players, result, clocks, and its earlier games."""
    m = request.match_info
    hub = request.app[HUB_KEY]
    out = []
    for key in hub.matching(m["t"], m["r"]):
        e = hub.boards[key]
        line = _game_line(e.state)
        line.update({"k": e.k, "board": key[2], "clock": e.state["clock"], "game": e.state["game"],
                     "side_names": e.state.get("side_names"),
                     "earlier": [_game_line(st, i) for i, (st, _) in enumerate(e.archive)]})
        out.append(line)
    if not out:
        return error(404, "no boards in round %s/%s" % (m["t"], m["r"]))
    return cors(web.json_response({"now": live.now_ms(), "boards": out}, dumps=live.dumps))


async def api_rounds(request: web.Request) -> web.Response:
    """The rounds held (of one tournament with ?t=), in order: boards, finished games, games adjourned, games
    playing, and the round's status: "live" (games playing), "adjourned" (none playing, some left
    unfinished) or "finished". Only a tournament's latest round can be live."""
    t, _, _ = query_filter(request)
    hub = request.app[HUB_KEY]
    cache = request.app[STANDINGS_CACHE_KEY]
    now = asyncio.get_running_loop().time()
    made = cache.get(("rounds", t))
    if made is not None and now - made[0] < ROUNDS_MIN_S:     # every page asks every 20-30 s: made once a second
        return cors(web.Response(body=made[1], content_type="application/json"))
    rounds: dict[tuple[str, str], dict[str, Any]] = {}
    for key in hub.matching(t):
        st = hub.boards[key].state
        d = rounds.setdefault(key[:2], {"t": key[0], "r": key[1], "boards": 0, "finished": 0, "adjourned": 0,
                                        "games": []})
        d["boards"] += 1
        d["finished"] += st["result"] != "*"
        d["adjourned"] += st["result"] == "*" and st["status"] == "adjourned"
        if st["game"] not in d["games"]:
            d["games"].append(st["game"])
    out = list(rounds.values())
    latest: dict[str, tuple[int, str]] = {}
    for d in out:
        latest[d["t"]] = max(latest.get(d["t"], _nat(d["r"])), _nat(d["r"]))
    for d in out:
        d["playing"] = d["boards"] - d["finished"] - d["adjourned"]
        if d["playing"] and _nat(d["r"]) < latest[d["t"]]:
            # a past round's game without a result was left unfinished when the next was loaded
            d["adjourned"], d["playing"] = d["adjourned"] + d["playing"], 0
        d["status"] = "live" if d["playing"] else "adjourned" if d["adjourned"] else "finished"
    body = json.dumps({"rounds": out}).encode()
    cache[("rounds", t)] = (now, body)
    return cors(web.Response(body=body, content_type="application/json"))


def _nat(r: str) -> tuple[int, str]:
    """A round's place in its tournament's order: numbers by value (round 10 after 9), names after them."""
    return (int(r), "") if r.isdigit() else (1 << 30, r)


def _standings_trf(app: web.Application) -> tuple[Optional[Any], object]:
    """(the event's TRF parsed, or None; what identifies its version): read again only when it changes."""
    path = app.get(STANDINGS_TRF_KEY)
    if not path:
        return None, None
    cache = app[STANDINGS_CACHE_KEY]
    try:
        st = os.stat(path)
        version = (path, st.st_mtime_ns, st.st_size)
        if cache.get("trf-version") != version:
            text = records.read_text(path)
            cache["trf"] = trf.parse_trf(text, path) if pairings.kind_of(path, text) == "trf" else None
            cache["trf-version"] = version
        return cache["trf"], version
    except (OSError, ValueError) as e:
        log.warning("standings: cannot read the TRF %s: %s", path, e)
        return None, None


async def api_standings(request: web.Request) -> web.Response:
    """The standings after round r: one table per game played in the tournament (flagfall.tournament.standings)."""
    m = request.match_info
    if not m["r"].isdigit():
        return error(400, "standings need a round number, not %r" % m["r"])
    hub = request.app[HUB_KEY]
    served = hub.matching(m["t"])
    keys = [k for k in served if k[1].isdigit() and int(k[1]) <= int(m["r"])]
    base, base_version = _standings_trf(request.app)
    if not keys and (base is None or not served):
        # (a round before the first one broadcast is the event's TRF's alone: its standings are served)
        return error(404, "no boards in tournament %s up to round %s" % (m["t"], m["r"]))
    # made again only when a result (or a pairing) of these rounds changed, not at every move
    fingerprint = (base_version, tuple((k, st["result"], st.get("decision"), st["tags"].get("White"),
                                        st["tags"].get("Black")) for k in keys for st in (hub.boards[k].state,)))
    cache = request.app[STANDINGS_CACHE_KEY]
    made = cache.get(("body",) + _round_of(m))
    if made is not None and made[0] == fingerprint:
        return cors(web.Response(body=made[1], content_type="application/json"))
    games = standings.games_from_states(hub.boards[k].state for k in keys)
    kinds: list[str] = []
    for g in games:
        if g.game not in kinds:
            kinds.append(g.game)
    if not kinds:        # only the TRF's rounds: the game of the tournament's boards
        kinds.append(hub.boards[served[0]].state["game"])
    scoring = request.app.get(STANDINGS_SCORING_KEY)       # the event's own, over the games' scales
    tables = [{"game": kind, "rows": standings.table(games, int(m["r"]), base if len(kinds) == 1 else None,
                                                      kind if len(kinds) > 1 else None, scoring)} for kind in kinds]
    done = all(hub.boards[k].state["result"] != "*" for k in keys if k[1] == m["r"])
    out: dict[str, Any] = {"t": m["t"], "r": m["r"], "complete": done, "tables": tables}
    team_table = _team_standings(base, [(k, hub.boards[k].state) for k in keys], int(m["r"]),
                                 request.app.get(TEAM_TIEBREAKS_KEY), scoring)
    if team_table is not None:
        out["teams"] = team_table
    body = json.dumps(out).encode()
    cache[("body",) + _round_of(m)] = (fingerprint, body)
    return cors(web.Response(body=body, content_type="application/json"))


def _team_standings(base: Optional[trf.Trf], boards: list[tuple[Any, live.Message]],
                    through: int, given: Optional[Sequence[str]] = None,
                    event_points: Optional[tuple[float, float]] = None) -> Optional[dict[str, Any]]:
    """A team event's standings after round `through` and its matches ({"tiebreaks", "tiebreak_names",
    "rows", "matches"}): from the TRF's team records (its 299 assignments too), its past rounds and
    the results being played, or, without a TRF, from the games' WhiteTeam/BlackTeam tags; None for
    an individual event. Ranked by the tie-breaks `given` (--team-tiebreaks), else the file's, else
    the Olympiad's (team_standings.chosen_tiebreaks). Board points are the TRF's scoring (162, BB*) where it
    gives one, else the event's (`event_points`: --scoring), else the scale of the games' results (registry
    scoring: draughts 2-1-0)."""
    played: dict[int, dict[int, Optional[str]]] = {}
    games: dict[int, list[tuple[int, Mapping[str, str], Optional[str]]]] = {}
    points = registry.spec("chess").points
    for key, st in boards:
        if not str(key[2]).isdigit():
            continue
        try:
            result = model.scored_result(st.get("decision") or st.get("result") or "*",
                                         (st.get("tags") or {}).get("Termination"))
        except ValueError:
            result = None
        try:
            points = registry.lookup(st.get("game", "chess"))[0].points
        except ValueError:
            pass
        played.setdefault(int(key[1]), {})[int(key[2])] = result
        games.setdefault(int(key[1]), []).append((int(key[2]), st.get("tags") or {}, result))
    points = event_points or points
    if base is not None and base.team_event is not None and base.team_records == "310":
        # (a TRF16's 013 records are clubs as often as teams: such an event's matches come from its tags)
        event = base.team_event
        try:
            matches = trf.team_matches(base, through, played=played)
            order = team_standings.chosen_tiebreaks(event, given)
        except ValueError as e:
            log.warning("team standings: %s", e)
            return None
        scale = base.board_scale(points)
        entrants: list[teams.Team] = list(event.teams.values())
        scoring = event.scoring
        abnormal: list[teams.Abnormal] = event.abnormal
    else:
        matches = teams.live_event_matches(games)
        if not matches:
            return None
        entrants, scoring, abnormal = [], teams.MatchScoring(), []
        scale = teams.scale_of(points)
        order = team_standings.chosen_tiebreaks(None, given)
    return {"tiebreaks": list(order), "tiebreak_names": {c: team_standings.describe_tiebreak(c) for c in order},
            "rows": team_standings.standings(matches, entrants, scoring, scale, order, abnormal, through),
            "matches": [teams.match_json(mt, scoring, scale) for mt in matches if mt.round == through]}


def _round_of(m: Mapping[str, str]) -> tuple[str, str]:
    """(tournament, round) of a matched /api/standings/<t>/<r>."""
    return (m["t"], m["r"])


@arbiter_only
async def api_arbiter_check(request: web.Request) -> web.Response:
    """200 if the request carries the arbiter token (the page shows its arbiter panel then), with the
    results each game may end with (the registry's scoring; '*' takes a result back)."""
    return web.json_response({"ok": True, "results": {name: list(spec.results) for name, spec in registry.GAMES.items()}})


@arbiter_only
async def api_board_alert(request: web.Request) -> web.Response:
    """The full text of a board's alert (null without one) and the penalty it proposes (null, or the side
    and what it costs): the arbiter's, never the public's."""
    e = board_entry(request)
    rules = request.app[HUB_KEY].command_rules.get(board_key(request))
    # the actions the board allows now, where it says (an event's board): the page offers those alone
    actions = None if rules is None else await asyncio.get_running_loop().run_in_executor(None, rules.actions)
    return web.json_response({"k": e.k, "alert": e.alert, "status": e.state["status"],
                              "alert_kind": e.alert_kind, "penalty": e.penalty, "actions": actions},
                             headers={"Cache-Control": "no-store"})


async def api_health(request: web.Request) -> web.Response:
    d = request.app[HUB_KEY].stats()
    d["now"] = live.now_ms()
    return web.json_response(d)


async def read_command(request: web.Request) -> tuple[Optional[dict[str, Any]], Optional[web.Response]]:
    """(a validated arbiter command of docs/live-state.md, None), or (None, the error response): checked by
    the board's own rule where it has one (an event's board: its forfeits too, hub.BoardRules)."""
    obj, bad = await read_json(request)
    if bad is not None:
        return None, bad
    rules = request.app[HUB_KEY].command_rules.get(board_key(request))
    try:
        return (rules.check if rules is not None else live.validate_command)(obj), None
    except ValueError as e:
        return None, error(400, str(e))


@arbiter_only
async def arbiter(request: web.Request) -> web.Response:
    key = board_key(request)
    hub = request.app[HUB_KEY]
    if hub.get(key) is None:
        return error(404, "no board %s" % "/".join(key))
    cmd, bad = await read_command(request)
    if bad is not None:
        return bad
    assert cmd is not None
    try:
        reply = await asyncio.wait_for(hub.command(key, cmd), 10)
    except LookupError as e:
        return error(409, str(e))
    except ValueError as e:
        return error(422, "the bridge refused the action: %s" % e)
    except asyncio.TimeoutError:
        return error(504, "the bridge did not answer within 10 s")
    log.info("arbiter %s on %s: %s", cmd["action"], "/".join(key), reply)
    return web.json_response({"ok": True, "board": "/".join(key), "action": cmd["action"], "reply": reply})


def add_routes(app: web.Application) -> None:
    app[STANDINGS_CACHE_KEY] = {}
    tb = "/%s/%s/%s" % (SLUG % "t", SLUG % "r", SLUG % "b")
    app.router.add_get("/api/boards", api_boards)
    app.router.add_get("/api/board" + tb, api_board)
    app.router.add_get("/api/board" + tb + "/plies", api_plies)
    app.router.add_get("/api/board" + tb + "/games", api_games)
    app.router.add_get("/api/board" + tb + "/games/{n:[0-9]{1,4}}", api_game)
    app.router.add_get("/api/round/%s/%s" % (SLUG % "t", SLUG % "r"), api_round)
    app.router.add_get("/api/rounds", api_rounds)
    app.router.add_get("/api/standings/%s/%s" % (SLUG % "t", SLUG % "r"), api_standings)
    app.router.add_get("/api/board" + tb + "/alert", api_board_alert)
    app.router.add_get("/api/arbiter/check", api_arbiter_check)
    app.router.add_get("/api/health", api_health)
    app.router.add_post("/api/board" + tb + "/arbiter", arbiter)
