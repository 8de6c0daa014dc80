"""Buttons simple test: two player buttons and start, active low, debounced.

On a MicroPython board: white on GPIO 20, black on 21, start on 22, to ground
(internal pull-ups); press them and the presses print with their tick.
Anywhere else: the fake hardware, with scripted presses and contact bounce.
"""
from device.drivers.buttons import Buttons
from flagcore.ticks import ticks_add, ticks_diff, ticks_ms

PINS = (("white", 20), ("black", 21), ("start", 22))
try:
    from machine import Pin
    pins = [(name, Pin(n, Pin.IN, Pin.PULL_UP)) for name, n in PINS]
    hal = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    hal = FakeHAL()
    pins = [(name, hal.pin_in(n, pull_up=True)) for name, n in PINS]

buttons = Buttons(pins, active_low=True, debounce_ms=30)
if hal is None:
    import time
    end = ticks_add(ticks_ms(), 10000)
    while ticks_diff(end, ticks_ms()) > 0:  # ten seconds of presses
        if buttons.poll(ticks_ms()):
            while buttons.events:
                print("pressed %s at %d" % buttons.events.pop(0))
        time.sleep_ms(1)
else:
    script = ((100, 20, 0), (103, 20, 1), (106, 20, 0), (180, 20, 1), (300, 21, 0), (400, 21, 1), (500, 22, 0))
    for t, pin, level in script:            # white pressed with bounce, black, start
        hal.set_input(pin, level)
        buttons.poll(t)
    for name, t in buttons.events:
        print("pressed %s at %d" % (name, t))
    assert buttons.events == [("white", 100), ("black", 300), ("start", 500)], buttons.events
print("buttons_simpletest ok")
