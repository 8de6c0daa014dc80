"""Team events (flagfall.tournament.teams): a round read as matches, matches scored, team standings,
the results TRF written back with its 310 lines; a real team TRF (FIDE's, via TieBreakServer) and a
generated one whose every result the test decides and scores on its own (team_event_data)."""
import os
import random

import pytest

from flagfall import tournament
from flagfall.tournament import PairingsError, pairings, team_standings, teams, trf
from repo import ROOT
from team_event_data import (expected_matches, expected_standings, player_name, schedule, team_name,
                             team_trf)

DATA = os.path.join(ROOT, "tests", "data", "event")
FIDE_TEAMS = os.path.join(DATA, "fideteam-nocolor.trf")


def read(text, r, path="t.trf"):
    return trf.round_from_trf(trf.parse_trf(text, path), r)


# --- a real team TRF ----------------------------------------------------------------------------

def test_the_fide_team_trf_reads_every_round_as_matches_and_its_310_totals_come_out():
    text = open(FIDE_TEAMS).read()
    t = trf.parse_trf(text, FIDE_TEAMS)
    assert t.team_records == "310" and len(t.team_event.teams) == 9
    for r in range(1, 8):
        rnd = trf.round_from_trf(t, r)
        played = [m for m in rnd.matches if m.forfeit is None]
        byes = [m for m in rnd.matches if m.forfeit == teams.BYE]
        assert len(played) == 4 and len(byes) == 1, r
        # boards numbered match by match, each match's boards the teams' boards 1 and 2
        assert [b.board for m in played for b in m.boards] == list(range(1, 9))
        for m in played:
            assert [b.number for b in m.boards] == [1, 2]
            for b in m.boards:
                home_player = b.white if b.home_white else b.black
                assert home_player.start_rank == m.home.members[b.number - 1]
    rows = team_standings.standings(trf.team_matches(t, 7), t.team_event.teams.values(), t.team_event.scoring,
                           t.board_scale())
    # the match and game points are the file's own 310 columns, team by team (byes included)
    assert {r["number"]: (r["mp"], r["gp"]) for r in rows} == {
        n: (tm.mp, tm.gp) for n, tm in t.team_event.teams.items()}


def test_the_fide_team_trf_written_back_is_the_file_byte_for_byte_but_for_the_ranks_its_tiebreaks_order():
    text = open(FIDE_TEAMS).read()
    results = {b.board: b.result for b in read(text, 7).boards}
    # ranked by the file's own list (212 PTS,BC,BBE: teams 3 and 5 have 7 MP and board count 10 each,
    # bottom-board elimination puts 5 first): the same file
    assert trf.parse_trf(text, FIDE_TEAMS).team_event.tiebreaks == ("MPTS", "BC", "BBE")
    assert trf.write_results_trf(text, 7, results) == text
    # by the Olympiad's list, teams 3 and 5 (7 MP each) change places: only their rank columns differ
    olympiad = trf.write_results_trf(text, 7, results, team_tiebreaks=team_standings.OLYMPIAD_TIEBREAKS)
    changed = [(a, b) for a, b in zip(text.splitlines(), olympiad.splitlines()) if a != b]
    assert [(a[:7], a[68:71], b[68:71]) for a, b in changed] == [("310   3", "  5", "  4"), ("310   5", "  4", "  5")]


# --- a generated event: every result decided and scored by the test -------------------------------

N, SIZE = 8, 4


def decide(rounds, seed):
    rng = random.Random(seed)
    return {(r, b, h, a): rng.choice("WWDL") for r in range(1, rounds + 1)
            for h, a in schedule(N, rounds)[r - 1] for b in range(1, SIZE + 1)}


