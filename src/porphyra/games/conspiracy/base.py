"""The fields of a Conspiracy position and the helpers every part of the state machine uses.

:class:`StateBase` holds the data (documented on
:class:`~porphyra.games.conspiracy.state.ConspiracyState`), the log, the future random
generator (C-R12) and pearl gains (section 3.4, C-R10).  The rules code lives in its
subclasses: :mod:`~porphyra.games.conspiracy.legal` (legal actions),
:mod:`~porphyra.games.conspiracy.locations` (keys and Locations, section 3.3) and
:mod:`~porphyra.games.conspiracy.turn` (the turn: recruit, placement, end of game).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, SupportsIndex

from porphyra.core.game import Action, State
from porphyra.core.logcache import FormattedLog, Listed
from porphyra.core.messages import Arg, Joined, Message, Named, Term, numbered
from porphyra.core.seatarg import seat_of
from porphyra.games.conspiracy import solo
from porphyra.games.conspiracy.cards import COLOURS
from porphyra.games.conspiracy.notation import ConspiracyAction
from porphyra.games.conspiracy.tables import RECRUIT

if TYPE_CHECKING:
    from porphyra.games.conspiracy.game import ConspiracyGame


#: A log line: its text, or a ``(template, args)`` pair formatted when read (:func:`log_text`);
#: the template (``{}`` fields) numbered is the line's message id (:func:`log_message`).
LogEntry = str | tuple[str, tuple[Any, ...]]


def _entry_text(entry: LogEntry) -> str:
    """A log entry's line (a text is its own line)."""
    return entry if isinstance(entry, str) else log_text(entry)


def log_text(entry: tuple[str, tuple[Any, ...]]) -> str:
    """The text of a deferred log line: ``template.format(*args)``, a :class:`Listed`
    argument joined by ``", "``."""
    template, args = entry
    return template.format(*(", ".join(a) if isinstance(a, Listed) else a for a in args))


def log_message(entry: LogEntry) -> Message:
    """A log entry as a message (its id in the catalogue's ``log`` context): ``str()`` of
    it is the entry's line (:func:`log_text`)."""
    if isinstance(entry, str):
        return Message(entry)
    template, args = entry
    return Message(
        numbered(template),
        tuple(Joined(", ", tuple(a)) if isinstance(a, Listed) else a for a in args),
    )


def named(ids: Iterable[str]) -> Joined:
    """Lord ids or Location slugs as one log argument: ``red1, red4`` in the English line,
    each named at the edge (:class:`~porphyra.core.messages.Named`)."""
    return Joined(", ", tuple(Named(i) for i in ids))


class StateBase(State):
    """The fields of a Conspiracy position (see ``ConspiracyState`` for their meaning)."""

    game: ConspiracyGame

    def __init__(self, game: ConspiracyGame) -> None:
        self.game = game
        self.cards = game.cards
        self.t, self.acts = game.state_tables()
        self.n = game.seats
        self.solo = game.solo
        #: How the log names each seat: ``seat 0`` (a message, so that the edge renumbers
        #: it) or, solo, ``the LO`` for seat 1 (a term).
        self.who: list[Arg] = [Message("seat {0}", (p,)) for p in range(self.n)]
        if self.solo:
            self.who[1] = Term("the LO")
        self.opponent: solo.Opponent = game.opponents[max(game.opponent, 0)]
        self.lo_candidates: list[int] = []
        self.lo_reason = ""
        self.lo_hidden: list[bool] = []
        self.replay_token = False
        self.force_draw = False
        self._seed = 0
        self.deck: list[int] = []
        self.loc_deck: list[int] = []
        self.piles: list[list[int]] = [[] for _ in COLOURS]
        self.face_up: list[int] = []
        self.chambers: list[list[int]] = [[] for _ in range(self.n)]
        self.locs: list[list[int]] = [[] for _ in range(self.n)]
        self.loc_slots: list[list[int]] = [[] for _ in range(self.n)]
        self.pearls = [0] * self.n
        self.any_keys = [False] * self.n
        self.deck_search = [False] * self.n
        self.pm = -1
        self.current = 0
        self.first = 0
        self.turn = 0
        self.phase = RECRUIT
        self.drawn: list[int] = []
        self.pending: list[int] = []
        self.drawn_locs: list[int] = []
        self.placed = -1
        self.restr_owner = -1
        self.restr_count = 0
        self.restr_loc = -1
        self.end_trigger = -1
        self.rng_base = 0
        self.rng_counter = 0
        self._history: list[tuple[int, Action]] = []
        #: The log as data (:data:`LogEntry`), formatted only when read (:attr:`log`).
        self._events: list[LogEntry] = []
        #: The formatted log so far (see :attr:`log`); None: nothing formatted yet.
        self._log_cache: FormattedLog[str] | None = None
        #: The same for the log as messages (:meth:`log_messages`).
        self._message_cache: FormattedLog[Message] | None = None
        #: The legal actions handed out last, while nothing changed since (see
        #: ``check_legal``); cleared by every change and in copies.
        self._offered: list[ConspiracyAction] | None = None

    @property
    def log(self) -> list[str]:
        """The log lines so far, as a new list, formatted when read (playouts never pay for
        the text).  The log only grows, so the lines already formatted are kept and only
        the entries since are formatted (observations are asked for often)."""
        events = self._events
        cached = self._log_cache = FormattedLog.current(self._log_cache, events)
        return cached.read(events, _entry_text)

    def log_messages(self, player: SupportsIndex | None = None, start: int = 0) -> list[Message]:
        """The log as messages from line ``start`` on, one per line of :attr:`log` (the
        whole log is public: the same for every seat and spectator), ``str(message)`` the
        line (see :meth:`porphyra.core.game.State.log_messages`)."""
        if player is not None:
            self._seat(player)
        events = self._events
        cached = self._message_cache = FormattedLog.current(self._message_cache, events)
        return cached.read(events, log_message, start)

    def _seat(self, player: SupportsIndex) -> int:
        """``player`` as one of this game's seats (solo: 0 you, 1 the Legendary Opponent).

        Raises:
            SeatError: not a seat number, or not a seat of this game.
        """
        return seat_of(player, len(self.chambers))

    def _say(self, template: str, *args: Any) -> None:
        """Log ``template`` (``{}`` fields filled with ``args``, :class:`Listed` joined by
        ``", "``) after the name of the seat whose turn it is."""
        self._events.append(("{} " + template, (self.who[self.current], *args)))

    def draw_rng(self) -> random.Random:
        """A fresh generator for one random event (public alias of :meth:`_rng`)."""
        return self._rng()

    def _rng(self) -> random.Random:
        self.rng_counter += 1
        return random.Random((self.rng_base << 24) + self.rng_counter)

    def _gain(self, p: int, n: int) -> None:
        """Gain ``n`` pearls; the Pearl Master moves on a tie too (section 3.4, C-R10)."""
        self.pearls[p] += n
        who = self.who[p]
        self._events.append(
            (
                "{} gains {} pearls (now {})" if n > 1 else "{} gains {} pearl (now {})",
                (who, n, self.pearls[p]),
            )
        )
        pm = self.pm
        if pm != p and (pm < 0 or self.pearls[p] >= self.pearls[pm]):
            self.pm = p
            self._events.append(("{} takes the Pearl Master token", (who,)))
