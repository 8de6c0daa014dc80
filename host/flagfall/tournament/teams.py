"""Team events: a round's boards as matches between teams, matches scored, team standings.

A team event is a round of boards whose players belong to teams (TRF26 `310`, TRF16 `013`, PGN
`WhiteTeam`/`BlackTeam`, CSV `white_team`/`black_team`); two teams meet in a match of several
boards, played in each team's board order (the lineup of `310`/`013`, or of a `300` record for the
round), with the colours of `352` (e.g. `WBWB`: the first-named team has White on boards 1 and 3)
or of the file. A board a team does not field is a forfeit of that board; a whole match can be
forfeited (TRF26 `330`).

Match points follow TRF26 `362` (win 2, draw 1, loss 0 by default); game points are the sum of the
boards' points on the game's board scale (chess 1-1/2-0, draughts 2-1-0: `BoardScale`). A match has
match points only once all its boards have a result, as Lichess (lila's RelayTeams) counts it.

The team standings and their tie-breaks are `team_standings`.

The file readers (trf, pairings) call `arrange` to turn a round's boards into matches; this module
reads no file itself and imports only the model.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, NamedTuple

from .model import (BLACK_FORFEIT_WIN, BLACK_WINS, DOUBLE_FORFEIT, DRAW, WHITE_FORFEIT_WIN, WHITE_WINS,
                    Pairing, PairingsError, Player, Round)


class BoardScale(NamedTuple):
    """The points of one board's game: a win, a draw, a loss (a forfeit win counts as a win, a
    forfeit loss as a loss). The game's family decides it (chess 1-1/2-0, FMJD draughts 2-1-0);
    callers pass the registry's scoring."""
    win: float
    draw: float
    loss: float


CHESS_SCALE = BoardScale(1.0, 0.5, 0.0)


def scale_of(points: tuple[float, float]) -> BoardScale:
    """The board scale of a game's (win, draw) points (the registry's GameSpec.points, read from its
    result texts: chess 1-1/2-0, FMJD draughts 2-1-0); a loss scores 0."""
    return BoardScale(points[0], points[1], 0.0)


class MatchScoring(NamedTuple):
    """Match points of a match won, drawn, lost (TRF26 362 TW TD TL)."""
    win: float = 2.0
    draw: float = 1.0
    loss: float = 0.0


# (white's, black's) outcome of each canonical game result: W win, D draw, L loss
_OUTCOME = {WHITE_WINS: ("W", "L"), BLACK_WINS: ("L", "W"), DRAW: ("D", "D"),
            WHITE_FORFEIT_WIN: ("W", "L"), BLACK_FORFEIT_WIN: ("L", "W"), DOUBLE_FORFEIT: ("L", "L")}
# a 330 forfeited match: (the white team's, the black team's) outcome
FORFEIT_KINDS = {"+-": ("W", "L"), "-+": ("L", "W"), "--": ("L", "L")}
BYE = "bye"
"""Match.forfeit of a pairing-allocated bye (every player of the team `U` in the round): the team
alone, the match points of a draw (TRF26 320's default) and a win on every board."""


def board_points(result: str, scale: BoardScale = CHESS_SCALE) -> tuple[float, float]:
    """(white's, black's) points of a canonical game result on a board scale."""
    w, b = _OUTCOME[result]
    pts = {"W": scale.win, "D": scale.draw, "L": scale.loss}
    return pts[w], pts[b]


@dataclass(frozen=True)
class Team:
    """A team as the file gives it. `members` are the players' starting ranks in board order
    (TRF; empty for a PGN or CSV, which name the team only); `mp`, `gp`, `rank` are what a 310 line
    says (None when blank or for other files)."""
    number: int
    name: str
    members: tuple[int, ...] = ()
    nickname: str | None = None
    strength: str | None = None
    mp: float | None = None
    gp: float | None = None
    rank: int | None = None
    line: int = 0


@dataclass(frozen=True)
class ForfeitedMatch:
    """A TRF26 330 record: round, white team, black team (pairing numbers), kind +- -+ or --."""
    round: int
    white: int
    black: int
    kind: str
    line: int = 0


@dataclass(frozen=True)
class Abnormal:
    """A TRF26 299 record: an abnormal assignment of points (`kind` W D L F H Z + - or blank for a
    penalty or bonus), its match points and game points (an individual event's points) given to each
    of `ids` (the teams' pairing numbers; an individual event's starting ranks), in `round` (0: not
    tied to a round)."""
    kind: str
    mp: float
    gp: float
    round: int
    ids: tuple[int, ...]
    line: int = 0


