"""A team event's standings: the teams ranked by the event's tie-break list (FIDE C.07, 2023/24
edition, in the codes TRF26 212/202 write), from its finished matches (teams.Match).

The list is the one given (flagfall event --team-tiebreaks), else the file's, else the Olympiad's
(OLYMPIAD_TIEBREAKS): match points, Olympiad Sonneborn-Berger (each opponent's match points times
the game points scored against it, the lowest opponent dropped), game points, then the opponents'
match points less the lowest (Buchholz cut 1). Each code is computed here (parse_tiebreak,
describe_tiebreak, standings); this module reads no file and imports only the model and teams.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from .teams import BYE, CHESS_SCALE, Abnormal, BoardScale, Match, MatchScoring, Team, TeamEvent, board_points


class TiebreakError(ValueError):
    """A tie-break list that does not read: `offset` is where in the text (0-based) the item starts."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset
        self.message = message


# FIDE C.07 (2023/24) codes read here, with the point types (":MP", ":GP") and modifiers each takes
_CUTS = {"C1", "C2", "M1", "M2"}
_TIEBREAK_CODES: dict[str, tuple[str, frozenset[str]]] = {
    # name: (what it is, the modifiers it takes)
    "MPTS": ("match points", frozenset()),
    "GPTS": ("game points", frozenset()),
    "BH": ("Buchholz: the opponents' scores", frozenset(_CUTS)),
    "ESB": ("extended Sonneborn-Berger: each opponent's score times the result against it", frozenset({"C1", "C2"})),
    "WIN": ("matches won (forfeits included)", frozenset()),
    "WON": ("matches won over the board", frozenset()),
    "PS": ("progressive score: the score after each round, summed", frozenset()),
    "DE": ("direct encounter: the points scored against the other tied teams", frozenset()),
    "BC": ("board count: each board's points times its board number (lower ranks higher)", frozenset()),
    "TBR": ("top-board result: board 1's points, then board 2's...", frozenset()),
    "BBE": ("bottom-board elimination: the board points, then without the lowest board, ...", frozenset()),
}
_WORD = {"M": "match points", "G": "game points"}


def parse_tiebreak(text: str) -> str:
    """One tie-break of FIDE C.07 (2023/24) as TRF26 202/212 write it, in its canonical form; ValueError
    for one not computed here. In a team event PTS are match points (MPTS; PTS:GP is GPTS; MP and GP
    are short for them); SB:MP is ESB:MM and SB:GP ESB:GG (C.07: SB of match points is the opponents'
    match points times the match points scored against them), EMGSB is ESB:MG and so on; BH and PS
    take :MP (the default) or :GP; BH takes /C1 /C2 (cut the lowest one or two), /M1 /M2 (median);
    ESB /C1 /C2 (the opponent with the lowest score dropped; between equal scores the smaller
    product)."""
    raw = text.strip().upper()
    head, _, mods = raw.partition("/")
    name, _, pt = head.partition(":")
    modifiers = mods.split("/") if mods else []
    if name in ("PTS", "MP", "GP") and not modifiers:
        if name == "GP" or pt == "GP":
            return "GPTS"
        if pt in ("", "MP"):
            return "MPTS"
    if name == "SB":
        pt = {"": "MM", "MP": "MM", "GP": "GG"}.get(pt, "?")
        name = "ESB"
    elif len(name) == 5 and name[0] == "E" and name.endswith("SB") and name[1:3] in ("MM", "MG", "GM", "GG"):
        name, pt = "ESB", name[1:3] + (":" + pt if pt else "")
    if name not in _TIEBREAK_CODES:
        raise ValueError("tie-break %r is not one computed here (%s)" % (text.strip(), ", ".join(
            ["PTS", "MPTS", "GPTS", "BH", "SB", "ESB", "EMGSB..."] + [c for c in _TIEBREAK_CODES
                                                                     if c not in ("MPTS", "GPTS", "BH", "ESB")])))
    if name == "ESB":
        if len(pt) != 2 or any(c not in "MG" for c in pt):
            raise ValueError("tie-break %r: ESB takes :MM, :MG, :GM or :GG (the opponent's score, then the result "
                             "against it)" % text.strip())
    elif name in ("BH", "PS"):
        if pt not in ("", "MP", "GP"):
            raise ValueError("tie-break %r: %s takes :MP or :GP" % (text.strip(), name))
        pt = pt or "MP"
    elif pt and not (name in ("WIN", "WON") and pt == "MP"):
        raise ValueError("tie-break %r: %s takes no point type" % (text.strip(), name))
    else:
        pt = ""
    allowed = _TIEBREAK_CODES[name][1]
    if len(modifiers) > 1 or any(m not in allowed for m in modifiers):
        raise ValueError("tie-break %r: %s takes %s" % (text.strip(), name, " or ".join("/" + m for m in sorted(allowed))
                                                       if allowed else "no modifier"))
    return name + (":" + pt if pt else "") + ("/" + modifiers[0] if modifiers else "")


