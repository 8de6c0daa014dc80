"""List the serial ports and the Flagfall device on each (its HELLO: profile, game, firmware).

    flagfall ports

Use it to write a boards map for `flagfall event --boards FILE` (board
number, then the port or its USB serial number), or check what
`--boards auto` will take, in this order.
"""
from __future__ import annotations

import argparse

NAME = "ports"
HELP = "list the serial ports and the Flagfall device answering on each"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--all", action="store_true", help="also list ports where no Flagfall device answered")


def run(args: argparse.Namespace) -> int:
    from flagfall.event import ports
    found = ports.find_devices()
    shown = [d for d in found if d.hello or args.all]
    for d in shown:
        print(d.line())
    n = sum(1 for d in found if d.hello)
    print("%d Flagfall device%s on %d serial port%s" % (n, "" if n == 1 else "s", len(found), "" if len(found) == 1 else "s"))
    return 0
