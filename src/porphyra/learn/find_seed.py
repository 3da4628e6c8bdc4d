"""Finding the tutorials' deals: seeds on which every lesson's situation happens.

``python -m porphyra.learn.find_seed byzantium [--start N] [--count K]`` tries seeds in
order, plays each deal with the lesson's own policy for the learner (the moves the steps
will ask for) and the lesson's bots for the other seats, and prints the first seeds whose
deal shows every situation the lesson explains, with the moves to put in the script.  The
same checks run in the tests on the shipped seed (:func:`plan`), so the scripts cannot
drift from what their deal does.

Byzantium (the learner is seat 0, the first Emperor, against ``easy``): turn 1 deals the
Emperor two Leaders (a meld holds one: the redraw swaps the weaker), a Legacy card and no
Negotiation card in the meld; the learner's meld beats the Foe's (the Empire gains TT,
the Emperor 1 LT and the legacy value); the card passed is the one card of least force;
turn 2, as the Foe, the learner's meld wins (ties go to the Foe) and no Negotiation
target interrupts it.

Conspiracy (seat 0 against ``easy``, 2 players): the first three lords drawn hold exactly
one with pearls, which wins the Pearl Master with one pearl; on the next turn the largest
pile holds two lords, one of them with a key and none of 0 IP (one placing choice); on the
third, one drawn lord's key pairs the learner's, and exactly one Location lies face up.

Solo (against the Farmer): the learner keeps the one most influential lord each turn; the
Farmer's first turn finds several piles meeting its condition (the learner chooses, the
pile worth the fewest IP), and its second takes a pile whose placing order the learner
chooses (the lord worth the fewest IP first).
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Callable, Iterator
from typing import Any

from porphyra.core.game import Action
from porphyra.learn.byzantium import LESSON as BYZANTIUM
from porphyra.learn.conspiracy import LESSON as CONSPIRACY
from porphyra.learn.script import Lesson, Step, Tutorial
from porphyra.learn.solo import LESSON as SOLO

#: A plan: the learner's move for each action step, by step key.
Plan = dict[str, str]


class NoFit(Exception):
    """The deal does not show a situation the lesson needs (the message says which)."""


def _cards(tutorial: Tutorial, action: Action) -> list[str]:
    text = str(action).split(" ", 1)[1] if " " in str(action) else "-"
    return [] if text == "-" else text.split(",")


def _card(tutorial: Tutorial, slug: str) -> Any:
    """The card data of ``slug`` (Byzantium's ``Game.card``)."""
    return getattr(tutorial.game, "card")(slug)  # noqa: B009 (not on the Game protocol)


def _force(tutorial: Tutorial, slugs: list[str]) -> int:
    return sum(int(_card(tutorial, s).force) for s in slugs)


def _type(tutorial: Tutorial, slug: str) -> str:
    return str(_card(tutorial, slug).type)


def _best(tutorial: Tutorial, verb: str, keep: Callable[[list[str]], bool]) -> str:
    """The legal ``verb`` move of most force among those whose cards pass ``keep`` (the
    first such in the engine's order on a tie)."""
    best: tuple[int, str] | None = None
    for action in tutorial.legal_actions():
        if not str(action).startswith(verb + " "):
            continue
        cards = _cards(tutorial, action)
        if keep(cards) and (best is None or _force(tutorial, cards) > best[0]):
            best = (_force(tutorial, cards), str(action))
    if best is None:
        raise NoFit(f"no {verb} fits")
    return best[1]


def _weakest(tutorial: Tutorial) -> str:
    """``pass X``: the one card of least force (no Legacy card may be left: their worth is
    their legacy value, not their force)."""
    hand = [str(c) for c in tutorial.observation()["hand"]]
    if any(_type(tutorial, s) == "Legacy" for s in hand):
        raise NoFit("a Legacy card is left to pass")
    forces = sorted((_card(tutorial, s).force, s) for s in set(hand))
    if len(forces) > 1 and forces[0][0] == forces[1][0]:
        raise NoFit("no single weakest card")
    return f"pass {forces[0][1]}"


def _byzantium(tutorial: Tutorial, step: Step) -> str:
    obs = tutorial.observation()
    hand = [str(c) for c in obs["hand"]]
    if step.key == "redraw":
        leaders = sorted(
            (_card(tutorial, s).force, s) for s in hand if _type(tutorial, s) == "Leader"
        )
        if len(leaders) != 2 or not any(_type(tutorial, s) == "Legacy" for s in hand):
            raise NoFit("turn 1 needs two Leaders and a Legacy card")
        return f"redraw {leaders[0][1]}"
    if step.key == "meld":
        move = _best(
            tutorial,
            "meld",
            lambda cards: (
                any(_type(tutorial, c) == "Legacy" for c in cards)
                and any(_type(tutorial, c) == "Leader" for c in cards)
                and not any(_type(tutorial, c) == "Negotiation" for c in cards)
            ),
        )
        return move
    if step.key in ("pass", "pass2"):
        return _weakest(tutorial)
    if step.key == "redraw2":
        return "redraw -"
    if step.key == "meld2":
        return _best(tutorial, "meld", lambda cards: True)
    raise NoFit(f"no policy for step {step.key!r}")


def _check_byzantium(tutorial: Tutorial, step: Step, before: dict[str, Any]) -> None:
    """The situations an info step describes, checked on the deal as it stands."""
    obs = tutorial.observation()
    if step.key == "battle":
        if not obs["territory"] > before["territory"]:
            raise NoFit("the learner's Emperor meld does not win")
        if obs["legacy"][0] <= before["legacy"][0] + 1:
            raise NoFit("no legacy value scored")
    if step.key == "battle2":
        if not obs["territory"] < before["territory"]:
            raise NoFit("the learner's Foe meld does not win")
        if obs["legacy"][1] != before["legacy"][1] - 1:
            raise NoFit("the bot Emperor does not lose exactly 1 LT")
    if step.key == "switch" and obs["role"] != "foe":
        raise NoFit("the learner is not the Foe in turn 2")


def _ip(lord: str) -> int:
    """A lord's influence points, from its id (``red4`` → 4)."""
    return int(lord.rstrip()[-1])


#: What a lord's IP gives when placed (Conspiracy rules: keys 1-2, pearls 3-4).
KEY = {1: "silver", 2: "gold"}
PEARLS = {3: 2, 4: 1}


def _moves(tutorial: Tutorial, verb: str) -> list[str]:
    return [str(a).split(" ", 1)[1] for a in tutorial.legal_actions() if str(a).startswith(verb)]


def _one(items: list[str], what: str) -> str:
    if len(set(items)) != 1:
        raise NoFit(f"not one {what}: {items}")
    return items[0]


def _conspiracy(tutorial: Tutorial, step: Step) -> str:
    obs = tutorial.observation()
    me = obs["players"][tutorial.lesson.seat]
    if step.key in ("draw", "draw2"):
        return "draw 3"
    if step.key == "keep":
        lords = _moves(tutorial, "keep")
        return "keep " + _one([lord for lord in lords if _ip(lord) in PEARLS], "lord with pearls")
    if step.key == "take":
        piles = {c: p for c, p in obs["piles"].items() if len(p) >= 2}
        fits = {
            c: p
            for c, p in piles.items()
            if sum(_ip(lord) in KEY for lord in p) == 1 and not any(_ip(x) == 0 for x in p)
        }
        if not fits:
            raise NoFit("no pile with one key")
        most = max(len(p) for p in fits.values())
        if sum(len(p) == most for p in piles.values()) != 1:
            raise NoFit("no single largest pile")
        return "take " + _one([c for c, p in fits.items() if len(p) == most], "largest pile")
    if step.key == "place":
        return "place " + _one([x for x in _moves(tutorial, "place") if _ip(x) in KEY], "key")
    if step.key == "keep2":
        held = [k for k, n in me["unspent_keys"].items() if n == 1]
        lords = [x for x in _moves(tutorial, "keep") if KEY.get(_ip(x)) in held]
        return "keep " + _one(lords, "lord with the matching key")
    if step.key == "location":
        return "loctake " + _one(list(obs["face_up_locations"]), "face-up Location")
    raise NoFit(f"no policy for step {step.key!r}")


def _solo(tutorial: Tutorial, step: Step) -> str:
    obs = tutorial.observation()
    if step.key in ("draw", "draw2"):
        return "draw 3"
    if step.key in ("keep", "keep2"):
        lords = _moves(tutorial, "keep")
        best = max(_ip(lord) for lord in lords)
        if best == 0:
            raise NoFit("no lord worth keeping")
        return "keep " + _one([x for x in lords if _ip(x) == best], "most influential lord")
    if step.key == "lopile":
        piles = {c: sum(_ip(x) for x in obs["piles"][c]) for c in _moves(tutorial, "lopile")}
        if not piles:
            raise NoFit("the LO leaves no choice")
        least = min(piles.values())
        return "lopile " + _one([c for c, ip in piles.items() if ip == least], "weakest pile")
    if step.key == "loplace":
        lords = _moves(tutorial, "loplace")
        if len(lords) != 2:  # the text: a pile of two lords, so taken for STACK
            raise NoFit("the LO's pile is not of two lords")
        least = min(_ip(x) for x in lords)
        return "loplace " + _one([x for x in lords if _ip(x) == least], "weakest lord")
    raise NoFit(f"no policy for step {step.key!r}")


def _check_solo(tutorial: Tutorial, step: Step, before: dict[str, Any]) -> None:
    obs = tutorial.observation()
    lo = obs["players"][1]
    if step.key == "lo" and not any(lo["chamber"]):
        raise NoFit("the LO has taken nothing")
    if step.key == "finish" and sum(1 for slot in lo["chamber"] if slot) < 3:
        raise NoFit("the LO has not placed its second pile")


def _check_conspiracy(tutorial: Tutorial, step: Step, before: dict[str, Any]) -> None:
    obs = tutorial.observation()
    seat = tutorial.lesson.seat
    if step.key == "pearls" and (
        obs["pearl_master"] != seat or obs["players"][seat]["pearls"] != 1
    ):
        raise NoFit("the learner does not hold one pearl and the Pearl Master")
    if step.key == "finish" and not obs["players"][seat]["locations"]:
        raise NoFit("the learner has no Location")


#: The scripted moves of each tutorial, by its name.
POLICIES: dict[str, Callable[[Tutorial, Step], str]] = {
    BYZANTIUM.name: _byzantium,
    CONSPIRACY.name: _conspiracy,
    SOLO.name: _solo,
}
CHECKS: dict[str, Callable[[Tutorial, Step, dict[str, Any]], None]] = {
    BYZANTIUM.name: _check_byzantium,
    CONSPIRACY.name: _check_conspiracy,
    SOLO.name: _check_solo,
}


def plan(lesson: Lesson) -> Plan:
    """Play ``lesson``'s deal with its policy and check every situation it explains.

    Returns:
        The learner's move per action step (key → notation).

    Raises:
        NoFit: the deal misses a situation (the message says which), or the learner is
            asked something the script does not expect (e.g. a Negotiation replacement).
    """
    tutorial = Tutorial(lesson)
    moves: Plan = {}
    before = tutorial.observation()
    while (step := tutorial.step) is not None:
        if step.expect is None:
            CHECKS[lesson.name](tutorial, step, before)
            before = tutorial.observation()
            tutorial.proceed()
            continue
        if not tutorial.legal_actions():
            raise NoFit(f"the learner has no decision at step {step.key!r}")
        move = POLICIES[lesson.name](tutorial, step)
        moves[step.key] = move
        try:
            tutorial.play(move)
        except ValueError as exc:
            raise NoFit(f"step {step.key!r}: {exc}") from None
    return moves


def with_seed(lesson: Lesson, seed: int) -> Lesson:
    """``lesson`` on another deal, its moves left to :func:`plan` (placeholders)."""
    steps = tuple(
        Step(s.key, s.text, None if s.expect is None else "?", s.why) for s in lesson.steps
    )
    return Lesson(**{**lesson.__dict__, "seed": seed, "steps": steps})


def search(lesson: Lesson, start: int, count: int) -> Iterator[tuple[int, Plan]]:
    """The seeds from ``start`` on whose deals fit ``lesson``, with their plans (``count``
    of them at most)."""
    found = 0
    for seed in itertools.count(start):
        if found >= count:
            return
        try:
            moves = plan(with_seed(lesson, seed))
        except NoFit:
            continue
        found += 1
        yield seed, moves


def main() -> None:
    """The command line (see the module docstring)."""
    from porphyra.learn import LESSONS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("lesson", choices=sorted(LESSONS))
    parser.add_argument("--start", type=int, default=1)
    parser.add_argument("--count", type=int, default=3)
    args = parser.parse_args()
    for seed, moves in search(LESSONS[args.lesson], args.start, args.count):
        print(seed, moves)


if __name__ == "__main__":
    main()
