"""Game records written live, move by move, with the rules engineers' writers.

Chess: PGN with the seven tags, TimeControl and {[%clk h:mm:ss]} after every
move (games.chess.write_game). Draughts family: PDN with the same clock
comments (games.draughts.write_game). Minzu: the minzu record format
(games.minzu). Each write replaces the file atomically (temporary file,
fsync, rename), so a reader or a crash never sees half a record.
"""
import os
import re


def record_text(game):
    """The full record of a bridge Game so far."""
    a = game.adapter
    tags = dict(game.tags)
    if game.tc and "TimeControl" not in tags:
        tags["TimeControl"] = game.tc
    clocks = None
    if game.clock_mode:
        clocks = [None if m["clock_ms"] is None else m["clock_ms"] / 1000.0 for m in game.moves]
    if game.reason and "Termination" not in tags:
        tags["Termination"] = game.reason
    # what the bridge saw besides the moves: take-backs and illegal moves (penalties applied)
    if game.takebacks:
        tags["Takebacks"] = "; ".join(game.takebacks)
    if any(game.illegal):
        names = game.adapter.side_names
        tags["IllegalMoves"] = "%s %d, %s %d" % (names[0], game.illegal[0], names[1], game.illegal[1])
    if a.game == "chess":
        from flagfall.games import chess as pgn
        fen = a.start_fen
        return pgn.write_game(tags, game.sans(), game.result, clocks, fen=fen)
    if a.game == "minzu":
        return a.record_text(tags, game.result, game.reason, clocks)
    from flagfall.games import draughts as pdn
    tags.setdefault("White", "?")
    tags.setdefault("Black", "?")
    return pdn.write_game(a.variant, tags, game.sans(), game.result, clocks, fen=a.start_fen)


def extension(game_name):
    """File extension of a game's records."""
    if game_name == "chess":
        return "pgn"
    if game_name.startswith("minzu"):
        return "txt"
    return "pdn"


def safe_name(text):
    """A file-name-safe version of text."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "game"


def write_atomic(path, text, fsync=True):
    """Replace path with text so that readers see the old or the new file, never half."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        if fsync:
            os.fsync(f.fileno())
    os.replace(tmp, path)
