"""The tutorial pages in Debian's chromium (Playwright) against a live server: each
tutorial plays to its end at a phone's 390x844, wrong moves are refused on the page with
their explanation, the hand and the decision stay on screen together, the final offer
opens a game against ``easy``, and the page passes the axe scan of the other pages."""

from __future__ import annotations

from typing import Any

import pytest

from porphyra.i18n import Translator
from porphyra.learn import LESSONS

from .browser import BROWSER_MARKS, OVERFLOW, axe_violations, collect_errors, wait_until
from .live import LiveServer

pytestmark = BROWSER_MARKS

#: Both in the viewport: the docked hand's cards and the decision's first button.
ON_SCREEN = """() => {
  const h = window.innerHeight, w = window.innerWidth;
  const inside = (n) => { const r = n.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= h + 1 && r.left >= -1 && r.right <= w + 1; };
  const button = document.querySelector('#actions button');
  const hand = document.querySelector('[data-testid=hand]');
  return button !== null && inside(button) && inside(hand);
}"""


#: What "Show me" points at is in the viewport once it settles: the first card it selected
#: (Byzantium) or the lesson's move button (Conspiracy).
SHOWN = """() => {
  const node = document.querySelector('[data-testid=hand] .card[aria-pressed=true]')
    || document.querySelector('#actions button.primary[data-move]');
  if (!node) return false;
  const r = node.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight + 1 && r.left >= -1
    && r.right <= window.innerWidth + 1;
}"""


def _page(browser: Any, size: tuple[int, int], lang: str) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.add_init_script(f"localStorage.setItem('porphyra.lang', '{lang}')")
    page = context.new_page()
    return page, collect_errors(page)


def _at_step(page: Any, index: int) -> None:
    wait_until(
        page,
        f"document.querySelector('#actions button') !== null && "
        f"document.getElementById('progress').dataset.index === '{index}'",
        10_000,
    )


def _feedback(page: Any) -> str:
    wait_until(page, "!document.getElementById('feedback').classList.contains('hidden')", 10_000)
    text: str = page.inner_text("#feedback")
    return text


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_tutorial_plays_to_its_end_on_a_phone(
    live: LiveServer, browser: Any, name: str
) -> None:
    lang = "ja"
    tr = Translator(lang)
    lesson = LESSONS[name]
    page, errors = _page(browser, (390, 844), lang)
    page.goto(live.base + f"/learn/{name}")
    refused_lesson = refused_rules = False
    for index, step in enumerate(lesson.steps):
        _at_step(page, index)
        assert page.inner_text("#lesson").strip() == tr(step.text)
        if step.expect is None:
            page.click("[data-testid=continue]")
            continue
        assert page.evaluate(ON_SCREEN), step.key
        if lesson.game == "byzantium":
            # every card of the hand is drawn with its face, as on the table (issue 29)
            cards = page.query_selector_all("[data-testid=hand] .card")
            assert cards and all(c.query_selector(".cf svg") for c in cards), step.key
            if not refused_lesson and step.key == "redraw":  # nothing selected: redraw -
                page.click("[data-testid=submit]")
                assert _feedback(page) == tr(step.why)
                refused_lesson = True
            if not refused_rules and step.key == "pass":  # every card: the rules refuse it
                for card in page.query_selector_all("[data-testid=hand] .card"):
                    card.click()
                page.click("[data-testid=submit]")
                assert _feedback(page).startswith(tr("The rules refuse that move: {0}", "")[:6])
                refused_rules = True
            page.click("[data-testid=show-me]")
            if page.query_selector("[data-testid=hand] .card[aria-pressed=true]"):
                wait_until(page, f"({SHOWN})()", 5_000)
            page.click("[data-testid=submit]")
        else:  # one button per legal move: only the lesson's reason can refuse one
            other = [
                m
                for m in page.eval_on_selector_all(
                    "#actions [data-move]", "ns => ns.map(n => n.dataset.move)"
                )
                if m != step.expect
            ]
            if not refused_lesson and other:
                page.click(f'#actions [data-move="{other[0]}"]')
                assert _feedback(page) == tr(step.why)
                refused_lesson = refused_rules = True
            page.click("[data-testid=show-me]")
            wait_until(page, f"({SHOWN})()", 5_000)
            page.click(f'#actions button.primary[data-move="{step.expect}"]')
    assert refused_lesson and refused_rules
    wait_until(page, "document.querySelector('[data-testid=play-easy]') !== null", 10_000)
    assert page.inner_text("#progress") == tr("Tutorial complete.")
    assert lesson.play_command in page.inner_text("#actions")
    assert page.evaluate(OVERFLOW) == []
    assert axe_violations(page) == []
    page.click("[data-testid=play-easy]")
    wait_until(page, "location.pathname.startsWith('/game/')", 10_000)
    wait_until(page, "document.querySelector('#actions button') !== null", 15_000)
    game_id = page.evaluate("location.pathname.split('/').pop()")
    info = live.get(f"/api/games/{game_id}").json()
    assert [s.get("bot") for s in info["seats"]][1:] == ["easy"] * (len(info["seats"]) - 1)
    assert errors == []


@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_the_tutorial_page_passes_the_axe_scan(
    live: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    page, errors = _page(browser, size, "en")
    page.goto(live.base + "/learn/byzantium")
    _at_step(page, 0)
    page.click("[data-testid=continue]")
    _at_step(page, 1)
    page.click("[data-testid=show-me]")
    assert page.evaluate(OVERFLOW) == []
    assert axe_violations(page) == []
    assert page.evaluate(ON_SCREEN)
    assert errors == []


def test_the_lobby_links_the_tutorial(live: LiveServer, browser: Any) -> None:
    page, errors = _page(browser, (1366, 768), "ko")
    page.goto(live.base + "/")
    page.click("[data-testid=learn-byzantium]")
    wait_until(page, "location.pathname === '/learn/byzantium'", 10_000)
    _at_step(page, 0)
    assert errors == []
