"""Device drivers, one chip or part per module, in the Adafruit CircuitPython shape.

Each driver takes explicit pins or a bus object (whatever the HAL gives:
machine.Pin/I2C/SPI, the Blinka adapters, or the fake hardware) plus
keyword-only options, and knows nothing of board profiles: device.factory
maps a profile section to a constructor call. Registers are named with
const(). firmware/examples/<driver>_simpletest.py shows each one working.

| module | part |
|---|---|
| tm1637 | TM1637 4-digit 7-segment display |
| ssd1306 | SSD1306 OLED (I2C) |
| matrix | reed-switch matrix on GPIO rows and columns |
| hc165 | 74HC165 shift-register chain (bit-banged or SPI) |
| mcp23017 | MCP23017 I2C port expander |
| buttons | clock buttons (player buttons or a rocker, start, mode) |
| buzzer | passive (PWM) or active buzzer |
| leds | the two side LEDs |
"""
