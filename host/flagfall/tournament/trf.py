"""FIDE Tournament Report Files (TRF16 and TRF26): a round's pairings in, the round's results out.

A TRF is fixed-column text (FIDE Handbook C.04 Annex 2). What is read here, by 1-based column:

- `001` player lines: 5-8 starting rank, 10 sex, 11-13 title, 15-47 name, 49-52 FIDE rating,
  54-56 federation, 58-68 FIDE id, 70-79 birth date, 81-84 points, 86-89 rank, then ten columns
  per round from 92 (round R at 92 + 10 (R-1)): opponent's starting rank (4 columns, 0000 or
  blank for none), colour (w, b, - or blank), result (1 = 0 + - W D L H F U Z or blank);
- `012` tournament name, `022` city, `042` start date, `122` time control as free text,
  `132` round dates (YY/MM/DD in the round columns), `222` (TRF26) encoded time control, kept as
  raw text (`W300-B240` is an Armageddon: White 300 s, Black 240 s);
- the points of each result: TRF26 `162` (W D L A P X) and bbpPairings' BBW BBD BBL BBZ BBF BBU;
- teams: `013` (TRF16) and `310` (TRF26) records, TRF26 `352` board colours, `362` match points,
  `330` forfeited matches, `300` lineups of a round, `320` the pairing-allocated bye, `299`
  abnormal points and the tie-break list of `212`/`202`, read by trf_teams into a teams.TeamEvent;
  byes of a round: TRF26 `240` records.
Other records (`###` comments, XXR, XXC, national rating records...) are left alone.

Round R's pairings are the player pairs of round R's columns (each side naming the other, one
white, one black); the result column is blank until the game is played. Boards are numbered in
the order FIDE C.04.1 F.1 gives for publishing a pairing: the score of the higher player of the
pair (the one with the higher score, or the lower starting rank between equal scores), then the
sum of both scores, then the starting rank of that higher player; scores are those before round
R, from the result columns of rounds 1 to R-1.

Round R is read strictly; rounds 1 to R-1 only for their scores, so an oddity there is a located
warning (Round.warnings) that counts as no game. A forfeit written without colours ("153 - -" and
"13 - +") is no board: both players are listed apart with their code.
"""
from __future__ import annotations

import codecs
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from flagfall import records

from . import team_standings, trf_teams
from . import teams as teams_mod
from .model import (BLACK_FORFEIT_WIN, BLACK_WINS, DOUBLE_FORFEIT, DRAW, MAX_ROUND, WHITE_FORFEIT_WIN,
                    WHITE_WINS, Pairing, PairingsError, Player, Round, Unpaired, ascii_digits, columns as _cut,
                    normalise_result, pgn_date, read_number, warning)

# flagfall.records is not annotated: typed views of the helpers used here
_read_text: Callable[[str], str] = records.read_text

ROUND_START = 92       # column of round 1's opponent field
ROUND_WIDTH = 10
POINTS_COLUMNS = (81, 84)

TITLES = {"g": "GM", "m": "IM", "f": "FM", "c": "CM", "wg": "WGM", "wm": "WIM", "wf": "WFM",
          "wc": "WCM"}

RESULT_CODES = "+-WDL1=0HFUZ "
# the TRF26 162 scoring categories of every result code (W win OTB, by forfeit or full-point bye;
# D draw or half-point bye; L loss; A absence: zero-point bye or forfeit loss; P pairing-allocated
# bye), with their default points
CATEGORY = {"1": "W", "+": "W", "W": "W", "F": "W", "=": "D", "D": "D", "H": "D", "0": "L",
            "L": "L", "-": "A", "Z": "A", " ": "A", "U": "P"}
FIDE_POINTS = (teams_mod.CHESS_SCALE.win, teams_mod.CHESS_SCALE.draw)
"""(a win's, a draw's) points of the FIDE scoring the TRF assumes when neither the file (162, BB*) nor the
game (GameSpec.points) says otherwise."""
BBP_CODES = {"BBW": ("1", "+", "W", "F"), "BBD": ("=", "D", "H"), "BBL": ("0", "L"), "BBZ": ("Z", " "),
             "BBF": ("-",), "BBU": ("U",)}
"""The result codes each bbpPairings record gives the points of, as bbpPairings scores them: BBF is the
forfeit loss (`-`), BBZ the zero-point bye; a full-point bye scores a win, a half-point bye a draw, and the
pairing-allocated bye a win's points unless BBU says otherwise."""

