"""A tournament round being played: one process following every board of the round (`runner`), each
board with its engine, device session and cable (`board`), the
simulated boards of a demo (`simboards`), the devices found on the serial ports (`ports`), the
arbiter's dashboard on the broadcast server (`web`: its page, its API and its SSE stream; each board's
part of it is flagfall.bridge.boardstate's), and the process at work (`service`: the round's
publishing to the public hub, MQTT and Lichess, and its supervision until stopped).

The round's pairings, results and standings, pure file formats and arithmetic, are
`flagfall.tournament`'s.
"""
