"""Buzzer for low time and flag fall.

cfg: {"pin": PIN, "kind": "passive" | "active", "freq": 2700}. A passive
buzzer gets a PWM tone; an active one is switched on and off. Beeps never
block: beep() starts one, update(now) ends it when its time is up.
"""

from flagcore.ticks import ticks_add, ticks_diff


class Buzzer:
    """One buzzer."""

    def __init__(self, hal, cfg):
        self.freq = cfg.get("freq", 2700)
        self.active = cfg.get("kind", "passive") == "active"
        if self.active:
            self.pin = hal.pin_out(cfg["pin"], 0)
        else:
            self.pin = hal.tone(cfg["pin"])
        self.end = None
        self.count = 0

    def beep(self, now, ms, freq=None):
        """Sound for ms from tick now."""
        if self.active:
            self.pin.value(1)
        else:
            self.pin.on(freq or self.freq)
        self.end = ticks_add(now, ms)
        self.count += 1

    def update(self, now):
        """Silence the buzzer once the beep is over."""
        if self.end is not None and ticks_diff(now, self.end) >= 0:
            self.end = None
            if self.active:
                self.pin.value(0)
            else:
                self.pin.off()

    def sounding(self):
        """True while a beep is on."""
        return self.end is not None