# (white's code, black's code) of each canonical result, and back
CODES = {WHITE_WINS: ("1", "0"), BLACK_WINS: ("0", "1"), DRAW: ("=", "="),
         WHITE_FORFEIT_WIN: ("+", "-"), BLACK_FORFEIT_WIN: ("-", "+"), DOUBLE_FORFEIT: ("-", "-")}
RESULT_OF_CODES = {v: k for k, v in CODES.items()}
RESULT_OF_CODES.update({("W", "L"): WHITE_WINS, ("L", "W"): BLACK_WINS, ("D", "D"): DRAW})


def round_column(round_: int) -> int:
    """The 1-based column of round `round_`'s opponent field in a 001 line."""
    return ROUND_START + ROUND_WIDTH * (round_ - 1)


@dataclass(frozen=True)
class Entry:
    """One round of one player's line: opponent (0 for none), colour (w, b or -), result code."""
    opponent: int
    colour: str
    code: str


@dataclass
class TrfPlayer:
    """A 001 line: where it is, what it says."""
    line: int
    text: str
    start_rank: int
    sex: str
    title: str | None
    name: str
    rating: int | None
    federation: str | None
    fide_id: str | None
    birth_date: str | None
    points: float | None
    team: str | None = None
    byte_columns: bool = False      # `text` is the line's UTF-8 bytes, one character each

    def player(self) -> Player:
        return Player(name=self.name, title=self.title, rating=self.rating, federation=self.federation,
                      fide_id=self.fide_id, team=self.team, start_rank=self.start_rank)


@dataclass
class Trf:
    """A parsed TRF: the tournament records used here and the player lines, by starting rank."""
    path: str
    name: str | None = None
    city: str | None = None
    start_date: str | None = None
    time_control: str | None = None
    time_control_text: str | None = None
    round_dates: dict[int, str] = field(default_factory=dict)
    players: dict[int, TrfPlayer] = field(default_factory=dict)
    scoring: dict[str, float] = field(default_factory=dict)     # TRF26 162: category -> points the file gives
    overrides: dict[str, float] = field(default_factory=dict)   # bbpPairings' BB*: result code -> points
    byes: dict[tuple[int, int], str] = field(default_factory=dict)   # (round, start rank) -> F/H/Z
    warnings: list[str] = field(default_factory=list)   # oddities read past, located
    team_event: teams_mod.TeamEvent | None = None       # the team records, when the file has any
    abnormal: list[teams_mod.Abnormal] = field(default_factory=list)   # TRF26 299: points given apart
    team_records: str = ""                              # "310" (TRF26) or "013" (TRF16)

    def board_scale(self, scale: tuple[float, float] | None = None) -> teams_mod.BoardScale:
        """A board's points (game points of a team event): the file's scoring (162, BB*), else the
        game's `scale` (as Trf.score)."""
        return teams_mod.BoardScale(self.score("1", scale), self.score("=", scale), self.score("0", scale))

    def warn(self, line: int, column: int, message: str) -> None:
        self.warnings.append(warning(self.path, line, column, message))

    def error(self, line: int, column: int, message: str) -> PairingsError:
        return PairingsError(self.path, line, column, message)

    def entry(self, p: TrfPlayer, round_: int) -> Entry:
        """Round `round_` of a player's line, checked; blank columns are (0, "-", " ")."""
        col = round_column(round_)
        opp_text = _cut(p.text, col, col + 3)
        colour = _cut(p.text, col + 5, col + 5).lower()
        code = _cut(p.text, col + 7, col + 7).upper()
        if opp_text.strip() == "":
            opponent = 0
        elif ascii_digits(opp_text.strip()):
            opponent = int(opp_text)
        else:
            raise self.error(p.line, col, "round %d: opponent %r is not a starting rank"
                             % (round_, opp_text.strip()))
        if colour == " ":
            colour = "-"
        if colour not in "wb-":
            raise self.error(p.line, col + 5, "round %d: colour %r is not w, b or -"
                             % (round_, colour))
        if code not in RESULT_CODES:
            raise self.error(p.line, col + 7, "round %d: result %r is not one of 1 = 0 + - W D L H F U Z"
                             % (round_, code))
        return Entry(opponent, colour, code)

    def past_entry(self, p: TrfPlayer, round_: int, reading: int) -> Entry:
        """Round `round_` of a player's line when round `reading` is the one read or written: a
        round read for its points only, so an oddity there is a located warning and counts as
        no game (0, "-", " ") instead of refusing the file."""
        try:
            return self.entry(p, round_)
        except PairingsError as err:
            self.warn(err.line, err.column, "%s; counted as 0 points (reading round %d)" % (err.message, reading))
            return Entry(0, "-", " ")

    def score(self, code: str, scale: tuple[float, float] | None = None) -> float:
        """The points of a result code: the file's own scoring where it gives one (BB* records, TRF26
        162), else the game's scale (win, draw: GameSpec.points; FIDE's 1 and 1/2 by default). A
        pairing-allocated bye scores a win unless the file says otherwise; a loss or an absence 0."""
        if code in self.overrides:
            return self.overrides[code]
        cat = CATEGORY.get(code, "A")
        if cat in self.scoring:
            return self.scoring[cat]
        if cat == "P" and "W" in self.scoring:
            return self.scoring["W"]
        win, draw = scale or FIDE_POINTS
        return {"W": win, "P": win, "D": draw}.get(cat, 0.0)


