"""Every record Flagfall writes reads back with the tools the ecosystem uses.

For every game in the registry a real or random game is followed by the
bridge (virtual device, clock running); the record file the bridge writes
and the live feed made from its last state are both read back: PGN with
python-chess and pgn-extract, PDN with pydraughts' PDNReader (GPL tools, used
here only as oracles), minzu records with our own reader. Both carry
TimeControl and a clock comment after every move, and agree move for move.
"""
import io
import os
import shutil
import subprocess

import chess.pgn  # test oracle only
import pytest
import draughts_oracle as oracle
from draughts.PDN import PDNReader  # pydraughts, a test oracle only
from flagcore.draughts import Game

from flagfall.bridge import replay
from flagfall.bridge import records as brec
from flagfall.broadcast import feeds
from flagfall.games import minzu as mrec
from flagfall.games import registry

from repo import ROOT
DATA = os.path.join(ROOT, "tests", "data")
SOURCES = {
    "chess": os.path.join(DATA, "chess", "hlotze-pgn2tex_Capablanca.pgn"),
    "draughts": os.path.join(DATA, "international", "wiegerw-pdn_wk2003.pdn"),
    "russian": os.path.join(DATA, "russian", "wiegerw-pdn_ussr1947.pdn"),
    "checkers": os.path.join(DATA, "checkers", "eric-joyce_ACF_archive_first1000.pdn"),
    "brazilian": "random:1:7",
    "chess960": "random:1:11",
    "minzu": "random:1:3",
}
PYD_VARIANT = {"draughts": "standard", "brazilian": "brazilian", "russian": "russian", "checkers": "english"}
TC = "5400+30"


def pgn_extract():
    """The pgn-extract binary (Debian package pgn-extract installs it in /usr/games)."""
    path = shutil.which("pgn-extract") or shutil.which("pgn-extract", path="/usr/games")
    assert path, "pgn-extract is missing: install it with `apt-get install pgn-extract` (make setup does)"
    return path


def followed(game):
    """(engine, last live state) of a source game of at least 24 plies followed by the bridge."""
    states = []
    for i, src in enumerate(replay.load_games(game, SOURCES[game], 40)):
        if src.moves is not None and len(src.moves) < 24 and not SOURCES[game].startswith("random"):
            continue
        eng, expected, _ = replay.replay_game(game, src, seed=i, noise=0.2, tc=TC,
                                              engine_kwargs={"publish": lambda st, decs: states.append(st)})
        assert eng.game.sans() == expected[:len(eng.game.sans())] and len(expected) >= 20, game
        return eng, states[-1]
    raise AssertionError("no game of 24 plies in %s" % SOURCES[game])


