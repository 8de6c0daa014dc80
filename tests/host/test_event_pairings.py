"""Pairings in (pairing PGN, FIDE TRF16/TRF26, CSV), results out (TRF): flagfall.event.

The data (tests/data/event, see generate.py there) is a fictional 19-player open: rounds 1-3
played, round 4 paired, written as each pairing program would hand it over.
"""
import os
import re

import pytest

from flagfall import live
from flagfall.tournament import (PairingsError, kind_of, parse_csv_pairings, parse_pgn_pairings,
                            parse_trf, read_pairings, round_from_trf, slug, tags, write_results_trf)
from flagfall.tournament.trf import round_column

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "event")
TRF16 = os.path.join(DATA, "open2026-r4.trf")
TRF26 = os.path.join(DATA, "open2026-r4-trf26.trf")
PGN = os.path.join(DATA, "open2026-r4.pgn")
CSV = os.path.join(DATA, "open2026-r4.csv")
ORDER = os.path.join(DATA, "round2-order.trf")

# round 4 as the pairing program publishes it: (white, black) starting ranks, board 1 first
ROUND4 = [(4, 1), (2, 7), (3, 8), (6, 9), (5, 13), (11, 15), (10, 14), (12, 19), (16, 18)]


def text_of(path):
    with open(path, encoding="utf-8", newline="") as f:
        return f.read()


def ranks(rnd):
    return [(p.white.start_rank, p.black.start_rank) for p in rnd.boards]


# --- reading ---------------------------------------------------------------------------------

def test_trf16_round4_boards_players_and_byes():
    r = read_pairings(TRF16, 4)
    assert (r.tournament_name, r.city, r.date, r.round) == ("Flagfall Autumn Open 2026", "Brno", "2026.11.19", 4)
    assert r.time_control is None                      # TRF16 has no 222
    assert r.time_control_text == "90 minutes for the game + 30 seconds per move from move 1"
    assert ranks(r) == ROUND4
    assert [p.board for p in r.boards] == list(range(1, 10))
    assert all(p.result is None for p in r.boards)     # round 4 not played yet
    b1 = r.boards[0]
    assert (b1.white.name, b1.white.title, b1.white.rating, b1.white.federation, b1.white.fide_id,
            b1.white.team) == ("Bauer, Felix", "IM", 2386, "GER", "24698712", "SK Turm Emsdetten")
    assert (b1.black.name, b1.black.title) == ("Novak, Tomas", "GM")            # "  g" in the file
    assert r.boards[2].white.title == "WGM"                                    # " wg" in the file
    tanaka = r.boards[7].black
    assert (tanaka.name, tanaka.rating, tanaka.fide_id, tanaka.title) == ("Tanaka, Yuki", None, None, None)
    assert [(u.player.start_rank, u.player.name, u.code) for u in r.unpaired] == [(17, "Silva, Beatriz", "H")]


def test_trf26_reads_the_same_round_with_its_time_control_and_round_date():
    r16, r26 = read_pairings(TRF16, 4), read_pairings(TRF26, 4)
    assert r26.time_control == "5400+30"
    assert r26.time_control_text == "90'+30\""
    assert (r26.date, r26.round_date) == ("2026.11.19", "2026.11.21")
    assert ranks(r26) == ROUND4
    strip = lambda p: (p.name, p.title, p.rating, p.federation, p.fide_id, p.start_rank)
    assert [(strip(a.white), strip(a.black)) for a in r16.boards] == \
        [(strip(b.white), strip(b.black)) for b in r26.boards]
    assert [(u.player.start_rank, u.code) for u in r26.unpaired] == [(17, "H")]


def test_earlier_rounds_with_results_byes_and_the_forfeit():
    r1 = read_pairings(TRF16, 1)
    assert ranks(r1)[0] == (1, 10) and r1.boards[0].result == "1/2-1/2"
    assert [(u.player.start_rank, u.code) for u in r1.unpaired] == [(19, "U")]
    r2 = read_pairings(TRF26, 2)
    assert [(u.player.start_rank, u.code) for u in r2.unpaired] == [(15, "H")]
    r3 = read_pairings(TRF16, 3)
    assert ranks(r3)[-1] == (15, 18) and r3.boards[-1].result == "+/-"
    assert [(u.player.start_rank, u.code) for u in r3.unpaired] == [(12, "U")]


def test_pairing_pgn_agrees_with_the_trf():
    pg, tr = read_pairings(PGN, 4), read_pairings(TRF16, 4)
    assert (pg.tournament_name, pg.city, pg.date, pg.time_control) == \
        ("Flagfall Autumn Open 2026", "Brno CZE", "2026.11.21", "5400+30")
    for a, b in zip(pg.boards, tr.boards, strict=True):
        assert a.board == b.board
        for x, y in ((a.white, b.white), (a.black, b.black)):
            assert (x.name, x.title, x.rating, x.federation, x.fide_id) == \
                (y.name, y.title, y.rating, y.federation, y.fide_id)
    assert pg.boards[1].white.team == "Stockholms SS"


def test_tags_give_back_what_the_pairing_pgn_says():
    rnd = read_pairings(PGN, 4)
    games = text_of(PGN).strip().split("\n\n*\n")
    for pairing, game in zip(rnd.boards, games, strict=True):
        want = dict(re.findall(r'\[(\w+) "(.*)"\]', game))
        del want["Result"], want["TimeControl"]
        want["Board"] = str(pairing.board)
        got = tags(pairing, rnd)
        assert got == want
        assert list(got)[:7] == ["Event", "Site", "Date", "Round", "Board", "White", "Black"]


def test_tags_leave_out_what_is_unknown_and_take_the_round_date():
    r = read_pairings(TRF26, 4)
    t = tags(r.boards[7], r)
    assert t["Date"] == "2026.11.21" and t["Round"] == "4.8"
    assert "BlackElo" not in t and "BlackFideId" not in t and "BlackTitle" not in t
    assert t["BlackFed"] == "JPN"
    assert tags(r.boards[7], r, board=12)["Round"] == "4.12"
    c = read_pairings(CSV, 4)
    assert tags(c.boards[0], c) == {"Round": "4.1", "Board": "1", "White": "Bauer, Felix",
                                    "Black": "Novak, Tomas", "WhiteFideId": "24698712",
                                    "BlackFideId": "31012345"}


def test_csv_agrees_with_the_trf():
    c, t = read_pairings(CSV, 4), read_pairings(TRF16, 4)
    assert [(p.board, p.white.name, p.black.name, p.white.fide_id, p.black.fide_id) for p in c.boards] == \
        [(p.board, p.white.name, p.black.name, p.white.fide_id, p.black.fide_id) for p in t.boards]
    assert c.tournament_name is None and c.slug() == "open2026-r4"


def test_csv_without_header_with_semicolons_and_header_in_any_order():
    r = parse_csv_pairings('2;"Doe, Jane";Roe, Rick\n1;A;B;123;456\n', 1, "x.csv")
    assert [(p.board, p.white.name, p.black.name, p.white.fide_id) for p in r.boards] == \
        [(1, "A", "B", "123"), (2, "Doe, Jane", "Roe, Rick", None)]
    r = parse_csv_pairings("white,black,board,white_elo\n\"Said \"\"Ace\"\"\",Z,3,2100\n", 2, "y.csv")
    assert (r.boards[0].board, r.boards[0].white.name, r.boards[0].white.rating) == (3, 'Said "Ace"', 2100)


def test_kind_is_guessed_from_the_text_when_the_name_does_not_say(tmp_path):
    for src, kind in ((TRF26, "trf"), (PGN, "pgn"), (CSV, "csv")):
        p = tmp_path / ("pairings-" + kind + ".txt")
        p.write_bytes(open(src, "rb").read())
        assert kind_of(str(p), text_of(src)) == kind
        assert [b.white.name for b in read_pairings(str(p), 4).boards] == \
            [b.white.name for b in read_pairings(src, 4).boards]


