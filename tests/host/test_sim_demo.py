"""`flagfall demo` (what `make run` starts): two simulated boards, bridges, broadcast; records left behind."""
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request

import chess.pgn  # test oracle only

from repo import flagfall_env


def get(url, data=None, headers=None):
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_demo_plays_two_real_games_and_leaves_records(tmp_path):
    out = tmp_path / "records"
    env = flagfall_env()
    proc = subprocess.Popen([sys.executable, "-m", "flagfall.cli", "demo", "--port", "0", "--out", str(out),
                             "--speed", "8", "--think", "0.4", "--seed", "4", "--token", "demo-token"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline()
        m = re.match(r"Flagfall demo: open (http://127\.0\.0\.1:\d+/)", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None else "")
        url = m.group(1)
        assert proc.stdout.readline().strip() == "arbiter token: demo-token"
        boards = {}
        end = time.monotonic() + 60
        while time.monotonic() < end:
            st, body = get(url + "api/boards")
            boards = {b["board"]: b for b in json.loads(body)["boards"]}
            if len(boards) == 2 and all(len(b["moves"]) >= 6 for b in boards.values()):
                break
            time.sleep(0.3)
        assert set(boards) == {"1", "2"}, boards.keys()
        chess_b, dr = boards["1"], boards["2"]
        assert chess_b["game"] == "chess" and dr["game"] == "draughts"
        assert chess_b["moves"][:6] == ["e4", "c5", "Nf3", "e6", "d4", "cxd4"]   # Karpov-Kasparov 1985, game 16
        assert dr["moves"][:4] == ["34-30", "17-22", "30-25", "12-17"]           # WK 2003, Weitsman-Tsjizjow
        for b in boards.values():
            assert b["clock"]["running"] in ("white", "black") and b["clock"]["tc"] == "5400+30"
            assert b["alert"] is None
        st, pgn = get(url + "feed/demo/1.pgn")
        g = chess.pgn.read_game(io.StringIO(pgn))
        assert st == 200 and not g.errors and g.headers["White"] == "Karpov, Anatoly"
        assert len(list(g.mainline_moves())) >= 6 and g.next().clock() is not None
        st, pdn = get(url + "feed/demo/1.pdn")
        assert st == 200 and "1. 34-30 {[%clk" in pdn
        # arbiter: refused without the token, carried out by the bridge with it
        body = json.dumps({"action": "result", "result": "1-1"}).encode()
        st, _ = get(url + "api/board/demo/1/2/arbiter", body, {"Content-Type": "application/json"})
        assert st == 401
        st, reply = get(url + "api/board/demo/1/2/arbiter", body,
                        {"Content-Type": "application/json", "Authorization": "Bearer demo-token"})
        assert st == 200 and json.loads(reply)["reply"]["result"] == "1-1", reply
        st, body = get(url + "api/board/demo/1/2")
        assert json.loads(body)["result"] == "1-1" and json.loads(body)["status"] == "finished"
        # an illegal fix is refused by the bridge, and the server says so (422), changing nothing
        st, body = get(url + "api/board/demo/1/1")
        n = len(json.loads(body)["moves"])
        bad = json.dumps({"action": "fix_move", "ply": n, "move": "Qh9"}).encode()
        st, reply = get(url + "api/board/demo/1/1/arbiter", bad,
                        {"Content-Type": "application/json", "Authorization": "Bearer demo-token"})
        assert st == 422 and "refused" in json.loads(reply)["error"], (st, reply)
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            rest, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            rest, err = proc.communicate()
    assert proc.returncode == 0, err
    assert "demo stopped; records in" in rest
    names = sorted(os.listdir(out))
    assert "board1-game1.pgn" in names and "board2-game1.pdn" in names, names
    rec = (out / "board1-game1.pgn").read_text()
    g = chess.pgn.read_game(io.StringIO(rec))
    assert [g.board().san(m) for m in list(g.mainline_moves())[:1]] == ["e4"]
    assert '[Result "1-1"]' in (out / "board2-game1.pdn").read_text()
