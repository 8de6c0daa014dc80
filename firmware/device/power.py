"""The battery on the device: read every BATTERY_MS, the low-battery signal on the faces, the buzzer and
to the host. Loaded on boards with a battery only (device.factory.battery imports it with the gauge), so a
board without one holds none of it.
"""

from flagcore import clock as clockmod
from flagcore.ticks import ticks_add, ticks_diff

BATTERY_MS = 2000      # the battery is read this often


def check(app, now):
    """Read app's battery when due; at the low signal beep and say so on the faces for 2 s. True if the
    level changed (the host hears of it: in the next CLK while the clock runs, at once otherwise)."""
    b = app.battery
    if ticks_diff(now, b.due) < 0:
        return False
    b.due = ticks_add(now, BATTERY_MS)
    was = b.low
    if not b.read():
        return False
    if b.low and not was:
        app.message = "BATT LOW %d%%" % b.pct
        app.message_until = ticks_add(now, 2000)
        if app.buzzer is not None:
            app.buzzer.beep(now, 400)
    if (b.low and not was) or app.clock.state != clockmod.RUNNING:
        app.send_clock(now, False)     # a running clock reports every second anyway
    return True
