"""Minzu tiaoqi rules, one test (at least) per rule 6-40 and 68 of rulebook 003.

Each test builds a position where the rule decides the outcome. Runs under
pytest and under MicroPython (tests/mp).
"""
from flagcore import minzu as mz
from flagcore.minzu import Game, Ruleset, from_text, LIGHT, DARK
from mptest import raises

NOFLY = Ruleset(flying=False)


def P(rows, turn="L", phase="move", pending=0, jump="-", rules=None):
    """A position from row strings (A first)."""
    return from_text("%s %s %s %d %s" % ("/".join(rows), turn, phase, pending, jump), rules)


def T(g):
    """Sorted texts of the legal decisions."""
    return sorted([g.text(d) for d in g.decisions()])


def kinds(g):
    """The set of decision kind names listed."""
    out = []
    for d in g.decisions():
        k = mz.KIND_NAMES[mz.kind(d)]
        if k not in out:
            out.append(k)
    return sorted(out)


# ---- chapter 1: board, coordinates, pieces [1-3] ------------------------------

def test_rule_01_03_board_colours_coordinates_and_piece_counts():
    g = Game(6)
    assert g.name(0) == "A0" and g.cell("F5") == 35
    assert g.is_light_cell(g.cell("F5"))          # even: bottom-right light
    g = Game(9)
    assert not g.is_light_cell(g.cell("I0")) and not g.is_light_cell(g.cell("I8"))   # odd: dark corners
    assert Game(9).total == [41, 40]
    assert Game(14).total == [98, 98]
    assert Game("7x8").total == [28, 28]
    assert Game("7x8").rows == 8 and Game("7x8").cols == 7
    assert Game(14).name(195) == "N13"


# ---- chapter 3: placement [6-11] ----------------------------------------------

def test_rule_06_light_first_alternating_until_full():
    from flagcore.minzu_player import Player
    for size in ("6", "7"):
        g = Game(size)
        p = Player(5)
        assert g.turn == LIGHT
        placed = [0, 0]
        while g.phase == mz.PLACE:
            side = g.turn
            d = p.choose(g)
            g.play(d)
            if mz.kind(d) == mz.K_PLACE:
                placed[side] += 1
                if g.phase == mz.PLACE and not g.pending:
                    assert g.turn == 1 - side      # alternate
        assert placed == g.total                    # every piece placed: the board was filled
        assert g.in_hand == [0, 0]


def test_rule_07_placement_starts_on_an_empty_board():
    for size in mz.SIZES:
        g = Game(size)
        assert g.phase == mz.PLACE and g.on_board == [0, 0]
        assert g.in_hand == g.total and sum(g.board) == 0


def test_rule_08_first_placements_in_the_centre():
    g = Game(6)
    assert T(g) == ["C3", "D2"]                     # the two central dark cells
    for d in g.decisions():
        assert not g.is_light_cell(mz.src(d))
    g.play("D2")
    assert T(g) == ["C3"]                           # dark takes the other
    g.play("C3")
    assert len(g.decisions()) == 34                 # then anywhere
    g = Game(7)
    assert T(g) == ["D3"]                           # odd: the centre, a dark cell
    assert not g.is_light_cell(g.cell("D3"))
    g.play("D3")
    assert len(g.decisions()) == 48
    g = Game("7x8")
    assert T(g) == ["D3", "E3"]                     # 7x8: one dark, one light
    assert g.is_light_cell(g.cell("D3")) != g.is_light_cell(g.cell("E3"))
    raises(mz.IllegalDecision, g.play, "A0")


def test_rule_09_square_marks_opponent_piece():
    g = P(["LL....", "L.....", "...DD.", "...D..", "......", "......"], "L", "place")
    g.play("B1")                                    # completes A0 A1 B0 B1
    assert g.pending == 1 and g.turn == LIGHT
    assert T(g) == ["*C3", "*C4", "*D3"]
    g.play("*C4")
    assert g.turn == DARK and g.marked == [0, 1]
    assert "C4" not in T(g)                         # a marked cell cannot be played again
    g.play("D4")                                    # C3 C4 D3 D4 but C4 is marked: no square
    assert g.pending == 0 and g.turn == LIGHT
    assert g.to_text().startswith("LL4/LL4/3Dd1/3DD1/")


