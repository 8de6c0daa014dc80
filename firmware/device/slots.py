"""The user's own time controls, kept across power cycles in the HAL's store (docs/clock.md).

SLOTS numbered slots (U1..U5), one file "controls" in the store: a line "<slot> <control text>" per
stored control, then a check line "=<sum>" over the lines before it. The store writes the file aside
and renames it over the old one (device/buses.py), so a power loss mid-write leaves the old file whole;
the check line also refuses a torn file on a store without an atomic rename (then no control is
recalled rather than a wrong one). Written only when the user stores a control (flash wear); read when
the menu first opens (the app keeps the list after). Imported then, and by the control entry while it
stores one, only.
"""

SLOTS = 5
NAME = "controls"


def _sum(text):
    """A check over text's bytes (Fletcher-16 style: order matters, so a swapped or torn line fails)."""
    a = 0
    b = 0
    for ch in text.encode():
        a = (a + ch) % 255
        b = (b + a) % 255
    return b * 256 + a


def read(hal):
    """[(slot, control text)] of the stored controls, in slot order; [] when none or the file is damaged."""
    load = getattr(hal, "load", None)
    text = load(NAME) if load is not None else None
    if not text:
        return []
    at = text.rfind("=")
    if at < 0 or text[at - 1:at] not in ("", "\n"):
        return []
    try:
        if int(text[at + 1:]) != _sum(text[:at]):
            return []
    except ValueError:
        return []
    out = []
    for line in text[:at].split("\n"):
        if line:
            k, tc = line.split(" ", 1)
            out.append((int(k), tc))
    return out


def write(hal, slot, tc):
    """Keep control text tc in slot (1..SLOTS), replacing what was there; one write of the whole file.
    Returns the stored controls now, as read() would."""
    if not 1 <= slot <= SLOTS:
        raise ValueError("slot %d (1-%d)" % (slot, SLOTS))
    kept = [x for x in read(hal) if x[0] != slot]
    kept.append((slot, tc))
    kept.sort()
    body = "".join(["%d %s\n" % x for x in kept])
    hal.save(NAME, "%s=%d" % (body, _sum(body)))
    return kept
