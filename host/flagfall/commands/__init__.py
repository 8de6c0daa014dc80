"""Subcommands of the `flagfall` tool, one module each: each parses and checks its arguments and hands
them over to the package that does the work (`event` to flagfall.event.service, `serve` to
flagfall.broadcast, `bridge` to flagfall.bridge ...); `_hints` is what several share (hints added to
their error messages)."""
from __future__ import annotations

import argparse


def tcp_port(text: str) -> int:
    """argparse type of a TCP port: 0 (a free one) to 65535, with a message that says so."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a port number (0-65535; 0 picks a free one)" % text) from None
    if not 0 <= n <= 65535:
        raise argparse.ArgumentTypeError("%d is not a TCP port (0-65535; 0 picks a free one)" % n)
    return n


FRAME_ANCESTORS_HELP = ("who may show the pages in an iframe with ?embed=1 (a board, a round): CSP frame-ancestors "
                        "sources, e.g. 'https://club.example https://news.example' or self (default: any site, *); "
                        "pages without ?embed=1 are never framed")
"""The --frame-ancestors option's help, for every command that serves the pages (event, serve)."""