def parse_tiebreaks(text: str) -> tuple[str, ...]:
    """A comma-separated list of tie-breaks (TRF26 202/212, --team-tiebreaks) in canonical form;
    TiebreakError (with the offset of the item) for one not computed here or an empty item."""
    out: list[str] = []
    at = 0
    for item in text.split(","):
        lead = len(item) - len(item.lstrip())
        if not item.strip():
            raise TiebreakError(at + lead, "empty tie-break in the list %r" % text.strip())
        try:
            out.append(parse_tiebreak(item))
        except ValueError as e:
            raise TiebreakError(at + lead, str(e)) from None
        at += len(item) + 1
    return tuple(out)


def describe_tiebreak(code: str) -> str:
    """What a canonical tie-break code computes, in words (the page's column titles)."""
    head, _, mod = code.partition("/")
    name, _, pt = head.partition(":")
    words = _TIEBREAK_CODES[name][0]
    if name == "ESB":
        words = "Sonneborn-Berger: each opponent's %s times the %s scored against it" % (_WORD[pt[0]], _WORD[pt[1]])
    elif name in ("BH", "PS"):
        words += " (%s)" % _WORD[pt[0]]
    if mod:
        n = int(mod[1])
        words += ", the %s %s" % ("lowest" if mod[0] == "C" else "highest and lowest",
                                  "one dropped" if n == 1 else "two dropped")
    return words


OLYMPIAD_TIEBREAKS = ("MPTS", "ESB:MG/C1", "GPTS", "BH:MP/C1")
"""The Olympiad's order (the default of a team event): match points, Olympiad Sonneborn-Berger
(each opponent's match points times the game points scored against it, the lowest opponent dropped:
C.07's ESB:MG/C1, EMGSB/C1), game points, the opponents' match points less the lowest (BH:MP/C1)."""


def chosen_tiebreaks(event: TeamEvent | None, given: Sequence[str] | None = None) -> tuple[str, ...]:
    """The tie-break list of a team event: the one given (flagfall event --team-tiebreaks), else the
    file's (TRF26 212, or 202 after the match points), else the Olympiad's. PairingsError (located)
    when the file's list has a code not computed here and no list is given."""
    if given:
        return tuple(given)
    if event is not None and event.tiebreak_error is not None:
        raise event.tiebreak_error
    if event is not None and event.tiebreaks:
        return event.tiebreaks
    return OLYMPIAD_TIEBREAKS


class _Played(NamedTuple):
    """One finished match of a team: its round, the opponent (None: a match forfeited as a whole, the
    bye, a 299 assignment), the match points and game points scored, the outcome (W D L), and whether
    it was played over the board."""
    round: int
    opponent: int | None
    mp: float
    gp: float
    outcome: str
    over_the_board: bool


class _TeamLine:
    def __init__(self, team: Team) -> None:
        self.team = team
        self.mp = 0.0
        self.gp = 0.0
        self.played = 0
        self.results: list[_Played] = []
        self.boards: list[float] = []                 # board points by board number

    def score(self, kind: str) -> float:
        return self.mp if kind == "M" else self.gp