def parse_trf(text: str, path: str = "<trf>") -> Trf:
    """Parse a TRF's text; PairingsError (file:line:column) for anything malformed."""
    trf = Trf(path=path)
    records = trf_teams.TeamRecords(path)
    scoring, overrides = trf.scoring, trf.overrides
    bbu_given = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r\n")
        tag = line[:3]
        rest = line[4:].strip() if len(line) > 4 else ""
        if tag == "001":
            p = _player(trf, n, *_column_view(line))
            if p.start_rank in trf.players:
                raise trf.error(n, 5, "starting rank %d is already used on line %d"
                                % (p.start_rank, trf.players[p.start_rank].line))
            trf.players[p.start_rank] = p
        elif tag == "012":
            trf.name = rest or None
        elif tag == "022":
            trf.city = rest or None
        elif tag == "042":
            trf.start_date = pgn_date(rest)
            if rest and trf.start_date is None:
                trf.warn(n, 5, "start date %r is not a date read here (YYYY/MM/DD, or DD.MM.YYYY): the "
                         "round has no Date tag" % rest[:20])
        elif tag == "122":
            trf.time_control_text = rest or None
        elif tag == "222":
            trf.time_control = rest or None
        elif tag == "132":
            col = ROUND_START
            r = 1
            while col <= len(line):
                raw_date = _cut(line, col, col + ROUND_WIDTH - 1).strip()
                d = pgn_date(raw_date)
                if d is not None:
                    trf.round_dates[r] = d
                elif raw_date:
                    trf.warn(n, col, "round %d's date %r is not a date read here (YY/MM/DD)" % (r, raw_date))
                col += ROUND_WIDTH
                r += 1
        elif tag == "162":
            at = 4
            for m in re.finditer(r"([WDLAPX])\s*(-?[0-9]+(?:\.[0-9]+)?)", line[4:]):
                if line[at:4 + m.start()].strip():
                    break
                scoring[m.group(1)] = float(m.group(2))
                at = 4 + m.end()
            if line[at:].strip():
                col = at + len(line[at:]) - len(line[at:].lstrip()) + 1
                trf.warn(n, col, "162 scoring %r is not a category (W D L A P X) and points in digits 0-9: "
                         "the default points are used from here on" % line[at:].strip()[:60])
        elif tag in BBP_CODES:
            if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", rest):
                raise trf.error(n, 5, "%s points %r is not a number" % (tag, rest[:40]))
            value = float(rest)
            for code in BBP_CODES[tag]:
                overrides[code] = value
            bbu_given = bbu_given or tag == "BBU"
        elif tag == "240":
            _byes(trf, n, line)
        elif tag in trf_teams.TAGS:
            records.read(tag, n, line)
    if "1" in overrides and not bbu_given:      # the pairing-allocated bye: a win's points, unless BBU
        overrides["U"] = overrides["1"]
    trf.team_event = records.event(trf.players)
    trf.team_records = records.kind
    trf.abnormal = records.abnormal
    if trf.team_event is None:          # an individual event's 299 names players
        for a in trf.abnormal:
            for k, rank in enumerate(a.ids):
                if rank not in trf.players:
                    raise trf.error(a.line, 24 + 5 * k, "299: player %d is not a player" % rank)
    return trf


