"""Live broadcast: the hub of board states, the web server, and the PGN/PDN feeds.

See docs/broadcast.md for how it runs at a club and at a large event.
"""
