"""A tournament round on many boards in one process: one bridge per board, the guarantees of one.

`Event` takes a round's pairings (flagfall.tournament.pairings) and a board per
pairing: a device on a serial port or pyserial URL (a real board, or a
simulated one on a TCP line). Each board has its own journal and record
under OUT/round-R/ and its own engine (flagfall.bridge.engine), tagged with
the pairing (Event, Site, Date, Round "R.B", Board, players, ratings, FIDE
ids, titles, federations, teams), the time control and a stable GameId.

    event = Event(round_, tournament="open-2026", out_dir="out", tc="5400+30")
    event.add_board(1, "/dev/ttyACM0")
    event.step()                       # one pass over every board (the caller loops)

A failure in one board's handling is caught, shown on that board and never
stops the others; an unplugged device shows as unplugged and resynchronises
when it comes back (the session's reconnect); killing the process and
starting it again resumes every board from its journal. Results come from
the rules, a flag, the arbiter, or the clock's result entry; a game with a
result stops following moves. `write_round_files()` writes OUT/round-R.pgn
(every game of the round, in board order) and, when the pairings came from
a TRF, OUT/round-R-results.trf for the pairing program.
"""
from __future__ import annotations

import collections
import json
import os
import threading
import time
from typing import Any, Callable, Optional

from flagcore import display

from flagfall.bridge import boardstate
from flagfall.bridge import engine as eng_mod
from flagfall.bridge import journal as jmod
from flagfall.bridge import records
# what a board is doing, for the arbiter's dashboard: the bridge's statuses (flagfall.bridge.boardstate)
from flagfall.bridge.boardstate import DEVICE_DOWN, FAILED, FINISHED, STATUSES
from flagfall.games import registry
from flagfall.tournament import model, pairings, teams, trf
from flagfall.event.board import EVENT_ACTIONS, FORFEITS, EventBoard, Publish, State, adjourned_state

ROUND_FILE = "round-in-play.json"
"""OUT/round-in-play.json: the round being played, so that the same command started again resumes it."""
UNFINISHED_CHOICES = ("adjourn", "forfeit")
EVENT_LOG = "event-log.jsonl"
"""OUT/event-log.jsonl: the dashboard's event log (alerts, results, forfeits, penalties, actions, rounds), a
JSON object a line, appended as it happens and read back at a restart (the dashboard's log goes on)."""
TIME_TROUBLE_MS = 5 * 60 * 1000
TIME_TROUBLE_SHARE = 10   # ... or a tenth of the time control's first period, if less (a blitz game is no trouble at 4:00)
ATTENTION = ("alert", "device", "time")
"""The dashboard's attention list, in the order an arbiter looks (Event.attention): alerts (an illegal move, a
flag, a result to confirm, a failed board), then a device away or running down (unplugged, silent, no
device at its port, its battery low), then games in time trouble."""
ALERT_STATUSES = (boardstate.ALERT, boardstate.FLAG, boardstate.RESULT_TO_CONFIRM, FAILED)
INCIDENTS_KEPT = 500       # entries of the event log the dashboard holds (the file keeps every one)

class RoundUnfinished(ValueError):
    """The next round was asked for while games of this round go on: `boards` lists them."""

    def __init__(self, text: str, boards: list[dict[str, Any]]) -> None:
        super().__init__(text)
        self.boards = boards

def board_action(obj: object) -> dict[str, Any]:
    """Check a board action of the dashboard and return a clean copy: a bridge command
    (flagfall.live.validate_command), a forfeit ({"action": "result", "result": "+/-"} or
    {"action": "forfeit", "forfeit": "+/-"}; +/- -/+ -/-), or "pause"/"resume" (the clock).
    ValueError (the text says why) otherwise."""
    from flagfall import live
    if isinstance(obj, dict):
        act = obj.get("action")
        if act == "result" and obj.get("result") in FORFEITS and set(obj) <= {"action", "result", "id"}:
            return {"action": "forfeit", "forfeit": obj["result"]}
        if act == "forfeit":
            if obj.get("forfeit") not in FORFEITS or set(obj) - {"action", "forfeit", "id"}:
                raise ValueError("'forfeit' must be one of %s" % ", ".join(FORFEITS))
            return {"action": "forfeit", "forfeit": obj["forfeit"]}
        if act in EVENT_ACTIONS:
            if set(obj) - {"action", "id"}:
                raise ValueError("action %s takes no fields" % act)
            return {"action": act}
    return live.validate_command(obj)


