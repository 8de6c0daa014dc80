"""Minzu tiaoqi on the host: the game-record format and the `moves`/`perft` adapters.

The rules are the core engine's (flagcore.minzu). A record is PGN-like: tag
pairs, then the turns as tokens, then the result (docs/minzu.md):

    [Game "minzu"]
    [Size "6"]
    [Result "1-0"]
    [Termination "rule 68"]

    C3 D2 B3 ... xB3xE2 E4:E2 ... A5-E3xB4xE3 1-0

A token is one side's turn: a placement with its marks (`B1*C4`), a step,
slide or fly with its captures (`E4-E6xB3`), a jump chain with its captures
(`F0:D0:D2xA1`), a removal (`xA3`), or the clearing of every marked piece
(`xA0xA5`). A jump chain stopped early has an implicit `stop`.
"""
from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, Optional, Sequence, TextIO, Union

from flagcore import minzu as core

from flagfall import records

from flagfall.games.minzu_adapter import MinzuAdapter

if TYPE_CHECKING:
    from flagfall.games.registry import GameSpec

    Source = tuple[int, dict[str, str], list[str], str, Optional[str], list[tuple[core.Decision, ...]], str]
    """What replay_sources yields for a record: number, tags, (no) move texts, result, start position,
    turns, game name."""

VARIANTS = ("minzu",)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG_ORDER = ("Event", "Site", "Date", "Round", "Light", "Dark", "Game", "Size", "Options",
             "SetUp", "Result", "Termination")

_CELL = r"[A-Za-z]\d{1,2}"
_TURN = re.compile(r"^(?:(%s)(?:-(%s)|((?::%s)+))?)?((?:[*xX]%s)*)$" % (_CELL, _CELL, _CELL, _CELL))
_SUFFIX = re.compile(r"([*xX])(%s)" % _CELL)


class RecordError(ValueError):
    """A game record that cannot be read or replayed; names the line and token."""


class Record:
    """One game: tags, the decision texts in order, and the result."""

    def __init__(self, tags: Optional[Mapping[str, str]] = None, decisions: Optional[Iterable[str]] = None,
                 result: str = "*", clocks: Optional[Mapping[int, Optional[float]]] = None) -> None:
        self.tags: dict[str, str] = dict(tags or {})
        self.decisions: list[str] = list(decisions or [])
        self.result = result
        # decisions played -> mover's clock seconds after that turn
        self.clocks: dict[int, Optional[float]] = dict(clocks or {})
        self.line = 1

    def size(self) -> str:
        """The board size tag (default 9)."""
        return self.tags.get("Size", "9")

    def rules(self) -> core.Ruleset:
        """The ruleset from the Options tag ('name=value,...')."""
        return parse_options(self.tags.get("Options", ""))

    def start(self) -> core.Game:
        """A core Game at the record's start (SetUp tag honoured)."""
        rules = self.rules()
        if self.tags.get("SetUp"):
            g = core.from_text(self.tags["SetUp"], rules)
            if g.size_text() != self.size():
                raise RecordError("SetUp position is a %s board but Size is %s" % (g.size_text(), self.size()))
            return g
        return core.Game(self.size(), rules)

    def replay(self) -> core.Game:
        """The core Game after every decision and the ending in the tags; RecordError on a bad one."""
        g = self.start()
        for i, t in enumerate(self.decisions):
            try:
                if t == "stop":
                    g.play(core.STOP)
                else:
                    g.play(t)
            except ValueError as e:
                raise RecordError("line %d: decision %d (%s): %s" % (self.line, i + 1, t, e)) from None
        _apply_ending(g, self)
        return g


def parse_options(text: str) -> core.Ruleset:
    """A Ruleset from 'slide=0,compulsory=1' (values: integers, or on/off)."""
    opts: dict[str, Union[bool, int]] = {}
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        if "=" not in part:
            raise RecordError("option %r needs name=value" % part)
        k, v = [s.strip() for s in part.split("=", 1)]
        val: Union[bool, int]
        if v.lower() in ("on", "true", "yes"):
            val = True
        elif v.lower() in ("off", "false", "no"):
            val = False
        else:
            try:
                val = int(v)
            except ValueError:
                raise RecordError("option %s: %r is not a number or on/off" % (k, v)) from None
        opts[k] = val
    try:
        return core.Ruleset(**opts)
    except ValueError as e:
        raise RecordError(str(e)) from None


