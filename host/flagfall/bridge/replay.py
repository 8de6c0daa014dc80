"""Replay recorded games through a virtual device and the real bridge engine.

For every game: a VirtualDevice holds the true position, turns each move
into physical lifts and placements (virtualboard.py, optionally with seeded
noise), runs a real flagcore Clock for the presses, and sends everything as
wire frames (HELLO, SNAP, SQ, CLK), encoded and decoded by the wire codec, to
a BridgeEngine. The engine's reconstructed moves are then compared with the
source moves.

Sources: a PGN (chess) or PDN (draughts family) file, or `random:N[:SEED]`
for N games of random legal play (used for Brazilian draughts, for which no
real records exist). A game of the file that cannot be replayed (a null move,
a variant or start position the engine refuses, an illegal move) is skipped
with its reason; the other games go on.
"""
from __future__ import annotations

import random
import time
from typing import IO, TYPE_CHECKING, Any, Iterator, Optional, Sequence

from flagcore import clock as clockmod
from flagcore import wire

from flagfall.bridge import virtualboard as vb
from flagfall.games import registry
from flagfall.bridge.engine import BridgeEngine, default_geometry, sensor_map

if TYPE_CHECKING:
    from flagcore import minzu as mzcore
    from flagfall.records import RecordError
    from flagfall.games.minzu_adapter import MinzuAdapter
    from flagfall.games.protocol import GameAdapter, Move, Square


class GameSource:
    """One game to replay: start FEN (or None), the moves as text, tags, result."""

    def __init__(self, tags: dict[str, str], texts: list[str], result: Optional[str] = "*",
                 fen: Optional[str] = None, moves: Optional[list[Move]] = None) -> None:
        self.game: Optional[str] = None
        self.tags = tags
        self.texts = texts
        self.result = result
        self.fen = fen
        self.moves = moves
        self.number = None   # the game's place in its file (1, 2, ...)


def load_games(game: str, path: str, limit: Optional[int] = None,
               skipped: Optional[list[tuple[int, RecordError]]] = None) -> Iterator[GameSource]:
    """Yield GameSource objects from a file or 'random:N[:SEED]'.

    A PGN/PDN game that cannot be replayed is not yielded: its number and error (a
    flagfall.records.RecordError, whose `reason` says why) go to `skipped` if given.
    limit counts the games of the file, skipped ones included."""
    from flagfall.records import RecordError
    n = 0
    if path.startswith("random:"):
        parts = path.split(":")
        count = int(parts[1])
        seed = int(parts[2]) if len(parts) > 2 else 1
        for i in range(count):
            if limit is not None and n >= limit:
                return
            yield random_game(game, random.Random(seed * 100003 + i))
            n += 1
        return
    spec = registry.spec(game)
    for item in spec.module().replay_sources(spec, path, variant=game):
        if limit is not None and n >= limit:
            return
        n += 1
        if isinstance(item, RecordError):
            # a game that cannot be replayed: reported with its reason, the rest of the file goes on
            if skipped is not None:
                skipped.append((item.number if item.number is not None else n, item))
            continue
        number, tags, texts, result, fen, moves, name = item
        src = GameSource(tags, texts, result, fen, moves)
        if name:
            src.game = name
        src.number = number
        yield src


def random_turn(a: MinzuAdapter, rng: random.Random) -> tuple[mzcore.Decision, ...]:
    """A random legal minzu turn."""
    from flagcore import minzu as mz
    g = a.g.copy()
    me, ph = g.turn, g.phase
    seq: list[mzcore.Decision] = []
    while True:
        d = rng.choice(g.decisions())
        g.apply(d)
        seq.append(d)
        if ph == mz.CLEAR and g.phase == mz.REMOVE and g.turn == me:
            continue
        if g.phase == mz.OVER or g.turn != me or g.phase != ph:
            return tuple(seq)


def random_game(game: str, rng: random.Random, max_plies: int = 160, fen: Optional[str] = None) -> GameSource:
    """A game of random legal moves (until the rules end it or max_plies), from `fen`, else the game's
    start (Chess960: a random start)."""
    if fen is None and registry.spec(game).variant == "chess960":
        fen = registry.make_adapter(game, position=rng.randrange(960)).position()
    a = registry.make_adapter(game, fen=fen)
    if a.lazy:          # minzu: turns of random decisions (candidates are not listed in advance)
        from flagfall.games.minzu_adapter import MinzuAdapter
        if not isinstance(a, MinzuAdapter):
            raise ValueError("random play of %s: only minzu's turns can be drawn at random" % game)
        turns: list[Move] = []
        while len(turns) < 4 * max_plies and a.ending() is None:
            m = random_turn(a, rng)
            a.push(m)
            turns.append(m)
        src = GameSource({"Event": "random play"}, [], "*", None, turns)
        src.game = "minzu" + a.size
        return src
    moves: list[Move] = []
    texts: list[str] = []
    while len(moves) < max_plies and a.ending() is None:
        cands = a.candidates()
        if not cands:
            break
        c = rng.choice(cands)
        m = rng.choice(c.moves)
        texts.append(a.text(m))
        a.push(m)
        moves.append(m)
    return GameSource({"Event": "random play", "Source": "flagfall replay random"}, texts, "*", fen, moves)


