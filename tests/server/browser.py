"""The browser tests' tools: Debian's chromium, the tests' marks, and the page helpers
every browser test module uses (waiting without ``eval``, collecting script errors and
Content-Security-Policy refusals, the overflow check, axe-core's scan, games to open).

One home for them, so that a browser test module imports from here and never from another
test module.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from .live import LiveServer

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

#: The marks of every browser test module (``pytestmark = BROWSER_MARKS``): deselect them
#: with ``-m "not browser"``; they skip only when ``/usr/bin/chromium`` is missing
#: (``.ci/run`` installs it).
BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.live,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="/usr/bin/chromium is not installed (apt-get install chromium)",
    ),
]

READY = """() => document.body.dataset.status === 'over'
    || document.querySelector('[data-action]:not([disabled])') !== null"""


def collect_errors(page: Any) -> list[str]:
    """The list that ``page``'s script errors and Content-Security-Policy refusals (issue
    13, item 4) are collected into from now on."""
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    return errors


def open_checked_page(browser: Any) -> tuple[Any, list[str]]:
    """A new desktop-sized page of ``browser`` and its :func:`collect_errors` list."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    return page, collect_errors(page)


#: How many times its ``timeout`` :func:`wait_until` waits: the timeouts are written for an
#: idle machine, and on a loaded one (a CI runner with two cores, busy with the rest of the
#: suite) a page may take longer to load; a passing wait returns as soon as its condition
#: holds, so only a failing one waits longer.
PATIENCE = 2


def wait_until(page: Any, expression: str, timeout: int) -> None:
    """Poll the JavaScript ``expression`` until it is true (``timeout`` in ms, waited
    :data:`PATIENCE` times over before it fails).

    Playwright's ``wait_for_function`` evaluates its predicate with ``eval``, which the
    pages' Content-Security-Policy forbids (no ``unsafe-eval``); ``page.evaluate`` runs
    through the DevTools protocol and is not subject to it."""
    script = expression if expression.lstrip().startswith("()") else f"() => ({expression})"
    deadline = time.monotonic() + PATIENCE * timeout / 1000
    while True:
        try:
            if page.evaluate(script):
                return
        except Exception as exc:  # a page still loading (no body yet) or navigating away
            if "destroyed" not in str(exc) and "of null" not in str(exc):
                raise
        if time.monotonic() > deadline:
            raise TimeoutError(f"still false after {PATIENCE * timeout} ms: {expression}")
        time.sleep(0.03)


#: Controls outside the page's width, or a page wider than the window (JavaScript).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const problems = [];
  if (document.documentElement.scrollWidth > width + 1)
    problems.push('page is ' + document.documentElement.scrollWidth + ' px wide in ' + width);
  for (const node of document.querySelectorAll(
      'button, a, input, select, [role=button], [tabindex]')) {
    const r = node.getBoundingClientRect();
    if (!r.width && !r.height) continue;  // not displayed (e.g. in a closed details)
    if (node.closest('.scroll-x')) continue;  // a wide table scrolls inside its own box
    if (r.left < -1 || r.right > width + 1)
      problems.push((node.textContent || node.outerHTML).trim().slice(0, 40)
        + ' at ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  return problems;
}"""


#: Touch targets under 24x24 px (WCAG 2.2 AA 2.5.8): every visible control; a checkbox or
#: radio button counts with its label (a click on the label sets it), a link inside a line
#: of text is the criterion's inline exception, and a list that takes the focus only to
#: scroll by keyboard (the log, the chat) is no pointer target (JavaScript).
SMALL_TARGETS = """() => {
  const small = [];
  for (const node of document.querySelectorAll(
      'button, a[href], input, select, summary, [role=button], [tabindex]:not(ol):not(ul)')) {
    if (node.closest('#motion-layer')) continue;
    const target = node.closest('label') || node;
    const r = target.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    if (node.tagName === 'A' && getComputedStyle(node).display === 'inline') continue;
    if (r.width < 23.5 || r.height < 23.5)
      small.push((node.textContent || node.outerHTML).trim().slice(0, 30)
        + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return small;
}"""


def _axe_source() -> str:
    import axe_playwright_python  # type: ignore[import-untyped]

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")


def axe_violations(page: Any) -> list[str]:
    """axe-core's WCAG 2.0, 2.1 and 2.2 A and AA violations of the page (2.2 AA adds the
    touch targets' size, 2.5.8), evaluated through DevTools, which the pages'
    Content-Security-Policy does not restrict."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    result: list[str] = page.evaluate(
        """async () => {
          const r = await axe.run(document, {runOnly: {type: 'tag',
              values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']}});
          return r.violations.map(v => v.id + ': ' + v.help + ' — ' + v.nodes.slice(0, 3)
              .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').slice(0, 160))
              .join(' | '));
        }"""
    )
    return result


def new_page(browser: Any, size: tuple[int, int]) -> tuple[Any, list[str]]:
    """A page of ``size`` whose script errors and CSP refusals are collected."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    return page, collect_errors(page)


def game_with(
    server: LiveServer, game: str, options: dict[str, Any], seats: list[Any], seed: int
) -> dict[str, Any]:
    return server.create({"game": game, "options": options, "seats": seats, "seed": seed})


def human_vs_bots(server: LiveServer, game: str, options: dict[str, Any], n: int, seed: int) -> str:
    seats = [{"kind": "human", "name": "Theodora"}] + [
        {"kind": "bot", "bot": "easy", "name": f"Bot {i}"} for i in range(1, n)
    ]
    info = game_with(server, game, options, seats, seed)
    return f"/game/{info['id']}#token={info['invites'][0]['token']}"


def finished_game(server: LiveServer, game: str, options: dict[str, Any], n: int, seed: int) -> str:
    """The id of a game of bots only, played to its end."""
    seats = [{"kind": "bot", "bot": "random", "name": f"Bot {i + 1}"} for i in range(n)]
    info = game_with(server, game, options, seats, seed)
    deadline = time.monotonic() + 60
    while server.get(f"/api/games/{info['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    game_id: str = info["id"]
    return game_id


#: The signed-in account's name in the pages' top bar (JavaScript: the element or null).
ACCOUNT_SHOWN = "document.querySelector('[data-testid=account-name]')"


def fill_account_form(page: Any, name: str, password: str) -> None:
    """Open the top bar's account form (unless it is open) and type ``name`` and
    ``password``; the caller presses sign up or sign in."""
    wait_until(page, "document.querySelector('#account-open') !== null", 15000)
    if not page.is_visible("#account-form"):
        page.click("#account-open")
    page.fill("#account-name", name)
    page.fill("#account-password", password)


def sign_up(page: Any, name: str, password: str = "a long password") -> None:
    """Sign up as ``name`` from the top bar's account form and wait until the top bar
    shows the account."""
    fill_account_form(page, name, password)
    page.click("#account-signup")
    wait_until(page, f"{ACCOUNT_SHOWN} && {ACCOUNT_SHOWN}.textContent === {name!r}", 15000)
