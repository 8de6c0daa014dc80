"""Standings after a round: the TRF's results of the rounds it holds plus the results played here.

A player's round counts from the game played on a board of that round when there is one (its
result, once it has one), else from the round's column of the player's TRF line (a bye, a
forfeit, a round played before the broadcast began). Points follow the TRF's scoring system
(TRF26 `162`, bbpPairings' BB* records) where it gives one, else the event's own scoring where it
gives one (`flagfall event --scoring 3-1-0`), else the game's own scale (the games registry's
scoring: chess 1 / ½ / 0, international draughts 2 / 1 / 0); a TRF26 `299` record adds
its points to its players from its round on. The columns after the
points are the tie-breaks computed from the same results (FIDE C.07): Buchholz (the opponents' points), Sonneborn-Berger (the points of the
opponents beaten, half of those drawn with) and the number of wins; the order is points, then
those, then the rating.

    games = standings.games_from_states(states)          # the boards' states, any rounds
    rows = standings.table(games, through_round=2, trf=trf.parse_trf(text))
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Optional

from flagfall.games import registry
from flagfall.tournament import model
from flagfall.tournament.trf import CATEGORY, CODES, Trf


SB_SHARE = {"W": 1.0, "D": 0.5}
"""Sonneborn-Berger: the share of an opponent's points counted for a win and for a draw."""


@dataclass(frozen=True)
class Seat:
    """A player as a board's tags name them."""
    name: str
    title: Optional[str] = None
    federation: Optional[str] = None
    rating: Optional[int] = None


@dataclass(frozen=True)
class Game:
    """One game of a round: `result` canonical (model.normalise_result), None while it is played."""
    round: int
    white: Seat
    black: Seat
    result: Optional[str]
    game: str = "chess"


def _seat(tags: Mapping[str, str], side: str) -> Seat:
    elo = tags.get(side + "Elo", "")
    return Seat(tags.get(side, "?"), tags.get(side + "Title") or None, tags.get(side + "Fed") or None,
                int(elo) if elo.isdigit() else None)


def games_from_states(states: Iterable[Mapping[str, Any]]) -> list[Game]:
    """The games of live states (docs/live-state.md) whose round is a number; a forfeit's record (Termination
    "forfeit") counts as the forfeit (model.scored_result); a result that is not one of
    model.RESULT_ALIASES (a minzu score) counts as not yet known."""
    out = []
    for st in states:
        if not str(st.get("round", "")).isdigit():
            continue
        tags = st.get("tags") or {}
        try:
            result = model.scored_result(st.get("decision") or st.get("result") or "*", tags.get("Termination"))
        except ValueError:
            result = None
        out.append(Game(int(st["round"]), _seat(tags, "White"), _seat(tags, "Black"), result, st.get("game", "chess")))
    return out


