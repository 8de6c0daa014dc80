"""The event file (issue #30, item 1): `flagfall event EVENT.toml`, its sections, flags over the file,
--print-config, located errors, and a round run from a file."""
import os
import re
import subprocess
import sys
import time

import pytest

from flagfall import cli
from flagfall.broadcast import lichess_push

from processes import EventProcess
from repo import ROOT, flagfall_env

PAIRINGS = os.path.join(ROOT, "tests", "data", "event", "open2026-r4.pgn")     # nine boards, round 4


def _event_parser():
    """The parser of `flagfall event` and its event-file sections."""
    ap = cli.build_parser()
    args = ap.parse_args(["event"])
    return ap, args._event_sections


def _parse(argv):
    """The namespace `flagfall event ARGV` runs with: the file's values under the command line's."""
    ap = cli.build_parser()
    args = ap.parse_args(["event"] + argv)
    defaults = args._file_defaults(args)
    if defaults:
        args._parser.set_defaults(**defaults)
        args = ap.parse_args(["event"] + argv)
    return args


def _flagfall(*argv, cwd=None):
    return subprocess.run([sys.executable, "-m", "flagfall.cli", "event", *argv], capture_output=True, text=True,
                          timeout=60, env=flagfall_env(), cwd=cwd)


FULL = """\
[tournament]
name = "Hall Open"
site = "Town"
date = 2026-11-26
slug = "hall-open"
game = "chess"
time-control = "40/5400+30:1800+30"
laws = "fide-2018"
penalties = "auto"
armageddon = true
team-tiebreaks = "PTS,BC,BBE"
scoring = "3-1-0"

[pairings]
file = "pairings/round.trf"
round = 3
from-games = true

[boards]
map = "boards.txt"

[web]
host = "0.0.0.0"
port = 8099
delay = 900
frame-ancestors = "self"
token-file = "secret/arbiter-token"

[storage]
out = "out"
mirror = "/media/usb/flagfall"

[mqtt]
url = "mqtts://hall-a@broker.example:8883"
password-file = "mqtt-password"
ca = "ca.pem"
key-file = "event-key"

[lichess]
round = "AbCdEfGh"
token-file = "lichess-token"
url = "http://127.0.0.1:9999"
window = 2
retry-max = 30
rounds = { 2 = "IjKlMnOp", 3 = "QrStUvWx:1-50,YzAbCdEf:51-100" }
tournament = "Tour1234"
"""


def test_every_section_sets_its_options_with_paths_from_the_files_folder(tmp_path):
    f = tmp_path / "ev" / "event.toml"
    f.parent.mkdir()
    f.write_text(FULL)
    a = _parse([str(f)])
    base = str(f.parent)
    want = {"name": "Hall Open", "site": "Town", "date": "2026-11-26", "tournament": "hall-open", "game": "chess",
            "tc": "40/5400+30:1800+30", "laws": "fide-2018", "penalties": "auto", "armageddon": True,
            "team_tiebreaks": "PTS,BC,BBE", "scoring": "3-1-0",
            "pairings": os.path.join(base, "pairings", "round.trf"), "round": 3, "pairings_from_games": True,
            "boards": os.path.join(base, "boards.txt"), "host": "0.0.0.0", "port": 8099, "delay": 900.0,
            "frame_ancestors": "self", "token_file": os.path.join(base, "secret", "arbiter-token"),
            "out": os.path.join(base, "out"), "mirror": "/media/usb/flagfall",
            "mqtt": "mqtts://hall-a@broker.example:8883", "mqtt_password_file": os.path.join(base, "mqtt-password"),
            "mqtt_ca": os.path.join(base, "ca.pem"), "mqtt_key_file": os.path.join(base, "event-key"),
            "lichess_round": "AbCdEfGh", "lichess_token_file": os.path.join(base, "lichess-token"),
            "lichess_url": "http://127.0.0.1:9999", "lichess_window": 2.0,
            "lichess_rounds": "2=IjKlMnOp;3=QrStUvWx:1-50,YzAbCdEf:51-100", "lichess_tournament": "Tour1234", "lichess_retry_max": 30.0}
    assert {k: getattr(a, k) for k in want} == want
    # FULL holds every key but the simulation's and the start position's: none is left untested
    _, sections = _event_parser()
    assert {o.action.dest for o in sections.options.values()} - set(want) == {
        "demo", "teams", "position", "fen", "sim", "autoplay", "speed", "think", "seed"}


def test_a_flag_overrides_the_file_and_the_file_overrides_the_defaults(tmp_path):
    f = tmp_path / "event.toml"
    f.write_text('[web]\nport = 8099\ndelay = 60\n[tournament]\nlaws = "fide-2000"\n')
    a = _parse([str(f), "--port", "9000"])
    assert (a.port, a.delay, a.laws, a.host) == (9000, 60.0, "fide-2000", "127.0.0.1")
    a = _parse(["--delay", "5", str(f)])          # before the file's name as after it
    assert (a.port, a.delay) == (8099, 5.0)


