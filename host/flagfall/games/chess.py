"""Chess on the host: PGN reading and writing, and the `perft`/`moves` command adapters.

The rules are the core engine's (flagcore.chess); this module only deals
with text. PGN reading takes real files as they come: a UTF-8 BOM (also at the
start of a game in concatenated files), CRLF line ends, tag pairs, brace and
semicolon comments (clock `[%clk]`, `[%emt]` and other `[%...]` commands
inside), `%` escape lines, nested variations (skipped), NAGs (`$1`) and
annotation marks (`!?`, `+-`, `=`), move numbers in any spacing, SAN in its
common spellings (O-O/0-0, e8=Q/e8Q, exd6 e.p., check and mate marks, figurines
like `♘f3`), long algebraic and UCI moves (`Ng1-f3`, `e2-e4`, `g1f3`, `e7e8q`).

A game the engine cannot replay is reported by `PgnGame.replay` as a PgnError
whose `reason` says why in a few words: a null move in the main line (`--`,
`Z0`, `0000`, `@@@@`: "null move"), a variant other than standard chess or
Chess960 ("variant Atomic not supported"), a Chess960 start position or castling
the engine refuses ("Chess960 not supported"), a bad FEN tag, an illegal move.
`[Variant "Chess960"]` games are passed with their FEN to the engine's Chess960
mode when it has one (see `new_board`).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Optional, Sequence, TextIO, Union

from flagcore import chess as core

from flagfall import records

if TYPE_CHECKING:
    from flagfall.games.chess_adapter import ChessAdapter
    from flagfall.games.registry import GameSpec

    Source = tuple[int, dict[str, str], list[str], str, Optional[str], list[core.Move], Optional[str]]
    """What replay_sources yields for a game: number, tags, move texts, result, FEN, moves, game name."""

VARIANTS = ("chess", "chess960")

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
DOUBLE_FORFEIT = "0-0"
"""A double forfeit's Result (tournament.model.DOUBLE_FORFEIT_RECORD): written in the Result tag and read
back from it. The movetext ends with "*" (DOUBLE_FORFEIT_MOVETEXT): "0-0" there is castling's old spelling
(python-chess reads it as a move, pgn-extract reports a missing result), and lila keeps the Result tag over
the movetext's. A movetext ending "0-0" under that tag (written before) is still read as the result."""
DOUBLE_FORFEIT_MOVETEXT = "*"

_TOKEN = re.compile(r"""
    (?P<comment>\{[^}]*\}?)          # brace comment (may be cut off at end of text)
  | (?P<line>;[^\n]*)                 # rest-of-line comment
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>1-0|0-1|1/2-1/2|1/2|½-½|\*)(?![\w/-])
  | (?P<number>\d+\s*(?:\.+|…))
  | (?P<null>(?:--|@@@@)(?=[\s(){};]|$))
  | (?P<move>[A-Za-z0-9♔♕♖♗♘♙♚♛♜♝♞♟][A-Za-z0-9=+#/:.\-♔♕♖♗♘♙♚♛♜♝♞♟]*[!?]*)
  | (?P<annot>[!?]+|[-+=/~∞±∓⩲⩱□⨀⊕⇆↑→⇄∆⊥]+)
""", re.VERBOSE)

# null moves as PGN writers spell them: ChessBase/Scid/python-chess '--', ChessBase 'Z0',
# UCI '0000', python-chess '@@@@'
NULL_MOVES = ("--", "Z0", "0000", "@@@@", "null", "pass")
# annotation words some files write instead of a NAG (ChessBase: N novelty, D diagram); none is a move
_ANNOTATION_WORDS = ("N", "TN", "D", "RR", "Diagram")
_FIGURINES = {ord(f): c for f, c in zip("♔♕♖♗♘♙♚♛♜♝♞♟", "KQRBNPKQRBNP")}
# long algebraic / UCI without a piece letter: g1f3, g1-f3, e7e8q, e7-e8=Q, b1xc3
_LONG = re.compile(r"^([a-h][1-8])[-x:]?([a-h][1-8])(?:=?\(?([NBRQnbrq])\)?)?[+#]?$")
# names of the Variant tag for standard chess and for Chess960 (Lichess, chess.com, ChessBase, Scid)
_STANDARD = ("", "standard", "chess", "normal", "fromposition", "frompos", "standardchess", "orthodox")
_CHESS960 = ("chess960", "960", "fischerandom", "fischerrandom", "fischerrandomchess", "frc", "chess960frc")
# the core Board called with the `chess960` keyword, which an engine without a Chess960 mode
# refuses with a TypeError (see engine_has_chess960): the keyword is probed, not declared
_board_960: Callable[..., core.Board] = core.Board


