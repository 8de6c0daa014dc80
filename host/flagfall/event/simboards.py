"""Simulated boards for an event: the real firmware on fake hardware at each table, optionally played.

`flagfall event --sim N` puts a simulated device (flagfall.sim.Simulator,
the board profile of the game) at each of the first N boards, on a TCP
serial line that the board's bridge opens exactly as it opens a USB port.
With `--autoplay` a simulated pair of hands plays a bundled real game on
each board (the demo's records), starts the clock, presses it after every
move and, when the source game ends, enters its result the way the players
would (the arbiter's result action), so a whole round can be watched.
"""
from __future__ import annotations

import random
import threading
from importlib import resources
from typing import Optional

from flagfall.bridge.replay import GameSource, load_games, random_game
from flagfall.event.board import EventBoard
from flagfall.event.runner import Event
from flagfall.games import registry

BUNDLED = {"chess": "chess.pgn", "draughts": "draughts.pdn"}
CLOCK_WORDS = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
"""A winner as the clock's result menu words it (the bridge scores it as the game does)."""
"""Bundled records per game (flagfall/demo_games), for --autoplay."""


def autoplay_games(game: str, fen: Optional[str], count: int, seed: int) -> list[GameSource]:
    """Games for --autoplay: the bundled real games, or, for a game or a start position that has
    none (Chess960), games of random legal moves from that start."""
    import random as rnd
    if fen is None and registry.spec(game).name in BUNDLED:
        return bundled_games(game)
    rng = rnd.Random(seed)
    return [random_game(game, rng, 80, fen) for _ in range(count)]


def round_game(event: Event, board: int) -> GameSource:
    """The game a simulated board plays in this round (a different one each round): a bundled real
    game, or random legal play from the round's start position where none is bundled (Chess960)."""
    game = event.boards[board].game
    same = sorted(n for n, b in event.boards.items() if b.game == game)
    games = autoplay_games(game, event.fen, len(same), event.round.round * 7919)
    return games[((event.round.round - 1) * len(same) + same.index(board)) % len(games)]


def bundled_games(game: str) -> list[GameSource]:
    """The bundled real games of a game (ValueError if there are none for it)."""
    name = registry.spec(game).name
    if name not in BUNDLED:
        raise ValueError("no bundled games for %s to autoplay (bundled: %s)" % (name, ", ".join(BUNDLED)))
    path = str(resources.files("flagfall.demo_games").joinpath(BUNDLED[name]))
    return list(load_games(name, path))


def _winner(spec: registry.GameSpec, result: Optional[str]) -> Optional[int]:
    """0, 1 or None (a draw) for a source game's result in the game's scoring or in chess words (many
    PDN files write draughts results as 1-0); -1 for an unfinished or unknown one."""
    if not result:
        return -1
    try:
        return spec.winner_of(result)
    except ValueError:
        return {"1-0": 0, "0-1": 1, "1/2-1/2": None}.get(result, -1)


