"""Follow a game on a reed-switch board: rebuild the moves, check them, record them live.

PORT is a serial device (/dev/ttyACM0, COM3) or any pyserial URL
(socket://127.0.0.1:7777 for the simulator, rfc2217://host:port). The
bridge checks the device's hello (protocol, board size for the game) and the
start position (a mismatch is listed as the squares to fix), then follows
the game: moves are committed when the clock is pressed (or, with no clock,
when the board has settled), checked against the rules, and written to the
record in OUT (PGN for chess with [%clk], PDN for draughts, minzu record)
after every move.

Started before the board is there, it says once which serial ports it sees
and waits; nothing is written until the device has answered.

Everything received is first appended to the journal OUT/NAME.journal
(fsync'd). Started again after a crash (kill -9, power cut) with the same
--out and --name, the bridge resumes the same game from its journal. USB
unplugged and plugged back: it reconnects and resynchronises by itself.

Decisions are printed on stdout, one per line; the command ends when the
game has a result (exit 0), or with exit 3 if the device does not fit the game.

Operator commands are read from stdin, one per line (journaled like
everything else): `move Bxe5` (confirm the move the board shows, e.g. an
ambiguous capture), `moves Nf3 d6 Bc4` (moves made while the board was
disconnected), `promote 12 n` (the piece of the promotion at ply 12, 0-based),
`result 1-0 [reason]`, `takeback`, `clear`, or a JSON arbiter command of
docs/live-state.md ({"action": "fix_move", "ply": 3, "move": "Nf3"}).

A line or frame from the device that cannot be right (bad checksum, a value
out of range, a SNAP of the wrong size, a HELLO changing the board mid-game)
is logged as a WARN on stderr, noted in the journal and ignored; the game goes
on. A journal that was edited (hash chain), cut off (its record holds more
moves) or lacks a key is refused with a message saying so (docs/bridge.md).
With --mqtt, arbiter commands from the broker are obeyed only when signed with
the key (--mqtt-key-file, $FLAGFALL_MQTT_KEY or $FLAGFALL_TOKEN, docs/broadcast.md).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    from flagfall.bridge.decisions import Decision
    from flagfall.bridge.engine import BridgeEngine
    from flagfall.bridge.session import Session
    from flagfall.mqtt import Publisher
    from flagfall.serial_link import SerialLink

NAME = "bridge"
HELP = "follow a game on a sensor board over serial/pyserial URL; journal and live record"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from flagfall.games import registry
    p.add_argument("--port", required=True, help="serial device or pyserial URL (socket://host:port, rfc2217://...)")
    p.add_argument("--game", required=True,
                   help="chess, draughts, brazilian, russian, checkers or minzu (9x9; minzu6, minzu7x8 ... for other sizes)")
    p.add_argument("--tc", help="time control text or preset name, sent to the clock and recorded")
    p.add_argument("--fen", help="start position (FEN; X-FEN or Shredder-FEN for chess960; PDN FEN for draughts)")
    p.add_argument("--position", type=int, metavar="N",
                   help="chess960: the start position's number 0..959 (518 is the standard array)")
    p.add_argument("--out", default=".", help="directory for the record and the journal (default .)")
    p.add_argument("--name", default="board", help="base name of the record and journal files (default board)")
    p.add_argument("--new", action="store_true", help="start a new game even if an unfinished journal exists")
    p.add_argument("--settle-ms", type=int, default=1500,
                   help="how long the board must be still before a move counts without a clock (default 1500)")
    p.add_argument("--no-clock", action="store_true", help="ignore the clock: commit moves when the board settles")
    p.add_argument("--penalties", choices=("confirm", "auto"), default="confirm",
                   help="illegal-move penalties: confirm (default; the arbiter applies them, FIDE 7.5) or "
                        "auto (the bridge applies the ruleset's policy itself)")
    p.add_argument("--laws", choices=registry.LAWS, default=registry.LAWS[0],
                   help="chess: the FIDE Laws edition whose illegal-move penalty applies (default %s, the Laws in "
                        "force: the second illegal move loses, art. 7.5.5; fide-2000: the third, art. 7.4); "
                        "draughts and minzu keep their rulebooks' policies" % registry.LAWS[0])
    p.add_argument("--armageddon", action="store_true",
                   help="an Armageddon game: a draw counts as a win for Black in the match (the record keeps the "
                        "result as played with [Armageddon] and [Decision] tags; time odds go in --tc, e.g. W300-B240)")
    p.add_argument("--baud", type=int, default=115200,
                   help="serial speed in bit/s (default 115200; USB CDC ports such as the Pico's ignore it)")
    p.add_argument("--no-stdin", action="store_true", help="do not read operator commands from stdin")
    for tag in ("white", "black", "event", "site", "round"):
        p.add_argument("--" + tag, help="%s tag of the record" % tag.capitalize())
    p.add_argument("--tournament", default="local",
                   help="live-state identity: tournament slug (with a numbered --round and --board, also "
                        "the Event tag when --event is not given)")
    p.add_argument("--board",
                   help="live-state identity: board slug (default 1); with a numbered --round, the record carries the "
                        "identity tags of an event's board: Round \"R.B\", Board, Event, Date and a stable GameId")
    p.add_argument("--mqtt", metavar="URL",
                   help="publish every state to this MQTT broker (retained, topics "
                        "flagfall/TOURNAMENT/ROUND/BOARD/state, docs/live-state.md) and take signed "
                        "arbiter commands from its command topic: HOST[:PORT], "
                        "mqtt://[user[:password]@]host[:port] or mqtts://... (TLS); the password may be "
                        "given in $FLAGFALL_MQTT_PASSWORD instead")
    p.add_argument("--mqtt-ca", metavar="FILE", help="CA certificate file for an mqtts:// broker (implies TLS)")
    p.add_argument("--mqtt-key-file", metavar="FILE",
                   help="the event key (first line of FILE) that arbiter commands must be signed with, also "
                        "signing this bridge's states (default: $FLAGFALL_MQTT_KEY, else $FLAGFALL_TOKEN, the "
                        "arbiter token of the broadcast server); without a key, commands over MQTT are refused")


def stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and a service manager's stop (SIGTERM) end the bridge the same way, its journal
    and record closed, even when it was started with SIGINT ignored (a background job of a script
    inherits that, and Python then leaves SIGINT ignored)."""
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.default_int_handler)


