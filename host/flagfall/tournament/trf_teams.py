"""The team section of a TRF (FIDE C.04 Annex 2, TRF26; TRF16's 013), read into a teams.TeamEvent.

parse_trf hands every team record to TeamRecords.read as it meets it, by 1-based column:
`013` (TRF16) name 5-36, members from 37; `310` (TRF26) team number 5-7, name 9-40, nickname 42-46,
strength 48-53, match points 55-60, game points 62-67, rank 69-71, members from 74 (every 5
columns, in board order); `352` the board colours; `362` match points (TW TD TL); `330` forfeited
matches; `300` a team's lineup for a round; `320` the pairing-allocated bye (its match points 5-8,
game points 10-13, the team of round 1, 2, ... every 4 columns from 15); `299` abnormal points
(kind 5, match points 8-11, game points 14-17, round 20-22, teams every 5 columns from 24); `212`
(or `202`, the tie-breaks after the match points) the tie-break list. TeamRecords.event then checks
the members against the players (a player in two teams, a member who is no player...) and makes the
event. Every error is located (file:line:column), like the rest of the TRF reader.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

from . import team_standings
from . import teams as teams_mod
from .model import MAX_ROUND, PairingsError, ascii_digits, columns as _cut, read_number

TAGS = frozenset({"013", "310", "352", "362", "330", "300", "320", "299", "202", "212"})


class _Member(Protocol):
    """A player line as the team records need it (trf.TrfPlayer)."""
    name: str
    team: str | None


class TeamRecords:
    """The team records of one TRF, as parse_trf meets them; `kind` is "310" (TRF26), "013" (TRF16
    only) or "" (none)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.kind = ""
        self.teams: list[teams_mod.Team] = []
        self.members: list[tuple[int, list[tuple[int, int]]]] = []    # (line, [(rank, column)]) per team
        self.colours: str | None = None
        self.scoring = teams_mod.MatchScoring()
        self.forfeits: list[teams_mod.ForfeitedMatch] = []
        self.lineups: dict[tuple[int, int], tuple[int, ...]] = {}
        self.tiebreak_records: dict[str, tuple[int, str]] = {}      # "202"/"212" -> (line, text)
        self.bye_record: tuple[int, tuple[float, float] | None, dict[int, tuple[int, int]]] | None = None
        self.abnormal: list[teams_mod.Abnormal] = []

    def error(self, line: int, column: int, message: str) -> PairingsError:
        return PairingsError(self.path, line, column, message)

    def read(self, tag: str, n: int, line: str) -> None:
        """Record `tag` (one of TAGS) on line `n`."""
        rest = line[4:].strip() if len(line) > 4 else ""
        if tag == "013":
            members = _ranks(self, n, line, 37)
            self.members.append((n, members))
            self.teams.append(teams_mod.Team(len(self.teams) + 1, _cut(line, 5, 36).strip(),
                                             tuple(r for r, _ in members), line=n))
            self.kind = self.kind or "013"
        elif tag == "310":
            members = _ranks(self, n, line, 74)
            self.members.append((n, members))
            self.teams.append(_team_310(self, n, line, members))
            self.kind = "310"
        elif tag == "352":
            self.colours = rest.upper()
            if not self.colours or any(c not in "WB" for c in self.colours):
                raise self.error(n, 5, "352 colour sequence %r is not W and B letters" % rest[:40])
        elif tag == "362":
            self.scoring = _match_scoring(self, n, line)
        elif tag == "330":
            self.forfeits.append(_forfeited_match(self, n, line))
        elif tag == "300":
            rnd = read_number(_cut(line, 5, 7), self.path, n, 5, "300 round", low=1, high=MAX_ROUND)
            team_no = read_number(_cut(line, 9, 11), self.path, n, 9, "300 team", low=1, high=999)
            self.lineups[(rnd, team_no)] = tuple(r for r, _ in _ranks(self, n, line, 17, keep_zero=True))
        elif tag in ("202", "212"):
            self.tiebreak_records[tag] = (n, line)
        elif tag == "320":
            self.bye_record = _team_byes(self, n, line)
        elif tag == "299":
            self.abnormal.append(_abnormal(self, n, line))

    def event(self, players: Mapping[int, _Member]) -> teams_mod.TeamEvent | None:
        """The team event the records describe (None without team records), each member's `team`
        set on its player line; PairingsError (located) for a member who is no player, a player
        listed twice or in two teams, a team number used twice, a 320 or 299 team that is no team.
        A tie-break list with a code not computed here is kept as the event's tiebreak_error."""
        member_of: dict[int, tuple[teams_mod.Team, int]] = {}
        for team, (n, members) in zip(self.teams, self.members):
            for rank, col in members:
                if rank not in players:
                    raise self.error(n, col, "team member %d is not a player" % rank)
                if rank in member_of and member_of[rank][1] == n:
                    raise self.error(n, col, "player %d (%s) is listed twice in team %s" % (rank, players[rank].name,
                                                                                        team.name))
                if rank in member_of:
                    other, other_line = member_of[rank]
                    raise self.error(n, col, "player %d (%s) is in two teams: %s here and %s (line %d)"
                                     % (rank, players[rank].name, team.name, other.name, other_line))
                member_of[rank] = (team, n)
                players[rank].team = team.name or None
        if not self.teams:
            return None
        numbers: dict[int, int] = {}
        for team in self.teams:
            if team.number in numbers:
                raise self.error(team.line, 5, "team number %d is already used on line %d"
                                 % (team.number, numbers[team.number]))
            numbers[team.number] = team.line
        by_number = {t.number: t for t in self.teams}
        event = teams_mod.TeamEvent(self.path, by_number, self.colours, self.scoring, self.forfeits, self.lineups)
        try:
            event.tiebreaks = _team_tiebreaks(self, self.tiebreak_records)
        except PairingsError as e:      # refused when the list is used, unless another is given
            event.tiebreak_error = e
        if self.bye_record is not None:
            event.bye_line, event.bye_points, rounds = self.bye_record
            for r, (team_no, col) in rounds.items():
                if team_no not in by_number:
                    raise self.error(event.bye_line, col, "320 round %d: team %d is not a team" % (r, team_no))
                event.byes[r] = team_no
        for a in self.abnormal:
            for k, team_no in enumerate(a.ids):
                if team_no not in by_number:
                    raise self.error(a.line, 24 + 5 * k, "299: team %d is not a team" % team_no)
        event.abnormal = self.abnormal
        return event


