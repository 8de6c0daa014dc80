"""The event process at work: a round's boards followed, published and supervised until stopped.

`flagfall event` (flagfall.commands.event) parses and checks its arguments into `EventSettings`
and hands them over with the round's pairings and the boards' ports:

    return await service.serve(settings, rnd, ports)

`serve` wires the round's publishing: every board's state goes to the public hub (delayed by
`delay` seconds, web.DelayedFeed) and, for one hall of a multi-hall event, to the MQTT broker
(signed states out, signed arbiter commands in: `publisher`); the broadcast server with the
arbiter's dashboard serves them; the Lichess push of every round follows the public hub (`lichess_rounds`). It then
supervises: a status line every minute, the round's files written when every game has a result,
a new round loaded by the arbiter followed, and everything closed in order when it stops.
"""
from __future__ import annotations

import asyncio
import os
import sys
import threading
from dataclasses import dataclass
from typing import Any, Optional

from flagfall import mqtt
from flagfall.broadcast import feeds, server
from flagfall.broadcast.hub import Hub
from flagfall.broadcast.lichess_push import PushSettings
from flagfall.bridge.journal import disk_full
from flagfall.event.lichess_rounds import RoundPushes
from flagfall.event import web
from flagfall.event.runner import Event
from flagfall.event.simboards import SimulatedTable, round_game
from flagfall.games import registry
from flagfall.tournament.model import Round, TournamentAbout

STATUS_EVERY_S = 60.0
ROUND_FILES_RETRY_S = 5.0       # the round's files, refused by a full disk, are tried again this often
DEMO_GAMES = {5: "draughts", 6: "draughts"}     # the bundled demo round: boards 5 and 6 play draughts


@dataclass(frozen=True)
class MqttSettings:
    """The hall's broker (with its password) and the key that signs states and arbiter commands."""

    broker: mqtt.Broker
    key: Optional[str]


@dataclass(frozen=True)
class EventSettings:
    """What `flagfall event` was asked, checked (see its --help for each)."""

    out: str
    token: str                      # the arbiter token
    token_where: str                # where it is, for the terminal (a file, "given by --token" ...)
    tournament: Optional[str] = None
    game: str = "chess"
    tc: Optional[str] = None
    penalties: str = "confirm"
    laws: str = registry.LAWS[0]
    teams: Optional[bool] = None   # a team event (None: as the pairings file says)
    team_tiebreaks: Optional[tuple[str, ...]] = None   # --team-tiebreaks (None: the file's, else the Olympiad's)
    scoring: Optional[tuple[float, float]] = None      # --scoring: (win, draw) points (None: each game's scale)
    pairings: Optional[str] = None
    about: Optional[TournamentAbout] = None     # the event file's name, site and date, over every round's file
    pairings_from_games: bool = False
    armageddon: bool = False
    fen: Optional[str] = None
    mirror: Optional[str] = None
    demo: bool = False
    host: str = "127.0.0.1"
    port: int = 8080
    delay: float = 0.0
    frame_ancestors: Optional[str] = None
    sim: int = 0                    # simulated boards in this process
    autoplay: bool = False
    speed: float = 1.0
    seed: int = 1
    think: float = 4.0
    quiet: bool = False
    verbose: bool = False
    mqtt: Optional[MqttSettings] = None
    lichess: Optional[PushSettings] = None


def status_line(event: Event) -> str:
    """The terminal's status line: the round, and how many boards are in each state."""
    d = event.dashboard()
    counts = ", ".join("%d %s" % (n, s.replace("-", " ")) for s, n in d["counts"].items() if n)
    return "status: round %d, %d of %d games finished (%s)" % (d["round"], d["finished"], d["total"], counts)


def feed_lines(url: str, event: Event, delay: float) -> list[str]:
    """The terminal's relay feed lines of the round in play: one per record format its games have (.pgn for
    chess, .pdn for draughts, both for a mixed round), never a feed no game of the round fills."""
    with event.lock:
        formats = {b.spec.record_format for b in event.boards.values()}
        number = event.round.round
    return ["relay feed: %sfeed/%s/%d.%s%s" % (url, event.tournament, number, fmt,
                                               "   (delayed %g s)" % delay if delay else "")
            for fmt in feeds.FORMATS if fmt in formats]