def test_rule_09_no_square_without_it():
    g = P(["LL....", "......", "...DD.", "......", "......", "......"], "L", "place")
    g.play("B1")
    assert g.pending == 0 and g.turn == DARK


def test_rule_10_board_full_with_marked_pieces_ends_placement():
    rows = ["lDLDLD"] + ["LDLDLD"] * 4 + ["LDLDL."]
    g = P(rows, "D", "place")
    g.play("F5")
    assert g.phase == mz.CLEAR and g.turn == DARK
    rows = ["LDLDLD"] * 5 + ["LDLDL."]
    g = P(rows, "D", "place")
    g.play("F5")
    assert g.phase == mz.REMOVE                     # no marked pieces: straight to removal


def test_rule_11_several_squares_mark_that_many():
    ring = ["......", ".LLL..", ".L.L..", ".LLL..", "DD....", "DDDDDD"]
    g = P(ring, "L", "place")
    g.play("C2")
    assert g.pending == 4                           # four squares at once
    for i in range(4):
        g.play(g.decisions()[0])
    assert g.marked == [0, 4] and g.turn == DARK
    g = P(["......", ".LLL..", ".L.L..", ".LL...", "D.....", "DDDDDD"], "L", "place")
    g.play("C2")
    assert g.pending == 3
    g = P(["......", ".LLL..", ".L.L..", "......", "......", "DDDDD."], "L", "place")
    g.play("C2")
    assert g.pending == 2


# ---- chapter 4: moving [12-20] --------------------------------------------------

def test_rule_12_marked_pieces_leave_first():
    rows = ["lDLDLd"] + ["LDLDLD"] * 5
    g = P(rows, "D", "clear")
    assert T(g) == ["xA0", "xA5"]
    g.play("xA5")
    assert g.phase == mz.CLEAR
    g.play("xA0")
    assert g.phase == mz.REMOVE and g.captured == [1, 1]


def test_rule_13_each_side_removes_one_opponent_piece():
    g = P(["LDLDLD"] * 6, "D", "remove")
    assert len(g.decisions()) == 18
    for d in g.decisions():
        assert g.board[mz.src(d)] == 1               # dark removes a light piece
    g.play("xA0")
    assert g.turn == LIGHT and g.phase == mz.REMOVE
    for d in g.decisions():
        assert g.board[mz.src(d)] == 2               # light removes a dark piece
    g.play("xA1")
    assert g.phase == mz.MOVE and g.on_board == [17, 17]


def test_rule_14_dark_removes_and_moves_first():
    rows = ["LDLDLD"] * 5 + ["LDLDL."]
    g = P(rows, "D", "place")
    g.play("F5")
    assert g.turn == DARK and g.phase == mz.REMOVE
    g.play("xA0")
    g.play("xA1")
    assert g.phase == mz.MOVE and g.turn == DARK


def test_rule_15_three_ways_to_move():
    g = P(["LD....", "......", "......", "......", "....DD", "...LDD"], "L", rules=NOFLY)
    assert kinds(g) == ["jump", "slide", "step"]


def test_rule_16_jump_captures_one_adjacent_piece():
    g = P(["......", "......", ".LD...", "......", "....DD", "...LDD"], "L", rules=NOFLY)
    assert "C1:C3" in T(g)
    g.play("C1:C3")
    assert g.board[g.cell("C2")] == 0 and g.on_board[DARK] == 4
    assert g.turn == DARK
    g = P(["......", "......", ".LDD..", "......", "..D.DD", ".D.LDD"], "L", rules=NOFLY)
    assert "C1:C3" not in T(g) and "C1:C4" not in T(g)   # never two pieces at once
    g = P(["......", "......", ".LL...", "..D...", "....DD", "...LDD"], "L", rules=NOFLY)
    for t in T(g):
        assert ":" not in t or t == "C2:E2"            # not over own, not diagonally
    assert "C2:E2" in T(g)
    g = P(["......", "......", ".LDD..", "......", "....DD", "...DDD"], "L", rules=NOFLY)
    assert kinds(g) == ["slide", "step"]               # the cell beyond must be empty


def test_rule_17_multi_jump_may_turn_90_degrees():
    g = P(["....DD", ".....D", "......", ".D....", "D.....", "L....."], "L", rules=NOFLY)
    g.play("F0:D0")
    assert g.jump_at == g.cell("D0")
    assert T(g) == ["D0:D2", "stop"]
    g.play("D0:D2")                                     # turned 90 degrees
    assert g.on_board[DARK] == 3 and g.turn == DARK


