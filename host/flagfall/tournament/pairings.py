"""A round's pairings from the files pairing programs write: their PGN of the round, a FIDE TRF
(TRF16 or TRF26, see trf.py) or a plain CSV.

    read_pairings("round4.trf", 4)      # or .pgn, .csv; the kind is guessed from the name, then the text

- PGN: one game per board and no moves, `[Round "R.B"]` (or `[Round "R"]` with `[Board "B"]`),
  White, Black, and optionally WhiteElo/BlackElo, WhiteFideId/BlackFideId, WhiteTitle/BlackTitle,
  WhiteFed/BlackFed, WhiteTeam/BlackTeam, Event, Site, Date, TimeControl. Games of other rounds are
  skipped, so a whole tournament's file works too; a game against "bye" lists the player as
  unpaired.
- CSV: `board,white,black[,white_fide_id,black_fide_id]`, comma, semicolon or tab separated,
  quotes as in RFC 4180 ("Carlsen, Magnus"), header optional (with a header, the columns may come
  in any order and white_elo, black_elo, white_title, black_title, white_fed, black_fed,
  white_team, black_team are read too).
Every error is a PairingsError naming the file, line and column. Numbers are digits 0-9 only
(model.read_number), boards 1 to 9999; the same player twice in a round is refused with both
lines; a PGN of played games (moves, results) is refused unless from_games. What is read past
(an ambiguous date) is a located warning in Round.warnings. docs/event.md, "Odd and hostile files".
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable

from flagfall import records

from .model import (BLACK_FORFEIT_WIN, DOUBLE_FORFEIT, MAX_BOARD, MAX_ROUND, WHITE_FORFEIT_WIN, Pairing,
                    PairingsError, Player, Round, TournamentAbout, Unpaired, ascii_digits, normalise_result, pgn_date,
                    read_number, warning)
from . import teams as teams_mod
from .trf import parse_trf, round_from_trf

# flagfall.records is not annotated: typed views of the helpers used here
_read_text: Callable[[str], str] = records.read_text
_parse_tag: Callable[[str], "tuple[str, str] | None"] = records.parse_tag
_decode: Callable[[bytes], str] = records.decode

KINDS = ("pgn", "trf", "csv")
FORFEITS = (WHITE_FORFEIT_WIN, BLACK_FORFEIT_WIN, DOUBLE_FORFEIT)   # decided before the round: kept in pairings
BYE_NAMES = ("bye", "-")


def normalise_result_or_none(text: str) -> str | None:
    """normalise_result, with None for a text that is no result at all."""
    try:
        return normalise_result(text)
    except ValueError:
        return None


def kind_of(path: str, text: str) -> str:
    """"pgn", "trf" or "csv": from the file's extension, else from its first meaningful line."""
    ext = os.path.splitext(path)[1].lower()
    if ext in (".pgn",):
        return "pgn"
    if ext in (".trf", ".trfx", ".trf16", ".trf26"):
        return "trf"
    if ext in (".csv", ".tsv"):
        return "csv"
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("###") or s.startswith("%"):
            continue
        if s.startswith("["):
            return "pgn"
        if len(line) >= 4 and ascii_digits(line[:3]) and line[3] == " ":
            return "trf"
        return "csv"
    return "csv"


def read_pairings(path: str, round_: int, kind: str | None = None, *, from_games: bool = False,
                  teams: bool | None = None, about: TournamentAbout | None = None) -> Round:
    """Round `round_`'s pairings from a pairing file (`kind` "pgn", "trf" or "csv", else guessed).

    A PGN holding moves or results (played games, a broadcast export) is refused unless
    from_games: then its players are the pairings and its moves and results are ignored.

    A team event (`teams`; by default only a TRF with 310 team records is one, since individual
    events also write clubs as teams) is a teams.TeamRound: its boards match by match, its matches
    (teams.arrange): a TRF's teams from its team records, a PGN's or CSV's from its team tags or
    columns. `about` (the event file's name, site and date) is said over the file's."""
    rnd = _read_pairings(path, round_, kind, from_games=from_games, teams=teams)
    if about is not None:
        about.apply(rnd)
    return rnd


def _read_pairings(path: str, round_: int, kind: str | None, *, from_games: bool, teams: bool | None) -> Round:
    if isinstance(round_, bool) or not isinstance(round_, int) or not 1 <= round_ <= MAX_ROUND:
        raise PairingsError(path, 1, 1, "round %r: rounds are numbered 1 to %d" % (round_, MAX_ROUND))
    text = _read_text(path)
    k = kind or kind_of(path, text)
    if k == "trf":
        return round_from_trf(parse_trf(text, path), round_, teams)
    if k == "pgn":
        rnd = parse_pgn_pairings(text, round_, path, from_games=from_games)
    elif k == "csv":
        rnd = parse_csv_pairings(text, round_, path)
    else:
        raise ValueError("kind must be one of %s (got %r)" % (", ".join(KINDS), kind))
    return teams_mod.arrange(rnd, teams_mod.TeamEvent(path)) if teams else rnd


