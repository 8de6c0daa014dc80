"""A team event's tie-breaks (FIDE C.07, 2023/24): each one computed on a small made-up event and
compared with the hand computation written out below; the event's list read from TRF26 212/202 or
given on the command line, an unknown code a located one-line error; TRF26 320 (the
pairing-allocated bye's points and team) and 299 (abnormal points) read, counted and written back
byte for byte."""
import subprocess
import sys

import pytest

from flagfall.tournament import PairingsError, team_standings, teams, trf
from flagfall.tournament.model import BLACK_WINS, DRAW, WHITE_WINS, Player
from team_event_data import put, team_trf

A, B, C, D = (teams.Team(n, name) for n, name in enumerate("ABCD", 1))


def match(rnd, home, away, board1, board2):
    """A two-board match: the home team has White on board 1 and Black on board 2."""
    boards = (teams.MatchBoard(1, None, Player(home.name + "1"), Player(away.name + "1"), board1, True),
              teams.MatchBoard(2, None, Player(away.name + "2"), Player(home.name + "2"), board2, False))
    return teams.Match(rnd, 1, home, away, boards, 2)


# Three rounds, every team meets every other once (home team first):
#   round 1  A 1½-½ B (1-0, ½)      C 1-1 D (0-1, C wins board 2 with Black)
#   round 2  A 1-1 C (½, ½)         B 1-1 D (B wins board 1, D board 2)
#   round 3  A 0-2 D                B 1½-½ C (1-0, ½)
MATCHES = [match(1, A, B, WHITE_WINS, DRAW), match(1, C, D, BLACK_WINS, BLACK_WINS),
           match(2, A, C, DRAW, DRAW), match(2, B, D, WHITE_WINS, WHITE_WINS),
           match(3, A, D, BLACK_WINS, WHITE_WINS), match(3, B, C, WHITE_WINS, DRAW)]

# By hand. Match points (2-1-0): A 2+1+0 = 3, B 0+1+2 = 3, C 1+1+0 = 2, D 1+1+2 = 4.
# Game points: A 1.5+1+0 = 2.5, B 0.5+1+1.5 = 3, C 1+1+0.5 = 2.5, D 1+1+2 = 4.
# Board points (board 1, board 2): A (1+.5+0, .5+.5+0) = (1.5, 1); B (0+1+1, .5+0+.5) = (2, 1);
# C (0+.5+0, 1+.5+.5) = (.5, 2); D (1+0+1, 0+1+1) = (2, 2).
HAND = {
    "MPTS": {"A": 3, "B": 3, "C": 2, "D": 4},
    "GPTS": {"A": 2.5, "B": 3, "C": 2.5, "D": 4},
    # opponents' match points: A B3+C2+D4, B A3+D4+C2, C D4+A3+B3, D C2+B3+A3
    "BH:MP": {"A": 9, "B": 9, "C": 10, "D": 8},
    # ... less the lowest: A 9-2, B 9-2, C 10-3, D 8-2
    "BH:MP/C1": {"A": 7, "B": 7, "C": 7, "D": 6},
    # ... less the lowest and the highest: A 9-2-4, B 9-2-4, C 10-3-4, D 8-2-3
    "BH:MP/M1": {"A": 3, "B": 3, "C": 3, "D": 3},
    # opponents' game points: A B3+C2.5+D4, B A2.5+D4+C2.5, C D4+A2.5+B3, D C2.5+B3+A2.5
    "BH:GP": {"A": 9.5, "B": 9, "C": 9.5, "D": 8},
    # Olympiad SB, opponent's MP x game points against it: A 3x1.5+2x1+4x0, B 3x.5+4x1+2x1.5,
    # C 4x1+3x1+3x.5, D 2x1+3x1+3x2
    "ESB:MG": {"A": 6.5, "B": 8.5, "C": 8.5, "D": 11},
    # ... the lowest opponent dropped (C's A and B have 3 MP each: the smaller product, B's 1.5)
    "ESB:MG/C1": {"A": 6.5 - 2, "B": 8.5 - 3, "C": 8.5 - 1.5, "D": 11 - 2},
    # SB of match points, opponent's MP x match points against it: A 3x2+2x1+4x0, B 3x0+4x1+2x2,
    # C 4x1+3x1+3x0, D 2x1+3x1+3x2
    "ESB:MM": {"A": 8, "B": 8, "C": 7, "D": 11},
    # opponent's GP x match points against it: A 3x2+2.5x1+4x0, B 2.5x0+4x1+2.5x2, C 4x1+2.5x1+3x0,
    # D 2.5x1+3x1+2.5x2
    "ESB:GM": {"A": 8.5, "B": 9, "C": 6.5, "D": 10.5},
    "WIN": {"A": 1, "B": 1, "C": 0, "D": 1},
    "WON": {"A": 1, "B": 1, "C": 0, "D": 1},
    # the match points after each round, summed: A 2+3+3, B 0+1+3, C 1+2+2, D 1+2+4
    "PS:MP": {"A": 8, "B": 4, "C": 5, "D": 7},
    # board number x board points: A 1x1.5+2x1, B 1x2+2x1, C 1x.5+2x2, D 1x2+2x2
    "BC": {"A": 3.5, "B": 4, "C": 4.5, "D": 6},
    "TBR": {"A": [1.5, 1], "B": [2, 1], "C": [0.5, 2], "D": [2, 2]},
    # the board points, then without board 2
    "BBE": {"A": [2.5, 1.5], "B": [3, 2], "C": [2.5, 0.5], "D": [4, 2]},
}


