"""`flagfall clock` scenarios, presets and penalty policies from seeds/."""
import json
import os
import subprocess
import sys

import pytest

from flagcore import timecontrol
from flagfall import cli, presets, seeds


def run_clock(tmp_path, capsys, tc, script, *extra):
    f = tmp_path / "s.txt"
    f.write_text(script)
    code = cli.main(["clock", "--tc", tc, "--script", str(f), "--json", *extra])
    out, err = capsys.readouterr()
    return code, [json.loads(x) for x in out.splitlines()], err


def test_every_preset_parses_and_cites_its_article():
    ps = presets.time_controls()
    assert {"1975-1", "1975-2", "1975-3", "fmjd-cumulative", "fmjd-sudden-death",
            "fide-classical", "fide-rapid", "fide-blitz"} <= set(ps)
    for name, p in ps.items():
        tc = timecontrol.parse(p["tc"])
        assert tc.text() == p["tc"], name  # presets are written canonically
        assert p["source"] and p["article"] and p["name"], name


def test_1975_presets_match_the_rulebook_text():
    assert presets.time_control("1975-1").periods == [(40, 9000000, 0, 0), (16, 3600000, 0, 0)]
    assert presets.time_control("1975-2").periods == [(40, 7200000, 0, 0), (20, 3600000, 0, 0)]
    assert presets.time_control("1975-3").periods == [(40, 5400000, 0, 0), (20, 2700000, 0, 0)]


def test_penalty_policies():
    assert presets.penalty_policy("fide-2000") == (120000, 3, False)
    assert presets.penalty_policy("checkers") == (0, 2, True)
    with pytest.raises(ValueError, match="unknown penalty policy"):
        presets.penalty_policy("nope")
    for name, p in seeds.entries("penalties").items():
        assert p["source"] and p["article"], name


def test_json_keys_and_exact_flag_tick(tmp_path, capsys):
    code, recs, _ = run_clock(tmp_path, capsys, "300+3", "0 start white\n1000 press white\n400000 show\n")
    assert code == 0
    keys = {"t", "white_ms", "black_ms", "to_move", "moves_white", "moves_black",
            "period_white", "period_black", "flag"}
    assert all(keys <= set(r) for r in recs)
    flag = [r for r in recs if r["event"] == "flag"]
    assert len(flag) == 1 and flag[0]["t"] == 301000 and flag[0]["flag"] == "black"
    assert flag[0]["black_ms"] == 0 and recs[-1]["flag"] == "black"
    assert recs[1]["white_ms"] == 302000


def test_wrong_side_press_is_reported(tmp_path, capsys):
    _, recs, _ = run_clock(tmp_path, capsys, "600", "0 start white\n500 press black\n900 press white\n")
    assert recs[1]["result"].startswith("ignored") and recs[1]["moves_black"] == 0
    assert recs[2]["result"] == "ok" and recs[2]["to_move"] == "black"


def test_script_across_tick_wrap(tmp_path, capsys):
    script = "0 start white\n" + "".join("%d press %s\n" % (i * 30000, "black" if i % 2 == 0 else "white")
                                         for i in range(1, 81))
    _, a, _ = run_clock(tmp_path, capsys, "40/7200:1800", script)
    _, b, _ = run_clock(tmp_path, capsys, "40/7200:1800", script, "--base-tick", str(2 ** 30 - 600000))
    strip = lambda rs: [(r["t"], r["white_ms"], r["black_ms"], r["period_white"]) for r in rs]
    assert strip(a) == strip(b)
    assert a[-1]["period_white"] == 2 and a[-1]["period_black"] == 2


def test_early_seal_and_penalties_in_script(tmp_path, capsys):
    lines = ["0 start white"]
    t = 0
    for _ in range(40):
        t += 187500
        lines.append("%d press white" % t)
        t += 165000
        lines.append("%d press black" % t)
    lines.append("%d seal early" % t)
    lines.append("%d illegal black fide-2000" % t)
    _, recs, _ = run_clock(tmp_path, capsys, "1975-1", "\n".join(lines) + "\n")
    seal = recs[-2]
    assert seal["result"] == "ok" and seal["moves_white"] == 41
    # charged 5:00 - 1:50 = 3:10 of the 2:30 + 1:00 white has after move 40
    assert seal["white_ms"] == (150 + 60 - 190) * 60000
    assert recs[-1]["result"] == "penalty" and recs[-1]["white_ms"] == seal["white_ms"] + 120000