# columns that are blank in every well-formed 001 line (between the fields)
SEPARATORS = (4, 9, 14, 48, 53, 57, 69, 80, 85, 90)


def _layout_ok(line: str) -> bool:
    return all(line[c - 1] == " " for c in SEPARATORS if c <= len(line))


def _column_view(line: str) -> tuple[str, bool]:
    """A 001 line as columns: the text itself, or, for a UTF-8 file whose writer counted columns in
    bytes (a non-ASCII name then shifts every later field), one character per byte; and which."""
    if line.isascii() or _layout_ok(line):
        return line, False
    by_bytes = line.encode("utf-8").decode("latin-1")
    if _layout_ok(by_bytes):
        return by_bytes, True
    return line, False


def _from_view(view: str, by_bytes: bool) -> str:
    return view.encode("latin-1").decode("utf-8", errors="replace") if by_bytes else view


def _player(trf: Trf, n: int, line: str, by_bytes: bool = False) -> TrfPlayer:
    rank_text = _cut(line, 5, 8).strip()
    read_number(rank_text, trf.path, n, 5, "starting rank", low=1, high=9999)
    title_code = _cut(line, 11, 13).strip()
    title = TITLES.get(title_code.lower(), title_code.upper()) if title_code else None
    name = _from_view(_cut(line, 15, 47), by_bytes).strip()
    if not name:
        raise trf.error(n, 15, "player %s has no name (columns 15-47)" % rank_text)
    rating_text = _cut(line, 49, 52).strip()
    if rating_text:
        read_number(rating_text, trf.path, n, 49, "rating")
    fide_text = _cut(line, 58, 68).strip()
    if fide_text:
        read_number(fide_text, trf.path, n, 58, "FIDE id")
    points_text = _cut(line, *POINTS_COLUMNS).strip()
    if points_text and not re.fullmatch(r"[0-9]+(\.[0-9]+)?", points_text):
        raise trf.error(n, POINTS_COLUMNS[0], "points %r is not a number (digits 0-9)" % points_text)
    points = float(points_text) if points_text else None
    return TrfPlayer(
        line=n, text=line, start_rank=int(rank_text), sex=_cut(line, 10, 10).strip(), title=title,
        name=name, rating=int(rating_text) if rating_text and int(rating_text) > 0 else None,
        federation=_cut(line, 54, 56).strip() or None,
        fide_id=fide_text if fide_text and int(fide_text) > 0 else None,
        birth_date=_cut(line, 70, 79).strip() or None, points=points, byte_columns=by_bytes)


def _byes(trf: Trf, n: int, line: str) -> None:
    kind = _cut(line, 5, 5).upper()
    if kind not in "FHZ":
        raise trf.error(n, 5, "bye type %r is not F, H or Z" % kind)
    rnd = _cut(line, 7, 9).strip()
    read_number(rnd, trf.path, n, 7, "bye round", low=1, high=MAX_ROUND)
    col = 11
    while col <= len(line):
        t = _cut(line, col, col + 3).strip()
        if t:
            if not ascii_digits(t):
                raise trf.error(n, col, "bye player %r is not a starting rank" % t)
            trf.byes[(int(rnd), int(t))] = kind
        col += 5


def _scores_before(trf: Trf, round_: int) -> dict[int, float]:
    """Every player's points from rounds 1 .. round_-1's result columns."""
    scores = {}
    for rank, p in trf.players.items():
        total = 0.0
        for r in range(1, round_):
            # past rounds are read for their scores only: an oddity there is a warning, not a refusal
            e = trf.past_entry(p, r, round_)
            if e.opponent and e.code == " ":
                trf.warn(p.line, round_column(r) + 7, "round %d of player %d (against %d) has no result; "
                         "counted as 0 points for ordering round %d's boards" % (r, rank, e.opponent, round_))
            total += trf.score(e.code)
        scores[rank] = total
    return scores


