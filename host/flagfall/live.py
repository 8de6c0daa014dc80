"""The live board-state message, its MQTT topics, and arbiter commands.

One definition shared by the bridge (which makes states), the MQTT
publisher/subscriber and the broadcast server (which validates them). The
contract is docs/live-state.md; this module follows it key for key.
"""
from __future__ import annotations

import json
import re
import time
from typing import Any, Iterable, Optional, Sequence, Union

from flagfall.games import registry
from flagfall.tournament.model import DOUBLE_FORFEIT_RECORD

VERSION = 1
SLUG = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOPIC_ROOT = "flagfall"

GAMES = tuple(registry.GAMES)     # the live state's "game": a registry name
RESULTS = tuple(dict.fromkeys(r for g in registry.GAMES.values() for r in g.results))
STATE_RESULTS = RESULTS + (DOUBLE_FORFEIT_RECORD,)    # a state's result: a game's, or a double forfeit's
STATUSES = ("playing", "finished", "adjourned", "disconnected", "alert", "silent")
UNKNOWN_MS = -1        # a clock nothing told: a move's in `clocks` (made while the board was away), or the
                       # `clock` object's of a board with no device
UNKNOWN_DISPLAY = "\u2014"     # what a clock that is not known shows (a dash, never a fallen 0:00.0)
SIDES = ("white", "black")
EVENT_TYPES = ("move", "alert", "result", "clock")
ALERT_KINDS = ("illegal", "confirm")
"""A bridge alert's kind (flagfall.bridge.decisions.ALERT_ILLEGAL, ALERT_CONFIRM): an illegal move
(the only alert with a penalty), or a position the arbiter confirms."""
GRID_CELLS = frozenset(".PNBRQKpnbrqkwWbBxo*")
MAX_GRID = 32          # rows or columns; minzu's star board is the largest at 17
MAX_MOVES = 4000       # plies; far beyond any real game, bounds a hostile message
MAX_TEXT = 1 << 20     # characters of record text (pgn)

# Arbiter commands travel from a broadcast server to the board's bridge
# (in-process, or on the MQTT `command` topic). Each action lists its fields.
COMMANDS = {
    "fix_move": ("ply", "move"),       # replace the move at ply (0-based) and what follows
    "promotion": ("piece",),           # the piece chosen for a pending promotion
    "result": ("result",),             # set the game result
    "clock": ("side", "delta_ms"),     # add (or with a negative delta remove) time
    "restart": (),                     # back to the start position, clock reset
    "penalty": ("side",),              # apply the illegal-move penalty to a side (penalties "confirm")
    "time": ("side", "ms"),            # set the time a side has left (the clock paused: editing in pause)
    "moves": ("side", "count"),        # set a side's move counter (period time follows the count)
    "bonus": ("kind", "ms"),           # from now on an increment (+), delay (d) or Bronstein (b) for both
    "enter_moves": ("moves",),         # moves nobody saw being made, one line (SAN, UCI or PDN), any number
    "undo_result": (),                 # withdraw a result set by mistake: the game goes on (journaled)
    "dismiss": (),                     # dismiss the board's alert (and a penalty proposed with it)
    "resume": (),                      # start the clock of the side to move (handed to it first if need be)
}
MAX_MOVES_LINE = 4000    # characters of an enter_moves line (a whole game's moves fit)
PROMOTION_PIECES = ("q", "r", "b", "n")
BONUS_KINDS = ("+", "d", "b")
MAX_CLOCK_DELTA_MS = 24 * 3600 * 1000

Message = dict[str, Any]
"""A state, event or command message: a JSON object (docs/live-state.md)."""


def check_slug(value: object, what: str) -> str:
    """Return value if it is a valid slug, else raise ValueError naming `what`."""
    if not isinstance(value, str) or not SLUG.fullmatch(value):
        raise ValueError("%s must be 1-64 characters of A-Z a-z 0-9 _ - (got %r)" % (what, value))
    return value


