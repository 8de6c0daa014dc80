"""Buzzer for low time and flag fall.

    z = Buzzer(tone, freq=2700)            # passive: tone has on(freq) and off() (PWM)
    z = Buzzer(pin, active=True)           # active: an output pin switched on and off
    z.beep(now, 120); ... z.update(now)    # never blocks: update() ends the beep

Beeps never block: beep() starts one, update(now) ends it when its time is up.
"""

from flagcore.ticks import ticks_add, ticks_diff


class Buzzer:
    """One buzzer."""

    def __init__(self, out, *, active=False, freq=2700):
        self.pin = out
        self.active = active
        self.freq = freq
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