def test_rule_18_step_one_cell_orthogonally():
    g = P(["......", "......", "..L...", "......", "...DDD", "...DDD"], "L", rules=Ruleset(slide=False, flying=False))
    assert T(g) == ["C2-B2", "C2-C1", "C2-C3", "C2-D2"]   # no diagonal
    g.play("C2-C3")
    assert g.board[g.cell("C3")] == 1 and g.board[g.cell("C2")] == 0


def test_rule_19_slide_over_empty_cells_is_an_option():
    rows = ["......", "......", "L.D...", "......", "...DDD", "...DDD"]
    g = P(rows, "L", rules=NOFLY)
    assert T(g) == ["C0-A0", "C0-B0", "C0-C1", "C0-D0", "C0-E0", "C0-F0"]
    assert mz.kind(g.decision("C0-A0")) == mz.K_SLIDE
    g = P(rows, "L", rules=Ruleset(slide=False, flying=False))
    assert T(g) == ["C0-B0", "C0-C1", "C0-D0"]
    raises(mz.IllegalDecision, g.play, "C0-A0")


def test_rule_20_compulsory_capture_is_an_option():
    rows = ["....DD", ".....D", "......", ".D....", "D.....", "L....."]
    g = P(rows, "L", rules=NOFLY)
    assert "F0-F1" in T(g)                              # off by default
    assert mz.DEFAULT.compulsory is False
    g = P(rows, "L", rules=Ruleset(compulsory=True, flying=False))
    assert T(g) == ["F0:D0"]
    g.play("F0:D0")
    assert T(g) == ["D0:D2"]                            # no stopping halfway


# ---- chapter 5: capturing [21-29] -----------------------------------------------

def test_rule_21_jump_then_door_captures_add_up():
    g = P(["LL....", "L.....", ".D....", ".L....", "...DDD", "...DDD"], "L", rules=NOFLY)
    g.play("D1:B1")                                     # jump lands on B1, completing a door
    assert g.on_board[DARK] == 6 and g.pending == 1 and g.turn == LIGHT
    g.play("xF5")
    assert g.on_board[DARK] == 5 and g.turn == DARK


def test_rule_22_at_most_two_doors_per_move():
    g = P(["LL....", "L.L...", "LL....", "......", "...DDD", "...DDD"], "L", rules=NOFLY)
    g.play("B2-B1")                                     # two doors at once
    assert g.pending == 2
    ring = ["......", ".LLL..", ".L.L..", ".LLL..", "......", "DDDDDL"]
    g = P(ring, "L", rules=Ruleset(fly_at=36))          # a fly can close four doors
    g.play("F5-C2")
    assert g.pending == 2                               # [22]: two at most in the moving phase
    g = P(ring, "L", rules=Ruleset(fly_at=36, max_squares_moving=4))
    g.play("F5-C2")
    assert g.pending == 4


def _daliang_rows():
    return ["LL...D", "LL...D", "L....D", "LL...D", "......", "..DDDD"]


def test_rule_23_daliang_captures_on_every_shuttle():
    g = P(_daliang_rows(), "L", rules=NOFLY)
    assert g.daliangs(LIGHT) == [(g.cell("B1"), g.cell("C1"))]
    caught = 0
    for mv, reply in (("B1-C1", "F2-E2"), ("C1-B1", "E2-F2"), ("B1-C1", "F2-E2")):
        g.play(mv)
        assert g.pending == 1                           # a door every time
        g.play("xA5" if caught == 0 else g.text(g.decisions()[0]))
        caught += 1
        g.play(reply)
    assert g.on_board[DARK] == 8 - 3


def test_rule_24_chariot_slides_form_a_door_each_time():
    g = P(["LL...D", "LL...D", ".....D", ".....D", "L....D", "LL..DD"], "L", rules=NOFLY)
    assert g.daliangs(LIGHT) == []                       # no single-step shuttle
    assert (g.cell("B1"), g.cell("E1")) in g.daliangs(LIGHT, slides=True)
    g.play("B1-E1")
    assert g.pending == 1
    g.play("xA5")
    g.play("F4-E4")
    g.play("E1-B1")
    assert g.pending == 1


