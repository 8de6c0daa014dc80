"""Feeds for the ecosystem: live PGN (chess) and PDN (draughts) with clock comments.

The record is written from the state's own fields (tags, moves, clock after
each move, result), so every move carries `{[%clk h:mm:ss]}` whatever the
bridge's record writer does. A service polling PGN (a broadcast relay) gets
one text per round with every game of that family, or one per board.
"""
from flagfall import records

CHESS = ("chess",)
DRAUGHTS = ("draughts", "brazilian", "russian", "checkers")
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
# PDN GameType numbers (PDN 3.0 standard)
GAMETYPE = {"draughts": "20", "checkers": "21", "russian": "25", "brazilian": "26"}
FORMAT_GAMES = {"pgn": CHESS, "pdn": DRAUGHTS}




def first_mover(state):
    """0 if white (the first side) made the first move of the record, 1 if black did."""
    fen = state["tags"].get("FEN", "")
    if not fen:
        return 0
    if state["game"] in CHESS:
        parts = fen.split()
        return 1 if len(parts) > 1 and parts[1] == "b" else 0
    return 1 if fen.strip().upper().startswith("B") else 0


def record_text(state, width=79):
    """PGN or PDN text of one board's game, tags first, a clock comment after every move."""
    tags = dict(state["tags"])
    tags["Result"] = state["result"]
    if state["game"] in GAMETYPE:
        tags.setdefault("GameType", GAMETYPE[state["game"]])
    for k in SEVEN_TAGS:
        tags.setdefault(k, "????.??.??" if k == "Date" else "?")
    lines = [records.tag_line(k, tags[k]) for k in SEVEN_TAGS]
    lines += [records.tag_line(k, v) for k, v in tags.items() if k not in SEVEN_TAGS]
    lines.append("")
    side = first_mover(state)
    num = 1
    fen = tags.get("FEN", "")
    if state["game"] in CHESS and fen:
        parts = fen.split()
        if len(parts) > 5 and parts[5].isdigit():
            num = int(parts[5])
    words = []
    clocks = state["clocks"]
    for i, mv in enumerate(state["moves"]):
        if side == 0:
            words.append("%d. %s" % (num, mv))
        else:
            words.append("%d... %s" % (num, mv))
        if i < len(clocks):
            words.append(records.clock_comment(clocks[i][side] // 1000))
        if side == 1:
            num += 1
        side = 1 - side
    words.append(state["result"])
    return "\n".join(lines + records.wrap(words, width)) + "\n"


def feed_text(states):
    """Several games as one feed, separated by a blank line."""
    return "\n".join(record_text(s) for s in states)


def format_for(game):
    """'pgn' or 'pdn' for a game family, or None if it has no standard record feed here."""
    if game in CHESS:
        return "pgn"
    if game in DRAUGHTS:
        return "pdn"
    return None
