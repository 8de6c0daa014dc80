"""Run a simulated clock-and-board device: the real firmware on fake hardware, as a serial port.

The device listens on TCP (pyserial URL socket://127.0.0.1:7777) and, on
Linux, on a pseudo-terminal; connect the bridge to either exactly as to a
board on USB:

    flagfall sim --profile pico-chess
    flagfall bridge --game chess --port socket://127.0.0.1:7777

Drive it by hand from this terminal (type `help`) or a control page
(--web 127.0.0.1:7780: click squares, press the clock), or play a game file with
think times and handling noise:

    flagfall sim --play host/flagfall/demo_games/chess.pgn --speed 4

Terminal commands: lift SQ, place SQ, move SQ SQ, play MOVE, press
white|black|start|mode, show, board, reset, help, quit. Squares are e4 (chess)
or numbers (draughts). `move` makes a legal move as a hand would (else it
just lifts and places); `play` also presses the clock; lift/place alone
change the sensors but not the simulator's idea of the position.
"""
from __future__ import annotations

import argparse
import sys
import threading
import time
from typing import TYPE_CHECKING, Optional, TextIO

if TYPE_CHECKING:
    from flagfall.games.protocol import Move
    from flagfall.sim import Simulator

NAME = "sim"
HELP = "simulated clock and sensor board (real firmware, fake hardware) on TCP and a pty"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", help="board profile in boards/ (default: the game's Pico board, pico-chess)")
    p.add_argument("--game", help="the game the board plays, and its default profile: chess, chess960, draughts, "
                                  "brazilian, russian, checkers, minzu")
    p.add_argument("--fen", help="start position (FEN; X-FEN or Shredder-FEN for chess960; PDN FEN for draughts)")
    p.add_argument("--position", type=int, metavar="N", help="chess960: start position number 0..959 (518: standard)")
    p.add_argument("--listen", default="127.0.0.1:7777", metavar="HOST:PORT",
                   help="TCP address of the serial line (default 127.0.0.1:7777; port 0 picks a free one)")
    p.add_argument("--no-pty", action="store_true", help="do not open a pseudo-terminal")
    p.add_argument("--web", metavar="HOST:PORT", help="also serve a control page (board, clock buttons, displays)")
    p.add_argument("--tc", help="time control text or preset set on the clock at start")
    p.add_argument("--speed", type=float, default=1.0, help="time runs this many times faster (default 1)")
    p.add_argument("--play", metavar="FILE", help="play a game from a PGN/PDN file")
    p.add_argument("--index", type=int, default=1, help="which game of the file (default 1, the first)")
    p.add_argument("--wait", type=float, default=2.0, help="seconds to wait before playing (for the bridge to connect)")
    p.add_argument("--think-ms", type=int, help="fixed think time per move in ms (default: random, about 5 s)")
    p.add_argument("--noise", type=float, default=0.1, help="probability of each kind of handling noise (default 0.1)")
    p.add_argument("--seed", type=int, help="random seed for think times and noise")
    p.add_argument("--fault", action="append", default=[], metavar="FAULT",
                   help="break the simulated board, for trying `flagfall selftest` (repeatable): stuck:SQUARE, "
                        "dead-row:N (matrix row, 0 = top), no-diode:SQUARE")
    p.add_argument("--quiet", action="store_true",
                   help="print only the addresses (TCP line, pty, control page): no connection or firmware log, no moves played")


def parse_listen(text: str) -> tuple[str, int]:
    """(host, port) from HOST:PORT or PORT."""
    host, sep, port = text.rpartition(":")
    if not port.isdigit() or not 0 <= int(port) < 65536:
        raise ValueError("--listen wants HOST:PORT (got %r)" % text)
    return (host or "127.0.0.1"), int(port)


def board_text(sim: Simulator) -> str:
    """The occupancy as a small picture, top row first."""
    b = sim.profile["board"]
    rows, cols = b["rows"], b["cols"]
    occ = set(sim.occupied())
    cell: dict[tuple[int, int], str] = {}
    for sq in sim.sensor_of:
        r, c = sim.adapter.cell(sq)
        cell[(r, c)] = "#" if sq in occ else "."
    return "\n".join("".join(cell.get((r, c), " ") for c in range(cols)) for r in range(rows))


def legal_move(sim: Simulator, a: str, b: str) -> Optional[Move]:
    """The legal move from square a to square b in the simulator's rules position, or None."""
    texts = [a + b, a + "-" + b, a + "x" + b]
    for t in texts:
        try:
            return sim.adapter.parse(t)
        except ValueError:
            continue
    return None


def command(sim: Simulator, line: str, out: TextIO) -> bool:
    """Carry out one terminal command; returns False to quit."""
    words = line.split()
    if not words:
        return True
    cmd, args = words[0].lower(), words[1:]
    try:
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd == "help":
            print(__doc__.split("Terminal commands:")[1].strip(), file=out)
        elif cmd == "lift" and len(args) == 1:
            sim.lift(args[0])
        elif cmd == "place" and len(args) == 1:
            sim.place(args[0])
        elif cmd == "move" and len(args) == 2:
            legal = legal_move(sim, args[0], args[1])
            if legal is not None:       # a legal move: the rules position follows (no clock press)
                print("moved %s" % sim.play(legal, think_ms=0, noise=0, press=False), file=out)
            else:
                sim.lift(args[0])
                sim.wait(150)
                sim.place(args[1])
        elif cmd == "play" and len(args) == 1:
            print("played %s" % sim.play(args[0], think_ms=0), file=out)
        elif cmd == "press" and len(args) == 1:
            sim.press(args[0].lower())
            sim.wait(60)
        elif cmd == "show":
            w, b, lines = sim.faces()
            print("white %s | black %s | %s" % (w, b, " / ".join(x for x in lines if x)), file=out)
        elif cmd == "board":
            print(board_text(sim), file=out)
        elif cmd == "reset":
            sim.reset(sim.start_fen)
        else:
            print("unknown command %r (type help)" % line.strip(), file=out)
    except ValueError as e:
        print("error: %s" % e, file=out)
    sim.wait(0)            # the device scans the action (past its debounce) before the next command
    out.flush()
    return True


def run(args: argparse.Namespace) -> int:
    from flagfall import sim as simm
    from flagfall.sim_web import serve_web
    try:
        name = args.profile or simm.default_profile(args.game or "chess")
    except ValueError as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    if name is None:
        print("sim: no default profile for game %r (use --profile)" % args.game, file=sys.stderr)
        return 2
    if args.speed <= 0:
        print("sim: --speed must be above 0", file=sys.stderr)
        return 2
    try:
        host, port = parse_listen(args.listen)
        fen = args.fen
        if args.position is not None:
            from flagfall.games import registry
            fen = registry.make_adapter(args.game or "chess", position=args.position).position()
        sim = simm.Simulator(name, speed=args.speed, tc=args.tc, seed=args.seed, noise=args.noise, fen=fen,
                             game=args.game,
                             log=(lambda t: None) if args.quiet else None)
        if args.fault:
            from flagfall.selftest import apply_faults
            apply_faults(sim, args.fault)
    except (ValueError, OSError) as e:
        print("sim: %s" % e, file=sys.stderr)
        return 2
    try:
        ep = sim.listen_tcp(host, port)
    except OSError as e:
        print("sim: cannot listen on %s:%d: %s" % (host, port, e.strerror or e), file=sys.stderr)
        return 1
    sim.start()
    print("sim: %s (%s) on %s" % (sim.profile.get("name"), sim.game, ep.url()), flush=True)
    if not args.no_pty and sys.platform.startswith(("linux", "darwin")):
        try:
            pty = sim.open_pty()
            print("sim: serial port %s" % pty.path, flush=True)
        except OSError as e:
            print("sim: no pseudo-terminal (%s)" % e, file=sys.stderr)
    if args.web:
        try:
            whost, wport = parse_listen(args.web)
            print("sim: control page %s" % serve_web(sim, whost, wport), flush=True)
        except (ValueError, OSError) as e:
            print("sim: --web: %s" % e, file=sys.stderr)
            sim.stop()
            return 2
    stop = threading.Event()
    player: Optional[threading.Thread] = None
    if args.play:
        try:
            tags, texts, result = simm.game_moves(sim.game, args.play, args.index - 1)
        except (ValueError, OSError) as e:
            print("sim: %s" % e, file=sys.stderr)
            sim.stop()
            return 2
        print("sim: playing %s - %s (%d moves) from %s" % (tags.get("White", "?"), tags.get("Black", "?"),
                                                          len(texts), args.play), flush=True)

        def play() -> None:
            time.sleep(args.wait)
            if "start" in sim.profile["buttons"]:
                sim.press("start")
            simm.play_game(sim, texts, stop=stop.is_set, think_ms=args.think_ms,
                           on_move=None if args.quiet else (lambda n, t: print("sim: move %d %s" % (n, t), flush=True)))
            if not stop.is_set():
                print("sim: game over (%s)" % result, flush=True)
        player = threading.Thread(target=play, name="sim-player", daemon=True)
        player.start()
    import signal
    signal.signal(signal.SIGTERM, lambda *a: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        quit_ = False
        for line in sys.stdin:
            if not command(sim, line, sys.stdout):
                quit_ = True
                break
        # input closed (not a terminal): keep serving until the game ends, or Ctrl-C / SIGTERM
        while not quit_ and (player is None or player.is_alive()):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        sim.stop()
    return 0

