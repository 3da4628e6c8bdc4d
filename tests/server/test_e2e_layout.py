"""A table built for play, and moves that are seen (issue 29, sections 2 and 3), in Debian's
chromium through Playwright against a live server:

- at a phone's 390x844 and a laptop's 1366x768, in Byzantium and in 2- and 4-player
  Conspiracy, at every decision of the first turns: the whole hand and the decision's
  controls are inside the window together, and the page itself never scrolls vertically
  (the table scrolls in its own box above the dock);
- on a touch screen the primary buttons are at least 44 px high;
- moves animate (motion.js), and nothing animates with the system's reduced motion
  (emulated) or the page's own setting, which the browser remembers.

Skips only when ``/usr/bin/chromium`` is missing (``.ci/run`` installs it).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from .browser import BROWSER_MARKS, READY, collect_errors, wait_until
from .live import LiveServer

pytestmark = BROWSER_MARKS

VIEWPORTS = {"phone": (390, 844), "desktop": (1366, 768)}

#: What must be on screen at a decision, each with its box: the hand's cards, the
#: decision's controls (the confirm button of a builder, else every action button), the
#: drawn lords or Locations to keep; and whether the page itself scrolls vertically.
ON_SCREEN = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const boxes = [];
  const add = (what, node) => {
    const r = node.getBoundingClientRect();
    boxes.push({what, left: r.left, top: r.top, right: r.right, bottom: r.bottom});
  };
  document.querySelectorAll('[data-testid=hand] .card').forEach((n) => add('hand card', n));
  const commit = document.querySelector('#actions [data-testid=commit]');
  if (commit) add('confirm', commit);
  else document.querySelectorAll('#actions [data-action]').forEach((n) => add('action', n));
  document.querySelectorAll('.dock .pending .lord, .dock .pending .location')
    .forEach((n) => add('drawn', n));
  const outside = boxes
    .filter((b) => b.top < -1 || b.bottom > h + 1 || b.left < -1 || b.right > w + 1)
    .map((b) => b.what + ' at ' + [b.left, b.top, b.right, b.bottom].map(Math.round).join(','));
  return {count: boxes.length, outside,
          pageScrolls: document.scrollingElement.scrollHeight > h + 1};
}"""

#: The motion animations (motion.js names them motion-...) and all animations, recorded at
#: every render of a new view (body's data-seq changes as the page renders it); `stale`: at a
#: render that gives this page a decision, the motion animations of earlier views still
#: running (an animation started by this very render has no start time yet).
RECORD = """() => {
  window.__renders = [];
  new MutationObserver((records) => {
    // A click re-renders the same view (its seq unchanged): not a new view.
    if (records.every((r) => r.oldValue === document.body.dataset.seq)) return;
    const motion = document.getAnimations().filter((a) => String(a.id).startsWith('motion-'));
    window.__renders.push({
      motion: motion.length,
      all: document.getAnimations().length,
      stale: M.legal.length ? motion.filter((a) => a.startTime !== null
          && a.playState === 'running').length : 0,
    });
  }).observe(document.body, {attributes: true, attributeOldValue: true,
                              attributeFilter: ['data-seq']});
}"""


def seat_link(server: LiveServer, game: str, options: dict[str, Any], n: int, seed: int) -> str:
    """A game of one human (seat 1) against ``n - 1`` easy bots: the human's address."""
    seats = [{"kind": "human", "name": "Theodora"}] + [
        {"kind": "bot", "bot": "easy", "name": f"Bot {i}"} for i in range(1, n)
    ]
    info = server.create({"game": game, "options": options, "seats": seats, "seed": seed})
    return f"{server.base}/game/{info['id']}#token={info['invites'][0]['token']}"


def decide(page: Any, rng: random.Random) -> None:
    """One of the page's legal actions, at random (as the page sends a click's action)."""
    legal = page.evaluate("M.legal")
    assert legal, "the game ended before the test's decisions: choose another seed"
    page.evaluate("(a) => act(a)", legal[rng.randrange(len(legal))])


def play_checking(page: Any, decisions: int, seed: int) -> list[str]:
    """Make ``decisions`` decisions; before each, the verb of the decision and what of it
    is off screen (or that the page scrolls) are checked.  Returns the verbs seen."""
    rng = random.Random(seed)
    verbs: list[str] = []
    for _ in range(decisions):
        wait_until(page, READY, 30_000)
        if page.evaluate("document.body.dataset.status") == "over":
            break
        verb = page.evaluate("M.legal[0].split(' ')[0]")
        state = page.evaluate(ON_SCREEN)
        where = f"{verb} in turn {page.evaluate('M.observation.turn')}"
        assert state["count"] > 0, where
        assert state["outside"] == [], where
        assert not state["pageScrolls"], where
        verbs.append(verb)
        decide(page, rng)
    return verbs