def format_options(rules: core.Ruleset) -> str:
    """The non-default options of a ruleset as 'name=value,...' ('' when all default)."""
    out: list[str] = []
    default = core.Ruleset().as_dict()
    for k, v in rules.as_dict().items():
        if v != default[k]:
            out.append("%s=%s" % (k, ("on" if v else "off") if isinstance(v, bool) else v))
    return ",".join(out)


def _apply_ending(g: core.Game, rec: Record) -> None:
    res = rec.result
    if g.phase == core.OVER:
        if res != "*" and res != g.result:
            raise RecordError("Result %s but the moves end the game %s (rule %d)" % (res, g.result, g.reason))
        return
    if res == "*":
        return
    term = rec.tags.get("Termination", "")
    m = re.search(r"\brule (\d+)", term)
    rule = int(m.group(1)) if m else 0
    if res == "1/2-1/2":
        g.arbiter_draw()
    elif rule == 39 or rule == 0:
        g.resign(1 if res == "1-0" else 0)
    elif rule == 67:
        loser = 1 if res == "1-0" else 0
        while g.phase != core.OVER:
            g.violation(loser)
    else:
        g.arbiter_win(0 if res == "1-0" else 1, rule)


# ---- turns <-> decisions -------------------------------------------------------

def group_turns(game: core.Game, texts: Sequence[str], ends: Optional[list[int]] = None) -> list[str]:
    """Tokens (one per turn) from the decision texts of a game starting at `game` (which is advanced).

    ends, a list, receives for each token how many of `texts` it covers up to.
    """
    g = game
    tokens: list[str] = []
    cur = ""
    clearing = False
    for i, t in enumerate(texts):
        d = core.STOP if t == "stop" else g.decision(t)
        k = core.kind(d)
        if k == core.K_STOP:
            pass                               # implicit: the next token or suffix shows it
        elif k == core.K_JUMP and g.jump_at >= 0:
            cur += ":" + g.name(core.dst(d))
        elif k in (core.K_MARK, core.K_CAPTURE) or (clearing and g.phase == core.CLEAR):
            cur += t
        else:
            if cur:
                tokens.append(cur)
                if ends is not None:
                    ends.append(i)
            cur = t
            clearing = g.phase == core.CLEAR
        g.play(d)
    if cur:
        tokens.append(cur)
        if ends is not None:
            ends.append(len(texts))
    return tokens


def split_turn(token: str) -> list[str]:
    """The decision texts of one turn token (without implicit stops); RecordError if malformed."""
    m = _TURN.match(token)
    if not m or not token:
        raise RecordError("malformed turn %r" % token)
    out: list[str] = []
    a, to, chain, rest = m.group(1), m.group(2), m.group(3), m.group(4)
    if a:
        a = a.upper()
        if to:
            out.append(a + "-" + to.upper())
        elif chain:
            cells = [c.upper() for c in chain.split(":")[1:]]
            prev = a
            for c in cells:
                out.append(prev + ":" + c)
                prev = c
        else:
            out.append(a)
    for mk, cell in _SUFFIX.findall(rest):
        out.append(("*" if mk == "*" else "x") + cell.upper())
    return out


def expand_turns(game: core.Game, tokens: Iterable[Union[str, tuple[str, int]]], line: int = 1,
                 ends: Optional[list[int]] = None) -> list[str]:
    """Decision texts, with the implicit stops, from turn tokens (or (token, line) pairs), replaying on `game`.

    ends, a list, receives for each token how many decision texts precede the next
    token's (a chain's implicit stop counts with the token before it).
    """
    g = game
    out: list[str] = []
    for n, tok in enumerate(tokens):
        if isinstance(tok, tuple):
            tok, line = tok
        for t in split_turn(tok):
            if g.jump_at >= 0 and not (":" in t and t.split(":")[0] == g.name(g.jump_at)):
                if core.STOP not in g.decisions():
                    raise RecordError("line %d: turn %s: the jump chain from %s must go on"
                                      % (line, tok, g.name(g.jump_at)))
                g.play(core.STOP)
                out.append("stop")
                if ends and ends[-1] == len(out) - 1:
                    ends[-1] = len(out)
            try:
                g.play(t)
            except ValueError as e:
                raise RecordError("line %d: turn %s: %s: %s" % (line, tok, t, e)) from None
            out.append(t)
        if ends is not None:
            ends.append(len(out))
    if g.jump_at >= 0 and core.STOP in g.decisions():
        g.play(core.STOP)
        out.append("stop")
        if ends:
            ends[-1] = len(out)
    return out


