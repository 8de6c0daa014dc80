"""Draughts rules (flagcore.draughts) on CPython and MicroPython.

Positions below were worked out by hand from the rulebooks; the squares are
given in comments as (row from the top, column from White's left).
"""
from flagcore import draughts as d
from flagcore.draughts import BLACK, KING, WHITE, DraughtsError, Game, Rules
from mptest import raises


def _perft(variant, depth, fen=None):
    g = Game(variant, fen)
    return g.rules.perft(g.board, g.side, depth)


def _shorts(g):
    return sorted([m.short() for m in g.legal()])


# -- start positions: the published perft counts (shared/perft-reference.md) ----------

def test_perft_international_start():
    assert [_perft("international", k) for k in range(1, 5)] == [9, 81, 658, 4265]


def test_perft_checkers_start():
    assert [_perft("checkers", k) for k in range(1, 6)] == [7, 49, 302, 1469, 7361]


def test_perft_russian_start():
    assert [_perft("russian", k) for k in range(1, 6)] == [7, 49, 302, 1469, 7482]


def test_perft_brazilian_start():
    assert [_perft("brazilian", k) for k in range(1, 6)] == [7, 49, 302, 1469, 7473]


def test_perft_depth_zero_is_one():
    assert _perft("international", 0) == 1


def test_start_positions_and_first_mover():
    # FMJD 2.8 / 3.3: black 1-20, white 31-50, white first; checkers 1.11 / 1.13: red 1-12 first
    g = Game("draughts")
    assert g.variant == "international" and g.side == WHITE
    assert g.fen() == "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:" \
                      "B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
    c = Game("checkers")
    assert c.side == BLACK
    assert _shorts(c) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    r = Game("russian")
    assert r.side == WHITE
    white = r.fen(algebraic=True).split(":")[1][1:].split(",")
    assert sorted(white) == ["a1", "a3", "b2", "c1", "c3", "d2", "e1", "e3", "f2", "g1", "g3", "h2"]


# -- the capture rule -----------------------------------------------------------------

def test_international_maximum_capture_is_compulsory():
    # 33 (6,5) takes 28 and 17 to 11; 39 could take only 34 (FMJD 4.13)
    g = Game("international", "W:W33,39:B17,28,34")
    assert _shorts(g) == ["33x11:17,28"]
    # a king counts as one piece, no more
    g = Game("international", "W:W33,39:B17,28,K34")
    assert _shorts(g) == ["33x11:17,28"]


def test_russian_free_choice_of_capture():
    # c3 takes d4 then f4 (to g3) or f6 (to g7); e3 takes d4 alone (to c5) or f4 then f6 (to e7)
    g = Game("russian", "W:Wc3,e3:Bd4,f6,f4")
    moves = sorted([g.move_text(m) for m in g.legal()])
    assert moves == ["c3:g3", "c3:g7", "e3:c5", "e3:e7"]


def test_brazilian_maximum_capture():
    # the same position under the maximum rule: the one-piece capture e3:c5 goes
    g = Game("brazilian", "W:Wc3,e3:Bd4,f6,f4")
    assert sorted([g.move_text(m) for m in g.legal()]) == ["c3xg3", "c3xg7", "e3xe7"]


def test_men_capture_backwards_except_in_checkers():
    # white man 22 (4,3) with black 27 behind it (5,2) and 31 empty (6,1)
    g = Game("international", "W:W22:B27")
    assert _shorts(g) == ["22x31:27"]
    # checkers men capture forwards only (1.17): white man 18 with a black man behind on 23
    c = Game("checkers", "W:W18:B23")
    assert all(not m.captured for m in c.legal())


def test_international_man_passing_last_row_stays_man():
    # 13 (2,5) takes 8 to 2 on the last row, then 7 to 11: ends a man (FMJD 4.15)
    g = Game("international", "W:W13:B7,8")
    (m,) = g.legal()
    assert m.short() == "13x11:7,8" and m.path == (13, 2, 11) and not m.crown
    g.push(m)
    assert g.board[g.rules.s2i[11]] == WHITE