class PgnError(records.RecordError):
    """A PGN game that cannot be read or replayed; names the game and the move (`reason`: why, in short)."""


def variant_of_tag(value: Optional[str]) -> str:
    """'chess' or 'chess960' for a PGN Variant tag value; PgnError (reason 'variant X not supported') else."""
    key = re.sub(r"[\s_\-]", "", (value or "").lower())
    if key in _STANDARD:
        return "chess"
    if key in _CHESS960:
        return "chess960"
    raise PgnError("variant %r is not one Flagfall plays (standard chess, Chess960)" % value,
                   reason="variant %s not supported" % (value or "").strip())


def engine_has_chess960() -> bool:
    """True if the core engine's Board has a Chess960 mode (`Board(chess960=True)`)."""
    try:
        _board_960(chess960=True)
    except TypeError:
        return False
    return True


def new_board(variant: str = "chess", fen: Optional[str] = None) -> core.Board:
    """A core Board for a game's variant and start FEN; PgnError with a reason if the engine refuses it.

    Chess960 goes to the engine's Chess960 mode (`Board(fen, chess960=True)`) when it has
    one; without it, a Chess960 game is replayed by the standard rules if its start position
    is one they accept (king on e1 between rooks on a1 and h1, or no castling rights), and
    refused with reason "Chess960 not supported" otherwise.
    """
    if variant == "chess960":
        try:
            return _board_960(fen, chess960=True) if fen else _board_960(chess960=True)
        except TypeError:
            pass           # an engine without a Chess960 mode: try the standard rules below
        except core.ChessError as e:
            raise PgnError("bad Chess960 FEN %r: %s" % (fen, e), reason="bad FEN")
        if not fen:
            return core.Board()   # start position 518: the standard one
        try:
            return core.Board(fen)
        except core.ChessError as e:
            raise PgnError("Chess960 not supported by the chess engine (%s)" % e,
                           reason="Chess960 not supported")
    try:
        return core.Board(fen) if fen else core.Board()
    except core.ChessError as e:
        raise PgnError("bad FEN %r: %s" % (fen, e), reason="bad FEN")


def parse_move(board: core.Board, text: str, legal: Optional[list[core.Move]] = None) -> core.Move:
    """The legal move on a core Board for a PGN move token: SAN in its spellings, figurines,
    long algebraic and UCI; raises core.IllegalMoveError (PgnError for a null move)."""
    t = text if text.isascii() else text.translate(_FIGURINES)
    if t in NULL_MOVES:
        raise PgnError("null move %r" % text, reason="null move")
    if legal is None:
        legal = board.legal_moves()
    try:
        return board.parse_san(t, legal)
    except core.ChessError:
        m = _LONG.match(t.rstrip("!?"))
        if m is None:
            raise
        try:
            return board.parse_uci(m.group(1) + m.group(2) + (m.group(3) or "").lower(), legal)
        except core.ChessError:
            pass
        raise


def _castling_like(board: core.Board, text: str) -> bool:
    """True if a move text may be a castling: O-O/0-0, a king move (Kg1, Kxh1), or a long
    algebraic / UCI move from the king's square (e1h1, the Chess960 UCI castling)."""
    t = text.translate(_FIGURINES).rstrip("+#!?")
    if t[:1] in ("O", "0", "o", "K"):
        return True
    m = _LONG.match(t)
    return m is not None and board.piece_at(core.square(m.group(1))) == (board.turn, core.KING)