def table(order, matches=MATCHES):
    rows = team_standings.standings(matches, [A, B, C, D], tiebreaks=order)
    return rows, [(r["rank"], r["name"]) for r in rows]


@pytest.mark.parametrize("code", sorted(HAND))
def test_each_tiebreak_is_the_hand_computation(code):
    rows, _ = table((code,))
    assert {r["name"]: r["tiebreaks"][code] for r in rows} == HAND[code]


@pytest.mark.parametrize("order, ranking", [
    # A and B have 3 MP each: every list below separates them its own way
    (("MPTS", "GPTS"), [(1, "D"), (2, "B"), (3, "A"), (4, "C")]),
    (team_standings.OLYMPIAD_TIEBREAKS, [(1, "D"), (2, "B"), (3, "A"), (4, "C")]),        # SB 5.5 against 4.5
    (("MPTS", "DE"), [(1, "D"), (2, "A"), (3, "B"), (4, "C")]),                   # A beat B in round 1
    (("MPTS", "BC"), [(1, "D"), (2, "A"), (3, "B"), (4, "C")]),                   # 3.5 ranks above 4
    (("MPTS", "TBR"), [(1, "D"), (2, "B"), (3, "A"), (4, "C")]),                  # board 1: 2 against 1.5
    (("MPTS", "BBE"), [(1, "D"), (2, "B"), (3, "A"), (4, "C")]),
    (("MPTS", "ESB:MM"), [(1, "D"), (2, "A"), (2, "B"), (4, "C")]),               # 8 each: shared
    # A, B and D have one win each and all met: their match points against each other are
    # D 1 (B) + 2 (A) = 3, A 2 (B) + 0 (D) = 2, B 0 + 1 = 1
    (("WIN", "DE"), [(1, "D"), (2, "A"), (3, "B"), (4, "C")]),
    # A and C have 2.5 GP and drew their match: DE does not separate them
    (("GPTS", "DE"), [(1, "D"), (2, "B"), (3, "A"), (3, "C")]),
])
def test_the_event_list_ranks_the_teams(order, ranking):
    assert table(order)[1] == ranking


def test_board_tiebreaks_as_fides_2023_exercises_46_to_48_work_them_out():
    # Koalas (#11) and Narwhals (#14) drew their match 2-2: board 1 Koalas won, boards 2 and 3 drawn,
    # board 4 Narwhals won. FIDE's answers: BC 3.5 for #11, 6.5 for #14 (#11 above); top board 1 to
    # 0; bottom board eliminated 2 (1 + ½ + ½) to 1 (0 + ½ + ½). #11 ranks above each time.
    k, n = teams.Team(11, "Koalas"), teams.Team(14, "Narwhals")
    boards = tuple(teams.MatchBoard(i, None, Player("K%d" % i), Player("N%d" % i), r, True)
                   for i, r in enumerate((WHITE_WINS, DRAW, DRAW, BLACK_WINS), 1))
    m = teams.Match(3, 5, k, n, boards, 4)
    for code, want in (("BC", {11: 3.5, 14: 6.5}), ("TBR", {11: [1, 0.5, 0.5, 0], 14: [0, 0.5, 0.5, 1]}),
                       ("BBE", {11: [2, 2, 1.5, 1], 14: [2, 1, 0.5, 0]})):
        rows = team_standings.standings([m], [k, n], tiebreaks=("MPTS", code))
        assert {r["number"]: r["tiebreaks"][code] for r in rows} == want
        assert [(r["rank"], r["number"]) for r in rows] == [(1, 11), (2, 14)], code


