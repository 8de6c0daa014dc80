"""MCP23017 simple test: one expander at 0x20, all 16 pins inputs with pull-ups, read the reeds.

On a MicroPython board: I2C 1 on SDA GPIO 2, SCL GPIO 3, the expander at 0x20.
Anywhere else: the fake hardware's MCP23017 model, magnets on pins A0, B1 and B7.
"""
from device.drivers.mcp23017 import MCP23017

ADDR = 0x20
try:
    from machine import I2C, Pin
    i2c = I2C(1, sda=Pin(2), scl=Pin(3), freq=400000)
    board = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    hal = FakeHAL()
    board = hal.add_board(16)
    model = hal.add_mcp23017(ADDR)
    i2c = hal.i2c({"sda": 2, "scl": 3})
    for k in (0, 9, 15):
        board.place(k)

x = MCP23017(i2c, address=ADDR)
print("GPIO: 0x%04X (a closed reed reads 0)" % x.gpio())
buf = bytearray(16)
x.read_into(buf)
closed = [k for k in range(16) if buf[k]]
print("closed: %r (0-7 = A0-A7, 8-15 = B0-B7)" % closed)
if board is not None:
    assert closed == [0, 9, 15], closed
    assert model.regs[0x0C] == 0xFF and model.regs[0x0D] == 0xFF     # pull-ups on, both ports
print("mcp23017_simpletest ok")
