"""The route of one board event to the page: which of the project's Python files run between a move's frame
line read from the link and the SSE frame carrying that move written to a viewer.

    .venv/bin/python tools/event_route.py                      # this tree
    git worktree add /tmp/before-29 35347e6^                   # issue #29's "today" (its "22 files")
    .venv/bin/python tools/event_route.py --tree /tmp/before-29 # another checkout, traced the same way
    .venv/bin/python tools/event_route.py --json               # the figures as JSON

What runs: `flagfall event` exactly as an operator starts it (flagfall.cli.main, in a process of its own whose
PYTHONPATH is the tree's host/ and firmware/), on a one-game round (`--pairings` a one-game PGN, `--round 1`,
`--sim 1 --autoplay`, `--delay 0`): one simulated board (the real firmware on fake pins) whose hands play a
bundled game and press the clock. A client thread of that process follows the public stream
(`GET /api/stream`, a page's viewer) and the dashboard's (`GET /api/event/stream`; a tree without it had the
dashboard poll `GET /api/event` every second, and so does the client there).

What is traced (sys.setprofile and threading.setprofile, installed before the event starts): every Python
call into a file under host/flagfall/ or firmware/flagcore/, in every thread, with a sequence number (a
module's own code run at its import is not a call: an import-time touch does not count).

- the hand-offs: a callback of the event loop (asyncio's Handle._run) or a thread pool's work item
  (run_in_executor) is a segment caused by the segment that scheduled it (call_soon, call_soon_threadsafe,
  call_later, call_at; the work item made); the reading thread's segment runs from a poll to its next.
- the commit: the --ply'th call of `commit` in host/flagfall/bridge/game.py (the game committing a move;
  earlier moves warm the lazy imports); the move's ply is the game's moves then, plus one;
- the read: the last call of `poll` in host/flagfall/serial_link.py in the commit's thread before the commit
  (the link reading the frame lines; the frames it returned are printed, SQ or CLK);
- the write: the first write to a socket transport (asyncio's `_SelectorSocketTransport.write`) after the
  commit, from a stack holding a host/flagfall frame, of an SSE frame (`data:`) whose JSON has the move
  (a `moves` list of --ply moves or more, a delta whose `from` + its moves reach that ply, or a dashboard
  board's `plies` reaching it): the page's
  when broadcast/hub.py is on the stack (the hub writes every viewer), else the dashboard's (its stream, or
  where it polled, the /api/event answer holding the move).

Counted, per reader:
- files executed: the distinct files (host/flagfall/..., firmware/flagcore/...) entered by the thread that
  read the frame (from the read on) and by the thread that wrote the SSE frame (from the read up to the
  write), in the order of their first entry. Other threads (the simulated board's firmware and hands, the
  clients) are the board and the viewers, not the route: they are listed apart, not counted.
- call chain (the route in the narrow sense): the distinct files on the stack at the commit (the reading
  thread: link -> session -> engine -> game) followed by those on the stack at the write (the serving
  thread) not already named.

Exit status 0 when both routes were measured (the page's alone on a tree whose dashboard had no stream), 1
otherwise (with what was missing).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "event-route-token"
PAIRINGS = """[Event "Route"]
[Site "Flagfall"]
[Date "2026.11.26"]
[Round "1.1"]
[White "White, A"]
[Black "Black, B"]
[Result "*"]