def test_direct_encounter_does_not_separate_teams_that_have_not_all_met():
    # after round 1, B, C and D have won no match; B met neither C nor D
    rows, ranking = table(("WON", "DE"), [m for m in MATCHES if m.round == 1])
    assert ranking == [(1, "A"), (2, "B"), (2, "C"), (2, "D")]
    assert {r["name"]: r["tiebreaks"]["DE"] for r in rows} == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_codes_are_read_as_fide_writes_them_and_an_unknown_one_is_refused():
    assert team_standings.parse_tiebreaks("PTS, EMGSB/C1,gpts,BH:MP/C1") == team_standings.OLYMPIAD_TIEBREAKS
    assert team_standings.parse_tiebreaks("PTS:GP,SB:GP,SB,BH,WIN:MP") == ("GPTS", "ESB:GG", "ESB:MM", "BH:MP", "WIN")
    for text, offset, words in (("PTS,XYZ", 4, "'XYZ' is not one computed here"),
                                ("BH/C3", 0, "BH takes /C1 or /C2 or /M1 or /M2"),
                                ("PTS,,BC", 4, "empty tie-break"), ("ESB:MX", 0, "ESB takes :MM")):
        with pytest.raises(team_standings.TiebreakError) as e:
            team_standings.parse_tiebreaks(text)
        assert e.value.offset == offset and words in e.value.message, (text, e.value.message)


# --- the list, 320 and 299 in a TRF26 ------------------------------------------------------------

N, SIZE = 4, 4     # the generator's schedule: round 1 (1, 4) and (3, 2), round 2 (3, 1) and (4, 2)


def cup(extra):
    """The generator's 4-team cup of 4 boards (352 WBWB), round 1 played (the home team wins every
    board), round 2 paired, with `extra` records after the team records."""
    outcomes = {(1, b, h, a): "W" for h, a in ((1, 4), (3, 2)) for b in range(1, SIZE + 1)}
    text = team_trf(N, SIZE, 2, outcomes, {}, set())
    head, _, rest = text.partition("\n001 ")
    return head + "".join("\n" + line for line in extra) + "\n001 " + rest


def round2_results(text):
    """Round 2: team 1 wins board 1 of its match with team 3 (Black on board 1), team 3 board 4
    (Black there too), every other board drawn: both matches 2-2."""
    results = {}
    for m in trf.round_from_trf(trf.parse_trf(text, "c.trf"), 2).matches:
        for b in m.boards:
            results[b.board] = BLACK_WINS if m.home.number == 3 and b.number in (1, 4) else DRAW
    return results


def test_the_tiebreak_list_is_read_from_212_or_202_and_an_unknown_code_is_located():
    assert trf.parse_trf(cup(["212 PTS,BC,BBE"]), "c.trf").team_event.tiebreaks == ("MPTS", "BC", "BBE")
    # 202: the tie-breaks after the primary score (a team event's match points)
    assert trf.parse_trf(cup(["202 DE,EMGSB/C1"]), "c.trf").team_event.tiebreaks == ("MPTS", "DE", "ESB:MG/C1")
    assert trf.parse_trf(cup([]), "c.trf").team_event.tiebreaks is None
    # a code not computed here: refused where the list is used, unless the event gives another
    text = cup(["202 DE,XYZ"])
    event = trf.parse_trf(text, "c.trf").team_event
    with pytest.raises(PairingsError) as e:
        team_standings.chosen_tiebreaks(event)
    line = text.splitlines().index("202 DE,XYZ") + 1
    assert str(e.value).startswith("c.trf:%d:8: 202: tie-break 'XYZ' is not one computed here" % line), str(e.value)
    assert "\n" not in str(e.value)
    assert team_standings.chosen_tiebreaks(event, ("MPTS", "BC")) == ("MPTS", "BC")
    with pytest.raises(PairingsError):
        trf.write_results_trf(text, 2, round2_results(text), "c.trf")
    # an individual event's 202 (its own codes) is not read as a team list
    assert trf.parse_trf("202 BH/C1,SB,XYZ\n001    1 m    A, B\n", "i.trf").team_event is None