@dataclass
class TeamEvent:
    """What the file says about the teams: the teams by pairing number, the board colour sequence
    (352, None when not given), the match scoring (362), forfeited matches (330), lineups of a
    round (300: (round, team) -> starting ranks in board order, 0 for an unoccupied board), the
    tie-break list (212, or 202 after the match points; canonical codes, None when not given; a
    code not computed here is `tiebreak_error`, raised when the list is used: chosen_tiebreaks), the
    pairing-allocated bye (320: its match and game points, None for the defaults; round -> team)
    and abnormal point assignments (299)."""
    path: str = ""
    teams: dict[int, Team] = field(default_factory=dict)
    colours: str | None = None
    scoring: MatchScoring = MatchScoring()
    forfeits: list[ForfeitedMatch] = field(default_factory=list)
    lineups: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    tiebreaks: tuple[str, ...] | None = None
    tiebreak_error: PairingsError | None = None
    bye_points: tuple[float, float] | None = None
    byes: dict[int, int] = field(default_factory=dict)
    bye_line: int = 0
    abnormal: list[Abnormal] = field(default_factory=list)

    def team_of_rank(self) -> dict[int, Team]:
        """Starting rank -> team."""
        return {r: t for t in self.teams.values() for r in t.members}

    def by_name(self, name: str) -> Team | None:
        for t in self.teams.values():
            if t.name == name:
                return t
        return None


@dataclass(frozen=True)
class MatchBoard:
    """Board `number` of a match (1 = first board). `board` is the event's board (the Pairing's
    number) when a game is played there, None for a board one team did not field, whose `result`
    is then the forfeit ("+/-" white wins by forfeit...). `home_white`: the first-named team has
    White here. `white`/`black` are None for the side that did not field the board."""
    number: int
    board: int | None
    white: Player | None
    black: Player | None
    result: str | None
    home_white: bool


@dataclass(frozen=True)
class MatchScore:
    """A match's game points so far, and its match points once every board has a result."""
    home_gp: float
    away_gp: float
    finished: bool
    home_mp: float | None
    away_mp: float | None


@dataclass(frozen=True)
class Match:
    """Round `round`'s match `number` between `home` (the first-named team) and `away`. A match
    forfeited as a whole (330) has no boards and `forfeit` set (+-: home wins, -+: away, --: both
    lose); `size` is the number of boards a match has in the event (for a forfeit's game points);
    `scoring` the event's match points (362); `bye_points` the bye's match and game points (320),
    None for the defaults (a draw's match points, a win on every board)."""
    round: int
    number: int
    home: Team
    away: Team
    boards: tuple[MatchBoard, ...]
    size: int
    forfeit: str | None = None
    scoring: MatchScoring = MatchScoring()
    bye_points: tuple[float, float] | None = None

    def with_results(self, results: Mapping[int, str | None]) -> Match:
        """The match with the results of the event's boards in `results` ({board: canonical
        result or None}) instead of the file's."""
        return replace(self, boards=tuple(replace(b, result=results[b.board])
                                          if b.board is not None and b.board in results else b
                                          for b in self.boards))

    def score(self, scoring: MatchScoring | None = None, scale: BoardScale = CHESS_SCALE) -> MatchScore:
        """Game points of both teams from the boards with a result; match points when all have one
        (the event's scoring unless `scoring` is given)."""
        scoring = scoring or self.scoring
        if self.forfeit == BYE:
            if self.bye_points is not None:
                return MatchScore(self.bye_points[1], 0.0, True, self.bye_points[0], None)
            return MatchScore(scale.win * self.size, 0.0, True, scoring.draw, None)
        if self.forfeit is not None:
            home, away = FORFEIT_KINDS[self.forfeit]
            gp = {"W": scale.win * self.size, "L": scale.loss * self.size}
            mp = {"W": scoring.win, "L": scoring.loss}
            return MatchScore(gp[home], gp[away], True, mp[home], mp[away])
        hg = ag = 0.0
        done = True
        for b in self.boards:
            if b.result is None:
                done = False
                continue
            w, bl = board_points(b.result, scale)
            hg, ag = (hg + w, ag + bl) if b.home_white else (hg + bl, ag + w)
        if not done or not self.boards:
            return MatchScore(hg, ag, False, None, None)
        if hg > ag:
            return MatchScore(hg, ag, True, scoring.win, scoring.loss)
        if hg < ag:
            return MatchScore(hg, ag, True, scoring.loss, scoring.win)
        return MatchScore(hg, ag, True, scoring.draw, scoring.draw)


@dataclass
class TeamRound(Round):
    """A team event's round: its boards numbered match by match, and its matches."""
    matches: list[Match] = field(default_factory=list)