# the outcome (W D L) a 299 assignment's kind stands for (blank, a penalty or bonus: none)
_ABNORMAL_OUTCOME = {"W": "W", "+": "W", "F": "W", "D": "D", "H": "D", "L": "L", "-": "L", "Z": "L"}


def _outcome(mine: float, theirs: float) -> str:
    return "W" if mine > theirs else "L" if mine < theirs else "D"


def _cut(values: list[tuple[float, float]], mod: str) -> list[tuple[float, float]]:
    """(opponent's score, contribution) pairs less those a C.07 modifier drops: /Cn the n lowest
    opponents (between equal scores the smaller contribution), /Mn also the n highest."""
    if not mod:
        return values
    n = int(mod[1])
    kept = sorted(values)[n:]
    return kept[:len(kept) - n] if mod[0] == "M" else kept


def _value(code: str, ln: _TeamLine, lines: Mapping[int, _TeamLine], last_round: int, size: int) -> Any:
    """A tie-break's value for one team (DE is computed per tied group: _direct_encounter)."""
    head, _, mod = code.partition("/")
    name, _, pt = head.partition(":")
    met = [r for r in ln.results if r.opponent is not None]
    if name == "MPTS":
        return ln.mp
    if name == "GPTS":
        return ln.gp
    if name == "BH":
        return sum(s for s, _ in _cut([(lines[r.opponent].score(pt[0]), 0.0) for r in met
                                       if r.opponent is not None], mod))
    if name == "ESB":
        return sum(p for _, p in _cut([(lines[r.opponent].score(pt[0]),
                                        lines[r.opponent].score(pt[0]) * (r.mp if pt[1] == "M" else r.gp))
                                       for r in met if r.opponent is not None], mod))
    if name == "WIN":
        return float(sum(1 for r in ln.results if r.outcome == "W"))
    if name == "WON":
        return float(sum(1 for r in ln.results if r.outcome == "W" and r.over_the_board))
    if name == "PS":
        return sum((r.mp if pt[0] == "M" else r.gp) * (last_round - r.round + 1) for r in ln.results)
    boards = ln.boards + [0.0] * (size - len(ln.boards))
    if name == "BC":
        return sum(i * p for i, p in enumerate(boards, 1))
    if name == "TBR":
        return boards
    if name == "BBE":
        return [sum(boards[:len(boards) - k]) for k in range(len(boards))]
    raise ValueError("tie-break %r is not computed here" % code)


def _order_key(code: str, value: Any) -> Any:
    """Smaller first: a value where more is better negated (board count: less is better)."""
    if code == "BC":
        return value
    if isinstance(value, list):
        return tuple(-v for v in value)
    return -value


def _direct_encounter(group: Sequence[int], lines: Mapping[int, _TeamLine]) -> dict[int, float]:
    """C.07 art. 6 among tied teams: when every two of them have met, the match points each scored
    in those matches; otherwise 0 for all (this does not separate them)."""
    inside = set(group)
    pairs = {frozenset((n, r.opponent)) for n in group for r in lines[n].results if r.opponent in inside}
    if len(pairs) < len(group) * (len(group) - 1) // 2:
        return {n: 0.0 for n in group}
    return {n: sum(r.mp for r in lines[n].results if r.opponent in inside) for n in group}


