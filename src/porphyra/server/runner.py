"""The match runner: the single authority over one web game, and the hub of all games.

A :class:`MatchRunner` owns the engine state of one game.  Every submission goes through
:meth:`MatchRunner.submit`, which checks, in order: the game is not over, the message is
fresh (its ``seq`` is the latest, or — in a simultaneous phase — not older than the start of
the seat's decision), it is the seat's turn (or an early simultaneous choice, which is
validated and queued), and the action parses and is legal.  Only then is it applied,
**written to the database**, and broadcast.  Anything else answers the submitting client
with an ``error`` and changes nothing.

The choke point (``shared/DESIGN.md``): :meth:`MatchRunner._base_view` is the only place
where state becomes outgoing data (:meth:`MatchRunner.view` shapes it into messages).  A
seat gets ``state.observation(seat)`` and its own legal actions; a spectator gets
``state.public_observation()``.  Undo history never leaves
the server (an undo replays a record prefix and sends fresh snapshots).

Bot seats play server-side in an executor (a process pool under ``porphyra serve``, so a
2-second ISMCTS move never blocks the event loop or another game).  Undo follows
:func:`undo_target`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import random
import secrets
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from porphyra import record as records
from porphyra.bots import make_bot, seat_view
from porphyra.core.errors import RecordError
from porphyra.core.game import TERMINAL_PLAYER, Action, Game, State
from porphyra.core.registry import load_game
from porphyra.server import protocol
from porphyra.server.gamedata import SIMULTANEOUS_PHASES, derived
from porphyra.server.storage import GameRow, SeatRow, Storage, hash_token, now

log = logging.getLogger("porphyra.server")

#: Resamples used by :func:`undo_target` to check that nothing hidden was revealed.
UNDO_RESAMPLES = 3
#: Outgoing messages queued for one client before it is dropped as too slow.
MAX_OUTBOX = 2000


class SubmitError(Exception):
    """A submission refused by the runner; ``code`` and ``message`` go to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ---------------------------------------------------------------------------- bots
def bot_seed(game_seed: int, seat: int, index: int) -> int:
    """The seed of a bot's decision number ``index`` (history length) for ``seat``."""
    return (game_seed * 1_000_003 + seat * 7_919 + index * 104_729) % (2**62)


def choose_from_record(rec: dict[str, Any], seat: int, spec: str, seed: int) -> str:
    """Process-pool entry point: rebuild the state from its record, let bot ``spec`` choose
    for ``seat`` on the seat's view only (``seat_view``), and return the action text.

    Raises:
        RecordError: the record does not replay.
        ValueError: ``spec`` is not a bot.
    """
    state = replay(rec)
    return choose_on_state(state, seat, spec, seed)


def choose_on_state(state: State, seat: int, spec: str, seed: int) -> str:
    """Let bot ``spec`` choose for ``seat`` on ``seat_view(state, seat)``; the text of the
    chosen action.  The bot never receives ``state`` itself."""
    bot = make_bot(spec, seed)
    return str(bot.choose(seat_view(state, seat)))


class BotPool:
    """Where bot decisions run: a process pool (``workers > 0``) or a thread pool.

    Args:
        workers: processes for bots; 0 runs bots in a thread pool instead (for tests: no
            process start-up, and the view is built from a clone in the event loop).
    """

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._executor: concurrent.futures.Executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.workers > 0:
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=4, thread_name_prefix="porphyra-bot"
        )

    async def choose(self, state: State, seat: int, spec: str, seed: int) -> str:
        """The bot's action text for ``seat`` (runs off the event loop).  A broken process
        pool (a worker killed) is replaced once."""
        loop = asyncio.get_running_loop()
        if self.workers > 0:
            rec = records.to_record(state)
            for attempt in (1, 2):
                try:
                    return await loop.run_in_executor(
                        self._executor, choose_from_record, rec, seat, spec, seed
                    )
                except BrokenProcessPool:
                    if attempt == 2:
                        raise
                    log.warning("bot worker pool broken; starting a new one")
                    self._executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = self._new_executor()
        frozen = state.clone()
        return await loop.run_in_executor(self._executor, choose_on_state, frozen, seat, spec, seed)

    def shutdown(self) -> None:
        """Stop the workers (pending decisions are abandoned; they rerun on restart)."""
        self._executor.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------------- replay
