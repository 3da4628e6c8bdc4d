"""The bots of a table: the moves of bot seats (and of seats a bot plays for their player:
out of time, or taken over), and hints for a seat.

A base class of :class:`~porphyra.server.match.MatchRunner` (the attributes below are the
runner's).  Bots decide off the event loop through the runner's
:class:`~porphyra.server.ports.BotPlayers`, on their seat's view only; at a table with a
person, a bot waits ``bot_pace`` after the last change so that its move can be followed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from porphyra.bots.selfplay import decision_seed
from porphyra.clocks import TableClock
from porphyra.core.game import Action, Game, State
from porphyra.core.messages import msg
from porphyra.server.botpool import choose_on_state
from porphyra.server.errors import SubmitError
from porphyra.server.ports import BotPlayers
from porphyra.server.rows import SeatRow

log = logging.getLogger("porphyra.server")


class TableBots:
    """The bots of a :class:`~porphyra.server.match.MatchRunner` (a base class of it)."""

    id: str
    game: Game
    state: State
    seats: list[SeatRow]
    seq: int
    lock: asyncio.Lock
    clock: TableClock
    bots: BotPlayers
    hint_bot: str
    bot_pace: float
    _bot_task: asyncio.Task[None] | None
    #: The hint searches of the current decisions, by ``(seat, seq)``.
    _hints: dict[tuple[int, int], asyncio.Future[tuple[str, float | None]]]
    _last_change: float
    _timing_out: set[int]

    if TYPE_CHECKING:

        @property
        def over(self) -> bool: ...
        def has_human(self) -> bool: ...
        def seats_open(self) -> bool: ...
        def person_waiting(self) -> bool: ...
        def hints_allowed(self, seat: int | None) -> bool: ...
        def _decision_start(self, seat: int) -> int: ...
        def _legal(self, seat: int) -> list[str]: ...
        async def _commit(self, seat: int, action: Action, timeout: bool = False) -> None: ...

    async def hint(self, seat: int, seq: int) -> dict[str, Any]:
        """The hint bot's move for ``seat`` now, with its estimated chance to win when the
        bot has one, computed from ``seat``'s own view only (``seat_view``).

        Returns:
            ``{"type": "hint", "seq", "action", "chance" (0..1 or None), "bot"}``.

        Raises:
            SubmitError: ``auth`` (the table gives no hints to this seat), ``stale``,
                ``turn`` (the game does not wait for this seat), ``open`` (the game waits
                for its open seats) or ``over``.
        """
        if not self.hints_allowed(seat):
            raise SubmitError(
                "auth", "this table gives no hints (they are on when every other seat is a bot)"
            )
        if self.over:
            raise SubmitError("over", "the game is over")
        if self.seats_open():
            raise SubmitError("open", msg("the game starts once every open seat is taken"))
        # Fresh from the start of the seat's decision on, as a submission is: another
        # seat's hidden choice moves the game's seq but not this seat's view.
        start = self._decision_start(seat)
        if seq > self.seq or seq < start:
            raise SubmitError(
                "stale", msg("stale hint request: you saw {0}, the game is at {1}", seq, self.seq)
            )
        if not self._legal(seat):
            raise SubmitError("turn", "a hint is for your own decision: it is not your turn")
        spec = self.hint_bot
        # One search per seat and decision, whoever asks and how often (every tab of the
        # seat shares it): hints are served ahead of bot-only games, so a flood of them
        # must not become a flood of searches.
        key = (seat, start)
        task = self._hints.get(key)
        if task is None:
            self._hints = {
                k: t for k, t in self._hints.items() if self._decision_start(k[0]) == k[1]
            }
            seed = decision_seed(self.state.seed, seat, len(self.state.history)) ^ 0x5EED
            task = asyncio.ensure_future(self.bots.hint(self.state, seat, spec, seed))
            self._hints[key] = task
        try:
            action, chance = await asyncio.shield(task)
        except Exception:
            self._hints.pop(key, None)  # a failed search may be asked for again
            raise
        return {"type": "hint", "seq": seq, "action": action, "chance": chance, "bot": spec}

    def _bot_seat(self) -> tuple[int, str, bool] | None:
        """The seat a bot decides for now: ``(seat, bot spec, timeout move?)``, or None.

        A seat out of time or taken over is played at once, even in a simultaneous
        decision; a bot seat when it is the canonical seat (``current_player()``)."""
        if self.over:
            return None
        current = self.state.current_player()
        active = self.state.active_players()
        order = ([current] if current in active else []) + [p for p in active if p != current]
        timeout_bot = self.clock.settings.timeout_bot
        for p in order:
            if not 0 <= p < len(self.seats):
                continue
            if p in self._timing_out:
                return p, timeout_bot, True
            if self.clock.seats[p].takeover is not None:
                return p, timeout_bot, False
            if p == current and self.seats[p].kind == "bot":
                return p, self.seats[p].bot or "random", False
        return None

    def kick_bots(self) -> None:
        """Start the bots if a bot decides for a seat now and none is running."""
        if self.over or (self._bot_task is not None and not self._bot_task.done()):
            return
        if self.seats_open() or self._bot_seat() is None:  # (open seats: not started)
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._bot_turns())

    async def _bot_turns(self) -> None:
        """Let bots decide while a bot decides for a seat (see :meth:`_bot_seat`)."""
        while not self.over:
            chosen = self._bot_seat()
            if chosen is None:
                return
            current, spec, timeout = chosen
            seq = self.seq
            seed = decision_seed(self.state.seed, current, len(self.state.history))
            try:
                text = await self.bots.choose(
                    self.state, current, spec, seed, urgent=self.person_waiting()
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: bot %s failed; playing a random move", self.id, spec)
                text = choose_on_state(self.state.clone(), current, "random", seed)
            # Pace: a person at the table can follow each bot move (none in bot-only games).
            pace = self.bot_pace if self.has_human() else 0.0
            wait = self._last_change + pace - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            async with self.lock:
                if self.seq != seq or self.over:
                    continue  # the game moved on (undo); decide again
                try:
                    action = self.game.parse_action(self.state, text, current)
                except ValueError:
                    log.error("game %s: bot %s chose illegal %r", self.id, spec, text)
                    action = self.game.parse_action(
                        self.state,
                        choose_on_state(self.state.clone(), current, "random", seed),
                        current,
                    )
                try:
                    await self._commit(current, action, timeout=timeout)
                except SubmitError:  # the database is down: decide again in a moment
                    await asyncio.sleep(1.0)
