"""Differential test of the chess engine and PGN reader against python-chess on real games.

python-chess (GPL-3.0) is only the oracle here; Flagfall never imports it.
For every game in tests/data/chess (2,515 games, about 185,000 plies):
our PGN reader must give the same tags and main line as python-chess's,
and at every ply our legal-move set, check, SAN of the move played,
insufficient material per side and threefold repetition must agree; at the
end of each game the full end state (mate, stalemate, dead position, claims,
fivefold, 75 moves) must agree too.
"""
import glob
import hashlib
import io
import json
import os

import chess as oracle
import chess.pgn

from flagcore import chess as core
from flagfall.games import chess as pgn

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "chess")
FILES = sorted(glob.glob(os.path.join(DATA, "*.pgn")))


def _manifest():
    with open(os.path.join(DATA, "manifest.json")) as f:
        return {e["path"].split("/")[-1]: e for e in json.load(f)}


def test_data_files_match_manifest():
    man = _manifest()
    assert sorted(man) == sorted(os.path.basename(f) for f in FILES)
    for f in FILES:
        e = man[os.path.basename(f)]
        with open(f, "rb") as fh:
            assert hashlib.sha256(fh.read()).hexdigest() == e["sha256"], f
        games = list(pgn.read_file(f))
        assert len(games) == e["games"], f
        assert sum(len(g.sans) for g in games) == e["plies"], f
    assert sum(e["games"] for e in man.values()) >= 2000


def _end_state_ours(b):
    st = b.status("fide-2000")
    st18 = b.status("fide-2018")
    claims = b.claims("fide-2000")
    return {
        "checkmate": st is not None and st[1] == "checkmate",
        "stalemate": st is not None and st[1] == "stalemate",
        "insufficient": b.is_dead_position(),
        "threefold": "threefold repetition" in claims,
        "fifty": "50-move rule" in claims,
        "fivefold": st18 is not None and st18[1] == "fivefold repetition",
        "seventyfive": st18 is not None and st18[1] == "75-move rule",
    }


def _end_state_oracle(o):
    return {
        "checkmate": o.is_checkmate(),
        "stalemate": o.is_stalemate(),
        "insufficient": o.is_insufficient_material(),
        "threefold": o.can_claim_threefold_repetition() and not o.is_checkmate() and not o.is_stalemate(),
        "fifty": o.can_claim_fifty_moves(),
        "fivefold": o.is_fivefold_repetition() and not o.is_checkmate() and not o.is_stalemate()
        and not o.is_insufficient_material(),
        "seventyfive": o.is_seventyfive_moves() and not o.is_insufficient_material()
        and not o.is_fivefold_repetition(),
    }


def _compare_game(ours, theirs, where):
    theirs_tags = dict(theirs.headers)
    for k in pgn.SEVEN_TAGS:   # python-chess fills in a missing seven-tag-roster entry
        if k not in ours.tags:
            theirs_tags.pop(k, None)
    assert ours.tags == theirs_tags, where
    o = theirs.board()
    b = ours.board()
    mainline = list(theirs.mainline_moves())
    assert len(ours.sans) == len(mainline), where
    plies = 0
    for i, san in enumerate(ours.sans):
        legal = b.legal_moves()
        ol = o.legal_moves
        assert set(core.uci(m) for m in legal) == set(m.uci() for m in ol), (where, i, b.fen())
        assert b.is_check() == o.is_check(), (where, i)
        assert b.can_checkmate(0) == (not o.has_insufficient_material(oracle.WHITE)), (where, i)
        assert b.can_checkmate(1) == (not o.has_insufficient_material(oracle.BLACK)), (where, i)
        assert (b.repetitions() >= 3) == o.is_repetition(3), (where, i)
        m = b.parse_san(san, legal)
        om = mainline[i]
        assert core.uci(m) == om.uci(), (where, i, san)
        assert b.san(m, legal) == o.san(om), (where, i)
        b.push(m)
        o.push(om)
        plies += 1
    assert b.fen() == o.fen(en_passant="fen"), where
    assert set(core.uci(m) for m in b.legal_moves()) == set(m.uci() for m in o.legal_moves), where
    assert _end_state_ours(b) == _end_state_oracle(o), (where, b.fen())
    return plies, _end_state_ours(b)


def test_differential_all_games_every_ply():
    games = 0
    plies = 0
    mates = 0
    for f in FILES:
        with open(f, encoding="utf-8-sig") as fh:
            text = fh.read()
        stream = io.StringIO(text)
        for ours in pgn.read_games(text):
            theirs = chess.pgn.read_game(stream)
            assert theirs is not None
            where = "%s: %s" % (os.path.basename(f), ours.name())
            n, end = _compare_game(ours, theirs, where)
            plies += n
            games += 1
            mates += end["checkmate"]
        assert chess.pgn.read_game(stream) is None, f
    assert games >= 2000
    assert plies > 150000
    assert mates > 0   # some games really end in mate, so that branch is exercised