def _check_pair(trf: Trf, p: TrfPlayer, e: Entry, round_: int) -> TrfPlayer:
    """The opponent of a paired entry, after checking both lines agree."""
    col = round_column(round_)
    if e.opponent not in trf.players:
        raise trf.error(p.line, col, "opponent %d is not a player" % e.opponent)
    if e.opponent == p.start_rank:
        raise trf.error(p.line, col, "player %d is paired against themself" % p.start_rank)
    if e.colour == "-":
        raise trf.error(p.line, col + 5, "round %d: player %d has opponent %d but no colour (w or b)"
                        % (round_, p.start_rank, e.opponent))
    q = trf.players[e.opponent]
    f = trf.entry(q, round_)
    if f.opponent != p.start_rank or f.colour == e.colour or f.colour == "-":
        said = ("%d %s" % (f.opponent, f.colour)) if f.opponent else "no opponent"
        raise trf.error(p.line, col, "round %d: player %d has %d with %s, but player %d's line "
                        "(line %d) says %s" % (round_, p.start_rank, e.opponent,
                                               "white" if e.colour == "w" else "black",
                                               e.opponent, q.line, said))
    return q


def round_from_trf(trf: Trf, round_: int, teams: bool | None = None) -> Round:
    """Round `round_` of a parsed TRF: boards in publishing order, byes and unpaired players. A team
    event (`teams`; by default, a file with TRF26 310 team records) has its boards match by match
    and its matches (a teams.TeamRound, teams.arrange)."""
    if not 1 <= round_ <= MAX_ROUND:
        raise trf.error(1, 1, "round %d: rounds are numbered 1 to %d" % (round_, MAX_ROUND))
    if not trf.players:
        raise trf.error(1, 1, "no 001 player lines: not a TRF, or an empty one")
    col = round_column(round_)
    entries = {rank: trf.entry(p, round_) for rank, p in trf.players.items()}
    for rank in sorted(trf.players):                        # every opponent first, then the pairs
        if entries[rank].opponent and entries[rank].opponent not in trf.players:
            raise trf.error(trf.players[rank].line, col,
                            "opponent %d is not a player" % entries[rank].opponent)
    if not any(e.opponent for e in entries.values()):
        first = min(trf.players.values(), key=lambda p: p.line)
        raise trf.error(first.line, col, "round %d is not paired in this file: no 001 line has an "
                        "opponent in columns %d-%d" % (round_, col, col + 3))
    scores = _scores_before(trf, round_)
    pairs: list[tuple[TrfPlayer, TrfPlayer, str | None]] = []
    unpaired: list[Unpaired] = []
    for rank in sorted(trf.players):
        p = trf.players[rank]
        e = trf.entry(p, round_)
        if e.opponent == 0:
            code = trf.byes.get((round_, rank), e.code.strip())
            unpaired.append(Unpaired(p.player(), code))
            continue
        if e.colour == "-" and e.code in "+-":
            # a forfeit written without colours ("153 - -" / "13 - +"): no game on a board
            f = entries[e.opponent]
            if f.opponent != rank or f.colour != "-" or f.code not in "+-" or e.code == f.code == "+":
                said = ("%d %s %s" % (f.opponent, f.colour, f.code)) if f.opponent else "no opponent"
                raise trf.error(p.line, col, "round %d: player %d has a forfeit against %d without colours, "
                                "but player %d's line (line %d) says %s"
                                % (round_, rank, e.opponent, e.opponent, trf.players[e.opponent].line, said))
            trf.warn(p.line, col, "round %d: player %d against %d is a forfeit without colours (%s): "
                     "listed as unpaired, no board" % (round_, rank, e.opponent, e.code))
            unpaired.append(Unpaired(p.player(), e.code))
            continue
        q = _check_pair(trf, p, e, round_)
        if e.colour == "b":
            continue                                        # listed from white's line
        f = trf.entry(q, round_)
        codes = (e.code, f.code)
        if codes == (" ", " "):
            result = None
        elif codes in RESULT_OF_CODES:
            result = RESULT_OF_CODES[codes]
        else:
            raise trf.error(p.line, col + 7, "round %d: results %r (white, line %d) and %r (black, line "
                            "%d) do not fit together" % (round_, e.code, p.line, f.code, q.line))
        pairs.append((p, q, result))

    def order(pair: tuple[TrfPlayer, TrfPlayer, str | None]) -> tuple[float, float, int]:
        a, b = pair[0].start_rank, pair[1].start_rank
        higher = min((a, b), key=lambda r: (-scores[r], r))
        return (-scores[higher], -(scores[a] + scores[b]), higher)

    pairs.sort(key=order)
    seen: dict[str, TrfPlayer] = {}
    for pair in pairs:
        for q in pair[:2]:
            if q.fide_id is None:
                continue
            if q.fide_id in seen:
                first = seen[q.fide_id]
                raise trf.error(q.line, 58, "round %d: FIDE id %s of player %d is also player %d's (line %d): "
                                "the same player on two boards" % (round_, q.fide_id, q.start_rank,
                                                                   first.start_rank, first.line))
            seen[q.fide_id] = q
    boards = [Pairing(i, w.player(), b.player(), res, w.line) for i, (w, b, res) in enumerate(pairs, 1)]
    rnd = Round(tournament_name=trf.name, city=trf.city, date=trf.start_date,
                time_control=trf.time_control, round=round_, boards=boards, unpaired=unpaired,
                round_date=trf.round_dates.get(round_), time_control_text=trf.time_control_text,
                source=trf.path, warnings=list(trf.warnings))
    if teams is None:
        teams = trf.team_records == "310"
    if teams:
        if trf.team_event is None:
            raise trf.error(1, 1, "round %d is read as a team event, but the file has no 310 or 013 team records"
                            % round_)
        rnd = teams_mod.arrange(rnd, trf.team_event, {r: p.line for r, p in trf.players.items()})
    return rnd