class _Line:
    """One player's standing being added up."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.points = 0.0
        self.played = 0
        self.wins = 0
        self.opponents: list[tuple[str, str]] = []     # (opponent's name, my result's category: W, D or L)


_NO_TRF = Trf(path="")     # no file: every result scores on the game's scale


def _scale(game: str) -> tuple[float, float]:
    """(win, draw) points of a game by its registry name (chess's for a name it does not know)."""
    try:
        return registry.spec(game).points
    except (KeyError, ValueError):
        return registry.spec("chess").points


def parse_scoring(text: str) -> tuple[float, float]:
    """(win, draw) points of an event's own scoring written WIN-DRAW-LOSS ("3-1-0", "1-0.5-0", "2-1-0";
    "3-1" too): ValueError saying why for anything else. A loss scores 0 (as a TRF's results are
    counted here), a win more than a draw."""
    parts = [x.strip().replace("\u00bd", "0.5") for x in str(text).strip().split("-")]
    if len(parts) not in (2, 3) or not all(re.fullmatch(r"[0-9]+(\.[0-9]+)?", x) for x in parts):
        raise ValueError("%r is not WIN-DRAW-LOSS points, e.g. 3-1-0 or 1-0.5-0" % text)
    win, draw = float(parts[0]), float(parts[1])
    if len(parts) == 3 and float(parts[2]) != 0:
        raise ValueError("%r: a loss scores 0 here (WIN-DRAW-0)" % text)
    if not win > draw:
        raise ValueError("%r: a win must score more than a draw" % text)
    if win >= 10:
        raise ValueError("%r: a win scores less than 10 (a TRF's points column holds 99.9 at most)" % text)
    return win, draw


def table(games: Iterable[Game], through_round: int, trf: Optional[Trf] = None,
          game: Optional[str] = None, points: Optional[tuple[float, float]] = None) -> list[dict[str, Any]]:
    """The standings after `through_round`, best first: {"rank", "name", "title", "federation",
    "rating", "points", "played", "buchholz", "sb", "wins"}. With `game`, only the players of
    that game (a mixed event: one table per game). `points`: the event's own scoring (win, draw),
    over every game's scale (the TRF's own, 162 or BB*, still stands above it)."""
    lines: dict[str, _Line] = {}
    played_rounds: dict[str, set[int]] = {}
    mine = [g for g in games if game is None or g.game == game]
    chosen = [g for g in mine if g.round <= through_round]
    # the TRF's rounds: the event's scoring, else its game's scale
    scale = points or _scale(game or (mine[0].game if mine else "chess"))
    score = (trf or _NO_TRF).score
    for g in chosen:
        for seat in (g.white, g.black):
            lines.setdefault(seat.name, _Line(seat))
            played_rounds.setdefault(seat.name, set()).add(g.round)
    if trf is not None:
        by_rank: dict[int, str] = {}
        for rank, p in trf.players.items():
            by_rank[rank] = p.name
            if p.name not in lines and game is None:
                lines[p.name] = _Line(Seat(p.name, p.title, p.federation, p.rating))
        for rank, p in trf.players.items():
            if p.name not in lines:
                continue
            for r in range(1, through_round + 1):
                if r in played_rounds.get(p.name, ()):
                    continue
                e = trf.entry(p, r)
                if not e.code.strip():
                    continue
                pts = score(e.code, scale)
                ln = lines[p.name]
                ln.points += pts
                if e.opponent and e.code in "1=0WDL":
                    ln.played += 1
                    ln.opponents.append((by_rank.get(e.opponent, "?"), CATEGORY[e.code]))
                if CATEGORY.get(e.code) == "W":
                    ln.wins += 1
        for a in trf.abnormal if trf.team_event is None else ():
            # TRF26 299: points given apart (a penalty, a bonus), from their round on
            if a.round and a.round > through_round:
                continue
            for rank in a.ids:
                if by_rank.get(rank) in lines:
                    lines[by_rank[rank]].points += a.gp
    for g in chosen:
        if g.result is None:
            continue
        codes = CODES[g.result]
        for seat, code, other in ((g.white, codes[0], g.black), (g.black, codes[1], g.white)):
            ln = lines[seat.name]
            pts = score(code, points or _scale(g.game))
            ln.points += pts
            if code in "1=0":        # played over the board: counts for the tie-breaks
                ln.played += 1
                ln.opponents.append((other.name, CATEGORY[code]))
            if CATEGORY.get(code) == "W":
                ln.wins += 1
    scored = []
    for ln in lines.values():
        buchholz = sum(lines[o].points for o, _ in ln.opponents if o in lines)
        sb = sum(lines[o].points * SB_SHARE.get(cat, 0.0) for o, cat in ln.opponents if o in lines)
        scored.append(((-ln.points, -buchholz, -sb, -ln.wins), ln, buchholz, sb))
    scored.sort(key=lambda x: (x[0], -(x[1].seat.rating or 0), x[1].seat.name))
    rows: list[dict[str, Any]] = []
    rank = 0
    for i, (key, ln, buchholz, sb) in enumerate(scored):
        if i == 0 or key != scored[i - 1][0]:
            rank = i + 1
        rows.append({"rank": rank, "name": ln.seat.name, "title": ln.seat.title, "federation": ln.seat.federation,
                     "rating": ln.seat.rating, "points": ln.points, "played": ln.played,
                     "buchholz": buchholz, "sb": sb, "wins": ln.wins})
    return rows
