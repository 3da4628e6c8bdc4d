"""The match runner: the single authority over one web game.

A :class:`MatchRunner` owns the engine state of one game.  Every submission goes through
:meth:`MatchRunner.submit`, which checks, in order: the game is not over, the message is
fresh (not older than the start of the seat's decision: the state in which its legal actions
became what they are, so a seat of a simultaneous decision may answer after another seat's
hidden choice), the seat is one the engine waits for (``state.active_players()``), and the
action parses and is legal.  Only then is it applied, **written to the database**, and
broadcast.  Anything else answers the submitting client with an ``error`` and changes
nothing.  The runner knows no game's phases: simultaneous decisions (Byzantium B-R3) are the
engine's, which takes them in either order; a choice is stored as soon as it is applied, so
nothing waits outside the record.

The choke point (``shared/DESIGN.md``): :meth:`MatchRunner._base_view` is the only place
where state becomes outgoing data (:meth:`MatchRunner.view` shapes it into messages).  A
seat gets ``state.observation(seat)`` and its own legal actions; a spectator gets
``state.public_observation()``.  Undo history never leaves
the server (an undo replays a record prefix and sends fresh snapshots).

Bot seats play through the hub's :class:`~porphyra.server.botpool.BotPool`, and so do the
seats a bot plays for their players (issue 15): a seat out of time (one decision, by the
table's ``timeout_bot``) and a seat taken over (its player left, or ran out of time
``takeover_after`` times) until its player returns.  The clocks are a
:class:`~porphyra.clocks.TableClock`, stored with every action and kept by the base class
:class:`~porphyra.server.seatclock.ClockedRunner`.  Undo follows
:func:`~porphyra.server.replay.undo_target`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from porphyra import record as records
from porphyra.bots.selfplay import decision_seed
from porphyra.core.errors import PorphyraError
from porphyra.core.game import Action, Game, State
from porphyra.core.messages import Joined, msg
from porphyra.i18n import DEFAULT as DEFAULT_LANGUAGE
from porphyra.server import protocol
from porphyra.server.botpool import choose_on_state
from porphyra.server.client import Client
from porphyra.server.errors import MOVED_MESSAGE, SubmitError, unavailable_message
from porphyra.server.gamedata import derived, has_derived
from porphyra.server.incidents import report
from porphyra.server.replay import replay, undo_target
from porphyra.server.seatclock import ClockedRunner, load_clock
from porphyra.server.storage import (
    SPECTATOR_SEAT,
    GameRow,
    NotOwnerError,
    SeatRow,
    hash_token,
    is_rated,
    now,
)
from porphyra.server.summary import game_summary

if TYPE_CHECKING:
    from porphyra.server.hub import Hub

log = logging.getLogger("porphyra.server")

#: Chat lines one game keeps (then the table's chat is full).
MAX_CHAT_LINES = 1000
#: Of those, the most spectators may write (the seats can always go on talking).
MAX_SPECTATOR_CHAT_LINES = 300
#: Chat lines sent with a snapshot (the latest ones).
CHAT_HISTORY = 200


#: Memo keys of view dicts that :meth:`MatchRunner._release_views` drops once a change
#: is sent (besides every ``("view", seat)``).
_RELEASED = frozenset({"public", "derived"})


class MatchRunner(ClockedRunner):
    """The authority over one game: state, seats, clients, bots, persistence (its clocks:
    :class:`~porphyra.server.seatclock.ClockedRunner`).

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
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self._bot_task: asyncio.Task[None] | None = None
        self._undo_cache: dict[int, tuple[int, int | None]] = {}
        #: Per-seq memo of views and the public observation (cleared on change).
        self._memo: dict[Any, Any] = {}
        self._memo_seq = -1
        #: ``time.monotonic()`` of the last use (the hub releases idle runners).
        self.last_used = time.monotonic()
        #: Set when the hub released this runner: holders must fetch it again.
        self.released = False
        #: Per seat: the seq its current decision began at, and its legal action texts.
        self._decisions: dict[int, tuple[int, list[str]]] = {}
        self._track_decisions()
        #: The hint searches of the current decisions, by ``(seat, seq)`` (shared by every
        #: request for the same decision).
        self._hints: dict[tuple[int, int], asyncio.Future[tuple[str, float | None]]] = {}
        #: One rematch is made at a time (a second request gets the first one).
        self.rematch_lock = asyncio.Lock()
        #: The table's chat (loaded from the database on first use).
        self.chat: list[dict[str, Any]] | None = None
        self._chat_lock = asyncio.Lock()
        #: ``time.monotonic()`` of the last change (bots wait ``hub.bot_pace`` after it).
        self._last_change = 0.0
        self.clock = load_clock(row, self.game.num_players)
        #: Seats out of time whose timeout bot is deciding.
        self._timing_out: set[int] = set()

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
                "takeover": self.clock.seats[s.seat].takeover,
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
            "clock": self.clock_info(),
            "waiting": [] if self.over else self.state.active_players(),
            **self.deal_info(),
        }
        return out

    def record_with_seats(self) -> dict[str, Any]:
        """The game's record (with its clock settings and events, :meth:`record`) plus
        ``seats`` (per seat its ``name``, ``kind`` and ``bot``), which ``porphyra replay``
        shows.  Only for a finished game: the record holds the seed."""
        rec = self.record()
        rec["seats"] = [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in self.seats]
        return rec

    def deal_info(self) -> dict[str, Any]:
        """``{"deal": "secret" | "chosen" | "legacy", "rated": bool}``: whether the seed
        was drawn by the server or chosen by the creator (told to everyone; never the
        seed itself)."""
        return {"deal": self.row.deal, "rated": is_rated(self.row.deal)}

    def has_human(self) -> bool:
        """True if a seat is human (bot moves are then paced so that a person can follow)."""
        return any(s.kind == "human" for s in self.seats)

    def _people_seats(self) -> set[int]:
        """The seats a person plays: human seats that no bot has taken over."""
        return {
            s.seat
            for s in self.seats
            if s.kind == "human" and self.clock.seats[s.seat].takeover is None
        }

    def has_player(self) -> bool:
        """True if a person plays a seat (a game without one counts as a bot-only game,
        see ``Hub.active_bot_only_games``)."""
        return bool(self._people_seats())

    def person_waiting(self) -> bool:
        """True if a person is at the table now: a seat a person plays, with a page open.
        Its bots are served first (``FairGate``); tables whose people are away (or taken
        over) wait their turn like bot-only games."""
        online = {c.seat for c in self.clients if c.seat is not None}
        return not online.isdisjoint(self._people_seats())

    def idle(self) -> bool:
        """True if nothing holds this runner in memory: no client and no bot deciding
        (the hub may then release it; it reloads from the database)."""
        return not self.clients and (self._bot_task is None or self._bot_task.done())

    def _all_others_bots(self, seat: int) -> bool:
        return all(s.kind == "bot" for s in self.seats if s.seat != seat)

    def hints_allowed(self, seat: int | None) -> bool:
        """True if ``seat`` may ask for hints: the table allows them, or every other seat
        is a bot (a spectator never may)."""
        if seat is None or not 0 <= seat < len(self.seats):
            return False
        return bool(self.row.table.get("hints")) or self._all_others_bots(seat)

    def spectators_may_chat(self) -> bool:
        """True if the table lets spectators write in its chat (they always read it)."""
        return bool(self.row.table.get("spectator_chat"))

    def bot_plays(self, seat: int) -> bool:
        """True if a bot decides for ``seat`` now: a bot seat, a seat taken over, or a
        seat out of time whose timeout bot is deciding."""
        return (
            self.seats[seat].kind == "bot"
            or self.clock.seats[seat].takeover is not None
            or seat in self._timing_out
        )

    def can_undo(self, seat: int) -> bool:
        """True if ``seat`` may undo now (see :func:`undo_target`; cached per seq)."""
        if self.over or self.seats[seat].kind != "human" or not self._all_others_bots(seat):
            return False
        if self.bot_plays(seat) or seat not in self.state.active_players():
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

    def _derived(self) -> dict[str, Any]:
        """:func:`derived` of the public observation (``{}`` without building it when the
        game has no derived figures)."""
        if not has_derived(self.game):
            return {}
        return derived(self.game, self.public())

    def _summary(self) -> dict[str, Any]:
        """:func:`game_summary` of the finished game (public observations only)."""
        try:
            return game_summary(records.to_record(self.state))
        except Exception:  # a summary is a courtesy: never fail the view for it
            log.exception("game %s: no summary", self.id)
            return {}

    def _legal(self, seat: int) -> list[str]:
        """``seat``'s legal action texts now (``[]`` unless the engine waits for it)."""
        if self.over or seat not in self.state.active_players():
            return []
        return self.state.legal_action_texts(seat)

    def _track_decisions(self) -> None:
        """After a change: a seat whose legal actions changed starts a new decision at
        the current seq (an unchanged one, e.g. the other seat of a simultaneous decision
        after a hidden choice, keeps its start, so its submission stays fresh)."""
        for seat in range(len(self.seats)):
            legal = self._legal(seat)
            old = self._decisions.get(seat)
            if old is None or old[1] != legal or not legal:
                self._decisions[seat] = (self.seq, legal)

    def _decision_start(self, seat: int) -> int:
        """The seq at which ``seat``'s current decision began (see :meth:`_track_decisions`):
        a move or a hint sent at any seq from there to now is fresh."""
        return self._decisions.get(seat, (self.seq, []))[0]

    def _base_view(self, seat: int | None) -> dict[str, Any]:
        """The fields of ``seat``'s view that depend on the state only (memoized per seq).

        This is the only function that turns state into outgoing data: the observation
        comes from ``state.observation(seat)`` or ``state.public_observation()``, the legal
        actions from ``state.legal_actions(seat)`` (every seat of
        ``state.active_players()`` has its own).
        """

        def make() -> dict[str, Any]:
            state = self.state
            if seat is None:
                obs = self.public()  # one public observation per change, also for derived
                legal: list[str] = []
            else:
                obs = state.observation(seat)
                decision = self._decisions.get(seat)
                legal = decision[1] if decision is not None else self._legal(seat)
                if self.bot_plays(seat):
                    legal = []  # a bot decides for this seat now
            obs = self._with_clock_notes(obs, seat)
            return {
                "seq": self.seq,
                "game_id": self.id,
                "game": self.name,
                "seat": seat,
                "status": "over" if self.over else "active",
                "observation": obs,
                "legal": legal,
                # Figures computed from the public observation only (the same for every
                # seat and spectator), once per change; none (and no public observation
                # built for them) in a game without such figures.
                "derived": self._memoized("derived", self._derived),
                "can_undo": False if seat is None else self.can_undo(seat),
                "hints": self.hints_allowed(seat),
                # Once over: the game's course from the public view (the same for all).
                "summary": self._memoized("summary", self._summary) if self.over else None,
            }

        base: dict[str, Any] = self._memoized(("view", seat), make)
        return base

    def view(
        self,
        seat: int | None,
        kind: str,
        last: str | None = None,
        log_from: int = 0,
        lang: str = DEFAULT_LANGUAGE,
    ) -> dict[str, Any]:
        """The message of type ``kind`` for ``seat`` (None: spectator).

        Args:
            seat: the seat, or None for a spectator.
            kind: ``"snapshot"`` or ``"update"``.
            last: the action text to echo (only ever to the seat that made it).
            log_from: log lines the client already has: the message's observation then
                carries ``log[log_from:]`` and ``log_start = log_from`` (0: the whole log).
            lang: the client's language; unused by the log, which is sent as English
                lines (``observation.log``, as records keep them) and as messages
                (``observation.log_messages``: an id plus arguments each, one per line)
                that the page renders in its own language.
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
                if isinstance(obs.get("log_messages"), list):
                    obs["log_messages"] = obs["log_messages"][start:]
                message["observation"] = obs
            message["log_start"] = start
        if kind == "snapshot":
            message["seats"] = self.seats_info()
            message["options"] = self.row.options
            message["table"] = dict(self.row.table)
            message["rematch"] = self.row.rematch
            message["chat"] = self.chat_history()
            message.update(self.deal_info())
        # A snapshot's clocks are as of now (it may come long after the last change); an
        # update's as of the change it reports (the same for every client).
        message["clock"] = (
            self.clock_info() if kind == "snapshot" else self._memoized("clock", self.clock_info)
        )
        if last is not None:
            message["last"] = last
        return message

    def _log_length(self, seat: int | None) -> int:
        log = self._base_view(seat)["observation"].get("log")
        return len(log) if isinstance(log, list) else 0

    def send_view(self, client: Client, kind: str, last: str | None = None) -> None:
        """Send ``client`` its view (an update carries only the log lines it lacks)."""
        client.send(self._view_text(client, kind, last))
        client.shown = self._shown(client.seat)

    def _shown(self, seat: int | None) -> tuple[str, tuple[Any, ...]]:
        """What ``seat``'s view shows, apart from the message number: its observation,
        legal actions, undo and status as JSON text (made once per change), and the clocks.

        Text rather than the view's dicts, so that a client keeps no reference to them:
        :meth:`_release_views` drops them once the change is sent, before the garbage
        collector's young generation would have to walk them (a string holds no
        references; issue 13's benchmark had each young collection walk every game's
        views)."""

        def make() -> str:
            base = self._base_view(seat)
            shown = [base["observation"], base["legal"], base["can_undo"], base["status"]]
            return protocol.dumps({"shown": shown})

        text: str = self._memoized(("shown", seat), make)
        clocks = tuple((c.remaining_s, c.since, c.timeouts, c.takeover) for c in self.clock.seats)
        return text, clocks

    def _release_views(self) -> None:
        """Forget this change's view dicts (observations, public view, derived figures);
        their texts stay memoized, and a later reader in the same change (a new client's
        snapshot) makes them again, the same (they depend on the state only)."""
        memo = self._memo
        for key in [k for k in memo if k in _RELEASED or (type(k) is tuple and k[0] == "view")]:
            del memo[key]

    def _view_text(self, client: Client, kind: str, last: str | None) -> str:
        seat = client.seat
        start = client.log_len if kind == "update" else 0
        lang = client.lang
        key = ("text", seat, kind, last, start, lang, self.row.rematch, len(self.chat or ()))
        if kind == "snapshot" and self.clock.next_deadline() is not None:
            self._memo.pop(key, None)  # a clock runs: the snapshot's time is as of now
        text: str = self._memoized(
            key, lambda: protocol.dumps(self.view(seat, kind, last, start, lang))
        )
        client.log_len = self._log_length(seat)
        return text

    def broadcast(self, last: tuple[int, str] | None = None) -> None:
        """Send an ``update`` to every client whose view changed, each its own view.

        A client whose view is the same as before gets nothing.  Another seat's secret
        choice in a simultaneous decision (B-R3) never shows *what* was chosen, but the
        other seat does learn *that* it was made (its view says it waits for the other
        player no more): accepted by design, see docs/scaling.md.  Its submissions stay
        fresh (its decision has not changed, see ``submit``)."""
        for client in list(self.clients):
            echo = last[1] if last is not None and last[0] == client.seat else None
            if echo is None and client.shown == self._shown(client.seat):
                continue
            self.send_view(client, "update", echo)
        self._release_views()

    def presence(self) -> None:
        """Tell every client the seats' connection flags."""
        msg = protocol.dumps({"type": "presence", "seq": self.seq, "seats": self.seats_info()})
        for client in list(self.clients):
            client.send(msg)

    def attach(self, client: Client) -> None:
        """Register ``client`` and send it a full snapshot (with the chat loaded by
        :meth:`load_chat`)."""
        self.clients.add(client)
        self.send_view(client, "snapshot")
        self._release_views()
        self.presence()

    def announce_rematch(self) -> None:
        """Tell every client the id of this game's rematch (each opens it with its own
        link: a seat's token opens the same seat there)."""
        msg = protocol.dumps({"type": "rematch", "seq": self.seq, "game_id": self.row.rematch})
        for client in list(self.clients):
            client.send(msg)

    # ----------------------------------------------------------------- chat
    def _chat_entry(self, line: dict[str, Any]) -> dict[str, Any]:
        """A stored chat line as sent: index, seat (None: a spectator), name, text, time."""
        seat = line["seat"]
        spectator = seat == SPECTATOR_SEAT or not 0 <= seat < len(self.seats)
        return {
            "n": line["n"],
            "seat": None if spectator else seat,
            "name": "Spectator" if spectator else self.seats[seat].name,
            "text": line["text"],
            "at": line["at"],
        }

    async def _load_chat(self) -> list[dict[str, Any]]:
        if self.chat is None:
            lines = await self.hub.db(self.hub.storage.chat, self.id)
            if self.chat is None:
                self.chat = lines
        return self.chat

    async def load_chat(self) -> None:
        """Load the table's chat, so that snapshots carry it (a database that does not
        answer now leaves it unloaded: snapshots then carry none)."""
        try:
            await self._load_chat()
        except Exception:
            report("game %s: could not load the chat", self.id)

    def chat_history(self) -> list[dict[str, Any]]:
        """The latest :data:`CHAT_HISTORY` chat lines as sent (none while not loaded)."""
        return [self._chat_entry(line) for line in (self.chat or [])[-CHAT_HISTORY:]]

    async def post_chat(self, seat: int | None, text: str) -> None:
        """Store ``text`` as a chat line of ``seat`` (None: a spectator) and send it to
        every client.  The text is the client's own (checked by the protocol); the page
        shows it as text, never as markup.

        Raises:
            SubmitError: ``auth`` (a spectator at a table whose spectators only read),
                ``limit`` (the table's chat is full), ``unavailable`` (not stored).
        """
        if seat is None and not self.spectators_may_chat():
            raise SubmitError("auth", "spectators can read this table's chat, not write in it")
        async with self._chat_lock:
            lines = await self._store("a chat line", self._load_chat)
            if len(lines) >= MAX_CHAT_LINES:
                raise SubmitError("limit", "this table's chat is full")
            if seat is None and (
                sum(1 for x in lines if x["seat"] == SPECTATOR_SEAT) >= MAX_SPECTATOR_CHAT_LINES
            ):
                raise SubmitError("limit", "the spectators' share of this table's chat is full")
            line = {
                "n": len(lines),
                "seat": SPECTATOR_SEAT if seat is None else seat,
                "text": text,
                "at": now(),
            }
            await self._store(
                "a chat line",
                self.hub.db,
                self.hub.storage.add_chat,
                self.id,
                line["n"],
                line["seat"],
                text,
                line["at"],
                self.hub.fence(),
            )
            lines.append(line)
        msg = protocol.dumps({"type": "chat", "seq": self.seq, "lines": [self._chat_entry(line)]})
        for client in list(self.clients):
            client.send(msg)

    # ----------------------------------------------------------------- hints
    async def hint(self, seat: int, seq: int) -> dict[str, Any]:
        """The hint bot's move for ``seat`` now, with its estimated chance to win when the
        bot has one, computed from ``seat``'s own view only (``seat_view``).

        Returns:
            ``{"type": "hint", "seq", "action", "chance" (0..1 or None), "bot"}``.

        Raises:
            SubmitError: ``auth`` (the table gives no hints to this seat), ``stale``,
                ``turn`` (the game does not wait for this seat) or ``over``.
        """
        if not self.hints_allowed(seat):
            raise SubmitError(
                "auth", "this table gives no hints (they are on when every other seat is a bot)"
            )
        if self.over:
            raise SubmitError("over", "the game is over")
        # Fresh from the start of the seat's decision on, as a submission is: another
        # seat's hidden choice moves the game's seq but not this seat's view.
        start = self._decision_start(seat)
        if seq > self.seq or seq < start:
            raise SubmitError(
                "stale", msg("stale hint request: you saw {0}, the game is at {1}", seq, self.seq)
            )
        if not self._legal(seat):
            raise SubmitError("turn", "a hint is for your own decision: it is not your turn")
        spec = self.hub.hint_bot
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
            task = asyncio.ensure_future(self.hub.bots.hint(self.state, seat, spec, seed))
            self._hints[key] = task
        try:
            action, chance = await asyncio.shield(task)
        except Exception:
            self._hints.pop(key, None)  # a failed search may be asked for again
            raise
        return {"type": "hint", "seq": seq, "action": action, "chance": chance, "bot": spec}

    def detach(self, client: Client) -> None:
        """Forget ``client``."""
        self.clients.discard(client)
        self.presence()

    # ----------------------------------------------------------------- submissions
    def _parse(self, state: State, text: str, seat: int) -> Action:
        try:
            return self.game.parse_action(state, text, seat)
        except PorphyraError as exc:
            raise SubmitError("illegal", msg("{0}: {1}", repr(text), exc.message)) from None
        except ValueError as exc:
            raise SubmitError("illegal", f"{text!r}: {exc}") from None

    async def submit(self, seat: int, text: str, seq: int) -> str:
        """Validate and apply ``seat``'s action ``text`` submitted at ``seq``.

        Returns:
            ``"applied"``.

        Raises:
            SubmitError: over, stale, not one of the seats the game waits for, malformed or
                illegal; nothing changed.
        """
        async with self.lock:
            if self.over:
                raise SubmitError("over", "the game is over")
            start = self._decision_start(seat)
            if seq > self.seq or seq < start:
                raise SubmitError(
                    "stale",
                    msg(
                        "stale submission: you saw state {0}, the game is at {1}; "
                        "look at the new state and decide again",
                        seq,
                        self.seq,
                    ),
                )
            active = self.state.active_players()
            if seat not in active:
                waiting = Joined(", ", tuple(msg("seat {0}", p) for p in active))
                raise SubmitError("turn", msg("not your turn: waiting for {0}", waiting))
            if seat in self._timing_out:
                raise SubmitError("timeout", "your time ran out: a bot is moving for you")
            if self.clock.seats[seat].takeover is not None:
                raise SubmitError(
                    "takeover", "a bot plays your seat: take your seat back first, then move"
                )
            action = self._parse(self.state, text, seat)
            await self._commit(seat, action)
        self.kick_bots()
        return "applied"

    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "nobody"

    async def _store(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run storage call ``fn(*args)``; a failure becomes a :class:`SubmitError`
        ``unavailable`` ("nothing changed, try again", with an error id; the details only
        in the server log)."""
        try:
            return await fn(*args)
        except NotOwnerError:
            # Another server took this game over (this one was cut off past its lease):
            # the write was refused; the game is its now (see porphyra.server.owners).
            log.warning("game %s: taken over by another server; dropped here", self.id)
            asyncio.get_running_loop().create_task(self.hub.drop(self.id))
            raise SubmitError("moved", MOVED_MESSAGE) from None
        except Exception:
            error_id = report("game %s: could not store %s", self.id, what)
            raise SubmitError("unavailable", unavailable_message(error_id)) from None

    async def _commit(self, seat: int, action: Action, timeout: bool = False) -> None:
        """Store ``action`` for ``seat`` (legal: checked by the caller), then make it the
        game's state and broadcast it.  The action is applied to a clone, and the clone
        becomes the game's state only once the database confirmed the write: on a failure
        nothing changed (issue 13, item 5).

        The engine keeps a simultaneous decision's choices in canonical order, so a choice
        may land before one stored earlier (B-R3: the Emperor's redraw after the Foe's):
        the stored actions are rewritten from the first index that changed.

        ``timeout``: the action is a timeout bot's move for ``seat`` (counted, logged, and
        maybe the seat's takeover, :meth:`TableClock.timed_out`).  The clocks are updated
        (:meth:`TableClock.update`) and stored with the action.

        Raises:
            SubmitError: ``unavailable``, the database did not take the write.
        """
        # An untimed table's clock never changes here (update() returns at once), so it
        # is shared rather than copied; any other is changed on a copy, kept once stored.
        clock = self.clock.copy() if timeout or self.clock.timed else self.clock
        if timeout:
            anchor = self._log_anchor()
            before_events = len(clock.events)
            clock.timed_out(seat, self._moves_of(seat))
            for event in clock.events[before_events:]:
                event["at"] = anchor
        before = self.state.history
        state = self.state.clone()
        state.apply_action(action, seat)
        history = state.history
        first = len(before)
        while first and history[first - 1] != before[first - 1]:
            first -= 1
        text = str(action)
        seq = self.seq + 1
        result = records.to_record(state)["result"] if state.is_terminal() else None
        entry = {
            "game_id": self.id,
            "index": first,
            "actions": [(p, str(a)) for p, a in history[first:]],
            "replace": first < len(before),
            "seq": seq,
            "status": "over" if state.is_terminal() else "active",
            "result": result,
        }
        clock.update(self._waiting(state, clock), seat, self.hub.now())
        entry["clock"] = clock.dumps()
        try:
            await self._store(f"action #{len(history) - 1} {text!r}", self.hub.store_action, entry)
        except SubmitError as err:
            # The write may have landed before the connection broke: take the stored
            # game as the truth when the database answers (else keep the unchanged state).
            if err.code != "moved":  # (a game taken over is not this server's to reload)
                with contextlib.suppress(Exception):
                    await self._reload()
            raise
        self.state, self.seq, self.clock = state, seq, clock
        self._timing_out.discard(seat)
        self.row.updated = now()
        self._last_change = time.monotonic()
        self._track_decisions()
        self.broadcast(last=(seat, text))

    async def _reload(self) -> None:
        """After a failed write: if the database holds a different game (the write landed
        before the connection broke), rebuild the state from it."""
        row = await self.hub.db(self.hub.storage.load, self.id)
        if row is not None and (row.seq, len(row.actions)) != (self.seq, len(self.state.history)):
            self.row = row
            self.state = replay(row.record())
            self.seq = row.seq
            self.clock = load_clock(row, self.game.num_players)
            self._memo_seq = -1
            self._decisions.clear()
            self._track_decisions()
            for client in list(self.clients):
                self.send_view(client, "snapshot")
            self._release_views()

    async def undo(self, seat: int, seq: int) -> None:
        """Take back ``seat``'s last decision (see :func:`undo_target`).

        Raises:
            SubmitError: stale, another seat is human, or the rule of :func:`undo_target`
                refuses.
        """
        async with self.lock:
            if seq != self.seq:
                raise SubmitError(
                    "stale", msg("stale undo: you saw {0}, the game is at {1}", seq, self.seq)
                )
            if self.seats[seat].kind != "human" or not self._all_others_bots(seat):
                raise SubmitError("undo", "undo is only possible when every other seat is a bot")
            if self.over:
                raise SubmitError("undo", "the game is over")
            if seat not in self.state.active_players():
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
            clock = self.clock.copy()
            players = range(len(self.seats))
            clock.drop_events_after([sum(1 for p, _ in state.history if p == q) for q in players])
            clock.update(set(), None, self.hub.now())  # stop, then restart for the new state
            clock.update(self._waiting(state, clock), None, self.hub.now())
            await self._store(
                "an undo",
                self.hub.db,
                self.hub.storage.truncate_actions,
                self.id,
                target,
                seq,
                clock.dumps(),
                self.hub.fence(),
            )
            self.state, self.seq, self.clock = state, seq, clock
            self._decisions.clear()
            self._track_decisions()
            self._undo_cache.clear()
            for client in list(self.clients):
                self.send_view(client, "snapshot")
            self._release_views()

    # ----------------------------------------------------------------- bots
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
        if self._bot_seat() is None:
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
                text = await self.hub.bots.choose(
                    self.state, current, spec, seed, urgent=self.person_waiting()
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("game %s: bot %s failed; playing a random move", self.id, spec)
                text = choose_on_state(self.state.clone(), current, "random", seed)
            # Pace: a person at the table can follow each bot move (none in bot-only games).
            pace = self.hub.bot_pace if self.has_human() else 0.0
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

    async def stop(self) -> None:
        """Cancel a running bot decision (on shutdown)."""
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
