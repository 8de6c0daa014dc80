"""Headless Chromium for the browser tests: starting one (conftest.py's `browser` fixture starts them
and quits those still running when the module's tests end) and reading a page (clock faces, its inner
width).

Chromium and its driver come from Debian (`make setup` installs them); without them a browser test
fails saying how to install them.
"""
import os
import re

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
INSTALL = ("the browser test needs Chromium and its driver from Debian: "
           "`sudo apt-get install chromium chromium-driver` (or `make setup`)")


def start_chromium(profile_dir):
    """A headless Chromium (a selenium WebDriver, 1280 x 900) with its profile in profile_dir."""
    if not (os.access(CHROMIUM, os.X_OK) and os.access(CHROMEDRIVER, os.X_OK)):
        pytest.fail(INSTALL)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1280,900",
                 "--user-data-dir=%s" % profile_dir):
        opts.add_argument(flag)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)


def running(driver):
    """True until the driver has quit."""
    proc = driver.service.process
    return proc is not None and proc.poll() is None


def clock_ms(text):
    """Milliseconds from a clock face text (h:mm:ss, m:ss or m:ss.t)."""
    m = re.fullmatch(r"(?:(\d+):)?(\d+):(\d\d)(?:\.(\d))?", text)
    assert m, text
    h, mi, s, t = m.groups()
    return ((int(h or 0) * 60 + int(mi)) * 60 + int(s)) * 1000 + int(t or 0) * 100


def inner_width(driver, width):
    """The page's inner width set to `width` px (the window's frame counted out)."""
    driver.set_window_size(width, 900)
    got = driver.execute_script("return window.innerWidth;")
    if got != width:                     # some window managers count the frame: correct once
        driver.set_window_size(2 * width - got, 900)
        got = driver.execute_script("return window.innerWidth;")
    assert got == width, got