class PgnGame:
    """One game read from PGN: tags, main-line SAN tokens, comments after moves, result."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.sans: list[str] = []
        self.comments: list[str] = []   # comment text after each main-line move ('' if none)
        self.result = "*"
        self.line = 0        # line number of the game's first line in the file

    def name(self) -> str:
        """Short text naming the game, for error messages."""
        t = self.tags
        return "%s - %s, %s %s (line %d)" % (t.get("White", "?"), t.get("Black", "?"),
                                             t.get("Event", "?"), t.get("Date", "?"), self.line)

    def clocks(self) -> list[Optional[float]]:
        """Clock time in seconds from a [%clk h:mm:ss] comment after each move, or None."""
        return [records.parse_clock(c) for c in self.comments]

    def emts(self) -> list[Optional[float]]:
        """Time each move took, in seconds, from a [%emt h:mm:ss] comment after it, or None."""
        return [records.parse_emt(c) for c in self.comments]

    def variant(self) -> str:
        """'chess' or 'chess960' from the Variant tag; PgnError (with a reason) for any other variant."""
        try:
            return variant_of_tag(self.tags.get("Variant"))
        except PgnError as e:
            raise PgnError("%s: %s" % (self.name(), e), reason=e.reason)

    def board(self) -> core.Board:
        """A core Board at the game's start (Variant and FEN tags honoured); PgnError if refused."""
        try:
            return new_board(self.variant(), self.tags.get("FEN") or None)
        except PgnError as e:
            if e.args[0].startswith(self.name()):
                raise
            raise PgnError("%s: %s" % (self.name(), e), reason=e.reason)

    def replay(self, variant: Optional[str] = None) -> tuple[core.Board, list[core.Move]]:
        """(board, moves): the final position and the move ints; raises PgnError on a move the
        engine cannot play (its `reason`: "null move", "illegal move", "Chess960 not supported" ...).

        variant ('chess' or 'chess960') overrides the Variant tag: replay('chess') plays a
        Chess960 game by the standard rules, which is exact when they accept its start position
        and it has no castling the standard rules do not know."""
        if variant is None:
            b = self.board()
            chess960 = self.variant() == "chess960"
        else:
            try:
                b = new_board(variant, self.tags.get("FEN") or None)
            except PgnError as e:
                raise PgnError("%s: %s" % (self.name(), e), reason=e.reason)
            chess960 = variant == "chess960"
        moves: list[core.Move] = []
        for i, san in enumerate(self.sans):
            try:
                m = parse_move(b, san)
            except (core.ChessError, PgnError) as e:
                where = "%s: move %d%s %s" % (self.name(), b.fullmove, "." if b.turn == 0 else "...", san)
                if isinstance(e, PgnError):
                    raise PgnError("%s: %s (the game is not replayed)" % (where, e), reason=e.reason)
                reason = "illegal move"
                if chess960 and _castling_like(b, san) and not engine_has_chess960():
                    reason = "Chess960 not supported"   # a castling the standard rules do not know
                raise PgnError("%s: %s" % (where, e), reason=reason)
            b.push(m)
            moves.append(m)
        return b, moves


_ONE_TAG = re.compile(r'\[\s*(\w+)\s+"(?:[^"\\]|\\.)*"\s*\]')
_TAGS_LINE = re.compile(r'^(?:\s*\[\s*\w+\s+"(?:[^"\\]|\\.)*"\s*\])+\s*$')