#: Game objects shared by every web game with the same options (their caches, e.g.
#: Byzantium's interned actions, then serve all games instead of starting cold).
_GAMES: dict[str, Game] = {}


def shared_game(name: str, options: dict[str, Any]) -> Game:
    """The shared :class:`Game` for ``name`` with ``options`` (``load_game`` once).

    Raises:
        UnknownGameError: unknown game or invalid options (as ``load_game``).
    """
    key = f"{name}:{json.dumps(options, sort_keys=True)}"
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(name, **options)
    return game


def replay(rec: dict[str, Any], upto: int | None = None) -> State:
    """:func:`porphyra.record.replay` on the shared game object of the record's options.

    Raises:
        RecordError: invalid record, another rules version, or an action that does not
            apply.
    """
    rec = records.validate(rec)
    try:
        game = shared_game(rec["game"], rec["options"])
    except (ValueError, TypeError) as exc:
        raise RecordError(f"record cannot be loaded: {exc}") from None
    return records.replay(rec, upto, game=game)


# ---------------------------------------------------------------------------- undo
def undo_target(state: State, seat: int) -> int | None:
    """The history length to go back to when ``seat`` asks to undo, or None if refused.

    The rule: undo goes back to just before ``seat``'s most recent decision (and every bot
    decision after it), and is allowed only if, from that point to now, **nothing hidden
    was revealed to ``seat`` and no random event happened**, checked two ways:

    1. ``state.hidden_from(seat)`` (hands, deck orders, pending hidden choices and the
       generator of the game) is the same at every step as at the target point, so no card
       was drawn, no deck shuffled, no hidden choice committed by another seat;
    2. replaying the same actions on :data:`UNDO_RESAMPLES` resampled copies of the target
       state (``resample(seat, rng)``: all the hidden parts redrawn) gives ``seat`` exactly
       the same observation at every step, so nothing seat saw depended on hidden facts.

    The caller checks the other condition: every other seat is a bot.
    """
    history = state.history
    mine = [i for i, (p, _) in enumerate(history) if p == seat]
    if not mine:
        return None
    target = mine[-1]
    try:
        base = replay(records.to_record(state), upto=target)
    except RecordError:
        return None
    game = base.game
    fingerprint = base.hidden_from(seat)
    rng = random.Random(f"undo/{len(history)}")
    samples = [base.resample(seat, rng) for _ in range(UNDO_RESAMPLES)]
    walk = base.clone()
    for _, action in history[target:]:
        text = str(action)
        walk.apply_action(game.parse_action(walk, text))
        if walk.hidden_from(seat) != fingerprint:
            return None
        expected = walk.observation(seat)
        for sample in samples:
            try:
                sample.apply_action(game.parse_action(sample, text))
            except ValueError:
                return None
            if sample.observation(seat) != expected:
                return None
    return target