def _team_tiebreaks(trf: TeamRecords, records: Mapping[str, tuple[int, str]]) -> tuple[str, ...] | None:
    """A team event's tie-break list: TRF26 212 (the standings' order, PTS first), else 202 (the
    tie-breaks, after the match points); None when the file has neither. A code not computed here
    is a located error."""
    for tag in ("212", "202"):
        if tag not in records:
            continue
        n, line = records[tag]
        text = line[4:]
        if not text.strip():
            continue
        try:
            codes = team_standings.parse_tiebreaks(text)
        except team_standings.TiebreakError as e:
            raise trf.error(n, 5 + e.offset, "%s: %s" % (tag, e.message)) from None
        if tag == "202" and codes[:1] != ("MPTS",):
            codes = ("MPTS",) + codes
        return codes
    return None


def _decimal(trf: TeamRecords, n: int, line: str, first: int, last: int, what: str, signed: bool = False) -> float | None:
    """A number of a fixed-column field (format 11.5, [-]11.5 when signed), None when blank."""
    t = _cut(line, first, last).strip()
    if not t:
        return None
    if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?" if signed else r"[0-9]+(\.[0-9]+)?", t):
        raise trf.error(n, first, "%s %r is not a number (digits 0-9%s)" % (what, t, ", a leading -" if signed else ""))
    return float(t)


def _team_byes(trf: TeamRecords, n: int, line: str) -> tuple[int, tuple[float, float] | None, dict[int, tuple[int, int]]]:
    """A TRF26 320 record: 5-8 the bye's match points, 10-13 its game points (both blank: the
    defaults), then from 15 every 4 columns the team with the bye in round 1, 2, ... (000: none).
    (line, points, {round: (team, column)})."""
    mp = _decimal(trf, n, line, 5, 8, "320 match points")
    gp = _decimal(trf, n, line, 10, 13, "320 game points")
    if (mp is None) != (gp is None):
        raise trf.error(n, 5 if mp is None else 10, "320 gives the bye's match points and game points, or neither")
    rounds: dict[int, tuple[int, int]] = {}
    col, r = 15, 1
    while col <= len(line):
        t = _cut(line, col, col + 2).strip()
        if t:
            team_no = read_number(t, trf.path, n, col, "320 team of round %d" % r, low=0, high=999)
            if team_no:
                rounds[r] = (team_no, col)
        col += 4
        r += 1
    return n, (mp, gp) if mp is not None and gp is not None else None, rounds


