"""Flagfall host package: bridge, records, simulator, broadcast and the `flagfall` tool."""
from flagcore import VERSION as __version__  # noqa: F401
