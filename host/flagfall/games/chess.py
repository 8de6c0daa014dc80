"""Chess on the host: PGN reading and writing, and the `perft`/`moves` command adapters.

The rules are the core engine's (flagcore.chess); this module only deals
with text. PGN reading takes real files as they come: tag pairs, brace and
semicolon comments, `%` escape lines, nested variations (skipped), NAGs,
move numbers in any spacing, `!?`-style annotations, and SAN in its common
spellings (O-O/0-0, e8=Q/e8Q, exd6 e.p., check and mate marks).
"""
import re

from flagcore import chess as core

from flagfall import records

VARIANTS = ("chess", "chess960")

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")

_TOKEN = re.compile(r"""
    (?P<comment>\{[^}]*\}?)          # brace comment (may be cut off at end of text)
  | (?P<line>;[^\n]*)                 # rest-of-line comment
  | (?P<open>\()
  | (?P<close>\))
  | (?P<nag>\$\d+)
  | (?P<result>1-0|0-1|1/2-1/2|1/2|½-½|\*)(?![\w/-])
  | (?P<number>\d+\s*\.+)
  | (?P<move>[A-Za-z0-9][A-Za-z0-9=+#/:.\-]*[!?]*|--)
  | (?P<annot>[!?]+)
""", re.VERBOSE)


class PgnError(ValueError):
    """A PGN game that cannot be read or replayed; names the game and the move."""


class PgnGame:
    """One game read from PGN: tags, main-line SAN tokens, comments after moves, result."""

    def __init__(self):
        self.tags = {}
        self.sans = []
        self.comments = []   # comment text after each main-line move ('' if none)
        self.result = "*"
        self.line = 0        # line number of the game's first line in the file

    def name(self):
        """Short text naming the game, for error messages."""
        t = self.tags
        return "%s - %s, %s %s (line %d)" % (t.get("White", "?"), t.get("Black", "?"),
                                             t.get("Event", "?"), t.get("Date", "?"), self.line)

    def clocks(self):
        """Clock time in seconds from a [%clk h:mm:ss] comment after each move, or None."""
        return [records.parse_clock(c) for c in self.comments]

    def board(self):
        """A core Board at the game's start (FEN tag honoured)."""
        fen = self.tags.get("FEN")
        return core.Board(fen) if fen else core.Board()

    def replay(self):
        """(board, moves): the final position and the move ints; raises PgnError on a bad move."""
        b = self.board()
        moves = []
        for i, san in enumerate(self.sans):
            try:
                m = b.parse_san(san)
            except core.ChessError as e:
                raise PgnError("%s: move %d%s %s: %s" % (self.name(), b.fullmove,
                                                        "." if b.turn == 0 else "...", san, e))
            b.push(m)
            moves.append(m)
        return b, moves


def _split_games(text):
    """Yield (first line number, tag lines, movetext) for each game in PGN text."""
    tags = []
    body = []
    start = 1
    in_brace = False
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.rstrip("\r")
        s = line.strip()
        if not in_brace and s.startswith("%"):
            continue   # escape line (PGN 6)
        if not in_brace and s.startswith("[") and records.LOOSE_TAG.match(s):
            if body and "".join(body).strip():
                yield start, tags, "\n".join(body)
                tags = []
                body = []
            if not tags:
                start = n
            tags.append(s)
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


def parse_movetext(text, game):
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
        tok = m.group(kind)
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
        if kind == "move":
            tok = tok.rstrip("!?")
            if tok.isdigit():
                continue   # a bare move number without its dot
            game.sans.append(tok)
            game.comments.append("")
    return game


def read_games(text):
    """Yield every game in PGN text as a PgnGame (main line only, variations skipped)."""
    for start, tags, body in _split_games(text):
        g = PgnGame()
        g.line = start
        for t in tags:
            key, value = records.parse_tag(t)
            g.tags[key] = value
        parse_movetext(body, g)
        tr = g.tags.get("Result")
        if g.result == "*" and tr in ("1/2", "½-½"):
            tr = "1/2-1/2"
        if g.result == "*" and tr in RESULTS:
            g.result = tr
        yield g


def read_file(path):
    """Yield every game of a PGN file (UTF-8, Latin-1 as a fallback)."""
    return read_games(records.read_text(path))


def write_game(tags, sans, result="*", clocks=None, fen=None, width=79):
    """PGN text of one game: tags (seven-tag roster first), moves, result.

    sans are SAN strings in order; clocks, if given, has one entry per move
    (seconds left, or None) and is written as {[%clk h:mm:ss]} after the move.
    fen, if given, is the start position (adds SetUp and FEN tags).
    """
    if result not in RESULTS:
        raise ValueError("result must be one of %s, got %r" % (", ".join(RESULTS), result))
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
    words = []
    for i, san in enumerate(sans):
        if not black:
            words.append("%d. %s" % (num, san))
        elif i == 0:
            words.append("%d... %s" % (num, san))
        else:
            words.append(san)
        if clocks is not None and clocks[i] is not None:
            words.append(records.clock_comment(clocks[i]))
            if black is False and i + 1 < len(sans):
                # after a comment the black move needs its number again
                words.append("%d..." % num)
        if black:
            num += 1
        black = not black
    words.append(result)
    return "\n".join(lines + records.wrap(words, width)) + "\n"


def write_board_game(board, tags=None, result=None, clocks=None, start_fen=None):
    """PGN of the moves pushed on a core Board (SAN computed by replaying from start_fen)."""
    b = core.Board(start_fen) if start_fen else core.Board()
    sans = []
    for m in board.move_stack():
        sans.append(b.san(m))
        b.push(m)
    if result is None:
        st = b.status()
        result = st[0] if st else "*"
    return write_game(tags or {}, sans, result, clocks, fen=start_fen)


def _board(fen, variant="chess", position=None):
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


def perft(variant, depth, fen, divide, out):
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


def moves(variant, fen, **options):
    """Legal moves in UCI, sorted (chess960: castling written king-to-rook, e1h1)."""
    position = options.pop("position", None) if variant == "chess960" else None
    if options:
        raise ValueError("%s takes no options besides --fen%s (got %s)"
                         % (variant, " and --position" if variant == "chess960" else "", ", ".join(sorted(options))))
    b = _board(fen, variant, position)
    return sorted(core.uci(m) for m in b.legal_moves())
