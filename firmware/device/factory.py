"""The one place where a board profile becomes driver constructor calls.

Each function takes the HAL and the profile's section for that part, opens
the pins and buses it names (hal.pin_in/pin_out/bus/tone) and calls the
driver with them and its options; only the driver module the profile needs
is imported. modules(profile) lists those driver modules: the firmware
manifest (tools/firmware_manifest.py) ships exactly them, and a test checks
the list against what the app really imports on every profile.

The app imports this module while it builds its parts and drops it again
(device.unload): nothing built here may refer back to it (a class defined here
would keep the whole module in the heap), so every part's class lives in its
driver or in device.faces.
"""

SENSOR_MODULES = {"matrix": "device.drivers.matrix", "hc165": "device.drivers.hc165",
                  "mcp23017": "device.drivers.mcp23017"}
DISPLAY_MODULES = {"tm1637": "device.drivers.tm1637", "ssd1306": "device.drivers.ssd1306"}
BUTTON_NAMES = ("white", "black", "start", "mode", "rocker")


def modules(profile):
    """The driver (and face) modules the app imports for this profile, sorted."""
    out = {"device.drivers.buttons"}
    s = profile.get("sensors")
    if s:
        out.add(_known(SENSOR_MODULES, s["type"], "sensor"))
    displays = profile.get("displays") or ()
    for d in displays:
        out.add(_known(DISPLAY_MODULES, d["type"], "display"))
    if displays:
        out.add("device.faces")
    if profile.get("buzzer"):
        out.add("device.drivers.buzzer")
    if profile.get("leds"):
        out.add("device.drivers.leds")
    if profile.get("battery"):
        out.add("flagcore.battery")
        out.add("device.power")
    return sorted(out)


def _known(table, t, what):
    m = table.get(t)
    if m is None:
        raise ValueError("unknown %s type %r (%s)" % (what, t, ", ".join(sorted(table))))
    return m


def sensors(hal, cfg):
    """The sensor reader for a profile's "sensors" section: `n` and read_into(buf)."""
    t = cfg["type"]
    _known(SENSOR_MODULES, t, "sensor")
    if t == "matrix":
        from device.drivers.matrix import Matrix
        return Matrix([hal.pin_out(p, 1) for p in cfg["rows"]],
                      [hal.pin_in(p, pull_up=True) for p in cfg["cols"]],
                      settle_us=cfg.get("settle_us", 10), sleep_us=hal.sleep_us)
    if t == "hc165":
        load = hal.pin_out(cfg["load"], 1)
        if "spi" in cfg:
            from device.drivers.hc165 import HC165_SPI
            return HC165_SPI(hal.bus(cfg["spi"]), load, chips=cfg["chips"])
        from device.drivers.hc165 import HC165
        return HC165(load, hal.pin_out(cfg["clk"], 0), hal.pin_in(cfg["data"], pull_up=False),
                     chips=cfg["chips"])
    from device.drivers.mcp23017 import MCP23017, Chain
    i2c = hal.bus(cfg["bus"])
    chips = [MCP23017(i2c, address=a) for a in cfg["addresses"]]
    return chips[0] if len(chips) == 1 else Chain(chips)


def display(hal, cfg):
    """A face (device.faces) showing its side on the driver a "displays" entry names."""
    t = cfg["type"]
    _known(DISPLAY_MODULES, t, "display")
    from device import faces
    if t == "tm1637":
        from device.drivers.tm1637 import TM1637
        d = TM1637(hal.pin_out(cfg["clk"], 1), hal.pin_out(cfg["dio"], 1, open_drain=True),
                   brightness=cfg.get("brightness", 7), delay_us=cfg.get("delay_us", 5),
                   sleep_us=hal.sleep_us)
        return faces.DigitFace(d, cfg.get("side", "white"))
    from device.drivers.ssd1306 import SSD1306_I2C
    d = SSD1306_I2C(cfg.get("width", 128), cfg.get("height", 64), hal.bus(cfg["bus"]),
                    addr=cfg.get("addr", 0x3C))
    return faces.TextFace(d, cfg.get("side", "both"))


def buttons(hal, cfg):
    """The clock buttons of a profile's "buttons" section."""
    from device.drivers.buttons import Buttons
    low = cfg.get("active_low", True)
    pins = [(name, hal.pin_in(cfg[name], pull_up=low)) for name in BUTTON_NAMES if name in cfg]
    return Buttons(pins, active_low=low, debounce_ms=cfg.get("debounce_ms", 30))


def buzzer(hal, cfg):
    """The buzzer of a profile's "buzzer" section: PWM tone (passive) or a switched pin (active)."""
    from device.drivers.buzzer import Buzzer
    if cfg.get("kind", "passive") == "active":
        return Buzzer(hal.pin_out(cfg["pin"], 0), active=True, freq=cfg.get("freq", 2700))
    return Buzzer(hal.tone(cfg["pin"]), freq=cfg.get("freq", 2700))


def battery(hal, cfg):
    """The battery gauge of a profile's "battery" section (flagcore.battery.Gauge on the HAL's ADC); the
    app reads it through device.power, imported here with it."""
    import device.power  # noqa: F401  (kept in sys.modules: the app's step uses it)
    from flagcore.battery import Gauge
    if "gauge" in cfg:     # an I2C current/voltage monitor (the Raspberry Pi, which has no ADC: an INA219)
        return Gauge(hal.gauge(cfg), cfg)
    return Gauge(hal.adc(cfg["adc"], cfg.get("atten")), cfg)


def leds(hal, cfg):
    """The side LEDs of a profile's "leds" section."""
    from device.drivers.leds import Leds
    inv = 1 if cfg.get("active_low", False) else 0
    return Leds(hal.pin_out(cfg["white"], inv), hal.pin_out(cfg["black"], inv),
                active_low=bool(inv))
