"""The game review: a seat's chance to win before and after each of its decisions.

Given a record and a seat, the game is replayed and, at each decision of that seat that
had a choice (forced moves are skipped), a search is run **on the seat's view only**
(:func:`porphyra.bots.base.seat_view`: the seat's observation, its legal actions and
``resample``, the same information-set sampling that answers hints).  The search is the
hint bots' ISMCTS (:data:`porphyra.bots.ISMCTS_SEARCH`) with a paired root: every sampled
world is played once from each root candidate with the same random numbers, so the
candidates are compared on equal luck.  The root candidates are the game's heuristic
candidates plus the move actually chosen, so the chosen move always has an estimate.

For each decision:

- ``before``: the estimated chance to win with the search's preferred move (the value of
  the position, with good play, as the seat saw it);
- ``after``: the estimated chance to win with the chosen move, on the same worlds;
- ``cost = max(0, before - after)`` and a mark from :data:`THRESHOLDS`.

Both chances pass through the game's calibration map where it has one
(:mod:`porphyra.review.calibration`: none ships today, since the maps tried did not hold on
fresh games, so they are the search's own estimates); the search's own figures are kept
beside them (``raw``).

The three moments that changed the game most are the largest steps of the win-chance curve
(``before``, ``after`` of each decision in turn, then the result): a step within one
decision is the seat's own move; a step between two decisions is what happened in between
(the other seats' moves and the draws).

Budgets are iterations, never seconds, so a review is reproducible for its settings.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from porphyra import record as records
from porphyra.bots import ISMCTS_SEARCH, ISMCTSBot
from porphyra.bots.base import SeatView, seat_view
from porphyra.bots.heuristic import heuristics_for
from porphyra.bots.version import BOTS_VERSION
from porphyra.core.errors import RecordError
from porphyra.core.game import Action, State
from porphyra.review.calibration import calibrate

#: The version of a review's JSON shape and method; a cached review of another version is
#: recomputed.
REVIEW_VERSION = 2

#: Marks by the cost of a move, in points of win chance (0..1), worst first.  Lichess marks
#: a drop of 0.1 / 0.2 / 0.3 in "winning chances" on a -1..1 scale, i.e. 5 / 10 / 15 points
#: of win probability.  We keep 5 and 10 and ask 20 for a blunder: card games hold more
#: luck, so only a fifth of the game thrown away is a blunder.  At the default budget the
#: estimates vary between search seeds by about 1 point (median standard deviation, at
#: most 4 in the games measured in ``docs/review.md``), so the lowest mark is well above the
#: search's own noise (a move that costs about a threshold may still get either mark).
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)

#: Search iterations per reviewed decision (split over the root candidates).
DEFAULT_ITERATIONS = 400

#: ``progress(done, total)``: decisions reviewed so far and in all.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class ReviewSettings:
    """How a review is computed; equal settings on the same record give the same review.

    Attributes:
        iterations: search iterations per decision (≥ 2: the heuristic's move and the
            chosen one get one each at least), shared by the root candidates.
        seed: seeds every search (with the seat's view, as the bots do).

    Raises:
        ValueError: (on construction) ``iterations`` below 2.
    """

    iterations: int = DEFAULT_ITERATIONS
    seed: int = 0

    def __post_init__(self) -> None:
        if self.iterations < 2:
            raise ValueError(f"iterations must be at least 2, not {self.iterations}")

    def as_dict(self) -> dict[str, int]:
        """The settings as JSON (``{"iterations", "seed"}``)."""
        return {"iterations": self.iterations, "seed": self.seed}


def mark_for(cost: float) -> str | None:
    """The mark of a move that cost ``cost`` (0..1 win chance): ``"blunder"``,
    ``"mistake"``, ``"inaccuracy"`` (see :data:`THRESHOLDS`) or ``None``."""
    for name, threshold in THRESHOLDS:
        if cost >= threshold - 1e-9:
            return name
    return None


def record_digest(record: dict[str, Any]) -> str:
    """A SHA-256 of the parts of ``record`` a review depends on (game, version, options,
    seed, actions), as hex: the cache's key for the record."""
    keep = {k: record.get(k) for k in ("game", "version", "options", "seed", "actions")}
    text = json.dumps(keep, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def default_seat(record: dict[str, Any]) -> int:
    """The seat a review is for when none is named: the first human seat of the record's
    ``seats``, else seat 0."""
    for i, seat in enumerate(record.get("seats") or []):
        if isinstance(seat, dict) and seat.get("kind") == "human":
            return i
    return 0


def decision_points(record: dict[str, Any], seat: int) -> Iterator[tuple[int, State, str]]:
    """The decisions of ``seat`` in ``record`` that had a choice.

    Yields:
        ``(index, state, chosen)``: the action's index in ``record["actions"]`` (0-based),
        a copy of the state just before it and the chosen action's text.

    Raises:
        RecordError: the record does not replay, or ``seat`` is not one of its seats.
    """
    state = records.replay(record, upto=0)
    game = state.game
    if not 0 <= seat < game.num_players:
        raise RecordError(f"seat {seat} is not a seat of this {game.num_players}-seat game")
    records.replay(record)  # the whole record must replay (errors name the action)
    for index, entry in enumerate(record["actions"]):
        player = int(entry["player"])
        if player == seat and len(state.legal_actions(seat)) > 1:
            yield index, state.clone(), str(entry["action"])
        state.apply_action(game.parse_action(state, entry["action"], player), player)


def _root_candidates(view: SeatView, chosen: str) -> tuple[Callable[[State], Any], list[int]]:
    """The search's candidates: the game's heuristic ones everywhere, plus the chosen move
    at the root, so that it gets an estimate on every world.

    The root states are the ones the view's sampler hands out (``roots`` keeps the id of
    the latest): the paired search asks for the root candidates on that very object.
    """
    hooks = heuristics_for(view.game.info.name)
    base = None if hooks is None else hooks.candidate_actions
    roots: list[int] = [0]

    def candidates(state: State) -> Sequence[Action]:
        actions = list(state.legal_actions() if base is None else base(state))
        if id(state) == roots[0] and chosen not in {str(a) for a in actions}:
            # Second, after the heuristic's own move (the anchor, which must stay first):
            # every world from the second iteration on plays it.
            actions[1:1] = [a for a in state.legal_actions() if str(a) == chosen][:1]
        return actions

    return candidates, roots


def review_decision(
    state: State, seat: int, chosen: str, settings: ReviewSettings
) -> dict[str, Any]:
    """Estimate one decision of ``seat`` on its own view of ``state`` only.

    Returns:
        ``{"best", "chosen", "before", "after", "cost", "mark", "candidates", "raw"}``:
        the search's preferred move and the chosen one (action texts), the win chances
        (0..1) with each, through the game's calibration map if it has one
        (:func:`porphyra.review.calibration.calibrate`),
        ``cost = max(0, before - after)``, its mark (or None), how many root candidates
        were compared, and the search's own estimates before calibration (``{"before",
        "after"}``).

    Raises:
        ValueError: ``chosen`` is not a legal action of the seat's view.
        RuntimeError: the search did not play the chosen move (a bug: the root candidates
            did not reach the search).
    """
    plain = seat_view(state, seat)
    if chosen not in {str(a) for a in plain.legal_actions}:
        raise ValueError(f"{chosen!r} is not a legal action of seat {seat} here")
    candidates, roots = _root_candidates(plain, chosen)

    def sample(rng: Any) -> State:
        world = plain.sample(rng)
        roots[0] = id(world)
        return world

    view = SeatView(plain.game, seat, plain.observation, plain.legal_actions, sample)
    options = ISMCTS_SEARCH.with_options(
        iterations=settings.iterations, seconds=None, paired=True, candidates=candidates
    )
    result = ISMCTSBot(settings.seed, options, name="review").search(view)
    by_text = {str(s.action): s for s in result.stats}
    best = str(result.action)
    if not by_text[chosen].visits:  # cannot happen with 2+ iterations: a broken search
        raise RuntimeError(f"the search never played the chosen move {chosen!r}")
    raw = round(by_text[best].mean_reward, 4), round(by_text[chosen].mean_reward, 4)
    game = plain.game.info.name
    before, after = calibrate(game, raw[0]), calibrate(game, raw[1])
    cost = round(max(0.0, before - after), 4)
    return {
        "best": best,
        "chosen": chosen,
        "before": before,
        "after": after,
        "cost": cost,
        "mark": mark_for(cost),
        "candidates": sum(1 for s in result.stats if s.visits),
        "raw": {"before": raw[0], "after": raw[1]},
    }


def final_value(state: State, seat: int) -> float:
    """The seat's result of a finished ``state`` on the win-chance scale: 1 a win, 0 a
    loss, between for a draw (``returns()`` mapped from the game's utility range)."""
    info = state.game.info
    lo, hi = float(info.min_utility), float(info.max_utility)
    span = hi - lo if hi > lo else 1.0
    return round((state.returns()[seat] - lo) / span, 4)


def turning_points(
    decisions: list[dict[str, Any]], result: float | None, moves: int, count: int = 3
) -> list[dict[str, Any]]:
    """The ``count`` largest steps of the win-chance curve, largest first.

    Args:
        decisions: reviewed decisions in order (``move``, ``before``, ``after``).
        result: the seat's final value (:func:`final_value`), or None if unfinished.
        moves: the record's number of actions (the last step ends there).
        count: how many to return.

    Returns:
        ``[{"move", "kind", "from", "to", "swing"}]``: ``move`` is the 1-based number of
        the action after which the curve reached ``to`` (the replay's position to show);
        ``kind`` is ``"own"`` (the seat's move) or ``"between"`` (the moves and draws
        since the seat's previous decision, or until the end); ``swing = to - from``.
    """
    steps: list[dict[str, Any]] = []
    for i, d in enumerate(decisions):
        steps.append(_step(d["move"], "own", d["before"], d["after"]))
        nxt = decisions[i + 1] if i + 1 < len(decisions) else None
        if nxt is not None:
            steps.append(_step(nxt["move"] - 1, "between", d["after"], nxt["before"]))
        elif result is not None:
            steps.append(_step(moves, "between", d["after"], result))
    steps.sort(key=lambda s: (-abs(s["swing"]), s["move"]))
    return steps[:count]


def _step(move: int, kind: str, start: float, end: float) -> dict[str, Any]:
    return {"move": move, "kind": kind, "from": start, "to": end, "swing": round(end - start, 4)}


def review_points(
    points: Sequence[tuple[int, State, str]],
    seat: int,
    settings: ReviewSettings,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """Review the decisions ``points`` (as :func:`decision_points` yields them) of
    ``seat``; each state is only used through ``seat_view(state, seat)``.

    Returns:
        ``[{"move", ...review_decision}]`` in order, ``move`` the 1-based action number.
    """
    if progress is not None:
        progress(0, len(points))
    decisions: list[dict[str, Any]] = []
    for done, (index, state, chosen) in enumerate(points, start=1):
        decisions.append({"move": index + 1, **review_decision(state, seat, chosen, settings)})
        if progress is not None:
            progress(done, len(points))
    return decisions


def review_record(
    record: dict[str, Any],
    seat: int,
    settings: ReviewSettings | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Review ``seat``'s decisions in ``record`` (see the module docstring).

    Args:
        record: a record (:func:`porphyra.record.load`).
        seat: the reviewed seat (0-based).
        settings: the budget and seed (default :class:`ReviewSettings`).
        progress: called with ``(done, total)`` before the first and after each decision.

    Returns:
        JSON-ready ``{"version", "game", "seat", "settings", "record", "thresholds",
        "moves", "decisions": [{"move", ...review_decision}], "result", "moments"}``;
        ``move`` is the decision's 1-based action number in the record, ``moves`` the
        record's length, ``result`` the seat's final value (None for an unfinished game).

    Raises:
        RecordError: the record does not replay or ``seat`` is not one of its seats.
    """
    settings = settings or ReviewSettings()
    decisions = review_points(list(decision_points(record, seat)), seat, settings, progress)
    return finish_review(record, seat, settings, decisions)


def finish_review(
    record: dict[str, Any],
    seat: int,
    settings: ReviewSettings,
    decisions: list[dict[str, Any]],
) -> dict[str, Any]:
    """The review of ``seat`` in ``record`` from its reviewed ``decisions`` (in order, as
    :func:`review_points` returns them; computed one by one elsewhere, e.g. by a server in
    a worker): adds the result, the moments and the identification of the review.

    Raises:
        RecordError: the record does not replay.
    """
    end = records.replay(record)
    result = final_value(end, seat) if end.is_terminal() else None
    return {
        "version": REVIEW_VERSION,
        "bots_version": BOTS_VERSION,
        "game": record["game"],
        "seat": seat,
        "settings": settings.as_dict(),
        "record": record_digest(record),
        "thresholds": {name: value for name, value in THRESHOLDS},
        "moves": len(record["actions"]),
        "decisions": decisions,
        "result": result,
        "moments": turning_points(decisions, result, len(record["actions"])),
    }