# ---- reading and writing ---------------------------------------------------------

def read_games(text: str) -> list[Record]:
    """The Records in a text (one or more games); RecordError naming the line on bad input."""
    games: list[Record] = []
    rec: Optional[Record] = None           # the record being read, its turn tokens (with their lines) and
    tokens: list[tuple[str, int]] = []     # the seconds of a [%clk] comment after a token, by token index
    clocks: dict[int, float] = {}          # (both new with each record)
    movetext_started = False
    lineno = 0

    def close() -> None:
        if rec is None:
            return
        g = rec.start()
        ends: list[int] = []
        rec.decisions = expand_turns(g, tokens, rec.line, ends)
        rec.clocks = dict((ends[i], secs) for i, secs in clocks.items() if i < len(ends))
        _apply_ending(g, rec)
        games.append(rec)

    for raw in text.splitlines():
        lineno += 1
        line = raw.strip()
        if not line:
            continue
        is_tag = line.startswith("[")
        if is_tag and rec is not None and movetext_started:
            close()
            rec = None
        if rec is None:
            rec, tokens, clocks = Record(), [], {}
            rec.line = lineno
            movetext_started = False
        if is_tag:
            kv = records.parse_tag(line, strict=True)
            if kv is None:
                raise RecordError("line %d: malformed tag %r" % (lineno, line))
            rec.tags[kv[0]] = kv[1]
            continue
        movetext_started = True
        for comment, tok in re.findall(r"\{([^}]*)\}|(\S+?)(?=\s|\{|$)", line):
            if not tok:
                secs = records.parse_clock(comment)
                if secs is not None and tokens:
                    clocks[len(tokens) - 1] = secs
                continue
            if re.match(r"^\d+\.+$", tok):
                continue
            if tok in RESULTS:
                rec.result = tok
                continue
            if not _TURN.match(tok):
                raise RecordError("line %d: malformed turn %r" % (lineno, tok))
            tokens.append((tok, lineno))
    close()
    for r in games:
        tag = r.tags.get("Result")
        if tag and tag != r.result:
            if r.result == "*" and tag in RESULTS:
                r.result = tag
            else:
                raise RecordError("line %d: Result tag %s but movetext ends %s" % (r.line, tag, r.result))
        if r.tags.get("Game", "minzu") != "minzu":
            raise RecordError("line %d: Game tag %r is not minzu" % (r.line, r.tags.get("Game")))
    return games


def write_game(rec: Record, width: int = 79) -> str:
    """A Record as record text (tags, blank line, turns, result)."""
    tags = dict(rec.tags)
    tags.setdefault("Game", "minzu")
    tags.setdefault("Size", "9")
    tags["Result"] = rec.result
    lines: list[str] = []
    keys = [k for k in TAG_ORDER if k in tags] + sorted(k for k in tags if k not in TAG_ORDER)
    for k in keys:
        lines.append(records.tag_line(k, tags[k]))
    lines.append("")
    ends: list[int] = []
    turns = group_turns(rec.start(), rec.decisions, ends)
    clock_after: dict[int, float] = {}     # token index -> the clock after the last timed turn ending within it
    for n in sorted(rec.clocks):
        secs = rec.clocks[n]
        if n > 0 and secs is not None:
            clock_after[bisect.bisect_left(ends, n)] = secs
    toks: list[str] = []
    for i, tok in enumerate(turns):
        toks.append(tok)
        if i in clock_after:
            toks.append(records.clock_comment(clock_after[i]))
    lines += records.wrap(toks + [rec.result], width)
    return "\n".join(lines) + "\n"


