"""Direct row/column reed-switch matrix, one diode per switch.

cfg: {"type": "matrix", "rows": [PIN...], "cols": [PIN...], "diodes": true,
"settle_us": 10}. Rows are outputs, idle high; columns are inputs with
pull-ups. Each row in turn is driven low and a column that reads low has a
closed switch at (row, col): diode anode on the column, cathode on the row.
Sensor k = row * len(cols) + col.
"""


class Matrix:
    """A rows x cols switch matrix."""

    def __init__(self, hal, cfg):
        self.hal = hal
        self.rows = [hal.pin_out(p, 1) for p in cfg["rows"]]
        self.cols = [hal.pin_in(p, pull_up=True) for p in cfg["cols"]]
        self.nr = len(self.rows)
        self.nc = len(self.cols)
        self.n = self.nr * self.nc
        self.diodes = cfg.get("diodes", True)
        self.settle = cfg.get("settle_us", 10)

    def read_into(self, buf):
        """Scan every row; buf[k] = 1 where a switch is closed."""
        cols = self.cols
        nc = self.nc
        lim = len(buf)
        settle = self.settle
        hal = self.hal
        k = 0
        for r in range(self.nr):
            row = self.rows[r]
            row.value(0)
            if settle:
                hal.sleep_us(settle)  # let the column lines discharge through the switch
            for c in range(nc):
                if k < lim:
                    buf[k] = 1 - cols[c].value()
                k += 1
            row.value(1)
