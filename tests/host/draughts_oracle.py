"""Differential checks of flagcore.draughts against pydraughts (GPL, a test oracle only).

Used by tests/host/test_draughts_pydraughts.py (a sample) and by
tools/bench_draughts.py (1,000 random games per variant).

A move is compared as (start, end, set of captured squares) in Flagfall's
numbering. pydraughts lists a loop capture (a king or man that returns to its
start square, taking the same pieces clockwise or anticlockwise) twice; by
FMJD 4.8/4.11 and the perft convention those are one move (same start, end
and captured pieces), so duplicates in pydraughts' list are counted and
reported as `pyd_duplicates`, not as mismatches.
"""
import random

from draughts import Board, Move  # pydraughts

from flagcore.draughts import Game, Rules

PYD_NAME = {"international": "standard", "brazilian": "brazilian", "russian": "russian", "checkers": "english"}


def square_map(variant):
    """Function from a pydraughts square number to Flagfall's square number."""
    if variant not in ("russian", "brazilian"):
        return lambda q: q
    r = Rules(variant)
    table = {}
    for q in range(1, 33):
        # pydraughts numbers 8x8 Russian/Brazilian squares from a1 = 1, row by row
        rank = (q - 1) // 4 + 1
        col = 2 * ((q - 1) % 4) + (rank - 1) % 2
        table[q] = r.parse_square("abcdefgh"[col] + str(rank))
    return table.__getitem__


def pyd_board(variant, fen=None):
    """A pydraughts Board for a Flagfall variant and (Flagfall) FEN."""
    if fen is None:
        return Board(PYD_NAME[variant])
    g = Game(variant, fen)
    return Board(PYD_NAME[variant], fen=g.fen(algebraic=variant in ("russian", "brazilian")))


def pyd_moves(board, sq):
    """{(start, end, frozenset(captured)): [pydraughts board_move, ...]} of a pydraughts Board.

    Uses Board._legal_moves_board(), the list behind Board.legal_moves(),
    because building a Move object per legal move triples pydraughts' time."""
    out = {}
    moves, captures = board._legal_moves_board()
    for bm, cs in zip(moves, captures):
        caps = frozenset(sq(c) for c in cs if c is not None)
        key = (sq(bm[0][0]), sq(bm[-1][1]), caps)
        out.setdefault(key, []).append((bm, moves, captures))
    return out


def pyd_push(board, item):
    """Play a move from pyd_moves()."""
    bm, moves, captures = item
    board.push(Move(board_move=bm, possible_moves=moves, possible_captures=captures))


def our_moves(game):
    """{(start, end, frozenset(captured)): Move} of a Flagfall Game."""
    out = {}
    for m in game.legal():
        key = (m.frm, m.to, frozenset(m.captured))
        assert key not in out, "Flagfall listed %s twice" % (key,)
        out[key] = m
    return out


def random_games(variant, games, seed, max_plies=400, stats=None, fen=None):
    """Play `games` random games (from fen, default the start) in both engines, comparing
    legal-move sets at every ply.

    Returns a list of mismatch descriptions (empty when the engines agree)."""
    sq = square_map(variant)
    rng = random.Random(seed)
    mismatches = []
    if stats is None:
        stats = {}
    for k in ("games", "plies", "moves", "pyd_duplicates", "captures"):
        stats.setdefault(k, 0)
    for gi in range(games):
        g = Game(variant, fen)
        b = pyd_board(variant, fen)
        for ply in range(max_plies):
            ours = our_moves(g)
            theirs = pyd_moves(b, sq)
            stats["plies"] += 1
            stats["moves"] += len(ours)
            stats["pyd_duplicates"] += sum(len(v) - 1 for v in theirs.values())
            if set(ours) != set(theirs):
                mismatches.append("%s game %d ply %d %s: only Flagfall %s, only pydraughts %s" % (
                    variant, gi, ply, g.fen(), sorted(set(ours) - set(theirs), key=str),
                    sorted(set(theirs) - set(ours), key=str)))
                break
            if not ours:
                break
            key = rng.choice(sorted(ours, key=lambda k: (k[0], k[1], sorted(k[2]))))
            if key[2]:
                stats["captures"] += 1
            g.push(ours[key])
            pyd_push(b, theirs[key][0])
        stats["games"] += 1
    return mismatches


def pyd_perft(board, depth, sq, dedup=True):
    """Perft with pydraughts; dedup=True counts a loop capture's two routes once."""
    if depth == 0:
        return 1
    moves = pyd_moves(board, sq)
    if depth == 1:
        return len(moves) if dedup else sum(len(v) for v in moves.values())
    n = 0
    for key, ms in moves.items():
        for m in (ms[:1] if dedup else ms):
            pyd_push(board, m)
            n += pyd_perft(board, depth - 1, sq, dedup)
            board.pop()
    return n