def test_the_written_trf_ranks_by_the_files_list_unless_another_is_given():
    text = cup(["212 PTS,BC"])
    written = trf.write_results_trf(text, 2, round2_results(text), "c.trf")
    back = trf.parse_trf(written, "c.trf").team_event.teams
    # teams 1 and 3: a 4-0 win and a 2-2 draw, 3 MP and 6 GP each; board points 1 (2, 1.5, 1.5, 1):
    # board count 2+3+4.5+4 = 13.5; 3 (1, 1.5, 1.5, 2): 1+3+4.5+8 = 16.5, lower ranks higher
    assert {n: (t.mp, t.gp, t.rank) for n, t in back.items()} == {1: (3.0, 6.0, 1), 3: (3.0, 6.0, 2),
                                                                 2: (1.0, 2.0, 3), 4: (1.0, 2.0, 3)}
    # given on the command line instead: match and game points leave 1 and 3 sharing the first place
    given = trf.parse_trf(trf.write_results_trf(text, 2, round2_results(text), "c.trf",
                                                team_tiebreaks=("MPTS", "GPTS")), "c.trf").team_event.teams
    assert {n: t.rank for n, t in given.items()} == {1: 1, 3: 1, 2: 3, 4: 3}


def test_320_gives_the_bye_its_points_and_299_adds_abnormal_points_and_both_are_written_back():
    # round 1 without its match team 1 - team 4: 320 gives team 4 the bye (3 MP, 4 GP), team 1 nothing;
    # 299 takes 1 MP and half a game point from team 3 in round 1 (a penalty: blank kind)
    bye = put(put(put(put("320", 5, "03.0"), 10, "04.0"), 15, "004"), 19, "000")
    penalty = put(put(put(put("299", 8, "-1.0"), 14, "-0.5"), 20, "001"), 24, "   3")
    lines = []
    for line in cup([bye, penalty]).splitlines():
        if line.startswith("001") and int(line[4:8]) in list(range(1, 5)) + list(range(13, 17)):
            line = line[:91] + "0000 - Z " + line[100:]
        lines.append(line)
    text = "\n".join(lines) + "\n"
    t = trf.parse_trf(text, "bye.trf")
    ev = t.team_event
    assert ev.bye_points == (3.0, 4.0) and ev.byes == {1: 4}
    assert [(a.kind, a.mp, a.gp, a.round, a.ids) for a in ev.abnormal] == [("", -1.0, -0.5, 1, (3,))]
    m = [x for x in trf.round_from_trf(t, 1).matches if x.forfeit == teams.BYE]
    assert [(x.home.number, x.score().home_mp, x.score().home_gp) for x in m] == [(4, 3.0, 4.0)]
    rows = {r["number"]: (r["mp"], r["gp"]) for r in
            team_standings.standings(trf.team_matches(t, 1), ev.teams.values(), ev.scoring, extra=ev.abnormal, through_round=1)}
    # team 3 won round 1 4-0 against team 2 (2 MP, 4 GP) less 299's; team 1 no match, team 4 the bye
    assert rows == {1: (0.0, 0.0), 2: (0.0, 0.0), 3: (1.0, 3.5), 4: (3.0, 4.0)}
    written = trf.write_results_trf(text, 2, round2_results(text), "bye.trf")
    kept = [a for a, b in zip(text.splitlines(), written.splitlines()) if a == b]
    assert bye in kept and penalty in kept
    back = trf.parse_trf(written, "bye.trf").team_event
    assert back.bye_points == ev.bye_points and back.byes == ev.byes and back.abnormal == ev.abnormal
    # after round 2 (both matches 2-2: 1 MP and 2 GP each) the 310 lines count the 320 and 299 points
    assert {n: (tm.mp, tm.gp) for n, tm in back.teams.items()} == {1: (1.0, 2.0), 2: (1.0, 2.0), 3: (2.0, 5.5),
                                                                  4: (4.0, 6.0)}
    # a 320 team that plays in its round is refused, located
    bad = text.replace(bye, put(bye, 15, "002"))
    with pytest.raises(PairingsError) as e:
        trf.round_from_trf(trf.parse_trf(bad, "bye.trf"), 1)
    assert ":15: round 1: team 2 (Club B) has 320's pairing-allocated bye but plays a match" in str(e.value)


