"""The `flagfall` command-line tool.

Each subcommand lives in flagfall/commands/<name>.py and defines NAME, HELP,
add_arguments(parser) and run(args) -> exit status.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from types import ModuleType
from typing import Callable, Iterator, NoReturn, Optional, Sequence, cast

from flagcore import VERSION as __version__   # flagfall.__version__ is this (an implicit re-export mypy refuses)
from flagfall import commands

Run = Callable[[argparse.Namespace], Optional[int]]
"""A subcommand's run(args): its exit status (None counts as 0)."""


def _command_modules() -> Iterator[ModuleType]:
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            yield importlib.import_module("flagfall.commands." + info.name)


class _CommandParser(argparse.ArgumentParser):
    """A subcommand's parser: a mistake in the arguments is one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, "%s: %s; see %s --help\n" % (self.prog, message, self.prog))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    ap = argparse.ArgumentParser(
        prog="flagfall",
        description="Flagfall: tournament clock, reed-switch board, rules, bridge and broadcast.")
    ap.add_argument("--version", action="version", version="flagfall " + __version__)
    sub = ap.add_subparsers(dest="command", metavar="COMMAND", parser_class=_CommandParser)
    for mod in _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=(mod.__doc__ or mod.HELP).strip(),
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        mod.add_arguments(p)
        p.set_defaults(_run=mod.run)
    return ap


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the `flagfall` tool."""
    ap = build_parser()
    args = ap.parse_args(argv)
    if not getattr(args, "_run", None):
        ap.print_help()
        return 2
    run = cast(Run, args._run)
    try:
        return run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