def topic(tournament: str, round_: str, board: str, kind: str = "state") -> str:
    """The MQTT topic of a board's `state`, `event` or `command` channel."""
    if kind not in ("state", "event", "command"):
        raise ValueError("topic kind must be state, event or command (got %r)" % (kind,))
    return "/".join((TOPIC_ROOT, check_slug(tournament, "tournament"), check_slug(round_, "round"),
                     check_slug(board, "board"), kind))


def state_topic(tournament: str, round_: str, board: str) -> str:
    """Topic of the retained latest state of a board."""
    return topic(tournament, round_, board, "state")


def event_topic(tournament: str, round_: str, board: str) -> str:
    """Topic of the individual (not retained) events of a board."""
    return topic(tournament, round_, board, "event")


def command_topic(tournament: str, round_: str, board: str) -> str:
    """Topic on which a board's bridge receives arbiter commands."""
    return topic(tournament, round_, board, "command")


def topic_filter(tournament: Optional[str] = None, round_: Optional[str] = None, kind: str = "state") -> str:
    """An MQTT subscription filter: every board of a tournament/round, or everything."""
    parts = [TOPIC_ROOT,
             "+" if tournament is None else check_slug(tournament, "tournament"),
             "+" if round_ is None else check_slug(round_, "round"),
             "+", kind]
    return "/".join(parts)


def parse_topic(text: str) -> tuple[str, str, str, str]:
    """(tournament, round, board, kind) from a topic; raises ValueError if it is not one of ours."""
    parts = text.split("/")
    if len(parts) != 5 or parts[0] != TOPIC_ROOT or parts[4] not in ("state", "event", "command"):
        raise ValueError("not a flagfall board topic: %r" % (text[:200],))
    for what, p in zip(("tournament", "round", "board"), parts[1:4]):
        check_slug(p, what)
    return parts[1], parts[2], parts[3], parts[4]


def key_of(state: Message) -> tuple[str, str, str]:
    """The (tournament, round, board) identity of a state or event."""
    return (state["tournament"], state["round"], state["board"])


def now_ms() -> int:
    """Wall-clock epoch milliseconds (the time base of at_ms and ts)."""
    return int(time.time() * 1000)


def clock_object(white_ms: int, black_ms: int, running: Optional[str] = None, flag: Optional[str] = None,
                 tc: str = "", at_ms: Optional[int] = None, white_display: Optional[str] = None,
                 black_display: Optional[str] = None, delay_ms: int = 0) -> Message:
    """The `clock` object of a state; displays default to the clock's display model (UNKNOWN_DISPLAY for
    a time of UNKNOWN_MS)."""
    from flagcore import display
    countup = tc == "-"

    def shown(ms: int) -> str:
        return UNKNOWN_DISPLAY if ms < 0 else display.format_ms(ms, countup)
    obj: Message = {
        "white_ms": int(white_ms), "black_ms": int(black_ms),
        "running": running, "flag": flag,
        "white_display": white_display if white_display is not None else shown(white_ms),
        "black_display": black_display if black_display is not None else shown(black_ms),
        "at_ms": now_ms() if at_ms is None else int(at_ms),
        "tc": tc,
    }
    if delay_ms and running:
        obj["delay_ms"] = int(delay_ms)    # simple delay: the running side's time stands still this long
    return obj


def default_side_names(game: str) -> list[str]:
    """Display names of the two sides of a game."""
    return list(registry.spec(game).side_names)


PUBLIC_ALERT = "arbiter at the board"
"""All the public is told of an alert: its text (an illegal move, a penalty, a storage fault) is the
arbiter's, read from the event's dashboard or, on a broadcast server, from the arbiter-only
/api/board/<t>/<r>/<b>/alert."""
ARBITER_ONLY = ("alert_kind", "penalty")
"""A state's keys for the arbiter alone, with the alert's text: the alert's kind and the penalty it proposes."""