def matches_of(rnd: Round) -> list[Match]:
    """The matches of a round read as a team event's (arrange), [] for an individual round."""
    return rnd.matches if isinstance(rnd, TeamRound) else []


def arrange(rnd: Round, event: TeamEvent, lines: Mapping[int, int] | None = None, *,
            renumber: bool = True) -> TeamRound:
    """Round `rnd` as a team round: its boards renumbered match by match (match 1's boards first,
    each match in the teams' board order) and its matches (with boards a team did not
    field: an unpaired player of the round with a forfeit code "+" is a board won by forfeit) and
    330's forfeited matches. Matches keep the order of their first board in `rnd`. With
    renumber=False the boards keep their numbers (a broadcast's boards, already played).

    `lines` gives the file line of a starting rank (TRF) for the errors; PairingsError (located)
    for a player without a team, both players of one team, a team in two matches, and boards
    against the lineup or against 352's colours."""
    path = event.path or rnd.source
    by_rank = event.team_of_rank()
    by_name: dict[str, Team] = {}

    def where(p: Pairing | None, player: Player | None) -> tuple[int, int]:
        if player is not None and player.start_rank is not None and lines and player.start_rank in lines:
            return lines[player.start_rank], 5
        return (p.line if p is not None and p.line else 1), 1

    def team_of(p: Pairing | None, player: Player) -> Team:
        if player.start_rank is not None and event.teams:
            t = by_rank.get(player.start_rank)
            if t is None:
                raise PairingsError(path, *where(p, player), "round %d: player %d (%s) is in no team "
                                    "(no 310/013 record lists them)" % (rnd.round, player.start_rank, player.name))
            return t
        if not player.team:
            board = "board %d: " % p.board if p is not None else ""
            raise PairingsError(path, *where(p, player), "round %d: %s%s has no team (a team event needs "
                                "WhiteTeam/BlackTeam or team columns on every board)" % (rnd.round, board, player.name))
        t = event.by_name(player.team) or by_name.get(player.team)
        if t is None:
            t = Team(len(event.teams) + len(by_name) + 1, player.team)
            by_name[player.team] = t
        return t

    # the matches, in the order of their first board
    pair_of: dict[int, int] = {}                                  # team -> opponent team this round
    where_met: dict[int, Pairing] = {}
    games: dict[frozenset[int], list[Pairing]] = {}
    teams: dict[int, Team] = {}
    for p in rnd.boards:
        wt, bt = team_of(p, p.white), team_of(p, p.black)
        teams[wt.number], teams[bt.number] = wt, bt
        if wt.number == bt.number:
            raise PairingsError(path, *where(p, p.white), "round %d: board %d: %s and %s are both of team %s"
                                % (rnd.round, p.board, p.white.name, p.black.name, wt.name))
        for me, other in ((wt, bt), (bt, wt)):
            if pair_of.get(me.number, other.number) != other.number:
                first = where_met[me.number]
                raise PairingsError(path, *where(p, p.white), "round %d: board %d (%s - %s) is a match of "
                                    "%s against %s, but board %d (%s - %s) already pairs %s with %s"
                                    % (rnd.round, p.board, wt.name, bt.name, me.name, other.name,
                                       first.board, first.white.name, first.black.name, me.name,
                                       teams[pair_of[me.number]].name))
            pair_of[me.number] = other.number
            where_met.setdefault(me.number, p)
        games.setdefault(frozenset((wt.number, bt.number)), []).append(p)
    # boards a team did not field: an unpaired player with a forfeit win whose team plays a match
    walkovers: dict[frozenset[int], list[Player]] = {}
    for u in rnd.unpaired:
        if u.code != "+":
            continue
        t = team_of(None, u.player)
        if t.number in pair_of:
            walkovers.setdefault(frozenset((t.number, pair_of[t.number])), []).append(u.player)
    size = len(event.colours) if event.colours else 0
    for key, ps in games.items():
        size = max(size, len(ps) + len(walkovers.get(key, ())))
    matches: list[Match] = []
    boards: list[Pairing] = []
    for key, ps in games.items():
        m = _match(rnd, event, path, len(matches) + 1, ps, walkovers.get(key, []), teams, team_of, where, size)
        renumbered = []
        for mb in m.boards:
            if mb.board is None:
                renumbered.append(mb)
                continue
            pairing = next(p for p in ps if p.board == mb.board)
            boards.append(replace(pairing, board=len(boards) + 1) if renumber else pairing)
            renumbered.append(replace(mb, board=boards[-1].board))
        matches.append(replace(m, boards=tuple(renumbered)))
    playing = {t for key in games for t in key}
    for f in event.forfeits:
        if f.round != rnd.round:
            continue
        for n in (f.white, f.black):
            if n not in event.teams:
                raise PairingsError(path, f.line, 12 if n == f.white else 16,
                                    "round %d: forfeited match: team %d is not a team" % (f.round, n))
            if n in playing:
                raise PairingsError(path, f.line, 12 if n == f.white else 16,
                                    "round %d: team %d (%s) has a forfeited match and boards played"
                                    % (f.round, n, event.teams[n].name))
        matches.append(Match(rnd.round, len(matches) + 1, event.teams[f.white], event.teams[f.black], (),
                             size, f.kind, event.scoring))
        playing.update((f.white, f.black))
    # the pairing-allocated bye: 320's team of the round, else a team whose players all have it (U)
    codes: dict[int, set[str]] = {}
    for u in rnd.unpaired:
        if u.player.start_rank is not None and u.player.start_rank in by_rank:
            codes.setdefault(by_rank[u.player.start_rank].number, set()).add(u.code)
    bye_team = event.byes.get(rnd.round)
    if bye_team is not None and bye_team in playing:
        raise PairingsError(path, event.bye_line, 15 + 4 * (rnd.round - 1), "round %d: team %d (%s) has 320's "
                            "pairing-allocated bye but plays a match" % (rnd.round, bye_team,
                                                                         event.teams[bye_team].name))
    for n, cs in sorted(codes.items()):
        if n not in playing and (cs == {"U"} if bye_team is None else n == bye_team):
            matches.append(Match(rnd.round, len(matches) + 1, event.teams[n], event.teams[n], (), size, BYE,
                                 event.scoring, event.bye_points))
            playing.add(n)
    if bye_team is not None and bye_team not in playing:
        matches.append(Match(rnd.round, len(matches) + 1, event.teams[bye_team], event.teams[bye_team], (), size,
                             BYE, event.scoring, event.bye_points))
    base = {f.name: getattr(rnd, f.name) for f in fields(Round)}
    base["boards"] = boards
    return TeamRound(**base, matches=matches)


