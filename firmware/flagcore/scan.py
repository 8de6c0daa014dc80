"""Reed-switch scanning: debounce, square events, snapshots and ghost detection.

Hardware-free: a sensor driver fills `Scanner.raw` (one byte per sensor,
1 = magnet present) and the loop calls update(now) with a tick. Nothing is
allocated per scan: every buffer, the event queue included, is made once in
the constructor, and a quiet board costs one bytearray comparison.

Debounce: a sensor's new level must hold for `debounce_ms` before it counts;
the event then carries the tick at which the level first changed, so a
move's time is not delayed by the window.

Ghosting: on a matrix without diodes, three closed switches at corners of a
rectangle make the fourth corner read closed too. With diodes=False, a
square that newly reads occupied while it is a corner of an all-occupied
rectangle is held back (no event) and `ghost_changed` is set so the owner
can report a warning; it is reported once the ambiguity clears.
"""

from array import array

from flagcore.ticks import ticks_diff

from flagcore._compat import const

DOWN = const(1)   # a piece arrived on the square
UP = const(0)     # a piece left the square


class Scanner:
    """Debounced occupancy of rows x cols sensors, index = row * cols + col."""

    def __init__(self, rows, cols, debounce_ms=30, diodes=True, queue=128):
        n = rows * cols
        self.rows = rows
        self.cols = cols
        self.n = n
        self.debounce_ms = debounce_ms
        self.diodes = diodes
        self.raw = bytearray(n)       # latest reading, written by the sensor driver
        self.stable = bytearray(n)    # debounced level
        self.reported = bytearray(n)  # what the events so far describe
        self.pending = bytearray(n)   # 1 while raw differs from stable
        self.held = bytearray(n)      # ghost suspects not yet reported
        self.since = array("i", bytes(4 * n))  # tick the pending change began
        self.npending = 0
        self.cap = queue
        self.ev_sq = array("H", bytes(2 * queue))
        self.ev_v = bytearray(queue)
        self.ev_t = array("i", bytes(4 * queue))
        self.head = 0
        self.count = 0
        self.overflow = 0             # events dropped because nobody drained the queue
        self.ghost_changed = False
        self.nheld = 0

    def prime(self):
        """Take the current raw reading as the starting board, without events."""
        n = self.n
        for i in range(n):
            v = self.raw[i]
            self.stable[i] = v
            self.reported[i] = v
            self.pending[i] = 0
            self.held[i] = 0
        self.npending = 0
        self.nheld = 0
        if not self.diodes:
            self._report(0)

    def update(self, now):
        """Debounce the latest raw reading at tick `now`; returns the number of settled changes."""
        raw = self.raw
        st = self.stable
        if self.npending == 0 and raw == st:
            return 0
        pend = self.pending
        since = self.since
        win = self.debounce_ms
        changed = 0
        np = self.npending
        for i in range(self.n):
            r = raw[i]
            if r == st[i]:
                if pend[i]:
                    pend[i] = 0
                    np -= 1
                continue
            if not pend[i]:
                pend[i] = 1
                since[i] = now
                np += 1
            if ticks_diff(now, since[i]) >= win:
                st[i] = r
                pend[i] = 0
                np -= 1
                changed += 1
        self.npending = np
        if changed:
            self._report(now)
        return changed

    def _report(self, now):
        st = self.stable
        rep = self.reported
        held = self.held
        if not self.diodes:
            self._mark_ghosts()
        nheld = 0
        for i in range(self.n):
            if held[i]:
                if st[i] and not rep[i]:
                    nheld += 1
                    continue
                held[i] = 0
            if st[i] != rep[i]:
                rep[i] = st[i]
                self._push(i, st[i], self.since[i] if self.debounce_ms else now)
        if nheld != self.nheld:
            self.ghost_changed = True
        self.nheld = nheld

    def _mark_ghosts(self):
        """Set held[i] for every occupied corner of an all-occupied rectangle."""
        st = self.stable
        held = self.held
        rows = self.rows
        cols = self.cols
        for i in range(self.n):
            held[i] = 0
        for r1 in range(rows - 1):
            m1 = 0
            base = r1 * cols
            for c in range(cols):
                if st[base + c]:
                    m1 |= 1 << c
            if m1 & (m1 - 1) == 0:
                continue  # fewer than two pieces on the row
            for r2 in range(r1 + 1, rows):
                m2 = 0
                b2 = r2 * cols
                for c in range(cols):
                    if st[b2 + c]:
                        m2 |= 1 << c
                common = m1 & m2
                if common & (common - 1) == 0:
                    continue
                for c in range(cols):
                    if common & (1 << c):
                        held[base + c] = 1
                        held[b2 + c] = 1

    def _push(self, sq, v, t):
        if self.count == self.cap:
            self.overflow += 1
            return
        k = (self.head + self.count) % self.cap
        self.ev_sq[k] = sq
        self.ev_v[k] = v
        self.ev_t[k] = t
        self.count += 1

    def pop(self):
        """The oldest event as (square, DOWN or UP, tick), or None."""
        if not self.count:
            return None
        k = self.head
        self.head = (k + 1) % self.cap
        self.count -= 1
        return (self.ev_sq[k], self.ev_v[k], self.ev_t[k])

    def snapshot(self):
        """The reported occupancy (bytearray, 1 = occupied); do not modify it."""
        return self.reported

    def ghost_squares(self):
        """Squares held back as possible ghosts (list of indices)."""
        return [i for i in range(self.n) if self.held[i] and self.stable[i] and not self.reported[i]]