def test_russian_man_crowned_mid_capture_continues_as_king():
    # f6 takes e7 to d8, is crowned, and takes b6 as a king, landing on a5
    g = Game("russian", "W:Wf6:Be7,b6")
    (m,) = g.legal()
    assert g.move_text(m) == "f6:a5" and m.crown
    g.push(m)
    assert g.board[g.rules.s2i[g.rules.parse_square("a5")]] == WHITE | KING
    # Brazilian: a man cannot take b6 from d8, so it stops there, crowned
    b = Game("brazilian", "W:Wf6:Be7,b6")
    (m,) = b.legal()
    assert b.move_text(m) == "f6xd8" and m.crown


def test_checkers_crowning_ends_the_move():
    # 11 takes 7 and lands on 2 (king row); as a king it could take 6, but the move ends (1.18)
    g = Game("checkers", "W:W11:B6,7")
    assert _shorts(g) == ["11x2:7"]
    (m,) = g.legal()
    assert m.crown
    g.push(m)
    assert g.board[g.rules.s2i[2]] == WHITE | KING and g.side == BLACK


def test_checkers_kings_move_one_square():
    g = Game("checkers", "W:WK18:B1")
    assert _shorts(g) == ["18-14", "18-15", "18-22", "18-23"]


def test_flying_king_moves_any_distance():
    g = Game("international", "W:WK46:B5")
    assert _shorts(g) == ["46-10", "46-14", "46-19", "46-23", "46-28", "46-32", "46-37", "46-41"]


def test_loop_capture_is_one_move():
    # 33 takes 28, 18, 19, 29 and comes back to 33, clockwise or anticlockwise:
    # the same start, end and captured pieces, so one move
    g = Game("international", "W:W33:B18,19,28,29")
    assert _shorts(g) == ["33x33:18,19,28,29"]
    assert g.move_text(g.legal()[0]) == "33x33"
    assert _perft("international", 1, "W:W33:B18,19,28,29") == 1


def test_same_start_and_end_different_pieces_are_two_moves():
    # Russian king e1: d2 then b2 to a1, or f2, f4, b2 to a1; the record needs the path
    g = Game("russian", "W:WK31:B19,23,25,26,27")
    assert _shorts(g) == ["31x29:19,25,27", "31x29:25,26"]
    texts = sorted([g.move_text(m) for m in g.legal()])
    assert texts == ["e1:c3:a1", "e1:g3:e5:a1"]
    assert sorted([g.move_text(m, algebraic=False) for m in g.legal()]) == ["31x22x29", "31x24x15x29"]
    assert g.parse("e1:c3:a1").captured == (25, 26)
    assert g.parse("31x24x15x29").captured == (19, 25, 27)
    # e1-e5 is not a diagonal: no legal move has that path
    raises(DraughtsError, g.parse, "31x15x29")
    e = raises(DraughtsError, g.parse, "e1:a1")
    assert "ambiguous" in str(e)
    assert len(g.candidates("e1:a1")) == 2


def test_russian_king_must_land_where_it_can_continue():
    # after taking d2 the king could stop on c3, b4 or a5; only c3 lets it go on (to a1)
    g = Game("russian", "W:WK31:B25,26")
    assert _shorts(g) == ["31x29:25,26"]


def test_jumped_piece_stays_and_blocks_until_the_sequence_ends():
    # king 38 (7,4) takes 42 (8,3) and must land on 47 (9,2). Were 42 taken off at once,
    # the king could come back over 42's square and 38 and take 20 (3,8) too; but jumped
    # pieces stay on the board until the capture is over (FMJD 4.11), so 42 blocks and
    # both captures take one piece (4.13 leaves the choice, 4.14)
    g = Game("international", "W:WK38:B20,31,42")
    assert _shorts(g) == ["38x15:20", "38x47:42"]


def test_king_lands_on_any_square_behind_the_piece():
    # FMJD 4.3: king 46 takes 37 and may stop on any empty square behind it
    g = Game("international", "W:WK46:B37")
    assert _shorts(g) == ["46x10:37", "46x14:37", "46x19:37", "46x23:37", "46x28:37", "46x32:37", "46x5:37"]