*
"""


# ---- in the traced process ------------------------------------------------------------------------------


class Tracer:
    """The profile hook: every call into a project file, the commit, the reads and the transport writes."""

    def __init__(self, tree: str, ply: int) -> None:
        self.roots = (os.path.join(os.path.realpath(tree), "host", "flagfall") + os.sep,
                      os.path.join(os.path.realpath(tree), "firmware", "flagcore") + os.sep)
        self.base = os.path.realpath(tree) + os.sep
        self.ply = ply
        self.target = ply                   # the ply of the move traced, once committed
        self.labels: dict[str, str] = {}    # co_filename -> the file relative to the tree, "" when not counted
        self.seq = 0
        self.calls: list[tuple[int, tuple, str, str]] = []     # (seq, segment, file, function)
        self.segment: dict[int, tuple] = {}     # thread -> its current segment (thread, seq of its start)
        self.parent: dict[tuple, tuple] = {}    # a loop callback's segment -> the segment that scheduled it
        self.scheduled: dict[int, tuple] = {}   # id(handle) -> the segment that scheduled it
        self.handoff: dict[int, list] = {}      # id(handle) -> the stack that scheduled it
        self.handed: dict[tuple, list] = {}     # a loop callback's segment -> the stack that scheduled it
        self.keep: list = []
        self.errors: list[str] = []
        self.no_dashboard_stream = False
        self.imported: set[str] = set()
        self.polls: dict[int, tuple] = {}   # thread -> (seq of its last poll, frames it returned, its segment)
        self.commits = 0
        self.commit: dict = {}
        self.writes: dict[str, dict] = {}    # "page" / "dashboard" -> the write that carried the move
        self.done = threading.Event()

    def label(self, filename: str) -> str:
        lab = self.labels.get(filename)
        if lab is None:
            real = os.path.realpath(filename)
            lab = real[len(self.base):] if real.startswith(self.roots) else ""
            self.labels[filename] = lab
        return lab

    def stack(self, frame, cut: bool = True) -> list[str]:
        """The project files on a frame's stack, outermost first, each once; cut: only those above the event
        loop's callback (what runs the loop is not the route)."""
        files: list[str] = []
        while frame is not None:
            if cut and frame.f_code.co_name == "_run" and frame.f_code.co_filename.endswith(
                    os.path.join("asyncio", "events.py")):
                break
            lab = self.label(frame.f_code.co_filename)
            if lab and lab not in files:
                files.append(lab)
            frame = frame.f_back
        return files[::-1]

    def hook(self, frame, event, arg):
        try:
            self.observe(frame, event, arg)
        except Exception as e:      # a profile hook that raises is removed silently: say it instead
            self.errors.append(repr(e))

    def observe(self, frame, event, arg):
        code = frame.f_code
        if event == "call":
            lab = self.label(code.co_filename)
            tid = threading.get_ident()
            if lab and code.co_name == "<module>":
                self.imported.add(lab)      # a module run at its import: not a step of the route
            elif lab:
                self.seq += 1
                if code.co_name == "poll" and lab == "host/flagfall/serial_link.py":
                    self.segment[tid] = seg = (tid, self.seq)
                    self.polls[tid] = (self.seq, [], seg)
                self.calls.append((self.seq, self.segment.get(tid, (tid, 0)), lab, code.co_name))
                if code.co_name == "commit" and lab == "host/flagfall/bridge/game.py":
                    self.commits += 1
                    if self.commits >= self.ply and not self.commit:
                        # the move this call commits is the game's next ply (its moves so far, plus one)
                        moves = getattr(frame.f_locals.get("self"), "moves", None)
                        self.target = len(moves) + 1 if isinstance(moves, list) else self.commits
                        self.commit = {"seq": self.seq, "thread": tid, "stack": self.stack(frame),
                                       "read": self.polls.get(tid, (None, [], None)), "ply": self.target}
            elif code.co_name == "_run" and code.co_filename.endswith(os.path.join("asyncio", "events.py")):
                # one callback of the event loop: a segment of its own, caused by whoever scheduled it
                self.seq += 1
                self.segment[tid] = seg = (tid, self.seq)
                handle = id(frame.f_locals.get("self"))
                self.parent[seg] = self.scheduled.get(handle)
                self.handed[seg] = self.handoff.get(handle, [])
            elif code.co_filename.endswith(EXECUTOR):
                # a thread pool's work item (run_in_executor): caused by the segment that made it
                tid = threading.get_ident()
                if code.co_name == "__init__":
                    item = frame.f_locals.get("self")
                    self.keep.append(item)
                    self.scheduled[id(item)] = self.segment.get(tid, (tid, 0))
                    self.handoff[id(item)] = self.stack(frame)
                elif code.co_name == "run" and id(frame.f_locals.get("self")) in self.scheduled:
                    self.seq += 1
                    self.segment[tid] = seg = (tid, self.seq)
                    item = id(frame.f_locals.get("self"))
                    self.parent[seg] = self.scheduled[item]
                    self.handed[seg] = self.handoff.get(item, [])
            elif (self.commit and code.co_name == "write" and code.co_filename.endswith("selector_events.py")
                  and len(self.writes) < 2):
                self.transport_write(frame)
        elif event == "return":
            if code.co_name == "poll" and isinstance(arg, list):
                tid = threading.get_ident()
                if tid in self.polls and self.label(code.co_filename) == "host/flagfall/serial_link.py":
                    self.polls[tid][1][:] = [f[1] if isinstance(f, tuple) and len(f) > 1 else getattr(f, "kind", repr(f)[:40])
                                              for f in arg]
            elif code.co_name in SCHEDULERS and code.co_filename.endswith(os.path.join("asyncio", "base_events.py")) \
                    and arg is not None and id(arg) not in self.scheduled:
                tid = threading.get_ident()
                self.keep.append(arg)       # the handle stays alive, so that its id names it alone
                self.scheduled[id(arg)] = self.segment.get(tid, (tid, 0))
                self.handoff[id(arg)] = self.stack(frame, cut=True)
            elif (code.co_name == "_run" and code.co_filename.endswith(os.path.join("asyncio", "events.py"))) or \
                    (code.co_name == "run" and code.co_filename.endswith(EXECUTOR)):
                self.segment.pop(threading.get_ident(), None)

    def transport_write(self, frame) -> None:
        data = frame.f_locals.get("data")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            return
        data = bytes(data)
        stack = self.stack(frame)
        if not stack:
            return
        # the public stream is written by the hub; anything else with the move is the dashboard's (its
        # stream, or on a tree without one the answer to its poll of /api/event)
        reader = "page" if "host/flagfall/broadcast/hub.py" in stack else "dashboard"
        if reader in self.writes or not (carries_ply(data, self.target) or
                                         (reader == "dashboard" and answer_has_ply(data, self.target))):
            return
        self.seq += 1
        tid = threading.get_ident()
        self.writes[reader] = {"seq": self.seq, "thread": tid, "stack": stack, "segment": self.segment.get(tid)}
        if len(self.writes) == 2 or self.no_dashboard_stream:
            self.done.set()