def publisher(settings: MqttSettings, holder: dict[str, Event]) -> mqtt.Publisher:
    """The hall's MQTT link: states out (signed with the key), signed arbiter commands in, carried out on
    holder["event"]'s boards (journaled with their signature as id: a replay after a restart is refused)."""
    if settings.key is None:
        print("event: WARN no MQTT key (--mqtt-key-file, $%s or $FLAGFALL_TOKEN): arbiter commands from MQTT "
              "will be refused, states go out unsigned" % mqtt.KEY_ENV, file=sys.stderr, flush=True)

    def on_command(board: tuple[str, str, str], cmd: dict[str, Any]) -> None:
        ev = holder.get("event")
        where = "/".join(board)
        try:
            if ev is None or board[0] != ev.tournament or board[1] != str(ev.round.round):
                raise ValueError("not a board of this event's round")
            reply = ev.board(int(board[2])).command(cmd)
            ev.log("board %s: MQTT command %s: %s" % (board[2], cmd["action"], reply.get("text", "done")))
        except (KeyError, ValueError) as e:
            print("event: WARN MQTT command on %s not carried out: %s" % (where, str(e).strip("'\"")),
                  file=sys.stderr, flush=True)

    def on_refused(topic: str, why: str) -> None:
        print("event: WARN refused MQTT command on %s: %s" % (topic, why), file=sys.stderr, flush=True)
    return mqtt.Publisher(broker=settings.broker, key=settings.key, on_command=on_command, on_refused=on_refused)


def round_files_key(event: Event) -> tuple[Any, ...]:
    """What the round files are written from: each board's moves and result, and the round's number.
    Files written under another key are stale."""
    key: list[Any] = [event.round.round]
    for n, b in sorted(event.boards.items()):
        if b.engine is not None:
            with b.lock:
                g = b.engine.game
                key.append((n, len(g.moves), g.result, g.reason))
    return tuple(key)