class VirtualDevice:
    """A clock-and-board device in memory, speaking the wire protocol."""

    def __init__(self, game: str, fen: Optional[str] = None, tc: str = "5400+30", clock: bool = True,
                 rng: Optional[random.Random] = None, noise: float = 0.0) -> None:
        self.truth = registry.make_adapter(game, fen=fen)
        self.rng = rng
        self.noise = noise
        self.link = wire.Link(wire.HOST_KINDS)
        rows, cols, layout = default_geometry(self.truth)
        self.rows, self.cols, self.layout = rows, cols, layout
        smap = sensor_map(self.truth, rows, cols, layout)
        self.sensor_of: dict[Square, int] = {}
        for i, sq in enumerate(smap):
            if sq is not None:
                self.sensor_of[sq] = i
        self.nsensors = len(smap)
        self.clock = clockmod.Clock(tc) if clock else None
        self.tc = tc
        self.occ = set(self.truth.occupancy())

    def hello(self) -> bytes:
        """The HELLO frame."""
        r = self.rows
        c = self.cols if self.layout == "full" else self.cols // 2   # dark: cols halved (docs/protocol.md)
        return self.link.frame("HELLO", ["virtual", wire.VERSION, "virtual-" + self.truth.game, self.truth.game,
                                         r, c, self.layout])

    def snapshot(self, t: int) -> bytes:
        """The SNAP frame of the current occupancy."""
        bits = bytearray(self.nsensors)
        for sq in self.occ:
            bits[self.sensor_of[sq]] = 1
        return self.link.frame("SNAP", [t, self.nsensors, wire.hexbits(bits, self.nsensors)])

    def square(self, t: int, sq: Square, down: bool) -> bytes:
        """An SQ frame for one change."""
        if down:
            self.occ.add(sq)
        else:
            self.occ.discard(sq)
        return self.link.frame("SQ", [t, (self.sensor_of[sq], 1 if down else 0)])

    def button(self, t: int, name: str) -> bytes:
        """A BTN frame."""
        return self.link.frame("BTN", [t, name])

    def clock_frame(self, t: int) -> bytes:
        """A CLK frame of the clock's state at t."""
        c = self.clock
        if c is None:
            raise ValueError("this virtual device has no clock")
        c.update(t)
        flag = -1 if c.flag is None else c.flag
        return self.link.frame("CLK", [t, c.state, c.to_move, c.shown_ms(0), c.shown_ms(1), flag, "", "", "",
                                       c.snapshot()])


def replay_game(game: str, src: GameSource, seed: Optional[int] = None, noise: float = 0.0,
                clock: bool = True, settle_ms: int = 1500, tc: str = "5400+30",
                journal_path: Optional[str] = None,
                engine_kwargs: Optional[dict[str, Any]] = None) -> tuple[BridgeEngine, list[str], int]:
    """Replay one GameSource; returns (engine, expected texts, frames sent)."""
    rng = random.Random(seed) if seed is not None else None
    game = src.game or game
    dev = VirtualDevice(game, src.fen, tc, clock, rng, noise)
    eng = BridgeEngine(game, journal_path=journal_path, clock_mode=None, settle_ms=settle_ms,
                       tags=src.tags, tc=tc if clock else None, fen=src.fen, fsync=False,
                       **(engine_kwargs or {}))
    host = wire.Link(wire.DEVICE_KINDS)
    sent = [0]

    def deliver(t: int, data: bytes) -> None:
        sent[0] += 1
        for seq, kind, values in host.feed(data):
            eng.frame(t, kind, values, data.decode().rstrip("\n"))

    t = 1000
    deliver(t, dev.hello())
    deliver(t, dev.snapshot(t))
    truth = dev.truth
    if dev.clock is not None:        # clock=True
        dev.clock.start(0, t)
        deliver(t, dev.clock_frame(t))
    expected: list[str] = []
    moves = src.moves
    if moves is None:
        moves = []
        tmp = registry.make_adapter(game, fen=src.fen)
        for text in src.texts:
            m = tmp.parse(text)
            moves.append(m)
            tmp.push(m)
        src.moves = moves
    for m in moves:
        if eng.game.result != "*":
            break
        expected.append(truth.text(m))
        t += vb.think_time(rng)
        eng.tick(t)
        # the board cannot see a promotion piece: the player picks it on the clock's buttons,
        # before the move or after the press (the queen needs no button)
        piece = under_promotion(truth, m)
        after = piece and rng is not None and rng.random() < 0.5
        if piece and not after:
            deliver(t, dev.button(t, "promote-" + piece))
        for dt, sq, down in vb.events_for_move(truth, m, rng, noise):
            t += dt
            eng.tick(t)
            deliver(t, dev.square(t, sq, down))
        mover = truth.side()
        truth.push(m)
        if dev.clock is not None and dev.clock.to_move == mover:
            # (a player cannot press a clock that runs for the other side: in minzu's clearing
            # and removal the same player acts twice, and the bridge commits when the board settles)
            t += vb.press_delay(rng, noise)
            eng.tick(t)
            dev.clock.press(mover, t)
            deliver(t, dev.clock_frame(t))
        t += settle_ms + 1
        eng.tick(t)
        if after and piece:
            t += 500
            deliver(t, dev.button(t, "promote-" + piece))
    if eng.game.result == "*" and src.result not in ("*", None, ""):
        eng.operator(t + 1, "result", src.result, "as recorded")
    return eng, expected, sent[0]


