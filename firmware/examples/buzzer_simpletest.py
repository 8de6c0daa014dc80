"""Buzzer simple test: a short and a long beep on a passive (PWM) buzzer, never blocking.

On a MicroPython board: the buzzer on GPIO 26 (PWM).
Anywhere else: the fake hardware's tone output, which remembers its frequency.
"""
from device.drivers.buzzer import Buzzer

PIN = 26
try:
    from machine import PWM, Pin

    class Tone:                     # what device.hal_machine gives the factory
        def __init__(self, pin):
            self.pwm = PWM(Pin(pin))
            self.pwm.duty_u16(0)

        def on(self, freq):
            self.pwm.freq(freq)
            self.pwm.duty_u16(32768)

        def off(self):
            self.pwm.duty_u16(0)
    tone = Tone(PIN)
    fake = None
except ImportError:
    from device.fake.fakehw import FakeHAL
    fake = FakeHAL()
    tone = fake.tone(PIN)

z = Buzzer(tone, freq=2700)
for start, ms in ((0, 120), (500, 1500)):
    z.beep(start, ms)
    if fake is not None:
        assert tone.freq == 2700 and z.sounding()
    for t in range(start, start + ms + 10, 10):    # the loop calls update(now) every pass
        z.update(t)
    assert not z.sounding()
    if fake is not None:
        assert tone.freq == 0
    print("beep of %d ms done" % ms)
assert z.count == 2
print("buzzer_simpletest ok")