SCHEDULERS = ("call_soon", "call_soon_threadsafe", "call_later", "call_at")
EXECUTOR = os.path.join("concurrent", "futures", "thread.py")


def carries_ply(data: bytes, ply: int) -> bool:
    """Whether an SSE frame's JSON holds the ply'th move: a `moves` list that long, or a delta from before it."""
    for m in re.finditer(rb"^data: (.*)$", data, re.M):
        try:
            obj = json.loads(m.group(1))
        except ValueError:
            continue
        if has_ply(obj, ply):
            return True
    return False


def answer_has_ply(data: bytes, ply: int) -> bool:
    """Whether an HTTP answer's JSON body (or a write of the body alone) holds the ply'th move."""
    body = data.split(b"\r\n\r\n", 1)[-1]
    try:
        return has_ply(json.loads(body), ply)
    except ValueError:
        return False


def has_ply(obj, ply: int) -> bool:
    """Whether a live state (or anything holding one) has the ply'th move: a full `moves` list, or a delta's
    (`from`: the moves before the list) ending at it or after, or a dashboard board's `plies` reaching it."""
    if isinstance(obj, dict):
        moves = obj.get("moves")
        if isinstance(moves, list):
            first = obj.get("from", 0)
            if isinstance(first, int) and first < ply <= first + len(moves):
                return True
        if isinstance(obj.get("plies"), int) and obj["plies"] >= ply:     # the dashboard's count of moves
            return True
        return any(has_ply(v, ply) for v in obj.values())
    if isinstance(obj, list):
        return any(has_ply(v, ply) for v in obj)
    return False


def follow(url: str, path: str, token: str | None, stop: threading.Event, poll: bool = False) -> str:
    """Read a stream (or poll a JSON answer every second) until stop; how it was followed."""
    import http.client
    from urllib.parse import urlsplit
    u = urlsplit(url)
    headers = {"Authorization": "Bearer " + token} if token else {}
    while not stop.is_set():
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=5)
        try:
            conn.request("GET", u.path.rstrip("/") + path, headers=headers)
            resp = conn.getresponse()
            if resp.status == 404:
                return "none"
            if poll:
                resp.read()
                time.sleep(1)
                continue
            while not stop.is_set():
                if not resp.fp.readline():
                    break
        except OSError:
            time.sleep(0.2)
        finally:
            conn.close()
    return "followed"