def _match(rnd: Round, event: TeamEvent, path: str, number: int, ps: list[Pairing], walkovers: list[Player],
           teams: Mapping[int, Team], team_of: Callable[[Pairing | None, Player], Team],
           where: Callable[[Pairing | None, Player | None], tuple[int, int]], size: int) -> Match:
    """One match of a round: its boards in the teams' board order, colours checked against 352."""
    a, b = sorted({team_of(ps[0], ps[0].white).number, team_of(ps[0], ps[0].black).number})

    def position(team: Team, player: Player, p: Pairing | None) -> int:
        """The player's place in the team's lineup for the round (their order in the file for a
        team without a lineup: PGN, CSV)."""
        lineup = event.lineups.get((rnd.round, team.number)) or team.members
        if not lineup:
            return -1
        if player.start_rank not in lineup:
            raise PairingsError(path, *where(p, player), "round %d: player %d (%s) plays for %s but is not "
                                "in its lineup (%s)" % (rnd.round, player.start_rank or 0, player.name, team.name,
                                                         " ".join(str(r) for r in lineup)))
        return lineup.index(player.start_rank)

    # (place in a's lineup, place in b's lineup, pairing or None, forfeit winner)
    rows: list[tuple[int, int, Pairing | None, Player | None]] = []
    for i, p in enumerate(ps):
        wa = team_of(p, p.white).number == a
        pa, pb = (p.white, p.black) if wa else (p.black, p.white)
        ia, ib = position(teams[a], pa, p), position(teams[b], pb, p)
        rows.append((ia if ia >= 0 else i, ib if ib >= 0 else i, p, None))
    for walker in walkovers:
        t = team_of(None, walker)
        i = position(t, walker, None)
        rows.append((i, -1, None, walker) if t.number == a else (-1, i, None, walker))
    # boards in a's order (b's for a board only b fielded); then b's order must agree
    rows.sort(key=lambda r: r[0] if r[0] >= 0 else r[1])
    last = -1
    for _, ib, q, pl in rows:
        if ib < 0:
            continue
        if ib < last:
            who = q.white if q is not None and team_of(q, q.white).number == b else (q.black if q else pl)
            assert who is not None
            raise PairingsError(path, *where(q, who), "round %d: match %s - %s: %s plays a board above a team-mate "
                                "placed before them in %s's lineup: the board order is against the lineup"
                                % (rnd.round, teams[a].name, teams[b].name, who.name, teams[b].name))
        last = ib
    if len(rows) > size:
        raise PairingsError(path, *where(ps[0], ps[0].white), "round %d: match %s - %s has %d boards, "
                            "more than the %d of 352's colour sequence" % (rnd.round, teams[a].name, teams[b].name,
                                                                          len(rows), size))
    seq = event.colours or ("WB" * size)[:size]
    # the home team (named first) has 352's colour on board 1: found from the first board played
    home = None
    for k, (_, _, q, _) in enumerate(rows):
        if q is not None:
            white_is_a = team_of(q, q.white).number == a
            a_white_seq = seq[k] == "W"
            home = a if white_is_a == a_white_seq else b
            break
    assert home is not None
    away = b if home == a else a
    out: list[MatchBoard] = []
    for k, (_, _, q, pl) in enumerate(rows):
        home_white = seq[k] == "W"
        if q is not None:
            if (team_of(q, q.white).number == home) != home_white:
                raise PairingsError(path, *where(q, q.white), "round %d: match %s - %s, board %d: %s has %s, "
                                    "against the colour sequence %s%s" % (
                                        rnd.round, teams[home].name, teams[away].name, k + 1, teams[home].name,
                                        "Black" if home_white else "White", seq,
                                        " (352)" if event.colours else " (alternating, board 1 from the file)"))
            out.append(MatchBoard(k + 1, q.board, q.white, q.black, q.result, home_white))
        else:
            assert pl is not None
            wins_home = team_of(None, pl).number == home
            white_wins = wins_home == home_white
            out.append(MatchBoard(k + 1, None, pl if white_wins else None, None if white_wins else pl,
                                  WHITE_FORFEIT_WIN if white_wins else BLACK_FORFEIT_WIN, home_white))
    return Match(rnd.round, number, teams[home], teams[away], tuple(out), size, scoring=event.scoring)


