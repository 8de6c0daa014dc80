"""Chess engine tests: run under pytest and inside MicroPython (small perft depths only)."""
import json

from flagcore import chess
from mptest import raises, data_path

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"


def play(b, *texts):
    """Push moves given as SAN or UCI text."""
    for t in texts:
        b.push(b.parse_move(t))
    return b


def ucis(b):
    """Sorted UCI strings of the legal moves."""
    return sorted(chess.uci(m) for m in b.legal_moves())


# ---- perft (published counts, chessprogramming.org "Perft Results") -------

def test_perft_start():
    b = chess.Board()
    assert [b.perft(d) for d in (0, 1, 2, 3)] == [1, 20, 400, 8902]
    assert b.fen() == chess.START_FEN


def test_perft_kiwipete():
    b = chess.Board(KIWIPETE)
    assert b.perft(1) == 48
    assert b.perft(2) == 2039
    assert b.fen() == KIWIPETE


def test_perft_deeper_on_both_runtimes():
    # a few seconds under MicroPython: the same counts on the device's interpreter
    assert chess.Board().perft(4) == 197281
    assert chess.Board(KIWIPETE).perft(3) == 97862


def test_perft_other_positions():
    assert chess.Board(POS3).perft(3) == 2812
    assert chess.Board(POS4).perft(2) == 264
    assert chess.Board(POS5).perft(2) == 1486
    assert chess.Board(POS6).perft(2) == 2079
    # position 4 mirrored (colours swapped) must give the same counts
    assert chess.Board("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1").perft(2) == 264


# ---- FEN -------------------------------------------------------------------

def test_fen_round_trip():
    for fen in (chess.START_FEN, KIWIPETE, POS3, POS4, POS5, POS6,
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"):
        assert chess.Board(fen).fen() == fen


def test_fen_four_fields_accepted():
    assert chess.Board("8/8/8/8/8/8/8/K6k w - -").fen() == "8/8/8/8/8/8/8/K6k w - - 0 1"


def test_bad_fen_gives_clear_errors():
    cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "6 fields"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "8 ranks"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "two white kings"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "no white king"),
        ("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", "pawn on rank 8"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/pNBQKBNR w Kkq - 0 1", "pawn on rank 1"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "impossible castling right 'K'"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "no white king"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en-passant"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"),
        ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank 6"),
        ("rnbqkbnr/ppppzppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "bad piece letter"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "numbers"),
        ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "not to move is in check"),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1", "castling field"),
    ]
    for fen, words in cases:
        e = raises(chess.FenError, chess.Board, fen)
        assert words in str(e), (fen, str(e))
        assert isinstance(e, ValueError)
    assert "text" in str(raises(chess.FenError, chess.Board, 42))


# ---- special moves -----------------------------------------------------------