def test_a_generated_event_scores_as_the_test_scores_it():
    outcomes = decide(3, 7)
    sched = schedule(N, 3)
    forfeited = {2: sched[1][3] + ("+-",)}                         # round 2: the last match forfeited
    unfielded = {(1, sched[0][1][1], 4)}                            # round 1: match 2's away team has no board 4
    text = team_trf(N, SIZE, 3, outcomes, forfeited, unfielded)
    t = trf.parse_trf(text, "cup.trf")
    assert t.team_event.colours == "WBWB" and t.team_event.scoring == teams.MatchScoring(2.0, 1.0, 0.0)
    per_round = []
    for r in (1, 2, 3):
        rnd = trf.round_from_trf(t, r)
        want = expected_matches(N, SIZE, r, outcomes, forfeited, unfielded)
        got = {(m.home.number, m.away.number): m.score() for m in rnd.matches}
        assert {k: (s.home_gp, s.away_gp) for k, s in got.items()} == want
        assert all(s.finished for s in got.values())
        per_round.append([(k, v, (forfeited.get(r) or (0, 0, None))[2] if k == (forfeited.get(r) or ())[:2] else None)
                          for k, v in want.items()])
        rows = team_standings.standings(trf.team_matches(t, r), t.team_event.teams.values())
        exp = expected_standings(per_round)
        assert {row["number"]: (row["mp"], row["gp"], row["tiebreaks"]["ESB:MG/C1"], row["tiebreaks"]["BH:MP/C1"])
                for row in rows} == exp
        # ranked by MP, then Olympiad SB (ESB:MG/C1), GP, BH:MP/C1; equal keys share a rank
        keys = [tuple(row["tiebreaks"].values()) for row in rows]
        assert keys == sorted(keys, reverse=True)
        assert all(row["rank"] == rows[i - 1]["rank"] if i and keys[i] == keys[i - 1] else row["rank"] == i + 1
                   for i, row in enumerate(rows))
    # round 1's unfielded board: a forfeit board with no game, won by the team that fielded it
    m2 = trf.round_from_trf(t, 1).matches[1]
    forfeit_board = m2.boards[3]
    # (board 4 of WBWB: the first-named team, which fielded it, has Black)
    assert forfeit_board.board is None and forfeit_board.result == "-/+" and forfeit_board.white is None
    assert forfeit_board.black.name == player_name(m2.home.number, 4) and not forfeit_board.home_white
    assert m2.score().home_gp == expected_matches(N, SIZE, 1, outcomes, forfeited, unfielded)[
        (m2.home.number, m2.away.number)][0]
    # round 1 has 15 games on 15 event boards, the match boards in order under their match
    assert [p.board for p in trf.round_from_trf(t, 1).boards] == list(range(1, 16))
    # the round's matches come with WhiteTeam/BlackTeam on every game's tags
    rnd = trf.round_from_trf(t, 3)
    for p in rnd.boards:
        tg = tournament.tags(p, rnd)
        assert {tg["WhiteTeam"], tg["BlackTeam"]} <= {team_name(n) for n in range(1, N + 1)}


def test_results_written_back_update_the_310_lines_and_read_back():
    outcomes = decide(2, 3)
    sched = schedule(N, 2)
    paired = team_trf(N, SIZE, 2, {k: v for k, v in outcomes.items() if k[0] == 1}, {}, set())
    rnd = read(paired, 2)
    results = {}
    for m in rnd.matches:
        for b in m.boards:
            home_res = outcomes[(2, b.number, m.home.number, m.away.number)]
            white_res = home_res if b.home_white else {"W": "L", "L": "W", "D": "D"}[home_res]
            results[b.board] = {"W": "1-0", "L": "0-1", "D": "1/2-1/2"}[white_res]
    written = trf.write_results_trf(paired, 2, results, "cup.trf")
    # the same file as the generator writes with round 2 played, but for the 310 lines Flagfall filled
    full = team_trf(N, SIZE, 2, outcomes, {}, set())
    diff = [(a, b) for a, b in zip(full.splitlines(), written.splitlines()) if a != b]
    assert all(a.startswith("310") and a[:54] == b[:54] and a[71:] == b[71:] for a, b in diff) and len(diff) == N
    back = trf.parse_trf(written, "cup.trf")
    rows = {r["number"]: r for r in team_standings.standings(trf.team_matches(back, 2), back.team_event.teams.values())}
    exp = expected_standings([[(k, v, None) for k, v in expected_matches(N, SIZE, r, outcomes, {}, set()).items()]
                              for r in (1, 2)])
    for n, tm in back.team_event.teams.items():
        assert (tm.mp, tm.gp) == exp[n][:2] and tm.rank == rows[n]["rank"]
    assert {p.board: p.result for p in read(written, 2).boards} == results
    assert len(sched) == 2


