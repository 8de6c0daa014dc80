# Type stubs for the MicroPython core package (firmware/flagcore): its code stays free of
# typing at run time; the host's mypy run reads these instead (mypy_path in pyproject.toml).
VERSION: str