def mover_clocks(state):
    """The mover's clock (whole seconds) after each move, from the state's clock pairs."""
    first = 1 if state["tags"].get("FEN", "").split()[1:2] == ["b"] else 0
    return [pair[(first + i) % 2] // 1000 for i, pair in enumerate(state["clocks"])]


@pytest.mark.parametrize("game", [s.name for s in registry.by_format("pgn")])
def test_pgn_file_and_feed_read_back_with_python_chess_and_pgn_extract(game, tmp_path):
    eng, state = followed(game)
    for name, text in (("file", brec.record_text(eng.game)), ("feed", feeds.record_text(state))):
        g = chess.pgn.read_game(io.StringIO(text))
        assert not g.errors, (name, g.errors)
        assert g.headers["TimeControl"] == TC, name
        sans, clocks = [], []
        node = g
        while node.variations:
            node = node.variation(0)
            sans.append(node.san())
            clocks.append(node.clock())
        assert sans == state["moves"] and len(sans) > 20, name
        assert clocks == mover_clocks(state), name
        path = tmp_path / ("%s.pgn" % name)
        path.write_text(text)
        out = tmp_path / ("%s-out.pgn" % name)
        run = subprocess.run([pgn_extract(), "-s", "-o%s" % out, str(path)], capture_output=True, text=True)
        assert run.returncode == 0 and "rror" not in run.stderr, (name, run.stderr)
        back = chess.pgn.read_game(io.StringIO(out.read_text()))
        assert [m.uci() for m in back.mainline_moves()] == [m.uci() for m in g.mainline_moves()], name


@pytest.mark.parametrize("game", [s.name for s in registry.by_format("pdn")])
def test_pdn_file_and_feed_read_back_with_pydraughts(game):
    eng, state = followed(game)
    spec = registry.spec(game)
    for name, text in (("file", brec.record_text(eng.game)), ("feed", feeds.record_text(state))):
        reader = PDNReader(pdn_text=text)
        assert len(reader.games) == 1, name
        g = reader.games[0]
        assert g.tags["TimeControl"] == TC and g.tags["GameType"] == spec.gametype, name
        assert g.variant == PYD_VARIANT[game], name
        assert g.moves == state["moves"] and len(g.moves) > 20, (name, g.moves[:12], state["moves"][:12])
        # every move read is legal for pydraughts, past move 10 (compared by start, end, captures)
        ours = Game(spec.variant, g.tags.get("FEN"))
        board = oracle.pyd_board(spec.variant, g.tags.get("FEN"))
        sq = oracle.square_map(spec.variant)
        for mv in g.moves:
            m = ours.parse(mv)
            theirs = oracle.pyd_moves(board, sq)
            key = (m.frm, m.to, frozenset(m.captured))
            assert key in theirs, (name, mv)
            oracle.pyd_push(board, theirs[key][0])
            ours.push(m)
        assert text.count("[%clk") == len(state["moves"]), name
        assert g.game_ending == state["result"], name


def test_minzu_file_and_feed_read_back():
    eng, state = followed("minzu")
    text = brec.record_text(eng.game)
    assert text == state["pgn"]          # the .txt feed serves the bridge's own record
    back = mrec.read_games(text)[0]
    assert back.tags["TimeControl"] == TC
    assert back.replay().to_text() == eng.game.adapter.position()
    assert len(back.clocks) == text.count("[%clk") > 10


@pytest.mark.parametrize("game,line,want", [
    ("chess", "1. e4 e5 2. Nf3 Nc6", ["e4", "e5", "Nf3", "Nc6"]),
    ("draughts", "1. 32-28 19-23 2. 28x19 14x23", ["32-28", "19-23", "28x19", "14x23"]),
])
def test_moves_entered_by_the_arbiter_read_back(game, line, want, tmp_path):
    """Moves the arbiter enters (enter_moves, issue #20) carry a comment and an ArbiterMoves tag:
    the record still reads back, move for move, with python-chess and pgn-extract or pydraughts."""
    from flagfall.bridge.engine import BridgeEngine
    eng = BridgeEngine(game, clock_mode=True, tc=TC, identity=["t", "1", "1"])
    eng.command(1000, {"action": "enter_moves", "moves": line})
    text = brec.record_text(eng.game)
    assert text.count("entered by the arbiter") == len(want) and "[ArbiterMoves " in text, text
    if game == "chess":
        g = chess.pgn.read_game(io.StringIO(text))
        assert [n.san() for n in g.mainline()] == want and not g.errors
        path = tmp_path / "g.pgn"
        path.write_text(text)
        out = tmp_path / "out.pgn"
        run = subprocess.run([pgn_extract(), "-s", "-o%s" % out, str(path)], capture_output=True, text=True)
        assert run.returncode == 0 and out.read_text().count("entered by the arbiter") == len(want), run.stderr
    else:
        assert PDNReader(pdn_text=text).games[0].moves == want


@pytest.mark.parametrize("game,line", [("chess", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O"), ("draughts", "32-28 19-23")])
def test_a_double_forfeit_reads_back_as_one_with_its_moves(game, line, tmp_path):
    """A double forfeit (the arbiter's -/-: Result "0-0", neither side scores) after moves were played:
    the record and the feed read back with that result and every move, never the result as a move
    (0-0 is castling's old spelling in PGN's movetext) nor as a missing result, by python-chess,
    pgn-extract, pydraughts, our own readers and the Lichess stand-in (lila's parser: the tag wins)."""
    from flagfall.bridge.engine import BridgeEngine
    from flagfall.tournament import model
    from lichess_standin import parse_game
    eng = BridgeEngine(game, clock_mode=True, tc=TC, identity=["t", "1", "1"])
    eng.command(1000, {"action": "enter_moves", "moves": line})
    eng.operator(2000, "result", model.forfeit_record_result(model.DOUBLE_FORFEIT, registry.spec(game).scoring),
                 model.FORFEIT_TERMINATION)
    state = eng.state()
    want = line.split()
    assert (state["result"], state["moves"]) == ("0-0", want)
    assert model.scored_result(state["result"], state["tags"].get("Termination")) == model.DOUBLE_FORFEIT
    for name, text in (("file", brec.record_text(eng.game)), ("feed", feeds.record_text(state))):
        assert '[Result "0-0"]' in text and '[Termination "forfeit"]' in text, (name, text)
        [ours] = replay.load_games(game, _write(tmp_path / ("%s.%s" % (name, game)), text), 1)
        assert (list(ours.texts), ours.result) == (want, "0-0"), name
        lichess = parse_game(text)
        assert (lichess["moves"], lichess["result"]) == (want, "0-0"), (name, lichess)
        if game == "draughts":
            g = PDNReader(pdn_text=text).games[0]
            assert (g.moves, g.game_ending) == (want, "0-0"), name
            continue
        g = chess.pgn.read_game(io.StringIO(text))
        assert not g.errors and g.headers["Result"] == "0-0", (name, g.errors)
        assert [n.san() for n in g.mainline()] == want, name
        out = tmp_path / ("%s-out.pgn" % name)
        run = subprocess.run([pgn_extract(), "-s", "-o%s" % out, str(tmp_path / ("%s.%s" % (name, game)))],
                             capture_output=True, text=True)
        assert run.returncode == 0 and not run.stderr.strip(), (name, run.stderr)   # "Missing result." once
        back = chess.pgn.read_game(io.StringIO(out.read_text()))
        assert back.headers["Result"] == "0-0" and [n.san() for n in back.mainline()] == want, name


def _write(path, text):
    path.write_text(text)
    return str(path)