def child(args: argparse.Namespace) -> int:
    tree = os.path.realpath(args.tree)
    import flagfall
    here = os.path.realpath(flagfall.__file__)
    if not here.startswith(os.path.join(tree, "host") + os.sep):
        print(json.dumps({"error": "flagfall imported from %s, not from %s/host" % (here, tree)}))
        return 1
    from flagfall import cli
    tracer = Tracer(tree, args.ply)
    url: list[str] = []

    class Tee:
        """The event's terminal: kept for the report, and the URL it prints picked out."""
        def __init__(self, out):
            self.out, self.lines = out, []

        def write(self, s):
            self.lines.append(s)
            m = re.search(r"live at (http://127\.0\.0\.1:\d+/)", s)
            if m and not url:
                url.append(m.group(1))
            return len(s)

        def flush(self):
            pass

    real_out = sys.stdout
    sys.stdout = tee = Tee(real_out)
    stop = threading.Event()

    def clients():
        while not url and not stop.is_set():
            time.sleep(0.05)
        if stop.is_set():
            return
        threading.Thread(target=follow, args=(url[0], "/api/stream", None, stop), daemon=True).start()
        if follow(url[0], "/api/event/stream", TOKEN, stop) == "none":
            tracer.no_dashboard_stream = True       # an older tree: its dashboard polled /api/event
            if "page" in tracer.writes:
                tracer.done.set()
            follow(url[0], "/api/event", TOKEN, stop, poll=True)

    def watchdog():
        ended = not tracer.done.wait(args.timeout)
        sys.setprofile(None)
        threading.setprofile(None)
        stop.set()
        report = result(tracer)
        report["timed_out"] = ended
        report["terminal"] = "".join(tee.lines)[-2000:] if ended else ""
        real_out.write(json.dumps(report) + "\n")
        real_out.flush()
        os._exit(0)

    threading.Thread(target=clients, daemon=True, name="route-clients").start()
    threading.Thread(target=watchdog, daemon=True, name="route-watchdog").start()
    with open(os.path.join(args.out, "one.pgn"), "w") as f:
        f.write(PAIRINGS)
    argv = ["event", "--pairings", os.path.join(args.out, "one.pgn"), "--round", "1", "--sim", "1", "--autoplay",
            "--speed", str(args.speed), "--port", "0", "--token", TOKEN, "--delay", "0",
            "--out", os.path.join(args.out, "event")]
    threading.setprofile(tracer.hook)
    sys.setprofile(tracer.hook)
    cli.main(argv)
    time.sleep(args.timeout)
    return 1


def result(tracer: Tracer) -> dict:
    """The routes found, as plain data."""
    out: dict = {"errors": tracer.errors[:5], "commits_seen": tracer.commits,
                 "dashboard_stream": not tracer.no_dashboard_stream, "imported": sorted(tracer.imported),
                 "commit": dict(tracer.commit), "routes": {}}
    if not tracer.commit:
        return out
    c = tracer.commit
    read_seq, frames, start = c["read"]
    out["commit"]["read"] = frames
    if start is None:
        start = (c["thread"], 0)
        read_seq = c["seq"]
    files_of: dict[tuple, set] = {}
    for seq, seg, lab, _ in tracer.calls:
        if seq >= read_seq:
            files_of.setdefault(seg, set()).add(lab)

    def descends(seg) -> bool:
        while seg is not None and seg != start:
            seg = tracer.parent.get(seg)
        return seg == start

    for reader, w in sorted(tracer.writes.items()):
        # the callbacks from the read to the write: the write's own and those the read caused that lead
        # to it; when the write's callback was scheduled before the read (a flush already pending, which
        # sends whatever the hub holds), those the read caused that ran the writer's module (handing it the state)
        path = [w["segment"]]
        while path[-1] is not None and path[-1] != start:
            path.append(tracer.parent.get(path[-1]))
        caused = path[-1] == start
        if caused:
            route = set(path)
        else:
            writer = set(w["stack"])
            route = {start, w["segment"]} | {seg for seg in files_of if seg[1] <= w["seq"] and seg != start
                                             and descends(seg) and files_of[seg] & writer}
            for seg in list(route - {w["segment"]}):     # with the callbacks between the read and those
                while seg is not None and seg != start:
                    route.add(seg)
                    seg = tracer.parent.get(seg)
        files: list[str] = []
        functions: dict[str, dict[str, int]] = {}
        elsewhere: set[str] = set()
        for seq, seg, lab, name in tracer.calls:
            if read_seq <= seq <= w["seq"]:
                if seg in route:
                    if lab not in files:
                        files.append(lab)
                    calls = functions.setdefault(lab, {})
                    calls[name] = calls.get(name, 0) + 1
                else:
                    elsewhere.add(lab)
        chain = list(c["stack"])
        for seg in sorted(route - {start}, key=lambda s: s[1]):     # the hand-offs, in their order, then the write
            chain += [f for f in tracer.handed.get(seg, []) if f not in chain]
        chain += [f for f in w["stack"] if f not in chain]
        out["routes"][reader] = {
            "files": files, "functions": functions, "chain": chain, "write_stack": w["stack"], "caused": caused,
            "callbacks": len(route) - 1, "elsewhere": sorted(elsewhere - set(files))}
    return out


