"""Flagfall host package: everything that runs on the computer beside the board and the clock.

Packages: `bridge` (one board followed: device frames in, moves, journal, record and live state out),
`event` (a tournament round on many boards in one process, with the arbiter's dashboard), `broadcast`
(the live pages, the SSE stream, the relay feeds, the Lichess push), `tournament` (pairings, results and
standings as files and arithmetic), `games` (the registry of games and their adapters over the rules),
`commands` (the `flagfall` tool's subcommands: they parse and hand over), `data` and `demo_games`
(package data). Modules: `live` (the live-state message and its public view), `mqtt` (states and
commands between halls), `serial_link` (the wire over pyserial), `occupancy` (the tracker of lifted and
placed pieces), `records` (what every record format shares), `sim` (the simulated device), `cli` (the
tool's entry point), `selftest` (a newly built board's bring-up test), `clockwalk` (the clock's faces in a
terminal), `seeds` and `presets` (the rulebook facts of seeds/: time controls, penalty policies) and
`secretfile` (tokens and keys read from files).
"""
from flagcore import VERSION as __version__  # noqa: F401