# --- PGN -------------------------------------------------------------------------------------

class _Game:
    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, tuple[str, int, int]] = {}     # key -> (value, line, column)
        self.moves_at: tuple[int, int] | None = None        # where its movetext has a move, if it has one

    def get(self, key: str) -> str | None:
        v = self.tags.get(key)
        if v is None:
            return None
        s = v[0].strip()
        return None if s in ("", "?", "-") or set(s) <= set("?.") else s


def _games(text: str, path: str) -> list[_Game]:
    games: list[_Game] = []
    cur: _Game | None = None
    in_moves = False
    depth = 0                                               # inside a {comment} of the movetext
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("%"):
            continue
        if s.startswith("[") and depth == 0:
            t = _parse_tag(line)
            if t is None:
                raise PairingsError(path, n, line.index("[") + 1, "not a tag line: %r" % s[:60])
            if cur is None or in_moves:
                cur = _Game(n)
                games.append(cur)
                in_moves = False
            key, value = t
            col = line.index('"') + 2
            if key in cur.tags:
                raise PairingsError(path, n, line.index("[") + 2, "tag %s given twice in the game "
                                    "starting on line %d" % (key, cur.line))
            cur.tags[key] = (value, n, col)
        elif s:
            if cur is None:
                raise PairingsError(path, n, 1, "text before the first game's tags")
            in_moves = True
            outside: list[str] = []
            for c in s.split(";", 1)[0] if depth == 0 else s:
                if c == "{":
                    depth += 1
                elif c == "}" and depth:
                    depth -= 1
                elif depth == 0:
                    outside.append(c)
            words = [w for w in "".join(outside).split() if w not in ("*", "1-0", "0-1", "1/2-1/2")]
            if words and cur.moves_at is None:
                cur.moves_at = (n, line.find(words[0]) + 1 if words[0] in line else 1)
    return games


def _raw(g: _Game, key: str) -> str:
    v = g.tags.get(key)
    return "" if v is None else v[0].strip()


def _int_tag(g: _Game, key: str, path: str) -> int | None:
    v = g.get(key)
    if v is None:
        return None
    _, n, col = g.tags[key]
    return read_number(v, path, n, col, key) or None


def _pgn_player(g: _Game, side: str, path: str) -> Player:
    name = g.get(side)
    if name is None:
        raise PairingsError(path, g.line, 1, "the game starting here has no %s tag" % side)
    fide = g.get(side + "FideId")
    if fide is not None:
        _, n, col = g.tags[side + "FideId"]
        read_number(fide, path, n, col, side + "FideId")
    return Player(name=name, title=g.get(side + "Title"), rating=_int_tag(g, side + "Elo", path),
                  federation=g.get(side + "Fed"), fide_id=fide if fide and int(fide) else None,
                  team=g.get(side + "Team"))


def _same_player(seen: dict[str, tuple[int, str]], player: Player, path: str, line: int, column: int) -> None:
    """Refuse a player paired twice in the round (by FIDE id, else by name), naming both lines."""
    key = ("id:" + player.fide_id) if player.fide_id else ("name:" + " ".join(player.name.casefold().split()))
    if key in seen:
        first_line, first_name = seen[key]
        if player.fide_id:
            raise PairingsError(path, line, column, "%s: FIDE id %s is already paired on line %d (%s)"
                                % (player.name, player.fide_id, first_line, first_name))
        raise PairingsError(path, line, column, "%s is already paired on line %d" % (player.name, first_line))
    seen[key] = (line, player.name)