def team_matches(trf: Trf, through_round: int, teams: bool = True,
                 played: Mapping[int, Mapping[int, str | None]] | None = None) -> list[teams_mod.Match]:
    """Every match of rounds 1 to `through_round` as the file holds them (results and 330 forfeits),
    with the results of `played` ({round: {board: canonical result or None}}, the boards being
    played) instead of the file's; a round not paired in the file has none."""
    out: list[teams_mod.Match] = []
    for r in range(1, through_round + 1):
        if not any(trf.entry(p, r).opponent for p in trf.players.values()) and not any(
                f.round == r for f in (trf.team_event.forfeits if trf.team_event else ())):
            continue
        live = (played or {}).get(r)
        out.extend(m.with_results(live) if live else m for m in teams_mod.matches_of(round_from_trf(trf, r, teams)))
    return out


def read_trf(path: str, round_: int, teams: bool | None = None) -> Round:
    """Round `round_`'s pairings from a TRF16/TRF26 file (a team event's: see round_from_trf)."""
    return round_from_trf(parse_trf(_read_text(path), path), round_, teams)


def _put(line: str, column: int, text: str) -> str:
    """`line` with `text` written from 1-based `column`, blank-padded as needed."""
    line = line.ljust(column - 1 + len(text))
    return line[:column - 1] + text + line[column - 1 + len(text):]