def run(args: argparse.Namespace) -> int:
    from flagfall.bridge import engine as eng_mod, journal
    from flagfall.bridge.session import Session
    from flagfall.games import registry
    from flagfall.serial_link import SerialLink, wait_for_device
    stop_on_signals()
    try:
        registry.lookup(args.game)
    except ValueError as e:
        print("bridge: --game: %s" % e, file=sys.stderr)
        return 2
    fen: Optional[str] = args.fen
    try:
        start = registry.make_adapter(args.game, fen=fen, position=args.position)
    except TypeError:
        print("bridge: --position is for chess960", file=sys.stderr)
        return 2
    except ValueError as e:
        print("bridge: %s: %s" % ("--position" if args.position is not None else "--fen", e), file=sys.stderr)
        return 2
    if fen or args.position is not None:
        fen = start.position()
    if args.tc:
        from flagfall import presets
        from flagfall.commands._hints import tc_hint
        try:
            presets.time_control(args.tc)
        except ValueError as e:
            print("bridge: --tc: %s%s" % (e, tc_hint(args.tc)), file=sys.stderr)
            return 2
    jpath = os.path.join(args.out, args.name + ".journal")
    resumed = False
    if os.path.exists(jpath) and not args.new:
        try:
            eng = eng_mod.resume(jpath)
        except (journal.JournalError, ValueError, KeyError, TypeError, IndexError) as e:
            print("bridge: cannot resume from %s: %s%s (use --new to start a new game; the old journal and "
                  "record are kept)" % (jpath, "" if isinstance(e, ValueError) else type(e).__name__ + ": ", e),
                  file=sys.stderr)
            return 2
        if eng.game.name != args.game:
            print("bridge: %s holds a %s game, not %s (use --new)" % (jpath, eng.game.name, args.game),
                  file=sys.stderr)
            return 2
        resumed = True
        for note in eng.quarantined:
            print("bridge: WARN journal %s: %s" % (jpath, note), file=sys.stderr, flush=True)
        if eng.resume_note:
            print("bridge: WARN %s" % eng.resume_note, file=sys.stderr, flush=True)
        print("resumed %s: %d moves, result %s" % (jpath, len(eng.game.moves), eng.game.result), flush=True)
        if eng.game.result != "*":
            return 0
    pub: Optional[Publisher] = None
    holder: dict[str, Session] = {}       # the session, once there is one: MQTT arbiter commands go to its queue
    if args.mqtt:     # a broker that does not answer is an error now, not after the device is found
        pub = _connect_publisher(args, holder)
        if pub is None:
            return 2
        if resumed:     # the signed commands carried out before the restart: a replay is refused
            pub.seen.update(journal.command_ids(journal.load(jpath)[1]))
    # a new game: nothing is written (journal, record) until a device has answered on the port
    # (a resumed game has its files already: its session waits for the port by itself)
    first: Optional[SerialLink] = None
    if not resumed:
        try:
            first = wait_for_device(args.port, args.baud,
                                    log=lambda text: print("bridge: " + text, file=sys.stderr, flush=True))
        except KeyboardInterrupt:
            if pub is not None:
                pub.stop()
            raise
    if not resumed:
        os.makedirs(args.out, exist_ok=True)
        if os.path.exists(jpath):
            # the old journal and its record are kept as NAME.journal.K and NAME.EXT.K
            from flagfall.bridge import records
            rpath = os.path.join(args.out, "%s.%s" % (args.name, records.extension(args.game)))
            k = 1
            while os.path.exists("%s.%d" % (jpath, k)) or os.path.exists("%s.%d" % (rpath, k)):
                k += 1
            os.replace(jpath, "%s.%d" % (jpath, k))
            if os.path.exists(rpath):
                os.replace(rpath, "%s.%d" % (rpath, k))
                print("bridge: the previous game is kept as %s.%d and %s.%d" % (jpath, k, rpath, k), flush=True)
        tags = identity_tags(args)
        eng = eng_mod.BridgeEngine(args.game, journal_path=jpath, out_dir=args.out,
                                   clock_mode=False if args.no_clock else None, settle_ms=args.settle_ms,
                                   tags=tags, tc=args.tc,
                                   identity=[args.tournament, args.round or "1", args.board or "1"],
                                   record_name=args.name, penalties=args.penalties, armageddon=args.armageddon,
                                   fen=fen, laws=args.laws)
        eng.write_record()
    eng.on_storage = lambda text: print("bridge: %s" % text, flush=True)
    answered = [first] if first else []     # the session's first link is the one that answered
    sess = Session(args.port, eng, baudrate=args.baud,
                   opener=lambda: answered.pop() if answered else SerialLink.open(args.port, args.baud))
    if not args.no_stdin:
        sess.read_commands(sys.stdin)
    if pub is not None:
        _attach_publisher(pub, eng, sess, holder)
    if args.tc and not resumed:
        sess.pending_tc = args.tc
    bad: list[str] = []

    def show(decs: list[Decision]) -> None:
        for d in decs:
            print(d.describe(), flush=True)
        if eng.hello_problem:
            bad.append(eng.hello_problem)

    try:
        sess.run(stop=lambda: bool(bad), on_decisions=show)
    except KeyboardInterrupt:
        sess.close()
        return 130
    finally:
        if pub is not None:
            pub.stop()
    sess.close()
    if bad:
        print("bridge: device does not fit: %s" % bad[0], file=sys.stderr)
        return 3
    print("record: %s" % eng.record_path, flush=True)
    return 0