def public_view(state: Message) -> Message:
    """The state as the public sees it (a copy): the alert's text replaced by PUBLIC_ALERT and the
    arbiter-only keys (ARBITER_ONLY) left out. The one projection from the bridge's state to the
    public's: every public page, stream, feed and API reads states through it (the broadcast hub)."""
    v = {k: x for k, x in state.items() if k not in ARBITER_ONLY}
    if v.get("alert") is not None:
        v["alert"] = PUBLIC_ALERT
    return v


def make_state(tournament: str, round_: str, board: str, seq: int, game: str, position: str,
               grid: Iterable[str], moves: Iterable[str] = (), clocks: Iterable[Iterable[int]] = (),
               last_move: Iterable[Iterable[int]] = (), to_move: str = "white",
               clock: Optional[Message] = None, result: str = "*", status: str = "playing",
               alert: Optional[str] = None, pgn: str = "", tags: Optional[dict[str, str]] = None,
               orientation: str = "white", side_names: Optional[Sequence[str]] = None,
               ts: Optional[int] = None, decision: Optional[str] = None,
               decision_reason: Optional[str] = None, penalty: Optional[Message] = None,
               alert_kind: Optional[str] = None) -> Message:
    """A validated state message (a dict ready for json.dumps); `decision` (with its reason) only
    where the match decision differs from the result as played (Armageddon); `alert_kind` only
    with the bridge's own alert ("illegal": an illegal move, "confirm": the arbiter confirms)."""
    st: Message = {
        "v": VERSION,
        "tournament": tournament, "round": round_, "board": board,
        "seq": seq,
        "game": game,
        "tags": dict(tags or {}),
        "position": position,
        "grid": list(grid),
        "orientation": orientation,
        "moves": list(moves),
        "clocks": [list(c) for c in clocks],
        "last_move": [list(c) for c in last_move],
        "to_move": to_move,
        "side_names": list(side_names or default_side_names(game)),
        "clock": clock if clock is not None else clock_object(0, 0, tc="-"),
        "result": result,
        "status": status,
        "alert": alert,
        "pgn": pgn,
        "ts": now_ms() if ts is None else ts,
    }
    if penalty is not None:
        st["penalty"] = penalty
    if alert_kind is not None:
        st["alert_kind"] = alert_kind
    if decision is not None:
        st["decision"] = decision
        st["decision_reason"] = decision_reason or ""
    validate_state(st)
    return st


def _need(obj: Message, key: str, types: Union[type, tuple[type, ...]], what: Optional[str] = None) -> Any:
    if key not in obj:
        raise ValueError("state: missing key %r" % key)
    v = obj[key]
    # bool is an int in Python; a JSON true is never a valid count or time here
    if not isinstance(v, types) or (isinstance(v, bool) and bool not in _astuple(types)):
        raise ValueError("state: key %r must be %s (got %s)" % (key, what or _typename(types), type(v).__name__))
    return v


def _astuple(t: Union[type, tuple[type, ...]]) -> tuple[type, ...]:
    return t if isinstance(t, tuple) else (t,)