def test_castling_rules():
    fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert "e1g1" in ucis(chess.Board(fen)) and "e1c1" in ucis(chess.Board(fen))
    # through an attacked square (f1) or out of check: not allowed
    assert "e1g1" not in ucis(chess.Board("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1"))
    assert "e1g1" not in ucis(chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1"))
    b = chess.Board("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1")
    assert "e1g1" not in ucis(b) and "e1c1" not in ucis(b)
    # b1 attacked does not stop queen-side castling; b1 occupied does
    assert "e1c1" in ucis(chess.Board("r3k2r/8/8/8/8/8/1r6/R3K2R w KQkq - 0 1"))
    assert "e1c1" not in ucis(chess.Board("r3k2r/8/8/8/8/8/8/RN2K2R w KQkq - 0 1"))
    b = chess.Board(fen)
    play(b, "O-O")
    assert b.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    play(b, "0-0-0")
    assert b.fen() == "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2"
    b.pop()
    b.pop()
    assert b.fen() == fen
    # a captured rook takes the right with it
    b = chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    play(b, "Rxa8+")
    assert b.fen().split()[2] == "Kk"


def test_en_passant_rules():
    b = chess.Board()
    play(b, "e4", "a6", "e5", "d5")
    assert b.fen().split()[3] == "d6"
    assert "e5d6" in ucis(b)
    m = b.parse_san("exd6e.p.")
    assert b.parse_san("exd6 e.p.") == m and b.parse_san("exd6") == m and b.parse_san("ed6") == m
    assert b.san(m) == "exd6"
    b.push(m)
    assert b.piece_at(chess.square("d5")) is None
    b.pop()
    assert b.piece_at(chess.square("d5")) == (chess.BLACK, chess.PAWN)
    # only immediately (3.7(4))
    play(b, "a3", "h6")
    assert "e5d6" not in ucis(b)
    # horizontal pin through both pawns: not legal
    assert "e5d6" not in ucis(chess.Board("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1"))
    # the double-stepped pawn gives check: capturing it en passant answers the check
    assert "e5d6" in ucis(chess.Board("8/8/8/2kpP3/8/8/8/4K3 w - d6 0 1"))
    assert "c5d6" not in ucis(chess.Board("8/8/8/2Pp4/8/1k6/8/4K3 w - - 0 1"))


def test_promotion_to_any_piece():
    b = chess.Board("8/P6k/8/8/8/8/8/K7 w - - 0 1")
    assert ucis(b)[:4] == ["a1a2", "a1b1", "a1b2", "a7a8b"]
    assert [u for u in ucis(b) if u.startswith("a7")] == ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]
    for text, piece in (("a8=Q", chess.QUEEN), ("a8Q", chess.QUEEN), ("a8=N", chess.KNIGHT),
                        ("a8R", chess.ROOK), ("a7a8b", chess.BISHOP), ("a8=q", chess.QUEEN)):
        m = b.parse_move(text)
        assert chess.move_promotion(m) == piece, text
    e = raises(chess.IllegalMoveError, b.parse_san, "a8")
    assert "promotion" in str(e)
    b.push(b.parse_san("a8=Q"))
    assert b.fen() == "Q7/7k/8/8/8/8/8/K7 b - - 0 1"
    b.pop()
    assert b.fen() == "8/P6k/8/8/8/8/8/K7 w - - 0 1"


def test_pins_and_double_check():
    # the knight on d2 is pinned by the bishop: it may not move
    b = chess.Board("4k3/8/8/b7/8/8/3N4/4K3 w - - 0 1")
    assert not [u for u in ucis(b) if u.startswith("d2")]
    # a pinned rook may move along the pin line only
    b = chess.Board("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1")
    assert sorted(u for u in ucis(b) if u.startswith("e2")) == ["e2e3", "e2e4", "e2e5", "e2e6", "e2e7"]
    # double check: only king moves
    b = chess.Board("4k3/8/8/8/1b6/8/3P4/r3K2R w K - 0 1")
    assert all(u.startswith("e1") for u in ucis(b))


# ---- notation ------------------------------------------------------------------

