"""Subcommands of the `flagfall` tool, one module each."""