def test_board_order_follows_fide_c041_f1():
    # after round 1: 2, 3, 5 have 1 point; 4, 8 a half; 1, 6, 7 none. Round 2's pairs:
    # 5-4 (1 + 0.5) first on the sum; then 2-7 and 3-1 (both 1 + 0): the higher player of 2-7 is 2,
    # of 3-1 it is 3 (more points than 1, who has the lowest starting rank): 2-7 comes first;
    # then 8-6.
    r = read_pairings(ORDER, 2)
    assert ranks(r) == [(5, 4), (2, 7), (3, 1), (8, 6)]


def test_board_order_holds_on_every_round_of_the_open():
    trf = parse_trf(text_of(TRF16), TRF16)
    for rnd in (2, 3, 4):
        r = round_from_trf(trf, rnd)
        # scores before the round from the result columns, independently of the reader
        pts = {"1": 1, "+": 1, "U": 1, "F": 1, "=": .5, "H": .5, "0": 0, "-": 0, "Z": 0, " ": 0}
        score = {}
        for line in text_of(TRF16).splitlines():
            if line.startswith("001"):
                score[int(line[4:8])] = sum(pts[line.ljust(200)[round_column(k) + 6]] for k in range(1, rnd))
        keys = []
        for p in r.boards:
            a, b = p.white.start_rank, p.black.start_rank
            hi = min((a, b), key=lambda x: (-score[x], x))
            keys.append((-score[hi], -(score[a] + score[b]), hi))
        assert keys == sorted(keys), rnd


def test_slug():
    assert slug("Flagfall Autumn Open 2026") == "flagfall-autumn-open-2026"
    assert slug("  Échecs & Maths — Été 2026 !") == "echecs-maths-ete-2026"
    assert slug("???") == "tournament"
    long = slug("Grand " * 40)
    assert len(long) <= 64 and not long.endswith("-")
    for s in ("Flagfall Autumn Open 2026", "Échecs", "???", "Grand " * 40):
        assert live.check_slug(slug(s), "tournament") == slug(s)
    assert read_pairings(TRF26, 4).slug() == "flagfall-autumn-open-2026"


# --- errors: file, line, column --------------------------------------------------------------

def edited(tmp_path, src, name, line_no, column, text):
    """A copy of `src` as tmp_path/name with `text` written at 1-based line/column."""
    lines = text_of(src).split("\n")
    ln = lines[line_no - 1].rstrip("\r")
    cr = "\r" if lines[line_no - 1].endswith("\r") else ""
    ln = ln.ljust(column - 1 + len(text))
    lines[line_no - 1] = ln[:column - 1] + text + ln[column - 1 + len(text):] + cr
    p = tmp_path / name
    p.write_text("\n".join(lines), encoding="utf-8", newline="")
    return str(p)


def line_of(path, start):
    for n, line in enumerate(text_of(path).splitlines(), 1):
        if line.startswith(start):
            return n
    raise AssertionError(start)


def error_of(path, round_):
    with pytest.raises(PairingsError) as e:
        read_pairings(path, round_)
    return str(e.value)


def test_trf_opponent_that_is_not_a_player(tmp_path):
    n = line_of(TRF16, "001   14")
    p = edited(tmp_path, TRF16, "round3.trf", n, 122, "  57")
    assert error_of(p, 4) == "%s:%d:122: opponent 57 is not a player" % (p, n)


def test_trf_pairing_the_two_lines_disagree_on(tmp_path):
    n = line_of(TRF16, "001    1")
    p = edited(tmp_path, TRF16, "r.trf", n, 122, "   8 b")
    assert error_of(p, 4) == ("%s:%d:122: round 4: player 1 has 8 with black, but player 8's line "
                              "(line %d) says 3 b" % (p, n, line_of(TRF16, "001    8")))


def test_trf_bad_colour_result_rank_rating(tmp_path):
    n = line_of(TRF16, "001    2")
    p = edited(tmp_path, TRF16, "c.trf", n, 127, "x")
    assert error_of(p, 4) == "%s:%d:127: round 4: colour 'x' is not w, b or -" % (p, n)
    # a past round is read for its scores only: an oddity there is a located warning (issue #22)
    p = edited(tmp_path, TRF16, "q.trf", n, 109, "Q")
    warnings = read_pairings(p, 4).warnings
    assert len(warnings) == 1 and warnings[0].startswith(
        "%s:%d:109: warning: round 2: result 'Q' is not one of" % (p, n))
    assert error_of(p, 2).startswith("%s:%d:109: round 2: result 'Q' is not one of" % (p, n))
    p = edited(tmp_path, TRF16, "s.trf", n, 5, "  2a")
    assert error_of(p, 4) == "%s:%d:5: starting rank '2a' is not a number (digits 0-9)" % (p, n)
    p = edited(tmp_path, TRF16, "d.trf", n, 5, "   1")
    assert error_of(p, 4) == "%s:%d:5: starting rank 1 is already used on line %d" % (p, n, n - 1)
    p = edited(tmp_path, TRF16, "e.trf", n, 49, "24x3")
    assert error_of(p, 4) == "%s:%d:49: rating '24x3' is not a number (digits 0-9)" % (p, n)


def test_trf_round_not_paired_and_earlier_result_missing(tmp_path):
    first = line_of(TRF16, "001    1")
    assert error_of(TRF16, 5) == ("%s:%d:132: round 5 is not paired in this file: no 001 line has an "
                                  "opponent in columns 132-135" % (TRF16, first))
    n = line_of(TRF16, "001    3")
    p = edited(tmp_path, TRF16, "m.trf", n, 109, " ")
    assert read_pairings(p, 4).warnings == ["%s:%d:109: warning: round 2 of player 3 (against 9) has no result; "
                                            "counted as 0 points for ordering round 4's boards" % (p, n)]


def test_trf_results_that_do_not_fit_together(tmp_path):
    n = line_of(TRF16, "001    1")
    p = edited(tmp_path, TRF16, "f.trf", n, 99, "1")          # 1-10 was a draw: now 1 and =
    assert error_of(p, 1) == ("%s:%d:99: round 1: results '1' (white, line %d) and '=' (black, line %d) "
                              "do not fit together" % (p, n, n, line_of(TRF16, "001   10")))


def test_trf_team_member_and_empty_file(tmp_path):
    n = line_of(TRF16, "013 Echiquier")
    p = edited(tmp_path, TRF16, "t.trf", n, 42, "  77")
    assert error_of(p, 4) == "%s:%d:42: team member 77 is not a player" % (p, n)
    e = tmp_path / "empty.trf"
    e.write_text("012 Nothing\n")
    assert error_of(str(e), 1) == "%s:1:1: no 001 player lines: not a TRF, or an empty one" % e


def test_pgn_errors(tmp_path):
    def err(text, round_=4):
        with pytest.raises(PairingsError) as e:
            parse_pgn_pairings(text, round_, "r.pgn")
        return str(e.value)
    good = '[Event "E"]\n[Round "4.1"]\n[White "A"]\n[Black "B"]\n\n*\n\n'
    assert err('[Event "E"]\n[Round "4.x"]\n[White "A"]\n[Black "B"]\n\n*\n') == \
        'r.pgn:2:9: Round \'4.x\' is not "R.B" (round.board) or "R", in digits 0-9'
    assert err('\n[Round "4.1"]\n[Black "B"]\n*\n') == "r.pgn:2:1: the game starting here has no White tag"
    assert err(good + good) == "r.pgn:9:9: board 1 is already paired by the game on line 1"
    assert err(good, 7) == "r.pgn:1:1: no game of round 7 (rounds in the file: 4)"
    assert err('[Round "4.2"]\n[White "A"]\n[Black "B"]\n[WhiteElo "22OO"]\n*\n') == \
        "r.pgn:4:12: WhiteElo '22OO' is not a number (digits 0-9)"
    assert err('[Round "4"]\n[White "A"]\n[Black "B"]\n*\n') == \
        'r.pgn:1:9: Round \'4\' has no board number: write "R.B" or add a Board tag'
    assert err('[Round "4.1"]\n[White "A"]\n[Black "B"]\n[Result "2-1"]\n*\n').startswith(
        "r.pgn:4:10: result '2-1' is not one of")
    assert err("") == "r.pgn:1:1: no games: a pairing PGN has one game (tags, no moves) per board"


