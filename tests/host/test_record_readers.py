"""What real record files contain, read by the PGN and PDN readers and by `flagfall replay`.

tests/data/records/ holds small files written to cover each case (null moves, long algebraic and
UCI moves, NAGs, nested variations, comments with escapes, %clk/%emt, BOM, CRLF, Variant/FEN,
Lidraughts clock comments, PDN results) and real files from Lichess exports kept in public
repositories (see its manifest.json for sources and licences). python-chess (GPL) is used here
only as an oracle.
"""
import argparse
import hashlib
import io
import json
import os
import re

import pytest

try:
    import chess as oracle
    import chess.pgn
except ImportError:  # pragma: no cover - the dev dependencies install it
    raise ImportError("python-chess is the oracle of these tests: install it with `make setup` "
                      "(or .venv/bin/pip install chess)")

from flagcore import chess as core
from flagfall import records
from flagfall.bridge import replay
from flagfall.games import registry
from flagfall.commands import replay as replay_cmd
from flagfall.games import chess as pgn
from flagfall.games import draughts as pdn

from repo import ROOT
DATA = os.path.join(ROOT, "tests", "data", "records")
FIGURINES = dict(zip("♔♕♖♗♘♙♚♛♜♝♞♟", "KQRBNPKQRBNP"))


def path(name):
    return os.path.join(DATA, name)


def games(name):
    return list((pgn if name.endswith(".pgn") else pdn).read_file(path(name)))


def oracle_games(name, chess960=False):
    """python-chess's reading of a PGN file (figurines spelled with letters, which it does not read)."""
    text = records.read_text(path(name))
    for f, c in FIGURINES.items():
        text = text.replace(f, c)
    stream = io.StringIO(text)
    out = []
    while True:
        g = chess.pgn.read_game(stream)
        if g is None:
            return out
        out.append(g)


def same_game(ours, theirs):
    """Our replay and python-chess's main line: same SAN moves, same final position."""
    b, moves = ours.replay()
    assert not theirs.errors, theirs.errors
    want = [n.san() for n in theirs.mainline()]
    probe = pgn.new_board(ours.variant(), ours.tags.get("FEN"))
    got = []
    for m in moves:
        got.append(probe.san(m))
        probe.push(m)
    assert got == want, ours.name()
    assert b.fen().split()[:2] == theirs.end().board().fen().split()[:2]
    return len(moves)


def test_files_match_manifest():
    with open(path("manifest.json")) as f:
        entries = json.load(f)
    names = sorted(n for n in os.listdir(DATA) if n != "manifest.json")
    assert names == sorted(e["path"] for e in entries)
    for e in entries:
        with open(path(e["path"]), "rb") as f:
            data = f.read()
        assert len(data) == e["bytes"] and hashlib.sha256(data).hexdigest() == e["sha256"], e["path"]
        assert len(games(e["path"])) == e["games"], e["path"]
        assert e.get("source") or (e["source_repo"] and e["licence"]), e["path"]


# ---------------------------------------------------------------- PGN

def test_null_moves_skip_their_game_only():
    gs = games("null_moves.pgn")
    theirs = oracle_games("null_moves.pgn")
    assert len(gs) == 5
    reasons = []
    for ours, their in zip(gs, theirs):
        try:
            same_game(ours, their)
        except pgn.PgnError as e:
            reasons.append((ours.tags["Round"], e.reason, str(e)))
            # python-chess reads the same null move into its main line
            assert any(m == oracle.Move.null() for m in their.mainline_moves())
    assert [(r, why) for r, why, _ in reasons] == [("2", "null move"), ("3", "null move"), ("4", "null move")]
    assert "move 2. --" in reasons[0][2] and "move 1... Z0" in reasons[1][2] and "move 2. 0000" in reasons[2][2]
    # null moves inside variations do not matter
    assert gs[0].sans == ["e4", "e5", "Nf3", "Nc6", "Bb5"] and len(gs[0].replay()[1]) == 5


