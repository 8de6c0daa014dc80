"""Run every benchmark: tools/bench_*.py, each in its own process, in name order.

Each bench script prints its figures (one per line, 'name: value unit') and
exits non-zero if a figure misses a hard requirement. `make bench` runs this.
Pass names to run a subset: python tools/bench.py clock chess
"""
import argparse
import glob
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    every = sorted(glob.glob(os.path.join(HERE, "bench_*.py")))
    parser = argparse.ArgumentParser(
        prog="bench.py", description=__doc__.split("\n\n")[0],
        epilog="benchmarks: " + ", ".join(os.path.basename(s)[6:-3] for s in every))
    parser.add_argument("names", nargs="*", help="run only the benchmarks whose name contains one of these")
    names = parser.parse_args(argv).names
    scripts = [s for s in every if not names or any(a in os.path.basename(s) for a in names)]
    if not scripts:
        print("bench: no benchmark is named like %s" % ", ".join(names), file=sys.stderr)
        return 2
    failed = []
    for s in scripts:
        name = os.path.basename(s)[6:-3]
        print("== %s" % name, flush=True)
        t0 = time.time()
        r = subprocess.run([sys.executable, s], cwd=os.path.dirname(HERE))
        print("   (%s took %.1f s)" % (name, time.time() - t0), flush=True)
        if r.returncode:
            failed.append(name)
    if failed:
        print("bench: FAILED %s" % ", ".join(failed))
        return 1
    print("bench: %d benchmarks ran" % len(scripts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
