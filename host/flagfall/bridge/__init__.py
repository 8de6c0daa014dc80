"""The host bridge: one board's device frames in, checked moves, its journal, record and live state out.

Modules:
    session      the device connection (a serial port or pyserial URL): reconnects, resynchronises,
                 hands each frame to the engine
    engine       BridgeEngine: every input journaled first, then the game; the record file and the
                 published live state (state(), alert()); resume() rebuilds an engine from its journal
                 (journalreplay)
    boardsetup   BoardSetup: what a board plays and how it is followed (the journal's header)
    clockfeed    the device's clock: readings, presses, edits at the clock, flags, the hand-over
    arbiter      the arbiter's actions on a live board
    game         one game: its state and inputs, commits, take-backs, results; every outcome a typed
                 Decision (decisions)
    reconstruction  the board read within one window over the occupancy tracker (flagfall.occupancy): the
                 move a press ends or a settled board shows, the alert or illegal move when none does
    resync       several moves at once: those made while the device was unplugged, found again on
                 reconnect, and the short edit of the record when both players acted
    evidence     the window's evidence: whether moves agree with the order the board and the clock
                 saw them, a take-back shown, a capture shown by the recapture
    penalties    illegal moves and their penalties (applied, or proposed to the arbiter)
    alerts       the alert for the operator and the words of its texts
    entries      the operator's entries into the record (moves confirmed or entered, fixed, promotions)
    decisions    the Decision type and its kinds
    boardstate   a board for the arbiter, computed in one place: its status, alert, live state, what to fix,
                 the actions
    journal      the append-only, fsync'd journal (and its mirror copy); resume reads it
    journalreplay  resume and rebuilt: an engine rebuilt from its journal, its entries fed again
    records      the live record files (PGN, PDN, minzu records), written by each family's one writer
    replay       record files replayed through a virtual board and the real engine (flagfall replay)
    virtualboard a legal move -> the physical events a hand makes (with seeded noise): replay, the simulator
"""
