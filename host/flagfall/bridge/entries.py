"""The arbiter's (operator's) entries into a game's record: a move the board shows confirmed, moves nobody
saw being made entered (after a disconnection), the last move replaced by another that leaves the board as
it is, and a promotion piece changed.

These functions read and update the part of a game listed in `Game` (documented on
flagfall.bridge.game.Game) and return its decisions like the game's own inputs.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Optional, Protocol, Sequence, Union

from flagfall.bridge import decisions as D
from flagfall.bridge import evidence, resync

if TYPE_CHECKING:
    from flagfall import occupancy as core
    from flagfall.bridge.decisions import Times
    from flagfall.games.protocol import GameSpec, Move, Square

ENTERED = "entered by the arbiter"      # PlayedMove.how of a move the arbiter typed (enter_moves)


class Game(evidence.Game, Protocol):
    """The game's members the entries are made through (the game's state, documented on
    flagfall.bridge.game.Game)."""

    spec: GameSpec
    pending_press: Optional[tuple[int, int, Times]]
    prev_occ: list[frozenset[Square]]

    def make_index(self) -> core.Index: ...
    def reindex(self) -> None: ...

def move_tokens(line: str, results: Sequence[str] = ()) -> list[str]:
    """The moves of one line of typed movetext: move numbers ("12.", "12...", "12.Nf3"), results
    (`results`, and "*") and annotation marks (!, ?) left out."""
    out: list[str] = []
    for word in line.replace(",", " ").split():
        word = re.sub(r"^\d+\.+", "", word).rstrip("!?")
        if word and word != "*" and word not in results:
            out.append(word)
    return out


def operator_move(game: Game, t: int, text: str) -> list[D.Decision]:
    """The operator confirms a move the board shows without its evidence (or ambiguously)."""
    a = game.adapter
    try:
        m = a.parse(text)
    except ValueError as e:
        return game.emit([D.Decision(D.INFO, t, text="operator move %r: %s" % (text, e))])
    emptied, filled = game.tracker.diff()
    for cands in game.index.values():
        for c in cands:
            if m in c.moves and c.emptied == emptied and c.filled == filled:
                p = game.pending_press
                prefs = game.prefs
                if a.is_promotion(m):
                    game.prefs = {**prefs, "promotion": a.promotion_of(m)}
                return game.commit(c, t, p[2] if p else None, "operator")
    return game.emit([D.Decision(D.INFO, t, text="operator move %s does not match the board" % text)])


def operator_moves(game: Game, t: int, texts: Sequence[str]) -> list[D.Decision]:
    """The operator enters several moves the board shows (after a disconnection): enter_moves,
    with a refusal said as an info."""
    decs, why = enter_moves(game, t, " ".join(texts), board=True)
    if why:
        decs += game.emit([D.Decision(D.INFO, t, text="operator moves: " + why)])
    return decs


def enter_moves(game: Game, t: int, line: str, board: bool = True) -> tuple[list[D.Decision], Optional[str]]:
    """The arbiter enters moves nobody saw being made (any number, one line: SAN, UCI or PDN,
    move numbers and a result allowed); returns (decisions, refusal text or None).

    The moves must be legal one after the other from the last committed move and, with `board`,
    lead to the position the board shows (else the refusal names each square that differs).
    Each is recorded "entered by the arbiter", with its mover's clock where the device's readings
    told it (resync.counted_clocks: with `board`, the moves are those the clock counts), else
    none (never a guess). After a result the moves are added to the record and the result stands.
    """
    a = game.adapter
    tokens = move_tokens(line, game.spec.results)
    if not tokens:
        return [], "no moves given"
    done: list[Move] = []
    why: Optional[str] = None
    try:
        for i, text in enumerate(tokens):
            try:
                m = a.parse(text)
            except ValueError as e:
                after = tokens[i - 1] if i else (
                    "the last recorded move, %s" % game.moves[-1].text if game.moves else "the start position")
                why = "move %d of %d, %r, is not legal after %s: %s" % (i + 1, len(tokens), text, after, e)
                break
            done.append(m)
            a.push(m)
        final = a.occupancy()
    finally:
        for _ in done:
            a.pop()
    if why:
        return [], why
    if board:
        cur = frozenset(game.tracker.cur)
        if final != cur:
            parts = ["%s should hold a piece (the board shows it empty)" % a.name(s) for s in sorted(final - cur)]
            parts += ["%s should be empty (the board shows a piece)" % a.name(s) for s in sorted(cur - final)]
            return [], "the moves do not lead to what the board shows: " + "; ".join(parts)
    standing = game.result != "*"
    first = a.side()
    clocks = resync.counted_clocks(game, [(first + i) % 2 for i in range(len(done))]) if board else \
        [None] * len(done)
    out: list[D.Decision] = []
    for i, m in enumerate(done):
        cand = evidence.candidate_of(game, m)
        if cand is None:
            return out, "cannot enter %s on this board (%s)" % (tokens[i], game.spec.title)
        if a.is_promotion(m):
            game.prefs["promotion"] = a.promotion_of(m)
        out += game.commit(cand, t, None, ENTERED, end=not standing, mover_ms=clocks[i])
    return out, None


def replace_last(game: Game, t: int, text: str) -> list[D.Decision]:
    """The arbiter says the last move was `text`: allowed if it leaves the board as it is."""
    a = game.adapter
    if not game.moves:
        return game.emit([D.Decision(D.INFO, t, text="no move to fix")])
    last = game.moves[-1]
    a.pop()
    try:
        m = a.parse(text)
    except ValueError as e:
        a.push(last.move)
        return game.emit([D.Decision(D.INFO, t, text="fix %r: %s" % (text, e))])
    a.push(m)
    same = a.occupancy() == frozenset(game.tracker.base)
    a.pop()
    if not same:
        a.push(last.move)
        return game.emit([D.Decision(D.INFO, t, text="fix %s: the board does not show that move" % text)])
    game.moves.pop()
    base = game.prev_occ.pop()
    cur = set(game.tracker.cur)
    game.tracker.reset(base, cur)
    game.index = game.make_index()
    decs = game.emit([D.Decision(D.AMEND, t, ply=len(game.moves), old=last.text)])
    for cands in game.index.values():
        for c in cands:
            if m in c.moves:
                if a.is_promotion(m):
                    game.prefs["promotion"] = a.promotion_of(m)
                return decs + game.commit(c, t, None, "arbiter")
    return decs


def fix_promotion(game: Game, t: int, ply: int, piece: Union[int, str]) -> list[D.Decision]:
    """Change the promotion piece of move `ply` (0-based), replaying the moves after it."""
    a = game.adapter
    if not 0 <= ply < len(game.moves) or not a.is_promotion(game.moves[ply].move):
        return game.emit([D.Decision(D.INFO, t, text="move %d is not a promotion" % (ply + 1))])
    later = [m.move for m in game.moves[ply:]]
    for _ in later:
        a.pop()
    new = a.with_promotion(later[0], piece)
    replay = [new] + later[1:]
    texts: list[str] = []
    done = 0
    try:
        for m in replay:
            if not a.is_legal(m):
                break
            texts.append(a.text(m))
            a.push(m)
            done += 1
    except Exception:
        ok = False
    else:
        ok = done == len(replay)
    if not ok:
        for _ in range(done):
            a.pop()
        for m in later:
            a.push(m)
        return game.emit([D.Decision(D.INFO, t, text="cannot change the promotion of move %d: "
                            "a later move becomes illegal" % (ply + 1))])
    for i, m in enumerate(replay):
        game.moves[ply + i].move = m
        game.moves[ply + i].text = texts[i]
    game.moves[ply].default = False
    game.moves[ply].note = "promotion set by operator/button"
    game.reindex()
    return game.emit([D.Decision(D.PROMOTION, t, ply=ply, text=texts[0])])
