"""The record-or-alert fuzzer at scale (issue #19): at least 10,000 physical event streams.

Each stream is a real game from tests/data (chess, international and Russian
draughts, checkers) played by noisy hands with late tails, take-backs by
agreement and illegal moves, through the real bridge engine
(tests/host/record_or_alert.py), and labelled innocent or guilty (issue #28).
Prints the streams run, the fabricated records (hard requirement: 0), the
innocent streams recorded in full (goal >= 99 %; at the cut, and once
played on: below), called an illegal move (goal 0) and penalised (must be
0), and the share of guilty streams that alert. A fabricated stream, and
the first few innocent ones wronged, print their seed and event stream. Without FIRST_SEED the seeds are fresh (from
the time); the first one is printed.

--wronged FILE lists every wronged innocent stream (not recorded in full,
called an illegal move or penalised), and every guilty one with a side penalised
more often than that side moved illegally (a penalty on a move that was not
illegal), in FILE, one tab-separated line each:
seed, game, the stop reason (the first alert after the last move recorded,
without its squares), the move missed, that alert's text, the alert up at
the end, the stream's hand scenarios and its twin line (or None); then a tally of the stop
reasons, also printed at the end with a few seeds each.

A twin line (record_or_alert.twin_line) is another legal line from the last
move recorded to the stream's end that shows the same board after every ply
and the same events on every square the two lines treat differently (a capture
slid onto its victim by a piece that could have taken elsewhere): no reader can
tell the two, so those streams are the ceiling of any bridge. The figure
innocent_full_decidable leaves them out of innocent_full_played_on.

A stream is a real game cut at a random ply, and the cut is not the game's
end: a slid capture just before it waits for the reply that shows its square.
So an innocent stream not recorded in full at the cut is played on by fair
hands, up to record_or_alert.PLAY_ON more plies of the same game, until the
record holds every ply before the cut (never past the game's last move: a
game's final moves are judged as they stand). innocent_full_played_on
judges the plies before the cut so; innocent_full judges the record at the cut itself.
Every other figure (fabricated, illegal-move alerts, penalties) counts the
moves played on, too.

    python tools/bench_record_or_alert.py [STREAMS] [FIRST_SEED] [--wronged FILE]
"""
import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tests", "host"), os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

import record_or_alert as ra  # noqa: E402