def _split_games(text: str) -> Iterator[tuple[int, list[str], str]]:
    """Yield (first line number, tag lines, movetext) for each game in PGN text."""
    tags: list[str] = []
    keys: set[str] = set()
    body: list[str] = []
    start = 1
    in_brace = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        if line.startswith("\ufeff"):
            line = line[1:]   # a BOM where files were concatenated
        s = line.strip()
        if not in_brace and s.startswith("%"):
            continue   # escape line (PGN 6)
        tag = records.LOOSE_TAG.match(s) if not in_brace and s.startswith("[") else None
        if tag is not None and _TAGS_LINE.match(s) and len(_ONE_TAG.findall(s)) > 1:
            # several tags on one line ('[Event "x"] [Site "y"]'), as some exports write them
            for one in _ONE_TAG.finditer(s):
                if one.group(1) in keys:
                    yield start, tags, "\n".join(body)
                    tags = []
                    keys = set()
                    body = []
                if not tags:
                    start = n
                tags.append(one.group(0))
                keys.add(one.group(1))
            continue
        if tag is not None:
            # a new game starts at a tag after movetext, or at a tag its tags already have
            # (games without moves, as in broadcast exports of rounds not yet played)
            if body and "".join(body).strip() or tag.group(1) in keys:
                yield start, tags, "\n".join(body)
                tags = []
                keys = set()
                body = []
            if not tags:
                start = n
            tags.append(s)
            keys.add(tag.group(1))
            continue
        if not tags and not body and not s:
            start = n + 1
            continue
        body.append(line)
        # track open braces so a '[' inside a long comment is not a tag
        i = 0
        while i < len(line):
            c = line[i]
            if in_brace:
                if c == "}":
                    in_brace = False
            elif c == "{":
                in_brace = True
            elif c == ";":
                break
            i += 1
    if tags or "".join(body).strip():
        yield start, tags, "\n".join(body)


def parse_movetext(text: str, game: PgnGame) -> PgnGame:
    """Fill game.sans, game.comments and game.result from PGN movetext."""
    depth = 0
    pos = 0
    n = len(text)
    while pos < n:
        c = text[pos]
        if c in " \t\r\n":
            pos += 1
            continue
        m = _TOKEN.match(text, pos)
        if m is None:
            pos += 1   # stray character (e.g. a lone '.'): ignore it
            continue
        pos = m.end()
        kind = m.lastgroup
        tok = m.group()      # == m.group(kind): every alternative of _TOKEN is one named group
        if kind == "comment" or kind == "line":
            if depth == 0 and game.sans:
                body = tok[1:-1] if kind == "comment" and tok.endswith("}") else tok[1:]
                prev = game.comments[-1]
                game.comments[-1] = (prev + " " + body.strip()).strip()
            continue
        if kind == "open":
            depth += 1
            continue
        if kind == "close":
            if depth:
                depth -= 1
            continue
        if depth:
            continue
        if kind == "result":
            game.result = tok if tok in RESULTS else "1/2-1/2"   # '1/2' and '½-½' in old files
            break
        if kind == "move" or kind == "null":
            tok = tok.rstrip("!?")
            if tok.isdigit() and tok != "0000":
                continue   # a bare move number without its dot
            if tok in ("e.p.", "ep", "e.p") and game.sans:
                continue   # 'exd6 e.p.' written apart
            if tok in _ANNOTATION_WORDS:
                continue   # 'N' (novelty), 'TN', 'D' (diagram), 'RR' written as words, not NAGs
            game.sans.append(tok)
            game.comments.append("")
    return game


