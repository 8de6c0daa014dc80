"""The typed model of a round's pairings, whatever file they came from, and the PGN tags a relay wants.

`Round` holds the tournament's name, city, date and time control and the round's boards in the
order to publish them; `Pairing` is one board (white and black `Player`s and, when the file
already holds it, the result); `Unpaired` lists the players of the round who have no board
(pairing-allocated bye, half/full/zero-point bye, absent). Every reader error is a
`PairingsError` naming the file, the line and the column: "round3.trf:14:92: opponent 57 is not
a player".
"""
from __future__ import annotations

import re
import time
import unicodedata
from dataclasses import dataclass, field

# game results as the round's results are given to write_results_trf and carried in Pairing.result:
# chess, FMJD draughts (2 points a game) and forfeits (+/- white wins by forfeit, -/+ black does,
# -/- both lose by forfeit)
WHITE_WINS = "1-0"
BLACK_WINS = "0-1"
DRAW = "1/2-1/2"
WHITE_FORFEIT_WIN = "+/-"
BLACK_FORFEIT_WIN = "-/+"
DOUBLE_FORFEIT = "-/-"
RESULT_ALIASES = {
    "1-0": WHITE_WINS, "2-0": WHITE_WINS,
    "0-1": BLACK_WINS, "0-2": BLACK_WINS,
    "1/2-1/2": DRAW, "\u00bd-\u00bd": DRAW, "1-1": DRAW, "=-=": DRAW,
    "+/-": WHITE_FORFEIT_WIN, "+-": WHITE_FORFEIT_WIN, "1F-0F": WHITE_FORFEIT_WIN,
    "-/+": BLACK_FORFEIT_WIN, "-+": BLACK_FORFEIT_WIN, "0F-1F": BLACK_FORFEIT_WIN,
    "-/-": DOUBLE_FORFEIT, "--": DOUBLE_FORFEIT, "0F-0F": DOUBLE_FORFEIT,
}


FORFEIT_TERMINATION = "forfeit"
"""A forfeited game's record: its Termination tag (and the game's reason), the result being the winner's
(1-0, 0-1; draughts 2-0, 0-2) or DOUBLE_FORFEIT_RECORD. PGN's own "time forfeit" is a flag, not this."""
DOUBLE_FORFEIT_RECORD = "0-0"
"""A double forfeit's Result in a record and a live state: neither side scores (the clock's "0-0"; Lichess
broadcasts take it, lila #16081)."""
FORFEIT_WINNER = {WHITE_FORFEIT_WIN: 0, BLACK_FORFEIT_WIN: 1, DOUBLE_FORFEIT: None}


def forfeit_record_result(code: str, scoring: tuple[str, str, str]) -> str:
    """The record's Result of a forfeit (+/-, -/+, -/-) in a game whose results are `scoring` (win, loss,
    draw: the registry's): the winner's result, or DOUBLE_FORFEIT_RECORD."""
    winner = FORFEIT_WINNER[code]
    return DOUBLE_FORFEIT_RECORD if winner is None else scoring[winner]


def scored_result(result: str, termination: str | None = None) -> str | None:
    """The canonical result (normalise_result) of a record's or a live state's Result and Termination: a
    forfeit's record (Termination "forfeit") gives +/-, -/+ or -/-, so that standings and the TRF count
    it as a forfeit, not a game played. None while unfinished; ValueError for a foreign text."""
    if (termination or "").strip().lower() == FORFEIT_TERMINATION and result.strip() not in ("", "*"):
        if result.strip() == DOUBLE_FORFEIT_RECORD:
            return DOUBLE_FORFEIT
        played = normalise_result(result)
        return {WHITE_WINS: WHITE_FORFEIT_WIN, BLACK_WINS: BLACK_FORFEIT_WIN}.get(played or "", played)
    return normalise_result(result)


def normalise_result(text: str) -> str | None:
    """The canonical result ("1-0", "0-1", "1/2-1/2", "+/-", "-/+", "-/-") of a result text, None for
    an unfinished game ("*" or empty); ValueError for anything else."""
    t = text.strip()
    if t in ("", "*"):
        return None
    r = RESULT_ALIASES.get(t.replace(" ", ""))
    if r is None:
        raise ValueError("result %r is not one of 1-0, 0-1, 1/2-1/2 (chess), 2-0, 0-2, 1-1 "
                         "(draughts), +/-, -/+, -/- (forfeits) or * (unfinished)" % text[:40])
    return r


class PairingsError(ValueError):
    """A pairing file that cannot be read: where (file, line, column, all 1-based) and why."""

    def __init__(self, path: str, line: int, column: int, message: str) -> None:
        super().__init__("%s:%d:%d: %s" % (path, line, column, message))
        self.path = path
        self.line = line
        self.column = column
        self.message = message


MAX_BOARD = 9999      # a board number (TRF starting ranks and board fields are 4 columns wide)
MAX_ROUND = 999