def test_long_algebraic_and_uci_moves():
    gs = games("long_algebraic.pgn")
    theirs = oracle_games("long_algebraic.pgn")
    assert [g.sans[:3] for g in gs] == [["e2e4", "e7e5", "g1f3"], ["e2-e4", "c7-c5", "Ng1-f3"],
                                       ["a7-a8=N", "g2g1r", "h2xg1"], ["e2e4", "c7c5", "g1f3"]]
    plies = [same_game(o, t) for o, t in zip(gs, theirs)]
    assert plies == [16, 20, 5, 8]
    # UCI castling e1g1 is the king's move; the promotions are the pieces written
    b, moves = gs[0].replay()
    assert core.uci(moves[8]) == "e1g1" and b.piece_at(core.square("g1")) is not None
    b, moves = gs[2].replay()
    assert b.fen().startswith("8/1p6/1N4k1/8/8/8/1P6/6K1 b")
    # a long algebraic move that is not legal is still refused, naming the move
    (bad,) = pgn.read_games('[White "X"]\n\n1. e2e4 e7e5 2. g1e3 *\n')
    with pytest.raises(pgn.PgnError, match=r"move 2\. g1e3: illegal move") as e:
        bad.replay()
    assert e.value.reason == "illegal move"


def test_annotated_file_comments_clocks_nags_variations():
    gs = games("annotated.pgn")
    assert len(gs) == 3
    g = gs[0]
    assert g.tags["Event"] == 'Annotated "quoted" event'
    assert g.tags["Site"] == "C:\\Chess\\club.pgn"
    assert g.result == "1-0"
    assert g.sans[:10] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7"]
    assert g.clocks()[:4] == [5400, 5398, 5370, 5340]
    assert g.clocks()[16] == 4807.5          # 9. h3 {[%clk 1:20:07.5]}
    assert g.emts()[:3] == [5, 2, None] and g.emts()[16] == 70
    assert "[%eval 0.25]" in g.comments[2] and "inside a variation" not in " ".join(g.comments)
    assert "the Breyer" in g.comments[19]     # a rest-of-line comment after 10... Nbd7
    assert g.clocks()[3] == 5340 and records.parse_clock("{[%clk 1:00:00]}") == 3600
    theirs = oracle_games("annotated.pgn")
    assert [same_game(o, t) for o, t in zip(gs, theirs)] == [45, 40, 38]
    assert gs[1].sans[2] == "♘f3" and gs[2].result == "1/2-1/2"


def test_annotation_words_and_symbols_are_not_moves():
    (g,) = pgn.read_games("1. e4 e5 2. Nf3 N Nc6 ! 3. Bb5 TN a6 D 4. Ba4 +/- Nf6 -+ 5. O-O ⩲ *\n")
    assert g.sans == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"]
    assert len(g.replay()[1]) == 9


def test_chess960_without_fen_starts_from_the_standard_position():
    (g,) = pgn.read_games('[Variant "Chess960"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O exd8♕ *\n')
    assert g.variant() == "chess960"
    with pytest.raises(pgn.PgnError, match="illegal move 'exd8Q'|illegal move 'exd8♕'") as e:
        g.replay()
    assert e.value.reason == "illegal move"     # not a Chess960 problem: the move is illegal
    (g,) = pgn.read_games('[Variant "Chess960"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O *\n')
    assert len(g.replay()[1]) == 7


def test_several_tags_on_one_line():
    text = '[Event "x"] [Site "y"]\n[White "A \\"B\\""][Black "C"]\n\n1. e4 e5 *\n[Event "z"] [Round "2"]\n1. d4 *\n'
    a, b = pgn.read_games(text)
    assert a.tags == {"Event": "x", "Site": "y", "White": 'A "B"', "Black": "C"} and a.sans == ["e4", "e5"]
    assert b.tags == {"Event": "z", "Round": "2"} and b.sans == ["d4"]


