"""How a game ended, the same shape for every rules engine, on the device and on the host.

Every engine answers `ending()` with None while the game goes on, else a
tuple (winner, termination, article):
    winner       0 = the side that moves first (White, Red in checkers, Light in
                 minzu), 1 = the other side, None = a draw;
    termination  one of the constants below (small ints: no enum on the device);
    article      the rulebook article that decides it, as text ("FIDE 5.1a",
                 "FMJD 6.2", "rule 68"), or "" when none applies.
The bridge, the records and the live state read these fields; none of them
parses the engines' prose.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

ONGOING = const(0)
CHECKMATE = const(1)
STALEMATE = const(2)
DEAD_POSITION = const(3)           # neither side can win (chess: insufficient material)
REPETITION = const(4)              # the article says threefold or fivefold
MOVE_LIMIT = const(5)              # 50/75-move rule, draughts king-move and ending counts
NO_LEGAL_MOVE = const(6)           # draughts and minzu: a side that cannot move loses
NO_PIECES = const(7)               # every piece captured
TOO_FEW_PIECES = const(8)          # minzu [68]
RESIGNATION = const(9)
TIME_FORFEIT = const(10)           # a flag fell
ILLEGAL_MOVES = const(11)          # a ruleset's illegal-move limit reached
AGREEMENT = const(12)              # a draw agreed, or a draw claimed and granted
ARBITER = const(13)                # the arbiter decided (an award, a declared draw)
ABANDONED = const(14)

# what each termination is called in records and messages (index = constant)
NAMES = ("ongoing", "checkmate", "stalemate", "dead position", "repetition", "move limit",
         "no legal move", "no pieces left", "too few pieces", "resignation", "time forfeit",
         "illegal moves", "agreement", "arbiter decision", "abandoned")


def name(termination):
    """The termination's name ('checkmate'); 'unknown' for a number outside the table."""
    if 0 <= termination < len(NAMES):
        return NAMES[termination]
    return "unknown"


def describe(ending):
    """One line for an ending tuple: 'checkmate (FIDE 5.1a)', 'draw by repetition (FMJD 6.1)'."""
    if ending is None:
        return "ongoing"
    text = name(ending[1])
    if ending[2]:
        text += " (" + ending[2] + ")"
    return text