def parse_pgn_pairings(text: str, round_: int, path: str = "<pgn>", *, from_games: bool = False) -> Round:
    """Round `round_` of a pairing program's PGN (one game per board, no moves; see read_pairings
    for from_games)."""
    games = _games(text, path)
    if not games:
        raise PairingsError(path, 1, 1, "no games: a pairing PGN has one game (tags, no moves) per board")
    boards: dict[int, tuple[Pairing, int]] = {}
    unpaired: list[Unpaired] = []
    first: _Game | None = None
    rounds_seen: set[int] = set()
    players: dict[str, tuple[int, str]] = {}
    for g in games:
        if "Round" not in g.tags:
            raise PairingsError(path, g.line, 1, "the game starting here has no Round tag")
        value, n, col = g.tags["Round"]
        parts = value.strip().split(".")
        if not all(ascii_digits(p) for p in parts) or len(parts) > 2:
            raise PairingsError(path, n, col, 'Round %r is not "R.B" (round.board) or "R", in digits 0-9' % value[:40])
        rounds_seen.add(read_number(parts[0], path, n, col, "round", low=1, high=MAX_ROUND))
        if int(parts[0]) != round_:
            continue
        if not from_games:
            played = g.get("Result")
            if g.moves_at is not None:
                raise PairingsError(path, g.moves_at[0], g.moves_at[1], "the game of board %s has moves: this "
                                    "is a file of played games, not pairings (a pairing PGN has tags and no "
                                    "moves); to take its players as the pairings, give --pairings-from-games"
                                    % (parts[-1] if len(parts) == 2 else "?"))
            decided = normalise_result_or_none(played) if played is not None else None
            if decided is not None and decided not in FORFEITS:
                _, rn, rc = g.tags["Result"]
                raise PairingsError(path, rn, rc, "the game has the result %s: this is a file of played games, "
                                    "not pairings; to take its players as the pairings, give "
                                    "--pairings-from-games" % played)
        if len(parts) == 2:
            board = read_number(parts[1], path, n, col, "board", low=1, high=MAX_BOARD)
            b = g.get("Board")
            if b is not None and b != str(board):
                _, bn, bc = g.tags["Board"]
                raise PairingsError(path, bn, bc, "Board %r does not match Round %r" % (b[:20], value[:40]))
        else:
            b_ = _int_tag(g, "Board", path)
            if b_ is not None and b_ > MAX_BOARD:
                _, bn, bc = g.tags["Board"]
                raise PairingsError(path, bn, bc, "board %d is out of range (1 to %d)" % (b_, MAX_BOARD))
            if b_ is None:
                raise PairingsError(path, n, col, 'Round %r has no board number: write "R.B" or add a '
                                    "Board tag" % value[:40])
            board = b_
        if board < 1:
            raise PairingsError(path, n, col, "board %d: boards are numbered from 1" % board)
        first = first or g
        bye = [s for s in ("White", "Black") if _raw(g, s).lower() in BYE_NAMES]
        if len(bye) == 1:
            side = "Black" if bye == ["White"] else "White"
            pl = _pgn_player(g, side, path)
            _same_player(players, pl, path, g.tags[side][1], g.tags[side][2])
            unpaired.append(Unpaired(pl, "U"))
            continue
        result = None
        if not from_games:
            try:
                result = normalise_result(g.get("Result") or "*")
            except ValueError as e:
                _, rn, rc = g.tags["Result"]
                raise PairingsError(path, rn, rc, str(e)) from None
        if board in boards:
            raise PairingsError(path, n, col, "board %d is already paired by the game on line %d"
                                % (board, boards[board][1]))
        white, black = _pgn_player(g, "White", path), _pgn_player(g, "Black", path)
        for side, pl in (("White", white), ("Black", black)):
            _, pn, pc = g.tags[side]
            _same_player(players, pl, path, pn, pc)
        boards[board] = (Pairing(board, white, black, result, g.line), g.line)
    if first is None:
        raise PairingsError(path, games[0].line, 1, "no game of round %d (rounds in the file: %s)"
                            % (round_, ", ".join(str(r) for r in sorted(rounds_seen))))
    warnings: list[str] = []
    date = first.get("Date")
    if date is not None and not re.fullmatch(r"[0-9]{4}\.[0-9?]{2}\.[0-9?]{2}", date):
        _, dn, dc = first.tags["Date"]
        read = pgn_date(date)
        if read is None:
            warnings.append(warning(path, dn, dc, "Date %r is not a date read here (YYYY.MM.DD, or a day-first "
                                    "DD/MM/YYYY): the games get no Date tag" % date[:20]))
        date = read
    return Round(tournament_name=first.get("Event"), city=first.get("Site"), date=date,
                 time_control=first.get("TimeControl"), round=round_,
                 boards=[boards[b][0] for b in sorted(boards)], unpaired=unpaired, source=path,
                 warnings=warnings)


# --- CSV -------------------------------------------------------------------------------------

CSV_COLUMNS = ("board", "white", "black", "white_fide_id", "black_fide_id")
CSV_EXTRA = ("white_elo", "black_elo", "white_title", "black_title", "white_fed", "black_fed",
             "white_team", "black_team")