def columns(text: str, first: int, last: int) -> str:
    """Columns first..last (1-based, inclusive) of a fixed-column line (a TRF's), blank-padded."""
    return text[first - 1:last].ljust(last - first + 1)


def ascii_digits(text: str) -> bool:
    """True if text is one or more ASCII digits 0-9 (str.isdigit also takes '²' and '٣')."""
    return bool(text) and all("0" <= c <= "9" for c in text)


def read_number(text: str, path: str, line: int, column: int, what: str, *, low: int = 0,
                high: int | None = None) -> int:
    """An ASCII whole number of a pairing file, checked against low..high; PairingsError (file:line:
    column) naming `what` otherwise."""
    t = text.strip()
    negative = t[:1] == "-" and ascii_digits(t[1:])            # "-1": a number, out of range
    if not ascii_digits(t) and not negative:
        raise PairingsError(path, line, column, "%s %r is not a number (digits 0-9)" % (what, t[:40]))
    if negative or len(t) > 12 or int(t) < low or (high is not None and int(t) > high):
        raise PairingsError(path, line, column, "%s %s is out of range (%d to %s)"
                            % (what, t[:20], low, high if high is not None else "999999999999"))
    return int(t)


def pgn_date(text: str) -> str | None:
    """A PGN date (YYYY.MM.DD) of a pairing file's date: YYYY/MM/DD or YY/MM/DD (with /, - or .), or
    a day-first DD/MM/YYYY where the day cannot be a month (24/09/2010) or written with dots
    (28. 07. 2005); None for anything else, and for an impossible month or day."""
    t = text.strip()
    m = re.fullmatch(r"([0-9]{2}|[0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})", t)
    if m is not None:
        year = m.group(1) if len(m.group(1)) == 4 else "20" + m.group(1)
        month, day = int(m.group(2)), int(m.group(3))
    else:
        m = re.fullmatch(r"([0-9]{1,2})\s*([/.-])\s*([0-9]{1,2})\s*[/.-]\s*([0-9]{4})", t)
        if m is None or (m.group(2) != "." and int(m.group(1)) <= 12):
            return None                     # not a date, or 05/06/2010: day or month first?
        year, month, day = m.group(4), int(m.group(3)), int(m.group(1))
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    return "%s.%02d.%02d" % (year, month, day)


def warning(path: str, line: int, column: int, message: str) -> str:
    """A reader's warning, located like its errors: "file:line:col: warning: message"."""
    return "%s:%d:%d: warning: %s" % (path, line, column, message)


@dataclass(frozen=True)
class Player:
    """One player as the pairing file knows them; None where the file does not say."""
    name: str
    title: str | None = None
    rating: int | None = None
    federation: str | None = None
    fide_id: str | None = None
    team: str | None = None
    start_rank: int | None = None


@dataclass(frozen=True)
class Pairing:
    """One board of the round. `result` is the canonical result when the file already holds one
    (a TRF read back after the round, a PGN with results), else None."""
    board: int
    white: Player
    black: Player
    result: str | None = None
    line: int = field(default=0, compare=False)     # the file's line of the board (PGN game, CSV row), 0 if none


@dataclass(frozen=True)
class Unpaired:
    """A player without a board this round. `code` is the TRF result code of the round: U
    pairing-allocated bye, F full-point bye, H half-point bye, Z zero-point bye (absent), "+"/"-"
    the points of a forfeit with no opponent, "" not paired (nothing written yet)."""
    player: Player
    code: str


@dataclass(frozen=True)
class TournamentAbout:
    """What the event file (or --name, --site, --date) says of the tournament, over what each
    round's pairing file says: its name, where it is played and its first day (a PGN date)."""
    name: str | None = None
    site: str | None = None
    date: str | None = None

    def apply(self, rnd: Round) -> None:
        """Give `rnd` the name, site and date said here (what is not said stays the file's)."""
        rnd.tournament_name = self.name or rnd.tournament_name
        rnd.city = self.site or rnd.city
        rnd.date = self.date or rnd.date


@dataclass
class Round:
    """A round's pairings. `date` is the tournament's start date and `round_date` the day of this
    round when the file says it (TRF 132), both as PGN dates (YYYY.MM.DD); `time_control` is the
    raw TRF26 222 text (e.g. "5400+30", "W300-B240"), `time_control_text` the free-text 122."""
    tournament_name: str | None
    city: str | None
    date: str | None
    time_control: str | None
    round: int
    boards: list[Pairing]
    unpaired: list[Unpaired] = field(default_factory=list)
    round_date: str | None = None
    time_control_text: str | None = None
    source: str = ""
    warnings: list[str] = field(default_factory=list)   # oddities read past ("file:line:col: warning: ...")

    def slug(self) -> str:
        """The default --tournament: a slug of the event name (Greek and Cyrillic transliterated);
        when a name in another script leaves too little, of the place, the year and the round;
        without a name, of the file's name."""
        if self.tournament_name:
            if readable(self.tournament_name):
                return slug(self.tournament_name)
            year = (self.round_date or self.date or "")[:4]
            place = self.city if self.city and readable(self.city) else ""
            parts = (place, year if ascii_digits(year) else "", "round %d" % self.round)
            return slug(" ".join(x for x in parts if x))
        stem = re.sub(r"\.[^./\\]*$", "", re.split(r"[/\\]", self.source)[-1]) if self.source else ""
        return slug(stem)

    def board(self, number: int) -> Pairing:
        """The pairing on board `number`; KeyError if the round has no such board."""
        for p in self.boards:
            if p.board == number:
                return p
        raise KeyError("round %d has no board %d" % (self.round, number))


