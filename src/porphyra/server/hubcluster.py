"""The hub's part in a cluster of servers on one database: the fence of its writes, the
games it claims and gives up, the games another server took over, and the heartbeat that
renews its leases and takes over the games of a server that stopped
(:mod:`porphyra.server.owners`).

A base class of :class:`~porphyra.server.hub.Hub` (the attributes below are the hub's).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from porphyra.server import owners
from porphyra.server.match import MatchRunner
from porphyra.server.owners import ClusterSettings, OwnedElsewhere
from porphyra.server.storage import Storage
from porphyra.server.writes import Fence

log = logging.getLogger("porphyra.server")

#: Games of stopped servers one server takes over per heartbeat (cluster mode).
TAKEOVERS = 10


class HubCluster:
    """The cluster duties of a :class:`~porphyra.server.hub.Hub` (a base class of it)."""

    storage: Storage
    cluster: ClusterSettings | None
    heartbeat_s: float
    runners: dict[str, MatchRunner]
    #: Released games with a running clock: ``{game id: its next deadline}``.
    deadlines: dict[str, float]

    if TYPE_CHECKING:

        async def db(self, fn: Callable[..., Any], *args: Any) -> Any: ...
        async def get(self, game_id: str) -> MatchRunner | None: ...

    def fence(self) -> Fence | None:
        """The fence of this server's writes (:data:`~porphyra.server.writes.Fence`:
        its id and a renewed lease), or None when it is the database's only server."""
        if self.cluster is None:
            return None
        return (self.cluster.server_id, time.time() + self.cluster.lease_s)

    async def _claim(self, game_id: str) -> float | None:
        """Own ``game_id`` (cluster mode), or raise :class:`OwnedElsewhere`.

        Returns:
            When the game was taken over from a server whose lease ran out (it died, was
            cut off or stopped): that server's last renewal, epoch seconds
            (:func:`owners.last_renewal`; the clocks charge nobody from then until now);
            else None.
        """
        cluster = self.cluster
        assert cluster is not None
        me = cluster.server_id
        now_s = time.time()
        renewed: float | None = await self.db(
            owners.last_renewal, self.storage, game_id, me, now_s, cluster.lease_s
        )
        owner = await self.db(owners.claim, self.storage, game_id, me, now_s, cluster.lease_s)
        if owner != me:
            address = await self.db(owners.address_of, self.storage, owner)
            raise OwnedElsewhere(game_id, address)
        return renewed

    async def _unclaim(self, game_ids: list[str]) -> None:
        """Give up this server's ownership of ``game_ids`` (cluster mode; never raises:
        a lease left behind runs out by itself).  A game with a running clock keeps its
        next deadline as an unowned wake-up time (:func:`owners.release`), so that some
        server runs its timeout even if this one dies first."""
        if self.cluster is None or not game_ids:
            return
        wake = {g: self.deadlines[g] for g in game_ids if g in self.deadlines}
        try:
            await self.db(owners.release, self.storage, self.cluster.server_id, game_ids, wake)
        except Exception:
            log.debug("could not release games %s", game_ids, exc_info=True)

    async def _owner_address(self, game_id: str) -> str | None:
        """Where the server that owns ``game_id`` now answers (None: unknown, or the
        database did not answer)."""
        try:
            address: str | None = await self.db(owners.owner_address, self.storage, game_id)
        except Exception:
            log.debug("no owner address for game %s", game_id, exc_info=True)
            return None
        return address

    async def drop(self, game_id: str) -> None:
        """Another server took ``game_id`` over: forget its runner here, stop its bots, and
        tell its clients where it went (error ``moved`` with the new owner's address,
        then close code 4307)."""
        runner = self.runners.pop(game_id, None)
        self.deadlines.pop(game_id, None)
        if runner is None:
            return
        runner.released = True
        await runner.stop()
        address = await self._owner_address(game_id)
        for client in list(runner.clients):
            client.move_to(address, runner.seq)

    async def _cluster_beat(self) -> None:
        """Cluster mode, every heartbeat: renew this server's leases (dropping the games
        another server took over meanwhile), then take over unfinished games nobody owns
        (those of a server that died) and start their bots."""
        cluster = self.cluster
        assert cluster is not None
        me = cluster.server_id
        lost = await self.db(
            owners.renew,
            self.storage,
            me,
            cluster.address,
            list(self.runners),
            time.time(),
            cluster.lease_s,
        )
        for game_id in lost:
            log.warning("game %s: taken over by another server; dropped here", game_id)
            await self.drop(game_id)
        # A few games a beat, the loop free between them (a replay each): a server that
        # takes over many games must not stall its own, or miss renewing their leases.
        until = time.monotonic() + self.heartbeat_s / 2  # (the next beat renews on time)
        for game_id in await self.db(owners.orphans, self.storage, time.time(), TAKEOVERS):
            if time.monotonic() > until:
                break
            if game_id in self.runners:
                continue
            try:
                runner = await self.get(game_id)
            except (OwnedElsewhere, SQLAlchemyError):
                continue  # another server was quicker, or the next beat tries again
            if runner is not None:
                log.info("game %s: taken over from a server that stopped", game_id)
                runner.kick_bots()
            await asyncio.sleep(0)