def test_san_disambiguation_and_marks():
    b = chess.Board("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    m = b.parse_move("a1d1")
    assert b.san(m) == "Rad1"
    b = chess.Board("4k3/8/8/8/8/8/8/R3K2R w K - 0 1")
    assert b.san(b.parse_move("a1d1")) == "Rd1"     # the other rook is blocked by the king
    b = chess.Board("7k/8/8/8/R7/8/8/R3K3 w - - 0 1")
    assert b.san(b.parse_move("a1a2")) == "R1a2"
    b = chess.Board("7k/8/8/8/8/1Q3Q2/8/1Q2K3 w - - 0 1")
    assert b.san(b.parse_move("b3d1")) == "Qb3d1"
    assert b.parse_san("Qb3d1") == b.parse_move("b3d1")
    e = raises(chess.IllegalMoveError, b.parse_san, "Qd1")
    assert "ambiguous" in str(e) and "Qd1" in str(e)
    b = chess.Board()
    play(b, "f3", "e5", "g4")
    m = b.parse_san("Qh4#")
    assert b.san(m) == "Qh4#"
    b = chess.Board()
    play(b, "e4", "f5")
    assert b.san(b.parse_move("d1h5")) == "Qh5+"
    for text in ("Nf3", "Ng1f3", "Ng1-f3", "g1f3", "Nf3!?", "Nf3!", "N1f3", "Ngf3"):
        assert chess.uci(chess.Board().parse_move(text)) == "g1f3", text


def test_illegal_and_unreadable_moves_name_move_and_position():
    b = chess.Board()
    for text in ("e5", "Nf4", "Ke2", "e2e5", "O-O", "zz", "Qxx9", "", "0000", "e7e5"):
        e = raises(chess.IllegalMoveError, b.parse_move, text)
        msg = str(e)
        assert repr(text) in msg, msg
        assert chess.START_FEN in msg, msg
    assert "text" in str(raises(chess.IllegalMoveError, b.parse_move, None))


def test_uci_round_trip_all_moves():
    for fen in (chess.START_FEN, KIWIPETE, POS4, POS5):
        b = chess.Board(fen)
        legal = b.legal_moves()
        for m in legal:
            assert b.parse_uci(chess.uci(m)) == m
            assert b.parse_san(b.san(m, legal), legal) == m


# ---- occupancy helpers -----------------------------------------------------------

def sq(*names):
    return tuple(chess.square(n) for n in names)


def test_occupancy_change():
    b = chess.Board()
    assert b.occupancy_change(b.parse_move("e4")) == (sq("e2"), sq("e4"))
    b = chess.Board("r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1")
    assert b.occupancy_change(b.parse_move("O-O")) == (sq("e1", "h1"), sq("g1", "f1"))
    assert b.occupancy_change(b.parse_move("O-O-O")) == (sq("e1", "a1"), sq("c1", "d1"))
    assert b.occupancy_change(b.parse_move("exd6")) == (sq("e5", "d5"), sq("d6"))
    assert b.occupancy_change(b.parse_move("Rxa8+")) == (sq("a1"), ())
    assert b.captured_square(b.parse_move("exd6")) == chess.square("d5")
    assert b.captured_square(b.parse_move("Rxa8+")) == chess.square("a8")
    assert b.captured_square(b.parse_move("Kf1")) == -1
    assert b.occupancy_masks(b.parse_move("exd6")) == ((1 << 36) | (1 << 35), 1 << 43)
    em, fm = b.occupancy_masks(b.parse_move("O-O"))
    assert em == (1 << 4) | (1 << 7) and fm == (1 << 6) | (1 << 5)
    # applying every move's change to the occupancy mask gives the new occupancy
    for fen in (KIWIPETE, POS4, "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"):
        b = chess.Board(fen)
        occ = b.occupied()
        for m in b.legal_moves():
            em, fm = b.occupancy_masks(m)
            b.make(m)
            assert (occ & ~em) | fm == b.occupied(), chess.uci(m)
            b.unmake()


# ---- game end ------------------------------------------------------------------------

def test_checkmate_and_stalemate():
    b = play(chess.Board(), "f3", "e5", "g4", "Qh4#")
    assert b.status() == ("0-1", "checkmate")
    assert b.status("fide-2018") == ("0-1", "checkmate")
    b = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert b.status() == ("1/2-1/2", "stalemate")
    assert chess.Board().status() is None
    raises(chess.ChessError, chess.Board().status, "fide-1850")


def test_dead_position_and_can_checkmate():
    dead = ("8/8/8/4k3/8/8/8/4K3 w - - 0 1",            # K v K
            "8/8/8/4k3/8/8/8/3BK3 w - - 0 1",           # K+B v K
            "8/8/8/4k3/8/8/8/3NK3 w - - 0 1",           # K+N v K
            "8/8/2b5/4k3/8/8/8/3BK3 w - - 0 1",         # bishops all on one colour
            "8/8/2b5/4k3/6b1/8/8/3BK3 w - - 0 1")
    for fen in dead:
        b = chess.Board(fen)
        assert b.is_dead_position(), fen
        assert b.status() == ("1/2-1/2", "dead position"), fen
    alive = ("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1",        # two bishops on both colours
             "8/8/1b6/4k3/8/8/8/3BK3 w - - 0 1",        # opposite-colour bishops (helpmate exists)
             "8/8/8/4k3/8/8/8/2NNK3 w - - 0 1",         # two knights (helpmate exists)
             "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1")
    for fen in alive:
        assert not chess.Board(fen).is_dead_position(), fen
    # flag-fall arbitration: can this side still mate?
    b = chess.Board("8/8/8/4k3/8/8/8/3NK2q w - - 0 1")
    assert not b.can_checkmate(chess.WHITE)        # a knight against king and queen cannot
    assert b.can_checkmate(chess.BLACK)
    b = chess.Board("8/8/8/4k3/8/8/7r/3NK3 w - - 0 1")
    assert b.can_checkmate(chess.WHITE)            # the rook can block its own king in: helpmate exists
    b = chess.Board("8/8/8/4k3/8/8/7p/3BK3 w - - 0 1")
    assert b.can_checkmate(chess.WHITE) and b.can_checkmate(chess.BLACK)
    assert not chess.Board("8/8/8/4k3/8/8/8/4K2R w - - 0 1").can_checkmate(chess.BLACK)
    b = chess.Board("8/8/8/4k3/8/8/8/4K2R w - - 0 1")
    assert b.flag_result(chess.WHITE) == "1/2-1/2"      # black's lone king cannot mate
    assert b.flag_result(chess.BLACK) == "1-0"
    assert chess.Board().flag_result(chess.WHITE) == "0-1"


def test_threefold_claim_and_fivefold_by_edition():
    b = chess.Board()
    shuffle = ("Nf3", "Nf6", "Ng1", "Ng8")
    play(b, *shuffle)
    assert b.repetitions() == 2
    assert b.claims() == []
    play(b, "Nf3", "Nf6", "Ng1")
    # the claim may be made by announcing the move that repeats (9.2)
    assert b.claims() == ["threefold repetition"]
    play(b, "Ng8")
    assert b.repetitions() == 3
    assert b.claims("fide-2000") == ["threefold repetition"]
    assert b.status("fide-2000") is None
    play(b, *shuffle)
    play(b, *shuffle)
    assert b.repetitions() == 5
    assert b.status("fide-2000") is None                 # only a claim in 2000
    assert b.status("fide-2018") == ("1/2-1/2", "fivefold repetition")
    for _ in range(16):
        b.pop()
    assert b.fen() == chess.START_FEN and b.repetitions() == 1


def test_repetition_needs_same_castling_and_en_passant():
    b = chess.Board("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1")
    play(b, "Rh2", "Ra7", "Rh1", "Ra8")
    assert b.repetitions() == 1            # rights were lost: not the same position
    b = chess.Board()
    play(b, "e4", "Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8", "Ng1")
    # after 1.e4 no black pawn could take en passant, so the first position counts
    assert b.repetitions() == 3


def test_fifty_and_seventyfive_moves():
    b = chess.Board("4k3/8/8/8/8/8/8/4K2R w - - 99 80")
    assert b.claims() == ["50-move rule"]        # claim by announcing a quiet move
    play(b, "Rh2")
    assert b.claims() == ["50-move rule"]
    assert b.status() is None
    b = chess.Board("4k3/8/8/8/8/8/8/4K2R w - - 150 100")
    assert b.status("fide-2000") is None
    assert b.status("fide-2018") == ("1/2-1/2", "75-move rule")
    # checkmate on the 75th move takes precedence (FIDE 2018 9.6.2)
    b = chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 100")
    play(b, "Ra8#")
    assert b.halfmove == 150 and b.status("fide-2018") == ("1-0", "checkmate")


def test_push_pop_restores_everything():
    b = chess.Board(KIWIPETE)
    before = b.fen()
    moves = b.legal_moves()
    for m in moves:
        k = b.key()
        b.push(m)
        assert b.pop() == m
        assert b.fen() == before and b.key() == k
    assert b.move_stack() == []
    c = b.copy()
    play(c, "O-O")
    assert b.fen() == before and c.fen() != before
    # taking back a capture or pawn move restores the repetition history before it
    b = chess.Board()
    play(b, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1")
    play(b, "e5", "Nf3", "Ng8", "Nxe5")
    for _ in range(4):
        b.pop()
    assert b.repetitions() == 2
    play(b, "Ng8")
    assert b.repetitions() == 3 and b.claims() == ["threefold repetition"]


# ---- seeds agree with the engine -----------------------------------------------

def test_seeds_match_engine():
    with open(data_path("chess_rules.json")) as f:
        seeds = json.load(f)
    assert seeds["start_position"]["fen"] == chess.START_FEN
    for name, ed in seeds["editions"].items():
        for k in ("auto_repetition", "auto_halfmoves", "claim_repetition", "claim_halfmoves"):
            assert chess.EDITIONS[name][k] == ed[k], (name, k)
        assert ed["dead_position_ends_game"] is True
    assert sorted(seeds["editions"]) == sorted(chess.EDITIONS)
    pen = seeds["illegal_move_penalty"]["fide-2000"]
    assert (pen["opponent_bonus_ms"], pen["loses_at"]) == (120000, 3)