def identity_tags(args: argparse.Namespace) -> dict[str, str]:
    """The record's tags. With a numbered --round and --board (a board of a tournament's round, e.g.
    one hall of several publishing to one broker), the identity an event's board has - Event, Site,
    Date, Round "R.B", Board, White, Black, GameId (flagfall.tournament.model.board_tags) - so that a relay
    or any reader tells the boards apart; otherwise the tags given."""
    if args.round and args.board and args.round.isdigit() and args.board.isdigit():
        from flagfall.tournament import model
        rnd = model.Round(tournament_name=args.event, city=args.site, date=None, time_control=None,
                          round=int(args.round), boards=[])
        pairing = model.Pairing(int(args.board), model.Player(args.white or "?"), model.Player(args.black or "?"))
        return model.board_tags(pairing, rnd, args.tournament, args.tc)
    tags: dict[str, str] = {}
    for tag in ("white", "black", "event", "site", "round"):
        v = getattr(args, tag)
        if v:
            tags[tag.capitalize()] = v
    return tags


def _connect_publisher(args: argparse.Namespace, holder: dict[str, Session]) -> Optional[Publisher]:
    """Connect to the broker (None after printing why not); signed arbiter commands arriving on
    paho's thread go to the operator queue of holder["session"] once it exists (dropped before)."""
    import json
    from flagfall import mqtt
    try:
        broker = mqtt.parse_broker(args.mqtt, ca=args.mqtt_ca)
        key = mqtt.read_key(args.mqtt_key_file, fallback_env="FLAGFALL_TOKEN")
    except (ValueError, OSError) as e:
        print("bridge: --mqtt: %s" % e, file=sys.stderr)
        return None
    if key is None:
        print("bridge: WARN no MQTT key (--mqtt-key-file, $%s or $FLAGFALL_TOKEN): arbiter commands from MQTT "
              "will be refused, states go out unsigned" % mqtt.KEY_ENV, file=sys.stderr, flush=True)

    def on_command(topic: tuple[str, str, str], cmd: dict[str, Any]) -> None:
        sess = holder.get("session")
        if sess is not None and sess.commands is not None:   # _attach_publisher gave it a queue first
            sess.commands.append(json.dumps(cmd))

    def on_refused(topic: str, why: str) -> None:
        sess = holder.get("session")
        if sess is not None:
            sess.refused.append("MQTT command on %s: %s" % (topic, why))
        else:
            print("bridge: refused MQTT command on %s: %s" % (topic, why), file=sys.stderr, flush=True)
    pub = mqtt.Publisher(broker=broker, key=key, on_command=on_command, on_refused=on_refused)
    try:
        pub.start()
    except ConnectionError as e:
        print("bridge: %s" % e, file=sys.stderr)
        return None
    return pub


def _attach_publisher(pub: Publisher, eng: BridgeEngine, sess: Session, holder: dict[str, Session]) -> None:
    """States out (retained), arbiter commands in through the session's operator queue."""
    if sess.commands is None:
        sess.commands = []
    holder["session"] = sess
    eng.publish = lambda state, decs: pub.publish_state(state)
    pub.publish_state(eng.next_state())
    if not pub.commands_ready():
        print("bridge: WARN the MQTT broker has not acknowledged the subscription to the arbiter's commands yet: "
              "a command sent now may be lost (resend it)", file=sys.stderr, flush=True)
    print("publishing to %s as %s" % (pub.broker.url(), "/".join(eng.header["identity"])), flush=True)