# ---------------------------------------------------------------------------- runner
@dataclass(eq=False)
class Client:
    """One websocket connection: a seat (index) or a spectator (None), with its outbox.

    ``outbox`` holds JSON texts; ``None`` asks the writer to stop.  ``send`` never blocks:
    a client that falls :data:`MAX_OUTBOX` messages behind is dropped.
    """

    seat: int | None
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    #: Log lines of its observation this client already has (updates send the rest).
    log_len: int = 0

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (a dict, or JSON text already encoded)."""
        if self.dropped:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.dropped = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(message if isinstance(message, str) else protocol.dumps(message))


class MatchRunner:
    """The authority over one game: state, seats, clients, bots, persistence.

    Args:
        hub: the :class:`Hub` (storage, executors).
        row: the stored game (record header, actions, seats).
        state: the engine state after ``row.actions``.
    """

    def __init__(self, hub: Hub, row: GameRow, state: State) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.state = state
        self.game: Game = state.game
        self.name = self.game.info.name
        self.seats: list[SeatRow] = row.seats
        self.seq = row.seq
        #: Oldest seq a submission may carry in the current simultaneous phase.
        self.decision_seq = row.seq
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.queued: dict[int, str] = {s.seat: s.queued for s in self.seats if s.queued}
        self._bot_task: asyncio.Task[None] | None = None
        self._undo_cache: dict[int, tuple[int, int | None]] = {}
        #: Per-seq memo of views, probes and the public observation (cleared on change).
        self._memo: dict[Any, Any] = {}
        self._early_legal: dict[int, tuple[tuple[int, int], list[str]]] = {}
        self._memo_seq = -1

    # ----------------------------------------------------------------- info
    @property
    def over(self) -> bool:
        """True once the game is over."""
        return self.state.is_terminal()

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def seats_info(self) -> list[dict[str, Any]]:
        """Public seat list: index, kind, bot, name, connected."""
        online = {c.seat for c in self.clients if c.seat is not None}
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "connected": s.kind == "bot" or s.seat in online,
            }
            for s in self.seats
        ]

    def info(self) -> dict[str, Any]:
        """Public game info for the REST API (no seed, no tokens; the record once over)."""
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.name,
            "long_name": self.game.info.long_name,
            "options": self.row.options,
            "status": "over" if self.over else "active",
            "actions": len(self.state.history),
            "seq": self.seq,
            "seats": self.seats_info(),
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "created": self.row.created,
            "updated": self.row.updated,
            "result": records.to_record(self.state)["result"],
        }
        return out

    def _all_others_bots(self, seat: int) -> bool:
        return all(s.kind == "bot" for s in self.seats if s.seat != seat)

    def can_undo(self, seat: int) -> bool:
        """True if ``seat`` may undo now (see :func:`undo_target`; cached per seq)."""
        if self.over or self.seats[seat].kind != "human" or not self._all_others_bots(seat):
            return False
        if self.state.current_player() != seat:
            return False
        cached = self._undo_cache.get(seat)
        if cached is None or cached[0] != self.seq:
            cached = (self.seq, undo_target(self.state, seat))
            self._undo_cache[seat] = cached
        return cached[1] is not None

    # ----------------------------------------------------------------- the choke point
    def _memoized(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()`` once per (seq, key): views are recomputed after every change only."""
        if self._memo_seq != self.seq:
            self._memo.clear()
            self._memo_seq = self.seq
        if key not in self._memo:
            self._memo[key] = make()
        return self._memo[key]

    def public(self) -> dict[str, Any]:
        """``state.public_observation()`` (memoized per seq; do not mutate)."""
        result: dict[str, Any] = self._memoized("public", self.state.public_observation)
        return result

    def _base_view(self, seat: int | None) -> dict[str, Any]:
        """The fields of ``seat``'s view that depend on the state only (memoized per seq).

        This is the only function that turns state into outgoing data: the observation
        comes from ``state.observation(seat)`` or ``state.public_observation()``, the legal
        actions from ``state.legal_actions(seat)`` (or, for an early simultaneous choice,
        from the seat's own options in the same phase, see :meth:`_early_probe`).
        """

        def make() -> dict[str, Any]:
            state = self.state
            early = False
            if seat is None:
                obs = state.public_observation()
                legal: list[str] = []
            else:
                obs = state.observation(seat)
                window = (self.decision_seq, seat)
                reuse = self._early_legal.get(seat)
                if reuse is not None and reuse[0] == window and state.current_player() == seat:
                    # Asked now, in the same simultaneous window: the same options as
                    # offered early (they depend on this seat's hand and phase only).
                    legal = reuse[1]
                else:
                    legal = list(map(str, state.legal_actions(seat))) if not self.over else []
                if not legal and seat not in self.queued:
                    # A simultaneous decision the engine asks later (B-R3): the seat's own
                    # options, which do not depend on the other seat's hidden choice.
                    probe = self._early_probe(seat)
                    if probe is not None:
                        legal = list(map(str, probe.legal_actions(seat)))
                        self._early_legal[seat] = (window, legal)
                        early = True
            return {
                "seq": self.seq,
                "game_id": self.id,
                "game": self.name,
                "seat": seat,
                "status": "over" if self.over else "active",
                "observation": obs,
                "legal": legal,
                # Figures computed from the public observation only (the same for every
                # seat and spectator), once per change.
                "derived": self._memoized("derived", lambda: derived(self.game, self.public())),
                "can_undo": False if seat is None else self.can_undo(seat),
                "queued": None if seat is None else self.queued.get(seat),
                "early": early,
            }

        base: dict[str, Any] = self._memoized(("view", seat), make)
        return base

    def view(
        self, seat: int | None, kind: str, last: str | None = None, log_from: int = 0
    ) -> dict[str, Any]:
        """The message of type ``kind`` for ``seat`` (None: spectator).

        Args:
            seat: the seat, or None for a spectator.
            kind: ``"snapshot"`` or ``"update"``.
            last: the action text to echo (only ever to the seat that made it).
            log_from: log lines the client already has: the message's observation then
                carries ``log[log_from:]`` and ``log_start = log_from`` (0: the whole log).
        """
        message = dict(self._base_view(seat))
        message["type"] = kind
        obs = message["observation"]
        log = obs.get("log")
        if isinstance(log, list):
            start = log_from if 0 < log_from <= len(log) else 0
            if start:
                obs = dict(obs)
                obs["log"] = log[start:]
                message["observation"] = obs
            message["log_start"] = start
        if kind == "snapshot":
            message["seats"] = self.seats_info()
            message["options"] = self.row.options
        if last is not None:
            message["last"] = last
        return message

    def _log_length(self, seat: int | None) -> int:
        log = self._base_view(seat)["observation"].get("log")
        return len(log) if isinstance(log, list) else 0

    def send_view(self, client: Client, kind: str, last: str | None = None) -> None:
        """Send ``client`` its view (an update carries only the log lines it lacks)."""
        client.send(self._view_text(client, kind, last))

    def _view_text(self, client: Client, kind: str, last: str | None) -> str:
        seat = client.seat
        start = client.log_len if kind == "update" else 0
        key = ("text", seat, kind, last, start)
        text: str = self._memoized(key, lambda: protocol.dumps(self.view(seat, kind, last, start)))
        client.log_len = self._log_length(seat)
        return text

    def broadcast(self, last: tuple[int, str] | None = None) -> None:
        """Send an ``update`` to every client, each its own view."""
        for client in list(self.clients):
            echo = last[1] if last is not None and last[0] == client.seat else None
            self.send_view(client, "update", echo)

    def presence(self) -> None:
        """Tell every client the seats' connection flags."""
        msg = protocol.dumps({"type": "presence", "seq": self.seq, "seats": self.seats_info()})
        for client in list(self.clients):
            client.send(msg)

    def attach(self, client: Client) -> None:
        """Register ``client`` and send it a full snapshot."""
        self.clients.add(client)
        self.send_view(client, "snapshot")
        self.presence()

    def detach(self, client: Client) -> None:
        """Forget ``client``."""
        self.clients.discard(client)
        self.presence()

    # ----------------------------------------------------------------- submissions
    def _early_probe(self, seat: int) -> State | None:
        """In a simultaneous phase where the engine asks another seat first, a probe state
        in which ``seat`` decides the same phase (the first seat's choice is a placeholder:
        it stays hidden and cannot change ``seat``'s options), else None."""
        phases = SIMULTANEOUS_PHASES.get(self.name)
        state = self.state
        current = state.current_player()
        if not phases or current in (seat, TERMINAL_PLAYER):
            return None
        probe: State | None = self._memoized(("probe", seat), lambda: self._make_probe(seat))
        return probe

    def _make_probe(self, seat: int) -> State | None:
        phases = SIMULTANEOUS_PHASES.get(self.name, frozenset())
        state = self.state
        before = self.public()
        if before.get("phase") not in phases:
            return None
        legal = state.legal_actions()
        if not legal:
            return None
        probe = state.clone()
        probe.apply_action(legal[0])
        if probe.current_player() != seat:
            return None
        after = probe.public_observation()
        if after.get("phase") != before.get("phase") or after.get("turn") != before.get("turn"):
            return None
        return probe

    def _parse(self, state: State, text: str) -> Action:
        try:
            return self.game.parse_action(state, text)
        except ValueError as exc:
            raise SubmitError("illegal", f"{text!r}: {exc}") from None

    async def submit(self, seat: int, text: str, seq: int) -> str:
        """Validate and apply ``seat``'s action ``text`` submitted at ``seq``.

        Returns:
            ``"applied"`` or ``"queued"`` (an early simultaneous choice).

        Raises:
            SubmitError: over, stale, not the seat's turn, malformed or illegal; nothing
                changed.
        """
        async with self.lock:
            if self.over:
                raise SubmitError("over", "the game is over")
            if seq > self.seq or seq < self.decision_seq:
                raise SubmitError(
                    "stale",
                    f"stale submission: you saw state {seq}, the game is at {self.seq}; "
                    "look at the new state and decide again",
                )
            current = self.state.current_player()
            if current != seat:
                probe = self._early_probe(seat) if seq == self.seq else None
                if probe is None:
                    raise SubmitError(
                        "turn", f"not your turn: seat {current} ({self._name(current)}) decides"
                    )
                action = self._parse(probe, text)
                await self.hub.db(self.hub.storage.set_queued, self.id, seat, str(action))
                self.queued[seat] = str(action)
                self._memo_seq = -1  # the seat's view changes (queued) at the same seq
                self._send_to(
                    seat, {"type": "queued", "seq": self.seq, "action": str(action)}, also=True
                )
                return "queued"
            action = self._parse(self.state, text)
            await self._commit(seat, action)
            await self._drain_queue()
        self.kick_bots()
        return "applied"

    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "nobody"

    def _send_to(self, seat: int, message: dict[str, Any], also: bool = False) -> None:
        """Send ``message`` to ``seat``'s clients (and, with ``also``, its fresh view)."""
        for client in list(self.clients):
            if client.seat == seat:
                client.send(message)
                if also:
                    self.send_view(client, "update")

    async def _commit(self, seat: int, action: Action, clear_queued: bool = False) -> None:
        """Apply ``action`` for ``seat`` (legal: checked by the caller), write it, then
        broadcast.  On a database failure the state is rebuilt from the stored record."""
        state = self.state
        before = self.public() if self._simultaneous_phase() else None
        state.apply_action(action)
        index = len(state.history) - 1
        text = str(action)
        self.seq += 1
        result = records.to_record(state)["result"] if state.is_terminal() else None
        try:
            await self.hub.store_action(
                {
                    "game_id": self.id,
                    "index": index,
                    "player": seat,
                    "action": text,
                    "seq": self.seq,
                    "status": "over" if state.is_terminal() else "active",
                    "result": result,
                    "clear_queued": seat if clear_queued else None,
                }
            )
        except Exception as exc:
            log.exception("game %s: could not store action %s", self.id, text)
            await self._reload()
            raise SubmitError("invalid", f"the server could not store the action: {exc}") from None
        self.row.updated = now()
        # A simultaneous phase keeps the seat's decision window open (B-R3).
        after = self.public() if before is not None else None
        if (
            before is None
            or after is None
            or after.get("phase") != before.get("phase")
            or after.get("turn") != before.get("turn")
        ):
            self.decision_seq = self.seq
        self.broadcast(last=(seat, text))

    def _simultaneous_phase(self) -> bool:
        phases = SIMULTANEOUS_PHASES.get(self.name)
        return bool(phases) and self.public().get("phase") in (phases or ())

    async def _drain_queue(self) -> None:
        """Apply queued early choices as soon as the engine asks their seat."""
        while not self.over:
            current = self.state.current_player()
            text = self.queued.pop(current, None)
            if text is None:
                return
            self._memo_seq = -1
            try:
                action = self.game.parse_action(self.state, text)
            except ValueError as exc:
                await self.hub.db(self.hub.storage.set_queued, self.id, current, None)
                self._send_to(
                    current,
                    protocol.error(self.seq, f"your queued {text!r} no longer applies: {exc}"),
                    also=True,
                )
                return
            await self._commit(current, action, clear_queued=True)

    async def _reload(self) -> None:
        """Rebuild the state from the database (after a failed write)."""
        row = await self.hub.db(self.hub.storage.load, self.id)
        if row is not None:
            self.row = row
            self.state = replay(row.record())
            self.seq = row.seq
            self._memo_seq = -1
            self.decision_seq = row.seq
            self.queued = {s.seat: s.queued for s in row.seats if s.queued}

    async def undo(self, seat: int, seq: int) -> None:
        """Take back ``seat``'s last decision (see :func:`undo_target`).

        Raises:
            SubmitError: stale, another seat is human, or the rule of :func:`undo_target`
                refuses.
        """
        async with self.lock:
            if seq != self.seq:
                raise SubmitError("stale", f"stale undo: you saw {seq}, the game is at {self.seq}")
            if self.seats[seat].kind != "human" or not self._all_others_bots(seat):
                raise SubmitError("undo", "undo is only possible when every other seat is a bot")
            if self.over:
                raise SubmitError("undo", "the game is over")
            if self.state.current_player() != seat:
                raise SubmitError("undo", "undo when it is your turn (a bot is deciding)")
            target = undo_target(self.state, seat)
            if target is None:
                raise SubmitError(
                    "undo",
                    "cannot undo: cards were drawn or revealed, or a random event happened "
                    "since your last decision",
                )
            state = replay(records.to_record(self.state), upto=target)
            seq = self.seq + 1
            await self.hub.db(self.hub.storage.truncate_actions, self.id, target, seq)
            self.state, self.seq = state, seq
            self.queued.clear()
            self.decision_seq = self.seq
            self._undo_cache.clear()
            for client in list(self.clients):
                self.send_view(client, "snapshot")

    # ----------------------------------------------------------------- bots
    def kick_bots(self) -> None:
        """Start the bot of the current seat if it is a bot and none is running."""
        if self.over or (self._bot_task is not None and not self._bot_task.done()):
            return
        current = self.state.current_player()
        if not 0 <= current < len(self.seats) or self.seats[current].kind != "bot":
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._bot_turns())

    async def _bot_turns(self) -> None:
        """Let bots decide while a bot seat is to act."""
        while not self.over:
            current = self.state.current_player()
            if not 0 <= current < len(self.seats) or self.seats[current].kind != "bot":
                return
            seq = self.seq
            spec = self.seats[current].bot or "random"
            seed = bot_seed(self.state.seed, current, len(self.state.history))
            try:
                text = await self.hub.bots.choose(self.state, current, spec, seed)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: bot %s failed; playing a random move", self.id, spec)
                text = choose_on_state(self.state.clone(), current, "random", seed)
            async with self.lock:
                if self.seq != seq or self.over:
                    continue  # the game moved on (undo); decide again
                try:
                    action = self.game.parse_action(self.state, text)
                except ValueError:
                    log.error("game %s: bot %s chose illegal %r", self.id, spec, text)
                    action = self.game.parse_action(
                        self.state, choose_on_state(self.state.clone(), current, "random", seed)
                    )
                try:
                    await self._commit(current, action)
                    await self._drain_queue()
                except SubmitError:
                    await asyncio.sleep(1.0)

    async def stop(self) -> None:
        """Cancel a running bot decision (on shutdown)."""
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


