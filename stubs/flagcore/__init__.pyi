# Type stubs for the MicroPython core package (firmware/flagcore): its code stays free of typing
# at run time; the host's mypy run reads these instead (mypy_path = "stubs:..." in pyproject.toml).
# They declare the members the host and the simulator use. Names such as chess.Move,
# minzu.Decision, outcome.Ending, wire.Frame are type aliases that exist only here: use them in
# annotations (with `from __future__ import annotations`), never at run time.
# Check them against the code with:  cd stubs && PYTHONPATH=../firmware stubtest flagcore --ignore-missing-stub
# (the only differences it reports are those alias names).
VERSION: str
