"""What each display shows: one side's time on a 4-digit display, or lines of text.

The app hands every face the same three things each refresh (white's text,
black's text, the lines for a text display); a face picks its part, fits it
with the display model (flagcore.display) and redraws only when it changed.
`side` is "white", "black" or "both" (a text display showing every line).
"""

from flagcore import display


class DigitFace:
    """A 4-digit 7-segment display (TM1637) showing one side's time."""

    def __init__(self, driver, side):
        self.driver = driver
        self.side = side
        self.lines = None

    def show(self, white, black, lines):
        """Redraw if this face's text changed."""
        if self.side == "white":
            text = white
        elif self.side == "black":
            text = black
        else:
            text = lines[0] if lines else ""
        if self.lines is not None and self.lines[0] == text:
            return
        self.lines = (text,)
        chars, colon = display.fit4(text)
        self.driver.show(chars, colon)


class TextFace:
    """A text display (SSD1306): rows of 16 pixels, 8x8 characters."""

    def __init__(self, driver, side):
        self.driver = driver
        self.side = side
        self.rows = driver.height // 16
        self.cols = driver.width // 8
        self.lines = None

    def show(self, white, black, lines):
        """Redraw if this face's lines changed."""
        if self.side == "white":
            lines = (white,)
        elif self.side == "black":
            lines = (black,)
        else:
            lines = tuple(lines)
        if lines == self.lines:
            return
        self.lines = lines
        d = self.driver
        d.fill(0)
        fitted = display.fit_lines(lines, self.rows, self.cols)
        for i in range(len(fitted)):
            d.text(fitted[i], 0, i * 16, 1)
        d.show()