def test_rule_25_double_daliang_arbiter_win():
    rows = ["LL..LL", "LL..LL", "L....L", "LL..LL", "...D..", "D.D.D."]
    g = P(rows, "D", rules=NOFLY)
    assert len(g.daliangs(LIGHT)) == 2
    assert g.double_daliang(LIGHT)
    g.arbiter_win(LIGHT, 25)
    assert g.phase == mz.OVER and g.result == "1-0" and g.reason == 25
    rows2 = ["LL..LL", "LL..LL", "L....L", "LL..LL", "..DD..", "..DD.."]
    g = P(rows2, "D", rules=NOFLY)
    assert not g.double_daliang(LIGHT)                  # the opponent still has a door
    rows3 = ["LL....", "LL....", "L.....", "LL....", "...D..", "D.D.D."]
    assert not P(rows3, "D", rules=NOFLY).double_daliang(LIGHT)   # a single daliang


def test_rule_26_qiang_captures_two():
    g = P(["...DDD", "...DDD", "......", "......", ".....L", "LLLLL."], "L", rules=NOFLY)
    g.play("E5-F5")                                     # row F all light
    assert g.pending == 2
    g.play("xA5")
    g.play("xA4")
    assert g.on_board[DARK] == 4 and g.turn == DARK


def test_rule_27_qiang_and_doors_add_up():
    rows = [".L..DD", "LL..DD", "L.L.DD", ".L..DD", ".L....", ".L...."]
    g = P(rows, "L", rules=NOFLY)
    g.play("C2-C1")                                     # column 1 full + one door
    assert g.pending == 3
    rows = [".L..DD", "LL..DD", "L.L.DD", "LL..DD", ".L....", ".L...."]
    g = P(rows, "L", rules=NOFLY)
    g.play("C2-C1")                                     # column 1 full + two doors
    assert g.pending == 4


def test_rule_28_no_bonus_for_crossed_or_parallel_qiang():
    # row C and column 1 complete at once when a piece flies in from outside both lines
    g = P([".L..DD", ".L..DD", "L.LLLL", ".L...L", ".L....", ".L.DDD"], "L", rules=Ruleset(fly_at=36))
    g.play("D5-C1")
    assert g.pending == 4                                # 2 + 2, not the Tibetan 8
    par = ["...DDD", "...DDD", "....DD", "L.....", "LLLLLL", "LL.LLL"]
    g = P(par, "L", rules=Ruleset(fly_at=36))
    g.play("D0-F2")
    assert g.pending == 2 + 2                           # two doors + one qiang, no bonus for the parallel line


def test_rule_29_edge_and_middle_qiang_capture_the_same():
    edge = ["L...DD", "L...DD", ".L..DD", "L.....", "L.....", "L....."]
    g = P(edge, "L", rules=NOFLY)
    g.play("C1-C0")
    assert g.pending == 2
    mid = ["..L.DD", "..L.DD", "...LDD", "..L...", "..L...", "..L..."]
    g = P(mid, "L", rules=NOFLY)
    g.play("C3-C2")
    assert g.pending == 2


# ---- chapter 6: flying [30-37] ---------------------------------------------------

def test_rule_30_flying_at_side_length_pieces():
    g = P(["LLLLLL", "......", "......", "......", "DDDDDD", "DDDDDD"], "L")
    assert g.flying(LIGHT) and not g.flying(DARK)        # 6 pieces on a 6-board
    g = P(["LLLLLL", "L.....", "......", "......", "DDDDDD", "DDDDDD"], "L")
    assert not g.flying(LIGHT)                          # 7 pieces
    assert Game("7x8").fly_at == 7 and Game(14).fly_at == 14 and Game(9).fly_at == 9


def test_rule_31_flying_piece_goes_to_any_empty_cell():
    g = P(["L.....", "......", "..L...", "......", "DDDDDD", "DDDDDD"], "L")
    assert "A0-D5" in T(g) and "C2-A5" in T(g)
    assert mz.kind(g.decision("A0-D5")) == mz.K_FLY
    assert len(g.decisions()) == 2 * 22                  # two pieces times 22 empty cells
    g.play("A0-D5")
    assert g.board[g.cell("D5")] == 1


def test_rule_32_nine_line_board_flies_at_nine():
    rows = ["LLLLLLLLL"] + ["9"] * 6 + ["DDDDDDDDD", "DDDDDDDDD"]
    g = P(rows, "L")
    assert g.flying(LIGHT) and not g.flying(DARK)
    rows = ["LLLLLLLLL", "L8"] + ["9"] * 5 + ["DDDDDDDDD", "DDDDDDDDD"]
    assert not P(rows, "L").flying(LIGHT)


