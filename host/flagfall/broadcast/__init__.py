"""Live broadcast: the hub of board states, the web server, and the PGN/PDN feeds.

`hub` keeps every board's latest state, as the public sees it (flagfall.live.public_view), and fans
it out; `server` puts the web application together
from one module per concern: `pages` (the pages and their files), `api` (the JSON API and the
arbiter's actions), `sse` (the live stream), `feed_routes` (the relay feeds, whose text `feeds`
writes), `auth` (the arbiter token), `http_helpers` (errors and request reading shared by every
route) and `guard` (the TCP guard in front of aiohttp). `lichess_push` pushes a round to Lichess;
`synthetic` makes boards' states for the benchmarks and the tests.

See docs/broadcast.md for how it runs at a club and at a large event.
"""
