"""Draughts on the host: PDN reading and writing, and the `perft`/`moves` command adapters.

The rules are the core engine's (flagcore.draughts: international, Brazilian,
Russian, English checkers); this module only deals with text.

PDN 3.0 (https://pdn.fmjd.org): tag pairs, `GameType` 20 (international),
21 (English checkers), 25 (Russian), 26 (Brazilian), optionally with the
extra fields (`20,W,10,10,N2,0`); movetext with move numbers in any spacing
(`1.`, `1...`, `26`), comments `{...}` (a `[%clk h:mm:ss]` inside one is the
clock time after that move, as is the mover's time in a Lidraughts
`[%clock w0:10:00 B0:09:58]`), variations `(...)` (skipped), NAGs, `!?`
marks, results `2-0 0-2 1-1 0-0 1-0 0-1 1/2-1/2 *`; a UTF-8 BOM and CRLF line
ends. Moves are read in numeric (`32-28`, `28x19`, `28x19x10`, `1- 6`) and
algebraic (`c3-d4`, `c3:e5`, `b6xd4`) form; FEN tags may use either kind of
square, and may end in Lidraughts' `:H0:F1` (half-move clock, move number).
A game whose moves cannot be read is kept, with its error: `PdnGame.replay`
raises it (a PdnError whose `reason` says why in a few words), and the other
games of the file are read as usual.
Russian and Brazilian games are written in algebraic notation, the others
in numbers.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterator, Mapping, Optional, Sequence, TextIO, Union

from flagcore import draughts as core

from flagfall import records
from flagfall.games import registry

if TYPE_CHECKING:
    from flagfall.games.draughts_adapter import DraughtsAdapter

    Source = tuple[int, dict[str, str], list[str], str, Optional[str], list[core.Move], Optional[str]]
    """What replay_sources yields for a game: number, tags, move texts, result, FEN, moves, game name."""

VARIANTS = tuple(n for s in registry.of_family("draughts") for n in (s.name,) + s.aliases)

# PDN GameType number <-> the rules engine's variant name (PDN 3.0), from the registry
GAMETYPES = {s.gametype: s.variant for s in registry.of_family("draughts")}
GAMETYPE_OF = {s.variant: s.gametype for s in registry.of_family("draughts")}
RESULTS = ("2-0", "0-2", "1-1", "0-0", "1-0", "0-1", "1/2-1/2", "*")
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")

DraughtsError = core.DraughtsError

_TOKEN = re.compile(r"""
    (?P<comment>\{[^}]*\}?)
  | (?P<line>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>2-0|0-2|1-1|0-0|1-0|0-1|1/2-1/2|½-½|\*)(?![\w/:-])
  | (?P<number>\d+\s*\.+)
  | (?P<dots>\.+)
  | (?P<move>(?:[a-j]?\d+)(?:\s*[-x:X]\s*[a-j]?\d+)+[!?*+#]*)
  | (?P<bare>\d+)(?![\w.-])
  | (?P<annot>[!?]+)
""", re.VERBOSE)


class PdnError(records.RecordError):
    """A PDN game that cannot be read or replayed; names the game and the move (`reason`: why, in short)."""


def variant_of_gametype(value: Optional[str], default: str = "international") -> str:
    """Variant name for a PDN GameType tag value ('20', '21,B,8,8,N1,0', ...)."""
    if not value:
        return default
    code = value.split(",")[0].strip()
    if code not in GAMETYPES:
        raise PdnError("GameType %r is not a draughts variant Flagfall plays (20, 21, 25, 26)" % value,
                       reason="GameType %s not supported" % code)
    return GAMETYPES[code]


_FEN_COUNTERS = re.compile(r"(?::[HF]\d*)+\.?\s*$")


def core_fen(fen: str) -> str:
    """A PDN FEN tag's text as the core reads it: Lidraughts' trailing ':H0:F1' (half-move
    clock and move number) and a final '.' dropped, spaces removed."""
    return _FEN_COUNTERS.sub("", fen.strip()).rstrip(".").replace(" ", "")


class PdnGame:
    """One game read from PDN: tags, main-line move texts, comments after moves, result."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.moves: list[str] = []      # move texts as written
        self.comments: list[str] = []   # comment text after each main-line move ('' if none)
        self.result = "*"
        self.line = 0
        self.error: Optional[PdnError] = None    # a PdnError met while reading the moves (raised by replay)

    def name(self) -> str:
        """Short text naming the game, for error messages."""
        t = self.tags
        return "%s - %s, %s %s (line %d)" % (t.get("White", "?"), t.get("Black", "?"),
                                             t.get("Event", "?"), t.get("Date", "?"), self.line)

    def variant(self, default: str = "international") -> str:
        """The variant from the GameType tag (default if there is none)."""
        return variant_of_gametype(self.tags.get("GameType"), default)

    def first_mover(self) -> str:
        """'w' or 'b': the side (as PDN names it) that makes the first move written."""
        fen = self.tags.get("FEN", "").strip().upper()
        if fen[:1] in ("W", "B"):
            return fen[:1].lower()
        try:
            return "b" if self.variant() == "checkers" else "w"
        except PdnError:
            return "w"

    def clocks(self) -> list[Optional[float]]:
        """Clock time in seconds after each move, or None: from a [%clk h:mm:ss] comment after
        it, or the mover's time in a Lidraughts [%clock w0:10:00 B0:09:58] comment."""
        out: list[Optional[float]] = []
        first = self.first_mover()
        other = "b" if first == "w" else "w"
        for k, c in enumerate(self.comments):
            t = records.parse_clock(c)
            if t is None:
                both = records.parse_side_clocks(c)
                if both is not None:
                    # the clock that runs after a move is the opponent's (written in capitals)
                    running = both["running"]
                    mover = ({"w": "b", "b": "w"}.get(running) if isinstance(running, str) else None) \
                        or (first if k % 2 == 0 else other)
                    secs = both.get(mover)      # the side's seconds (the other values are side names)
                    t = secs if isinstance(secs, float) else None
            out.append(t)
        return out

    def start(self, variant: Optional[str] = None) -> core.Game:
        """A core Game at the game's start position (FEN tag if any)."""
        try:
            v = variant or self.variant()
        except PdnError as e:
            raise PdnError("%s: %s" % (self.name(), e), reason=e.reason)
        fen = self.tags.get("FEN")
        try:
            return core.Game(v, core_fen(fen) if fen else None)
        except DraughtsError as e:
            raise PdnError("%s: bad FEN tag: %s" % (self.name(), e), reason="bad FEN")

    def replay(self, variant: Optional[str] = None) -> tuple[core.Game, list[core.Move]]:
        """(Game after the last move, list of Moves played). A move written from-to that
        matches several captures is resolved by trying each with the rest of the game."""
        if self.error is not None:
            raise self.error
        g = self.start(variant)
        played: list[core.Move] = []
        if not self._replay(g, 0, played):
            k = len(played)
            text = self.moves[k] if k < len(self.moves) else "?"
            try:
                g.parse(text)
                why = "cannot continue the game after it"
            except DraughtsError as e:
                why = str(e)
            raise PdnError("%s: move %d (%s): %s" % (self.name(), k // 2 + 1, text, why), reason="illegal move")
        return g, played

    def _replay(self, g: core.Game, k: int, played: list[core.Move]) -> bool:
        # iterative over unambiguous moves; recursion only at an ambiguous one
        n = len(self.moves)
        while k < n:
            try:
                cands = g.candidates(self.moves[k])
            except DraughtsError:
                return False
            if not cands:
                return False
            if len(cands) == 1:
                played.append(g.push(cands[0]))
                k += 1
                continue
            depth = len(played)
            for m in cands:
                played.append(g.push(m))
                if self._replay(g, k + 1, played):
                    return True
                while len(played) > depth:
                    played.pop()
                    g.pop()
            return False
        return True


def _split_games(text: str) -> list[tuple[int, list[str], str]]:
    # (line number, tag lines, movetext) per game; a game starts at a tag line
    # after movetext, so a blank line inside movetext does not split a game
    games: list[tuple[int, list[str], str]] = []
    tags: list[str] = []
    keys: set[Optional[str]] = set()
    body: list[str] = []
    start = 1
    in_comment = False
    for no, raw in enumerate(text.splitlines(), 1):
        raw = raw.lstrip("\ufeff")   # a BOM, also where files were concatenated
        line = raw.strip()
        if not in_comment and line.startswith("[") and line.endswith("]"):
            kv = records.parse_tag(line)
            key = kv[0] if kv else None
            # a new game starts at a tag after movetext, or at a tag its tags already have
            if any(x.strip() for x in body) or key is not None and key in keys:
                games.append((start, tags, "\n".join(body)))
                tags = []
                keys = set()
                body = []
            if not tags:
                start = no
            tags.append(line)
            keys.add(key)
            continue
        if not tags and not any(x.strip() for x in body):
            start = no
        body.append(raw)
        for ch in line:
            if ch == "{":
                in_comment = True
            elif ch == "}":
                in_comment = False
    if tags or any(x.strip() for x in body):
        games.append((start, tags, "\n".join(body)))
    return games


def parse_movetext(text: str, game: PdnGame) -> PdnGame:
    """Fill game.moves, game.comments and game.result from PDN movetext."""
    depth = 0
    pos = 0
    n = len(text)
    while pos < n:
        if text[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            end = pos
            while end < n and not text[end].isspace():
                end += 1
            raise PdnError("%s: cannot read %r in the moves" % (game.name(), text[pos:end]),
                           reason="unreadable move")
        pos = m.end()
        kind = m.lastgroup
        if kind == "comment" or kind == "line":
            if depth == 0 and game.moves:
                c = m.group()[1:].rstrip("}") if kind == "comment" else m.group()[1:]
                game.comments[-1] = (game.comments[-1] + " " + c).strip()
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif kind == "result":
            if depth == 0:
                game.result = m.group()
        elif kind == "move" and depth == 0:
            game.moves.append(re.sub(r"\s+", "", m.group()))
            game.comments.append("")
    return game


def read_games(text: str) -> list[PdnGame]:
    """Every game in a PDN text, as PdnGame objects (moves not yet replayed). A game whose
    moves cannot be read keeps the moves before the fault and its PdnError in `error`."""
    out = []
    for start, tags, body in _split_games(text):
        g = PdnGame()
        g.line = start
        for t in tags:
            kv = records.parse_tag(t)
            if kv:
                g.tags[kv[0]] = kv[1].strip()
        try:
            parse_movetext(body, g)
        except PdnError as e:
            g.error = e
        if g.result == "*" and g.tags.get("Result"):
            g.result = g.tags["Result"]
        out.append(g)
    return out


def read_file(path: str) -> list[PdnGame]:
    """read_games() of a file (UTF-8, or Latin-1 if it is not valid UTF-8)."""
    return read_games(records.read_text(path))


def write_game(variant: str, tags: Mapping[str, str], moves: Sequence[Union[core.Move, str]], result: str = "*",
               clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
               width: int = 79, notes: Optional[Sequence[str]] = None) -> str:
    """PDN text of one game: moves are Moves (replayed from the start or fen to
    write them in the variant's notation) or move texts written as given;
    clocks (seconds or None per move) become [%clk h:mm:ss] comments; notes (a text per move, ''
    for none) go in the same comment."""
    v = core.variant_name(variant)
    out = []
    t = dict(tags)
    t["Result"] = result
    t["GameType"] = GAMETYPE_OF[v]
    if fen:
        t["FEN"] = fen
    for key in SEVEN_TAGS:
        out.append(records.tag_line(key, t.get(key, "?")))
    for key, val in t.items():
        if key not in SEVEN_TAGS:
            out.append(records.tag_line(key, val))
    g = core.Game(v, fen or None)
    number = 1
    black_first = g.side == core.BLACK and v != "checkers" or g.side == core.WHITE and v == "checkers"
    tokens: list[str] = []
    for k, m in enumerate(moves):
        if isinstance(m, core.Move):
            text = g.move_text(m)
            g.push(m)
        else:
            text = str(m)
        first_of_pair = (k % 2 == 0) != black_first
        if first_of_pair:
            tokens.append("%d." % number)
        elif k == 0:
            tokens.append("%d..." % number)
        tokens.append(text)
        secs = clocks[k] if clocks and k < len(clocks) else None
        comment = records.move_comment(secs, notes[k] if notes and k < len(notes) else "")
        if comment:
            tokens.append(comment)
        if not first_of_pair:
            number += 1
    tokens.append(result)
    return "\n".join(out) + "\n\n" + "\n".join(records.wrap(tokens, width)) + "\n"


def _game(variant: str, fen: Optional[str]) -> core.Game:
    try:
        return core.Game(variant, fen or None)
    except DraughtsError as e:
        raise ValueError(str(e))


def perft(variant: str, depth: int, fen: Optional[str], divide: bool, out: TextIO) -> int:
    """Leaf count to depth (same start, end and captured set = one move); with
    divide, prints 'move: count' for each first move."""
    g = _game(variant, fen)
    r = g.rules
    if not divide:
        return r.perft(g.board, g.side, depth)
    total = 0
    for m in sorted(g.legal(), key=lambda m: m.short()):
        b = g.board[:]
        r.play(b, m.internal, g.side)
        n = r.perft(b, g.side ^ 3, depth - 1)
        out.write("%s: %d\n" % (m.short(), n))
        total += n
    return total if depth > 0 else 1


def moves(variant: str, fen: Optional[str], **options: object) -> list[str]:
    """Legal moves as FROM-TO or FROMxTO:C1,C2 (captured squares ascending), sorted."""
    if options:
        raise ValueError("%s takes no options besides --fen (got %s)" % (variant, ", ".join(sorted(options))))
    g = _game(variant, fen)
    return sorted(m.short() for m in g.legal())


# ---- the bridge's view ------------------------------------------------------------------

def make_adapter(spec: registry.GameSpec, fen: Optional[str] = None) -> DraughtsAdapter:
    """The bridge adapter for a draughts-family GameSpec (flagfall.games.draughts_adapter)."""
    from flagfall.games.draughts_adapter import DraughtsAdapter
    return DraughtsAdapter(spec, fen=fen)


def write_record(spec: registry.GameSpec, tags: dict[str, str], texts: Sequence[str], result: str = "*",
                 clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
                 notes: Optional[Sequence[str]] = None) -> str:
    """The family's one record writer as the registry calls it: PDN (see write_game)."""
    t = dict(tags)
    t.setdefault("White", "?")
    t.setdefault("Black", "?")
    if fen:
        # the start position as the engine reads it (real files carry quirks such as a final '.')
        g = _game(spec.variant, fen)
        fen = g.fen(g.algebraic())
    return write_game(spec.variant, t, texts, result, clocks, fen=fen, notes=notes)


def replay_sources(spec: registry.GameSpec, path: str,
                   variant: Optional[str] = None) -> Iterator[Union[Source, records.RecordError]]:
    """For replay, every game of a PDN file: (number, tags, move texts, result, fen, moves, game name),
    or, for a game that cannot be replayed, its RecordError (with `number` and a `reason`).

    A game's GameType tag decides its variant (its game name when it is not the spec's)."""
    from flagfall.games import registry
    for number, g in enumerate(read_file(path), 1):
        try:
            v = g.variant(spec.variant)
            _, played = g.replay(v)
        except records.RecordError as e:
            err = e if g.name() in str(e) else PdnError("%s: %s" % (g.name(), e), e.reason)
            err.number = number
            yield err
            continue
        fen = core_fen(g.tags["FEN"]) if g.tags.get("FEN") else None
        name = None
        if v != spec.variant:
            name = next(s.name for s in registry.of_family("draughts") if s.variant == v)
        yield number, g.tags, list(g.moves), g.result, fen, played, name


def first_side(spec: registry.GameSpec, fen: str) -> int:
    """0 if the side that moves first in the variant (White; Red in checkers) is to move in this
    PDN FEN, 1 if the other side is."""
    return 0 if _game(spec.variant, fen).side == core.Rules(spec.variant).first else 1


def moves_in_record(text: str) -> int:
    """The number of moves of the first game of a PDN text (0 if it has none)."""
    games = read_games(text)
    return len(games[0].moves) if games else 0