def event_fails(*args):
    """stderr of a `flagfall event` refused before it starts."""
    p = subprocess.run([sys.executable, "-m", "flagfall.cli", "event", "--round", "1", "--sim", "1"] + list(args),
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2, (p.returncode, p.stderr)
    err = p.stderr.strip()
    assert len(err.splitlines()) == 1, err
    return err


def test_the_command_line_refuses_an_unknown_tiebreak_in_one_line(tmp_path):
    err = event_fails("--pairings", "x.trf", "--team-tiebreaks", "MPTS,BH:MP/C1,QQ", "--out", str(tmp_path / "o"))
    assert err.startswith("event: --team-tiebreaks, character 15: tie-break 'QQ' is not one computed here"), err
    # the file's own list with an unknown code: refused at the start, located, unless a list is given
    path = tmp_path / "cup.trf"
    path.write_text(cup(["212 PTS,XYZ"]))
    err = event_fails("--pairings", str(path), "--out", str(tmp_path / "o"))
    line = path.read_text().splitlines().index("212 PTS,XYZ") + 1
    assert err.startswith("event: %s:%d:9: 212: tie-break 'XYZ' is not one computed here" % (path, line)), err
    assert err.endswith("(or give the event's list with --team-tiebreaks)"), err


def test_the_served_standings_follow_the_given_list_and_name_its_tiebreaks():
    from flagfall.broadcast import api
    # the made-up event as a broadcast holds it: games with their teams' tags, boards numbered match by match
    boards, number = [], {}
    for m in MATCHES:
        for mb in m.boards:
            key = ("cup", str(m.round), str(number.setdefault((m.round, m.home.name, mb.number), len(
                [k for k in number if k[0] == m.round]) + 1)))
            white, black = (m.home, m.away) if mb.home_white else (m.away, m.home)
            tags = {"White": mb.white.name, "Black": mb.black.name, "WhiteTeam": white.name, "BlackTeam": black.name}
            boards.append((key, {"tags": tags, "result": mb.result, "game": "chess"}))
    served = api._team_standings(None, boards, 3)
    # the three rounds add up team by team (the teams meet in another order each round)
    assert {r["name"]: (r["mp"], r["gp"]) for r in served["rows"]} == {
        t: (HAND["MPTS"][t], HAND["GPTS"][t]) for t in "ABCD"}
    assert served["tiebreaks"] == list(team_standings.OLYMPIAD_TIEBREAKS)
    assert [(r["rank"], r["name"]) for r in served["rows"]] == table(team_standings.OLYMPIAD_TIEBREAKS)[1]
    served = api._team_standings(None, boards, 3, ("MPTS", "DE", "TBR"))
    assert [(r["rank"], r["name"], r["tiebreaks"]["TBR"]) for r in served["rows"]] == [
        (1, "D", [2, 2]), (2, "A", [1.5, 1]), (3, "B", [2, 1]), (4, "C", [0.5, 2])]
    assert served["tiebreak_names"]["DE"].startswith("direct encounter")


def test_an_individual_events_299_points_count_in_its_standings_from_their_round():
    from flagfall.tournament import standings

    def player(rank, name, cell):
        return put(put(put(put("001", 5, "%4d" % rank), 15, name.ljust(33)), 81, " 0.0"), 92, cell)
    lines = [player(1, "Alder, Ann", "   2 w 1"), player(2, "Birch, Bo", "   1 b 0"),
             put(put(put(put("299", 14, "-0.5"), 20, "001"), 24, "   1"), 29, "   2"),      # both, round 1
             put(put(put("299", 14, " 1.0"), 20, "002"), 24, "   2")]                      # Birch, round 2
    t = trf.parse_trf("\n".join(lines) + "\n", "open.trf")
    assert t.team_event is None and [a.ids for a in t.abnormal] == [(1, 2), (2,)]
    points = {r["name"]: r["points"] for r in standings.table([], 1, t)}
    assert points == {"Alder, Ann": 0.5, "Birch, Bo": -0.5}
    points = {r["name"]: r["points"] for r in standings.table([], 2, t)}
    assert points == {"Alder, Ann": 0.5, "Birch, Bo": 0.5}
    with pytest.raises(PairingsError) as e:
        trf.parse_trf("\n".join(lines[:2] + [put(put("299", 14, "-0.5"), 24, "   9")]) + "\n", "open.trf")
    assert str(e.value) == "open.trf:3:24: 299: player 9 is not a player"