def test_pgn_round_and_board_tag_bye_and_results():
    text = ('[Round "3"]\n[Board "2"]\n[White "A"]\n[Black "B"]\n[Result "1/2-1/2"]\n\n1/2-1/2\n\n'
            '[Round "3.1"]\n[White "C"]\n[Black "D"]\n[Result "0-1"]\n\n0-1\n\n'
            '[Round "3.3"]\n[White "E"]\n[Black "bye"]\n\n*\n\n'
            '[Round "4.1"]\n[White "X"]\n[Black "Y"]\n\n*\n')
    # results of played games: a file of games, not pairings (issue #22); taken only when asked
    with pytest.raises(PairingsError) as e:
        parse_pgn_pairings(text, 3, "t.pgn")
    assert str(e.value).startswith("t.pgn:5:10: the game has the result 1/2-1/2: this is a file of played games")
    r = parse_pgn_pairings(text, 3, "t.pgn", from_games=True)
    assert [(p.board, p.white.name, p.black.name, p.result) for p in r.boards] == \
        [(1, "C", "D", None), (2, "A", "B", None)]
    assert [(u.player.name, u.code) for u in r.unpaired] == [("E", "U")]
    # a forfeit decided before the round is the arbiter's, and stays in the pairings
    r = parse_pgn_pairings('[Round "3.1"]\n[White "C"]\n[Black "D"]\n[Result "+/-"]\n\n*\n', 3, "f.pgn")
    assert r.boards[0].result == "+/-"


def test_csv_errors():
    def err(text):
        with pytest.raises(PairingsError) as e:
            parse_csv_pairings(text, 1, "p.csv")
        return str(e.value)
    assert err("board,white,black\n1,A,B\nx,C,D\n") == "p.csv:3:1: board 'x' is not a number (digits 0-9)"
    assert err("1,A,B\n2,C,\n") == "p.csv:2:5: board 2 has no black player"
    assert err("1,A,B,1,2,3\n") == "p.csv:1:1: 6 fields, expected 3 to 5 (board,white,black,white_fide_id,black_fide_id)"
    assert err('1,"A,B\n') == "p.csv:1:3: quote not closed on this line"
    assert err("board,white,black,colour\n") == "p.csv:1:19: unknown column 'colour' (known: board, white, " \
        "black, white_fide_id, black_fide_id, white_elo, black_elo, white_title, black_title, white_fed, " \
        "black_fed, white_team, black_team)"
    assert err("1,A,B\n1,C,D\n") == "p.csv:2:1: board 1 is already paired on line 1"
    assert err("1,A,B,12a\n") == "p.csv:1:7: white_fide_id '12a' is not a number (digits 0-9)"


# --- results out -----------------------------------------------------------------------------

RESULTS = {1: "1-0", 2: "1/2-1/2", 3: "0-1", 4: "+/-", 5: "-/+", 6: "2-0", 7: "1-1", 8: "0-2", 9: "-/-"}
CANONICAL = ["1-0", "1/2-1/2", "0-1", "+/-", "-/+", "1-0", "1/2-1/2", "0-1", "-/-"]
CODES = {"1-0": ("1", "0"), "1/2-1/2": ("=", "="), "0-1": ("0", "1"), "+/-": ("+", "-"),
         "-/+": ("-", "+"), "-/-": ("-", "-")}
POINTS = {"1": 1.0, "+": 1.0, "U": 1.0, "=": 0.5, "H": 0.5, "0": 0.0, "-": 0.0, " ": 0.0}


def player_lines(text):
    return {int(ln[4:8]): ln for ln in text.splitlines() if ln.startswith("001")}


@pytest.mark.parametrize("src", [TRF16, TRF26])
def test_results_written_back_read_again_with_round_complete(src, tmp_path):
    before = text_of(src)
    after = write_results_trf(before, 4, RESULTS, src)
    out = tmp_path / "round-4-results.trf"
    out.write_text(after, encoding="utf-8", newline="")
    r = read_pairings(str(out), 4)
    assert ranks(r) == ROUND4
    assert [p.result for p in r.boards] == CANONICAL
    lines = player_lines(after)
    col = round_column(4)
    for (w, b), res in zip(ROUND4, CANONICAL):
        assert lines[w][col - 1:col + 7] == "%4d w %s" % (b, CODES[res][0])
        assert lines[b][col - 1:col + 7] == "%4d b %s" % (w, CODES[res][1])
    # the points column is the sum of every round's result, for every player (17's half-point bye
    # of round 4 counted now that the round is over)
    assert float(player_lines(before)[17][80:84]) == 1.0 and float(lines[17][80:84]) == 1.5
    for rank, line in lines.items():
        total = sum(POINTS[line.ljust(140)[round_column(k) + 6]] for k in range(1, 5))
        assert float(line[80:84]) == total, (rank, line)
    assert float(lines[4][80:84]) == 4.0 and float(lines[1][80:84]) == 2.5
    # nothing else changed: same lines outside the 16 players who played, same line ends
    b_lines, a_lines = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(a_lines) == len(b_lines)
    played = {x for pair in ROUND4 for x in pair} | {17}
    for x, y in zip(b_lines, a_lines):
        if x.startswith("001") and int(x[4:8]) in played:
            assert x[:80] == y[:80] and x[84:col - 1] == y[84:col - 1]
            assert x[len(x.rstrip("\r\n")):] == y[len(y.rstrip("\r\n")):]
        else:
            assert x == y
    # the next round reads: the scores the board order needs are all there
    assert parse_trf(after, "out.trf").players[4].points == 4.0


def test_results_and_standings_score_on_the_games_scale_unless_the_file_gives_its_own():
    """Issue 34: draughts 2-1-0 (the registry's FMJD scoring), chess 1-1/2-0, the file's 162 above both."""
    from flagfall.tournament import standings
    from flagfall.games import registry
    draughts, chess = registry.spec("draughts").points, registry.spec("chess").points
    assert (draughts, chess) == ((2.0, 1.0), (1.0, 0.5))
    results = {1: "2-0", 2: "1-1"}           # board 1: 4 beats 1; board 2: 2 draws with 7
    before = player_lines(text_of(TRF16))    # no 162 line: the game's scale decides
    base = {r: float(before[r][80:84]) for r in (4, 1, 2, 7)}    # rounds 1-3 on FIDE's 1 and 1/2
    # (draughts: the file declares 2 and 1 and its rounds 1-3 are scored again on them, all points doubled)
    for scale, win, draw, times in ((draughts, 2.0, 1.0, 2), (chess, 1.0, 0.5, 1), (None, 1.0, 0.5, 1)):
        got = player_lines(write_results_trf(text_of(TRF16), 4, results, TRF16, scale))
        assert {r: float(got[r][80:84]) for r in base} == {4: times * base[4] + win, 1: times * base[1],
                                                           2: times * base[2] + draw, 7: times * base[7] + draw}, scale
    got = player_lines(write_results_trf(text_of(TRF26), 4, results, TRF26, draughts))   # 162: W 1.0 D 0.5
    assert float(got[4][80:84]) == float(player_lines(text_of(TRF26))[4][80:84]) + 1.0
    # the standings of the TRF's rounds: on the game's scale without a 162 line, the file's with one
    def after3(path, game):      # round 4 is being played on this event's boards: its game gives the scale
        playing = standings.Game(4, standings.Seat("Bauer, Felix"), standings.Seat("Novak, Tomas"), None, game)
        return {r["name"]: r["points"] for r in standings.table([playing], 3, parse_trf(text_of(path), path))}
    chess3, draughts3 = after3(TRF16, "chess"), after3(TRF16, "draughts")
    assert chess3 and all(draughts3[n] == 2 * chess3[n] for n in chess3)
    assert chess3["Bauer, Felix"] == float(before[4][80:84]) == 3.0
    assert after3(TRF26, "draughts") == chess3


