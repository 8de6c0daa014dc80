"""Battery gauge: the cell's voltage, read through the HAL's ADC, as a level in percent and a low signal.

The board profile's "battery" section names the ADC pin, the divider in
front of it (the Pico's VSYS/3: 3), the cell chemistry (its discharge curve
below) and `low_pct`, the level at which the low-battery signal comes. That
threshold is not a guess: tools/power.py derives it from the power budget in
hardware/ (every part's current and the cell's capacity), so that at least
10 hours remain after the signal (FIDE's standard for electronic clocks), and
tools/check_boards.py rejects a profile whose `low_pct` is lower.

Readings are smoothed (an exponential average, 1/SMOOTH of each new reading, in integer mV) so
a display that lights more segments, or a buzzer, does not make the level
jump; once the signal has come it stays until the level is `RECOVER_PCT`
above the threshold (the cell was charged or swapped), so it never flickers.

A monitor on a bus (the Raspberry Pi's INA219) can fail to answer (unplugged, never fitted): its read
raises OSError, and the level is then unknown (`pct` -1, shown as "?", sent as -1 as without a
battery), never a remembered or a made-up one; the low signal, once given, stays. The next reading
that answers starts the average afresh.
"""

# level in percent at cell voltages (mV) under the clock's light load (about 0.02-0.05 C): a typical
# Li-ion curve of the kind published for 18650 cells, not measured on ours, so approximate (a few
# percent), which the budget's derating covers (tools/power.py, hardware/parts.json)
CURVES = {
    "li-ion": ((3000, 0), (3300, 2), (3400, 5), (3500, 12), (3600, 24), (3700, 40), (3800, 55),
               (3900, 68), (4000, 80), (4100, 91), (4200, 100)),
}
RECOVER_PCT = 5      # the low signal clears only this far above the threshold
SMOOTH = 8           # a reading's weight in the average: 1/SMOOTH


def level(mv, curve):
    """Percent (0-100, int) of a cell at mv millivolts on a (mV, percent) curve, linear between points."""
    if mv <= curve[0][0]:
        return curve[0][1]
    for i in range(1, len(curve)):
        v1, p1 = curve[i]
        if mv <= v1:
            v0, p0 = curve[i - 1]
            return p0 + (p1 - p0) * (mv - v0) // (v1 - v0)
    return curve[-1][1]


class Gauge:
    """Level and low signal of one cell, from readings of the ADC pin in millivolts.

    adc: the HAL's adc(pin): read_u16() for 0-3.3 V, or read_uv() where the port calibrates its
    ADC (MicroPython's ESP32); cfg: the profile's battery section
    {"divider": ratio, "chemistry": key of CURVES, "low_pct": threshold}.
    """

    def __init__(self, adc, cfg):
        chem = cfg.get("chemistry", "li-ion")
        if chem not in CURVES:
            raise ValueError("unknown battery chemistry %r (%s)" % (chem, ", ".join(sorted(CURVES))))
        self.adc = adc
        self.curve = CURVES[chem]
        self.divider = cfg.get("divider", 1)
        self.low_pct = cfg["low_pct"]
        self.mv = 0          # smoothed cell voltage
        self.acc = 0         # SMOOTH x mv
        self.n = 0           # readings taken
        self.pct = -1        # level, -1 before the first reading
        self.low = False
        self.due = 0         # tick of the next reading (the device's loop keeps it)

    def read(self):
        """Take one reading; returns True when the level or the low signal changed."""
        a = self.adc
        try:
            mv = a.read_uv() // 1000 if hasattr(a, "read_uv") else (a.read_u16() * 3300 + 32767) // 65535
        except OSError:      # the monitor does not answer: the level is unknown until it does
            self.n = 0
            changed = self.pct != -1
            self.pct = -1
            return changed
        mv = int(mv * self.divider)
        if self.n:
            # each reading moves the level 1/SMOOTH of the way; acc holds SMOOTH x the average, so a
            # steady reading is reached exactly (no rounding left over)
            self.acc += mv - self.acc // SMOOTH
        else:
            self.acc = mv * SMOOTH
        self.n += 1
        self.mv = self.acc // SMOOTH
        pct = level(self.mv, self.curve)
        low = pct <= self.low_pct if not self.low else pct < self.low_pct + RECOVER_PCT
        changed = pct != self.pct or low != self.low
        self.pct = pct
        self.low = low
        return changed