# ---------------------------------------------------------------------------- the hub
class CreateError(ValueError):
    """A lobby request to create a game that cannot be honoured (message says why)."""


class Hub:
    """Every game of the server: storage, the database thread, the bot pool, the runners.

    Args:
        storage: the :class:`Storage`.
        bot_workers: processes for bots (0: a thread pool).
    """

    def __init__(self, storage: Storage, bot_workers: int = 0) -> None:
        self.storage = storage
        self.inline_db = storage.url.startswith("sqlite")
        self.bots = BotPool(bot_workers)
        self._db = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="porphyra-db"
        )
        self.runners: dict[str, MatchRunner] = {}
        self.broken: dict[str, str] = {}
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run storage call ``fn(*args)`` and return its result.

        SQLite calls run inline (they take well under a millisecond, and a database thread
        would fight the event loop for the GIL, which made commits wait for hundreds of
        milliseconds under load); other databases (network round trips) run on the
        database thread."""
        if self.inline_db:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def store_action(self, entry: dict[str, Any]) -> None:
        """Durably store one action (keywords of :meth:`Storage.append_actions`); returns
        once it is committed.  Actions arriving together share one transaction (group
        commit), so a hundred busy games cost a few commits, not a hundred."""
        if self._wake is None:
            self._wake = asyncio.Event()
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((entry, future))
        self._wake.set()
        await future

    async def _write_loop(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            try:
                await self.db(self.storage.append_actions, [entry for entry, _ in batch])
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
            else:
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)

    async def _checkpoints(self, every: float = 2.0) -> None:
        """Checkpoint the SQLite write-ahead log on the database thread, off the loop."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            try:
                await loop.run_in_executor(self._db, self.storage.checkpoint)
            except Exception:  # a busy database: try again next time
                log.debug("checkpoint skipped", exc_info=True)

    async def start(self) -> None:
        """Reload every unfinished game by replaying its record, and restart its bots
        (finished games load when someone opens them)."""
        self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoints())
        ids = await self.db(self.storage.game_ids, "active")
        for game_id in ids:
            await self.get(game_id)
        for runner in self.runners.values():
            runner.kick_bots()

    async def stop(self) -> None:
        """Stop bots and executors."""
        for runner in self.runners.values():
            await runner.stop()
        for task in (self._checkpointer, self._writer):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            self.storage.checkpoint()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        self.bots.shutdown()
        self._db.shutdown(wait=True)

    async def get(self, game_id: str) -> MatchRunner | None:
        """The runner of ``game_id`` (loaded from the database on first use), or None."""
        runner = self.runners.get(game_id)
        if runner is not None:
            return runner
        if game_id in self.broken or len(game_id) > 64:
            return None
        row = await self.db(self.storage.load, game_id)
        if row is None:
            return None
        try:
            state = replay(row.record())
        except RecordError as exc:
            log.error("game %s does not replay: %s", game_id, exc)
            self.broken[game_id] = str(exc)
            return None
        runner = self.runners.get(game_id)  # loaded meanwhile by another request
        if runner is None:
            runner = self.runners[game_id] = MatchRunner(self, row, state)
        return runner

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
    ) -> tuple[MatchRunner, dict[int, str]]:
        """Create and store a new game; start its bots.

        Args:
            name: the game (``byzantium`` / ``conspiracy``).
            options: validated lobby options for ``load_game``.
            seats: per seat ``{"kind": "human" | "bot", "bot": spec, "name": str}``.
            seed: the game seed (default: a fresh random one).

        Returns:
            The runner and the seat tokens of the human seats, ``{seat: token}``.

        Raises:
            CreateError: the engine refuses the options or the seat count is wrong.
        """
        try:
            game = shared_game(name, options)
        except (ValueError, TypeError) as exc:
            raise CreateError(str(exc)) from None
        if len(seats) != game.num_players:
            raise CreateError(f"{name} with these options has {game.num_players} seat(s)")
        if seed is None:
            seed = secrets.randbits(31)
        state = game.new_initial_state(seed=seed)
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for i, s in enumerate(seats):
            token_hash = None
            if s["kind"] == "human":
                tokens[i] = secrets.token_urlsafe(24)
                token_hash = hash_token(tokens[i])
            rows.append(SeatRow(i, s["kind"], s.get("bot"), s["name"], token_hash))
        stamp = now()
        game_id = secrets.token_hex(8)
        row = GameRow(
            id=game_id,
            game=name,
            version=game.info.version,
            options=game.record_options(),
            seed=seed,
            status="active",
            seq=0,
            created=stamp,
            updated=stamp,
            seats=rows,
        )
        await self.db(self.storage.create_game, row)
        runner = MatchRunner(self, row, state)
        self.runners[game_id] = runner
        runner.kick_bots()
        return runner, tokens