class SimulatedTable:
    """A simulated device at one board of the event (see the module docstring)."""

    def __init__(self, board: EventBoard, *, speed: float = 1.0, seed: int = 0,
                 source: Optional[GameSource] = None, think_s: float = 4.0) -> None:
        from flagfall import sim as simm
        profile = board.spec.sim_profile
        if not profile:
            raise ValueError("no simulated board profile for %s yet" % board.spec.title)
        self.board = board
        self.source = source
        self.think_s = think_s
        self.rng = random.Random(seed * 7919 + board.number)
        self.stopping = threading.Event()
        self.hands: Optional[threading.Thread] = None
        self.sim = simm.Simulator(profile, speed=speed, tc=board.event.tc, seed=seed + board.number,
                                  game=board.game, fen=board.event.fen,
                                  noise=0.05, log=lambda text: None)
        self.endpoint = self.sim.listen_tcp("127.0.0.1", 0)
        board.attach(self.endpoint.url())
        self.put_back()

    def put_back(self) -> None:
        """After a restart of the event (kill -9): the pieces and the clock as the board's journal left
        them (the moves played, the clock's last reading), before the device starts, so the bridge
        finds the game where it was and the hands go on from there. Nothing to do for a new game or a
        quarantined board (no engine)."""
        eng = self.board.engine
        if eng is None or (not eng.game.moves and eng.last_clock_snap is None):
            return
        self.sim.reset(self.board.event.fen)
        a = self.sim.adapter
        for text in eng.game.sans():
            a.push(a.parse(text))
            self.sim.moves_played.append(text)
        self.sim.set_position(a.occupancy())
        if "rocker" in self.sim.profile["buttons"]:
            # the lever is down on the side of the player who pressed last: the one not to move
            self.sim.press("black" if a.side() == 0 else "white")
        if eng.last_clock_snap:
            # the device's own RESTORE (the clock comes back paused; the hands start it again)
            from flagcore import wire
            self.sim.port.feed(wire.encode(0, "RESTORE", [eng.last_clock_snap]))

    def start(self) -> None:
        """Run the device; with a source game, the hands too."""
        self.sim.start()
        self._start_hands()

    def _start_hands(self) -> None:
        if self.source is not None:
            self.hands = threading.Thread(target=self._hands, name="event-hands-%d" % self.board.number,
                                          daemon=True)
            self.hands.start()

    def next_round(self, board: EventBoard, source: Optional[GameSource]) -> None:
        """The table's next game: the pieces back on their start squares, a fresh clock, new hands."""
        self.stopping.set()                 # the old hands stop at their next move ...
        if self.hands is not None:
            self.hands.join(15)             # ... or once they have entered their result on the clock
        self.stopping = threading.Event()
        self.board = board
        self.source = source
        from flagcore import clock as clockm
        # the hands' last press must have reached the device (and its debounce) before the table is
        # set: read later, it would flip the rocker of the fresh clock and start it
        self.sim.wait(300)
        for _ in range(25):
            # a game left unfinished: the event has stopped its clock (PAUSE, RESULT), which the device
            # carries out in its next loop step; setting the table before that would press it
            if self.sim.app.clock.state != clockm.RUNNING:
                break
            self.stopping.wait(0.02)
        for _ in range(3):
            if self.sim.app.clock.state != clockm.RUNNING:
                break
            self.sim.press("start")          # still running (started after the event's PAUSE): the hand stops it
            self.sim.wait(300)
        self.sim.new_game(board.event.tc, board.event.fen)     # before the new round's bridge connects
        self._start_hands()


    def _hands(self) -> None:
        b = self.board
        src = self.source
        stopping = self.stopping
        assert src is not None
        while not stopping.is_set():     # the bridge must be connected and have the position first (a
            eng = b.engine               # quarantined board: once the arbiter starts it again)
            linked = b.session is not None and b.session.link is not None and eng is not None and eng.frames > 0
            if linked and eng is not None and eng.started and (not eng.start_problem or eng.game.moves):
                break
            stopping.wait(0.05)
        if stopping.wait(1.0):
            return
        eng = b.engine
        if eng is None or eng.game.result != "*":
            return
        done = len(eng.game.moves)
        from flagcore import clock as clockm
        if self.sim.app.clock.state != clockm.RUNNING:
            self.sim.press("start")
        for text in src.texts[done:]:
            if stopping.is_set() or b.engine is None or b.engine.game.result != "*":
                return
            think = self.rng.uniform(0.3, 1.7) * self.think_s * 1000
            self.sim.play(text, think_ms=think)
        if stopping.wait(2.0):
            return
        winner = _winner(b.spec, src.result)
        if b.engine is not None and b.engine.game.result == "*" and winner != -1:
            # the players enter the result on the clock, which tells the bridge
            self.sim.enter_result(CLOCK_WORDS[winner])

    def close(self) -> None:
        """Stop the hands and the device."""
        self.stopping.set()
        self.sim.stop()