SLUG_MAX = 64


# Greek and Cyrillic letters in Latin (ELOT 743 and a plain Russian/Ukrainian/Bulgarian romanisation),
# so that an event named in those scripts keeps a readable slug
_TRANSLIT = dict(zip(
    "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ"
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ",
    ["a", "v", "g", "d", "e", "z", "i", "th", "i", "k", "l", "m", "n", "x", "o", "p", "r", "s", "s", "t",
     "y", "f", "ch", "ps", "o", "a", "e", "i", "i", "o", "y", "o", "i", "y", "i", "y",
     "a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t",
     "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya", "i", "yi", "ye", "g"]))


def _latin(text: str) -> str:
    """The text in lower-case Latin letters: Greek and Cyrillic transliterated, accents dropped
    (what is in another script stays as it is)."""
    text = "".join(_TRANSLIT.get(c, c) for c in text.lower())
    folded = unicodedata.normalize("NFKD", text)
    return "".join(c for c in folded if not unicodedata.combining(c)).lower()


def readable(text: str) -> bool:
    """True if a slug of the text keeps most of its letters (a name in Chinese, Arabic, Hindi...
    would keep only its numbers)."""
    letters = sum(1 for c in text if c.isalpha())
    kept = sum(1 for c in _latin(text) if "a" <= c <= "z")
    return letters == 0 or kept * 2 >= letters


def slug(text: str) -> str:
    """A slug of 1-64 characters of a-z 0-9 - (what flagfall.live accepts as a tournament name):
    accents dropped, Greek and Cyrillic transliterated, anything else folded to single hyphens;
    "tournament" when nothing is left."""
    s = re.sub(r"[^a-z0-9]+", "-", _latin(text)).strip("-")
    s = s[:SLUG_MAX].rstrip("-")
    return s or "tournament"


def _add(tags: dict[str, str], key: str, value: object) -> None:
    if value is not None and value != "":
        tags[key] = str(value)


def tags(pairing: Pairing, round: Round, board: int | None = None) -> dict[str, str]:
    """The PGN tags a relay wants for a board, in a stable order, only those known:
    Event, Site, Date (the round's day if known, else the start date), Round "R.B", Board, White,
    Black, WhiteElo, BlackElo, WhiteTitle, BlackTitle, WhiteFideId, BlackFideId, WhiteFed,
    BlackFed, WhiteTeam, BlackTeam. `board` overrides the pairing's board number."""
    b = pairing.board if board is None else board
    out: dict[str, str] = {}
    _add(out, "Event", round.tournament_name)
    _add(out, "Site", round.city)
    _add(out, "Date", round.round_date or round.date)
    out["Round"] = "%d.%d" % (round.round, b)
    out["Board"] = str(b)
    out["White"] = pairing.white.name
    out["Black"] = pairing.black.name
    for attr, suffix in (("rating", "Elo"), ("title", "Title"), ("fide_id", "FideId"),
                         ("federation", "Fed"), ("team", "Team")):
        _add(out, "White" + suffix, getattr(pairing.white, attr))
        _add(out, "Black" + suffix, getattr(pairing.black, attr))
    return out


def game_id(tournament: str, round_: int, board: int) -> str:
    """A GameId that stays the same across polls, restarts and corrections."""
    return "%s-r%d-b%d" % (tournament, round_, board)


def board_tags(pairing: Pairing, round_: Round, tournament: str,
               tc: str | None = None) -> dict[str, str]:
    """The identity a relay matches a board's game by, in its record (and so its live state and the
    feeds): the pairing's tags (Event, Site, Date, Round "R.B", Board, players...), Event the
    tournament's slug when the pairings name no event, Date the day played, EventDate the
    tournament's first day where known (the event file's `date`, else the pairing file's), a stable
    GameId, the time control. An event's boards and a `flagfall bridge --tournament --round --board`
    both use it."""
    t = tags(pairing, round_)
    if "Event" not in t:
        t["Event"] = tournament
    t["Date"] = time.strftime("%Y.%m.%d")      # the day played (kept in the journal on resume)
    _add(t, "EventDate", round_.date)
    t["GameId"] = game_id(tournament, round_.round, pairing.board)
    if tc:
        t["TimeControl"] = tc
    return t
