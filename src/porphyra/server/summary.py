"""A finished web game's course: the end screen's turn-by-turn summary and the replay
viewer's frames.

Both are built by replaying the game (its state's actions, or its record), and both are
for **finished games only**
(the server refuses them before the end; a finished game's record, with its seed, is public
anyway).  The summary reads public observations only; a replay frame shows one seat's
observation at each step, the public one, or everything (``"all"``: every seat's view and
the draw piles' order).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from porphyra import record as records
from porphyra.clocks import event_message, event_text, with_notes
from porphyra.core.game import Game, State
from porphyra.core.messages import Message, to_wire
from porphyra.core.registry import shared_game, web_hooks
from porphyra.server.gamedata import derived

#: The views of :func:`replay_frames`.
PUBLIC_VIEW = "public"
ALL_VIEW = "all"


def _game_of(rec: dict[str, Any]) -> Game:
    return shared_game(rec["game"], rec["options"], rec["version"])


def _states(rec: dict[str, Any]) -> Iterator[tuple[int | None, str | None, State]]:
    """Every state of ``rec`` in order: ``(player, action text, state)`` after each action,
    the first with ``(None, None, initial state)``.  The same state object is advanced."""
    rec = records.validate(rec)
    game = _game_of(rec)
    state = game.new_initial_state(seed=rec["seed"])
    yield None, None, state
    for entry in rec["actions"]:
        player, text = entry["player"], entry["action"]
        state.apply_action(game.parse_action(state, text, player), player)
        yield player, text, state


def state_summary(state: State) -> dict[str, Any]:
    """The end screen's course of a finished game, by the game's own hook
    (:attr:`~porphyra.core.adapters.WebHooks.summary`, from its public observations
    without the log); ``{}`` for a game without one (Conspiracy's end screen is its
    category table).

    The state's own actions (``state.history``, in the order records keep them) are
    replayed on a new state from its seed: no record is written and no action text parsed
    again (the server builds it once a game, on the event loop; the parsing was most of
    its cost, issue 33)."""
    hook = web_hooks(state.game.info.name).summary
    if hook is None:
        return {}
    replay = state.game.new_initial_state(seed=state.seed)

    def observations() -> Iterator[dict[str, Any]]:
        yield replay.public_observation(log=False)
        for player, action in state.history:
            replay.apply_action(action, player)
            yield replay.public_observation(log=False)

    return hook(state.game, observations())


def _hidden(state: State) -> dict[str, Any]:
    """Everything a finished game's ``"all"`` view adds to the public one (the game's
    :attr:`~porphyra.core.adapters.WebHooks.hidden`, e.g. the draw piles in order).  Only
    ever called for finished games."""
    hook = web_hooks(state.game.info.name).hidden
    return {} if hook is None else hook(state)


def parse_view(view: str, players: int) -> int | str:
    """A replay view's name: ``"public"``, ``"all"`` or a seat as a number (people count
    seats from 1 in every message, so ``"1"`` is the first seat).

    Raises:
        ValueError: anything else (the message lists the choices).
    """
    if view in (PUBLIC_VIEW, ALL_VIEW):
        return view
    if len(view) <= 2 and view.isascii() and view.isdigit() and 1 <= int(view) <= players:
        return int(view) - 1
    raise ValueError(f"view must be public, all or a seat from 1 to {players}")


def start_of(shown: int, log: list[Any]) -> int:
    """Where a frame's new log lines start: after the ``shown`` lines of the frames
    before, or at 0 when the log is shorter than that (it was cut)."""
    return shown if shown <= len(log) else 0


def replay_frames(rec: dict[str, Any], view: int | str) -> list[dict[str, Any]]:
    """One frame per state of finished game ``rec``, as seen in ``view`` (a seat index,
    :data:`PUBLIC_VIEW` or :data:`ALL_VIEW`).

    Returns:
        ``[{"index", "player", "observation", "derived", "log_start"}]``: ``index``
        actions applied, ``player`` the seat of the last one (None first); in the
        ``"all"`` view the observation is the public one plus ``seat_views`` (each seat's
        observation without its log) and ``hidden`` (see :func:`_hidden`).  As in the
        websocket's updates, a frame's ``observation.log`` holds only the lines after the
        previous frame's: the full log is the first ``log_start`` lines followed by these;
        ``observation.log_messages`` holds the same lines as messages (an id plus
        arguments each, :func:`porphyra.core.messages.to_wire`) for the page to render.
        The record's clock events (timeouts, takeovers, returns) are log lines too, where
        they happened (before the action they name).
    """
    game = _game_of(rec)
    frames: list[dict[str, Any]] = []
    shown = 0
    events = [e for e in rec.get("clock_events") or [] if isinstance(e, dict)]
    notes: list[tuple[int, str]] = []
    noted: list[tuple[int, Message]] = []
    for index, (player, _text, state) in enumerate(_states(rec)):
        public = state.public_observation()
        if isinstance(view, int):
            obs = state.observation(view)
        else:
            obs = dict(public)
            if view == ALL_VIEW:
                seat_views = []
                for seat in range(game.num_players):
                    mine = dict(state.observation(seat))
                    mine.pop("log", None)
                    seat_views.append(mine)
                obs["seat_views"] = seat_views
                obs["hidden"] = _hidden(state)
        log = obs.get("log")
        start = 0
        if isinstance(log, list):
            now = [e for e in events if e.get("action") == index]
            notes += [(len(log), event_text(e)) for e in now]
            noted += [(len(log), event_message(e)) for e in now]
            log = with_notes(log, notes)
            start = start_of(shown, log)
            seen = None if isinstance(view, str) else view
            messages = with_notes(state.log_messages(seen), noted)[start:]
            obs = {**obs, "log": log[start:], "log_messages": [to_wire(m) for m in messages]}
            shown = len(log)
        frames.append(
            {
                "index": index,
                "player": player,
                "observation": obs,
                "derived": derived(game, public),
                "log_start": start,
            }
        )
    return frames