def main(argv):
    parser = argparse.ArgumentParser(
        prog="bench_record_or_alert.py", description=__doc__.split("\n\n")[0],
        epilog="Exit status 1 if a record was fabricated or an innocent stream penalised.")
    parser.add_argument("streams", nargs="?", type=int, default=10000,
                        help="how many streams to run (default 10000)")
    parser.add_argument("first_seed", nargs="?", type=int, default=None,
                        help="the first seed (default: fresh, from the time; printed so a run can be repeated)")
    parser.add_argument("--wronged", metavar="FILE",
                        help="list every wronged stream in FILE, with a tally of the stop reasons")
    args = parser.parse_args(argv)
    listing = open(args.wronged, "w") if args.wronged else None
    reasons: dict[str, list[int]] = {}
    n = args.streams
    # fresh seeds by default (a run's first seed is printed: pass it to repeat the run)
    first = args.first_seed if args.first_seed is not None else int(time.time() * 1000) % 10 ** 9
    t0 = time.time()
    fabricated = []
    wronged = []
    alerts = full = innocent = innocent_played_on = innocent_at_cut = innocent_illegal = innocent_penalties = twins = 0
    guilty = guilty_alerted = guilty_illegal = over_penalised = 0
    kinds = {}
    for i, seed in enumerate(range(first, first + n)):
        o = ra.run_stream(seed, play_on=ra.PLAY_ON)
        kinds[o.game] = kinds.get(o.game, 0) + 1
        if o.fabricated:
            fabricated.append(o)
            print(o.report(), flush=True)
        elif o.wronged and len(wronged) < 5:
            wronged.append(o)
            print("WRONGED " + o.report(), flush=True)
        if listing is not None and o.wronged and not o.fabricated:
            reason, text = o.why()
            if not o.innocent:
                reason = "guilty, penalised %s times for %s illegal moves (side by side)" % (
                    "+".join(map(str, o.penalised)), "+".join(map(str, o.illegal_by)))
            reasons.setdefault(reason, []).append(seed)
            missed = o.truth[len(o.record)] if len(o.record) < len(o.truth) else "-"
            listing.write("%d\t%s\t%s\tmissed %s at ply %d\t%s\tend: %s\t%s\ttwin: %s\n"
                          % (seed, o.game, reason, missed, len(o.record) + 1, text, o.alert, "; ".join(o.scenarios),
                             o.twin))
            listing.flush()
        alerts += o.alert is not None
        full += o.full
        if o.innocent:
            innocent += 1
            innocent_played_on += o.full
            innocent_at_cut += bool(o.full_at_cut)
            twins += o.twin is not None
            innocent_illegal += o.illegal_alerts > 0
            innocent_penalties += o.penalties
        else:
            guilty += 1
            guilty_alerted += o.alerted
            guilty_illegal += o.illegal_alerts > 0
            over_penalised += o.over_penalised
        if (i + 1) % 1000 == 0:
            print("  %d streams, %.0f s" % (i + 1, time.time() - t0), flush=True)
    print("record_or_alert_streams: %d, seeds %d-%d (%s)" % (n, first, first + n - 1,
                                                          ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    print("record_or_alert_fabricated: %d" % len(fabricated))
    print("record_or_alert_alerts: %d streams (an alert up at the end)" % alerts)
    print("record_or_alert_full: %.1f %% of all streams" % (100.0 * full / n))
    print("record_or_alert_innocent: %d streams (no illegal move, no take-back, every piece back "
          "before the next press)" % innocent)
    print("record_or_alert_innocent_full: %.2f %% (%d of %d recorded in full at the cut, nothing played on)"
          % (100.0 * innocent_at_cut / max(innocent, 1), innocent_at_cut, innocent))
    print("record_or_alert_innocent_full_played_on: %.2f %% (%d of %d: every ply before the cut recorded once the "
          "game is played on, up to %d plies, for the evidence it waits for)"
          % (100.0 * innocent_played_on / max(innocent, 1), innocent_played_on, innocent, ra.PLAY_ON))
    print("record_or_alert_innocent_twins: %d of the %d innocent streams not in full played on (a twin line from the last "
          "move recorded: another legal line no reader can tell from the one played, record_or_alert.twin_line)"
          % (twins, innocent - innocent_played_on))
    print("record_or_alert_innocent_full_decidable: %.2f %% (%d of %d innocent streams without a twin line)"
          % (100.0 * innocent_played_on / max(innocent - twins, 1), innocent_played_on, innocent - twins))
    print("record_or_alert_innocent_illegal_alert: %d streams" % innocent_illegal)
    print("record_or_alert_innocent_penalties: %d" % innocent_penalties)
    print("record_or_alert_guilty: %d streams; %.1f %% alerted (%.1f %% with an \"illegal move\" alert); "
          "%d with a side penalised more often than it moved illegally"
          % (guilty, 100.0 * guilty_alerted / max(guilty, 1), 100.0 * guilty_illegal / max(guilty, 1),
             over_penalised))
    print("record_or_alert_time: %.1f s" % (time.time() - t0))
    if listing is not None:
        tally = sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        listing.write("# stop reasons of the %d wronged streams\n" % sum(len(v) for v in reasons.values()))
        for reason, seeds in tally:
            listing.write("# %5d  %s\n" % (len(seeds), reason))
            print("wronged %5d  %s  (seeds %s%s)" % (len(seeds), reason, " ".join(map(str, seeds[:4])),
                                                    " ..." if len(seeds) > 4 else ""))
        listing.close()
    return 1 if fabricated or innocent_penalties else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