def record_of(game_start_size: Union[int, str], decisions: Optional[Iterable[str]], result: Optional[str],
              reason: int, rules: Optional[core.Ruleset] = None, tags: Optional[Mapping[str, str]] = None) -> Record:
    """A Record for a finished game of known decisions."""
    t = {"Game": "minzu", "Size": str(game_start_size)}
    if rules is not None:
        opts = format_options(rules)
        if opts:
            t["Options"] = opts
    if tags:
        t.update(tags)
    if result != "*" and reason:
        t["Termination"] = "rule %d" % reason
    return Record(t, decisions, result or "*")


# ---- command-line adapters ----------------------------------------------------------

def _game(fen: Optional[str] = None, size: Optional[str] = None, position: Optional[str] = None) -> core.Game:
    text = position or fen
    if text:
        try:
            g = core.from_text(text)
        except ValueError:
            if size is None and text.strip().lower() in core.SIZES:
                return core.Game(text.strip())
            raise
        if size is not None and core.parse_size(size) != (g.rows, g.cols):
            raise ValueError("--size %s does not match the %s position" % (size, g.size_text()))
        return g
    return core.Game(size if size is not None else "9")


def moves(variant: str, fen: Optional[str], size: Optional[str] = None, position: Optional[str] = None,
          **options: object) -> list[str]:
    """The legal next decisions, as text, sorted."""
    if variant not in VARIANTS:
        raise ValueError("unknown variant %r" % variant)
    g = _game(fen, size, position)
    return sorted(g.text(d) for d in g.decisions())


def _perft(g: core.Game, depth: int) -> int:
    if depth == 0:
        return 1
    ds = g.decisions()
    if depth == 1:
        return len(ds)
    n = 0
    for d in ds:
        h = g.copy()
        h.apply(d)
        n += _perft(h, depth - 1)
    return n


def perft(variant: str, depth: int, fen: Optional[str], divide: bool, out: TextIO) -> int:
    """Decision-level perft: leaves of the tree of single decisions (fen: a position text or a size)."""
    if variant not in VARIANTS:
        raise ValueError("unknown variant %r" % variant)
    g = _game(fen)
    if not divide or depth == 0:
        return _perft(g, depth)
    total = 0
    for d in sorted(g.decisions(), key=g.text):
        h = g.copy()
        h.apply(d)
        n = _perft(h, depth - 1)
        print("%s: %d" % (g.text(d), n), file=out)
        total += n
    return total


# ---- the bridge's view ------------------------------------------------------------------

def make_adapter(spec: GameSpec, size: str = "9", fen: Optional[str] = None,
                 rules: Optional[core.Ruleset] = None) -> MinzuAdapter:
    """The bridge adapter for minzu (flagfall.games.minzu_adapter); the record comes from it."""
    return MinzuAdapter(spec, size=size, fen=fen, rules=rules)


def turns_of(g: core.Game, texts: Sequence[str]) -> list[tuple[core.Decision, ...]]:
    """Split decision texts into turns (tuples of decision ints), advancing core game g."""
    turns: list[tuple[core.Decision, ...]] = []
    cur: list[core.Decision] = []
    me, ph = g.turn, g.phase
    for t in texts:
        d = core.STOP if t == "stop" else g.decision(t)
        g.apply(d)
        cur.append(d)
        if ph == core.CLEAR and g.phase == core.REMOVE and g.turn == me:
            continue      # clearing and dark's removal: one turn (see minzu_adapter)
        if g.phase == core.OVER or g.turn != me or g.phase != ph:
            turns.append(tuple(cur))
            cur = []
            me, ph = g.turn, g.phase
    if cur:
        turns.append(tuple(cur))
    return turns


def replay_sources(spec: GameSpec, path: str, variant: Optional[str] = None) -> Iterator[Source]:
    """(number, tags, texts, result, start, turns, game name) of every record of a file, for replay.

    Moves are whole turns (tuples of decisions); the game name carries the board size (minzu6 ...)."""
    for number, r in enumerate(read_games(records.read_text(path)), 1):
        turns = turns_of(r.start(), r.decisions)
        yield number, dict(r.tags), [], r.result, r.tags.get("SetUp"), turns, "minzu" + r.size()


def moves_in_record(text: str) -> int:
    """The number of decisions of the first game of a minzu record text (0 if it has none)."""
    games = read_games(text)
    return len(games[0].decisions) if games else 0