def standings(matches: Iterable[Match], teams: Iterable[Team], scoring: MatchScoring | None = None,
              scale: BoardScale = CHESS_SCALE, tiebreaks: Sequence[str] = OLYMPIAD_TIEBREAKS,
              extra: Iterable[Abnormal] = (), through_round: int | None = None) -> list[dict[str, Any]]:
    """The team standings from finished matches (a match counts once all its boards have a
    result), best first: {"rank", "number", "name", "nickname", "mp", "gp", "played", "tiebreaks":
    {code: value}, "boards": [board points of board 1, 2, ...]}, ranked by `tiebreaks` (canonical
    codes, parse_tiebreak; TBR and BBE values are lists, compared board by board). A match forfeited
    as a whole (330) and the bye give their match and game points but no opponent for BH and SB;
    board points count every board with a result, finished match or not. Match points are each
    match's event scoring unless `scoring` is given. `extra`: TRF26 299 assignments, their points
    added to the teams' totals (those of rounds after `through_round` left out)."""
    lines = {t.number: _TeamLine(t) for t in teams}
    last_round = 0
    size = 0
    for m in matches:
        last_round = max(last_round, m.round)
        size = max(size, m.size, len(m.boards))
        for t in (m.home, m.away):
            lines.setdefault(t.number, _TeamLine(t))
        for b in m.boards:
            if b.result is None:
                continue
            w, bl = board_points(b.result, scale)
            for t, pts in ((m.home, w if b.home_white else bl), (m.away, bl if b.home_white else w)):
                ln = lines[t.number]
                ln.boards.extend([0.0] * (b.number - len(ln.boards)))
                ln.boards[b.number - 1] += pts
        s = m.score(scoring, scale)
        if not s.finished:
            continue
        if m.forfeit == BYE:
            assert s.home_mp is not None
            ln = lines[m.home.number]
            ln.mp += s.home_mp
            ln.gp += s.home_gp
            sc = scoring or m.scoring
            ln.results.append(_Played(m.round, None, s.home_mp, s.home_gp,
                                      "W" if s.home_mp >= sc.win else "D" if s.home_mp >= sc.draw else "L", False))
            continue
        assert s.home_mp is not None and s.away_mp is not None
        for me, other, mp, gp, their_mp in ((m.home, m.away, s.home_mp, s.home_gp, s.away_mp),
                                            (m.away, m.home, s.away_mp, s.away_gp, s.home_mp)):
            ln = lines[me.number]
            ln.mp += mp
            ln.gp += gp
            ln.played += 1
            ln.results.append(_Played(m.round, other.number if m.forfeit is None else None, mp, gp,
                                      _outcome(mp, their_mp), m.forfeit is None))
    for a in extra:
        if through_round is not None and a.round and a.round > through_round:
            continue
        for n in a.ids:
            ln = lines[n]
            ln.mp += a.mp
            ln.gp += a.gp
            ln.results.append(_Played(a.round or last_round, None, a.mp, a.gp, _ABNORMAL_OUTCOME.get(a.kind, ""),
                                      False))
    for code in tiebreaks:
        head = code.partition("/")[0].partition(":")[0]
        if head not in _TIEBREAK_CODES or parse_tiebreak(code) != code:
            raise ValueError("tiebreak %r is not a canonical tie-break code (team_standings.parse_tiebreak)" % code)
    values: dict[int, dict[str, Any]] = {n: {c: _value(c, ln, lines, last_round, size) for c in tiebreaks if c != "DE"}
                                         for n, ln in lines.items()}
    # rank group by group: a tied group is split by the next tie-break (DE among the group itself)
    groups: list[list[int]] = [sorted(lines)]
    for code in tiebreaks:
        split: list[list[int]] = []
        for g in groups:
            if code == "DE":
                for n, v in _direct_encounter(g, lines).items():
                    values[n]["DE"] = v
            keyed = sorted(g, key=lambda n: (_order_key(code, values[n][code]), n))
            for n in keyed:
                if split and split[-1] and split[-1][0] in g and values[split[-1][0]][code] == values[n][code]:
                    split[-1].append(n)
                else:
                    split.append([n])
        groups = split
    rows: list[dict[str, Any]] = []
    for g in groups:
        rank = len(rows) + 1
        for n in g:
            ln = lines[n]
            rows.append({"rank": rank, "number": n, "name": ln.team.name, "nickname": ln.team.nickname,
                         "mp": ln.mp, "gp": ln.gp, "played": ln.played,
                         "tiebreaks": {c: values[n][c] for c in tiebreaks}, "boards": ln.boards})
    return rows