# -- moves, push and pop ----------------------------------------------------------------

def test_move_fields():
    g = Game("international", "W:W13:B7,8")
    (m,) = g.legal()
    assert (m.frm, m.to) == (13, 11)
    assert m.captured == (7, 8) and m.order == (8, 7)
    assert m.key() == (13, 11, (7, 8))
    q = Game("international").legal()[0]
    assert q.path == (q.frm, q.to) and q.captured == () and not q.crown


class _Lcg:
    # the same pseudo-random moves on both interpreters
    def __init__(self, seed):
        self.x = seed

    def pick(self, n):
        self.x = (self.x * 1103515245 + 12345) & 0x3FFFFFFF
        return (self.x >> 8) % n


def test_match_by_occupancy_changes():
    g = Game("russian", "W:WK31:B19,23,25,26,27")
    (m,) = g.match([31, 25, 26], [29])
    assert m.captured == (25, 26)
    (m,) = g.match([31, 19, 25, 27], [29])
    assert m.captured == (19, 25, 27)
    assert g.match([31], [29]) == []
    # a loop capture: the capturing man ends where it started
    loop = Game("international", "W:W33:B18,19,28,29")
    assert len(loop.match([18, 19, 28, 29], [])) == 1
    s = Game("international")
    assert [m.short() for m in s.match([32], [28])] == ["32-28"]


def test_push_pop_restores_position_and_counters():
    for v in ("international", "brazilian", "russian", "checkers"):
        g = Game(v)
        rnd = _Lcg(7)
        seen = []
        for _ in range(80):
            ms = g.legal()
            if not ms:
                break
            m = ms[rnd.pick(len(ms))]
            seen.append((g.fen(), g.side, g.kings, g.change, g.eg, g.eg_class, m.key()))
            g.push(m)
            assert len(g.history) == len(seen)  # one record per move played
        while seen:
            m = g.pop()
            assert m in g.legal()
            assert (g.fen(), g.side, g.kings, g.change, g.eg, g.eg_class, m.key()) == seen.pop()
        assert g.history == [] and g.fen() == Game(v).fen()


def test_push_text_and_illegal_move():
    g = Game("international")
    g.push("32-28")
    assert g.side == BLACK
    e = raises(DraughtsError, g.push, "28-23")
    assert "illegal" in str(e)
    other = Game("international").legal()[0]
    g2 = Game("international")
    g2.push("32-28")
    raises(DraughtsError, g2.push, other)


def test_replay_real_game_opening():
    # WK 2003, Ndjofang - Heusdens, the first 40 moves (shared/data/international/wiegerw-pdn_wk2003.pdn)
    text = ("32-28 17-22 28x17 12x21 31-26 7-12 26x17 12x21 36-31 19-23 34-29 23x34 39x30 20-24 "
            "30x19 14x23 37-32 21-27 31x22 18x27 32x21 16x27 41-37 10-14 46-41 11-17 33-29 23x34 "
            "40x29 6-11 35-30 14-20 45-40 20-24 30x19 13x33 38x29 5-10 42-38 10-14 44-39 8-12 "
            "40-34 14-19 50-44 2-7 48-42 19-23 29x18 12x23 39-33 7-12 33-28 23x32 37x28 9-13 "
            "44-39 3-9 38-33 9-14 34-30 17-21 33-29 21-26 43-38 1-7 41-37 11-17 39-34 7-11 "
            "30-24 11-16 34-30 27-31 28-23 16-21 30-25 12-18 23x12 17x8")
    g = Game("international")
    n = 0
    for t in text.split():
        g.push(t)
        n += 1
    assert n == 80 and g.side == WHITE
    assert g.outcome() is None


# -- notation and positions --------------------------------------------------------------

def test_algebraic_squares_8x8():
    r = Rules("russian")
    assert r.parse_square("a1") == 29 and r.parse_square("h8") == 4 and r.parse_square("b8") == 1
    assert r.square_name(32, True) == "g1" and r.square_name(1, True) == "b8"
    for s in range(1, 33):
        assert r.parse_square(r.square_name(s, True)) == s


