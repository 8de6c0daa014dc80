"""PGN reading (real files and the spellings they use) and writing (our own records, with clocks)."""
import io
import os

import chess as oracle
import chess.pgn

from flagcore import chess as core
from flagfall import records
from flagfall.games import chess as pgn

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "chess")

MESSY = r"""% an escape line the reader must ignore
[Event "Test \"quoted\" event"]
[Site "Somewhere"]
[Date "1924.??.??"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1/2"]
[Annotator "Lopez  "Battle Royale""]

{A comment before the first move [with a bracket]
[Event "not a tag, inside a comment"]}
1.e4 $1 e5!? 2. Nf3 {main-line comment} Nc6 ( 2...d6 3.d4 ( 3.Bc4 Be7 ) exd4 ) 3.Bb5 a6
4.Ba4 Nf6 5.0-0 Be7 ; rest of line comment with 6.Zz9
6.Re1!! b5 7.Bb3 d6 8.c3 O-O 9.h3 Nb8 10.d4 Nbd7 11.c4 c6 12.cxb5 axb5 13.Nc3 Bb7
14.Bg5 b4 15.Nb1 h6 16.Bh4 c5 17.dxe5 Nxe4 18.Bxe7 Qxe7 19.exd6 Qf6 20.Nbd2 Nxd6
21.Nc4 Nxc4 22.Bxc4 Nb6 23.Ne5 Rae8 24.Bxf7+ Rxf7 25.Nxf7 Rxe1+ 26.Qxe1 Kxf7
27.Qe3 Qg5 28.Qxg5 hxg5 29.b3 Ke6 30.a3 Kd6 31.axb4 cxb4 32.Ra5 Nd5 33.f3 Bc8
34.Kf2 Bf5 35.Ra7 g6 36.Ra6+ Kc5 37.Ke1 Nf4 38.g3 Nxh3 39.Kd2 Kb5 40.Rd6 Kc5
41.Ra6 Nf2 42.g4 Bd3 43.Re6 1/2

[Event "Second"]
[White "C"]
[Black "D"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. d4 d5 4. e5 f5 5. exf6e.p. gxf6 6. h4 h5 7. g4 hxg4 8. h5 g3
9. h6 g2 10. h7 gxh1Q 11. hxg8N Rxg8 1-0
"""


def test_reads_messy_pgn_like_python_chess():
    games = list(pgn.read_games(MESSY))
    assert len(games) == 2
    g = games[0]
    assert g.tags["Event"] == 'Test "quoted" event'
    assert g.tags["Annotator"] == 'Lopez  "Battle Royale"'
    assert g.result == "1/2-1/2"
    assert g.sans[:6] == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]
    assert g.sans[8] == "0-0"
    assert g.comments[2] == "main-line comment"
    b, moves = g.replay()
    assert len(moves) == 85
    g2 = games[1]
    assert g2.result == "1-0"
    assert "exf6e.p." in g2.sans and "gxh1Q" in g2.sans and "hxg8N" in g2.sans
    b2, moves2 = g2.replay()
    # python-chess reads the same main lines
    stream = io.StringIO(MESSY)
    for ours, (board, ms) in zip(games, ((b, moves), (b2, moves2))):
        theirs = chess.pgn.read_game(stream)
        assert [m.uci() for m in theirs.mainline_moves()] == [core.uci(m) for m in ms]
        assert theirs.end().board().fen(en_passant="fen") == board.fen()


def test_bad_move_in_pgn_names_game_and_move():
    text = '[White "X"]\n[Black "Y"]\n\n1. e4 e5 2. Ke3 Nc6 *\n'
    g = next(pgn.read_games(text))
    try:
        g.replay()
    except pgn.PgnError as e:
        msg = str(e)
    else:
        raise AssertionError("Ke3 must not replay")
    assert "X - Y" in msg and "2. Ke3" in msg and "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2" in msg


def test_reader_counts_real_files():
    # the biggest commented file: variations, brace/semicolon comments, 1/2 results, a broken tag
    games = list(pgn.read_file(os.path.join(DATA, "mliebelt-pgn-viewer_newyork1924.pgn")))
    assert len(games) == 93
    for g in games:
        b, moves = g.replay()
        assert len(moves) == len(g.sans)
    # the 1575-1861 file spells promotions without '=' (e.g. 'e8Q') in its main lines
    games = list(pgn.read_file(os.path.join(DATA, "serhiis21-chess_1575-1861.pgn")))
    spelled = [(g, s) for g in games for s in g.sans if s[-1] in "QRBN" and "=" not in s]
    assert len(spelled) > 100
    for g, s in spelled[:20]:
        g.replay()


def test_write_and_read_back_with_clocks():
    b = core.Board()
    for t in ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"):
        b.push(b.parse_san(t))
    clocks = [5400, 5395.5, 5380, 5390, 5300, 5100, 4000, 3999, 3725]
    text = pgn.write_board_game(b, {"Event": "Club night", "White": "Ann", "Black": "Bob",
                                    "TimeControl": "5400+30"}, clocks=clocks)
    assert text.startswith('[Event "Club night"]\n[Site "?"]\n[Date "????.??.??"]')
    assert '[TimeControl "5400+30"]' in text
    assert "1. e4 {[%clk 1:30:00]} 1... e5 {[%clk 1:29:55]}" in text
    assert text.rstrip().endswith("*")
    assert all(len(line) <= 79 for line in text.splitlines())
    g = next(pgn.read_games(text))
    assert g.sans == ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"]
    assert g.clocks() == [5400, 5395, 5380, 5390, 5300, 5100, 4000, 3999, 3725]
    assert g.tags["White"] == "Ann" and g.result == "*"
    # python-chess reads our record and its clock comments the same way
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert [n.san() for n in theirs.mainline()] == g.sans
    assert [n.clock() for n in theirs.mainline()] == [float(c) for c in g.clocks()]
    assert theirs.headers["Black"] == "Bob"


def test_write_result_from_position_and_start_fen():
    b = core.Board()
    for t in ("f3", "e5", "g4", "Qh4#"):
        b.push(b.parse_san(t))
    text = pgn.write_board_game(b, {"White": "A"})
    assert "2. g4 Qh4# 0-1" in text and '[Result "0-1"]' in text
    fen = "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"
    b = core.Board(fen)
    b.push(b.parse_san("Kd7"))
    b.push(b.parse_san("e4"))
    text = pgn.write_board_game(b, start_fen=fen, result="1/2-1/2")
    assert '[SetUp "1"]' in text and '[FEN "%s"]' % fen in text
    assert "40... Kd7 41. e4 1/2-1/2" in text
    theirs = chess.pgn.read_game(io.StringIO(text))
    assert theirs.end().board().fen(en_passant="fen") == b.fen()
    g = next(pgn.read_games(text))
    assert g.replay()[0].fen() == b.fen()


def test_write_rejects_bad_input():
    for args in (({}, ["e4"], "2-0"), ({}, ["e4", "e5"], "*", [1])):
        try:
            pgn.write_game(*args)
        except ValueError:
            continue
        raise AssertionError("accepted %r" % (args,))
    assert records.format_clock(3725.9) == "1:02:05"