def test_bom_crlf_and_a_bom_between_games():
    with open(path("bom_crlf.pgn"), "rb") as f:
        raw = f.read()
    assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\xef\xbb\xbf") == 2 and b"\r\n" in raw
    assert b"\n" not in raw.replace(b"\r\n", b"")
    gs = games("bom_crlf.pgn")
    assert [g.tags["Round"] for g in gs] == ["1", "2"]
    assert gs[0].tags["White"] == 'A "the first"' and gs[1].comments[2] == "a comment\nover two lines"
    assert [same_game(o, t) for o, t in zip(gs, oracle_games("bom_crlf.pgn"))] == [7, 4]
    # text given directly (not read from a file) may carry the BOM too
    assert len(list(pgn.read_games(raw.decode("utf-8")))) == 2


def test_variant_and_fen_tags():
    gs = games("variants.pgn")
    theirs = oracle_games("variants.pgn")
    assert [g.tags["Round"] for g in gs] == [str(i) for i in range(1, 9)]
    assert [pgn.variant_of_tag(g.tags["Variant"]) for g in gs[:6]] == ["chess", "chess"] + ["chess960"] * 4
    for g in gs[6:]:
        with pytest.raises(pgn.PgnError) as e:
            g.replay()
        assert e.value.reason == "variant %s not supported" % g.tags["Variant"]
    assert same_game(gs[0], theirs[0]) == 6 and same_game(gs[1], theirs[1]) == 4
    # Chess960: rooks on a and h with the king on e (X-FEN KQkq), or no castling rights, are
    # positions the standard rules play exactly; Shredder-FEN rights and other rook files need
    # the engine's Chess960 mode
    if pgn.engine_has_chess960():
        assert [same_game(o, t) for o, t in zip(gs[2:6], theirs[2:6])] == [24, 24, 24, 16]
    else:
        assert same_game(gs[2], theirs[2]) == 24 and same_game(gs[5], theirs[5]) == 16
        for g in gs[3:5]:
            with pytest.raises(pgn.PgnError, match="Chess960 not supported") as e:
                g.replay()
            assert e.value.reason == "Chess960 not supported"


def test_real_lichess_exports():
    gs = games("lichess-mliebelt_2024-01-03.pgn")
    theirs = oracle_games("lichess-mliebelt_2024-01-03.pgn")
    assert len(gs) == 8 and all(g.variant() == "chess" for g in gs)
    assert [same_game(o, t) for o, t in zip(gs, theirs)] == [58, 77, 109, 52, 73, 103, 131, 1]
    assert "a1=N" in gs[6].sans and gs[7].tags["Termination"] == "Abandoned"
    # a broadcast export of rounds: tags only, no moves, most games without an Event tag
    gs = games("scalachess_uzchesscup_first6.pgn")
    assert [g.tags["Round"] for g in gs] == ["1.1", "1.2", "1.3", "1.4", "1.5", "2.1"]
    assert [g.result for g in gs] == ["1/2-1/2", "0-1", "1/2-1/2", "0-1", "1-0", "1-0"]
    assert all(g.sans == [] and g.replay()[1] == [] for g in gs)
    # (python-chess 1.11 reads these six tag sections as one game, the last tags winning)


def test_real_chess960_game():
    (g,) = games("scalachess_chess960_guOuBSra.pgn")
    (theirs,) = oracle_games("scalachess_chess960_guOuBSra.pgn")
    assert g.variant() == "chess960" and len(g.sans) == 28 and g.sans[-1] == "O-O-O"
    assert g.result == "0-1"       # from the Result tag: the movetext has no result
    if pgn.engine_has_chess960():
        assert same_game(g, theirs) == 28
    else:
        with pytest.raises(pgn.PgnError, match="Chess960 not supported") as e:
            g.replay()
        assert e.value.reason == "Chess960 not supported"


# ---------------------------------------------------------------- PDN