def test_algebraic_squares_10x10():
    r = Rules("international")
    assert r.square_name(46, True) == "a1" and r.square_name(5, True) == "j10"
    assert r.parse_square("a1") == 46


def test_russian_records_read_both_notations():
    g = Game("russian")
    assert g.parse("c3-d4").short() == g.parse("22-18").short() == "22-18"
    assert g.move_text(g.parse("c3-d4")) == "c3-d4"
    assert g.move_text(g.parse("c3-d4"), algebraic=False) == "22-18"


def test_fen_round_trip_and_ranges():
    g = Game("international", "B:W31-35,K45:BK1,10-12")
    assert g.side == BLACK
    assert g.fen() == "B:W31,32,33,34,35,K45:BK1,10,11,12"
    assert Game("international", g.fen()).fen() == g.fen()
    r = Game("russian", "W:Wa1,Kh8:Bb8")
    assert r.fen(algebraic=True) == "W:WKh8,a1:Bb8"
    assert r.fen() == "W:WK4,29:B1"


def test_bad_fen_gives_clear_errors():
    e = raises(DraughtsError, Game, "international", "W:W51:B1")
    assert "51" in str(e) and "1-50" in str(e)
    e = raises(DraughtsError, Game, "checkers", "W:W33:B1")
    assert "1-32" in str(e)
    e = raises(DraughtsError, Game, "international", "X:W31:B1")
    assert "bad FEN" in str(e)
    e = raises(DraughtsError, Game, "international", "W31,32")
    assert "bad FEN" in str(e)
    e = raises(DraughtsError, Game, "international", "W:W31,31:B1")
    assert "twice" in str(e)
    e = raises(DraughtsError, Game, "international", "W:W31:Q1")
    assert "W or B" in str(e)
    e = raises(DraughtsError, Game, "international", "W:W3:B20")
    assert "king" in str(e)
    e = raises(DraughtsError, Game, "russian", "W:Wa2:B1")
    assert "light square" in str(e)
    e = raises(DraughtsError, Game, "russian", "W:Wz9:B1")
    assert "bad square" in str(e)
    e = raises(DraughtsError, Game, "international", "W:W31,abc:B1")
    assert "bad square" in str(e)


def test_bad_move_text_and_variant():
    g = Game("international")
    raises(DraughtsError, g.parse, "32")
    raises(DraughtsError, g.parse, "32-28-23")
    raises(DraughtsError, g.parse, "32-99")
    e = raises(DraughtsError, Game, "shogi")
    assert "unknown draughts variant" in str(e)


# -- game end and draws --------------------------------------------------------------------

def test_win_when_opponent_has_no_pieces_or_no_move():
    assert Game("international", "B:W46:B").outcome()[:2] == (WHITE, "no pieces left")
    # black man 28 (h2) is blocked by white 32 and cannot jump off the board
    g = Game("checkers", "B:W32:B28")
    assert g.legal() == [] and g.outcome()[:2] == (WHITE, "no legal move")
    assert Game("international").outcome() is None


def _walk(g, plies):
    # play `plies` quiet king moves that allow no capture and no third repetition,
    # preferring positions not seen before
    for _ in range(plies):
        done = False
        for allowed in (1, 2):
            for m in g.legal():
                assert not m.captured
                if not g.board[g.rules.s2i[m.frm]] & KING:
                    continue
                g.push(m)
                if g.repetitions() <= allowed and not any([x.captured for x in g.legal()]):
                    done = True
                    break
                g.pop()
            if done:
                break
        assert done


def test_fmjd_threefold_repetition():
    g = Game("international", "W:WK47,36:BK4,15")
    for _ in range(2):
        for t in ("47-42", "4-10", "42-47", "10-4"):
            assert g.outcome() is None
            g.push(t)
    assert g.repetitions() == 3
    assert g.outcome() == (None, "threefold repetition", "FMJD 6.1")


def test_fmjd_25_king_moves():
    g = Game("international", "W:WK46,K50,36:BK1,K5,15")
    _walk(g, 49)
    assert g.outcome() is None
    _walk(g, 1)
    assert g.outcome() == (None, "25 moves of kings only", "FMJD 6.2")