def under_promotion(adapter: GameAdapter, move: Move) -> Optional[str]:
    """'r', 'b' or 'n' if a move promotes to something other than a queen, else None."""
    if not adapter.is_promotion(move):
        return None
    p = adapter.promotion_of(move)
    for word in "rbn":
        if adapter.promotion_piece(word) == p:
            return word
    return None


def compare(got: Sequence[str], want: Sequence[str]) -> int:
    """Number of plies that differ (position by position, plus any length difference)."""
    n = sum(1 for a, b in zip(got, want) if a != b)
    return n + abs(len(got) - len(want))


def run(game: str, path: str, seed: Optional[int] = None, noise: float = 0.0, clock: bool = True,
        limit: Optional[int] = None, out: Optional[IO[str]] = None, err: Optional[IO[str]] = None,
        settle_ms: int = 1500, progress_every: float = 2.0, print_records: bool = True,
        stats: Optional[list[int]] = None,
        skipped: Optional[list[tuple[int, RecordError]]] = None) -> tuple[int, int, int]:
    """Replay a whole file; returns (games, moves, mismatches).

    stats, if given, is a list [games, moves] that receives the games the rules ended before the
    source did, and the source moves after that end (not counted as mismatches or moves).
    skipped, if given, is a list that receives (game number, error) for each game of the file
    that cannot be replayed (error.reason says why); each is also reported on err.
    """
    from flagfall.bridge import records
    games = moves = bad = 0
    ended = stats if stats is not None else [0, 0]
    start = time.time()
    last = start
    skipped = skipped if skipped is not None else []
    told = [len(skipped)]

    def tell_skipped() -> None:
        for number, e in skipped[told[0]:]:
            if err is not None:
                err.write("game %d skipped (%s): %s\n" % (number, e.reason, e))
        told[0] = len(skipped)

    for i, src in enumerate(load_games(game, path, limit, skipped)):
        tell_skipped()
        number = src.number or i + 1
        s = None if seed is None else seed * 1000003 + i
        eng, want, _ = replay_game(game, src, s, noise, clock, settle_ms)
        got = eng.game.sans()
        k = compare(got, want)
        rest = len(src.moves or ()) - len(want)    # replay_game has filled src.moves in
        if rest and not (k == 0 and eng.game.ended_by_rules):
            k += rest          # moves the bridge stopped following for no rule: mismatches
        elif rest:
            # the rules ended the game (mate, dead position, a draughts draw rule) and the
            # source played on: the bridge records the rules' result, not a mismatch
            ended[0] += 1
            ended[1] += rest
            if err is not None:
                err.write("game %d: the rules ended it after %d moves (%s); the source has %d more\n"
                          % (number, len(want), eng.game.reason, rest))
        games += 1
        moves += len(want)
        bad += k
        if k and err is not None:
            j = next((j for j in range(min(len(got), len(want))) if got[j] != want[j]), min(len(got), len(want)))
            alerts = [d.describe() for d in eng.game.decisions if d.kind in ("alert", "penalty", "result", "takeback")]
            err.write("MISMATCH game %d (%s): ply %d: got %s, want %s; %s\n"
                      % (number, src.tags.get("White", "?") + " - " + src.tags.get("Black", "?"), j + 1,
                         got[j:j + 3], want[j:j + 3], alerts[:3]))
        if print_records and out is not None:
            out.write(records.record_text(eng.game))
            out.write("\n")
        now = time.time()
        if err is not None and now - last >= progress_every:
            last = now
            err.write("replay: %d games, %d moves, %.0f moves/s, %d mismatches\n"
                      % (games, moves, moves / max(now - start, 1e-9), bad))
            err.flush()
    tell_skipped()
    return games, moves, bad