def _abnormal(trf: TeamRecords, n: int, line: str) -> teams_mod.Abnormal:
    """A TRF26 299 record: 5 the kind (W D L F H Z + - or blank), 8-11 match points, 14-17 game
    points (a team's) or points, 20-22 round (000 or blank: none), from 24 every 5 columns the teams."""
    kind = _cut(line, 5, 5)
    if kind.upper() not in "WDLFHZ+- ":
        raise trf.error(n, 5, "299 kind %r is not W, D, L, F, H, Z, +, - or blank" % kind)
    mp = _decimal(trf, n, line, 8, 11, "299 match points", signed=True) or 0.0
    gp = _decimal(trf, n, line, 14, 17, "299 game points", signed=True) or 0.0
    rnd = _cut(line, 20, 22).strip()
    round_no = read_number(rnd, trf.path, n, 20, "299 round", low=0, high=MAX_ROUND) if rnd else 0
    ids = tuple(r for r, _ in _ranks(trf, n, line, 24))
    if not ids:
        raise trf.error(n, 24, "299 names no team or player (columns 24-27, 29-32, ...)")
    return teams_mod.Abnormal(kind.upper().strip(), mp, gp, round_no, ids, n)


def _team_310(trf: TeamRecords, n: int, line: str, members: list[tuple[int, int]]) -> teams_mod.Team:
    """A TRF26 310 team record: 5-7 pairing number, 9-40 name, 42-46 nickname, 48-53 strength,
    55-60 match points, 62-67 game points, 69-71 rank, members from 74."""
    number = read_number(_cut(line, 5, 7), trf.path, n, 5, "team number", low=1, high=999)

    def points(first: int, last: int, what: str) -> float | None:
        t = _cut(line, first, last).strip()
        if not t:
            return None
        if not re.fullmatch(r"[0-9]+(\.[0-9]+)?", t):
            raise trf.error(n, first, "%s %r is not a number (digits 0-9)" % (what, t))
        return float(t)
    rank = _cut(line, 69, 71).strip()
    return teams_mod.Team(number, _cut(line, 9, 40).strip(), tuple(r for r, _ in members),
                          _cut(line, 42, 46).strip() or None, _cut(line, 48, 53).strip() or None,
                          points(55, 60, "match points"), points(62, 67, "game points"),
                          read_number(rank, trf.path, n, 69, "team rank") if rank else None, n)


def _match_scoring(trf: TeamRecords, n: int, line: str) -> teams_mod.MatchScoring:
    """A TRF26 362 record: TW, TD, TL and their match points, in any order (unnamed keep 2, 1, 0)."""
    found = dict(re.findall(r"(TW|TD|TL)\s*(-?[0-9]+(?:\.[0-9]+)?)", line[4:]))
    left = re.sub(r"(TW|TD|TL)\s*(-?[0-9]+(?:\.[0-9]+)?)", "", line[4:]).strip()
    if left or not found:
        raise trf.error(n, 5, "362 match points %r are not TW, TD, TL and points" % line[4:].strip()[:60])
    d = teams_mod.MatchScoring()
    return teams_mod.MatchScoring(float(found.get("TW", d.win)), float(found.get("TD", d.draw)),
                                  float(found.get("TL", d.loss)))


def _forfeited_match(trf: TeamRecords, n: int, line: str) -> teams_mod.ForfeitedMatch:
    """A TRF26 330 record: 5-6 +-, -+ or --, 8-10 round, 12-14 white team, 16-18 black team."""
    kind = _cut(line, 5, 6)
    if kind not in teams_mod.FORFEIT_KINDS:
        raise trf.error(n, 5, "330 forfeit %r is not +-, -+ or --" % kind)
    return teams_mod.ForfeitedMatch(read_number(_cut(line, 8, 10), trf.path, n, 8, "330 round", low=1, high=MAX_ROUND),
                                    read_number(_cut(line, 12, 14), trf.path, n, 12, "330 white team", low=1, high=999),
                                    read_number(_cut(line, 16, 18), trf.path, n, 16, "330 black team", low=1, high=999),
                                    kind, n)


def _ranks(trf: TeamRecords, n: int, line: str, first: int, keep_zero: bool = False) -> list[tuple[int, int]]:
    """The starting ranks listed from column `first` on, every 5 columns: [(rank, column)] (0000,
    an unoccupied board, kept with keep_zero)."""
    out = []
    col = first
    while col <= len(line):
        t = _cut(line, col, col + 3).strip()
        if t:
            if not ascii_digits(t):
                raise trf.error(n, col, "team member %r is not a starting rank" % t)
            if int(t) or keep_zero:
                out.append((int(t), col))
        col += 5
    return out
