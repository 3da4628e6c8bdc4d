"""The choke point of a match runner: where the state of a game becomes outgoing data.

:meth:`SeatViews._base_view` is the only place where state leaves the server
(``shared/DESIGN.md``): a seat gets ``state.observation(seat)`` and its own legal
actions, a spectator ``state.public_observation()``; :meth:`SeatViews.view` shapes it into
the protocol's messages, memoized per seq, and :meth:`SeatViews.broadcast` sends each
client its own view when it changed.  A base class of
:class:`~porphyra.server.match.MatchRunner` (the attributes below are the runner's).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from porphyra.clocks import TableClock
from porphyra.core.game import Game, State
from porphyra.i18n import DEFAULT as DEFAULT_LANGUAGE
from porphyra.server import protocol
from porphyra.server.client import Client
from porphyra.server.gamedata import derived, has_derived
from porphyra.server.rows import GameRow, SeatRow
from porphyra.server.summary import state_summary

log = logging.getLogger("porphyra.server")

#: Memo keys of view dicts that :meth:`MatchRunner._release_views` drops once a change
#: is sent (besides every ``("view", seat)``).
_RELEASED = frozenset({"public", "bare public", "derived"})

#: The observation's log fields, which :meth:`SeatViews._shown` compares by length.
_LOGS = frozenset({"log", "log_messages"})

#: A seat's decision as the runner tracks it: the engine's option table
#: (``State.legal_choices``, a dict) where it offers one, else the legal action texts
#: (``[]``: no decision).
Decision = dict[str, Any] | list[str]


class SeatViews:
    """The views of a :class:`~porphyra.server.match.MatchRunner` (a base class of it)."""

    id: str
    name: str
    row: GameRow
    game: Game
    state: State
    seats: list[SeatRow]
    seq: int
    clients: set[Client]
    chat: list[dict[str, Any]] | None
    clock: TableClock
    _memo: dict[Any, Any]
    _memo_seq: int
    #: Per seat: the seq its current decision began at, and the decision itself (its
    #: option table where the engine offers one, else its legal action texts: see
    #: :meth:`_decision_now`).
    _decisions: dict[int, tuple[int, Decision]]

    if TYPE_CHECKING:

        @property
        def over(self) -> bool: ...
        def seats_info(self) -> list[dict[str, Any]]: ...
        def seats_open(self) -> bool: ...
        def deal_info(self) -> dict[str, Any]: ...
        def clock_info(self) -> dict[str, Any]: ...
        def hints_allowed(self, seat: int | None) -> bool: ...
        def bot_plays(self, seat: int) -> bool: ...
        def can_undo(self, seat: int) -> bool: ...
        def chat_history(self) -> list[dict[str, Any]]: ...
        def _reader_log(self, seat: int | None) -> tuple[list[str], list[Any]]: ...

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
        """:func:`derived` of the public observation without its log, which derived
        figures never read (``{}`` without building it when the game has no derived
        figures); the spectators' views share it."""
        if not has_derived(self.game):
            return {}
        state = self.state
        bare = self._memoized("bare public", lambda: state.public_observation(log=False))
        return derived(self.game, bare)

    def _summary(self) -> dict[str, Any]:
        """:func:`state_summary` of the finished game (public observations only)."""
        try:
            return state_summary(self.state)
        except Exception:  # a summary is a courtesy: never fail the view for it
            log.exception("game %s: no summary", self.id)
            return {}

    def _legal(self, seat: int) -> list[str]:
        """``seat``'s legal action texts now (``[]`` unless the engine waits for it)."""
        if self.over or seat not in self.state.active_players():
            return []
        return self.state.legal_action_texts(seat)

    def _decision_now(self, seat: int) -> Decision:
        """``seat``'s decision now: the engine's option table where it has one (a
        Byzantium meld or redraw: a few fields instead of up to 512 texts, issue 33),
        else its legal action texts (``[]`` unless the engine waits for it)."""
        if self.over or seat not in self.state.active_players():
            return []
        choices = self.state.legal_choices(seat)
        return choices if choices is not None else self.state.legal_action_texts(seat)

    def _track_decisions(self) -> None:
        """After a change: a seat whose decision changed (its option table, or its legal
        actions) starts a new decision at the current seq (an unchanged one, e.g. the
        other seat of a simultaneous decision after a hidden choice, keeps its start, so
        its submission stays fresh)."""
        for seat in range(len(self.seats)):
            decision = self._decision_now(seat)
            old = self._decisions.get(seat)
            if old is None or old[1] != decision or not decision:
                self._decisions[seat] = (self.seq, decision)

    def _decision_start(self, seat: int) -> int:
        """The seq at which ``seat``'s current decision began (see :meth:`_track_decisions`):
        a move or a hint sent at any seq from there to now is fresh."""
        return self._decisions.get(seat, (self.seq, []))[0]

    def _base_view(self, seat: int | None) -> dict[str, Any]:
        """The fields of ``seat``'s view that depend on the state only (memoized per seq).

        This is the only function that turns state into outgoing data: the observation
        comes from ``state.observation(seat, log=False)`` or
        ``state.public_observation(log=False)`` and its log from ``state.log_messages(seat)``
        (:meth:`_log`), the decision from ``state.legal_choices(seat)`` or
        ``state.legal_action_texts(seat)`` (every seat of ``state.active_players()`` has its
        own).  ``legal`` is None where the decision has an option table (``choices``):
        :meth:`view` sends the table to a client that composes the texts itself, and the
        texts to any other.  The observation's ``"log"`` is left empty here: :meth:`view`
        puts in the lines each client lacks.
        """

        def make() -> dict[str, Any]:
            state = self.state
            if seat is None:
                # One public observation per change, also for the derived figures.
                obs = self._memoized("bare public", lambda: state.public_observation(log=False))
                decision: Decision = []
            else:
                obs = state.observation(seat, log=False)
                tracked = self._decisions.get(seat)
                decision = tracked[1] if tracked is not None else self._decision_now(seat)
                if self.bot_plays(seat) or self.seats_open():
                    decision = []  # a bot decides for this seat now, or the game waits
            return {
                "seq": self.seq,
                "game_id": self.id,
                "game": self.name,
                "seat": seat,
                "status": "over" if self.over else "active",
                "observation": obs,
                "legal": decision if isinstance(decision, list) else None,
                "choices": decision if isinstance(decision, dict) else None,
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
        compact: bool = False,
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
            compact: the client composes a decision's texts from its option table (it
                connected with ``choices=1``): such a decision is sent as ``choices``
                (:mod:`porphyra.core.choices`) without ``legal``; otherwise every
                message has ``legal`` (the texts) and no ``choices``.
        """
        message = dict(self._base_view(seat))
        message["type"] = kind
        choices = message.pop("choices")
        if choices is not None:
            assert seat is not None
            if compact:
                del message["legal"]
                message["choices"] = choices
            else:
                message["legal"] = self.legal_texts(seat)
        obs = message["observation"]
        if isinstance(obs.get("log"), list):  # (a game whose views have a log)
            texts, wired = self._log(seat)
            start = log_from if 0 < log_from <= len(texts) else 0
            obs = dict(obs)
            obs["log"] = texts[start:]
            obs["log_messages"] = wired[start:]
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

    def legal_texts(self, seat: int | None) -> list[str]:
        """The legal action texts of ``seat``'s view now (``[]`` for a spectator, a seat
        the game does not wait for, or one a bot plays): the view's ``legal``, or the
        engine's texts of its option table (made once per change).  What a client that
        composes them from ``choices`` gets when it asks (``{"type": "legal"}``)."""
        if seat is None:
            return []
        base = self._base_view(seat)
        if base["legal"] is not None:
            return list(base["legal"])
        texts: list[str] = self._memoized(
            ("legal", seat), lambda: self.state.legal_action_texts(seat)
        )
        return list(texts)

    def _log(self, seat: int | None) -> tuple[list[str], list[Any]]:
        """``seat``'s whole log as its views show it, lines and wire messages
        (:meth:`_reader_log`, brought up to date once per change): slice, never change."""
        log: tuple[list[str], list[Any]] = self._memoized(
            ("log", seat), lambda: self._reader_log(seat)
        )
        return log

    def _log_length(self, seat: int | None) -> int:
        if not isinstance(self._base_view(seat)["observation"].get("log"), list):
            return 0
        return len(self._log(seat)[0])

    def send_view(self, client: Client, kind: str, last: str | None = None) -> None:
        """Send ``client`` its view (an update carries only the log lines it lacks)."""
        client.send(self._view_text(client, kind, last))
        client.shown = self._shown(client.seat)

    def _shown(self, seat: int | None) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        """What ``seat``'s view shows, apart from the message number: its observation
        without the log as JSON text, the log's length, its legal actions, undo and
        status (made once per change), and the clocks.

        The log is compared by its length: a view's log only grows (an update sends the
        lines past the client's count, so a line changed in place would never reach it
        either), and encoding the whole log of every seat after every change to compare
        it was the largest part of the server's work per decision (issue 33).  The legal
        list is the decision's own (``_decisions``), compared item by item.  Text rather
        than the view's dicts, so that a client keeps no reference to them:
        :meth:`_release_views` drops them once the change is sent, before the garbage
        collector's young generation would have to walk them (issue 13)."""

        def make() -> tuple[Any, ...]:
            base = self._base_view(seat)
            obs = base["observation"]
            rest = {k: v for k, v in obs.items() if k not in _LOGS}
            length = self._log_length(seat) if isinstance(obs.get("log"), list) else -1
            text = protocol.dumps({"shown": rest})
            decision = base["legal"], base["choices"]
            return text, length, decision, base["can_undo"], base["status"]

        shown: tuple[Any, ...] = self._memoized(("shown", seat), make)
        clocks = tuple((c.remaining_s, c.since, c.timeouts, c.takeover) for c in self.clock.seats)
        return shown, clocks

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
        compact = client.compact
        chat = len(self.chat or ())
        key = ("text", seat, kind, last, start, lang, compact, self.row.rematch, chat)
        if kind == "snapshot" and self.clock.next_deadline() is not None:
            self._memo.pop(key, None)  # a clock runs: the snapshot's time is as of now
        text: str = self._memoized(
            key, lambda: protocol.dumps(self.view(seat, kind, last, start, lang, compact))
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
