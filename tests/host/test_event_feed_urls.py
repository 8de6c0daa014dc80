"""The relay feed URLs `flagfall event` prints are those of its games: .pgn for chess, .pdn for draughts, both
for a mixed round (a draughts event once printed an empty .pgn feed)."""
import os
import subprocess
import sys
import threading
import time

from repo import ROOT, flagfall_env

PAIRINGS = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.pgn")


def _feed_lines(tmp_path, *args):
    env = flagfall_env()
    proc = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "event", "--port", "0", "--quiet", "--out",
                             str(tmp_path / "out")] + list(args),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    lines = []

    def read():
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
    threading.Thread(target=read, daemon=True).start()
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and not any(x.startswith("arbiter:") for x in lines) and proc.poll() is None:
            time.sleep(0.1)
        time.sleep(1.0)          # the feed lines follow the arbiter's at once
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    url = [x for x in lines if "live at" in x]
    assert url, ("no address printed", lines, proc.stderr.read())
    base = url[0].split("live at ")[1].strip()
    return base, [x for x in lines if x.startswith("relay feed:")]


def test_a_draughts_event_prints_its_pdn_feed_only(tmp_path):
    base, feeds = _feed_lines(tmp_path, "--game", "draughts", "--pairings", PAIRINGS, "--round", "4", "--sim", "2",
                              "--tournament", "dr")
    assert feeds == ["relay feed: %sfeed/dr/4.pdn" % base]


def test_a_mixed_event_prints_both_feeds(tmp_path):
    base, feeds = _feed_lines(tmp_path, "--demo")
    assert len(feeds) == 2 and feeds[0].startswith("relay feed: %sfeed/" % base), feeds
    assert feeds[0].split()[2].endswith("/1.pgn") and feeds[1].split()[2].endswith("/1.pdn"), feeds
