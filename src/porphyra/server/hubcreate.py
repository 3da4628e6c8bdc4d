"""New tables: the creation of a game (its seats, tokens, deal and clock) and the rematch
of a finished one.

A base class of :class:`~porphyra.server.hub.Hub` (the attributes below are the hub's).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from porphyra.clocks import ClockSettings, TableClock
from porphyra.core.errors import PorphyraError
from porphyra.core.messages import msg
from porphyra.core.registry import shared_game
from porphyra.server.match import MatchRunner
from porphyra.server.owners import ClusterSettings, OwnedElsewhere
from porphyra.server.ports import RunnerServices
from porphyra.server.rows import (
    DEAL_CHOSEN,
    DEAL_SECRET,
    TABLE_DEFAULTS,
    GameRow,
    SeatRow,
    hash_token,
    now,
)
from porphyra.server.storage import Storage
from porphyra.server.writes import Fence, NotOwnerError

#: Bits of a seed the server draws (``secrets.randbits``): far beyond any search of the
#: seeds consistent with a seat's own hand.
SEED_BITS = 128


class CreateError(PorphyraError, ValueError):
    """A lobby request to create a game that cannot be honoured; its :attr:`message` (an
    id plus arguments) says why, translated per request."""


class HubCreation:
    """Creation and rematch of a :class:`~porphyra.server.hub.Hub` (a base class of it)."""

    storage: Storage
    cluster: ClusterSettings | None
    runners: dict[str, MatchRunner]
    services: RunnerServices
    started: float
    now: Callable[[], float]

    if TYPE_CHECKING:

        async def db(self, fn: Callable[..., Any], *args: Any) -> Any: ...
        async def _claim(self, game_id: str) -> float | None: ...
        async def find(self, game_id: str) -> MatchRunner | None: ...
        def fence(self) -> Fence | None: ...
        async def drop(self, game_id: str) -> None: ...
        async def _owner_address(self, game_id: str) -> str | None: ...

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        table: dict[str, bool] | None = None,
        token_hashes: dict[int, str] | None = None,
        clock: ClockSettings | None = None,
        creator: int | None = None,
        rated: bool = False,
    ) -> tuple[MatchRunner, dict[int, str]]:
        """Create and store a new game; start its bots.

        Args:
            name: the game (``byzantium`` / ``conspiracy``).
            options: validated lobby options for ``load_game``.
            seats: per seat ``{"kind": "human" | "bot", "bot": spec, "name": str}``, and
                for an open seat (a human seat nobody holds yet, issue 32 §2)
                ``"open_to"``: :data:`~porphyra.server.rows.OPEN_TO_ANYONE` or the id of
                the account invited to it.  An open seat gets no token; the game waits
                (no clock runs, no bot moves, no seat may act) until every open seat is
                taken (:meth:`MatchRunner.take_seat`).
            seed: a seed chosen by the creator: the table is then marked ``chosen`` to
                every seat and spectator and never rated (whoever knows the seed can
                compute every hidden card).  Default: :data:`SEED_BITS` bits from
                :mod:`secrets`, which nobody can search from their own hand.
            table: the table's choices (:data:`TABLE_DEFAULTS`; unknown names are ignored).
            token_hashes: a rematch: the human seats keep these token hashes (so every
                player's own link opens their seat of the new game) and no new token is
                made.
            clock: the table's clock and timeout options (default: none).
            creator: the account that opened the table (a table with open seats).
            rated: a rated table (the caller checked that it may be: a secret deal,
                every seat an account or an anchored bot, :func:`ratings.table_refusal`).

        Returns:
            The runner and the seat tokens of the human seats, ``{seat: token}``.

        Raises:
            CreateError: the engine refuses the options or the seat count is wrong.
        """
        try:
            game = shared_game(name, options)
        except PorphyraError as exc:
            raise CreateError(exc.message) from None
        except (ValueError, TypeError) as exc:
            raise CreateError(str(exc)) from None
        if len(seats) != game.num_players:
            raise CreateError(msg("{0} with these options has {1} seat(s)", name, game.num_players))
        deal = DEAL_SECRET if seed is None else DEAL_CHOSEN
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        state = game.new_initial_state(seed=seed)
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for i, s in enumerate(seats):
            token_hash = None
            open_to = s.get("open_to") if s["kind"] == "human" else None
            if open_to is not None:
                pass  # nobody's seat yet: no token opens it
            elif s["kind"] == "human" and token_hashes is not None:
                token_hash = token_hashes.get(i)
            elif s["kind"] == "human":
                tokens[i] = secrets.token_urlsafe(24)
                token_hash = hash_token(tokens[i])
            rows.append(SeatRow(i, s["kind"], s.get("bot"), s["name"], token_hash, open_to))
        stamp = now()
        game_id = secrets.token_hex(8)
        row = GameRow(
            id=game_id,
            game=name,
            version=game.rules_version,
            options=game.record_options(),
            seed=seed,
            status="active",
            seq=0,
            created=stamp,
            updated=stamp,
            seats=rows,
            deal=deal,
            table={k: bool((table or {}).get(k, v)) for k, v in TABLE_DEFAULTS.items()},
            creator=creator,
            rated=rated,
        )
        table_clock = TableClock.new(clock or ClockSettings(), game.num_players)
        table_clock.epoch = self.started
        human = {i for i, s in enumerate(seats) if s["kind"] == "human"}
        if any(r.open_to is not None for r in rows):
            human = set()  # no clock runs until every open seat is taken
        table_clock.update(set(state.active_players()) & human, None, self.now())
        row.clock = table_clock.dumps()
        await self.db(self.storage.create_game, row)
        if self.cluster is not None:  # a new game: nobody else can hold it
            await self._claim(game_id)
        runner = MatchRunner(self.services, row, state)
        self.runners[game_id] = runner
        runner.kick_bots()
        return runner, tokens

    async def rematch(self, runner: MatchRunner) -> MatchRunner:
        """The rematch of finished game ``runner``: the same game, options, seats (names,
        bots, and the human seats' token hashes, so each player's own link opens their seat
        of the new game), table choices and clock settings, on a new secret deal.  Made
        once: a second request gets the same game.

        Raises:
            CreateError: the game is not over, or the engine refuses its options now.
        """
        async with runner.rematch_lock:
            if runner.row.rematch is not None:
                again = await self.find(runner.row.rematch)  # (wherever it runs)
                if again is not None:
                    return again
            if not runner.over:
                raise CreateError("a rematch can start once the game is over")
            if self.cluster is not None:  # still ours? (else no rematch game to strand)
                await self._claim(runner.id)
            seats = [{"kind": s.kind, "bot": s.bot, "name": s.name} for s in runner.seats]
            hashes = {s.seat: s.token_hash for s in runner.seats if s.token_hash is not None}
            new, _ = await self.create(
                runner.name,
                dict(runner.row.options),
                seats,
                None,
                runner.row.table,
                hashes,
                clock=runner.clock.settings,
                rated=False,  # (its seats hold no accounts: a guest seat)
            )
            try:
                await self.db(self.storage.set_rematch, runner.id, new.id, self.fence())
            except NotOwnerError:  # another server took the game over meanwhile
                await self.drop(runner.id)
                raise OwnedElsewhere(runner.id, await self._owner_address(runner.id)) from None
            runner.row.rematch = new.id
            runner.announce_rematch()
            return new
