"""Chess960 in the chess engine (FIDE Laws, Guidelines II: Chess960 rules): runs under pytest and MicroPython.

Start positions by number, X-FEN and Shredder-FEN, castling where the king
or the rook does not move or where they swap squares, king-to-rook UCI, SAN,
occupancy changes for the sensor board, and the repetition hash kept by push/pop.
"""
from flagcore import chess, chess960
from mptest import raises


def sq(*names):
    return tuple(chess.square(n) for n in names)


def b960(fen):
    return chess.Board(fen, chess960=True)


def ucis(b):
    return sorted(chess.uci(m) for m in b.legal_moves())


def castles(b):
    return sorted(chess.uci(m) for m in b.legal_moves() if b.is_castling(m))


def net(b, m):
    """(occupied & ~emptied) | filled must be the occupancy after m."""
    e, f = b.occupancy_change(m)
    occ = b.occupied()
    for s in e:
        occ &= ~(1 << s)
    for s in f:
        occ |= 1 << s
    return occ


# ---- start positions ---------------------------------------------------------------

def test_start_position_numbers():
    assert chess960.fen(518) == chess.START_FEN
    # Scharnagl's table: 0 = BBQNNRKR, 959 = RKRNNQBB
    assert chess960.fen(0) == "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    assert chess960.fen(959).split("/")[7].split()[0] == "RKRNNQBB"
    # the ranks go into a list made at its full size: a set grown one rank at a time needs an ever larger
    # block while each rank kept sits between the garbage of a board, and on a microcontroller's heap
    # (tools/mcu.py) no free block of 2 KB was left by rank 400
    ranks = [None] * 960
    for n in range(960):
        fen = chess960.fen(n)
        rank = fen.split("/")[7].split()[0]
        assert chess960.number(rank) == n, n
        assert chess960.number(rank.lower()) == n
        b = chess960.board(n)
        assert b.chess960 and b.fen() == fen and chess960.number_of(b) == n
        bs = [f for f in range(8) if rank[f] == "B"]
        assert (bs[0] + bs[1]) & 1, rank                         # bishops on opposite colours
        assert rank.index("R") < rank.index("K") < rank.rindex("R"), rank
        ranks[n] = rank
    ranks.sort()
    assert all(ranks[i] < ranks[i + 1] for i in range(959))      # 960 different ranks
    for bad in ("RNBQKBNN", "RNBKQBNR"[:7], "NBRKRNQB", "RBQBKNNR", "KRRQBBNN", 518):
        assert chess960.number(bad) == -1, bad
    assert "0..959" in str(raises(chess.ChessError, chess960.fen, 960))
    raises(chess.ChessError, chess960.fen, -1)
    # not a start position: a move made, a right gone
    b = chess960.board(100)
    b.push(b.parse_move("a3"))
    assert chess960.number_of(b) == -1
    assert chess960.number_of(chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1")) == -1
    assert chess960.number_of(chess.Board()) == 518


# ---- perft: the Chess960 perft list (shakmaty tests/chess960.perft, also python-chess's) -----

PUBLISHED = [
    ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", (21, 528, 12189)),
    ("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", (21, 807, 18002)),
    ("b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", (20, 479, 10471)),
    ("qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", (22, 593, 13440)),
    ("1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9", (28, 1120, 31058)),
    ("qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 1 9", (29, 899, 26578)),
]


def test_published_chess960_perft():
    for fen, counts in PUBLISHED:
        b = b960(fen)
        before = b.fen(shredder=True)
        assert before == fen
        for depth, want in enumerate(counts, 1):
            assert b.perft(depth) == want, (fen, depth)
        assert b.fen(shredder=True) == before


def test_standard_array_in_960_mode_has_standard_perft():
    b = chess960.board(518)
    assert [b.perft(d) for d in (1, 2, 3)] == [20, 400, 8902]
    b = b960("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert b.perft(1) == 48 and b.perft(2) == 2039


# ---- X-FEN and Shredder-FEN ---------------------------------------------------------------

def test_xfen_and_shredder_fen():
    b = b960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    assert b.fen() == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    assert b.castling_rooks() == sq("h1", "f1", "h8", "f8")
    assert b960(b.fen()).fen(shredder=True) == b.fen(shredder=True)
    # an inner rook keeps its file letter in X-FEN; K/Q mean the outermost rook on that side
    b = b960("rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1")
    assert b.fen() == "rr2k3/8/8/8/8/8/8/RR2K3 w Bb - 0 1"
    assert b.castling_rooks() == (-1, chess.square("b1"), -1, chess.square("b8"))
    b = b960("rr2k3/8/8/8/8/8/8/RR2K3 w Qq - 0 1")
    assert b.fen() == "rr2k3/8/8/8/8/8/8/RR2K3 w Qq - 0 1" and b.fen(shredder=True).split()[2] == "Aa"
    # standard chess reads Shredder-FEN too, and writes KQkq unless asked
    b = chess.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1")
    assert b.fen() == chess.START_FEN and b.fen(shredder=True).split()[2] == "HAha"
    assert not b.chess960


def test_bad_castling_fields():
    cases = [
        # standard chess: a right needs e1/h1 (or a1): a Chess960 layout is named as such
        (False, "4k3/8/8/8/8/8/8/6KR w K - 0 1", "Chess960"),
        (True, "4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "impossible castling right 'K'"),
        (True, "4k3/8/8/8/8/8/8/4K2R w A - 0 1", "impossible castling right 'A'"),
        (True, "4k3/8/8/8/8/8/8/4K1RR w GH - 0 1", "two castling rights"),
        (True, "4k3/8/8/8/8/8/4K3/7R w K - 0 1", "impossible castling right 'K'"),
        (True, "4k3/8/8/8/8/8/8/4K2R w Kx - 0 1", "castling field"),
    ]
    for c960, fen, words in cases:
        e = raises(chess.FenError, chess.Board, fen, c960)
        assert words in str(e), (fen, str(e))


# ---- castling where the king or the rook does not move, or they swap --------------------

def test_castling_king_stays():
    b = b960("4k3/8/8/8/8/8/8/6KR w K - 0 1")
    m = b.parse_move("O-O")
    assert chess.uci(m) == "g1h1" and b.san(m) == "O-O" and b.parse_uci("g1h1") == m
    assert b.castling_squares(m) == sq("g1", "g1", "h1", "f1")
    assert b.occupancy_change(m) == (sq("h1"), sq("f1"))
    assert b.captured_square(m) == -1
    after = net(b, m)
    b.push(m)
    assert b.occupied() == after
    assert b.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    b.pop()
    assert b.fen() == "4k3/8/8/8/8/8/8/6KR w K - 0 1"


def test_castling_rook_stays():
    b = b960("4k3/8/8/8/8/8/8/3RK3 w Q - 0 1")
    m = b.parse_move("O-O-O")
    assert chess.uci(m) == "e1d1"
    assert b.occupancy_change(m) == (sq("e1"), sq("c1"))
    b.push(m)
    assert b.fen() == "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"


def test_castling_swap_changes_no_occupancy():
    b = b960("4k3/8/8/8/8/8/8/5KR1 w K - 0 1")
    m = b.parse_move("O-O")
    assert chess.uci(m) == "f1g1" and b.san(m) == "O-O"
    assert b.occupancy_change(m) == ((), ())
    assert b.occupancy_masks(m) == (0, 0)
    assert b.captured_square(m) == -1
    # Kg1 is not a king move onto its own rook
    assert "illegal" in str(raises(chess.IllegalMoveError, b.parse_san, "Kg1"))
    b.push(m)
    assert b.fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    assert b.kings[0] == chess.MB[chess.square("g1")]
    b.pop()
    assert b.fen() == "4k3/8/8/8/8/8/8/5KR1 w K - 0 1"


def test_castling_king_on_b1():
    b = b960("1k6/8/8/8/8/8/8/RK4R1 w GA - 0 1")
    assert castles(b) == ["b1a1", "b1g1"]
    m = b.parse_move("O-O-O")
    assert chess.uci(m) == "b1a1"
    assert b.occupancy_change(m) == (sq("b1", "a1"), sq("c1", "d1"))
    m2 = b.parse_move("O-O")
    assert b.occupancy_change(m2) == (sq("b1"), sq("f1"))     # the rook g1 -> f1, the king b1 -> g1
    b.push(m2)
    assert b.fen() == "1k6/8/8/8/8/8/8/R4RK1 b - - 1 1"


def test_castling_needs_empty_and_safe_squares():
    # the rook's path (c1 -> f1) is blocked by a knight on f1, though the king's path is clear of it
    assert castles(b960("4k3/8/8/8/8/8/8/1KR2N2 w K - 0 1")) == []
    assert castles(b960("4k3/8/8/8/8/8/8/1KR3N1 w K - 0 1")) == []       # g1 (king's end) occupied
    assert castles(b960("4k3/8/8/8/8/8/8/1KR4N w K - 0 1")) == ["b1c1"]  # h1 is outside both paths
    assert castles(b960("4k3/8/8/8/8/8/8/1KR5 w K - 0 1")) == ["b1c1"]
    # the king passes d1 attacked by a rook: not allowed
    assert castles(b960("4k3/8/8/8/8/8/3r4/1KR5 w K - 0 1")) == []
    # a-side rook on c1 shields the king on d1 from a1; castled, the king on c1 would stand in check
    assert castles(b960("4k3/8/8/8/8/8/8/r1RK4 w C - 0 1")) == []
    # no castling out of check
    assert castles(b960("4k3/8/8/8/8/8/8/q4KR1 w G - 0 1")) == []
    # an attacked rook may castle
    assert castles(b960("4k3/8/8/8/8/8/6r1/5KR1 w G - 0 1")) == []       # g1 attacked: king's end
    assert castles(b960("4k3/8/8/8/8/8/7r/5K1R w H - 0 1")) == ["f1h1"]


def test_rights_lost_with_king_rook_or_capture():
    fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1"
    b = b960(fen)
    b.push(b.parse_move("Rg2"))
    assert b.fen().split()[2] == "Qkq"
    b.push(b.parse_move("Rxb1"))
    assert b.fen().split()[2] == "k"            # the b1 rook is gone with its right, the b8 rook has moved
    b.push(b.parse_move("Kd2"))
    assert b.fen().split()[2] == "k"
    b.pop()
    b.pop()
    b.pop()
    assert b.fen() == "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w KQkq - 0 1"
    assert b.fen(shredder=True) == fen


def test_uci_castling_conventions():
    fen = "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1"
    b = b960(fen)
    m = b.parse_move("O-O")
    assert chess.uci(m) == "e1h1" and b.parse_uci("e1g1") == m and b.parse_move("e1g1") == m
    s = chess.Board(fen)
    m = s.parse_move("O-O")
    assert chess.uci(m) == "e1g1" and s.parse_uci("e1h1") == m
    raises(chess.IllegalMoveError, s.parse_uci, "e1a1")      # no queen-side right path here


def test_every_move_keeps_the_occupancy_rule_and_takes_back():
    for fen in ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1",
                "4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1",
                "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9"):
        b = b960(fen)
        before = b.fen(shredder=True)
        k = b.key()
        for m in b.legal_moves():
            want = net(b, m)
            b.push(m)
            assert b.occupied() == want, chess.uci(m)
            assert b.pop() == m
            assert b.fen(shredder=True) == before and b.key() == k


# ---- the repetition hash of push/pop -----------------------------------------------------

def test_push_keeps_the_hash_of_every_position():
    # a fixed pseudo-random game rich in castling (MicroPython has no shared random module)
    x = 12345
    for n in (0, 518, 959, 300, 77):
        b = chess960.board(n)
        for _ in range(60):
            legal = b.legal_moves()
            if not legal:
                break
            x = (x * 1103515245 + 12345) & 0x3FFFFFFF
            cs = [m for m in legal if b.is_castling(m)]
            m = cs[x % len(cs)] if cs and x & 1 else legal[x % len(legal)]
            b.push(m)
            assert b._keys[-1] == b._hash(), (n, b.fen())
        while b.move_stack():
            b.pop()
        assert b.fen() == chess960.fen(n) and b._keys == [b._hash()]


def test_repetition_in_chess960():
    b = b960("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1")
    shuffle = ("Rb2", "Rb7", "Rb1", "Rb8")
    for t in shuffle:
        b.push(b.parse_move(t))
    assert b.repetitions() == 1                 # the b-rooks' rights are gone: not the same
    for t in shuffle * 2:
        b.push(b.parse_move(t))
    assert b.repetitions() == 3 and b.claims() == ["threefold repetition"]
    b.push(b.parse_move("O-O"))
    assert b.repetitions() == 1
    b.pop()
    assert b.repetitions() == 3