def _movers_clock(comment):
    # independent reading of a Lidraughts clock comment: the lowercase side has just moved
    m = re.search(r"\[%clock ([wWbB])(\d+):(\d\d):(\d\d) ([wWbB])(\d+):(\d\d):(\d\d)\]", comment)
    for i in (1, 5):
        if m.group(i).islower():
            return int(m.group(i + 1)) * 3600 + int(m.group(i + 2)) * 60 + int(m.group(i + 3))


def test_lidraughts_clock_comments_fen_and_results():
    gs = games("lidraughts.pdn")
    assert [g.result for g in gs] == ["2-0", "0-2", "1-1", "0-0", "2-0"]
    assert [g.variant() for g in gs[:4]] == ["international", "international", "russian", "international"]
    for g in gs[:3]:
        assert all("%clock" in c for c in g.comments)
        assert g.clocks() == [_movers_clock(c) for c in g.comments], g.name()
    assert gs[0].clocks()[:4] == [592, 591, 591, 587]
    assert gs[0].comments[-1].endswith("Black resigns.")
    # the game from a position: FEN with Lidraughts' :H0:F6, Black moves first
    assert gs[1].tags["FEN"].endswith(":H0:F6") and gs[1].first_mover() == "b"
    assert pdn.core_fen(gs[1].tags["FEN"]) == gs[1].tags["FEN"][:-len(":H0:F6")]
    assert gs[1].clocks()[0] == _movers_clock(gs[1].comments[0])
    # Russian in algebraic squares; [%clk] comments of other writers
    assert all(t[0] in "abcdefgh" for t in gs[2].moves)
    assert gs[3].clocks() == [records.parse_clock(c) for c in gs[3].comments] and None not in gs[3].clocks()
    assert [len(g.replay(g.variant())[1]) for g in gs[:4]] == [40, 20, 30, 16]
    with pytest.raises(pdn.PdnError) as e:
        gs[4].variant()
    assert e.value.reason == "GameType 40 not supported"


def test_pdn_bom_and_crlf():
    with open(path("bom_crlf.pdn"), "rb") as f:
        raw = f.read()
    assert raw.startswith(b"\xef\xbb\xbf") and raw.count(b"\xef\xbb\xbf") == 2 and b"\r\n" in raw
    gs = games("bom_crlf.pdn")
    assert [g.tags["Round"] for g in gs] == ["1", "2"] and [g.result for g in gs] == ["2-0", "1-1"]
    assert [len(g.replay()[1]) for g in gs] == [12, 8]


def test_pdn_game_that_cannot_be_read_does_not_stop_the_file():
    text = ('[Event "a"]\n[GameType "20"]\n\n1. 32-28 Nf3 19-23 *\n\n'
            '[Event "b"]\n[GameType "20"]\n\n1. 32-28 19-23 2-0\n')
    a, b = pdn.read_games(text)
    with pytest.raises(pdn.PdnError, match="cannot read 'Nf3'") as e:
        a.replay()
    assert e.value.reason == "unreadable move"
    assert len(b.replay()[1]) == 2 and b.result == "2-0"


# ---------------------------------------------------------------- shared helpers

def test_clock_comment_helpers():
    assert records.parse_clock("[%clk 0:03:00.5]") == 180.5
    assert records.parse_clock("[%clk 5:00]") == 300
    assert records.parse_clock("[%clk 1:30:00] [%emt 0:00:05]") == 5400
    assert records.parse_emt("[%clk 1:30:00] [%emt 0:01:05]") == 65
    assert records.parse_clock("[%emt 0:01:05]") is None and records.parse_emt("no command") is None
    assert records.parse_side_clocks("[%clock w1:30:00 B1:29:55]") == {"w": 5400, "b": 5395, "running": "b"}
    assert records.parse_side_clocks("[%clock W0:00:10 b0:00:15]") == {"w": 10, "b": 15, "running": "w"}
    assert records.parse_side_clocks("[%clk 1:00:00]") is None
    assert records.skip_summary(["null move", "illegal move", "null move"]) == "2 null move, 1 illegal move"
    assert records.skip_summary([]) == ""


# ---------------------------------------------------------------- flagfall replay