def write_results_trf(trf_text: str, round: int, results: Mapping[int, str], path: str = "<trf>",
                      scale: tuple[float, float] | None = None,
                      team_tiebreaks: Sequence[str] | None = None) -> str:
    """The TRF with round `round`'s results written: for every board in `results` ({board: result},
    boards numbered as read_trf numbers them), both players' opponent, colour and result columns
    (1 = 0, + - for forfeits) and their points column (81-84) updated. Results are chess
    ("1-0", "0-1", "1/2-1/2"), FMJD draughts ("2-0", "0-2", "1-1") or forfeits ("+/-", "-/+",
    "-/-"); "*" leaves a board as it is. Points are the file's scoring (162, BB*), else `scale`, the
    game's (GameSpec.points: draughts 2 a win, 1 a draw). A team event's boards are numbered match by
    match (as round_from_trf numbers them) and its 310 lines get the match points, game points and rank
    after the round (_update_teams), ranked by `team_tiebreaks` (canonical codes, team_standings.parse_tiebreaks)
    or else the file's own list (212/202), else the Olympiad's. Every other line is kept byte for
    byte, line ends too (320, 299, 202/212 records included), except that a scale the file does not
    say is declared in it first (with_scale_declared)."""
    # the boards are numbered as the file was read (its points order them): before a scale is declared
    rnd = round_from_trf(parse_trf(trf_text, path), round)
    trf_text = with_scale_declared(trf_text, round, path, scale)
    trf = parse_trf(trf_text, path)
    by_board = {p.board: p for p in rnd.boards}
    col = round_column(round)
    lines = trf_text.splitlines(keepends=True)
    for board, text in sorted(results.items()):
        if board not in by_board:
            raise ValueError("board %d is not a board of round %d (boards 1-%d)"
                             % (board, round, len(rnd.boards)))
        try:
            result = normalise_result(text)
        except ValueError as e:
            raise ValueError("board %d: %s" % (board, e)) from None
        if result is None:
            continue
        pairing = by_board[board]
        assert pairing.white.start_rank is not None and pairing.black.start_rank is not None
        for me, other, colour, code in ((pairing.white.start_rank, pairing.black.start_rank, "w",
                                         CODES[result][0]),
                                        (pairing.black.start_rank, pairing.white.start_rank, "b",
                                         CODES[result][1])):
            p = trf.players[me]
            old = trf.entry(p, round)
            raw = lines[p.line - 1]
            body, ending = _view_of(raw, p)
            body = _put(body, col, "%4d %s %s" % (other, colour, code))
            if p.points is not None:
                points = p.points - trf.score(old.code, scale) + trf.score(code, scale)
            else:
                updated = TrfPlayer(**{**p.__dict__, "text": body})
                points = sum(trf.score((trf.entry(updated, r) if r == round else
                                        trf.past_entry(updated, r, round)).code, scale)
                             for r in range(1, max(round, _rounds_in(body)) + 1))
            if points >= 99.95 or points <= -9.95:
                raise ValueError("board %d: player %d's points %.1f do not fit the 4 columns of the "
                                 "points field" % (board, me, points))
            body = _put(body, POINTS_COLUMNS[0], "%4.1f" % points)
            lines[p.line - 1] = _from_view(body, p.byte_columns) + ending
    for u in rnd.unpaired:
        # a bye of the round counts once the round is over: added to a points column that holds the
        # rounds before it only (a column already counting it, or adjusted otherwise, is left alone)
        assert u.player.start_rank is not None
        p = trf.players[u.player.start_rank]
        before = sum(trf.score(trf.past_entry(p, r, round).code, scale) for r in range(1, round))
        bye = trf.score(trf.entry(p, round).code, scale)
        if p.points is not None and bye and abs(p.points - before) < 1e-9:
            body, ending = _view_of(lines[p.line - 1], p)
            body = _put(body, POINTS_COLUMNS[0], "%4.1f" % (before + bye))
            lines[p.line - 1] = _from_view(body, p.byte_columns) + ending
    text = "".join(lines)
    return _update_teams(text, round, path, team_tiebreaks, scale) if trf.team_records == "310" else text


def _scoring_line(scoring: Mapping[str, float]) -> str:
    """A TRF26 162 record in the columns pairing engines read it by: each category's letter from
    column 6, every 9 columns, its points in the 4 columns after it (bbpPairings writes and reads it so)."""
    return "162  " + "    ".join("%s%4.1f" % (cat, scoring[cat]) for cat in "WDLAPX" if cat in scoring)


