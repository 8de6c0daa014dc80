"""Clock buttons: two player buttons or a rocker, start/pause and mode.

cfg: {"white": PIN, "black": PIN, "start": PIN, "mode": PIN,
"active_low": true, "debounce_ms": 30} or with "rocker": PIN instead of the
two player buttons (the lever closes its contact when white's side is down).
A press is taken at its first edge, so the clock gets the exact tick; then
the input is ignored for the debounce window, which swallows contact bounce.
"""

from array import array

from flagcore.ticks import ticks_add, ticks_diff

NAMES = ("white", "black", "start", "mode")


class Buttons:
    """Debounced buttons; poll(now) appends (name, tick) presses to `events`."""

    def __init__(self, hal, cfg):
        self.active_low = cfg.get("active_low", True)
        self.window = cfg.get("debounce_ms", 30)
        self.names = []
        self.pins = []
        for name in NAMES:
            if name in cfg:
                self.names.append(name)
                self.pins.append(hal.pin_in(cfg[name], pull_up=self.active_low))
        self.rocker = None
        if "rocker" in cfg:
            self.names.append("rocker")
            self.pins.append(hal.pin_in(cfg["rocker"], pull_up=self.active_low))
            self.rocker = len(self.pins) - 1
        n = len(self.pins)
        self.state = bytearray(n)
        self.until = array("i", bytes(4 * n))
        self.events = []
        for i in range(n):
            self.state[i] = self._closed(i)

    def _closed(self, i):
        v = self.pins[i].value()
        return (1 - v) if self.active_low else v

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