def test_errors_name_the_problem(tmp_path, capsys):
    code, _, err = run_clock(tmp_path, capsys, "40/9000:16/3600", "0 start white\n10 jump white\n")
    assert code == 2 and "line 2" in err and "unknown event" in err
    code, _, err = run_clock(tmp_path, capsys, "300", "5 start white\n1 press white\n")
    assert code == 2 and "backwards" in err
    code, _, err = run_clock(tmp_path, capsys, "40/", "0 start white\n")
    assert code == 2 and "column 4" in err
    code, _, err = run_clock(tmp_path, capsys, "fide-clasical", "0 start white\n")
    assert code == 2 and "presets:" in err


def test_console_script_and_help():
    exe = os.path.join(os.path.dirname(sys.executable), "flagfall")
    r = subprocess.run([exe, "clock", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--tc" in r.stdout and "seal" in r.stdout


def test_armageddon_presets_and_per_side_text(tmp_path, capsys):
    ps = presets.time_controls()
    for name in ("armageddon-5-4", "armageddon-worldcup", "armageddon-norway"):
        tc = presets.time_control(name)
        assert tc.sides is not None and "Black" in ps[name]["name"], name
    assert presets.time_control("armageddon-5-4").text() == "W300-B240"   # FIDE TRF26 tag 222 example
    code, recs, _ = run_clock(tmp_path, capsys, "W300+2-B240+2", "0 start white\n1000 press white\n3000 press black\n")
    assert code == 0 and recs[1]["white_ms"] == 301000 and recs[2]["black_ms"] == 240000
    code, _, err = run_clock(tmp_path, capsys, "W300-B", "0 start white\n")
    assert code == 2 and "column 7" in err and "Black's control" in err and "presets:" not in err


def test_finished_game_and_arbiter_edits_in_script(tmp_path, capsys):
    script = ("0 start white\n1000 press white\n2000 pause\n2000 time black 60000\n2000 moves white 5\n"
              "2000 bonus + 5000\n2500 resume\n3500 press black\n4000 illegal white fide-2000\n"
              "4000 illegal white fide-2000\n4000 illegal white fide-2000\n5000 press black\n"
              "6000 reopen\n6000 result 1/2-1/2 agreed\n")
    code, recs, _ = run_clock(tmp_path, capsys, "armageddon-5-4", script)
    assert code == 0
    assert recs[3]["black_ms"] == 60000 and recs[4]["moves_white"] == 5
    assert recs[5]["bonus"] == "+5" and recs[7]["black_ms"] == 60000 - 1000 + 5000
    loss = recs[10]
    assert loss["result"] == "loss" and loss["state"] == "finished"
    assert loss["game_result"] == "0-1" and loss["game_reason"] == "illegal"
    assert recs[11]["result"].startswith("ignored") and recs[11]["black_ms"] == loss["black_ms"]
    assert recs[12]["state"] == "paused" and recs[12]["game_result"] is None
    assert recs[13]["game_result"] == "1/2-1/2" and recs[13]["game_reason"] == "agreed"


def test_flag_ends_option(tmp_path, capsys):
    code, recs, _ = run_clock(tmp_path, capsys, "W10-B20", "0 start white\n20000 show\n", "--flag-ends")
    assert recs[1]["event"] == "flag" and recs[1]["t"] == 10000
    assert recs[-1]["state"] == "finished" and recs[-1]["game_result"] == "0-1"
    code, recs, _ = run_clock(tmp_path, capsys, "W10-B20", "0 start white\n20000 show\n")
    assert recs[-1]["state"] == "flagged" and recs[-1]["game_result"] is None


def test_walk_draws_the_faces_of_the_fide_standard_control_entered_from_the_buttons(capsys):
    # the walk docs/clock.md shows: 25 presses from power-on, the faces drawn after each one
    walk = ("mode white start start black start black start black*3 start start white*2 start start start "
            "black*3 start start start start")
    assert cli.main(["clock", "--walk", walk]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "control: 40/5400+30:1800+30 (clock ready)"
    assert sum(1 for x in out if x.startswith("press ")) == 25
    # after the last press both faces show 1:30 with the colon: the 7-segment rows of " 1:30"
    last = out[-5:-2]
    assert last[1].count(".") == 2 and last[2].count("|_|") >= 2, last


def test_walk_refuses_a_button_the_profile_lacks(capsys):
    assert cli.main(["clock", "--walk", "mode white", "--profile", "pico-chess"]) == 2
    assert "has no 'white' button" in capsys.readouterr().err


def test_the_walk_in_docs_clock_md_is_what_the_command_draws(capsys):
    # docs/clock.md shows the FIDE standard control's walk face by face: it must be the command's output
    doc = open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "clock.md"), encoding="utf-8").read()
    start = doc.index('    flagfall clock --walk "')
    walk = doc[start:].split('"')[1]
    block = doc[start:].split("```\n", 2)[1]
    assert cli.main(["clock", "--walk", walk]) == 0
    assert capsys.readouterr().out == block, "docs/clock.md's walk is stale: paste the command's output again"