def _typename(types: Union[type, tuple[type, ...]]) -> str:
    names: dict[type, str] = {int: "an integer", str: "a string", list: "a list", dict: "an object"}
    return " or ".join(names.get(t, t.__name__) for t in _astuple(types))


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def validate_state(obj: object) -> Message:
    """Check a state message against docs/live-state.md; raise ValueError naming the bad key."""
    if not isinstance(obj, dict):
        raise ValueError("state: must be a JSON object")
    v = _need(obj, "v", int)
    if v != VERSION:
        raise ValueError("state: key 'v' must be %d (got %r)" % (VERSION, v))
    for k in ("tournament", "round", "board"):
        if not SLUG.fullmatch(_need(obj, k, str)):
            raise ValueError("state: key %r must be a slug of 1-64 characters A-Z a-z 0-9 _ -" % k)
    seq = _need(obj, "seq", int)
    if seq < 0:
        raise ValueError("state: key 'seq' must be 0 or more")
    game = _need(obj, "game", str)
    if game not in GAMES:
        raise ValueError("state: key 'game' must be one of %s (got %r)" % (", ".join(GAMES), game))
    tags = _need(obj, "tags", dict)
    for tk, tv in tags.items():
        if not isinstance(tk, str) or not isinstance(tv, str) or len(tv) > 1000 or not tk.isidentifier():
            raise ValueError("state: key 'tags' must map tag names to strings (bad entry %r)" % (str(tk)[:40],))
    _need(obj, "position", str)
    grid = _need(obj, "grid", list)
    if not grid or len(grid) > MAX_GRID:
        raise ValueError("state: key 'grid' must have 1-%d rows" % MAX_GRID)
    width: Optional[int] = None
    for row in grid:
        if not isinstance(row, str) or not row or len(row) > MAX_GRID:
            raise ValueError("state: key 'grid' rows must be strings of 1-%d cells" % MAX_GRID)
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise ValueError("state: key 'grid' rows must all have the same length")
        for c in row:
            if c not in GRID_CELLS:
                raise ValueError("state: key 'grid' has an unknown cell %r" % c)
    orient = _need(obj, "orientation", str)
    if orient not in SIDES:
        raise ValueError("state: key 'orientation' must be white or black (got %r)" % orient)
    moves = _need(obj, "moves", list)
    if len(moves) > MAX_MOVES:
        raise ValueError("state: key 'moves' has more than %d moves" % MAX_MOVES)
    for m in moves:
        if not isinstance(m, str) or not m or len(m) > 64:
            raise ValueError("state: key 'moves' must hold move texts (1-64 characters)")
    clocks = _need(obj, "clocks", list)
    if len(clocks) != len(moves):
        raise ValueError("state: key 'clocks' must have one entry per move (%d moves, %d clocks)"
                         % (len(moves), len(clocks)))
    for c in clocks:
        if not (isinstance(c, list) and len(c) == 2 and _int(c[0]) and _int(c[1])):
            raise ValueError("state: key 'clocks' entries must be [white_ms, black_ms] integers")
    last = _need(obj, "last_move", list)
    if len(last) > 8:
        raise ValueError("state: key 'last_move' has too many cells")
    for c in last:
        if not (isinstance(c, list) and len(c) == 2 and _int(c[0]) and _int(c[1])
                and 0 <= c[0] < len(grid) and 0 <= c[1] < width):
            raise ValueError("state: key 'last_move' cells must be [row, col] inside the grid")
    if _need(obj, "to_move", str) not in SIDES:
        raise ValueError("state: key 'to_move' must be white or black")
    names = _need(obj, "side_names", list)
    if len(names) != 2 or not all(isinstance(n, str) and 0 < len(n) <= 32 for n in names):
        raise ValueError("state: key 'side_names' must be two short strings")
    validate_clock(_need(obj, "clock", dict))
    if _need(obj, "result", str) not in STATE_RESULTS:
        raise ValueError("state: key 'result' must be one of %s" % " ".join(STATE_RESULTS))
    if _need(obj, "status", str) not in STATUSES:
        raise ValueError("state: key 'status' must be one of %s" % ", ".join(STATUSES))
    if "alert" not in obj:
        raise ValueError("state: missing key 'alert'")
    if obj["alert"] is not None and (not isinstance(obj["alert"], str) or len(obj["alert"]) > 1000):
        raise ValueError("state: key 'alert' must be null or a string of at most 1000 characters")
    if "alert_kind" in obj and (obj["alert"] is None or obj["alert_kind"] not in ALERT_KINDS):
        raise ValueError("state: key 'alert_kind' must be one of %s, and only with an alert" % ", ".join(ALERT_KINDS))
    if len(_need(obj, "pgn", str)) > MAX_TEXT:
        raise ValueError("state: key 'pgn' is longer than %d characters" % MAX_TEXT)
    if "penalty" in obj:
        p = obj["penalty"]
        if not (isinstance(p, dict) and p.get("side") in SIDES and isinstance(p.get("text"), str)
                and len(p["text"]) <= 200 and set(p) == {"side", "text"}):
            raise ValueError("state: key 'penalty' must be {\"side\": white or black, \"text\": at most 200 characters}")
    if "decision" in obj:
        if obj["decision"] not in RESULTS or obj["decision"] == "*":
            raise ValueError("state: key 'decision' must be a finished result (%s)" % " ".join(RESULTS[1:]))
        if not isinstance(obj.get("decision_reason"), str) or len(obj["decision_reason"]) > 200:
            raise ValueError("state: key 'decision_reason' must be a string of at most 200 characters")
    _need(obj, "ts", int)
    return obj


