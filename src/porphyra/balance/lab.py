"""The balance lab's entry points: run a campaign and summarize it, compare two card sets.

:func:`run_lab` is what ``porphyra balance GAME`` runs; :func:`run_compare` runs the same
campaign on two Byzantium card files (``--compare A B``) and pairs their games
(:mod:`porphyra.balance.paired`).  Both return JSON-ready summaries that
:mod:`porphyra.balance.report` writes as ``summary.json`` and ``report.html``.

``until`` (``--until``) plays in batches of whole deals until the 95% interval of the
headline figure is narrow enough: its **half-width** (the "± 3 points" of a designer's
question) at most ``until`` for every pairing (the first Emperor's share in Byzantium, every
seat position's share or solo win rate in Conspiracy; the paired first-Emperor difference
in a comparison), or until the ``games`` cap is played.  This is sequential sampling: the
sample size was not fixed in advance, and an interval read at a stopping time chosen by
looking at the data covers a little less often than 95%; the summary's ``sampling`` says so,
how many games were played and why it stopped.  Batches are whole deals in campaign order,
so a run that stopped after ``D`` deals holds, for every pairing, exactly the games of its
first ``D`` deals in a fixed campaign (reproducible).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from porphyra.balance import analysis, paired
from porphyra.balance.campaign import Campaign, ProgressCallback, Task, run_tasks
from porphyra.balance.hooks import balance_hooks
from porphyra.bots.version import BOTS_VERSION
from porphyra.core.registry import load_game


def card_set_info(game: str, options: dict[str, Any]) -> dict[str, Any] | None:
    """The card set a campaign plays: ``{"name", "version", "source", "list": {slug:
    {"name", "deck", "type", "ages", "force", "copies", "legacy", "unique"}}}``
    (Byzantium), else ``None``.

    Raises:
        UnknownGameError / CardDataError: invalid options or card file.
    """
    if not balance_hooks(game).decks:
        return None
    cardset: Any = getattr(load_game(game, **options), "cardset")  # noqa: B009
    return {
        "name": cardset.name,
        "version": cardset.version,
        "source": cardset.source,
        "list": {
            c.slug: {
                "name": c.name,
                "deck": c.deck,
                "type": c.type,
                "ages": c.ages,
                "force": c.force,
                "copies": c.copies,
                "legacy": c.legacy,
                "unique": c.unique,
            }
            for c in cardset.cards
        },
    }


#: Reads the results so far (one list per campaign) and gives the headline half-widths.
Precision = Callable[[Sequence[Sequence[dict[str, Any]]]], float]


def _deal_batches(tasks: Sequence[Task], batch: int) -> list[list[Task]]:
    """``tasks`` cut into batches of whole deals (every pairing's games of a deal in the same
    batch), about ``batch`` games each, in deal order."""
    deals = sorted({t.deal for t in tasks})
    per_deal = max(1, len(tasks) // max(1, len(deals)))
    step = max(1, batch // per_deal)
    out = []
    for lo in range(0, len(deals), step):
        chosen = set(deals[lo : lo + step])
        out.append([t for t in tasks if t.deal in chosen])
    return out


def play(
    campaigns: Sequence[Campaign],
    workers: int = 1,
    progress: ProgressCallback | None = None,
    ray_address: str | None = None,
    until: float | None = None,
    batch: int = 200,
    precision: Precision | None = None,
) -> tuple[list[list[dict[str, Any]]], dict[str, Any]]:
    """Play ``campaigns`` (the same deals for each), all at once or until precise enough.

    Args:
        campaigns: one or more campaigns with the same pairings, games and seed.
        workers / progress / ray_address: as :func:`porphyra.balance.campaign.run_tasks`
            (``progress`` gets the games finished over every campaign).
        until: stop once ``precision(results)`` is at most this (a half-width, 0-1).
        batch: games per campaign between two looks at the precision (with ``until``).
        precision: the headline half-width of the results so far (needed with ``until``).

    Returns:
        The results of each campaign (task order) and the ``sampling`` dict: ``{"fixed":
        bool, "until", "batch", "looks", "half_width", "stopped_early", "reason"}``.

    Raises:
        ValueError: ``until`` not in (0, 1), ``batch`` < 1, a bad campaign.
        RuntimeError: a game failed.
    """
    all_tasks = [c.tasks() for c in campaigns]
    if until is None:
        done = 0
        results = []
        for tasks in all_tasks:
            offset = done
            results.append(
                run_tasks(
                    tasks, workers, None if progress is None else _shifted(progress, offset),
                    ray_address,
                )
            )  # fmt: skip
            done += len(tasks)
        return results, {"fixed": True}
    if not 0 < until < 1:
        raise ValueError(f"--until must be a half-width between 0 and 1, not {until}")
    if batch < 1:
        raise ValueError(f"--batch must be at least 1, not {batch}")
    if precision is None:
        raise ValueError("until needs a precision function")
    batches = [_deal_batches(tasks, batch) for tasks in all_tasks]
    results = [[] for _ in campaigns]
    done, width, looks = 0, 1.0, 0
    for k in range(len(batches[0])):
        for i, per_campaign in enumerate(batches):
            chunk = per_campaign[k]
            callback = None if progress is None else _shifted(progress, done)
            results[i].extend(run_tasks(chunk, workers, callback, ray_address))
            done += len(chunk)
        looks += 1
        width = precision(results)
        if width <= until:
            break
    early = width <= until and looks < len(batches[0])
    reason = (
        f"the 95% interval's half-width {width:.4f} reached --until {until} after "
        f"{len(results[0])} games"
        if width <= until
        else f"the --games cap ({len(results[0])} games) was played; the half-width is "
        f"{width:.4f}, above --until {until}"
    )
    return results, {
        "fixed": False,
        "until": until,
        "batch": batch,
        "looks": looks,
        "half_width": round(width, 4),
        "stopped_early": early,
        "reason": reason,
        "note": "sequential sampling: the number of games was not fixed in advance but "
        "chosen by looking at the interval after each batch, so the intervals cover a "
        "little less often than their nominal 95%",
    }


def _shifted(progress: ProgressCallback, offset: int) -> ProgressCallback:
    return lambda n: progress(offset + n)


def half_width(r: dict[str, Any]) -> float:
    """Half the width of a rate's or difference's ``ci95`` (1.0 when there is none)."""
    ci = r.get("ci95")
    return 1.0 if not ci else (ci[1] - ci[0]) / 2


def headline_precision(game: str, campaign: Campaign) -> Precision:
    """The widest headline half-width of a single campaign's results (see the module
    docstring)."""

    def widest(results: Sequence[Sequence[dict[str, Any]]]) -> float:
        worst = 0.0
        for p in range(len(campaign.pairings)):
            mine = [r for r in results[0] if r["pairing"] == p]
            if not mine:
                return 1.0
            shares = balance_hooks(game).shares(analysis.summarize(game, mine))
            worst = max([worst, *(half_width(s) for s in shares)])
        return worst

    return widest


def compare_precision(campaign: Campaign) -> Precision:
    """The widest half-width of the paired first-Emperor difference over the pairings of two
    campaigns' results."""

    def widest(results: Sequence[Sequence[dict[str, Any]]]) -> float:
        worst = 0.0
        for p in range(len(campaign.pairings)):
            a = [r for r in results[0] if r["pairing"] == p]
            b = [r for r in results[1] if r["pairing"] == p]
            d = paired.compare_pairing(a, b)["first_emperor"]["paired"]
            worst = max(worst, half_width(d))
        return worst

    return widest


