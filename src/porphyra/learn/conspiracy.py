"""The Conspiracy tutorial: three turns of a real 2-player deal against the ``easy`` bot
(rules: ``games/conspiracy/RULES.md``, ``shared/rules/conspiracy.md``): draw and keep,
pearls and the Pearl Master, a whole pile placed in order, a pair of keys and a Location.

The deal (seed and moves) was found by ``python -m porphyra.learn.find_seed conspiracy``;
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
            "Conspiracy: each player recruits lords into a chamber, an upside-down pyramid "
            "of 15 slots filled in order from slot 1. When someone fills their 15th slot, "
            "every other player plays one more turn and the game ends. Lords come in five "
            "colours and are worth 0 to 6 influence points (IP), and their IP says what they "
            "do: 1 IP a silver key, 2 IP a gold key, 3 IP 2 pearls, 4 IP 1 pearl, 0 IP lets "
            "you swap two keyless lords of your chamber, 6 IP reveals the top lord of the "
            "deck. You are Seat 1, against the easy bot."
        ),
    ),
    Step(
        "draw",
        N_(
            "Recruit: on your turn either draw 1 to 3 lords from the deck and keep one, or "
            "take the whole discard pile of one colour. The piles are empty now, so draw "
            "three lords."
        ),
        "draw 3",
        N_("That is allowed, but this lesson draws three lords, to choose among more."),
    ),
    Step(
        "keep",
        N_(
            "Keep one of them: it goes into your next free slot, and the others go face up "
            "onto the discard piles of their colours, where any player may take them later. "
            "Keep the lord with pearls (3 IP: 2 pearls, 4 IP: 1 pearl)."
        ),
        "keep purple4",
        N_(
            "You may keep that lord, but this lesson keeps the lord with pearls, to win "
            "the Pearl Master token."
        ),
    ),
    Step(
        "pearls",
        N_(
            "You gained a pearl, and the first player to gain a pearl takes the Pearl Master "
            "token, worth 5 IP at the end. Whoever gains pearls and then has at least as "
            "many as its holder takes it over. The easy bot has played its turn meanwhile."
        ),
    ),
    Step(
        "take",
        N_(
            "Taking a pile brings every lord of that colour's discard pile at once: a good "
            "deal when it holds several. Take the largest pile that holds a lord with a key."
        ),
        "take yellow",
        N_("That is allowed, but this lesson takes the largest pile, the one with a key in it."),
    ),
    Step(
        "place",
        N_(
            "The lords of a pile go into your next free slots one by one, in the order you "
            "choose, and each one acts as it is placed. Place the lord with the key first."
        ),
        "place yellow1",
        N_("That order is allowed, but this lesson places the lord with the key first."),
    ),
    Step(
        "draw2",
        N_(
            "Keys: as soon as your unspent keys include 2 silver or 2 gold keys, you must take "
            "a Location. You hold one key now. Draw three lords again."
        ),
        "draw 3",
        N_("That is allowed, but this lesson draws three lords, to choose among more."),
    ),
    Step(
        "keep2",
        N_(
            "Keep the lord whose key is of the same kind as the one you hold: the pair of "
            "keys obliges you to take a Location."
        ),
        "keep red1",
        N_(
            "You may keep that lord, but this lesson keeps the lord whose key makes a pair "
            "with yours."
        ),
    ),
    Step(
        "location",
        N_(
            "A pair of keys: take a Location now, either a face-up one or by drawing 1 to 3 "
            "from the Location deck and keeping one. The Location covers the lord you just "
            "placed, and every key at or before it is spent. Take the face-up Location: you "
            "can read what it gives before choosing."
        ),
        "loctake max-yellow",
        N_(
            "Drawing Locations is allowed, but this lesson takes the face-up Location, whose "
            "effect you can read before choosing."
        ),
    ),
    Step(
        "finish",
        N_(
            "At the end each player scores, for each colour, the IP of their best lord of "
            "that colour; their Locations' IP and bonuses; 3 IP per lord of their largest "
            "coalition (lords of one colour touching in the pyramid, diagonals included); "
            "and 5 IP for the Pearl Master. A tie goes to the most pearls. Now play a whole "
            "game against the easy bot."
        ),
    ),
)

LESSON = Lesson(
    name=INFO.name,
    game=INFO.name,
    options={"players": 2, "first_player": 0},
    seed=143,
    seat=0,
    bots={1: "easy"},
    title=N_("Learn Conspiracy"),
    steps=STEPS,
    play_options={"players": 2},
)
