"""Chess960 on the simulator with the real bridge: a start position by number, castling on the board."""
from flagcore import chess as cc
from flagcore import chess960

from flagfall import sim as simm
from flagfall.games import registry

from test_sim_bridge import Bridge


def test_a_chess960_game_with_castling_on_the_simulated_board():
    n = 0                                                   # bbqnnrkr: the king on g1, the rooks on f1 and h1
    fen = chess960.fen(n)
    sim = simm.Simulator("pico-chess", speed=10, tc="300+2", seed=9, noise=0.0, fen=fen, game="chess960",
                         log=lambda t: None).start()
    ep = sim.listen_tcp("127.0.0.1", 0)
    br = Bridge(ep.url(), "chess960", fen=fen)
    try:
        assert br.wait(lambda: br.engine.started), "the bridge never got the device's snapshot"
        assert br.engine.start_problem is None
        sim.press("start")
        # a script for this start: seeded random play that castles as soon as it can (queens only)
        import random
        rng = random.Random(7)
        b = cc.Board(fen, chess960=True)
        played = []
        while len(played) < 60 and not any(b.is_castling(b.parse_move(t)) for t in []):
            legal = [m for m in b.legal_moves() if cc.move_promotion(m) in (0, cc.QUEEN)]
            castle = [m for m in legal if b.is_castling(m)]
            if castle:
                break
            m = rng.choice(legal)
            played.append(b.san(m))
            b.push(m)
        assert castle, played
        for i, text in enumerate(played):
            sim.play(text, think_ms=300)
            assert br.wait(lambda: len(br.engine.game.moves) == i + 1), (text, br.engine.game.sans())
        ctext = b.san(castle[0])
        sim.play(ctext, think_ms=300)
        assert br.wait(lambda: len(br.engine.game.moves) == len(played) + 1), br.engine.game.sans()
        assert br.engine.game.sans()[-1] == ctext and br.engine.game.alert is None
        st = br.engine.state()
        assert st["game"] == "chess960" and '[Variant "Chess960"]' in st["pgn"] and '[FEN "%s"]' % fen in st["pgn"]
    finally:
        br.close()
        sim.stop()


def test_the_start_position_check_lists_the_squares_to_fix():
    a = registry.make_adapter("chess960", position=0)
    want = a.occupancy()
    assert want == registry.make_adapter("chess").occupancy()   # the same squares, other pieces
