"""The cards' art in the browser (issue 29), in Debian's chromium through Playwright: at
390x844 and 1366x768, in both games, every card on the table and in the hand shows its
picture (an SVG whose symbol is in the page), the zoom opens on hover (desktop), a long
press (touch) and keyboard focus with the card's name in the page's language, a long press
does not pick the card, and the axe scan stays clean with the zoom open; the replay viewer
draws the same art.

Skips only when ``/usr/bin/chromium`` is missing (``.ci/run`` installs it).
"""

from __future__ import annotations

from typing import Any

import pytest

from .browser import (
    BROWSER_MARKS,
    READY,
    axe_violations,
    collect_errors,
    finished_game,
    human_vs_bots,
    new_page,
    wait_until,
)
from .live import LiveServer

pytestmark = BROWSER_MARKS

#: Every card face, lord, Location, back and portrait on the page that lacks its picture
#: (no <svg><use>, a symbol the page does not hold, or a picture drawn with no size).
MISSING_ART = """() => {
  const bad = [];
  const cards = document.querySelectorAll(
    '#board .card, #board .lord:not(.empty), #board .location, #board .lo-portrait, '
    + '#board .deckbox');
  for (const node of cards) {
    const use = node.querySelector('svg use');
    const id = use ? use.getAttribute('href').slice(1) : null;
    if (!use) { bad.push('no art: ' + node.outerHTML.slice(0, 90)); continue; }
    if (!document.getElementById(id)) { bad.push('no symbol ' + id); continue; }
    const shown = node.getBoundingClientRect().width > 0;
    if (shown && use.closest('svg').getBoundingClientRect().width < 8)
      bad.push('art too small: ' + node.outerHTML.slice(0, 90));
  }
  return bad;
}"""

COUNT = "(sel) => document.querySelectorAll(sel).length"
ZOOM_OPEN = (
    "(() => { const z = document.getElementById('card-zoom');"
    " return !!z && !z.classList.contains('hidden'); })()"
)


def _catalogue(live: LiveServer, lang: str) -> dict[str, str]:
    """The game terms and interface texts of ``lang`` as the server gives them (English:
    none, the source texts are shown)."""
    if lang == "en":
        return {}
    body = live.get(f"/api/i18n/{lang}").json()
    return {**body["messages"], **body["terms"]}


def _play_until(page: Any, done: str, limit: int = 200) -> None:
    """Take decisions (keep the hand, meld as many cards as the limits allow, else the
    first button) until the JavaScript condition ``done`` on the observation ``o`` holds."""
    for _ in range(limit):
        wait_until(page, READY, 30_000)
        if page.evaluate(f"(() => {{ const o = M.observation; return {done}; }})()"):
            return
        commit = page.locator("[data-testid=commit]")
        if commit.count() and "meld" in (commit.get_attribute("data-action") or "meld"):
            cards = page.locator(".card.selectable")
            for i in range(cards.count()):
                cards.nth(i).click()
                if not commit.is_enabled():
                    cards.nth(i).click()
            commit.click()
        elif commit.count():
            commit.click()
        else:
            page.locator("#actions [data-action]:not([disabled])").first.click()
        page.wait_for_timeout(60)
    raise AssertionError(f"not reached: {done}")


def _zoom_text(page: Any) -> str:
    wait_until(page, ZOOM_OPEN, 5_000)
    text: str = page.locator("#card-zoom").inner_text()
    return text


def _long_press(page: Any, locator: Any) -> None:
    """A real touch (DevTools' touch events): pressed for 0.8 s at the card's centre."""
    locator.scroll_into_view_if_needed()
    page.wait_for_timeout(100)
    box = locator.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    page.wait_for_timeout(800)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


CASES = [
    ("byzantium", "phone", "ja"),
    ("byzantium", "desktop", "en"),
    ("conspiracy", "phone", "ko"),
    ("conspiracy", "desktop", "ja"),
]
SIZES = {"phone": (390, 844), "desktop": (1366, 768)}


