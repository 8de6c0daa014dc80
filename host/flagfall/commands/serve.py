"""Run the broadcast server on its own, fed from an MQTT broker.

Boards are published by bridges (`flagfall bridge ... --mqtt HOST:PORT`, or
the demo) to the broker; this server subscribes to every board of a
tournament (or all) and serves the live page, the PGN/PDN feeds and the JSON
API. Arbiter actions are forwarded to the board's bridge over MQTT and need
the token (printed at start, or given with --token / FLAGFALL_TOKEN).

    flagfall serve --mqtt 127.0.0.1:1883 --port 8080
    FLAGFALL_MQTT_PASSWORD=... flagfall serve --mqtt mqtts://server@broker.hall --mqtt-ca ca.pem \
        --mqtt-key-file event.key --mqtt-signed-only

Commands sent to bridges over MQTT are signed (HMAC-SHA256, docs/broadcast.md)
with the event key (--mqtt-key-file, else $FLAGFALL_MQTT_KEY), else with the
arbiter token: each bridge needs the same key to obey them. States signed by
a bridge with the key are checked; --mqtt-signed-only refuses unsigned ones.
States stamped far in the future or with an implausible seq are refused.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from typing import TYPE_CHECKING, Callable, Optional

from flagfall.commands import FRAME_ANCESTORS_HELP, tcp_port

if TYPE_CHECKING:
    from flagfall.mqtt import Subscriber

Ready = Callable[[str, str], object]
"""Called once the server listens: ready(url, arbiter token)."""

NAME = "serve"
HELP = "broadcast server (live page, feeds, JSON API), fed from MQTT"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; 0.0.0.0 for a hall network)")
    p.add_argument("--port", type=tcp_port, default=8080, help="HTTP port (default 8080; 0 picks a free one)")
    p.add_argument("--mqtt", metavar="URL",
                   help="MQTT broker to take board states from: HOST[:PORT], mqtt://[user[:password]@]host[:port] "
                        "or mqtts://... (TLS); the password may be given in $FLAGFALL_MQTT_PASSWORD instead. Without "
                        "it the server has no source of boards and shows none (for a self-contained page run "
                        "`flagfall demo`)")
    p.add_argument("--mqtt-ca", metavar="FILE", help="CA certificate file for an mqtts:// broker (implies TLS)")
    p.add_argument("--mqtt-key-file", metavar="FILE",
                   help="event key (first line of FILE) that signs commands to bridges and checks signed states "
                        "(default: $FLAGFALL_MQTT_KEY, else the arbiter token)")
    p.add_argument("--mqtt-signed-only", action="store_true",
                   help="refuse board states that are not signed with the event key")
    p.add_argument("--mqtt-wait", type=float, default=10.0, metavar="SECONDS",
                   help="how long to wait for the broker at start (default 10)")
    p.add_argument("--tournament", help="only this tournament's boards (slug)")
    p.add_argument("--round", help="only this round's boards (slug; needs --tournament)")
    p.add_argument("--token", help="arbiter token (visible in `ps`: prefer --token-file or $FLAGFALL_TOKEN; "
                                   "default: a random one printed at start)")
    p.add_argument("--token-file", metavar="PATH", help="arbiter token from this file (its first line): "
                   "unlike --token it is not visible to other users in `ps`")
    p.add_argument("--max-per-client", type=int, default=64, metavar="N",
                   help="connections at once from one address (default 64; 0: no limit; loopback is exempt)")
    p.add_argument("--frame-ancestors", metavar="SOURCES", help=FRAME_ANCESTORS_HELP)
    p.add_argument("--quiet", action="store_true", help="print only the URL and the token")
    from flagfall.broadcast import lichess_push
    lichess_push.add_arguments(p.add_argument_group(lichess_push.GROUP_TITLE))   # with --tournament and --round


async def serve(args: argparse.Namespace, ready: Optional[Ready] = None) -> None:
    """Run until cancelled; ready(url, token) is called once listening."""
    from flagfall.broadcast import auth, server
    from flagfall.broadcast.hub import Hub
    loop = asyncio.get_running_loop()
    hub = Hub(loop)
    token = getattr(args, "resolved_token", None) or auth.resolve_token(args.token, getattr(args, "token_file", None))[0]
    app = server.make_app(hub, token, frame_ancestors=getattr(args, "frame_ancestors", None))
    sub: Optional[Subscriber] = None
    if args.mqtt:
        from flagfall import mqtt
        broker = mqtt.parse_broker(args.mqtt, ca=args.mqtt_ca)
        key = mqtt.read_key(args.mqtt_key_file) or token
        sub = mqtt.feed_hub(hub, loop, broker=broker, tournament=args.tournament, round_=args.round,
                            key=key, require_signed=args.mqtt_signed_only)
        await asyncio.get_running_loop().run_in_executor(None, sub.start, args.mqtt_wait)
    pusher = None
    if getattr(args, "lichess_round", None):
        from flagfall.broadcast import lichess_push
        settings = lichess_push.settings_from_arguments(args)
        pusher = settings.pusher(args.tournament, args.round, log=lambda text: print(text, flush=True))
        pusher.attach(hub)
    runner = await server.start(app, args.host, args.port, max_per_client=getattr(args, "max_per_client", 64))
    url = "http://%s:%d/" % (args.host if args.host != "0.0.0.0" else "127.0.0.1", server.bound_port(runner))
    if pusher is not None:
        await pusher.start()
        print(lichess_push.describe(pusher), flush=True)
    if ready:
        ready(url, token)
    try:
        await asyncio.Event().wait()
    finally:
        if sub is not None:
            sub.stop()
        if pusher is not None:
            await pusher.close()
        await runner.cleanup()


def run(args: argparse.Namespace) -> int:
    from flagfall import live
    for what in ("tournament", "round"):
        v = getattr(args, what)
        if v is not None:
            try:
                live.check_slug(v, what)
            except ValueError as e:
                print("serve: %s" % e, file=sys.stderr)
                return 2
    if args.round and not args.tournament:
        print("serve: --round needs --tournament", file=sys.stderr)
        return 2
    if args.frame_ancestors is not None:
        from flagfall.broadcast.pages import check_frame_ancestors
        try:
            check_frame_ancestors(args.frame_ancestors)
        except ValueError as e:
            print("serve: --frame-ancestors: %s" % e, file=sys.stderr)
            return 2
    if args.lichess_round:
        from flagfall.broadcast import lichess_push
        if not (args.tournament and args.round):
            print("serve: --lichess-round pushes one round: give --tournament and --round", file=sys.stderr)
            return 2
        try:
            lichess_push.settings_from_arguments(args)
        except ValueError as e:
            print("serve: %s" % e, file=sys.stderr)
            return 2
    if not args.mqtt:
        print("serve: warning: no --mqtt broker given, so no board can ever appear on this page; "
              "give --mqtt HOST[:PORT] (boards published by `flagfall bridge --mqtt` or `flagfall demo --mqtt`), "
              "or run `flagfall demo` for a page fed by simulated boards", file=sys.stderr, flush=True)
    if args.mqtt:
        from flagfall import mqtt
        try:
            mqtt.parse_broker(args.mqtt, ca=args.mqtt_ca)
            mqtt.read_key(args.mqtt_key_file)
        except (ValueError, OSError) as e:
            print("serve: --mqtt: %s" % e, file=sys.stderr)
            return 2
    logging.basicConfig(level=logging.WARNING if args.quiet else logging.INFO, format="%(name)s: %(message)s")
    from flagfall.broadcast import auth
    try:
        args.resolved_token, source = auth.resolve_token(args.token, args.token_file)
    except ValueError as e:
        print("serve: %s" % e, file=sys.stderr)
        return 2
    if source == "argument":
        print("serve: warning: --token is visible to every user in `ps`; use --token-file or FLAGFALL_TOKEN",
              file=sys.stderr)

    def ready(url: str, token: str) -> None:
        print("broadcast: %s" % url, flush=True)
        print("arbiter token: %s" % token, flush=True)
        if args.mqtt and not args.quiet:
            from flagfall import mqtt
            print("fed from MQTT %s" % mqtt.parse_broker(args.mqtt, ca=args.mqtt_ca).url(), flush=True)

    try:
        from flagfall.broadcast import server
        asyncio.run(server.until_stopped(serve(args, ready)))
    except ConnectionError as e:
        print("serve: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:
        print("serve: cannot listen on %s:%d: %s" % (args.host, args.port, e.strerror or e), file=sys.stderr)
        return 1
    return 0

