"""A board event's route to the page (issue #29: "a board event reaches the page through fewer files than
today's 22, with no detour through commands/"), measured by tools/event_route.py on a one-board
`flagfall event --sim 1 --autoplay` traced from the frame lines that commit a move to the SSE frames
carrying it (the page's, through the hub, and the dashboard's stream). About 6 s."""
import json
import os
import subprocess
import sys

from repo import ROOT

TOOL = os.path.join(ROOT, "tools", "event_route.py")


def test_a_move_reaches_the_page_and_the_dashboard_without_commands():
    proc = subprocess.run([sys.executable, TOOL, "--json", "--speed", "30", "--ply", "4", "--timeout", "60"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, "no route measured: %s %s" % (proc.stdout[-3000:], proc.stderr[-3000:])
    res = json.loads(proc.stdout)
    assert not res["errors"], res["errors"]
    page, dashboard = res["routes"]["page"], res["routes"]["dashboard"]
    # the measure followed the move itself: read by the link, committed by the game, written by the hub
    assert page["files"][0] == "host/flagfall/serial_link.py", page["files"]
    assert "host/flagfall/bridge/game.py" in page["chain"], page["chain"]
    assert page["write_stack"][0] == "host/flagfall/broadcast/hub.py", page["write_stack"]
    for reader, route in (("page", page), ("dashboard", dashboard)):
        detour = [f for f in route["files"] + route["chain"] if f.startswith("host/flagfall/commands/")]
        assert not detour, "%s: the move goes through %s" % (reader, detour)
    assert len(page["chain"]) < 22, "the page's call chain has %d files: %s" % (len(page["chain"]), page["chain"])