# ---- the command ----------------------------------------------------------------------------------------


def measure(tree: str, ply: int, speed: float, timeout: float) -> dict:
    """Run the traced event for a tree; its routes (see result)."""
    tree = os.path.realpath(tree)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.join(tree, "host"), os.path.join(tree, "firmware")]))
    env.pop("FLAGFALL_TOKEN", None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"    # the measured checkout is only read
    with tempfile.TemporaryDirectory(prefix="event-route-") as tmp:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--tree", tree, "--out", tmp,
                               "--ply", str(ply), "--speed", str(speed), "--timeout", str(timeout)],
                              cwd=tmp, env=env, capture_output=True, text=True, timeout=timeout + 60)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    return {"error": "the traced event printed no result (exit %s): %s" % (proc.returncode, proc.stderr[-3000:])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See the module docstring (head -40 tools/event_route.py) for what is counted.")
    ap.add_argument("--tree", default=ROOT, help="the checkout to measure (its host/ and firmware/; default this one)")
    ap.add_argument("--ply", type=int, default=6,
                    help="the move whose route is traced (default 6: the first moves warm the lazy imports)")
    ap.add_argument("--speed", type=float, default=8.0, help="the simulated board's time factor (default 8)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for both writes (default 120)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--functions", action="store_true",
                    help="after each file executed, the functions of it that ran (and how often)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    res = measure(args.tree, args.ply, args.speed, args.timeout)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print_report(args.tree, res, args.functions)
    wanted = {"page", "dashboard"} if res.get("dashboard_stream", True) else {"page"}
    return 0 if wanted <= set(res.get("routes", {})) else 1


def print_report(tree: str, res: dict, functions: bool = False) -> None:
    print("tree: %s" % os.path.realpath(tree))
    if "error" in res or not res.get("commit"):
        print("no route measured: %s" % (res.get("error") or "%d commits seen; timed out; terminal:\n%s"
                                          % (res.get("commits_seen", 0), res.get("terminal", ""))))
        return
    read = res["commit"]["read"]
    print("move %s committed from frames %s read by serial_link.poll" % (
        res["commit"].get("ply"), read or "(no poll in its thread)"))
    for reader in ("page", "dashboard"):
        r = res["routes"].get(reader)
        if r is None and reader == "dashboard" and not res.get("dashboard_stream", True):
            print("\ndashboard: no stream on this tree (GET /api/event/stream: 404); its dashboard polled /api/event")
            continue
        if r is None:
            print("\n%s: no SSE frame carrying the move was written (timed out: %s)" % (reader, res.get("timed_out")))
            continue
        print("\n%s: files executed: %d (the reading thread's frames, then %d event-loop callbacks%s)" % (
            reader, len(r["files"]), r["callbacks"], "" if r["caused"] else
            "; the write's callback was pending before the read"))
        for f in r["files"]:
            print("  " + f + ("" if not functions else "  " + ", ".join(
                "%s x%d" % kv for kv in sorted(r["functions"][f].items(), key=lambda kv: -kv[1]))))
        print("%s: call chain: %d (the stack at the commit, at each hand-off, at the write)"
              % (reader, len(r["chain"])))
        for f in r["chain"]:
            print("  " + f)
        through = [f for f in r["files"] + r["chain"] if "/commands/" in f]
        print("%s: through commands/: %s" % (reader, ", ".join(sorted(set(through))) or "no"))
        print("%s: not counted (other threads and callbacks meanwhile): %s" % (reader, ", ".join(r["elsewhere"])))


if __name__ == "__main__":
    sys.exit(main())