def test_rule_33_fangqi_rules_have_no_flying():
    g = P(["L.....", "......", "..L...", "......", "DDDDDD", "DDDDDD"], "L", rules=NOFLY)
    assert not g.flying(LIGHT)
    assert "A0-D5" not in T(g) and kinds(g) == ["slide", "step"]


def test_rule_34_minzu_has_flying_by_default():
    assert mz.DEFAULT.flying is True
    g = P(["L.....", "......", "..L...", "......", "DDDDDD", "DDDDDD"], "L")
    assert kinds(g) == ["fly"]


def test_rule_35_flying_jumps_must_take_two():
    rows = ["...LLL", ".....D", "......", ".D....", "D.....", "L..DDD"]
    g = P(rows, "L")                                    # light 4 pieces: flying, more than 3
    jumps = [t for t in T(g) if ":" in t]
    assert jumps == ["F0:D0"]                           # A5:C5 would take only one
    g.play("F0:D0")
    assert T(g) == ["D0:D2"]                            # no stopping after one
    g.play("D0:D2")
    assert g.on_board[DARK] == 4


def test_rule_36_three_pieces_may_jump_single():
    rows = ["...L.L", ".....D", "......", ".D....", "D.....", "L..DDD"]
    g = P(rows, "L")
    jumps = [t for t in T(g) if ":" in t]
    assert jumps == ["A5:C5", "F0:D0"]
    g.play("F0:D0")
    assert T(g) == ["D0:D2", "stop"]


def test_rule_37_each_side_flies_by_its_own_count():
    g = P(["LLLLLL", "......", "......", "DDDDDD", "DDDDDD", "......"], "D")
    assert g.flying(LIGHT) and not g.flying(DARK)
    assert "fly" not in kinds(g)
    g = P(["LLLLLL", "......", "......", "DDDDDD", "......", "......"], "D")
    assert g.flying(LIGHT) and g.flying(DARK) and kinds(g) == ["fly"]


# ---- chapter 7: the end [38-40, 68] ----------------------------------------------

def test_rule_38_no_pieces_loses():
    g = P(["......", "......", ".LD...", "......", "......", "LLL..."], "L", rules=Ruleset(lose_below=1, flying=False))
    g.play("C1:C3")
    assert g.phase == mz.OVER and g.winner == LIGHT and g.reason == 38 and g.result == "1-0"


def test_rule_39_resignation():
    g = Game(6)
    g.play("C3")
    g.resign(DARK)
    assert g.phase == mz.OVER and g.result == "1-0" and g.reason == 39
    assert g.decisions() == []
    raises(mz.IllegalDecision, g.resign, LIGHT)


def test_rule_40_no_legal_move_loses():
    rows = ["DDLL..", "DDLL..", "LLL...", "LL....", "......", "....LL"]
    g = P(rows, "L", rules=NOFLY)
    assert not g.has_move(DARK)
    g.play("F5-E5")
    assert g.phase == mz.OVER and g.winner == LIGHT and g.reason == 40
    g = P(rows, "L")                                    # dark has 4 pieces: it may fly, so it can move
    assert g.has_move(DARK)
    g.play("F5-E5")
    assert g.phase == mz.MOVE


def test_rule_68_fewer_than_three_pieces_loses():
    g = P(["......", "......", ".LD...", "......", "......", "LLLD.D"], "L", rules=NOFLY)
    g.play("C1:C3")                                     # dark down to 2
    assert g.phase == mz.OVER and g.winner == LIGHT and g.reason == 68
    g = P(["......", "......", ".LD...", "......", "....D.", "LLLD.D"], "L", rules=NOFLY)
    g.play("C1:C3")                                     # dark keeps three: plays on [36]
    assert g.phase == mz.MOVE and g.turn == DARK


def test_rule_67_third_violation_loses():
    g = Game(6)
    assert g.violation(LIGHT, 62) == 1 and g.phase == mz.PLACE
    assert g.violation(LIGHT, 64) == 2 and g.phase == mz.PLACE
    g.violation(LIGHT, 63)
    assert g.phase == mz.OVER and g.result == "0-1" and g.reason == 67