async def serve(settings: EventSettings, rnd: Round, ports: dict[int, str]) -> int:
    """Follow, publish and supervise the round until cancelled; the exit status (2: could not start)."""
    s = settings
    loop = asyncio.get_running_loop()
    hub = Hub(loop)
    feed = web.DelayedFeed(hub, loop, s.delay)
    pub = None
    holder: dict[str, Event] = {}
    if s.mqtt is not None:
        pub = publisher(s.mqtt, holder)
        try:
            await loop.run_in_executor(None, pub.start)
        except ConnectionError as e:
            print("event: --mqtt: %s" % e, file=sys.stderr)
            return 2

    def publish(state: dict[str, Any]) -> None:
        feed(state)
        if pub is not None:
            pub.publish_state(state)

    log = (lambda text: None) if s.quiet else (lambda text: print(text, flush=True))
    games = DEMO_GAMES if s.demo else None
    try:
        event = Event(rnd, tournament=s.tournament, out_dir=s.out, game=s.game, tc=s.tc,
                      penalties=s.penalties, laws=s.laws, publish=publish, log=log, pairings_path=s.pairings,
                      armageddon=s.armageddon, games=games, fen=s.fen,
                      pairings_from_games=s.pairings_from_games, mirror=s.mirror,
                      verbose=s.verbose, teams=s.teams, about=s.about, team_tiebreaks=s.team_tiebreaks,
                      scoring=s.scoring)
    except OSError as e:
        if pub is not None:
            pub.stop()
        folder = os.path.abspath(e.filename if isinstance(e.filename, str) else s.out)
        which = "--mirror" if s.mirror and folder.startswith(os.path.abspath(s.mirror)) else "--out"
        print("event: cannot write to the %s folder %s: %s (%s names another folder)"
              % (which[2:], folder, e.strerror or e, which), file=sys.stderr)
        return 2
    if s.quiet:
        event.warn = lambda text: print("event: WARN %s" % text, file=sys.stderr, flush=True)
    tables: list[SimulatedTable] = []

    def stop_all() -> None:
        """What a failed start leaves running: the simulated tables, the boards, the MQTT link."""
        for t in tables:
            t.close()
        event.stop()
        if pub is not None:
            pub.stop()

    try:
        for number, device in sorted(ports.items()):
            event.add_board(number, device)
        if s.sim:
            for p in rnd.boards[:s.sim]:
                tables.append(SimulatedTable(event.board(p.board), speed=s.speed, seed=s.seed,
                                             source=round_game(event, p.board) if s.autoplay else None,
                                             think_s=s.think))
        for b in event.boards.values():
            b.ensure_engine()        # a journal that cannot be resumed quarantines its board alone
        if pub is not None:
            for b in event.boards.values():      # commands carried out before a restart stay carried out
                pub.seen.update(b.command_ids())
            holder["event"] = event
    except (OSError, ValueError) as e:
        stop_all()
        if isinstance(e, OSError):      # the disk refuses the boards' journals or records
            print("event: cannot write the boards' files (%s): %s" % (e.filename or os.path.abspath(s.out),
                                                                      e.strerror or e), file=sys.stderr)
        else:
            print("event: %s" % e, file=sys.stderr)
        return 2
    try:
        push = RoundPushes(s.lichess, event, hub, s.out, log=lambda text: print(text, flush=True),
                           delay_s=s.delay) if s.lichess is not None else None
        if push is not None:
            event.on_round.append(push.on_round)
            event.dashboard_extras["lichess"] = push.status
            await push.start()        # says where the round is pushed; refuses a round Lichess cannot take
        app = server.make_app(hub, s.token, frame_ancestors=s.frame_ancestors)
        web.attach(app, event)
        runner = await server.start(app, s.host, s.port)
    except (OSError, ValueError) as e:
        stop_all()
        if isinstance(e, OSError):
            raise
        print("event: %s" % e, file=sys.stderr)
        return 2
    url = "http://%s:%d/" % (s.host if s.host != "0.0.0.0" else "127.0.0.1", server.bound_port(runner))
    print("Flagfall event: %s round %d, %d boards; live at %s" % (event.tournament, rnd.round, len(event.boards), url),
          flush=True)
    print("arbiter: %sarbiter   token: %s" % (url, s.token_where), flush=True)
    if pub is not None:
        print("publishing to %s as %s/%d" % (pub.broker.url(), event.tournament, rnd.round), flush=True)
    for line in feed_lines(url, event, s.delay):
        print(line, flush=True)
    if not s.quiet:
        print("Ctrl-C stops it (the boards' journals and the round files are kept in %s)" % s.out, flush=True)
    stepper = threading.Thread(target=event.run, name="event-boards", daemon=True)
    stepper.start()
    if event.round.round > 1:       # a restart in a later round: the earlier rounds' games are served again
        shown = await loop.run_in_executor(None, event.publish_past_rounds)
        if shown and not s.quiet:
            print("earlier rounds: %d games shown again from their journals" % shown, flush=True)
    for t in tables:
        t.start()
    written: Optional[tuple[Any, ...]] = None      # round_files_key() when the round's files were last written
    files_refused: Optional[str] = None     # why a full disk refuses the finished round's files, while it does
    files_at = 0.0
    if tables:
        def next_games(ev: Event) -> None:
            for t in tables:
                if t.board.number in ev.boards:
                    t.next_round(ev.board(t.board.number), round_game(ev, t.board.number) if s.autoplay else None)
        event.before_round.append(next_games)
    try:
        current = event.round.round
        status_at = loop.time() + STATUS_EVERY_S
        while True:
            await asyncio.sleep(1.0)
            if not stepper.is_alive():
                # the boards are no longer followed, for good: a supervisor must see it
                print("event: the boards' loop ended unexpectedly; no board is followed any more",
                      file=sys.stderr, flush=True)
                return 1
            if event.round.round != current:          # the arbiter loaded another round: its feeds
                current, written, files_refused = event.round.round, None, None
                for line in feed_lines(url, event, s.delay):
                    print(line, flush=True)
            if loop.time() >= status_at:
                status_at = loop.time() + STATUS_EVERY_S
                if not s.quiet:
                    print(status_line(event), flush=True)
                for text in event.storage_problems():    # a full disk is said every minute until it has room
                    event.warn("storage: %s" % text)
                if files_refused:
                    event.warn("storage: %s" % files_refused)
            with event.lock:       # not while a round is being loaded
                done = event.round.round == current and event.finished()
            if done and written != round_files_key(event) and loop.time() >= files_at:
                # written when the round is done, and again when a game changes after that (moves the
                # arbiter enters after a result, a result corrected)
                key = round_files_key(event)
                try:
                    paths = await loop.run_in_executor(None, event.write_round_files)
                except OSError as e:
                    if not disk_full(e):
                        raise
                    files_at = loop.time() + ROUND_FILES_RETRY_S
                    said, files_refused = files_refused, (
                        "cannot write round %d's files (%s): written when the disk has room (every game is in "
                        "its journal or held in memory)" % (event.round.round, e.strerror or e))
                    if not said:        # then every minute with the boards' storage lines
                        event.warn("storage: %s" % files_refused)
                    continue
                first, written, files_refused = written is None, key, None
                if first:
                    print("round %d finished: %s" % (event.round.round, ", ".join(paths)), flush=True)
    finally:
        event.stop()           # the boards first: the simulated devices going away is no unplugging
        for t in tables:
            t.close()
        if written != round_files_key(event):
            try:
                paths = event.write_round_files()
                print("round files so far: %s" % ", ".join(paths), flush=True)
            except OSError as e:
                print("event: cannot write the round files: %s" % e, file=sys.stderr)
        if pub is not None:
            pub.stop()
        if push is not None:
            await push.close()
        await runner.cleanup()
