"""The host bridge: occupancy events from a reed-switch board -> checked moves -> records.

Modules:
    core         game-agnostic move reconstruction (tracker + matcher)
    adapters     per-game candidate moves (chess, draughts family, minzu)
    game         one game: reconstruction, clock, penalties, alerts, records, state
    journal      append-only fsync'd journal; resume after a crash
    records      live PGN/PDN/minzu record files
    virtualboard legal move -> physical events (with seeded noise), used by replay and the simulator
    session      the device connection (pyserial URL or port, wire codec)
    replay       replay of record files through a virtual board and the real bridge
"""