class Event:
    """A round of a tournament on many boards (see the module docstring)."""

    def __init__(self, round_: model.Round, *, tournament: Optional[str] = None, out_dir: str = "out",
                 game: str = "chess", tc: Optional[str] = None, penalties: str = "confirm",
                 laws: Optional[str] = None, publish: Optional[Publish] = None,
                 log: Optional[Callable[[str], None]] = None,
                 pairings_path: Optional[str] = None, games: Optional[dict[int, str]] = None,
                 armageddon: bool = False, fen: Optional[str] = None, pairings_from_games: bool = False,
                 verbose: bool = False, mirror: Optional[str] = None, teams: Optional[bool] = None,
                 about: Optional[model.TournamentAbout] = None,
                 team_tiebreaks: Optional[tuple[str, ...]] = None,
                 scoring: Optional[tuple[float, float]] = None) -> None:
        registry.lookup(game)
        self.round = round_
        self.tournament = tournament or round_.slug()
        self.out_dir = out_dir
        self.game = game
        self.tc = tc or round_.time_control or None
        self.penalties = penalties
        if laws is not None and laws not in registry.LAWS:
            raise ValueError("laws must be one of %s (got %r)" % (", ".join(registry.LAWS), laws))
        self.laws = laws or registry.LAWS[0]   # chess boards' FIDE Laws edition (draughts keep their rulebooks')
        self.armageddon = armageddon
        self.fen = fen          # every board's start position (a Chess960 round: one position for all)
        self.publish: Publish = publish or (lambda state: None)
        self.log = log or (lambda text: None)
        self.warn: Callable[[str], None] = self.log     # what the arbiter must see even when quiet (a board quarantined)
        self.pairings_path = pairings_path
        self.pairings_from_games = pairings_from_games   # the pairings file is a PGN of played games
        self.teams = teams      # a team event (None: only a TRF with 310 records is one; see read_pairings)
        self.about = about      # the event file's name, site and date, said over each round's pairings file
        self.team_tiebreaks = team_tiebreaks    # canonical codes ranking the teams (None: the file's, else the Olympiad's)
        self.scoring = scoring      # the event's own (win, draw) points (--scoring; None: the game's scale)
        self.points = scoring or registry.spec(game).points     # a result's points where the TRF gives none
        self.games = dict(games or {})
        self.mirror = mirror    # a second folder for every board's journal (another disk, a USB stick)
        self.boards: dict[int, EventBoard] = {}
        self.lock = threading.RLock()
        self.on_round: list[Callable[[Event], None]] = []   # called after a new round is loaded
        self.before_round: list[Callable[[Event], None]] = []   # ... before its bridges connect
        self.dashboard_extras: dict[str, Callable[[], Any]] = {}   # more keys of dashboard() (e.g. "lichess")
        self.on_change: list[Callable[[], None]] = []   # called (from any thread) when the dashboard may have changed
        self.stopping = threading.Event()
        self.verbose = verbose          # a log line per move (else alerts, results, penalties, rounds)
        self.incidents: collections.deque[dict[str, Any]] = collections.deque(maxlen=INCIDENTS_KEPT)
        self.log_refused: Optional[str] = None    # why the event log file cannot be written (said once)
        self.loading: Optional[dict[str, Any]] = None   # a round being loaded: its number, the step, since when
        _prepare_folder(self.round_dir)
        self.incidents.extend(read_event_log(os.path.join(out_dir, EVENT_LOG), INCIDENTS_KEPT))
        if mirror:
            _prepare_folder(os.path.join(mirror, "round-%d" % round_.round))
        self._keep_round()
        for p in round_.boards:
            self.boards[p.board] = EventBoard(self, p, self.games.get(p.board, game))

    @property
    def round_dir(self) -> str:
        """OUT/round-R: every board's journal and record."""
        return os.path.join(self.out_dir, "round-%d" % self.round.round)

    def incident(self, board: int, kind: str, text: str) -> None:
        """An entry of the dashboard's event log: an alert, its resolution, a result, an action; appended to
        OUT/event-log.jsonl too (a full disk loses the line, never the event)."""
        entry = {"at": int(time.time() * 1000), "round": self.round.round, "board": board, "kind": kind,
                 "text": text[:300]}
        self.incidents.append(entry)
        try:
            os.makedirs(self.out_dir, exist_ok=True)       # a full disk may have refused even the folder
            with open(os.path.join(self.out_dir, EVENT_LOG), "a", encoding="utf-8") as f:
                f.write(json.dumps(entry) + "\n")
            self.log_refused = None
        except OSError as e:
            if self.log_refused is None:
                self.log_refused = e.strerror or str(e)
                self.warn("cannot write the event log %s (%s): the dashboard keeps it until a restart"
                          % (os.path.join(self.out_dir, EVENT_LOG), self.log_refused))
        self.changed()

    def changed(self) -> None:
        """Say that the dashboard may have changed (a board's state published, an incident, an action):
        its stream (flagfall.event.web.DashboardStream) pushes it to the arbiters' pages."""
        for fn in self.on_change:
            fn()

    def _keep_round(self) -> None:
        """Write OUT/round-in-play.json: a restart of the same command resumes this round."""
        path = os.path.join(self.out_dir, ROUND_FILE)
        text = json.dumps({"round": self.round.round, "pairings": self.pairings_path}) + "\n"
        try:
            with open(path, encoding="utf-8") as f:
                if f.read() == text:
                    return            # a restart of the same round: nothing to write (the disk may be full)
        except (OSError, ValueError):
            pass
        try:
            records.write_atomic(path, text)
        except OSError as e:
            if not jmod.disk_full(e):
                raise
            self.warn("cannot write %s (%s): a restart of this command resumes the round its --round names"
                      % (path, e.strerror))

    def board(self, number: int) -> EventBoard:
        """A board by number; KeyError naming the boards there are."""
        try:
            return self.boards[number]
        except KeyError:
            raise KeyError("round %d has no board %d (boards %s)" % (
                self.round.round, number, ", ".join(str(b) for b in sorted(self.boards)))) from None

    def add_board(self, number: int, port: str, opener: Optional[Callable[[], Any]] = None) -> EventBoard:
        """Follow board `number` on a device (port: serial device or pyserial URL)."""
        b = self.board(number)
        b.attach(port, opener)
        return b

    def step(self) -> None:
        """One pass over every board."""
        with self.lock:
            boards = list(self.boards.values())
        for b in boards:
            b.step()

    def _loading(self, number: Optional[int], step: str = "") -> None:
        """Say where the loading of round `number` is (None: done): the dashboard shows it as it goes."""
        if number is None:
            self.loading = None
        else:
            since = self.loading["since"] if self.loading and self.loading["round"] == number else int(time.time() * 1000)
            self.loading = {"round": number, "step": step, "since": since}
        self.changed()

    def load_round(self, round_: model.Round) -> None:
        """The next round's pairings, without a restart: each board number keeps its device (its port);
        the finished round's boards are closed (journals and records stay in their round folder)."""
        try:
            self._load_round(round_)
        finally:
            self._loading(None)

    def _load_round(self, round_: model.Round) -> None:
        with self.lock:
            old = self.boards
            ports = {n: b.port for n, b in old.items() if b.port}
            self._loading(round_.round, "closing round %d's boards" % self.round.round)
            for b in old.values():
                b.close()
            self.round = round_
            _prepare_folder(self.round_dir)
            if self.mirror:
                _prepare_folder(os.path.join(self.mirror, "round-%d" % round_.round))
            self.boards = {p.board: EventBoard(self, p, self.games.get(p.board, self.game)) for p in round_.boards}
            # the devices are set up for the new game (a simulated table resets its pieces and clock)
            # before the new round's bridges connect to them
            self._loading(round_.round, "setting up the devices")
            for hook in list(self.before_round):
                hook(self)
            for k, (n, port) in enumerate(sorted(ports.items())):
                if n in self.boards:
                    self._loading(round_.round, "connecting board %d (%d of %d)" % (n, k + 1, len(ports)))
                    self.boards[n].attach(port)
            for k, b in enumerate(self.boards.values()):
                if b.engine is None:
                    self._loading(round_.round, "opening board %d's journal (%d of %d)" % (b.number, k + 1,
                                                                                         len(self.boards)))
                b.ensure_engine()
        self._loading(round_.round, "starting the round")
        self._keep_round()
        self.log("round %d loaded: %d boards" % (round_.round, len(self.boards)))
        self.incident(0, "round", "round %d loaded: %d boards" % (round_.round, len(self.boards)))
        for hook in list(self.on_round):
            hook(self)

    def unfinished(self) -> list[dict[str, Any]]:
        """The boards of the round without a result: board, players, status."""
        out = []
        for n, b in sorted(self.boards.items()):
            if b.result() == "*":
                out.append({"board": n, "white": b.pairing.white.name, "black": b.pairing.black.name,
                            "status": b.status()})
        return out

    def next_round(self, number: Optional[int] = None, unfinished: Optional[str] = None,
                   who: str = "arbiter") -> model.Round:
        """Read round `number` (default: the next) from the pairings file again (the pairing program
        has written it) and load it; ValueError if the file has no such round.

        While games of this round go on, RoundUnfinished (listing them) unless `unfinished` says
        what becomes of them: "adjourn" (they stay unfinished, '*', in the round's files) or
        "forfeit" (each is scored -/-). The round's files are written before the next is loaded."""
        if not self.pairings_path:
            raise ValueError("this event has no pairings file to read the next round from")
        if unfinished is not None and unfinished not in UNFINISHED_CHOICES:
            raise ValueError("'unfinished' must be one of %s" % ", ".join(UNFINISHED_CHOICES))
        if number == self.round.round:
            raise ValueError("round %d is the round being played" % number)
        rnd = pairings.read_pairings(self.pairings_path, number or self.round.round + 1,
                                     from_games=self.pairings_from_games, teams=self.teams, about=self.about)
        for w in rnd.warnings:
            self.log("event: %s" % w)
        if not rnd.boards:
            raise ValueError("%s has no boards in round %d yet" % (self.pairings_path, rnd.round))
        left = self.unfinished()
        if left and unfinished is None:
            raise RoundUnfinished("round %d is not finished: %s %s no result yet; finish %s, or load round %d "
                                  "adjourning or forfeiting %s" % (
                                      self.round.round, ", ".join("board %d" % b["board"] for b in left),
                                      "has" if len(left) == 1 else "have", "it" if len(left) == 1 else "them",
                                      rnd.round, "it" if len(left) == 1 else "them"), left)
        self._loading(rnd.round, "%s round %d's unfinished games" % (
            "forfeiting" if unfinished == "forfeit" else "adjourning", self.round.round) if left else
            "writing round %d's files" % self.round.round)
        try:
            self._next_round(rnd, left, unfinished, who)
        except BaseException:
            self._loading(None)
            raise
        return rnd

    def _next_round(self, rnd: model.Round, left: list[dict[str, Any]], unfinished: Optional[str],
                    who: str) -> None:
        for b in left:
            board = self.boards[b["board"]]
            if unfinished == "forfeit":
                # the game's result: its clock stops for good (the clock's "0-0": neither side scores)
                board.command({"action": "forfeit", "forfeit": model.DOUBLE_FORFEIT}, who)
            else:
                board.adjourn(who, rnd.round)
            self.log("board %d: %s (round %d loaded)" % (b["board"], "forfeited -/-" if unfinished == "forfeit"
                                                        else "adjourned", rnd.round))
        self._loading(rnd.round, "writing round %d's files" % self.round.round)
        try:
            self.write_round_files()
        except OSError as e:
            raise ValueError("cannot write round %d's files before loading the next: %s"
                             % (self.round.round, e.strerror or e)) from None
        self.load_round(rnd)

    def publish_past_rounds(self) -> int:
        """Publish again the last state of every game of the rounds before the one in play, rebuilt from
        their journals (OUT/round-K/), as a restart finds them: the pages keep serving those rounds (their
        games, results, adjourned games, standings), which only the states published tell them. A journal
        that cannot be rebuilt is passed over (said on the terminal). Returns the games published."""
        done = 0
        for k in range(1, self.round.round):
            folder = os.path.join(self.out_dir, "round-%d" % k)
            try:
                names = sorted(n for n in os.listdir(folder) if n.startswith("board-") and n.endswith(".journal"))
            except OSError:
                continue
            for name in names:
                path = os.path.join(folder, name)
                try:
                    eng = eng_mod.rebuilt(path)
                    notes = [e for e in jmod.load(path)[1] if e.get("k") == "arbiter" and e.get("ok")]
                except (OSError, ValueError, KeyError, jmod.JournalError) as e:
                    self.log("round %d: %s not shown again: %s" % (k, name, e))
                    continue
                state = eng.state()
                self.publish(adjourned_state(state) if any(e.get("what") == "adjourn" for e in notes) else state)
                done += 1
        return done

    def run(self, poll_s: float = 0.01) -> None:
        """Step every board until stop() is called."""
        while not self.stopping.is_set():
            self.step()
            self.stopping.wait(poll_s)

    def stop(self) -> None:
        """End run() and close every board (journals flushed)."""
        self.stopping.set()
        for b in self.boards.values():
            b.close()

    # -- the round
    def start_clocks(self, side: str = "white") -> int:
        """Start the clock on every board whose game has not begun (the arbiter's "start the round")."""
        n = 0
        for b in self.boards.values():
            with b.lock:
                eng = b.engine
                if b.session is None or eng is None or not eng.fresh():
                    continue
                if b.session.send("START", [side]):
                    n += 1
        return n

    def storage_problems(self) -> list[str]:
        """A line per board whose journal or record a disk refuses now (said again every minute by
        `flagfall event` while it lasts)."""
        with self.lock:
            boards = sorted(self.boards.items())
        out = []
        for n, b in boards:
            with b.lock:
                why = b.storage_problem()
            if why:
                out.append("board %d: %s" % (n, why))
        return out

    def results(self) -> dict[int, str]:
        """{board: result} of the finished games (a forfeit as +/-, -/+ or -/-)."""
        out = {}
        for n, b in sorted(self.boards.items()):
            if b.result() != "*":
                out[n] = b.result()
        return out

    def finished(self) -> bool:
        """True when every board has a result."""
        return len(self.results()) == len(self.boards)

    def dashboard(self) -> dict[str, Any]:
        """Every board's summary and the round's progress (the arbiter's view: live, never delayed)."""
        boards = [b.summary() for _, b in sorted(self.boards.items())]
        counts = {s: 0 for s in STATUSES}
        for b in boards:
            counts[b["status"]] = counts.get(b["status"], 0) + 1
        out = {"tournament": self.tournament, "round": self.round.round,
               "event": self.round.tournament_name, "boards": boards, "counts": counts,
               "finished": counts[FINISHED], "total": len(boards), "tc": self.tc, "laws": self.laws,
               "attention": attention(boards, self.tc), "loading": self.loading,
               "incidents": list(self.incidents)[-60:], "now": int(time.time() * 1000)}
        if teams.matches_of(self.round):
            out["matches"] = self.matches()
        for key, fn in self.dashboard_extras.items():
            out[key] = fn()
        return out

    def matches(self) -> list[dict[str, Any]]:
        """A team event's matches with their score from the boards' results (teams.match_json): a
        match's result is never entered, only its games'."""
        results: dict[int, Optional[str]] = {}
        for n, b in self.boards.items():
            try:
                results[n] = model.normalise_result(b.result())
            except ValueError:
                results[n] = None
        scale = teams.scale_of(self.points)
        return [teams.match_json(m.with_results(results), scale=scale) for m in teams.matches_of(self.round)]

    def write_round_files(self) -> list[str]:
        """OUT/round-R.pgn (.pdn for draughts; every game in board order) and, for a TRF's pairings,
        OUT/round-R-results.trf with round R's results filled in. Returns the paths written."""
        from flagfall.bridge import records
        from flagfall.broadcast import feeds
        written = []
        by_format: dict[str, list[State]] = {}
        for _, b in sorted(self.boards.items()):
            if b.engine is None:
                continue
            with b.lock:
                st = b.engine.state()
            by_format.setdefault(b.spec.record_format, []).append(st)
        for fmt, states in by_format.items():
            path = os.path.join(self.out_dir, "round-%d.%s" % (self.round.round, fmt))
            text = feeds.feed_text(states) if fmt in feeds.FORMATS else "\n".join(s["pgn"] for s in states)
            records.write_atomic(path, text)
            written.append(path)
        results = self.results()
        if self.pairings_path and results and _is_trf(self.pairings_path):
            path = os.path.join(self.out_dir, "round-%d-results.trf" % self.round.round)
            trf.write_results_trf_file(self.pairings_path, self.round.round, results, path,
                                       scale=self.points,   # points where the file has no scoring
                                       team_tiebreaks=self.team_tiebreaks)
            written.append(path)
        return written