def with_scale_declared(trf_text: str, round_: int, path: str = "<trf>",
                        scale: tuple[float, float] | None = None) -> str:
    """The TRF saying the points of `scale` (win, draw: the game's GameSpec.points, or the event's own
    scoring) wherever its own scoring is silent and FIDE's 1 and 1/2 would be assumed instead. A pairing
    engine reads a TRF
    round after round on the scoring it declares (TRF26 162, bbpPairings' BBW/BBD), else on FIDE's,
    and checks every player's points column against the results (bbpPairings refuses a file whose
    columns do not add up): draughts points (2 a win, 1 a draw) in a file that says nothing would be
    read as a mistake. So the missing points are declared - added to the file's 162 record, or to its
    BB* records when it uses those, or as a new 162 record before the first player line - and each
    points column already written is carried onto the declared scale: the results of rounds 1 to
    round_-1, and round round_'s when the column counts it, scored again (anything else it holds, an
    acceleration or a 299 assignment, is kept). The text is returned unchanged when nothing is missing."""
    if scale is None:
        return trf_text
    old = parse_trf(trf_text, path)
    missing: dict[str, float] = {}
    for cat, code, points, fide in (("W", "1", scale[0], FIDE_POINTS[0]), ("D", "=", scale[1], FIDE_POINTS[1])):
        if cat not in old.scoring and code not in old.overrides and points != fide:
            missing[cat] = points
    if not missing:
        return trf_text
    lines = trf_text.splitlines(keepends=True)
    first = min((p.line for p in old.players.values()), default=len(lines) + 1)
    ending = lines[first - 1][len(lines[first - 1].rstrip("\r\n")):] if first <= len(lines) else "\n"
    at_162 = [n for n, raw in enumerate(lines) if raw.startswith("162")]
    if at_162:
        raw = lines[at_162[0]]
        lines[at_162[0]] = _scoring_line({**old.scoring, **missing}) + raw[len(raw.rstrip("\r\n")):]
        shift = 0
    else:
        declared = (["BB%s %4.1f%s" % (cat, points, ending) for cat, points in missing.items()] if old.overrides
                    else [_scoring_line(missing) + ending])
        lines[first - 1:first - 1] = declared
        shift = len(declared)          # every player line comes after them
    new = parse_trf("".join(lines), path)
    for rank, p in old.players.items():
        if p.points is None:       # a blank column is added up by write_results_trf on the new scale
            continue
        before = [old.past_entry(p, r, round_).code for r in range(1, round_)]
        was = sum(old.score(c) for c in before)
        points = p.points - was + sum(new.score(c) for c in before)
        code = old.entry(p, round_).code
        if code.strip() and old.score(code) and abs(p.points - was - old.score(code)) < 1e-9:
            points += new.score(code) - old.score(code)       # the column counts round round_ already
        if points >= 99.95 or points <= -9.95:
            raise ValueError("player %d's points %.1f on the scale %s-%s-0 do not fit the 4 columns of the "
                             "points field" % (rank, points, scale[0], scale[1]))
        body, line_end = _view_of(lines[p.line - 1 + shift], p)
        lines[p.line - 1 + shift] = (_from_view(_put(body, POINTS_COLUMNS[0], "%4.1f" % points), p.byte_columns)
                                     + line_end)
    return "".join(lines)


def _update_teams(text: str, round_: int, path: str, tiebreaks: Sequence[str] | None,
                  scale: tuple[float, float] | None = None) -> str:
    """The TRF with every 310 line's match points (55-60), game points (62-67) and rank (69-71) those
    of the team standings after round `round_` (team_standings.standings with the file's 362 and 162
    scoring and its 299 assignments, ranked by `tiebreaks` or the file's list:
    team_standings.chosen_tiebreaks); every other byte kept."""
    trf = parse_trf(text, path)
    assert trf.team_event is not None
    event = trf.team_event
    rows = team_standings.standings(team_matches(trf, round_), event.teams.values(), event.scoring,
                               trf.board_scale(scale), team_standings.chosen_tiebreaks(event, tiebreaks),
                               event.abnormal, round_)
    lines = text.splitlines(keepends=True)
    for row in rows:
        team = event.teams[row["number"]]
        raw = lines[team.line - 1]
        body = raw.rstrip("\r\n")
        for first, value in ((55, "%6.1f" % row["mp"]), (62, "%6.1f" % row["gp"]), (69, "%3d" % row["rank"])):
            if len(value) > 6:
                raise ValueError("team %d: %s does not fit columns %d-%d of its 310 line" % (team.number, value, first,
                                                                                               first + 5))
            body = _put(body, first, value)
        lines[team.line - 1] = body + raw[len(body):]
    return "".join(lines)


def _view_of(raw: str, p: TrfPlayer) -> tuple[str, str]:
    """(columns view, line end) of a line of the file as written."""
    body = raw.rstrip("\r\n")
    return (body.encode("utf-8").decode("latin-1") if p.byte_columns else body), raw[len(body):]


def write_results_trf_file(path: str, round: int, results: Mapping[int, str], out_path: str,
                           scale: tuple[float, float] | None = None,
                           team_tiebreaks: Sequence[str] | None = None) -> None:
    """write_results_trf from file `path` to file `out_path` (replaced atomically), in the input's
    encoding: UTF-8 (with its BOM if it had one) or, when it is not UTF-8, Latin-1 byte for byte."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8-sig")
        encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    except UnicodeDecodeError:
        text, encoding = data.decode("latin-1"), "latin-1"
    out = write_results_trf(text, round, results, path, scale, team_tiebreaks).encode(encoding)
    tmp = out_path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(out)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, out_path)


def _rounds_in(line: str) -> int:
    """How many round groups a 001 line reaches into."""
    return max(0, (len(line.rstrip()) - ROUND_START + ROUND_WIDTH) // ROUND_WIDTH)
