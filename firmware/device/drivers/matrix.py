"""A row/column reed-switch matrix, one diode per switch (or none: see flagcore.scan on ghosts).

    m = Matrix([Pin(r, Pin.OUT, value=1) for r in (0, 1, 2)],
               [Pin(c, Pin.IN, Pin.PULL_UP) for c in (3, 4)], settle_us=10)
    m.read_into(buf)        # buf[k] = 1 where switch k = row * len(cols) + col is closed

Rows are outputs, idle high; columns are inputs with pull-ups. Each row in
turn is driven low and a column that reads low has a closed switch at
(row, col): diode anode on the column, cathode on the row. read_into
allocates nothing.
"""


def _no_wait(us):
    pass


class Matrix:
    """A rows x cols switch matrix."""

    def __init__(self, rows, cols, *, settle_us=10, sleep_us=None):
        self.rows = list(rows)
        self.cols = list(cols)
        self.nr = len(self.rows)
        self.nc = len(self.cols)
        self.n = self.nr * self.nc
        self.settle = settle_us
        if sleep_us is None:
            import time
            sleep_us = getattr(time, "sleep_us", _no_wait)
        self.sleep_us = sleep_us

    def read_into(self, buf):
        """Scan every row; buf[k] = 1 where a switch is closed."""
        cols = self.cols
        nc = self.nc
        lim = len(buf)
        settle = self.settle
        wait = self.sleep_us
        k = 0
        for r in range(self.nr):
            row = self.rows[r]
            row.value(0)
            if settle:
                wait(settle)  # let the column lines discharge through the switch
            for c in range(nc):
                if k < lim:
                    buf[k] = 1 - cols[c].value()
                k += 1
            row.value(1)