def time_trouble_ms(tc: Optional[str]) -> int:
    """Below this a side's time is trouble: TIME_TROUBLE_MS, or a tenth of the control's first period if less."""
    from flagcore import timecontrol
    try:
        first = timecontrol.parse(tc).period(0)[1] if tc else 0
    except (ValueError, IndexError):
        first = 0
    return min(TIME_TROUBLE_MS, first // TIME_TROUBLE_SHARE) if first else TIME_TROUBLE_MS


def attention(boards: list[dict[str, Any]], tc: Optional[str]) -> list[dict[str, Any]]:
    """The boards that need the arbiter, in the order an arbiter looks (ATTENTION): each {"board", "kind",
    "text"}, a board once, under its most urgent kind; by board number within a kind. `boards`: the
    dashboard's summaries."""
    trouble = time_trouble_ms(tc)
    now = int(time.time() * 1000)
    out = []
    for b in boards:
        c = b.get("clock")
        clock: dict[str, Any] = c if isinstance(c, dict) else {}
        st = b["status"]
        if st in ALERT_STATUSES:
            kind, text = "alert", b.get("failure") or b.get("alert") or b.get("fix") or st.replace("-", " ")
        elif st in DEVICE_DOWN:
            kind, text = "device", b.get("fix") or st.replace("-", " ")
        elif clock.get("battery_low") and b["result"] == "*":
            kind, text = "device", "clock battery low (%s %%)" % clock.get("battery")
        elif b["result"] == "*" and clock.get("running") in ("white", "black"):
            side = clock["running"]
            ms = clock.get("%s_ms" % side)
            if not isinstance(ms, int) or ms < 0:
                continue                # not known
            if isinstance(clock.get("at_ms"), int):       # the reading's time: run on to now
                ms = max(0, ms - max(0, now - clock["at_ms"]))
            if ms >= trouble:
                continue
            kind, text = "time", "%s in time trouble: %s left" % (
                b["side_names"][0 if side == "white" else 1], display.format_ms(ms))
        else:
            continue
        out.append({"board": b["board"], "kind": kind, "text": text})
    out.sort(key=lambda a: (ATTENTION.index(a["kind"]), a["board"]))
    return out

def read_event_log(path: str, last: int) -> list[dict[str, Any]]:
    """The `last` entries of an event log file (EVENT_LOG); a line cut by a crash is passed over."""
    out: collections.deque[dict[str, Any]] = collections.deque(maxlen=last)
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if isinstance(entry, dict):
                    out.append(entry)
    except OSError:
        return []
    return list(out)


def _prepare_folder(folder: str) -> None:
    """Make `folder`; OSError naming it (its filename) if it cannot be made or files cannot be created in
    it. A full disk is no reason (it may refuse even a new folder or file): the journals' other copy or
    memory holds the moves, and the folder is made with the first file its disk takes."""
    probe = os.path.join(folder, ".flagfall-write-test-%d" % os.getpid())
    try:
        os.makedirs(folder, exist_ok=True)
        with open(probe, "wb"):
            pass
        os.remove(probe)
    except OSError as e:
        if jmod.disk_full(e):
            return
        raise OSError(e.errno, e.strerror, folder) from None


def _is_trf(path: str) -> bool:
    with open(path, "rb") as f:
        head = f.read(4096).decode("utf-8", "replace")
    return pairings.kind_of(path, head) == "trf"
