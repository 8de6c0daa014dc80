"""Several halls on one MQTT broker: move-to-viewer latency through the broker (2 halls x 100 boards).

Each hall is an event process's Event (flagfall.event.runner) with its own
boards, journals (fsync) and records, publishing every state signed with the
event key through its own mqtt.Publisher, logged in with its own user, to a
real Mosquitto (passwords and per-hall ACLs, as docs/event.md sets it up).
Every board is a virtual device (the wire frames a real board sends: square
changes, then the clock press as a CLK frame) playing a real game, the
halls' frames delivered on one timeline in real time. The viewer's side is
the broadcast server's feed: an mqtt.Subscriber logged in as the server,
requiring signed states, handing each state to the hub that serves pages
(what `flagfall serve --mqtt` does).

Figures:
  event_mqtt_move_to_viewer: press frame in a hall -> the state with the move in the server's hub,
      through the broker (median, p99)
  event_mqtt_cpu_per_board_move: this process's CPU (halls + subscriber) per move
  event_mqtt_moves_missing: moves that never reached the server (exit status 1 if any)
Usage: python tools/bench_event_mqtt.py [--halls 2] [--boards 100] [--moves 10] [--rate 40]
"""
import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tests", "host"),
                os.path.join(ROOT, "tools")]

from bench_event import pct, timeline  # noqa: E402
from flagcore import wire  # noqa: E402
from flagfall import mqtt  # noqa: E402
from flagfall.tournament import model  # noqa: E402
from flagfall.event.runner import Event  # noqa: E402
from mqtt_broker import mosquitto  # noqa: E402

KEY = "bench-event-key"


def acl(halls):
    text = "user server\ntopic read flagfall/+/+/+/state\ntopic write flagfall/+/+/+/command\n"
    for h in halls:
        text += ("\nuser %s\ntopic write flagfall/%s/+/+/state\ntopic write flagfall/%s/+/+/event\n"
                 "topic read flagfall/%s/+/+/command\n" % (h, h, h, h))
    return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--halls", type=int, default=2)
    ap.add_argument("--boards", type=int, default=100, help="boards per hall")
    ap.add_argument("--moves", type=int, default=10, help="moves per board")
    ap.add_argument("--rate", type=float, default=40.0, help="moves per second over all halls")
    args = ap.parse_args(argv)
    from flagfall.broadcast.hub import Hub
    halls = ["hall-%s" % chr(ord("a") + i) for i in range(args.halls)]
    users = dict({"server": "server-pass"}, **{h: h + "-pass" for h in halls})
    tmp = tempfile.mkdtemp(prefix="bench_event_mqtt_")
    print("event_mqtt_timeline: building %d halls x %d boards x %d moves" % (args.halls, args.boards, args.moves),
          flush=True)
    frames = []
    for i, h in enumerate(halls):
        for due, b, data, ply in timeline(args.boards, args.moves, args.rate / args.halls):
            frames.append((due + 0.01 * i, h, b, data, ply))
    frames.sort(key=lambda x: x[0])
    press_at = {}          # (hall, board, ply) -> perf_counter when the press frame was handed over
    at_viewer = {}         # (hall, board, ply) -> when the state with it reached the server's hub
    with mosquitto(users=users, acl=acl(halls)) as port:
        loop = asyncio.new_event_loop()
        hub = Hub(loop)
        real_ingest = hub.ingest

        def ingest(state, validate=True):
            now = time.perf_counter()
            key = (state["tournament"], int(state["board"]))
            for ply in range(len(state["moves"])):
                at_viewer.setdefault(key + (ply,), now)
            return real_ingest(state, validate)
        hub.ingest = ingest
        server = mqtt.feed_hub(hub, loop, broker=mqtt.Broker("127.0.0.1", port, "server", users["server"]),
                               key=KEY, require_signed=True)
        th = threading.Thread(target=loop.run_forever, daemon=True)
        th.start()
        server.start()
        events, pubs, links = {}, [], {}
        for h in halls:
            pub = mqtt.Publisher(broker=mqtt.Broker("127.0.0.1", port, h, users[h]), key=KEY).start()
            pubs.append(pub)
            players = [model.Player("%s %03d" % (h, i)) for i in range(2 * args.boards)]
            rnd = model.Round("Bench " + h, "Here", "2026.11.24", "5400+30", 1,
                              [model.Pairing(b, players[2 * b - 2], players[2 * b - 1])
                               for b in range(1, args.boards + 1)])
            ev = Event(rnd, tournament=h, out_dir=os.path.join(tmp, h), tc="5400+30", penalties="auto",
                       publish=pub.publish_state)
            for b in ev.boards.values():
                b.open_engine()
            events[h] = ev
            for n in ev.boards:
                links[(h, n)] = wire.Link(wire.DEVICE_KINDS)
        cpu0 = time.process_time()
        start = time.perf_counter()
        moves = 0
        for due, h, b, data, ply in frames:
            wait = start + due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            board = events[h].boards[b]
            t = int((time.perf_counter() - start) * 1000) + 1000
            if ply is not None:
                press_at[(h, b, ply)] = time.perf_counter()
                moves += 1
            for seq, kind, values in links[(h, b)].feed(data):
                board.engine.frame(t, kind, values, data.decode().rstrip("\n"))
            board.engine.tick(t)
        end = time.perf_counter() + 10
        while len(at_viewer.keys() & press_at.keys()) < len(press_at) and time.perf_counter() < end:
            time.sleep(0.1)
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - start
        for ev in events.values():
            ev.stop()
        for pub in pubs:
            pub.stop()
        server.stop()
        loop.call_soon_threadsafe(loop.stop)
        th.join(5)
    shutil.rmtree(tmp, ignore_errors=True)
    lat = [(at_viewer[k] - t) * 1000 for k, t in press_at.items() if k in at_viewer]
    missing = len(press_at) - len(lat)
    print("event_mqtt_halls: %d halls x %d boards, %d moves in %.1f s (%.1f moves/s), signed states, "
          "passwords and ACLs" % (args.halls, args.boards, moves, wall, moves / wall))
    print("event_mqtt_move_to_viewer_median: %.1f ms" % pct(lat, 50))
    print("event_mqtt_move_to_viewer_p99: %.1f ms" % pct(lat, 99))
    print("event_mqtt_cpu_per_board_move: %.2f ms (process CPU %.1f s over %d moves)"
          % (cpu * 1000 / max(moves, 1), cpu, moves))
    print("event_mqtt_moves_missing: %d (rejected by the server: %d)" % (missing, server.rejected))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