def validate_clock(c: Message) -> Message:
    """Check the `clock` object of a state; raise ValueError naming the bad field."""
    for k in ("white_ms", "black_ms", "at_ms"):
        if not _int(c.get(k)):
            raise ValueError("state: key 'clock' needs integer %r" % k)
    for k in ("running", "flag"):
        if k not in c or (c[k] is not None and c[k] not in SIDES):
            raise ValueError("state: key 'clock' field %r must be white, black or null" % k)
    for k in ("white_display", "black_display", "tc"):
        if not isinstance(c.get(k), str) or len(c[k]) > 100:
            raise ValueError("state: key 'clock' needs text %r" % k)
    if "delay_ms" in c and (not _int(c["delay_ms"]) or not 0 <= c["delay_ms"] <= 24 * 3600000):
        raise ValueError("state: key 'clock' field 'delay_ms' must be an integer from 0 to 24 h")
    return c


def make_event(type_: str, seq: int, ts: Optional[int] = None, **fields: Any) -> Message:
    """An `event` message: {'v', 'type', 'seq', 'ts', ...fields}."""
    if type_ not in EVENT_TYPES:
        raise ValueError("event type must be one of %s (got %r)" % (", ".join(EVENT_TYPES), type_))
    ev: Message = {"v": VERSION, "type": type_, "seq": seq, "ts": now_ms() if ts is None else ts}
    ev.update(fields)
    return ev


def validate_command(obj: object) -> Message:
    """Check an arbiter command {'action': ..., fields}; return a clean copy or raise ValueError."""
    if not isinstance(obj, dict):
        raise ValueError("the body must be a JSON object")
    action = obj.get("action")
    if action not in COMMANDS:
        raise ValueError("'action' must be one of %s (got %r)" % (", ".join(COMMANDS), action))
    allowed = set(COMMANDS[action]) | {"action", "id"}
    extra = sorted(k for k in obj if k not in allowed)
    if extra:
        raise ValueError("unexpected field %r for action %s (fields: %s)"
                         % (extra[0], action, ", ".join(COMMANDS[action]) or "none"))
    for f in COMMANDS[action]:
        if f not in obj:
            raise ValueError("action %s needs field %r" % (action, f))
    out: Message = {"action": action}
    if "id" in obj:
        if not isinstance(obj["id"], str) or len(obj["id"]) > 64:
            raise ValueError("'id' must be a string of at most 64 characters")
        out["id"] = obj["id"]
    if action == "fix_move":
        if not _int(obj["ply"]) or not 0 <= obj["ply"] < MAX_MOVES:
            raise ValueError("'ply' must be an integer from 0 (the first move)")
        mv = obj["move"]
        if not isinstance(mv, str) or not 0 < len(mv) <= 64 or not mv.isprintable():
            raise ValueError("'move' must be a move text of 1-64 printable characters")
        out["ply"], out["move"] = obj["ply"], mv.strip()
    elif action == "enter_moves":
        line = obj["moves"]
        if (not isinstance(line, str) or not line.strip() or len(line) > MAX_MOVES_LINE
                or not line.replace("\t", " ").isprintable()):
            raise ValueError("'moves' must be one line of moves (SAN, UCI or PDN, move numbers allowed), "
                             "1-%d printable characters" % MAX_MOVES_LINE)
        out["moves"] = " ".join(line.split())
    elif action == "promotion":
        p = obj["piece"]
        if not isinstance(p, str) or p.lower() not in PROMOTION_PIECES:
            raise ValueError("'piece' must be one of q, r, b, n")
        out["piece"] = p.lower()
    elif action == "result":
        if obj["result"] not in RESULTS:
            raise ValueError("'result' must be one of %s" % " ".join(RESULTS))
        out["result"] = obj["result"]
    elif action == "time":
        if obj["side"] not in SIDES:
            raise ValueError("'side' must be white or black")
        if not _int(obj["ms"]) or not 0 <= obj["ms"] <= MAX_CLOCK_DELTA_MS:
            raise ValueError("'ms' must be a time of 0 to 24 hours, in ms")
        out["side"], out["ms"] = obj["side"], obj["ms"]
    elif action == "moves":
        if obj["side"] not in SIDES:
            raise ValueError("'side' must be white or black")
        if not _int(obj["count"]) or not 0 <= obj["count"] <= 999:
            raise ValueError("'count' must be a move count of 0 to 999")
        out["side"], out["count"] = obj["side"], obj["count"]
    elif action == "bonus":
        if obj["kind"] not in BONUS_KINDS:
            raise ValueError("'kind' must be + (increment), d (delay) or b (Bronstein)")
        if not _int(obj["ms"]) or not 0 <= obj["ms"] <= 600000:
            raise ValueError("'ms' must be 0 (no bonus) to 10 minutes, in ms")
        out["kind"], out["ms"] = obj["kind"], obj["ms"]
    elif action == "penalty":
        if obj["side"] not in SIDES:
            raise ValueError("'side' must be white or black")
        out["side"] = obj["side"]
    elif action == "clock":
        if obj["side"] not in SIDES:
            raise ValueError("'side' must be white or black")
        d = obj["delta_ms"]
        if not _int(d) or not -MAX_CLOCK_DELTA_MS <= d <= MAX_CLOCK_DELTA_MS or d == 0:
            raise ValueError("'delta_ms' must be a non-zero integer of at most 24 hours")
        out["side"], out["delta_ms"] = obj["side"], d
    return out