def _split(line: str, sep: str, path: str, n: int) -> list[tuple[str, int]]:
    """The fields of one CSV line with their 1-based columns; quotes as in RFC 4180."""
    fields: list[tuple[str, int]] = []
    i = 0
    while True:
        start = i
        while i < len(line) and line[i] == " ":
            i += 1
        if i < len(line) and line[i] == '"':
            qcol = i + 1
            i += 1
            value = []
            while True:
                if i >= len(line):
                    raise PairingsError(path, n, qcol, "quote not closed on this line")
                if line[i] == '"':
                    if i + 1 < len(line) and line[i + 1] == '"':
                        value.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                value.append(line[i])
                i += 1
            while i < len(line) and line[i] == " ":
                i += 1
            if i < len(line) and line[i] != sep:
                raise PairingsError(path, n, i + 1, "text after a closing quote")
            fields.append(("".join(value), qcol + 1))
        else:
            j = line.find(sep, i)
            j = len(line) if j < 0 else j
            fields.append((line[start:j].strip(), start + 1))
            i = j
        if i >= len(line):
            return fields
        i += 1                                              # past the separator


def _separator(line: str) -> str:
    outside = []
    quoted = False
    for c in line:
        if c == '"':
            quoted = not quoted
        elif not quoted:
            outside.append(c)
    s = "".join(outside)
    for sep in ("\t", ";", ","):
        if sep in s:
            return sep
    return ","


def _number_like(text: str) -> bool:
    """A first field meant as a board number, not a header: it starts with a digit of any script
    ('3', '²', '٣', '½'), after a sign ("-1"); read_number then refuses what is not 1 to 9999 in
    digits 0-9, with its line."""
    t = text.strip().lstrip("+-")
    return bool(t) and t[0].isnumeric()


def parse_csv_pairings(text: str, round_: int, path: str = "<csv>") -> Round:
    """Round `round_` from a CSV of board,white,black[,white_fide_id,black_fide_id]."""
    rows = [(n, line) for n, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]
    if not rows:
        raise PairingsError(path, 1, 1, "no pairings: expected lines of board,white,black")
    sep = _separator(rows[0][1])
    columns = list(CSV_COLUMNS)
    n0, first = rows[0]
    head = _split(first, sep, path, n0)
    if not _number_like(head[0][0]):                        # data rows start with a board number
        columns = []
        for name, col in head:
            key = name.strip().lower().replace(" ", "_").replace("-", "_")
            if key not in CSV_COLUMNS + CSV_EXTRA:
                raise PairingsError(path, n0, col, "unknown column %r (known: %s)"
                                    % (name[:40], ", ".join(CSV_COLUMNS + CSV_EXTRA)))
            if key in columns:
                raise PairingsError(path, n0, col, "column %r given twice" % name[:40])
            columns.append(key)
        for need in ("board", "white", "black"):
            if need not in columns:
                raise PairingsError(path, n0, 1, "the header has no %r column" % need)
        rows = rows[1:]
    boards: dict[int, tuple[Pairing, int]] = {}
    players: dict[str, tuple[int, str]] = {}
    for n, line in rows:
        fields = _split(line, sep, path, n)
        if len(fields) < 3 or len(fields) > len(columns):
            raise PairingsError(path, n, 1, "%d fields, expected %s" % (
                len(fields), "3 to %d (%s)" % (len(columns), ",".join(columns))))
        row = {columns[i]: f for i, f in enumerate(fields)}

        def value(key: str) -> str | None:
            f = row.get(key)
            return f[0] if f and f[0] else None

        def number(key: str) -> int | None:
            f = row.get(key)
            if f is None or not f[0]:
                return None
            return read_number(f[0], path, n, f[1], key)

        board = read_number(row["board"][0], path, n, row["board"][1], "board", low=1, high=MAX_BOARD)
        if board in boards:
            raise PairingsError(path, n, row["board"][1], "board %d is already paired on line %d"
                                % (board, boards[board][1]))
        sides = []
        for side in ("white", "black"):
            pname = value(side)
            if pname is None:
                raise PairingsError(path, n, row[side][1], "board %d has no %s player" % (board, side))
            fide = number(side + "_fide_id")
            sides.append(Player(name=pname, title=value(side + "_title"),
                                rating=number(side + "_elo") or None,
                                federation=value(side + "_fed"), fide_id=str(fide) if fide else None,
                                team=value(side + "_team")))
            _same_player(players, sides[-1], path, n, row[side][1])
        boards[board] = (Pairing(board, sides[0], sides[1], line=n), n)
    if not boards:
        raise PairingsError(path, n0, 1, "a header and no pairings")
    return Round(tournament_name=None, city=None, date=None, time_control=None, round=round_,
                 boards=[boards[b][0] for b in sorted(boards)], source=path)