def read_games(text: str) -> Iterator[PgnGame]:
    """Yield every game in PGN text as a PgnGame (main line only, variations skipped)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    for start, tags, body in _split_games(text):
        g = PgnGame()
        g.line = start
        for t in tags:
            kv = records.parse_tag(t)
            if kv is not None:      # always: _split_games keeps only lines that read as tags
                g.tags[kv[0]] = kv[1]
        parse_movetext(body, g)
        tr = g.tags.get("Result")
        if g.result == "*" and tr in ("1/2", "½-½"):
            tr = "1/2-1/2"
        if g.result == "*" and tr in RESULTS:
            g.result = tr
        if g.result == "*" and tr == DOUBLE_FORFEIT:
            g.result = tr
            if g.sans and g.sans[-1] == DOUBLE_FORFEIT:     # the movetext's end, not castling
                g.sans.pop()
                g.comments.pop()
        yield g


def read_file(path: str) -> Iterator[PgnGame]:
    """Yield every game of a PGN file (UTF-8, Latin-1 as a fallback)."""
    return read_games(records.read_text(path))


def write_game(tags: Mapping[str, str], sans: Sequence[str], result: str = "*",
               clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
               width: int = 79, notes: Optional[Sequence[str]] = None) -> str:
    """PGN text of one game: tags (seven-tag roster first), moves, result.

    sans are SAN strings in order; clocks, if given, has one entry per move
    (seconds left, or None) and is written as {[%clk h:mm:ss]} after the move; notes, if given, one
    text per move ('' for none) written in the same comment ({[%clk 0:50:29] entered by the arbiter}).
    fen, if given, is the start position (adds SetUp and FEN tags).
    """
    if result not in RESULTS + (DOUBLE_FORFEIT,):
        raise ValueError("result must be one of %s, got %r" % (", ".join(RESULTS + (DOUBLE_FORFEIT,)), result))
    if clocks is not None and len(clocks) != len(sans):
        raise ValueError("clocks must have one entry per move (%d moves, %d clocks)" % (len(sans), len(clocks)))
    t = dict(tags)
    t["Result"] = result
    for k in SEVEN_TAGS:
        t.setdefault(k, "?" if k != "Date" else "????.??.??")
    if fen:
        t["SetUp"] = "1"
        t["FEN"] = fen
    lines = [records.tag_line(k, t[k]) for k in SEVEN_TAGS]
    lines += [records.tag_line(k, v) for k, v in t.items() if k not in SEVEN_TAGS]
    lines.append("")
    if fen:
        parts = fen.split()
        black = parts[1] == "b"
        num = int(parts[5]) if len(parts) > 5 else 1
    else:
        black = False
        num = 1
    words: list[str] = []
    for i, san in enumerate(sans):
        if not black:
            words.append("%d. %s" % (num, san))
        elif i == 0:
            words.append("%d... %s" % (num, san))
        else:
            words.append(san)
        secs = clocks[i] if clocks is not None else None
        comment = records.move_comment(secs, notes[i] if notes and i < len(notes) else "")
        if comment:
            words.append(comment)
            if black is False and i + 1 < len(sans):
                # after a comment the black move needs its number again
                words.append("%d..." % num)
        if black:
            num += 1
        black = not black
    words.append(DOUBLE_FORFEIT_MOVETEXT if result == DOUBLE_FORFEIT else result)
    return "\n".join(lines + records.wrap(words, width)) + "\n"


def write_board_game(board: core.Board, tags: Optional[Mapping[str, str]] = None, result: Optional[str] = None,
                     clocks: Optional[Sequence[Optional[float]]] = None, start_fen: Optional[str] = None) -> str:
    """PGN of the moves pushed on a core Board (SAN computed by replaying from start_fen)."""
    b = core.Board(start_fen) if start_fen else core.Board()
    sans: list[str] = []
    for m in board.move_stack():
        sans.append(b.san(m))
        b.push(m)
    if result is None:
        st = b.status()
        result = st[0] if st else "*"
    return write_game(tags or {}, sans, result, clocks, fen=start_fen)


def _board(fen: Optional[str], variant: str = "chess", position: Optional[int] = None) -> core.Board:
    """Board for the command line; chess960 takes X-FEN or Shredder-FEN, or a start position number."""
    try:
        if variant == "chess960":
            from flagcore import chess960
            if position is not None:
                if fen:
                    raise ValueError("give --fen or --position, not both")
                n = str(position).strip()
                if not n.isdigit():
                    raise ValueError("chess960 --position must be a start position number 0..959, got %r" % position)
                return chess960.board(int(n))
            return core.Board(fen, chess960=True)   # the standard array (position 518) if no FEN
        return core.Board(fen) if fen else core.Board()
    except core.ChessError as e:
        raise ValueError(str(e))


def perft(variant: str, depth: int, fen: Optional[str], divide: bool, out: TextIO) -> int:
    """Leaf count to depth; with divide, prints 'uci: count' for each first move (chess960: castling king-to-rook)."""
    b = _board(fen, variant)
    if not divide or depth < 1:
        return b.perft(depth)
    total = 0
    for m in sorted(b.legal_moves(), key=core.uci):
        b.make(m)
        n = b.perft(depth - 1)
        b.unmake()
        out.write("%s: %d\n" % (core.uci(m), n))
        total += n
    return total


def moves(variant: str, fen: Optional[str], **options: Any) -> list[str]:
    """Legal moves in UCI, sorted (chess960: castling written king-to-rook, e1h1)."""
    position = options.pop("position", None) if variant == "chess960" else None
    if options:
        raise ValueError("%s takes no options besides --fen%s (got %s)"
                         % (variant, " and --position" if variant == "chess960" else "", ", ".join(sorted(options))))
    b = _board(fen, variant, position)
    return sorted(core.uci(m) for m in b.legal_moves())


# ---- the bridge's view ------------------------------------------------------------------

def make_adapter(spec: GameSpec, fen: Optional[str] = None, edition: str = "fide-2000",
                 position: Optional[int] = None) -> ChessAdapter:
    """The bridge adapter for a chess GameSpec (flagfall.games.chess_adapter); Chess960 starts from
    `fen` or start position number `position` (0..959, standard numbering; 518 is the standard array)."""
    from flagfall.games.chess_adapter import ChessAdapter
    if spec.variant == "chess960" and not fen:
        from flagcore import chess960
        n = 518 if position is None else int(position)
        if not 0 <= n <= 959:
            raise ValueError("Chess960 start positions are numbered 0..959 (got %d)" % n)
        fen = chess960.fen(n)
    elif position is not None and spec.variant != "chess960":
        raise ValueError("--position N is for chess960 (standard chess starts from one position)")
    return ChessAdapter(spec, fen=fen, edition=edition)


def write_record(spec: GameSpec, tags: dict[str, str], texts: Sequence[str], result: str = "*",
                 clocks: Optional[Sequence[Optional[float]]] = None, fen: Optional[str] = None,
                 notes: Optional[Sequence[str]] = None) -> str:
    """The family's one record writer as the registry calls it: PGN (see write_game); a Chess960
    game carries [Variant "Chess960"] and its start position (SetUp, FEN) always."""
    if spec.variant == "chess960":
        tags = dict(tags)
        tags["Variant"] = "Chess960"
        if not fen:
            from flagcore import chess960
            fen = chess960.fen(518)
    return write_game(tags, texts, result, clocks, fen=fen, notes=notes)


def replay_sources(spec: GameSpec, path: str,
                   variant: Optional[str] = None) -> Iterator[Union[Source, records.RecordError]]:
    """For replay, every game of a PGN file: (number, tags, move texts, result, fen, moves, game name),
    or, for a game that cannot be replayed, its RecordError (with `number` and a `reason`)."""
    from flagfall.games import registry
    for number, g in enumerate(read_file(path), 1):
        try:
            board, moves = g.replay()
            chess960 = g.variant() == "chess960"
            if chess960 and "chess960" not in registry.GAMES:
                # a bridge without Chess960 replays the games the standard rules play exactly
                try:
                    board, moves = g.replay("chess")
                except records.RecordError as e:
                    raise PgnError("%s (the bridge plays standard chess only)" % e,
                                   reason="Chess960 not supported") from None
        except records.RecordError as e:
            e.number = number
            yield e
            continue
        name = "chess960" if chess960 and "chess960" in registry.GAMES else None
        yield number, g.tags, list(g.sans), g.result, g.tags.get("FEN"), moves, name


def first_side(spec: GameSpec, fen: str) -> int:
    """0 if White moves first from this FEN, 1 if Black does."""
    parts = fen.split()
    return 1 if len(parts) > 1 and parts[1] == "b" else 0


def moves_in_record(text: str) -> int:
    """The number of moves of the first game of a PGN text (0 if it has none)."""
    games = list(read_games(text))
    return len(games[0].sans) if games else 0
