"""Screenshots for the docs, made by the project's own browser tests: the arbiter's dashboard and a
team event's page.

    .venv/bin/python tools/docs_screenshots.py            # writes docs/img/dashboard*.png, team-*.png

Runs tests/host/test_dashboard_browser.py (an event on simulated boards, the
dashboard in headless Chromium: Debian's chromium and chromium-driver, as
`make setup` installs them) with FLAGFALL_DOCS_SHOTS set, so that the states
docs/event.md shows (the round with a move being typed, the incident panel of
an illegal move, the phone layout) are saved under docs/img/ as they are
tested; tests/host/test_team_event.py (a team event of three rounds) adds its
round's matches and team table at 1,400 and 400 px (team-*.png), and
tests/host/test_dashboard_teams_browser.py the dashboard of a team event (dashboard-teams.png). Exits
with pytest's status: a screenshot of a failing state is not kept.
"""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main() -> int:
    out = os.path.join(ROOT, "docs", "img")
    os.makedirs(out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FLAGFALL_DOCS_SHOTS=tmp)
        code = subprocess.call([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                os.path.join(ROOT, "tests", "host", "test_dashboard_browser.py"),
                                os.path.join(ROOT, "tests", "host", "test_team_event.py"),
                                os.path.join(ROOT, "tests", "host", "test_dashboard_teams_browser.py")], cwd=ROOT, env=env)
        if code != 0:
            print("docs_screenshots: the tests failed; docs/img is left as it was", file=sys.stderr)
            return code
        for name in sorted(os.listdir(tmp)):
            shutil.copyfile(os.path.join(tmp, name), os.path.join(out, name))
            print("%s  %d bytes" % (os.path.join("docs", "img", name), os.path.getsize(os.path.join(out, name))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
