"""Reed-switch matrix simple test: 3 rows x 2 columns, read which switches are closed.

On a MicroPython board: rows on GPIO 0-2 (outputs), columns on GPIO 3-4
(inputs with pull-ups), one diode per switch (anode to the column).
Anywhere else: the fake hardware's matrix model, with magnets placed on
sensors 1 and 4.
"""
from device.drivers.matrix import Matrix

ROWS, COLS = (0, 1, 2), (3, 4)
try:
    from machine import Pin
    rows = [Pin(p, Pin.OUT, value=1) for p in ROWS]
    cols = [Pin(p, Pin.IN, Pin.PULL_UP) for p in COLS]
    board = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    hal = FakeHAL()
    board = hal.add_board(len(ROWS) * len(COLS))
    hal.add_matrix(ROWS, COLS)
    rows = [hal.pin_out(p, 1) for p in ROWS]
    cols = [hal.pin_in(p, pull_up=True) for p in COLS]
    board.place(1)
    board.place(4)

m = Matrix(rows, cols, settle_us=10)
buf = bytearray(m.n)
m.read_into(buf)
closed = [k for k in range(m.n) if buf[k]]
print("closed: %r (sensor k = row * %d + col)" % (closed, len(COLS)))
if board is not None:
    assert closed == [1, 4], closed
print("matrix_simpletest ok")
