"""Boards without a bridge: states made straight from a game record and a real clock.

Used by the load test (hundreds of boards on one host), by tests that need a
live board before a simulator is running, and as the demo's fallback path.
It follows the state contract exactly (flagfall.live.make_state) with the
clock engine of the firmware (flagcore.clock) charging the time, but it does
not go through sensors, the wire protocol or move reconstruction: that is the
simulator's and the bridge's job.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Optional, Sequence

from flagcore import clock as clockm
from flagcore import display
from flagcore.ticks import ticks_ms

from flagfall import live

Ply = tuple[str, str, list[str], list[list[int]]]
"""(SAN, FEN, grid, last move as [[row, col], [row, col]]) after one move."""


def chess_plies(sans: Iterable[str], fen: Optional[str] = None) -> list[Ply]:
    """[(san, fen, grid, last_move)] for each move of a chess game, replayed by the core rules."""
    from flagcore import chess
    b = chess.Board(fen) if fen else chess.Board()
    out: list[Ply] = []
    for text in sans:
        m = b.parse_san(text)
        san = b.san(m)
        frm, to = chess.move_from(m), chess.move_to(m)
        b.push(m)
        f = b.fen()
        out.append((san, f, live.grid_from_fen(f), [[7 - (frm >> 3), frm & 7], [7 - (to >> 3), to & 7]]))
    return out


def chess_start(fen: Optional[str] = None) -> tuple[str, list[str]]:
    """(fen, grid) of a chess start position."""
    from flagcore import chess
    b = chess.Board(fen) if fen else chess.Board()
    f = b.fen()
    return f, live.grid_from_fen(f)


class StateMaker:
    """Makes successive states of one board: moves applied, clock pressed, seq counted."""

    def __init__(self, tournament: str, round_: str, board: str, game: str, tags: Mapping[str, str], tc: str,
                 start_position: str, start_grid: Iterable[str], side_names: Optional[Sequence[str]] = None,
                 now: Optional[int] = None) -> None:
        self.ident = (tournament, round_, board)
        self.game = game
        self.tags = dict(tags)
        self.tc_text = tc
        self.clock = clockm.Clock(tc)
        self.tc_text = self.clock.tc.text()
        self.tags.setdefault("TimeControl", self.tc_text)
        self.position = start_position
        self.grid = list(start_grid)
        self.start = (start_position, list(start_grid))
        self.moves: list[str] = []
        self.clocks: list[list[int]] = []
        self.last_move: list[list[int]] = []
        self.seq = -1
        self.result = "*"
        self.status = "playing"
        self.alert: Optional[str] = None
        self.side_names = side_names
        self.to_move = 0

    def _clock_obj(self, now: int) -> live.Message:
        c = self.clock
        c.update(now)
        v = display.view(c)
        running = None
        if c.state == clockm.RUNNING:
            running = clockm.SIDE_NAMES[c.to_move]
        flag = clockm.SIDE_NAMES[c.flag] if c.flag is not None else None
        return live.clock_object(c.shown_ms(0), c.shown_ms(1), running, flag, self.tc_text,
                                 white_display=v[0]["time"], black_display=v[1]["time"])

    def state(self, now: Optional[int] = None) -> live.Message:
        """The next state (seq + 1) as things stand at tick `now`."""
        now = ticks_ms() if now is None else now
        self.seq += 1
        clk = self._clock_obj(now)
        if self.clock.flag is not None and self.result == "*":
            self.result = "0-1" if self.clock.flag == 0 else "1-0"
            self.status = "finished"
        return live.make_state(
            self.ident[0], self.ident[1], self.ident[2], self.seq, self.game, self.position, self.grid,
            self.moves, self.clocks, self.last_move, clockm.SIDE_NAMES[self.to_move], clk,
            self.result, self.status, self.alert, "", self.tags, side_names=self.side_names)

    def start_clock(self, now: Optional[int] = None) -> live.Message:
        """Start the first side's clock; returns the new state."""
        now = ticks_ms() if now is None else now
        self.clock.start(self.to_move, now)
        return self.state(now)

    def move(self, text: str, position: str, grid: Iterable[str], last_move: Iterable[Iterable[int]],
             now: Optional[int] = None) -> live.Message:
        """A move completed by the side to move (its clock pressed); returns the new state."""
        now = ticks_ms() if now is None else now
        c = self.clock
        if c.state == clockm.READY:
            c.start(self.to_move, now)
        c.press(self.to_move, now)
        self.moves.append(text)
        self.clocks.append([c.shown_ms(0), c.shown_ms(1)])
        self.position, self.grid, self.last_move = position, list(grid), [list(x) for x in last_move]
        self.to_move = 1 - self.to_move
        return self.state(now)

    def finish(self, result: str, now: Optional[int] = None) -> live.Message:
        """Set the result and stop the clock; returns the new state."""
        now = ticks_ms() if now is None else now
        if self.clock.state == clockm.RUNNING:
            self.clock.pause(now)
        self.result = result
        self.status = "finished"
        return self.state(now)

    def restart(self, now: Optional[int] = None) -> live.Message:
        """Back to the start position with a fresh clock; returns the new state."""
        self.clock = clockm.Clock(self.tc_text)
        self.position, self.grid = self.start[0], list(self.start[1])
        self.moves, self.clocks, self.last_move = [], [], []
        self.result, self.status, self.alert, self.to_move = "*", "playing", None, 0
        return self.state(now)
