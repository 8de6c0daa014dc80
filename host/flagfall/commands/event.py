"""Run a tournament round: pairings in, every board followed and broadcast, results out.

    flagfall event --pairings round4.trf --round 4 --sim 8 --autoplay
    flagfall event --pairings round4.pgn --round 4 --boards boards.txt --tc 5400+30 --delay 900

Reads the round's pairings (the pairing program's PGN, a FIDE TRF16/TRF26,
or a CSV board,white,black), follows every board (a device per board: from
--boards FILE, every Flagfall device found with --boards auto, or N
simulated boards with --sim N), serves the live broadcast with relay-ready
feeds (/feed/<tournament>/<round>.pgn) and the arbiter's dashboard
(/arbiter), and writes OUT/round-R.pgn and, for a TRF, OUT/round-R-results.trf
when every game has a result (or when the arbiter asks). Killing it and
starting it again with the same arguments resumes every board, in the round
being played (OUT/round-in-play.json: after "Load next round", that round;
--mirror DIR keeps a second copy of every journal on another disk); a board
whose journal cannot be resumed is quarantined alone, for the arbiter to
start again from its device. The arbiter token is kept in OUT/arbiter-token
(mode 0600) unless given, so an open dashboard keeps working across
restarts; the printed URLs carry no secret. The terminal shows the URLs,
one line per alert, result and round change and a status line every minute
(every move with --verbose). With --mqtt (user in the URL, password from
$FLAGFALL_MQTT_PASSWORD or --mqtt-password-file) the event is one hall of a
multi-hall set-up: signed states out, signed arbiter commands in. See
docs/event.md.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
from typing import TYPE_CHECKING, Any, Optional

from flagfall.secretfile import read_secret

if TYPE_CHECKING:
    from flagfall.event.service import MqttSettings
    from flagfall.tournament.model import TournamentAbout

NAME = "event"
HELP = "run a tournament round: pairings in, many boards, relay-ready feeds, arbiter dashboard, results out"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from flagfall.event.eventfile import Sections
    from flagfall.games import registry
    from flagfall.broadcast import lichess_push
    from flagfall.commands import FRAME_ANCESTORS_HELP
    p.add_argument("event_file", nargs="?", metavar="EVENT.toml",
                   help="the event file: every option below in its [section] (docs/event.md, The event file); "
                        "a flag given here overrides the file")
    p.add_argument("--print-config", action="store_true",
                   help="print the event file that the file and flags given mean, and stop (move an event run "
                        "with flags over to a file: flagfall event --pairings ... --print-config > event.toml)")
    p.add_argument("--quiet", action="store_true", help="print only the URLs and where the token is")
    p.add_argument("--verbose", action="store_true", help="also print a line for every move of every board")
    sections = Sections(p)
    p.set_defaults(_event_sections=sections)
    t = sections.section("tournament", "the tournament and its rules")
    t.add_argument("--demo", action="store_true",
                   help="the demo (make run): a bundled three-round open on six simulated boards, four chess and "
                        "two draughts, playing real games; the dashboard's 'Load next round' plays the next")
    t.add_argument("--name", help="the tournament's name in the records and pages (default: the pairings file's)")
    t.add_argument("--site", help="where it is played, the records' Site (default: the pairings file's)")
    t.add_argument("--date", help="its first day, YYYY-MM-DD (default: the pairings file's)")
    t.add_argument("--tournament", metavar="SLUG", key="slug",
                   help="tournament slug in URLs and topics (default: from the event name)")
    t.add_argument("--game", default="chess",
                   help="the game of every board (default chess; chess960, draughts, russian, ...)")
    t.add_argument("--position", type=int, metavar="N",
                   help="chess960: the round's start position by number 0..959 (every board starts from it)")
    t.add_argument("--fen", help="every board's start position (FEN; X-FEN or Shredder-FEN for chess960)")
    t.add_argument("--tc", key="time-control",
                   help="time control sent to every clock (default: the TRF's 222 line, else the device's)")
    t.add_argument("--laws", choices=registry.LAWS, default=registry.LAWS[0],
                   help="chess: the FIDE Laws edition whose illegal-move penalty applies (default %s, the Laws in "
                        "force: the second illegal move loses, art. 7.5.5; fide-2000: the third, art. 7.4); "
                        "draughts and minzu keep their rulebooks' policies" % registry.LAWS[0])
    t.add_argument("--penalties", choices=("confirm", "auto"), default="confirm",
                   help="illegal-move penalties: confirmed by the arbiter (default) or applied by the bridge")
    t.add_argument("--armageddon", action="store_true",
                   help="Armageddon games: a draw counts as a win for Black in the match (the result is kept as "
                        "played; the decision is published beside it, docs/clock.md); time odds go in --tc, "
                        "e.g. W300-B240")
    t.add_argument("--scoring", metavar="WIN-DRAW-LOSS",
                   help="the event's own points for a win, a draw and a loss (e.g. 3-1-0) in the standings, their "
                        "page and the results TRF (declared there as a TRF26 162 record); default: each game's own "
                        "scale, chess 1-1/2-0, draughts 2-1-0; a TRF's own 162 (or bbpPairings' BBW...) stands above "
                        "both")
    t.add_argument("--teams", action="store_true", default=None,
                   help="a team event: the boards are played as matches between the teams of the pairing PGN's "
                        "WhiteTeam/BlackTeam tags, the CSV's team columns or a TRF16's 013 records (a TRF26 with "
                        "310 team records is one without this flag); see docs/event.md, Team events")
    t.add_argument("--team-tiebreaks", metavar="LIST",
                   help="a team event's tie-breaks, in FIDE C.07 codes as TRF26 212 writes them, e.g. "
                        "MPTS,ESB:MG/C1,GPTS,BH:MP/C1 (the Olympiad's, the default) or PTS,BC,BBE; they rank "
                        "the team standings and the results TRF's 310 lines (default: the TRF's 212/202 "
                        "list, else the Olympiad's); see docs/event.md, Team events")
    q = sections.section("pairings", "the pairing program's file")
    q.add_argument("--pairings", metavar="FILE", key="file", path=True,
                   help="the round's pairings: the pairing program's PGN, a FIDE TRF (TRF16/TRF26) or a CSV "
                        "board,white,black[,white_fide_id,black_fide_id]")
    q.add_argument("--round", type=int, metavar="R", help="the round to play (with --demo: 1)")
    q.add_argument("--pairings-from-games", action="store_true", key="from-games",
                   help="take a PGN of played games (a broadcast export, last round's games) as the pairings: "
                        "its players are paired as in its games, its moves and results are ignored (without "
                        "this flag such a file is refused, being the easy mistake)")
    b = sections.section("boards", "where the boards are")
    b.add_argument("--boards", metavar="FILE|auto", key="map", path=True,
                   help="board numbers to serial ports or USB serial numbers ('1 /dev/ttyACM0' per line), or "
                        "auto: every Flagfall device found, in port order (see flagfall ports); not with --sim")
    b.add_argument("--sim", type=int, metavar="N", help="N simulated boards in this process (real firmware, fake hardware)")
    b.add_argument("--autoplay", action="store_true", help="with --sim: the simulated boards play bundled real games")
    b.add_argument("--speed", type=float, default=1.0, help="with --sim: simulated time runs this many times faster")
    b.add_argument("--think", type=float, default=4.0, help="with --autoplay: average think time per move, seconds")
    b.add_argument("--seed", type=int, default=1, help="with --sim: random seed of the simulated hands")
    w = sections.section("web", "the live pages, the feeds and the arbiter's dashboard")
    w.add_argument("--host", default="127.0.0.1", help="web server address (default 127.0.0.1)")
    w.add_argument("--port", type=int, default=8080, metavar="HTTP", help="web server port (default 8080)")
    w.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                   help="the public page and feeds lag this much (FIDE events: 900); the arbiter's view is live")
    w.add_argument("--frame-ancestors", metavar="SOURCES", help=FRAME_ANCESTORS_HELP)
    w.add_argument("--token-file", metavar="PATH", path=True,
                   help="arbiter token from this file (its first line); default OUT/arbiter-token (mode 0600)")
    w.add_argument("--token", in_file=False,
                   help="arbiter token (visible in `ps`: prefer --token-file or $FLAGFALL_TOKEN; default: the one "
                        "kept in OUT/arbiter-token, made at the first start; never in the event file)")
    st = sections.section("storage", "journals, records and results")
    st.add_argument("--out", default=os.path.join("out", "event"), path=True,
                    help="folder for journals, records and results (default out/event)")
    st.add_argument("--mirror", metavar="DIR", path=True,
                    help="also write every board's journal to DIR (another disk or a USB stick): a full or failing "
                         "disk plus a crash loses nothing; a restart resumes from the longer valid copy")
    m = sections.section("mqtt", "one hall of a multi-hall event", prefix="mqtt-")
    m.add_argument("--mqtt", metavar="URL", key="url",
                   help="also publish every board's state to this MQTT broker (one hall of a multi-hall event, "
                        "docs/event.md) and take signed arbiter commands from it: mqtt://[user@]host[:port] or "
                        "mqtts://... (TLS); the password comes from $FLAGFALL_MQTT_PASSWORD or --mqtt-password-file "
                        "(a password in the URL works but is visible in `ps`, and is refused in the event file)")
    m.add_argument("--mqtt-password-file", metavar="FILE", path=True, help="the MQTT password (first line of FILE)")
    m.add_argument("--mqtt-ca", metavar="FILE", path=True, help="CA certificate file for an mqtts:// broker (implies TLS)")
    m.add_argument("--mqtt-key-file", metavar="FILE", path=True,
                   help="the event key (first line of FILE) that arbiter commands over MQTT must be signed with, "
                        "also signing the states (default: $FLAGFALL_MQTT_KEY, else $FLAGFALL_TOKEN); without a "
                        "key, commands over MQTT are refused")
    li = sections.section("lichess", lichess_push.GROUP_TITLE, prefix="lichess-")
    lichess_push.add_arguments(li)
    li.add_argument("--lichess-rounds", metavar="R=ID[:FIRST-LAST],...;...", table=True,
                    help="each round's Lichess round, e.g. '1=AbCdEfGh;2=IjKlMnOp' (the event file: rounds = "
                         "{1 = \"AbCdEfGh\", 2 = \"IjKlMnOp\"}): a round loaded from the dashboard starts pushing "
                         "to its own at once; --lichess-round is the round played at the start's")
    li.add_argument("--lichess-tournament", metavar="TOURID",
                    help="the Lichess broadcast tournament (the 8 characters of its URL) whose rounds the event makes "
                         "through Lichess's API as it loads them ('Round R', kept in OUT/lichess-rounds.json: a "
                         "restart does not make one twice), for the rounds --lichess-rounds does not give")


def file_defaults(args: argparse.Namespace) -> dict[str, Any]:
    """The options the event file named by `args` sets (none without one); EventFileError (a
    ValueError) saying the file, line and key of a mistake."""
    from flagfall.event import eventfile
    if not args.event_file:
        return {}
    return eventfile.load(args.event_file, args._event_sections)


ROUND_FILE = "round-in-play.json"     # flagfall.event.runner.ROUND_FILE (not imported: startup stays light)
TOKEN_FILE = "arbiter-token"


def _round_in_play(out: str, pairings: str) -> Optional[int]:
    """The round the event in `out` was playing with these pairings (OUT/round-in-play.json), if any."""
    import json
    try:
        with open(os.path.join(out, ROUND_FILE), encoding="utf-8") as f:
            kept = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict) or kept.get("pairings") != pairings:
        return None
    r = kept.get("round")
    return r if isinstance(r, int) and not isinstance(r, bool) and r >= 1 else None


def arbiter_token(args: argparse.Namespace) -> tuple[str, str]:
    """(token, where it is for the terminal): --token-file, --token, $FLAGFALL_TOKEN, else the one
    kept in OUT/arbiter-token (made, mode 0600, at the first start). ValueError for a bad file."""
    from flagfall.broadcast import auth
    from flagfall.bridge.journal import disk_full
    if args.token_file or args.token or os.environ.get("FLAGFALL_TOKEN"):
        token, source = auth.resolve_token(args.token, args.token_file)
        where = {"file": args.token_file, "argument": "given by --token", "env": "$FLAGFALL_TOKEN"}[source]
        return token, where
    path = os.path.join(args.out, TOKEN_FILE)
    if os.path.exists(path) and os.path.getsize(path) > 0:
        return auth.resolve_token(None, path)[0], path
    # none kept (or an empty file: a start whose disk refused the token, killed before removing it)
    token = auth.new_token()
    try:
        os.makedirs(args.out, exist_ok=True)
        if os.path.exists(path):
            os.remove(path)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(token + "\n")
        except OSError:
            os.remove(path)
            raise
    except OSError as e:
        if not disk_full(e):
            raise
        # a full disk (which may refuse even the file) does not stop the event: the token is shown instead
        return token, "%s (not kept in %s: %s; a restart makes a new one)" % (token, path, e.strerror)
    return token, path


def _fail(text: str) -> int:
    print("event: %s" % text, file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from flagfall.tournament import pairings as pairings_mod
    from flagfall.games import registry
    if args.print_config:
        from flagfall.event import eventfile
        print(eventfile.dump(args, args._event_sections, header="# flagfall event: written by --print-config "
                                                                "(docs/event.md, The event file)"), end="")
        return 0
    if args.boards and args.sim:
        return _fail("the boards are given twice, as a map (--boards, [boards] map) and as --sim N ([boards] sim): "
                     "give one")
    try:
        about = _tournament_about(args)
    except ValueError as e:
        return _fail(str(e))
    if args.demo:
        if args.pairings or args.boards:
            return _fail("--demo brings its own pairings and simulated boards (no --pairings, --boards)")
        from importlib import resources
        args.pairings = str(resources.files("flagfall.demo_games").joinpath("demo-round.pgn"))
        args.round = args.round or 1
        args.sim = args.sim or 6
        args.autoplay = True
        args.tc = args.tc or "5400+30"
        args.tournament = args.tournament or "demo"
    if not args.pairings or args.round is None:
        return _fail("give --pairings FILE and --round R (or --demo)")
    in_play = None if args.demo else _round_in_play(args.out, args.pairings)   # the demo plays afresh
    if in_play is not None and in_play > args.round:
        print("event: resuming round %d, the round in play (%s; --round %d was given)"
              % (in_play, os.path.join(args.out, ROUND_FILE), args.round), flush=True)
        args.round = in_play
    if not (args.boards or args.sim):
        return _fail("give --boards FILE|auto or --sim N: where the boards are")
    if args.round < 1:
        return _fail("--round must be 1 or more")
    if not 0 < args.port < 65536 and args.port != 0:
        return _fail("--port must be 0-65535")
    if args.autoplay and not args.sim:
        return _fail("--autoplay needs --sim N")
    if args.delay < 0 or args.speed <= 0:
        return _fail("--delay must be 0 or more and --speed above 0")
    if args.frame_ancestors is not None:
        from flagfall.broadcast.pages import check_frame_ancestors
        try:
            check_frame_ancestors(args.frame_ancestors)
        except ValueError as e:
            return _fail("--frame-ancestors: %s" % e)
    scoring = None
    if args.scoring is not None:
        from flagfall.tournament import standings
        try:
            scoring = standings.parse_scoring(args.scoring)
        except ValueError as e:
            return _fail("--scoring: %s" % e)
    team_tiebreaks = None
    if args.team_tiebreaks is not None:
        from flagfall.tournament import team_standings
        try:
            team_tiebreaks = team_standings.parse_tiebreaks(args.team_tiebreaks)
        except team_standings.TiebreakError as e:
            return _fail("--team-tiebreaks, character %d: %s" % (e.offset + 1, e.message))
    push = None
    if args.lichess_round or args.lichess_rounds or args.lichess_tournament:
        from flagfall.broadcast import lichess_push
        try:
            push = lichess_push.settings_from_arguments(args)
        except ValueError as e:
            return _fail(str(e))
    try:
        registry.lookup(args.game)
        if args.fen or args.position is not None:
            args.fen = registry.make_adapter(args.game, fen=args.fen, position=args.position).position()
    except TypeError:
        return _fail("--position is for chess960")
    except ValueError as e:
        return _fail(str(e))
    try:
        rnd = pairings_mod.read_pairings(args.pairings, args.round, from_games=args.pairings_from_games,
                                         teams=args.teams, about=about)
    except OSError as e:
        return _fail("cannot read %s: %s" % (args.pairings, e.strerror or e))
    except ValueError as e:
        return _fail(str(e))
    for w in rnd.warnings:
        print("event: %s" % w, file=sys.stderr, flush=True)
    if not rnd.boards:
        return _fail("%s has no boards in round %d" % (args.pairings, args.round))
    if scoring is not None and args.pairings:
        # a TRF's own scoring stands above the event's (Trf.score): said now, not found in the standings
        from flagfall import records
        from flagfall.tournament import trf as trf_mod
        text = records.read_text(args.pairings)
        if pairings_mod.kind_of(args.pairings, text) == "trf":
            own = trf_mod.parse_trf(text, args.pairings)
            counted = (own.score("1", scoring), own.score("=", scoring))
            if counted != scoring:
                print("event: WARN --scoring %s: %s gives its own points, which stand in the standings and the "
                      "results TRF: a win %g, a draw %g" % (args.scoring, args.pairings, *counted),
                      file=sys.stderr, flush=True)
    from flagfall.tournament import team_standings, teams as teams_mod
    if team_tiebreaks is None and teams_mod.matches_of(rnd):
        # a team event's own tie-break list (TRF26 212/202) is checked now, not at the first standings
        from flagfall import records
        from flagfall.tournament import trf as trf_mod
        try:
            text = records.read_text(args.pairings)
            if pairings_mod.kind_of(args.pairings, text) == "trf":
                team_standings.chosen_tiebreaks(trf_mod.parse_trf(text, args.pairings).team_event)
        except ValueError as e:
            return _fail("%s (or give the event's list with --team-tiebreaks)" % e)
    if args.tc:
        from flagfall import presets
        try:
            presets.time_control(args.tc)
        except ValueError as e:
            return _fail("--tc: %s" % e)
    if args.tournament:
        from flagfall import live
        try:
            live.check_slug(args.tournament, "--tournament")
        except ValueError as e:
            return _fail(str(e))
    mqtt_settings = None
    if args.mqtt:
        try:
            mqtt_settings = _mqtt_settings(args)
        except (OSError, ValueError) as e:
            return _fail("--mqtt: %s" % (e.strerror if isinstance(e, OSError) and e.strerror else e))
    ports: dict[int, str] = {}
    if args.boards == "auto":
        from flagfall.event import ports as ports_mod
        found = [d for d in ports_mod.find_devices() if d.hello]
        ports = {p.board: d.port for p, d in zip(rnd.boards, found)}
        if not ports:
            return _fail("--boards auto: no Flagfall device found (flagfall ports lists the serial ports)")
    elif args.boards:
        from flagfall.event import ports as ports_mod
        try:
            ports = ports_mod.read_boards_map(args.boards)
        except (OSError, ValueError) as e:
            return _fail(str(e))
        unknown = sorted(set(ports) - {p.board for p in rnd.boards})
        if unknown:
            return _fail("%s maps board %d, which round %d does not have" % (args.boards, unknown[0], args.round))
    if args.demo and os.path.isdir(args.out) and os.listdir(args.out):
        # the simulated boards always start a new game, so the demo cannot resume an earlier run's
        # journals: that run's files are kept aside and the round is played afresh
        import shutil
        previous = os.path.normpath(args.out) + ".previous"
        try:
            shutil.rmtree(previous, ignore_errors=True)
            os.replace(args.out, previous)
        except OSError as e:
            return _fail("cannot move the earlier demo's files from %s aside: %s" % (args.out, e.strerror or e))
        print("event: the earlier demo's files are moved to %s; the demo plays round %d afresh"
              % (previous, args.round), flush=True)
        kept = os.path.join(previous, TOKEN_FILE)
        if os.path.exists(kept):         # the arbiter token stays: an open dashboard keeps working
            os.makedirs(args.out, exist_ok=True)
            shutil.copy2(kept, os.path.join(args.out, TOKEN_FILE))
    try:
        token, token_where = arbiter_token(args)
    except OSError as e:            # the token is kept in the out folder
        return _fail("cannot write to the out folder %s: %s (--out names another folder)"
                     % (os.path.abspath(args.out), e.strerror or e))
    except ValueError as e:
        return _fail(str(e))
    from flagfall.broadcast import server
    from flagfall.event import service
    settings = service.EventSettings(
        out=args.out, token=token, token_where=token_where, tournament=args.tournament, game=args.game, tc=args.tc,
        penalties=args.penalties, laws=args.laws, pairings=args.pairings, about=about,
        pairings_from_games=args.pairings_from_games,
        armageddon=args.armageddon, fen=args.fen, mirror=args.mirror, demo=args.demo, host=args.host,
        port=args.port, delay=args.delay, frame_ancestors=args.frame_ancestors, sim=args.sim or 0,
        autoplay=args.autoplay, speed=args.speed, seed=args.seed, think=args.think, quiet=args.quiet,
        verbose=args.verbose, teams=args.teams, team_tiebreaks=team_tiebreaks, scoring=scoring, mqtt=mqtt_settings,
        lichess=push)
    try:
        return asyncio.run(server.until_stopped(service.serve(settings, rnd, ports))) or 0
    except OSError as e:
        # make run says which make variable to change (FLAGFALL_PORT_HINT); the command itself, --port
        hint = os.environ.get("FLAGFALL_PORT_HINT") or "--port"
        return _fail("cannot serve on %s:%d: %s (try %s)" % (args.host, args.port, e.strerror or e, hint))


def _tournament_about(args: argparse.Namespace) -> Optional[TournamentAbout]:
    """--name, --site and --date, checked, for every round read (None: the pairings file's own)."""
    from flagfall.tournament.model import TournamentAbout, pgn_date
    if not (args.name or args.site or args.date):
        return None
    date = None
    if args.date:
        date = pgn_date(args.date) if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", args.date) else None
        if date is None:
            raise ValueError("--date %r: give the first day as YYYY-MM-DD" % args.date)
    return TournamentAbout(name=args.name or None, site=args.site or None, date=date)


def _mqtt_settings(args: argparse.Namespace) -> MqttSettings:
    """The broker with its password and the signing key of --mqtt; ValueError or OSError saying why not."""
    from flagfall import mqtt
    from flagfall.event.service import MqttSettings
    broker = mqtt.parse_broker(args.mqtt, ca=args.mqtt_ca)
    if args.mqtt_password_file:
        broker.password = read_secret(args.mqtt_password_file, "MQTT password", exact=True)
    return MqttSettings(broker, mqtt.read_key(args.mqtt_key_file, fallback_env="FLAGFALL_TOKEN"))
