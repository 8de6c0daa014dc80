"""The record-or-alert fuzzer at scale (issue #19): at least 10,000 physical event streams.

Each stream is a real game from tests/data (chess, international and Russian
draughts, checkers) played by noisy hands with late tails, take-backs by
agreement and illegal moves, through the real bridge engine
(tests/host/record_or_alert.py). Prints the streams run, the fabricated
records (hard requirement: 0), the alerts raised and the share of streams
recorded in full. A fabricated stream prints its seed and event stream.

    python tools/bench_record_or_alert.py [STREAMS] [FIRST_SEED]
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [os.path.join(ROOT, "tests", "host"), os.path.join(ROOT, "host"), os.path.join(ROOT, "firmware")]

import record_or_alert as ra  # noqa: E402


def main(argv):
    n = int(argv[0]) if argv else 10000
    first = int(argv[1]) if len(argv) > 1 else 0
    t0 = time.time()
    fabricated = []
    alerts = full = 0
    kinds = {}
    for i, seed in enumerate(range(first, first + n)):
        o = ra.run_stream(seed)
        kinds[o.game] = kinds.get(o.game, 0) + 1
        if o.fabricated:
            fabricated.append(o)
            print(o.report(), flush=True)
        alerts += o.alert is not None
        full += o.full
        if (i + 1) % 1000 == 0:
            print("  %d streams, %.0f s" % (i + 1, time.time() - t0), flush=True)
    print("record_or_alert_streams: %d (%s)" % (n, ", ".join("%s %d" % kv for kv in sorted(kinds.items()))))
    print("record_or_alert_fabricated: %d" % len(fabricated))
    print("record_or_alert_alerts: %d streams" % alerts)
    print("record_or_alert_full: %.1f %%" % (100.0 * full / n))
    print("record_or_alert_time: %.1f s" % (time.time() - t0))
    return 1 if fabricated else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
