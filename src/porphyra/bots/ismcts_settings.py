"""The settings of an ISMCTS search: one typed, validated, frozen value.

:class:`ISMCTSSettings` holds every option of :class:`~porphyra.bots.ismcts.ISMCTSBot`
(budgets, exploration, the per-game hooks to use, the root tests).  Bot specs
(``ismcts:iterations=2000,exploration=0.5``) are parsed into it by
:meth:`ISMCTSSettings.with_text_options`, and the presets ``ismcts``, ``medium`` and
``hard`` are values of it (:data:`porphyra.bots.ISMCTS_PRESETS`).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from porphyra.bots.search_types import (
    CandidatesSpec,
    CutSpec,
    EvaluationSpec,
    RefinerSpec,
    RolloutSpec,
    SimultaneousSpec,
)

#: Iterations a move when neither ``iterations`` nor ``seconds`` is set.
DEFAULT_ITERATIONS = 1000
#: The UCB exploration constant for rewards in [0, 1].
DEFAULT_EXPLORATION = 0.7

#: Spellings of booleans in bot specs.
_BOOLEANS = {"true": True, "yes": True, "on": True, "1": True}
_BOOLEANS.update({"false": False, "no": False, "off": False, "0": False})


@dataclass(frozen=True)
class ISMCTSSettings:
    """Every option of an ISMCTS search (see :class:`~porphyra.bots.ismcts.ISMCTSBot` for
    what each does).

    Attributes:
        iterations: iteration budget per move (reproducible moves); ``None``: no limit.
        seconds: time budget per move, in seconds (moves not reproducible); ``None``: no
            limit.  With neither, :data:`DEFAULT_ITERATIONS` (:attr:`iteration_budget`).
        exploration: UCB exploration constant (≥ 0).
        rollout: ``"random"``, ``"heuristic"`` or a policy ``(state, rng) -> Action``.
        depth: actions a rollout plays before the evaluation scores it (≥ 0); ``None``
            plays to the end.  Needs ``evaluation``.
        evaluation: ``"heuristic"``, a callable ``(state, player) -> [0, 1]`` or ``None``.
        candidates: ``"all"``, ``"heuristic"``, a name of the game's other candidate
            generators (checked when a search starts: ``GameHeuristics.candidate_variants``)
            or a callable ``state -> actions``.
        refine: ``None``, ``"heuristic"`` or a callable ``(state, player, rng) -> None``.
        anchor_z: standard errors another root action must win by to replace the
            heuristic's own choice (≥ 0; 0 turns the anchor off).
        simultaneous: ``None``, ``"heuristic"`` or a callable ``(state, observer) -> bool``.
        early_stop: end the search once the move can no longer change.
        cut: ``None``, ``"heuristic"`` or a callable ``state -> bool``.
        paired: play each sampled world from every root candidate (common random numbers).

    Raises:
        ValueError: (on construction) a budget that is not positive, a negative
            exploration or ``anchor_z``, a bad depth, a depth without an evaluation, or an
            unknown name for a hook.
    """

    iterations: int | None = None
    seconds: float | None = None
    exploration: float = DEFAULT_EXPLORATION
    rollout: RolloutSpec = "random"
    depth: int | None = None
    evaluation: EvaluationSpec = None
    candidates: CandidatesSpec = "all"
    refine: RefinerSpec = None
    anchor_z: float = 0.0
    simultaneous: SimultaneousSpec = None
    early_stop: bool = True
    cut: CutSpec = None
    paired: bool = False

    def __post_init__(self) -> None:
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError(f"seconds must be positive, not {self.seconds}")
        if self.exploration < 0:
            raise ValueError(f"exploration must not be negative, not {self.exploration}")
        depth = self.depth
        if depth is not None and (type(depth) is not int or depth < 0):
            raise ValueError(f"depth must be a non-negative number of actions, not {depth!r}")
        if depth is not None and self.evaluation is None:
            raise ValueError("a rollout depth needs an evaluation function")
        if self.anchor_z < 0:
            raise ValueError(f"anchor_z must not be negative, not {self.anchor_z}")
        _check_name("rollout", self.rollout, ("random", "heuristic"))
        _check_name("evaluation", self.evaluation, ("heuristic",))
        if not isinstance(self.candidates, str):
            _check_name("candidates", self.candidates, ("all", "heuristic"))
        elif not self.candidates.isidentifier():
            raise ValueError(f"candidates must be a name or a function, not {self.candidates!r}")
        _check_name("refine", self.refine, ("heuristic",))
        _check_name("simultaneous", self.simultaneous, ("heuristic",))
        _check_name("cut", self.cut, ("heuristic",))

    @property
    def iteration_budget(self) -> int | None:
        """The iteration limit of a search: ``iterations``, or :data:`DEFAULT_ITERATIONS`
        when no budget is set at all; ``None`` for a time budget alone."""
        if self.iterations is None and self.seconds is None:
            return DEFAULT_ITERATIONS
        return self.iterations

    def with_options(self, **options: Any) -> ISMCTSSettings:
        """A copy with ``options`` changed (``None`` is a value: "no limit", "off").

        Raises:
            ValueError: an unknown option name, or a value the settings refuse.
        """
        unknown = sorted(set(options) - set(option_types()))
        if unknown:
            raise ValueError(
                f"unknown ISMCTS option(s) {', '.join(unknown)}; "
                f"options: {', '.join(option_types())}"
            )
        if options.get("candidates", "all") is None:
            options["candidates"] = "all"  # "none" in a spec: no pruning
        return dataclasses.replace(self, **options)

    def with_text_options(self, options: Mapping[str, str]) -> ISMCTSSettings:
        """A copy with options given as text (from a bot spec ``key=value,...``);
        ``none`` gives ``None``.

        Raises:
            ValueError: an unknown option, a value of the wrong type or one the settings
                refuse; the message names the option and the expected type.
        """
        return self.with_options(**{k: parse_option(k, v) for k, v in options.items()})


def _check_name(option: str, value: object, names: tuple[str, ...]) -> None:
    if isinstance(value, str) and value not in names:
        raise ValueError(f"unknown {option} {value!r}; use {' or '.join(map(repr, names))}")
    if value is not None and not isinstance(value, str) and not callable(value):
        raise ValueError(f"{option} must be one of {', '.join(names)} or a function")


def option_types() -> dict[str, type]:
    """The text type of each setting in a bot spec (``bool``, ``int``, ``float`` or
    ``str``), read from the dataclass's field types."""
    hints = typing.get_type_hints(ISMCTSSettings)
    out: dict[str, type] = {}
    for f in dataclasses.fields(ISMCTSSettings):
        args = typing.get_args(hints[f.name]) or (hints[f.name],)
        out[f.name] = next((t for t in (bool, int, float) if t in args), str)
    return out


def parse_option(key: str, text: str) -> Any:
    """The value of setting ``key`` written as ``text`` in a bot spec: ``none`` is ``None``;
    booleans are true/false, yes/no, on/off or 1/0.

    Raises:
        ValueError: an unknown key, or text that is not of the setting's type.
    """
    kind = option_types().get(key)
    if kind is None:
        raise ValueError(f"unknown ISMCTS option {key!r}; options: {', '.join(option_types())}")
    if text.strip().lower() == "none":
        return None
    try:
        if kind is bool:
            return _BOOLEANS[text.strip().lower()]
        return kind(text.strip())
    except (KeyError, ValueError):
        raise ValueError(f"bad value {text!r} for {key}: expected {kind.__name__}") from None
