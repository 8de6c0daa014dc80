"""After a power loss: the game under way comes back from the snapshot in the HAL's store.

Imported at boot only (device.unload drops it after), so a game never holds it.
"""

from flagcore import clock as clockmod


def saved_game(app, name, now):
    """Put the stored game back on app's clock, paused, times kept; nothing if there is none (or it is
    damaged: a fresh clock then, and the host can RESTORE its last reading)."""
    load = getattr(app.hal, "load", None)
    text = load(name) if load is not None else None
    if not text:
        return
    try:
        rc = clockmod.restore(text, now)
    except clockmod.ClockError:
        return
    if rc.state == clockmod.READY:
        return
    rc.play_on = app.clock.play_on      # the device's setting, not the game's
    app.clock = rc
    app.saved = text
    app.flags_seen = list(rc.flags)
