"""Minzu tiaoqi game records: write/read round trips, implicit stops, endings, malformed text."""
import pytest

from flagcore import minzu as core
from flagcore import minzu_player as player
from flagfall.games import minzu as rec


def _game(size, seed, **opts):
    texts = []
    rules = core.Ruleset(quiet_draw=100, **opts)
    g, n, fails = player.play_game(size, seed, rules, True, texts)
    assert fails == []
    return g, texts, rules


@pytest.mark.parametrize("size", core.SIZES)
def test_record_round_trips(size):
    for seed in (1, 2):
        g, texts, rules = _game(size, seed)
        r = rec.record_of(size, texts, g.result, g.reason, rules, {"Event": "test", "Light": 'A "quoted" name'})
        text = rec.write_game(r)
        back = rec.read_games(text)
        assert len(back) == 1
        assert back[0].decisions == texts
        assert back[0].tags["Light"] == 'A "quoted" name'
        assert back[0].result == g.result
        assert rec.write_game(back[0]) == text
        assert back[0].replay().to_text() == g.to_text()


def test_options_tag_round_trips_and_changes_the_rules():
    g, texts, rules = _game("7", 3, slide=False, compulsory=True)
    r = rec.record_of("7", texts, g.result, g.reason, rules)
    text = rec.write_game(r)
    assert '[Options "slide=off,compulsory=on,quiet_draw=100"]' in text
    back = rec.read_games(text)[0]
    assert back.rules().slide is False and back.rules().compulsory is True
    assert back.replay().to_text() == g.to_text()


def test_several_games_in_one_file():
    parts = []
    finals = []
    for seed in (4, 5, 6):
        g, texts, rules = _game("6", seed)
        parts.append(rec.write_game(rec.record_of("6", texts, g.result, g.reason, rules)))
        finals.append(g.to_text())
    games = rec.read_games("\n".join(parts))
    assert [x.replay().to_text() for x in games] == finals


def test_turn_tokens():
    assert rec.split_turn("B1*C4*D3") == ["B1", "*C4", "*D3"]
    assert rec.split_turn("F0:D0:D2xA1") == ["F0:D0", "D0:D2", "xA1"]
    assert rec.split_turn("e4-e6xb3") == ["E4-E6", "xB3"]
    assert rec.split_turn("xA0xA5") == ["xA0", "xA5"]
    for bad in ("E4-", "E4--E5", "*", "E4:E", "resign", "E4xx"):
        with pytest.raises(rec.RecordError):
            rec.split_turn(bad)


def test_stopped_chain_is_implicit_and_restored():
    pos = "6/5D/6/1D4/D5/L4D L move 0 -"
    rules = core.Ruleset(flying=False)
    g = core.from_text(pos, rules)
    texts = ["F0:D0", "stop", "F5-E5"]
    r = rec.Record({"Size": "6", "SetUp": pos, "Options": "flying=off"}, texts, "*")
    text = rec.write_game(r)
    assert "F0:D0 F5-E5" in text
    back = rec.read_games(text)[0]
    assert back.decisions == texts
    for t in texts:
        g.play(core.STOP if t == "stop" else t)
    assert back.replay().to_text() == g.to_text()


def test_endings_outside_the_board():
    text = '[Size "6"]\n[Result "0-1"]\n[Termination "rule 39"]\n\nC3 D2 0-1\n'
    g = rec.read_games(text)[0].replay()
    assert g.result == "0-1" and g.reason == 39
    text = '[Size "6"]\n[Result "1/2-1/2"]\n\nC3 D2 1/2-1/2\n'
    assert rec.read_games(text)[0].replay().reason == 70
    text = '[Size "6"]\n[Result "1-0"]\n[Termination "rule 25"]\n\nC3 1-0\n'
    g = rec.read_games(text)[0].replay()
    assert g.winner == 0 and g.reason == 25


@pytest.mark.parametrize("text,msg", [
    ('[Size "6"]\n\nC3 A0 *\n', "line 3: turn A0"),
    ('[Size "6"]\n\nC3 D2 E4-- *\n', "malformed turn"),
    ('[Size "6"\n\nC3 *\n', "malformed tag"),
    ('[Size "10"]\n\nC3 *\n', "unknown board size"),
    ('[Size "6"]\n[Result "1-0"]\n\nC3 0-1\n', "Result tag 1-0"),
    ('[Size "6"]\n[Options "fly=on"]\n\nC3 *\n', "unknown minzu option"),
    ('[Size "6"]\n[Options "slide=maybe"]\n\nC3 *\n', "not a number or on/off"),
    ('[Game "chess"]\n[Size "6"]\n\nC3 *\n', "not minzu"),
    ('[Size "9"]\n[SetUp "6/6/6/6/6/6 L place 0 -"]\n\n*\n', "Size is 9"),
])
def test_malformed_records_name_the_problem(text, msg):
    with pytest.raises((rec.RecordError, ValueError)) as e:
        rec.read_games(text)
    assert msg in str(e.value)


def test_moves_and_perft_adapters():
    import io
    assert rec.moves("minzu", None, size="6") == ["C3", "D2"]
    assert rec.moves("minzu", None, size="9") == ["E4"]
    assert rec.moves("minzu", None, position="LL4/L5/3DD1/3D2/6/6 L place 0 -", size="6")[:2] == ["A2", "A3"]
    with pytest.raises(ValueError):
        rec.moves("minzu", None, size="7", position="6/6/6/6/6/6 L place 0 -")
    assert rec.perft("minzu", 3, "6", False, io.StringIO()) == 2 * 1 * 34
    out = io.StringIO()
    assert rec.perft("minzu", 2, "7x8", True, out) == 2
    assert out.getvalue() == "D3: 1\nE3: 1\n"


@pytest.mark.parametrize("size", ["6", "7x8"])
def test_clock_comments_after_turns_round_trip(size):
    g, texts, rules = _game(size, 3)
    ends = []
    toks = rec.group_turns(core.Game(size, rules), texts, ends)
    assert len(ends) == len(toks) and ends[-1] == len(texts) and ends == sorted(set(ends))
    clocks = dict((n, 600 - i) for i, n in enumerate(ends))           # one reading per turn
    r = rec.record_of(size, texts, g.result, g.reason, rules)
    r.clocks = clocks
    text = rec.write_game(r)
    assert text.count("[%clk") == len(toks)
    assert "%s {[%%clk 0:10:00]}" % toks[0] in text
    back = rec.read_games(text)[0]
    assert back.decisions == texts and back.clocks == clocks
    assert rec.write_game(back) == text


def test_clock_comment_on_a_stopped_chain_stays_with_its_turn():
    pos = "6/5D/6/1D4/D5/L4D L move 0 -"
    texts = ["F0:D0", "stop", "F5-E5"]
    r = rec.Record({"Size": "6", "SetUp": pos, "Options": "flying=off"}, texts, "*", {2: 61, 3: 59})
    text = rec.write_game(r)
    assert "F0:D0 {[%clk 0:01:01]} F5-E5 {[%clk 0:00:59]}" in text
    back = rec.read_games(text)[0]
    assert back.decisions == texts and back.clocks == {2: 61, 3: 59}