def dumps(obj: object) -> str:
    """Compact JSON text of a message."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


# -- grids from position text, for publishers that have no rules object at hand --

def grid_from_fen(fen: str) -> list[str]:
    """Chess grid rows (top = rank 8) from the piece-placement field of a FEN."""
    rows: list[str] = []
    for rank in fen.split()[0].split("/"):
        row = ""
        for ch in rank:
            row += "." * int(ch) if ch.isdigit() else ch
        rows.append(row)
    if len(rows) != 8 or any(len(r) != 8 for r in rows):
        raise ValueError("not a chess FEN: %r" % fen[:100])
    return rows


def draughts_square_cell(num: int, size: int) -> tuple[int, int]:
    """(row, col) of PDN square `num` on a size x size board, square 1 top left (international numbering)."""
    per_row = size // 2
    r = (num - 1) // per_row
    i = (num - 1) % per_row
    return r, (2 * i + 1) if r % 2 == 0 else 2 * i


def grid_from_pdn_fen(fen: str, size: int = 10) -> list[str]:
    """Draughts grid rows from a PDN FEN such as 'W:W31-50:B1-20' (international numbering)."""
    cells = [["."] * size for _ in range(size)]
    parts = fen.strip().strip('"').split(":")
    nsq = size * size // 2
    for part in parts[1:]:
        if not part:
            continue
        colour = part[0].upper()
        if colour not in "WB":
            continue
        for item in part[1:].split(","):
            item = item.strip().split(".")[0]
            if not item:
                continue
            king = item[0] == "K"
            if king:
                item = item[1:]
            if "-" in item:
                a, b = item.split("-")
                nums: Sequence[int] = range(int(a), int(b) + 1)
            else:
                nums = (int(item),)
            for n in nums:
                if not 1 <= n <= nsq:
                    raise ValueError("square %d is off a %dx%d board" % (n, size, size))
                r, c = draughts_square_cell(n, size)
                ch = "w" if colour == "W" else "b"
                cells[r][c] = ch.upper() if king else ch
    return ["".join(r) for r in cells]
