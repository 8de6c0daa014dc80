"""Every round of the event pushed to Lichess, each to its own Lichess round, without a restart.

A round's Lichess round comes from the event's map (--lichess-rounds, the event file's
`[lichess] rounds`), else, for the round played at the start, from --lichess-round, else it is made
through Lichess's round-creation endpoint in the event's broadcast tournament (--lichess-tournament;
named "Round R", its id kept in OUT/lichess-rounds.json so that a restart does not make it twice).
Each round has its own Pusher, made when the round is loaded, so a round loaded from the dashboard
starts pushing at once; a finished round's pusher stays until the event stops, so the public feed's
delay cannot keep its last moves from Lichess (its final push is made when the event stops).
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable, Optional

from flagfall.broadcast import feeds, lichess_push
from flagfall.broadcast.hub import Entry, Hub
from flagfall.broadcast.lichess_push import PushSettings, Pusher
from flagfall.broadcast.lichess_round import Target, create_round, lichess_targets
from flagfall.event.runner import Event


def round_pusher(settings: PushSettings, event: Event, log: Callable[[str], None]) -> Pusher:
    """The push of the event's current round with these settings (its targets), fed by the public hub."""
    boards = [n for n, b in event.boards.items() if b.spec.record_format == "pgn"]

    def placeholder(number: int) -> Optional[str]:
        # a board the public hub has no state of yet is pushed as its pairing with no moves (its engine's
        # tags: the same GameId, FEN), so that the Lichess round is never shown finished while it is not
        b = event.boards.get(number)
        if b is None or b.engine is None:
            return None
        with b.lock:
            st = dict(b.engine.state())
        st.update(moves=[], clocks=[], result="*")
        return feeds.record_text(st)

    others = {n: b.spec.name for n, b in event.boards.items() if b.spec.record_format != "pgn"}
    return settings.pusher(event.tournament, str(event.round.round), boards=boards, placeholder=placeholder,
                           log=log, other_boards=others)


class RoundPushes:
    """The Lichess push of each round the event plays (see the module docstring). On the event loop:
    `await start()`, then `await close()`; `on_round` is the event's hook for a newly loaded round
    (any thread). The dashboard's "lichess" is the current round's push."""

    def __init__(self, settings: PushSettings, event: Event, hub: Hub, out_dir: str,
                 log: Callable[[str], None], delay_s: float = 0.0) -> None:
        self.settings = settings
        self.delay_s = delay_s          # the public feed's delay, which the push follows (said in its line)
        self.event = event
        self.hub = hub
        self.out_dir = out_dir
        self.log = log
        self.start_round = event.round.round
        self.pushes: dict[str, Pusher] = {}          # round number (text) -> its push
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.tasks: list[asyncio.Task[None]] = []

    def targets(self, number: int) -> tuple[Target, ...]:
        """Round `number`'s targets (blocking: it may make the round on Lichess); () for none;
        ValueError or OSError when Lichess does not make it."""
        s = self.settings
        if number in s.rounds:
            return tuple(s.rounds[number])
        if number == self.start_round and s.targets:
            return s.targets
        if s.tour_id is None:
            return ()
        rid = create_round(s.base_url, s.token, s.tour_id, "Round %d" % number, self.out_dir, warn=self.log)
        return tuple(lichess_targets(rid, s.base_url))

    async def start(self) -> None:
        """Push the round being played, and follow the hub; ValueError saying why the round being
        played cannot be pushed (a round of draughts only, Lichess refusing to make its round)."""
        self.loop = asyncio.get_running_loop()
        self.hub.listeners.append(self.offer)
        await self._add(self.event.round.round, at_start=True)

    def on_round(self, event: Event) -> None:
        """The event loaded another round: its push starts (called from the event's thread)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._schedule, event.round.round)

    def _schedule(self, number: int) -> None:
        assert self.loop is not None
        self.tasks.append(self.loop.create_task(self._add(number)))

    async def _add(self, number: int, at_start: bool = False) -> None:
        """Start round `number`'s push. What keeps a round from Lichess is said on the terminal, and
        at the start raised (a ValueError) so that the event refuses to start."""
        key = str(number)
        if key in self.pushes:
            return
        assert self.loop is not None
        try:
            targets = await self.loop.run_in_executor(None, self.targets, number)
            if not targets:
                raise LookupError("no Lichess round is given for it (--lichess-rounds, or --lichess-tournament "
                                  "to make one)")
            push = round_pusher(self.settings.for_targets(targets), self.event, self.log)
        except (OSError, ValueError, LookupError) as e:
            if at_start and isinstance(e, ValueError):      # a round of draughts only, lila refusing it
                raise
            self.log("lichess push: round %d is not pushed: %s" % (number, e))
            return
        self.pushes[key] = push
        for k in self.hub.matching(self.event.tournament, key):
            push.offer(self.hub.boards[k])
        await push.start()
        self.log(lichess_push.describe(push) + ("   (delayed %g s)" % self.delay_s if self.delay_s else "")
                 + "   (round %d)" % number)

    def offer(self, entry: Entry) -> None:
        """A state the public hub accepted: to its round's push."""
        t, r, _ = entry.key
        push = self.pushes.get(r)
        if t == self.event.tournament and push is not None:
            push.offer(entry)

    def status(self) -> dict[str, Any]:
        """The current round's push state."""
        push = self.pushes.get(str(self.event.round.round))
        return push.status() if push is not None else {}

    async def close(self) -> None:
        """Each round's last push of what changed, then stop."""
        for task in self.tasks:
            if not task.done():
                await task
        if self.offer in self.hub.listeners:
            self.hub.listeners.remove(self.offer)
        for push in self.pushes.values():
            await push.close()