def test_match_points_from_362_and_draughts_board_points():
    outcomes = decide(1, 11)
    text = team_trf(N, SIZE, 1, outcomes, {}, set()).replace("362 TW 2.0 TD 1.0 TL 0.0", "362 TW 3.0 TD 1.0 TL 0.0")
    t = trf.parse_trf(text, "cup.trf")
    assert t.team_event.scoring == teams.MatchScoring(3.0, 1.0, 0.0)
    draughts = teams.BoardScale(2.0, 1.0, 0.0)
    for m in trf.round_from_trf(t, 1).matches:
        chess, fmjd = m.score(t.team_event.scoring), m.score(t.team_event.scoring, draughts)
        assert (fmjd.home_gp, fmjd.away_gp) == (2 * chess.home_gp, 2 * chess.away_gp)
        assert fmjd.home_gp + fmjd.away_gp == 2 * SIZE
        want = 3.0 if chess.home_gp > chess.away_gp else 1.0 if chess.home_gp == chess.away_gp else 0.0
        assert chess.home_mp == fmjd.home_mp == want


def test_a_match_scores_its_game_points_live_and_its_match_points_only_when_finished():
    t = trf.parse_trf(team_trf(N, SIZE, 1, {}, {}, set()), "cup.trf")
    m = trf.round_from_trf(t, 1).matches[0]
    first = m.boards[0].board
    live = m.with_results({first: "1-0"})
    s = live.score()
    assert (s.home_gp, s.away_gp, s.finished, s.home_mp) == (1.0, 0.0, False, None)
    done = live.with_results({b.board: "1/2-1/2" for b in m.boards[1:]})
    s = done.score()
    assert (s.home_gp, s.away_gp, s.finished, s.home_mp, s.away_mp) == (2.5, 1.5, True, 2.0, 0.0)
    rows = team_standings.standings([live], t.team_event.teams.values())
    assert all(r["mp"] == 0 and r["played"] == 0 for r in rows)       # not counted before it ends


# --- pairing PGN and CSV with team tags -----------------------------------------------------------

def pgn_round(boards):
    out = []
    for b, (w, wt, bl, bt) in enumerate(boards, 1):
        out.append('[Event "Cup"]\n[Round "1.%d"]\n[White "%s"]\n[Black "%s"]\n[WhiteTeam "%s"]\n'
                   '[BlackTeam "%s"]\n[Result "*"]\n\n*\n' % (b, w, bl, wt, bt))
    return "\n".join(out)


def test_a_pairing_pgn_with_team_tags_is_read_as_matches(tmp_path):
    p = tmp_path / "r1.pgn"
    p.write_text(pgn_round([("A1", "A", "B1", "B"), ("B2", "B", "A2", "A"), ("C1", "C", "D1", "D"),
                            ("D2", "D", "C2", "C")]))
    rnd = pairings.read_pairings(str(p), 1, teams=True)
    assert [(m.home.name, m.away.name, [b.board for b in m.boards]) for m in rnd.matches] == \
        [("A", "B", [1, 2]), ("C", "D", [3, 4])]
    assert teams.matches_of(pairings.read_pairings(str(p), 1)) == []          # an individual event unless asked


def test_a_csv_with_team_columns_is_read_as_matches(tmp_path):
    p = tmp_path / "r1.csv"
    p.write_text("board,white,black,white_team,black_team\n1,A1,B1,A,B\n2,B2,A2,B,A\n")
    rnd = pairings.read_pairings(str(p), 1, teams=True)
    (m,) = rnd.matches
    assert (m.home.name, m.away.name, [b.home_white for b in m.boards]) == ("A", "B", [True, False])


# --- located one-line errors -----------------------------------------------------------------------

def test_a_player_in_two_teams_is_refused_with_both_lines():
    text = team_trf(N, SIZE, 1, {}, {}, set())
    lines = text.splitlines()
    i = next(k for k, ln in enumerate(lines) if ln.startswith("310   2"))
    lines[i] = trf._put(lines[i], 74, "   1")                       # team 2's first board is team 1's player 1
    with pytest.raises(PairingsError, match=r"^t\.trf:%d:74: player 1 \(Player11, Team1\) is in two teams: "
                       r"Club B here and Club A \(line %d\)$" % (i + 1, i)):
        trf.parse_trf("\n".join(lines) + "\n", "t.trf")


