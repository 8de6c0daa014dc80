"""Fixtures of the host tests: the real commands in processes of their own (processes.py), stopped
when the test ends if the test has not stopped them itself (a failed assertion, a timeout), and a
headless Chromium for the browser tests (chromium.py).

Paths: pytest's `pythonpath` (pyproject.toml) puts host/, firmware/ and tests/core on the tests'
own import path; repo.py says where the repository is and what a subprocess's PYTHONPATH is.
"""
import pytest

from chromium import running, start_chromium
from processes import EventProcess, SimProcess


@pytest.fixture
def event_process():
    """event_process(*args, python=..., token=...): `flagfall event` started (processes.EventProcess)."""
    started = []

    def start(*args, **kwargs):
        ev = EventProcess(*args, **kwargs)
        started.append(ev)
        return ev
    yield start
    for ev in started:
        if ev.proc.poll() is None:
            ev.stop()


@pytest.fixture
def sim_process():
    """sim_process(play=None, index=1, ...): a simulated board in its own process (processes.SimProcess)."""
    started = []

    def start(*args, **kwargs):
        sim = SimProcess(*args, **kwargs)
        started.append(sim)
        return sim
    yield start
    for sim in started:
        sim.kill()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """browser(): a headless Chromium (chromium.start_chromium, a profile of its own), quit when the
    module's tests end if its test has not quit it (one for a test, or one a module fixture keeps)."""
    started = []

    def start():
        driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
        started.append(driver)
        return driver
    yield start
    for driver in started:
        if running(driver):
            driver.quit()
