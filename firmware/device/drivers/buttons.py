"""Clock buttons: two player buttons or a rocker, start/pause and mode.

    b = Buttons((("white", Pin(1, Pin.IN, Pin.PULL_UP)), ("start", Pin(3, Pin.IN, Pin.PULL_UP))),
                active_low=True, debounce_ms=30)
    b.poll(time.ticks_ms())     # appends ("white", tick) to b.events on a press

pins: (name, input pin) pairs, names among white, black, start, mode and
rocker (one contact, closed when white's side of the lever is down: every
flip is a press of the side that went down). A press is taken at its first
edge, so the clock gets the exact tick; then that input is ignored for the
debounce window, which swallows contact bounce.
"""

from array import array

from flagcore.ticks import ticks_add, ticks_diff

NAMES = ("white", "black", "start", "mode", "rocker")


class Buttons:
    """Debounced buttons; poll(now) appends (name, tick) presses to `events`."""

    def __init__(self, pins, *, active_low=True, debounce_ms=30):
        self.active_low = active_low
        self.window = debounce_ms
        self.names = []
        self.pins = []
        self.rocker = None
        for name, pin in pins:
            if name not in NAMES:
                raise ValueError("unknown button %r (%s)" % (name, ", ".join(NAMES)))
            if name == "rocker":
                self.rocker = len(self.pins)
            self.names.append(name)
            self.pins.append(pin)
        n = len(self.pins)
        self.state = bytearray(n)
        self.until = array("i", bytes(4 * n))
        self.events = []
        for i in range(n):
            self.state[i] = self._closed(i)

    def _closed(self, i):
        v = self.pins[i].value()
        return (1 - v) if self.active_low else v

    def held(self, name, now):
        """How long (ms) the named button has been held down at `now` (poll first), -1 if it is up
        (or is not on this board; a rocker is never held)."""
        for i in range(len(self.names)):
            if self.names[i] == name and i != self.rocker:
                if not self.state[i]:
                    return -1
                return ticks_diff(now, self.until[i]) + self.window
        return -1

    def poll(self, now):
        """Read every button at tick `now`; returns how many presses were added."""
        added = 0
        for i in range(len(self.pins)):
            v = self._closed(i)
            if v == self.state[i] or ticks_diff(now, self.until[i]) < 0:
                continue
            self.state[i] = v
            self.until[i] = ticks_add(now, self.window)
            if i == self.rocker:
                self.events.append(("white" if v else "black", now))
                added += 1
            elif v:
                self.events.append((self.names[i], now))
                added += 1
        return added