def test_a_match_with_boards_of_other_teams_is_refused(tmp_path):
    p = tmp_path / "r1.pgn"
    p.write_text(pgn_round([("A1", "A", "B1", "B"), ("B2", "B", "C2", "C")]))
    with pytest.raises(PairingsError, match=r"r1\.pgn:\d+:1: round 1: board 2 \(B - C\) is a match of B against C, "
                       r"but board 1 \(A1 - B1\) already pairs B with A"):
        pairings.read_pairings(str(p), 1, teams=True)
    p.write_text(pgn_round([("A1", "A", "A2", "A")]))
    with pytest.raises(PairingsError, match="board 1: A1 and A2 are both of team A"):
        pairings.read_pairings(str(p), 1, teams=True)
    p.write_text(pgn_round([("A1", "A", "B1", "B")]).replace('[BlackTeam "B"]\n', ""))
    with pytest.raises(PairingsError, match="board 1: B1 has no team"):
        pairings.read_pairings(str(p), 1, teams=True)


def test_a_board_order_against_the_lineup_is_refused():
    text = team_trf(N, SIZE, 1, {}, {}, set())
    t = trf.parse_trf(text, "t.trf")
    home, away = schedule(N, 1)[0][0]
    # a 300 record: the away team plays its boards 1 and 2 swapped, but the pairing keeps them in place
    lines = text.splitlines()
    lines.insert(8, "300 001 %03d %03d %4d %4d %4d %4d" % (away, home, *[t.team_event.teams[away].members[i]
                                                                       for i in (1, 0, 2, 3)]))
    with pytest.raises(PairingsError, match=r"match Club . - Club .: Player%d\d, Team%d plays a board above a "
                       r"team-mate placed before them in Club .'s lineup" % (away, away)):
        read("\n".join(lines) + "\n", 1)


def test_colours_against_352_are_refused():
    text = team_trf(N, SIZE, 1, {}, {}, set()).replace("352 WBWB", "352 WWBB")
    with pytest.raises(PairingsError, match=r"^t\.trf:\d+:5: round 1: match Club . - Club ., board 2: Club . has "
                       r"Black, against the colour sequence WWBB \(352\)$"):
        read(text, 1)


def test_a_forfeited_match_of_a_team_that_also_plays_is_refused():
    sched = schedule(N, 1)
    text = team_trf(N, SIZE, 1, {}, {}, set()) + "330 +- 001 %03d %03d\n" % sched[0][1]
    with pytest.raises(PairingsError, match=r"t\.trf:\d+:12: round 1: team \d \(Club .\) has a forfeited match "
                       r"and boards played"):
        read(text, 1)


# --- a broadcast's games as matches (no TRF), and the game's board scale ----------------------------

def test_a_broadcasts_games_with_team_tags_form_matches_and_without_them_none():
    def tags(w, wt, b, bt):
        return {"White": w, "Black": b, "WhiteTeam": wt, "BlackTeam": bt}
    games = [(1, tags("A1", "A", "B1", "B"), "1-0"), (2, tags("B2", "B", "A2", "A"), "1/2-1/2"),
             (5, tags("C1", "C", "D1", "D"), None), (6, tags("D2", "D", "C2", "C"), "0-1")]
    ab, cd = teams.live_matches(4, games)
    assert [b.board for b in ab.boards] == [1, 2] and [b.board for b in cd.boards] == [5, 6]  # the broadcast's boards
    s = ab.score()
    assert (ab.home.name, s.home_gp, s.away_gp, s.home_mp, s.away_mp) == ("A", 1.5, 0.5, 2.0, 0.0)
    s = cd.score()
    assert (cd.home.name, s.home_gp, s.away_gp, s.finished) == ("C", 1.0, 0.0, False)
    # one game without its teams: no team table (as Lichess shows one only when every game has both)
    assert teams.live_matches(4, games[:3] + [(6, {"White": "D2", "Black": "C2"}, "0-1")]) == []


def test_the_board_scale_is_the_games_own_result_scale():
    from flagfall.games import registry
    assert teams.scale_of(registry.lookup("chess")[0].points) == teams.BoardScale(1.0, 0.5, 0.0)
    assert teams.scale_of(registry.lookup("draughts")[0].points) == teams.BoardScale(2.0, 1.0, 0.0)