def run_cli(argv, capsys):
    ap = argparse.ArgumentParser()
    replay_cmd.add_arguments(ap)
    status = replay_cmd.run(ap.parse_args(argv))
    cap = capsys.readouterr()
    return status, cap.out.strip().splitlines()[-1] if cap.out.strip() else "", cap.err


def test_replay_reports_and_skips_null_move_games(capsys):
    status, last, err = run_cli(["chess", path("null_moves.pgn"), "--quiet", "--noise", "3"], capsys)
    assert last == "replayed 2 games, 13 moves, 0 mismatches (3 skipped: 3 null move)"
    assert status == 0
    assert "game 2 skipped (null move): C - D" in err and "game 4 skipped (null move)" in err


def test_replay_of_variants_skips_what_the_engine_does_not_play(capsys):
    status, last, err = run_cli(["chess", path("variants.pgn"), "--quiet"], capsys)
    assert status == 0
    if "chess960" in registry.GAMES:
        assert last == "replayed 6 games, 98 moves, 0 mismatches (2 skipped: 1 variant Atomic not supported, " \
                       "1 variant Crazyhouse not supported)"
    else:
        # a bridge without a chess960 game replays the Chess960 games the standard rules play
        # exactly: always rounds 3 and 6 (X-FEN KQkq with rooks on a and h, no castling rights);
        # round 4 (Shredder-FEN HAha for the same rooks) once the engine reads Shredder-FEN
        plain = []
        for g in games("variants.pgn")[2:6]:
            try:
                plain.append(len(g.replay("chess")[1]))
            except pgn.PgnError as e:
                assert e.reason in ("bad FEN", "illegal move")
        assert len(plain) in (2, 3) and plain[0] == 24 and plain[-1] == 16
        n = 4 - len(plain)
        assert last == ("replayed %d games, %d moves, 0 mismatches (%d skipped: %d Chess960 not supported, "
                        "1 variant Atomic not supported, 1 variant Crazyhouse not supported)"
                        % (2 + len(plain), 10 + sum(plain), 2 + n, n))
    assert "game 7 skipped (variant Atomic not supported)" in err


def test_replay_of_real_and_written_files(capsys):
    for name, plies in (("long_algebraic.pgn", 49), ("annotated.pgn", 123), ("bom_crlf.pgn", 11),
                        ("lichess-mliebelt_2024-01-03.pgn", 604)):
        status, last, err = run_cli(["chess", path(name), "--quiet", "--noise", "5"], capsys)
        assert status == 0 and re.match(r"replayed \d+ games, %d moves, 0 mismatches \(0 skipped\)$" % plies, last), \
            (name, last, err)
    status, last, err = run_cli(["chess", path("scalachess_uzchesscup_first6.pgn"), "--quiet"], capsys)
    assert (status, last) == (0, "replayed 6 games, 0 moves, 0 mismatches (0 skipped)")


def test_replay_of_lidraughts_file(capsys):
    # the Russian game (GameType 25) is replayed as Russian although the command asked for draughts
    status, last, err = run_cli(["draughts", path("lidraughts.pdn"), "--quiet", "--noise", "2"], capsys)
    assert (status, last) == (0, "replayed 4 games, 106 moves, 0 mismatches (1 skipped: 1 GameType 40 not supported)")
    status, last, err = run_cli(["draughts", path("bom_crlf.pdn"), "--quiet"], capsys)
    assert (status, last) == (0, "replayed 2 games, 20 moves, 0 mismatches (0 skipped)")


def test_replay_exit_status_for_unreadable_files(capsys, tmp_path):
    status, last, err = run_cli(["chess", str(tmp_path / "missing.pgn"), "--quiet"], capsys)
    assert status == 2 and "No such file" in err
    empty = tmp_path / "empty.pgn"
    empty.write_text("\n% only an escape line\n\n")
    status, last, err = run_cli(["chess", str(empty), "--quiet"], capsys)
    assert status == 2 and "no game found" in err
