"""`flagfall bridge` stops on SIGINT (Ctrl-C) and SIGTERM (a service manager's stop) the same way, even when
started with SIGINT ignored, as a script's background job inherits it (CI ran the whole suite so, and a
bridge told to stop by SIGINT went on polling: test_event_mqtt timed out)."""
import os
import signal
import subprocess
import sys
import time

import pytest

from repo import flagfall_env


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_the_bridge_stops_on_a_signal_even_started_with_sigint_ignored(tmp_path, sig):
    # a port where no device answers: the bridge waits for one, as at a board not yet plugged in
    p = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "bridge", "--port", "socket://127.0.0.1:9",
                          "--game", "chess", "--out", str(tmp_path), "--no-stdin"],
                         env=flagfall_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        end = time.monotonic() + 30
        while "waiting" not in p.stderr.readline() and time.monotonic() < end and p.poll() is None:
            pass
        p.send_signal(sig)
        p.wait(20)
    finally:
        if p.poll() is None:
            p.kill()
        p.communicate()
    assert p.returncode == 130, p.returncode
    assert not os.listdir(str(tmp_path)), "nothing is written before a device answers"