def test_fmjd_16_moves_three_pieces_against_lone_king():
    g = Game("international", "W:WK47,K50,36:BK3")
    assert g.eg_class == 63
    _walk(g, 31)
    assert g.outcome() is None
    _walk(g, 1)
    assert g.outcome()[2] == "FMJD 6.3"


def test_fmjd_5_moves_two_kings_against_lone_king():
    g = Game("international", "W:WK47,K50:BK3")
    assert g.eg_class == 64
    _walk(g, 9)
    assert g.outcome() is None
    _walk(g, 1)
    assert g.outcome()[2] == "FMJD 6.4"


def test_checkers_draws_are_claims():
    g = Game("checkers", "W:WK29,K32:BK1,K4")
    _walk(g, 79)
    assert g.claims() == [] and g.outcome() is None
    _walk(g, 1)
    assert g.claims() == [("40 moves without a man move or capture", "1.32.2")]
    assert g.outcome() is None
    r = Game("checkers", "W:WK29:BK4")
    for _ in range(2):
        for t in ("29-25", "4-8", "25-29", "8-4"):
            r.push(t)
    assert ("threefold repetition", "1.32.1") in r.claims()


def test_russian_15_king_moves():
    g = Game("russian", "W:WKa1,Kc1,a3:BKh8,Kf8,h6")
    _walk(g, 29)
    assert g.outcome() is None
    _walk(g, 1)
    assert g.outcome()[1] == "15 moves each of kings only"


def test_russian_three_kings_against_lone_king():
    g = Game("russian", "W:WKa1,Kc1,Ke1:BKh8")
    assert g.outcome() is None
    g.change = 30
    assert g.outcome()[1] == "15 moves each in 3 kings against a lone king"


def test_russian_balance_rule_counts_from_last_capture_or_crowning():
    # Russian 7.2.6: both sides have kings, 4-5 pieces: 30 moves each; 6-7 pieces: 60
    g = Game("russian", "W:WKa1,c3,e3:BKh8,f6")
    g.change = 59
    assert g.outcome() is None
    g.change = 60
    assert g.outcome()[2] == "Russian 7.2.6"
    g = Game("russian", "W:WKa1,c3,e3,g3:BKh8,f6,d6")
    g.change = 119
    assert g.outcome() is None
    g.change = 120
    assert g.outcome()[2] == "Russian 7.2.6"


# -- the rule data in seeds/ matches the code ----------------------------------------------

def _seeds():
    import json
    from mptest import data_path
    with open(data_path("draughts_rules.json")) as f:
        return json.load(f)["variants"]


def test_seed_parameters_match_the_code():
    seeds = _seeds()
    assert sorted(seeds) == sorted(d.SPECS)
    for v in seeds:
        s = seeds[v]
        half, back, fly, maximum, crown_mid, first = d.SPECS[v]
        assert s["board"]["squares"] == 2 * half * half
        assert s["men"]["capture_backwards"] == back
        assert s["kings"]["flying"] == fly
        assert s["capture"]["maximum"] == maximum
        assert (first == WHITE) == (s["start"]["first"] == "white")
        assert Game(v, s["start"]["fen"]).fen() == Game(v).fen()
        for alias in s.get("aliases", []):
            assert d.variant_name(alias) == v


def test_seed_draw_limits_match_the_code():
    seeds = _seeds()
    for v, rule_id in (("international", "kings_25"), ("brazilian", "kings_25"), ("russian", "kings_15")):
        plies = [r for r in seeds[v]["draws"] if r["id"] == rule_id][0]["plies"]
        g = Game(v, "W:WK46:BK1" if v == "international" else "W:WK29:BK4,12")
        g.kings = plies - 1
        assert g.outcome() is None
        g.kings = plies
        assert g.outcome()[0] is None
    forty = [r for r in seeds["checkers"]["draws"] if r["id"] == "forty_moves"][0]
    g = Game("checkers", "W:WK29:BK4,12")
    g.kings = forty["plies"]
    assert g.claims()[0][1] == forty["source"].split()[1]
    assert g.outcome() is None and forty["claim"]