def engine_misreads(text):
    """The players whose points column a pairing engine reading `text` back would refuse, as bbpPairings
    checks a TRF (and says "The score for player N does not match the game results"): the scoring of the
    file's 162 record read at its fixed columns (a category's letter from column 6 every 9 columns, its
    points in the 4 after it) or of its BBW/BBD/BBL/BBZ/BBF/BBU records, else FIDE's 1, 1/2, 0; a
    pairing-allocated bye scores a win's points unless given. Written here from the formats, apart
    from flagfall's reader, as the engine's check: {rank: (column, points the results add up to)}."""
    points = {"W": 1.0, "D": 0.5, "L": 0.0, "A": 0.0, "Z": 0.0, "F": None, "P": None}
    records = [ln.rstrip("\r\n") for ln in re.split(r"(?<=\n)|(?<=\r)(?!\n)", text)]
    for ln in records:
        if ln.startswith("162"):
            for at in range(5, len(ln) - 4, 9):
                points[ln[at]] = float(ln[at + 1:at + 5])
                if ln[at] == "A":
                    points["Z"] = points["A"]
        elif ln[:3] in ("BBW", "BBD", "BBL", "BBZ", "BBF", "BBU"):
            points[{"BBU": "P"}.get(ln[:3], ln[2])] = float(ln[4:12])
    win = points["W"]
    by_code = {"1": win, "+": win, "W": win, "F": points["F"] if points["F"] is not None else win,
               "U": points["P"] if points["P"] is not None else win, "=": points["D"], "D": points["D"],
               "H": points["D"], "0": points["L"], "L": points["L"], "-": points["A"], "Z": points["Z"], " ": 0.0}
    wrong = {}
    for ln in records:
        if ln.startswith("001"):
            codes = [ln[c + 7] for c in range(91, len(ln) - 7, 10)]
            total = sum(by_code[c] for c in codes)
            # (a bye of the round being paired may be counted already or not yet)
            bye = by_code[codes[-1]] if codes and codes[-1] in "UHFZ" else 0.0
            if min(abs(float(ln[80:84]) - total), abs(float(ln[80:84]) + bye - total)) > 1e-9:
                wrong[int(ln[4:8])] = (float(ln[80:84]), total)
    return wrong


def paired(text, rnd, pairs):
    """`text` with round `rnd` paired as `pairs` (white, black starting ranks), the players left out given
    the pairing-allocated bye (U): what the pairing program writes for the next round."""
    colour = {}
    for w, b in pairs:
        colour[w], colour[b] = (b, "w"), (w, "b")
    out = []
    for line in text.splitlines(keepends=True):
        if line.startswith("001"):
            body = line.rstrip("\r\n")
            opp, c = colour.get(int(body[4:8]), (None, None))
            line = body.ljust(91 + 10 * (rnd - 1)) + ("%4d %s  " % (opp, c) if opp else "0000 - U") + line[len(body):]
        out.append(line)
    return "".join(out)