def served_draughts_standings(srv, tournament, games):
    """Round 1 of `tournament`: each (board, tags, result) published to `srv` as a finished draughts game
    from the start position; then /api/standings/TOURNAMENT/1 as the server answers it."""
    import json
    import time
    import urllib.request

    from flagfall import live
    from flagfall.broadcast import synthetic
    start = "W:W31-50:B1-20"
    for board, tags, result in games:
        dm = synthetic.StateMaker(tournament, "1", str(board), "draughts", tags, "5400+30", start,
                                  live.grid_from_pdn_fen(start))
        srv.publish(dm.state())
        srv.publish(dm.finish(result))
    time.sleep(0.3)
    with urllib.request.urlopen(srv.url + "/api/standings/%s/1" % tournament, timeout=10) as r:
        return json.loads(r.read().decode())


def test_a_draughts_team_match_served_by_the_api_scores_boards_2_1_0():
    from processes import ServerThread
    srv = ServerThread()
    try:
        data = served_draughts_standings(srv, "league", (
            (1, {"White": "A1", "Black": "B1", "WhiteTeam": "Ajax", "BlackTeam": "Bussum"}, "2-0"),
            (2, {"White": "B2", "Black": "A2", "WhiteTeam": "Bussum", "BlackTeam": "Ajax"}, "1-1")))
        (match,) = data["teams"]["matches"]
        assert (match["home"], match["home_gp"], match["away_gp"], match["home_mp"], match["away_mp"]) == \
            ("Ajax", 3.0, 1.0, 2.0, 0.0)
        assert [(row["name"], row["mp"], row["gp"], row["boards"]) for row in data["teams"]["rows"]] == \
            [("Ajax", 2.0, 3.0, [2.0, 1.0]), ("Bussum", 0.0, 1.0, [0.0, 1.0])]
    finally:
        srv.close()


def test_a_draughts_team_event_whose_trf_gives_its_own_scoring_is_scored_on_it(tmp_path):
    """Issue 34: the event's own scoring (the TRF's 162) stands above the game's scale for draughts too:
    a board won scores the file's 3, not FMJD's 2, in the served team standings."""
    from processes import ServerThread

    from flagfall.broadcast import api
    text = team_trf(2, 2, 1, {}, {}, set()).replace("\n310", "\n162  W 3.0    D 1.0\n310", 1)
    path = tmp_path / "cup.trf"
    path.write_text(text, encoding="utf-8")
    srv = ServerThread(attach=lambda app: app.__setitem__(api.STANDINGS_TRF_KEY, str(path)))
    try:
        # board 1: the home team's player has White and wins; board 2: a draw
        data = served_draughts_standings(srv, "cup", (
            (1, {"White": player_name(1, 1), "Black": player_name(2, 1)}, "2-0"),
            (2, {"White": player_name(2, 2), "Black": player_name(1, 2)}, "1-1")))
        (match,) = data["teams"]["matches"]
        assert (match["home"], match["home_gp"], match["away_gp"]) == (team_name(1), 4.0, 1.0), match
    finally:
        srv.close()


def test_a_trf16_team_event_with_013_records_is_read_as_matches_when_asked():
    outcomes = decide(1, 5)
    text = team_trf(N, SIZE, 1, outcomes, {}, set())
    lines = []
    for ln in text.splitlines():
        if ln.startswith("310"):
            members = ln[73:].split()
            ln = trf._put("013", 5, ln[8:40])
            for i, m in enumerate(members):
                ln = trf._put(ln, 37 + 5 * i, m.rjust(4))
        lines.append(ln)
    t16 = "\n".join(x for x in lines if not x.startswith(("352", "362"))) + "\n"
    t = trf.parse_trf(t16, "cup16.trf")
    assert t.team_records == "013" and [tm.name for tm in t.team_event.teams.values()] == \
        [team_name(n) for n in range(1, N + 1)]
    assert teams.matches_of(trf.round_from_trf(t, 1)) == []         # 013 alone: clubs, an individual event
    rnd = trf.round_from_trf(t, 1, teams=True)
    want = expected_matches(N, SIZE, 1, outcomes, {}, set())
    assert {(m.home.number, m.away.number): (m.score().home_gp, m.score().away_gp) for m in rnd.matches} == want