def summarize(
    campaign: Campaign,
    results: Sequence[dict[str, Any]],
    command: str,
    sampling: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The summary of ``campaign``'s ``results``.

    Returns:
        ``{"command", "bots_version", "game", "options", "cards", "campaign", "sampling",
        "pairings": [{"bots", "figures"}], "skill"}``; figures as
        :func:`porphyra.balance.analysis.summarize`, ``bots_version`` the bots that played
        (:data:`~porphyra.bots.version.BOTS_VERSION`).
    """
    pairings = []
    for p, bots in enumerate(campaign.pairings):
        mine = [r for r in results if r["pairing"] == p]
        pairings.append({"bots": list(bots), "figures": analysis.summarize(campaign.game, mine)})
    return {
        "command": command,
        "bots_version": BOTS_VERSION,
        "game": campaign.game,
        "options": campaign.options,
        "cards": card_set_info(campaign.game, campaign.options),
        "campaign": {
            "pairings": [list(b) for b in campaign.pairings],
            "games_per_pairing": campaign.games,
            "games_played": len(results),
            "seed": campaign.seed,
            "opponents": list(campaign.opponents),
        },
        "sampling": sampling or {"fixed": True},
        "pairings": pairings,
        "skill": analysis.skill_table(results),
    }


def run_lab(
    campaign: Campaign,
    command: str,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    ray_address: str | None = None,
    until: float | None = None,
    batch: int = 200,
) -> dict[str, Any]:
    """Play ``campaign`` (all of it, or until precise: module docstring) and summarize it.

    Raises:
        ValueError: an invalid campaign (no pairing, games < 1, bad bot spec) or ``until``.
        RuntimeError: a game failed, or Ray was asked for and is not installed.
    """
    card_set_info(campaign.game, campaign.options)  # a bad card file fails before playing
    results, sampling = play(
        [campaign], workers, progress, ray_address, until, batch,
        headline_precision(campaign.game, campaign),
    )  # fmt: skip
    return summarize(campaign, results[0], command, sampling)


def run_compare(
    campaigns: Sequence[Campaign],
    command: str,
    workers: int = 1,
    progress: ProgressCallback | None = None,
    ray_address: str | None = None,
    until: float | None = None,
    batch: int = 200,
) -> dict[str, Any]:
    """Play the same campaign on two card sets and compare them game by game.

    Args:
        campaigns: two campaigns differing only in their card set.

    Returns:
        ``{"command", "bots_version", "compare": [card set infos], "sampling", "pairings":
        [{"bots", "figures": paired.compare_pairing}], "summaries": [summary A, summary B]}``.

    Raises:
        ValueError / RuntimeError: as :func:`run_lab`.
    """
    if len(campaigns) != 2:
        raise ValueError("--compare takes two card files")
    infos = [card_set_info(c.game, c.options) for c in campaigns]
    results, sampling = play(
        campaigns, workers, progress, ray_address, until, batch,
        compare_precision(campaigns[0]),
    )  # fmt: skip
    pairings = []
    for p, bots in enumerate(campaigns[0].pairings):
        a = [r for r in results[0] if r["pairing"] == p]
        b = [r for r in results[1] if r["pairing"] == p]
        pairings.append({"bots": list(bots), "figures": paired.compare_pairing(a, b)})
    return {
        "command": command,
        "bots_version": BOTS_VERSION,
        "compare": infos,
        "sampling": sampling,
        "pairings": pairings,
        "summaries": [
            summarize(c, r, command, sampling) for c, r in zip(campaigns, results, strict=True)
        ],
    }
