"""The solo tutorial: Conspiracy against the Farmer, a Legendary Opponent (rules:
``games/conspiracy/RULES.md`` "Solo", ``shared/rules/conspiracy.md`` section 4): its turn,
its conditions checked left to right, the choice it leaves to you, its face-down Locations.

The deal (seed and moves) was found by ``python -m porphyra.learn.find_seed solo``;
``tests/learn`` replays it and checks every situation the texts describe.
"""

from __future__ import annotations

from porphyra.games.conspiracy.game import INFO
from porphyra.i18n import N_
from porphyra.learn.script import Lesson, Step

STEPS = (
    Step(
        "welcome",
        N_(
            "Solo: you play Conspiracy against a Legendary Opponent (LO), here the Farmer. "
            "Everything is as in the normal game, scoring included, except the LO's turn. "
            "You take the first turn. The Farmer's card lists three conditions, checked left "
            "to right: a pile of 2 or more lords, then a pile holding a lord with a key, then "
            "a pile whose lords would touch a lord of their colour in its chamber. It has no "
            "end-game bonus and no ability."
        ),
    ),
    Step(
        "draw",
        N_("Recruit as in the normal game: draw three lords from the deck."),
        "draw 3",
        N_("That is allowed, but this lesson draws three lords, to choose among more."),
    ),
    Step(
        "keep",
        N_(
            "Keep one lord; the other two go face up onto their colours' discard piles, and "
            "those piles are what the LO may take on its turn. Keep the most influential "
            "lord."
        ),
        "keep red3",
        N_(
            "You may keep that lord, but this lesson keeps the most influential one, so that "
            "the LO cannot take it."
        ),
    ),
    Step(
        "lopile",
        N_(
            "The LO's turn: it checks the piles against its conditions, left to right, and "
            "takes the whole pile that meets the first condition any pile meets. Here "
            "several piles meet it, and you choose which the LO takes: give it the pile "
            "worth the fewest IP."
        ),
        "lopile red",
        N_("You may give it that pile, but this lesson gives the LO the pile worth the fewest IP."),
    ),
    Step(
        "lo",
        N_(
            "The LO placed the pile's lords in its chamber, as a player would. When no pile "
            "meets any condition it reveals the top lord of the deck onto that lord's colour's "
            "pile, again and again until a pile does. When it holds 2 unspent keys of one "
            "metal it takes a random face-up Location (the top of the Location deck if none is "
            "face up), which lies face down: no effect, 5 IP at the end. Its 0-IP lords have "
            "no effect."
        ),
    ),
    Step(
        "draw2",
        N_("Your turn again: draw three lords."),
        "draw 3",
        N_("That is allowed, but this lesson draws three lords, to choose among more."),
    ),
    Step(
        "keep2",
        N_("Keep the most influential lord again, leaving the LO the weaker ones."),
        "keep blue4",
        N_(
            "You may keep that lord, but this lesson keeps the most influential one, so that "
            "the LO cannot take it."
        ),
    ),
    Step(
        "loplace",
        N_(
            "The LO takes a pile of two lords (its first condition: a pile of 2 or more "
            "lords). You also choose "
            "the order in which it places a pile's lords into its next free slots. Place the "
            "lord worth the fewest IP first."
        ),
        "loplace green1",
        N_(
            "Any order is allowed in the game; this lesson places the lord worth the fewest "
            "IP first."
        ),
    ),
    Step(
        "finish",
        N_(
            "One more rule of the solo game: when a placement or a swap in your chamber "
            "makes a new area of 3 or more lords of one colour, you take the Replay token, "
            "and at the end of any of your turns you may spend it for one extra turn. The "
            "game ends as usual when a chamber is full. Now play a whole solo game."
        ),
    ),
)

LESSON = Lesson(
    name="solo",
    game=INFO.name,
    options={"players": 1, "opponent": "farmer"},
    seed=4,
    seat=0,
    bots={},
    title=N_("Learn solo Conspiracy"),
    steps=STEPS,
    play_seats="human",
    play_options={"players": 1},
    play_flags="--solo",
)