@pytest.mark.parametrize(("game", "form", "lang"), CASES)
def test_every_card_shows_its_art_and_zooms_in_the_pages_language(
    live: LiveServer, browser: Any, game: str, form: str, lang: str
) -> None:
    width, height = SIZES[form]
    touch = form == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    context.add_init_script(f"localStorage.setItem('porphyra.lang', '{lang}')")
    page = context.new_page()
    errors = collect_errors(page)
    terms = _catalogue(live, lang)
    try:
        options: dict[str, Any] = {"players": 2} if game == "conspiracy" else {"first_emperor": 0}
        page.goto(live.base + human_vs_bots(live, game, options, 2, 11))
        wait_until(page, READY, 30_000)
        assert page.evaluate("document.documentElement.lang") == lang
        if game == "byzantium":
            # Mid-game: turn 2's redraw or meld, the turn-1 melds on the table.
            _play_until(page, "o.turn >= 2 && ['redraw', 'meld'].includes(o.phase) && o.melds_turn")
            assert page.evaluate(COUNT, "[data-testid=hand] .card svg use") >= 7
            assert page.evaluate(COUNT, "[data-testid=melds] .card svg use") >= 1
            assert page.evaluate(COUNT, ".card.back svg use") >= 1
            card = page.locator("[data-testid=hand] .card").first
            slug = card.get_attribute("data-slug")
            english = page.evaluate("(s) => CARDS.cards[s].name", slug)
            expected = terms.get(english, english)
            focused, focus_text = card, expected
        else:
            _play_until(page, "o.turn >= 6 && o.players.every((p) => p.chamber.some(Boolean))")
            assert page.evaluate(COUNT, "#board .pyramid .lord[data-lord] svg use") >= 2
            assert page.evaluate(COUNT, "#board .location svg use") >= 1
            card = page.locator("#board .pyramid .lord[data-lord]").first
            lord = card.get_attribute("data-lord")
            colour = page.evaluate("(l) => CARDS.lords[l].colour", lord)
            expected = terms.get(colour, colour)
            english = colour
            # Lords are many (up to 60 on the table): the Locations take the focus.
            focused = page.locator("#board .location[data-location]").first
            slug = focused.get_attribute("data-location")
            text = page.evaluate("(s) => CARDS.locations[s].text", slug) or "no effect"
            focus_text = terms.get(text, text)
        if lang != "en":
            assert expected and expected != english
        assert page.evaluate(MISSING_ART) == []

        # Keyboard focus zooms at once (not a click's); Escape closes. (The pointer that
        # clicked through the game leaves the cards first: a hover zooms too.)
        page.mouse.move(1, 1)
        focused.focus()
        page.wait_for_timeout(400)
        assert not page.evaluate(ZOOM_OPEN)
        page.keyboard.press("Shift+Tab")
        focused.focus()
        assert focus_text in _zoom_text(page)
        assert axe_violations(page) == [], f"{game} {form} {lang} (zoom open)"
        page.keyboard.press("Escape")
        wait_until(page, f"!{ZOOM_OPEN}", 5_000)
        page.evaluate("document.activeElement && document.activeElement.blur()")

        if touch:
            # A long press zooms and does not pick the card (nor take any action).
            seq = page.evaluate("document.body.dataset.seq")
            pressed = card.get_attribute("aria-pressed")
            _long_press(page, card)
            assert expected in _zoom_text(page)
            page.wait_for_timeout(200)
            assert card.get_attribute("aria-pressed") == pressed
            assert page.evaluate("document.body.dataset.seq") == seq
        else:
            card.hover()
            assert expected in _zoom_text(page)
            page.mouse.move(2, 2)
            wait_until(page, f"!{ZOOM_OPEN}", 5_000)
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_the_replay_viewer_draws_the_same_art(live: LiveServer, browser: Any, game: str) -> None:

    gid = finished_game(live, game, {}, 2, 5)
    page, errors = new_page(browser, SIZES["desktop"])
    try:
        page.goto(f"{live.base}/replay/{gid}?view=all&step=12")
        wait_until(page, "document.body.dataset.seq === '12'", 30_000)
        faces = "[data-testid=melds] .card" if game == "byzantium" else "#board .pyramid .lord"
        assert page.evaluate(COUNT, faces + " svg use") >= 4
        assert page.evaluate(MISSING_ART) == []
        page.locator(faces + "[data-zoom]").first.hover()
        assert _zoom_text(page)
        assert errors == []
    finally:
        page.context.close()