def test_draughts_results_read_back_by_a_pairing_engine_round_after_round(tmp_path):
    """Issue 34: a draughts round's results TRF says its 2-1-0 scale (a TRF26 162 record) when the pairing
    file gives none, every points column on it, so a pairing engine reads it back as written - and so
    round after round: round 5 paired on those scores, its results written on the same record."""
    from flagfall.games import registry
    from flagfall.tournament import standings
    draughts = registry.spec("draughts").points
    src = text_of(TRF16)
    assert "\n162 " not in src and engine_misreads(src) == {}      # the file as the pairing program wrote it
    naive = write_results_trf(src, 4, {1: "2-0"}, TRF16, registry.spec("chess").points)
    assert naive.count("\n162 ") == 0 and engine_misreads(naive) == {}      # chess: nothing declared
    # round 4 as played on draughts boards, and the same games had they been chess
    played = {n: res for n, res in enumerate(["2-0", "1-1", "0-2", "2-0", "1-1", "+/-", "0-2", "2-0", "-/-"], 1)}
    as_chess = {n: {"2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}.get(res, res) for n, res in played.items()}
    r4 = write_results_trf(src, 4, played, TRF16, draughts)
    assert [ln for ln in r4.splitlines() if ln.startswith("162")] == ["162  W 2.0    D 1.0"]
    assert engine_misreads(r4) == {}
    # every player's column is twice the chess one (rounds 1-3 and round 4 on 2-1-0; 17's half-point bye a draw's 1)
    chess4 = player_lines(write_results_trf(src, 4, as_chess, TRF16))
    lines4 = player_lines(r4)
    assert {r: float(ln[80:84]) for r, ln in lines4.items()} == {r: 2 * float(ln[80:84]) for r, ln in chess4.items()}
    # the standings of the file alone agree with its columns
    rows = standings.table([], 4, parse_trf(r4, "r4.trf"))
    assert {r["name"]: r["points"] for r in rows} == {ln[14:47].strip(): float(ln[80:84]) for ln in lines4.values()}
    # the pairing program pairs round 5 from it; round 5's boards are ordered on the 2-1-0 scores
    r5_pairs = [(4, 1), (2, 3), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16), (17, 18)]
    file5 = tmp_path / "r5.trf"
    file5.write_text(paired(r4, 5, r5_pairs), encoding="utf-8", newline="")
    rnd5 = read_pairings(str(file5), 5)
    assert ranks(rnd5)[0] == (4, 1) and len(rnd5.boards) == 9
    r5 = write_results_trf(text_of(str(file5)), 5,
                           {p.board: "1-1" for p in rnd5.boards}, str(file5), draughts)
    assert r5.count("\n162 ") == 1 and engine_misreads(r5) == {}
    lines5 = player_lines(r5)
    assert float(lines5[4][80:84]) == float(lines4[4][80:84]) + 1.0
    assert float(lines5[19][80:84]) == float(lines4[19][80:84]) + 2.0       # 19's pairing-allocated bye: a win


@pytest.mark.parametrize("record, declared", [
    ("162  P 1.0", ["162  W 2.0    D 1.0    P 1.0"]),            # a 162 record without W and D: completed
    ("BBZ  0.0", ["BBW  2.0", "BBD  1.0", "BBZ  0.0"]),           # bbpPairings' records: theirs added
    ("162  W 1.0    D 0.5", ["162  W 1.0    D 0.5"]),            # the file's own scoring stands
])
def test_the_scale_is_declared_where_the_file_is_silent_and_nowhere_else(record, declared):
    from flagfall.games import registry
    src = text_of(TRF16).replace("\r\n001    1 ", "\r\n%s\r\n001    1 " % record, 1)
    out = write_results_trf(src, 4, {1: "2-0"}, TRF16, registry.spec("draughts").points)
    assert sorted(ln for ln in out.splitlines() if ln[:3] in ("162", "BBW", "BBD", "BBZ")) == sorted(declared)
    assert engine_misreads(out) == {}


def test_a_declared_scale_that_would_order_the_boards_otherwise_leaves_each_result_on_its_board():
    """Round 4's boards are numbered as the file was read (on FIDE's points): an event's 3-1-0, declared while
    its results are written, orders some boards otherwise, and must not move a result to another pair."""
    results = {n: ("1-0", "0-1", "1/2-1/2")[n % 3] for n in range(1, 10)}
    out = write_results_trf(text_of(TRF16), 4, results, TRF16, (3.0, 1.0))
    assert "\n162  W 3.0    D 1.0\r\n" in out and engine_misreads(out) == {}
    lines, col = player_lines(out), round_column(4)
    for (w, b), n in zip(ROUND4, range(1, 10)):
        assert lines[w][col - 1:col + 7] == "%4d w %s" % (b, CODES[results[n]][0]), n


def test_bbpairings_records_score_each_code_as_bbpairings_does():
    """BBF is the forfeit loss (`-`), BBZ the zero-point bye; a full-point bye (F) scores BBW, a half-point
    bye (H) BBD, the pairing-allocated bye (U) BBW unless BBU is given (bbpPairings' reader)."""
    def scores(records):
        src = text_of(TRF16).replace("\r\n001    1 ", "\r\n%s\r\n001    1 " % "\r\n".join(records), 1)
        trf = parse_trf(src, TRF16)
        return {c: trf.score(c) for c in "1+WFU=DH0L-Z "}
    assert scores(["BBW  3.0", "BBD  1.0", "BBF  0.5", "BBZ  0.2"]) == {
        "1": 3.0, "+": 3.0, "W": 3.0, "F": 3.0, "U": 3.0, "=": 1.0, "D": 1.0, "H": 1.0, "0": 0.0, "L": 0.0,
        "-": 0.5, "Z": 0.2, " ": 0.2}
    assert scores(["BBU  1.0", "BBW  3.0"])["U"] == 1.0


def test_results_corrected_partial_and_refused():
    src = text_of(TRF26)
    once = write_results_trf(src, 4, {1: "1-0", 2: "*"}, TRF26)
    r = round_from_trf(parse_trf(once), 4)
    assert [p.result for p in r.boards][:3] == ["1-0", None, None]
    fixed = write_results_trf(once, 4, {1: "0-1"}, TRF26)           # the arbiter corrects board 1
    lines = player_lines(fixed)
    assert (float(lines[4][80:84]), float(lines[1][80:84])) == (3.0, 3.5)
    assert round_from_trf(parse_trf(fixed), 4).boards[0].result == "0-1"
    with pytest.raises(ValueError, match="board 10 is not a board of round 4"):
        write_results_trf(src, 4, {10: "1-0"})
    with pytest.raises(ValueError, match="board 3: result '3-0' is not one of"):
        write_results_trf(src, 4, {3: "3-0"})
    with pytest.raises(PairingsError, match="round 5 is not paired"):
        write_results_trf(src, 5, {1: "1-0"})


# --- a public TRF: FIDE's C.07 (2023) tie-break exercise tournament ---------------------------

FIDE = os.path.join(DATA, "fide-c07-2023-swiss5.trf")


def test_data_files_match_the_manifest():
    import hashlib
    import json
    with open(os.path.join(DATA, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    assert set(manifest) == {f for f in os.listdir(DATA) if f.endswith((".trf", ".pgn", ".csv", ".txt"))}
    for name, meta in manifest.items():
        with open(os.path.join(DATA, name), "rb") as f:
            assert hashlib.sha256(f.read()).hexdigest() == meta["sha256"], name


def test_fide_file_reads_every_round_and_its_points_add_up():
    trf = parse_trf(text_of(FIDE), FIDE)
    assert (trf.name, trf.start_date) == ("FIDE C.07 2023 Tie-Break Exercises", "2024.08.01")
    assert len(trf.players) == 16
    # the file's points column is the sum of the result columns under the default scoring
    for rank, p in trf.players.items():
        assert sum(trf.score(trf.entry(p, r).code) for r in range(1, 6)) == p.points, rank
    r5 = round_from_trf(trf, 5)
    assert ranks(r5) == [(3, 2), (1, 4), (8, 6), (16, 15), (11, 7), (5, 10), (13, 14)]
    assert [p.result for p in r5.boards] == ["1/2-1/2", "1/2-1/2", "0-1", "1-0", "1-0", "1-0", "0-1"]
    assert [(u.player.name, u.code) for u in r5.unpaired] == [("Jessica", "U"), ("Nick", "Z")]
    r4 = round_from_trf(trf, 4)
    assert (r4.boards[-1].white.name, r4.boards[-1].black.name, r4.boards[-1].result) == ("Maria", "Jessica", "+/-")
    r2 = round_from_trf(trf, 2)
    assert [(u.player.name, u.code) for u in r2.unpaired] == [("David", "H"), ("Nick", "U")]
    total = 0
    for rnd in range(1, 6):
        total += len(round_from_trf(trf, rnd).boards)
    assert total == 36


def test_fide_file_round5_results_removed_and_written_back_give_the_file_again():
    original = text_of(FIDE)
    trf = parse_trf(original, FIDE)
    r5 = round_from_trf(trf, 5)
    col = round_column(5) + 7
    lines = original.split("\n")
    for p in r5.boards:
        for player in (p.white, p.black):
            tp = trf.players[player.start_rank]
            line = lines[tp.line - 1]
            pts = tp.points - trf.score(line[col - 1])
            lines[tp.line - 1] = line[:80] + "%4.1f" % pts + line[84:col - 1] + " " + line[col:]
    unplayed = "\n".join(lines)
    assert all(p.result is None for p in round_from_trf(parse_trf(unplayed), 5).boards)
    results = {p.board: p.result for p in r5.boards}
    assert write_results_trf(unplayed, 5, results, "fide.trf") == original


# --- encodings and byte-counted columns ------------------------------------------------------

def test_results_file_keeps_a_latin1_trf_latin1(tmp_path):
    from flagfall.tournament import write_results_trf_file
    src = tmp_path / "latin1.trf"
    src.write_bytes(text_of(TRF16).encode("latin-1"))              # as Swiss-Manager writes it
    out = tmp_path / "round-4-results.trf"
    write_results_trf_file(str(src), 4, RESULTS, str(out))
    data = out.read_bytes()
    assert "Müller, Jonas".encode("latin-1") in data and "Müller".encode("utf-8") not in data
    assert data == write_results_trf(text_of(TRF16), 4, RESULTS).encode("latin-1")
    r = read_pairings(str(out), 4)
    assert [p.result for p in r.boards] == CANONICAL
    assert r.boards[6].black.name == "Dubois, Élodie"


def test_results_file_keeps_a_utf8_bom(tmp_path):
    from flagfall.tournament import write_results_trf_file
    src = tmp_path / "bom.trf"
    src.write_bytes(b"\xef\xbb\xbf" + text_of(TRF26).encode("utf-8"))
    write_results_trf_file(str(src), 4, {1: "1-0"}, str(src))          # in place
    data = src.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and not (tmp_path / "bom.trf.tmp").exists()
    assert read_pairings(str(src), 4).boards[0].result == "1-0"


def byte_padded(text):
    """The TRF as a writer counting columns in UTF-8 bytes would write it: a name with accents
    takes its 33 bytes, so the fields after it sit one column left per accent."""
    out = []
    for line in text.split("\n"):
        if line.startswith("001") and not line.isascii():
            name = line[14:47].rstrip()
            line = line[:14] + name + " " * (33 - len(name.encode("utf-8"))) + line[47:]
        out.append(line)
    return "\n".join(out)


def test_utf8_trf_with_columns_counted_in_bytes(tmp_path):
    text = byte_padded(text_of(TRF26))
    assert text != text_of(TRF26)
    r = round_from_trf(parse_trf(text, "bytes.trf"), 4)
    want = read_pairings(TRF26, 4)
    assert [(p.white, p.black) for p in r.boards] == [(p.white, p.black) for p in want.boards]
    assert r.boards[6].black.name == "Dubois, Élodie" and r.boards[6].black.rating == 1942
    after = write_results_trf(text, 4, RESULTS, "bytes.trf")
    assert [p.result for p in round_from_trf(parse_trf(after), 4).boards] == CANONICAL
    # written in the file's own convention: the changed fields sit at the same byte columns
    for line in after.split("\n"):
        if line.startswith("001   14"):
            b = line.encode("utf-8")
            assert b[80:84] == b" 1.5" and b[round_column(4) - 1:round_column(4) + 7] == b"  10 b ="   # 1-1


def test_trf26_armageddon_time_control_is_kept_as_written():
    text = text_of(TRF26).replace("222 5400+30", "222 W300-B240")
    assert round_from_trf(parse_trf(text), 4).time_control == "W300-B240"


def test_pgn_with_moves_and_comments_of_other_rounds():
    text = ('[Round "3.1"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 {a comment\n'
            '[%clk 1:30:00] that starts a line} e5 ; [not a tag\n2. Qh5 1-0\n\n'
            '[Round "4.1"]\n[White "B"]\n[Black "A"]\n\n*\n')
    r = parse_pgn_pairings(text, 4, "all.pgn")
    assert [(p.white.name, p.black.name) for p in r.boards] == [("B", "A")]


# --- odd and hostile files (issue #22): one located line, never a traceback ---------------------

LOCATED = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<warning>warning: )?(?P<message>[^\n]+)$")


def located(text, path, line, column, warning=False):
    """The message of a located error or warning (file:line:col: ...), after checking where it points."""
    m = LOCATED.match(text)
    assert m, text
    assert (m["path"], int(m["line"]), int(m["col"]), bool(m["warning"])) == (str(path), line, column, warning), text
    return m["message"]


@pytest.mark.parametrize("digit", ["²", "٣"])
def test_trf_numbers_in_other_digits_are_located_errors(tmp_path, digit):
    # '²' passes str.isdigit() but not int(); '٣' (Arabic-Indic three) passes both: neither is a number here
    n = line_of(TRF16, "001    2")
    # (line, column written, the field's first column, what the message names)
    cases = [(n, 8, 5, "starting rank"), (n, 52, 49, "rating"), (n, 68, 58, "FIDE id"),
             (n, 125, 122, "round 4: opponent"), (line_of(TRF16, "013 Echiquier"), 40, 37, "team member")]
    for line_no, column, start, what in cases:
        p = edited(tmp_path, TRF16, "d.trf", line_no, column, digit)
        message = located(error_of(p, 4), p, line_no, start)
        assert message.startswith(what) and digit in message, message
    b = line_of(TRF26, "240 H   2")
    p = edited(tmp_path, TRF26, "b.trf", b, 9, digit)
    assert located(error_of(p, 4), p, b, 7) == "bye round '%s' is not a number (digits 0-9)" % digit
    p = edited(tmp_path, TRF26, "p.trf", b, 14, digit)
    assert located(error_of(p, 4), p, b, 11) == "bye player '%s' is not a starting rank" % ("1" + digit)


def test_trf_odd_scoring_line_is_a_located_warning(tmp_path):
    n = line_of(TRF26, "162")
    p = edited(tmp_path, TRF26, "s.trf", n, 17, "²")                  # "D 0.5" -> "D ².5"
    r = read_pairings(p, 4)
    assert ranks(r) == ROUND4
    assert len(r.warnings) == 1
    assert "'D ².5    L 0.0    A 0.0    P 1.0' is not a category" in located(r.warnings[0], p, n, 15, warning=True)


@pytest.mark.parametrize("tag,value,column,message", [
    ("Round", "4.²", 9, "Round '4.²' is not \"R.B\" (round.board) or \"R\", in digits 0-9"),
    ("Round", "٤.1", 9, "Round '٤.1' is not \"R.B\" (round.board) or \"R\", in digits 0-9"),
    ("Round", "4.99999999999999999999", 9, "board 99999999999999999999 is out of range (1 to 9999)"),
    ("Round", "4.0", 9, "board 0 is out of range (1 to 9999)"),
    ("WhiteElo", "2²", 12, "WhiteElo '2²' is not a number (digits 0-9)"),
    ("BlackElo", "٢٣٠٠", 12, "BlackElo '٢٣٠٠' is not a number (digits 0-9)"),
    ("WhiteFideId", "12²", 15, "WhiteFideId '12²' is not a number (digits 0-9)"),
    ("BlackFideId", "99999999999999999999", 15, "BlackFideId 99999999999999999999 is out of range (0 to 999999999999)"),
])
def test_pgn_numbers_in_other_digits_and_absurd_boards(tag, value, column, message):
    text = '[Event "E"]\n[Round "4.1"]\n[White "A"]\n[Black "B"]\n' \
        .replace('[Round "4.1"]', '[Round "%s"]' % value if tag == "Round" else '[Round "4.1"]')
    if tag != "Round":
        text += '[%s "%s"]\n' % (tag, value)
    with pytest.raises(PairingsError) as e:
        parse_pgn_pairings(text + "\n*\n", 4, "r.pgn")
    line = 2 if tag == "Round" else 5
    assert located(str(e.value), "r.pgn", line, column) == message


def test_pgn_board_tag_checked_too():
    with pytest.raises(PairingsError) as e:
        parse_pgn_pairings('[Round "4"]\n[Board "²"]\n[White "A"]\n[Black "B"]\n\n*\n', 4, "b.pgn")
    assert located(str(e.value), "b.pgn", 2, 9) == "Board '²' is not a number (digits 0-9)"
    with pytest.raises(PairingsError) as e:
        parse_pgn_pairings('[Round "4"]\n[Board "99999999999999999999"]\n[White "A"]\n[Black "B"]\n\n*\n', 4, "b.pgn")
    assert located(str(e.value), "b.pgn", 2, 9).startswith("Board 99999999999999999999 is out of range")


@pytest.mark.parametrize("text,line,column,message", [
    ("-1,A,B\n", 1, 1, "board -1 is out of range (1 to 9999)"),           # a data row, not a header
    ("²,A,B\n", 1, 1, "board '²' is not a number (digits 0-9)"),
    ("٣,A,B\n", 1, 1, "board '٣' is not a number (digits 0-9)"),
    ("1,A,B\n99999999999999999999,C,D\n", 2, 1, "board 99999999999999999999 is out of range (1 to 9999)"),
    ("1,A,B,12²\n", 1, 7, "white_fide_id '12²' is not a number (digits 0-9)"),
    ("1,A,B,,٣\n", 1, 8, "black_fide_id '٣' is not a number (digits 0-9)"),
    ("board,white,black,white_elo\n1,A,B,2²00\n", 2, 7, "white_elo '2²00' is not a number (digits 0-9)"),
])
def test_csv_numbers_in_other_digits_and_absurd_boards(text, line, column, message):
    with pytest.raises(PairingsError) as e:
        parse_csv_pairings(text, 1, "p.csv")
    assert located(str(e.value), "p.csv", line, column) == message


def test_round_zero_and_out_of_range_is_the_readers_own_error():
    for bad in (0, -1, 1000):
        with pytest.raises(PairingsError) as e:
            read_pairings(TRF16, bad)
        assert located(str(e.value), TRF16, 1, 1) == "round %d: rounds are numbered 1 to 999" % bad
    with pytest.raises(PairingsError):
        round_from_trf(parse_trf(text_of(TRF16), TRF16), 0)


def test_the_same_player_twice_is_refused_with_both_lines(tmp_path):
    def pgn_err(text):
        with pytest.raises(PairingsError) as e:
            parse_pgn_pairings(text, 1, "d.pgn")
        return str(e.value)
    game = '[Round "1.%d"]\n[White "%s"]\n[Black "%s"]\n%s\n*\n\n'
    text = game % (1, "Carlsen, Magnus", "B", "") + game % (2, "C", "carlsen,  magnus", "")
    assert located(pgn_err(text), "d.pgn", 9, 9) == "carlsen,  magnus is already paired on line 2"
    ids = '[WhiteFideId "1503014"]'
    text = game % (1, "Carlsen, Magnus", "B", ids) + game % (2, "Magnus Carlsen", "C", ids)
    assert located(pgn_err(text), "d.pgn", 8, 9) == \
        "Magnus Carlsen: FIDE id 1503014 is already paired on line 2 (Carlsen, Magnus)"
    # a bye does not hide the same player on a board
    text = game % (1, "A", "B", "") + game % (2, "A", "bye", "")
    assert located(pgn_err(text), "d.pgn", 8, 9) == "A is already paired on line 2"
    with pytest.raises(PairingsError) as e:
        parse_csv_pairings("1,A,B,11,12\n2,C,D,13,12\n", 1, "d.csv")
    assert located(str(e.value), "d.csv", 2, 5) == "D: FIDE id 12 is already paired on line 1 (B)"
    with pytest.raises(PairingsError) as e:
        parse_csv_pairings("1;A;B\n2;b;C\n", 1, "d.csv")
    assert located(str(e.value), "d.csv", 2, 3) == "b is already paired on line 1"
    # TRF: starting ranks are the players; the same FIDE id on two boards of the round is refused
    n1, n2 = line_of(TRF16, "001    1"), line_of(TRF16, "001    2")
    p = edited(tmp_path, TRF16, "d.trf", n2, 58, "   31012345")           # player 1's FIDE id
    assert located(error_of(p, 4), p, n2, 58) == \
        "round 4: FIDE id 31012345 of player 2 is also player 1's (line %d): the same player on two boards" % n1


def test_pgn_of_played_games_is_refused_unless_asked():
    games = ('[Event "Broadcast"]\n[Round "5.1"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n'
             '1. e4 {[%clk 1:30:00]} e5 *\n\n'
             '[Event "Broadcast"]\n[Round "5.2"]\n[White "C"]\n[Black "D"]\n[Result "*"]\n\n*\n')
    with pytest.raises(PairingsError) as e:
        parse_pgn_pairings(games, 5, "live.pgn")
    message = located(str(e.value), "live.pgn", 7, 1)
    assert message.startswith("the game of board 1 has moves: this is a file of played games") and \
        "--pairings-from-games" in message
    r = parse_pgn_pairings(games, 5, "live.pgn", from_games=True)
    assert [(p.board, p.white.name, p.black.name, p.result) for p in r.boards] == \
        [(1, "A", "B", None), (2, "C", "D", None)]


def test_day_first_dates_are_read_or_warned_with_their_line(tmp_path):
    n = line_of(TRF16, "042")
    for written, read in (("24/09/2010", "2010.09.24"), ("28. 07. 2005", "2005.07.28"), ("2010-09-24", "2010.09.24"),
                          ("24.09.2010", "2010.09.24")):
        p = tmp_path / "d.trf"
        p.write_text(text_of(TRF16).replace("042 2026/11/19", "042 " + written), encoding="utf-8", newline="")
        r = read_pairings(str(p), 4)
        assert (r.date, r.warnings) == (read, []), written
    p.write_text(text_of(TRF16).replace("042 2026/11/19", "042 05/06/2010"), encoding="utf-8", newline="")
    r = read_pairings(str(p), 4)
    assert r.date is None and len(r.warnings) == 1
    assert "05/06/2010" in located(r.warnings[0], p, n, 5, warning=True)


def test_slug_of_non_latin_names():
    assert slug("Κύπελλο Αθηνών 2024") == "kypello-athinon-2024"
    assert slug("Кубок Москвы 2024") == "kubok-moskvy-2024"
    r = read_pairings(TRF26, 4)
    for name, city, want in (("北京国际象棋公开赛 2026", "Beijing", "beijing-2026-round-4"),
                             ("北京国际象棋公开赛", "北京", "2026-round-4"),
                             ("Αθήνα Open", None, "athina-open")):
        r.tournament_name, r.city = name, city
        assert r.slug() == want
        assert live.check_slug(r.slug(), "tournament") == want


# --- real files: bbpPairings' test inputs (Apache-2.0, see tests/data/event/README.md) -----------

BBP7 = os.path.join(DATA, "bbppairings-issue7.trf")
BBP15 = os.path.join(DATA, "bbppairings-issue15.trf")
PTS = {"1": 1.0, "+": 1.0, "=": 0.5, "0": 0.0, "-": 0.0}


def bbp_lines(path):
    text = text_of(path)
    assert "\n" not in text and text.count("\r") == len(text.split("\r")) - 1     # CR-only line ends
    return [ln for ln in text.split("\r") if ln.startswith("001")]


def without_round(path, round_):
    """The file with round `round_`'s result columns blanked and the points columns without them."""
    text = text_of(path)
    col = round_column(round_) + 7
    out = []
    for line in text.split("\r"):
        if line.startswith("001"):
            points = float(line[80:84]) - PTS[line[col - 1]]
            line = line[:80] + "%4.1f" % points + line[84:col - 1] + " " + line[col:]
        out.append(line)
    return "\r".join(out)


@pytest.mark.parametrize("path,rounds,boards", [(BBP7, 14, 30), (BBP15, 11, 90)])
def test_bbppairings_inputs_read_every_round_and_write_back_byte_for_byte(path, rounds, boards):
    lines = bbp_lines(path)
    trf = parse_trf(text_of(path), path)
    assert len(trf.players) == len(lines) == 2 * boards
    for ln in lines:                                    # the points column is the sum of the results
        assert sum(PTS[ln[round_column(r) + 6]] for r in range(1, rounds + 1)) == float(ln[80:84]), ln[:8]
    for rnd in range(1, rounds + 1):
        r = round_from_trf(trf, rnd)
        assert len(r.boards) == boards and r.unpaired == [] and r.warnings == []
        # every pair as the two lines say it, independently of the reader
        col = round_column(rnd) - 1
        pairs = {(int(ln[col:col + 4]), int(ln[4:8])) if ln[col + 5] == "b" else (int(ln[4:8]), int(ln[col:col + 4]))
                 for ln in lines}
        assert {(p.white.start_rank, p.black.start_rank) for p in r.boards} == pairs
    # the double forfeits of bbppairings-issue15 (103-109 in round 6, 9-17 in round 9)
    if path == BBP15:
        assert [(p.white.start_rank, p.black.start_rank) for p in round_from_trf(trf, 6).boards
                if p.result == "-/-"] == [(103, 109)]
    last = round_from_trf(trf, rounds)
    blank = without_round(path, rounds)
    assert all(p.result is None for p in round_from_trf(parse_trf(blank), rounds).boards)
    assert write_results_trf(blank, rounds, {p.board: p.result for p in last.boards}, path) == text_of(path)


def test_board_order_matches_bbppairings_own_output(tmp_path):
    # bbpPairings paired round 15 of issue 7 (its expected output, in its board order); the same
    # pairs written into the file's round-15 columns read back in that order
    with open(os.path.join(DATA, "bbppairings-issue7-round15.txt"), encoding="utf-8") as f:
        count, *rows = f.read().split("\n")
    expected = [tuple(int(x) for x in row.split()) for row in rows if row]
    assert len(expected) == int(count) == 30
    side = {w: (b, "w") for w, b in expected} | {b: (w, "b") for w, b in expected}
    out = []
    for line in text_of(BBP7).split("\r"):
        if line.startswith("001"):
            opponent, colour = side[int(line[4:8])]
            line = line.ljust(round_column(15) - 1) + "%4d %s" % (opponent, colour)
        out.append(line)
    p = tmp_path / "round15.trf"
    p.write_text("\r".join(out), encoding="utf-8", newline="")
    assert ranks(read_pairings(str(p), 15)) == expected


# --- forfeits written without colours (the shape of a 2005 TRF16) ------------------------------

FORFEITS = os.path.join(DATA, "forfeits-without-colours.trf")


def test_forfeits_without_colours_read_in_every_round():
    n3, n8 = line_of(FORFEITS, "001    3"), line_of(FORFEITS, "001    8")
    n6, n10 = line_of(FORFEITS, "001    6"), line_of(FORFEITS, "001   10")
    got = {}
    for rnd in range(1, 6):
        r = read_pairings(FORFEITS, rnd)
        got[rnd] = r
        assert r.tournament_name == "Gedenkturnier Flagfall 2025" and r.date == "2025.06.14"
    # the round read: the forfeit is no board, both players are listed apart, each line named
    assert ranks(got[1]) == [(1, 6), (7, 2), (4, 9), (10, 5)]             # no scores yet: by starting rank
    assert [(u.player.start_rank, u.code) for u in got[1].unpaired] == [(3, "+"), (8, "-")]
    assert [located(w, FORFEITS, n, 92, warning=True)[:42] for w, n in zip(got[1].warnings, (n3, n8))] == \
        ["round 1: player 3 against 8 is a forfeit w", "round 1: player 8 against 3 is a forfeit w"]
    assert [(u.player.start_rank, u.code) for u in got[3].unpaired] == [(6, "+"), (10, "-")]
    assert [located(w, FORFEITS, n, 112, warning=True) for w, n in zip(got[3].warnings, (n6, n10))] == [
        "round 3: player 6 against 10 is a forfeit without colours (+): listed as unpaired, no board",
        "round 3: player 10 against 6 is a forfeit without colours (-): listed as unpaired, no board"]
    # rounds after them: the forfeits count for the scores (3 won one, 6 won one), no warning
    assert got[5].warnings == [] and len(got[5].boards) == 4
    assert [(u.player.start_rank, u.code) for u in got[5].unpaired] == [(8, "H"), (10, "")]
    score = {1: 3.5, 2: 3.5, 3: 1.5, 4: 2.0, 5: 2.5, 6: 2.0, 7: 0.5, 8: 1.5, 9: 2.0}   # from the columns
    keys = []
    for p in got[5].boards:
        a, b = p.white.start_rank, p.black.start_rank
        hi = min((a, b), key=lambda x: (-score[x], x))
        keys.append((-score[hi], -(score[a] + score[b]), hi))
    assert keys == sorted(keys)
    # round 5 written back and read again
    after = write_results_trf(text_of(FORFEITS), 5, {b.board: "1-0" for b in got[5].boards}, FORFEITS)
    assert [p.result for p in round_from_trf(parse_trf(after), 5).boards] == ["1-0"] * 4


def test_a_colourless_forfeit_the_other_line_denies_is_refused_in_the_round_read(tmp_path):
    n3, n8 = line_of(FORFEITS, "001    3"), line_of(FORFEITS, "001    8")
    p = edited(tmp_path, FORFEITS, "f.trf", n8, 92, "   3 b 0")            # 8 says: a game as black
    assert located(error_of(p, 1), p, n3, 92) == ("round 1: player 3 has a forfeit against 8 without colours, "
                                                  "but player 8's line (line %d) says 3 b 0" % n8)
    # a past round: read for its scores only, so the file still reads round 5
    r = read_pairings(p, 5)
    assert len(r.boards) == 4
    p = edited(tmp_path, FORFEITS, "w.trf", n8, 92, "   3 - +")            # both won by forfeit
    assert located(error_of(p, 1), p, n3, 92) == ("round 1: player 3 has a forfeit against 8 without colours, "
                                                  "but player 8's line (line %d) says 3 - +" % n8)


def test_an_odd_past_round_is_a_warning_when_reading_and_when_writing(tmp_path):
    n = line_of(FORFEITS, "001    7")
    p = edited(tmp_path, FORFEITS, "o.trf", n, 109, "Q")                  # round 2's result of player 7
    r = read_pairings(p, 5)
    assert len(r.warnings) == 1
    assert located(r.warnings[0], p, n, 109, warning=True).startswith("round 2: result 'Q' is not one of")
    after = write_results_trf(text_of(p), 5, {1: "1/2-1/2"}, p)
    assert round_from_trf(parse_trf(after), 5).boards[0].result == "1/2-1/2"
    assert located(error_of(p, 2), p, n, 109).startswith("round 2: result 'Q' is not one of")   # read strictly


# --- the command line: one located line and exit status 2 ------------------------------------

def flagfall_event(*args):
    import subprocess
    import sys
    from repo import flagfall_env
    return subprocess.run([sys.executable, "-m", "flagfall.cli", "event"] + list(args), capture_output=True,
                          text=True, env=flagfall_env(), timeout=60)


def test_command_line_prints_one_located_line_for_a_hostile_file(tmp_path):
    n = line_of(TRF16, "001    2")
    bad = edited(tmp_path, TRF16, "bad.trf", n, 8, "²")
    pgn = tmp_path / "bad.pgn"
    pgn.write_text('[Round "4.1"]\n[White "A"]\n[Black "B"]\n[WhiteElo "2²"]\n\n*\n', encoding="utf-8")
    csv = tmp_path / "bad.csv"
    csv.write_text("-1,A,B\n", encoding="utf-8")
    for path, line, column in ((bad, n, 5), (str(pgn), 4, 12), (str(csv), 1, 1)):
        p = flagfall_event("--pairings", str(path), "--round", "4", "--sim", "1")
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("event: "), p.stderr
        located(lines[0][len("event: "):], path, line, column)


def test_command_line_prints_the_warnings_located_before_stopping(tmp_path):
    # a file that reads with warnings; the command stops right after, at a --boards file that is not there
    n3 = line_of(FORFEITS, "001    3")
    p = flagfall_event("--pairings", FORFEITS, "--round", "1", "--boards", str(tmp_path / "none.txt"))
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 3, p.stderr
    assert located(lines[0][len("event: "):], FORFEITS, n3, 92, warning=True).startswith("round 1: player 3")
    assert "none.txt" in lines[2]


def test_pgn_dates_day_first_read_or_warned():
    game = '[Event "E"]\n[Date "%s"]\n[Round "2.1"]\n[White "A"]\n[Black "B"]\n\n*\n'
    for written, read in (("2010.09.24", "2010.09.24"), ("2010.??.??", "2010.??.??"), ("24/09/2010", "2010.09.24"),
                          ("24.09.2010", "2010.09.24"), ("????.??.??", None)):
        r = parse_pgn_pairings(game % written, 2, "d.pgn")
        assert (r.date, r.warnings) == (read, []), written
    r = parse_pgn_pairings(game % "05/06/2010", 2, "d.pgn")
    assert r.date is None and len(r.warnings) == 1
    assert located(r.warnings[0], "d.pgn", 2, 8, warning=True).startswith("Date '05/06/2010' is not a date read here")


def test_a_huge_or_binary_field_gives_a_short_line():
    long = "x" * 100000
    for text, parse in (('[Round "%s"]\n[White "A"]\n[Black "B"]\n\n*\n' % long, parse_pgn_pairings),
                        ('[Round "1.1"]\n[White "A"]\n[Black "B"]\n[Result "%s"]\n\n*\n' % long, parse_pgn_pairings),
                        ("board,%s,black\n" % long, parse_csv_pairings),
                        ("\x7fELF\x02\x01\x00" + "\x00" * 5000 + "\n", parse_csv_pairings)):
        with pytest.raises(PairingsError) as e:
            parse(text, 1, "h")
        assert len(str(e.value)) < 400 and "\n" not in str(e.value), str(e.value)[:100]