def match_json(m: Match, scoring: MatchScoring | None = None, scale: BoardScale = CHESS_SCALE) -> dict[str, Any]:
    """A match as the API gives it: {"round", "number", "home", "away", "home_gp", "away_gp",
    "finished", "home_mp", "away_mp", "forfeit", "boards": [{"number", "board", "white", "black",
    "result", "home_white"}]}."""
    s = m.score(scoring, scale)
    return {"round": m.round, "number": m.number, "home": m.home.name, "away": m.away.name,
            "home_gp": s.home_gp, "away_gp": s.away_gp, "finished": s.finished, "home_mp": s.home_mp,
            "away_mp": s.away_mp, "forfeit": m.forfeit,
            "boards": [{"number": b.number, "board": b.board, "white": b.white.name if b.white else None,
                        "black": b.black.name if b.black else None, "result": b.result,
                        "home_white": b.home_white} for b in m.boards]}


def live_matches(round_: int, boards: Iterable[tuple[int, Mapping[str, str], str | None]],
                 event: TeamEvent | None = None) -> list[Match]:
    """The matches of a round from its games' tags, as a broadcast holds them: (board, tags, canonical
    result or None) with White, Black, WhiteTeam, BlackTeam. Empty unless every game names both
    teams (as Lichess shows a team table only then) and the boards form matches (arrange)."""
    pairings = []
    for board, tags, result in sorted(boards, key=lambda x: x[0]):
        if not tags.get("WhiteTeam") or not tags.get("BlackTeam"):
            return []
        pairings.append(Pairing(board, Player(tags.get("White", "?"), team=tags["WhiteTeam"]),
                                Player(tags.get("Black", "?"), team=tags["BlackTeam"]), result))
    if not pairings:
        return []
    by_name = TeamEvent("", {t.number: replace(t, members=()) for t in event.teams.values()},
                        event.colours, event.scoring) if event is not None else TeamEvent("")
    try:
        return arrange(Round(None, None, None, None, round_, pairings), by_name, renumber=False).matches
    except PairingsError:
        return []


def live_event_matches(rounds: Mapping[int, Iterable[tuple[int, Mapping[str, str], str | None]]]) -> list[Match]:
    """The matches of every round of a broadcast ({round: [(board, tags, result)]}, as live_matches
    takes one), each team with one number for the whole event (the order it is first seen in, round
    by round, board by board), so that its rounds add up in the standings."""
    names: list[str] = []
    for r in sorted(rounds):
        for _, tags, _ in sorted(rounds[r], key=lambda x: x[0]):
            for side in ("WhiteTeam", "BlackTeam"):
                if tags.get(side) and tags[side] not in names:
                    names.append(tags[side])
    event = TeamEvent("", {i: Team(i, name) for i, name in enumerate(names, 1)})
    return [m for r in sorted(rounds) for m in live_matches(r, rounds[r], event)]
