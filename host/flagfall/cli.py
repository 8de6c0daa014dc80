"""The `flagfall` command-line tool.

Each subcommand lives in flagfall/commands/<name>.py and defines NAME, HELP,
add_arguments(parser) and run(args) -> exit status. A subcommand whose options can
also come from a file (`flagfall event EVENT.toml`) defines file_defaults(args) ->
{dest: value}: those become its parser's defaults and the command line is read
again, so a flag given overrides the file.
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
        p.set_defaults(_run=mod.run, _file_defaults=getattr(mod, "file_defaults", None), _parser=p)
    return ap


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of the `flagfall` tool."""
    ap = build_parser()
    args = ap.parse_args(argv)
    if not getattr(args, "_run", None):
        ap.print_help()
        return 2
    load = getattr(args, "_file_defaults", None)
    if load is not None:
        try:
            defaults = load(args)
        except ValueError as e:
            print("flagfall %s: %s" % (args.command, e), file=sys.stderr)
            return 2
        if defaults:
            cast(argparse.ArgumentParser, args._parser).set_defaults(**defaults)
            args = ap.parse_args(argv)
    run = cast(Run, args._run)
    try:
        return run(args) or 0
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