def test_print_config_writes_the_file_that_the_flags_mean_and_reads_back_the_same(tmp_path):
    flags = ["--pairings", PAIRINGS, "--round", "4", "--sim", "3", "--autoplay", "--tc", "5400+30", "--delay", "900",
             "--laws", "fide-2018", "--tournament", "open", "--name", "Open \"A\"", "--out", str(tmp_path / "out"),
             "--lichess-round", "AbCdEfGh", "--lichess-window", "2.5", "--mqtt", "mqtt://hall@127.0.0.1:1883"]
    r = _flagfall(*flags, "--print-config")
    assert r.returncode == 0, r.stderr
    assert "[pairings]" in r.stdout and "[lichess]" in r.stdout and "token" not in r.stdout.replace("token-file", "")
    f = tmp_path / "moved.toml"
    f.write_text(r.stdout)
    from_flags, from_file = _parse(flags), _parse([str(f)])
    _, sections = _event_parser()
    for o in sections.options.values():
        d = o.action.dest
        assert getattr(from_file, d) == getattr(from_flags, d), d
    again = _flagfall(str(f), "--print-config")
    assert again.returncode == 0 and again.stdout == r.stdout


@pytest.mark.parametrize("text, where, words", [
    ('[web]\nport = "80"\n', ":2:", "[web] port must be a whole number"),
    ('[web]\n\nhost = "h"\nport =\n', ":4:", "not a TOML file"),
    ('port = 80\n', ":1:", "port is outside any section"),
    ('[hall]\nx = 1\n', ":1:", "[hall] is not a section"),
    ('[web]\nhost = "h"\ntoken = "s3cret"\n', ":3:", "[web] token is not a key of this section (secrets stay out"),
    ('[tournament]\nname = "x"\n\nlaws = "fide-2030"\n', ":4:", "laws must be one of fide-2023"),
    ('[boards]\nautoplay = "yes"\n', ":2:", "autoplay must be true or false"),
    ('[mqtt]\nurl = "mqtt://hall:pw@broker"\n', ":2:", "holds a password"),
    ('[lichess]\nwindow = "fast"\n', ":2:", "[lichess] window must be a number"),
])
def test_a_mistake_in_the_file_names_the_file_line_and_key(tmp_path, text, where, words):
    f = tmp_path / "event.toml"
    f.write_text(text)
    r = _flagfall(str(f))
    assert r.returncode == 2, r.stderr
    line = r.stderr.strip()
    assert line.startswith("flagfall event: %s%s" % (f, where)) and words in line and "\n" not in line, line
    assert "s3cret" not in r.stderr and ":pw@" not in r.stderr


def test_a_missing_file_and_boards_given_twice_are_refused(tmp_path):
    r = _flagfall(str(tmp_path / "nope.toml"))
    assert r.returncode == 2 and "nope.toml: cannot read the event file: No such file" in r.stderr
    f = tmp_path / "event.toml"
    f.write_text('[pairings]\nfile = "%s"\nround = 4\n[boards]\nmap = "boards.txt"\n' % PAIRINGS)
    r = _flagfall(str(f), "--sim", "2")
    assert r.returncode == 2 and "the boards are given twice" in r.stderr, r.stderr


def test_help_groups_the_options_by_the_files_sections():
    text = _flagfall("--help").stdout
    headings = re.findall(r"^\[(\w+)\] ", text, re.M)
    _, sections = _event_parser()
    assert headings == list(sections.titles)
    for (name, key), o in sections.options.items():
        block = text.split("[%s] " % name, 1)[1].split("\n[", 1)[0]
        assert o.action.option_strings[-1] in block, (name, key)
    assert lichess_push.GROUP_TITLE in text


def test_the_shipped_files_read(tmp_path):
    for name in ("demo.toml", "example.toml"):
        r = _flagfall(os.path.join(ROOT, "events", name), "--print-config")
        assert r.returncode == 0 and "[tournament]" in r.stdout, (name, r.stderr)


def test_a_round_runs_from_a_file_with_its_name_site_and_date_on_every_game(tmp_path):
    f = tmp_path / "event.toml"
    f.write_text('[tournament]\nname = "Hall Open"\nsite = "Town Hall"\ndate = 2026-11-26\nslug = "hall"\n'
                 '[pairings]\nfile = "%s"\nround = 4\n[boards]\nsim = 2\nautoplay = true\nspeed = 25\nthink = 0.3\n'
                 '[storage]\nout = "out"\n' % PAIRINGS)
    started = time.strftime("%Y.%m.%d")
    ev = EventProcess(str(f), "--quiet")
    try:
        ev.wait(lambda d: sum(b["plies"] for b in d["boards"]) >= 2)
        st, feed = ev.call("feed/hall/4.pgn")
        assert st == 200, feed
        # the file's date is the tournament's first day (EventDate); Date is the day each game is played
        assert '[Event "Hall Open"]' in feed and '[Site "Town Hall"]' in feed and \
            '[EventDate "2026.11.26"]' in feed, feed[:1500]
        played = re.findall(r'\[Date "([^"]*)"\]', feed)
        assert len(played) == 2 and set(played) <= {started, time.strftime("%Y.%m.%d")}, feed[:1500]
        assert os.path.isdir(tmp_path / "out")          # the file's folder, not the working directory
    finally:
        ev.stop()
