"""Faults injected into the fake board, for testing the self-test (a board as a build can break it).

    from device.fake.faults import inject_faults
    inject_faults(hal, profile["sensors"], stuck=[36], dead_rows=[6], missing_diodes=[10])

stuck: sensor indices whose reed reads closed whatever the hand does (welded
contacts); dead_rows: matrix row indices whose line never reaches the
switches (a broken trace: the row's squares never read closed);
missing_diodes: sensor indices of matrix switches soldered without their
diode, through which current sneaks backwards (ghosting, as on a matrix
built without diodes, but only through those switches).

A module of its own, next to fakehw.py rather than in it, so that the fake
hardware the firmware benchmarks load stays as it is. Never deployed.
"""


from device.fake.fakehw import MatrixModel


def inject_faults(hal, sensors, stuck=(), dead_rows=(), missing_diodes=()):
    """Break the fake board attached to hal (FakeHAL.attach_profile); ValueError for a fault it cannot have."""
    board = hal.board
    n = board.n
    for k in list(stuck) + list(missing_diodes):
        if not 0 <= k < n:
            raise ValueError("no sensor %d (0..%d)" % (k, n - 1))
    if stuck:
        _stick(board, set(stuck))
    if dead_rows or missing_diodes:
        if (sensors or {}).get("type") != "matrix":
            raise ValueError("dead rows and missing diodes need a matrix board")
        rows = sensors["rows"]
        for r in dead_rows:
            if not 0 <= r < len(rows):
                raise ValueError("no matrix row %d (0..%d)" % (r, len(rows) - 1))
        _FaultyMatrix(hal, board, rows, sensors["cols"], sensors.get("diodes", True), set(dead_rows),
                      set(missing_diodes))


def _stick(board, keys):
    lift = board.lift
    set_all = board.set_all

    def lift_unless_stuck(sq):
        if sq not in keys:
            lift(sq)

    def set_all_but_stuck(bits):
        set_all(bits)
        for k in keys:
            board.occ[k] = 1

    board.lift = lift_unless_stuck
    board.set_all = set_all_but_stuck
    for k in keys:
        board.occ[k] = 1


class _FaultyMatrix(MatrixModel):
    # takes over the column readers of fakehw's matrix model: a dead row is never driven, and
    # current sneaks backwards through a switch without its diode (all of them when diodes is False)
    def __init__(self, hal, board, rows, cols, diodes, dead, no_diode):
        self.dead = dead
        self.no_diode = no_diode
        MatrixModel.__init__(self, hal, board, rows, cols, diodes)

    def _low(self, c):
        return self._reached(c, self.dead, self.no_diode if self.diodes else None)