@pytest.mark.parametrize("form", sorted(VIEWPORTS))
def test_byzantium_hand_and_decision_on_screen_together(
    live: LiveServer, browser: Any, form: str
) -> None:
    w, h = VIEWPORTS[form]
    context = browser.new_context(viewport={"width": w, "height": h}, reduced_motion="reduce")
    page = context.new_page()
    errors = collect_errors(page)
    try:
        page.goto(seat_link(live, "byzantium", {}, 2, 7))
        verbs = play_checking(page, 16, seed=1)
        # Redraws, melds (after melds were revealed too: turn 2 onwards) and passes.
        assert {"redraw", "meld", "pass"} <= set(verbs), verbs
        assert page.evaluate("M.observation.turn") >= 3
        # The hand is the test hook's: every card a .card inside [data-testid=hand].
        assert page.locator("[data-testid=hand] .card").count() >= 1
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("form", sorted(VIEWPORTS))
def test_conspiracy_decision_on_screen_with_two_and_four_players(
    live: LiveServer, browser: Any, form: str, players: int
) -> None:
    w, h = VIEWPORTS[form]
    context = browser.new_context(viewport={"width": w, "height": h}, reduced_motion="reduce")
    page = context.new_page()
    errors = collect_errors(page)
    try:
        page.goto(seat_link(live, "conspiracy", {"players": players}, players, 7))
        verbs = play_checking(page, 14, seed=2)
        assert {"draw", "keep", "place"} & set(verbs), verbs
        if form == "phone":
            # The other chambers are compact: two of them side by side in the width.
            widths = page.evaluate(
                "[...document.querySelectorAll('.player:not(.mine)')]"
                ".map((n) => n.getBoundingClientRect().width)"
            )
            assert len(widths) == players - 1
            assert all(width <= w / 2 for width in widths), widths
        assert errors == []
    finally:
        context.close()


def test_primary_buttons_are_44_px_on_a_touch_screen(live: LiveServer, browser: Any) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
    )
    page = context.new_page()
    try:
        page.goto(seat_link(live, "byzantium", {}, 2, 7))
        wait_until(page, READY, 30_000)
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        heights = page.evaluate(
            "[...document.querySelectorAll('#actions button')]"
            ".map((n) => n.getBoundingClientRect().height)"
        )
        assert heights and min(heights) >= 44, heights
    finally:
        context.close()


def _moves_with_record(page: Any, url: str, decisions: int) -> list[dict[str, int]]:
    page.goto(url)
    wait_until(page, READY, 30_000)
    page.evaluate(RECORD)
    rng = random.Random(4)
    for _ in range(decisions):
        wait_until(page, READY, 30_000)
        decide(page, rng)
    wait_until(page, READY, 30_000)
    renders: list[dict[str, int]] = page.evaluate("window.__renders")
    assert len(renders) >= decisions, renders
    return renders


# Deck v3: the deal of seed 5 lasts past the six random decisions (on v4 a collapse ends it).
@pytest.mark.parametrize(
    ("game", "options"), [("byzantium", {"deck": "v3"}), ("conspiracy", {"players": 2})]
)
def test_moves_animate_unless_reduced_motion_is_asked(
    live: LiveServer, browser: Any, game: str, options: dict[str, Any]
) -> None:
    size = {"width": 1366, "height": 768}
    # Without a request for reduced motion, moves animate.
    context = browser.new_context(viewport=size)
    try:
        page = context.new_page()
        renders = _moves_with_record(page, seat_link(live, game, options, 2, 5), 6)
        assert max(r["motion"] for r in renders) > 0, renders
        assert page.evaluate("PorphyraMotion.stats.played") > 0
        # The player's decision never waits: what still moved has finished when it comes.
        assert all(r["stale"] == 0 for r in renders), renders
        # Nothing moves in a hidden tab.
        page.add_init_script("Object.defineProperty(document, 'hidden', {get: () => true})")
        renders = _moves_with_record(page, seat_link(live, game, options, 2, 7), 4)
        assert all(r["motion"] == 0 for r in renders), renders
        assert page.evaluate("PorphyraMotion.stats.skipped") > 0
        # The page's setting turns them off, and the browser remembers it.
        page.check("[data-testid=reduce-motion]")
        renders = _moves_with_record(page, seat_link(live, game, options, 2, 6), 6)
        assert page.is_checked("[data-testid=reduce-motion]")
        assert all(r["all"] == 0 for r in renders), renders
        assert page.evaluate("document.documentElement.classList.contains('reduce-motion')")
    finally:
        context.close()
    # The system's setting (emulated) turns them off as well.
    context = browser.new_context(viewport=size, reduced_motion="reduce")
    try:
        page = context.new_page()
        renders = _moves_with_record(page, seat_link(live, game, options, 2, 5), 6)
        assert all(r["all"] == 0 for r in renders), renders
        assert page.evaluate("PorphyraMotion.stats.played") == 0
        assert page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()
