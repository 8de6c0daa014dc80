"""Run a peak-heap measurement inside MicroPython through tests/mp/heap.mjs (method described there)."""
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

METHOD = ("gc.collect() then gc.mem_alloc() before the first step = base; every step is its own top-level "
          "MicroPython call (the WebAssembly build frees garbage only between calls): gc.collect(); step; "
          "peak = max(peak, gc.mem_alloc() - base); no collection inside a step, so this is the retained "
          "state plus every byte the step allocated, an upper bound on the true peak")


def measure(steps, report, timeout=600, setup="", files=None, mpy=None):
    """Run the steps and the report code in MicroPython; returns the CompletedProcess (stdout = report output).

    steps: Python code strings, or {"code": ..., "measure": False} for a step not counted;
    setup: code run before base is taken; files: {"/lib/x.py": "tools/x.py"} copied in;
    mpy: a folder of compiled firmware to load instead of the sources.
    """
    spec = {"steps": list(steps), "report": report, "setup": setup, "files": files or {}}
    if mpy:
        spec["mpy"] = mpy
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(spec, f)
        path = f.name
    try:
        return subprocess.run(["node", os.path.join(ROOT, "tests", "mp", "heap.mjs"), path], cwd=ROOT,
                              capture_output=True, text=True, timeout=timeout)
    finally:
        os.unlink(path)
