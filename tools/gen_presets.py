"""Generate firmware/device/presets.py from seeds/time_controls.json.

The device has no seeds/ folder, so the menu's presets travel as a small
generated module: (name, time-control text) pairs in the seeds' order.
--check exits 1 if the committed file differs from what would be generated.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "seeds", "time_controls.json")
OUT = os.path.join(ROOT, "firmware", "device", "presets.py")


def render():
    """The text of presets.py for the current seeds."""
    with open(SEEDS) as f:
        seeds = json.load(f)
    lines = ['"""Time-control presets for the device menu: (name, time control).',
             "",
             "Generated from seeds/time_controls.json by tools/gen_presets.py; do not edit.",
             "Each preset's rulebook and article are in the seeds file.",
             '"""',
             "",
             "PRESETS = ("]
    for name, v in seeds.items():
        if name.startswith("_") or not isinstance(v, dict) or "tc" not in v:
            continue
        lines.append("    (%r, %r)," % (name, v["tc"]))
    lines.append(")")
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--check", action="store_true", help="fail if presets.py is out of date")
    args = ap.parse_args(argv)
    text = render()
    if args.check:
        try:
            with open(OUT) as f:
                same = f.read() == text
        except OSError:
            same = False
        if not same:
            print("firmware/device/presets.py is out of date: run python tools/gen_presets.py", file=sys.stderr)
            return 1
        return 0
    with open(OUT, "w") as f:
        f.write(text)
    print("wrote %s" % os.path.relpath(OUT, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
