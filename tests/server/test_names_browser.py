"""Names, never ids (issue 29 §4), in a real browser (Debian's ``chromium`` through
Playwright): the visible text of the lobby and of both games' pages, in English, Japanese
and Korean, at a phone's 390x844 and a laptop's 1366x768, while a game is played by
clicking its buttons, shows no id: no lord id (``red1``), no Location slug (``l7``,
``count-green``, ``any-keys``), no bot level left in English on a Japanese or Korean page
(``mediumボット``, ``easy 봇 2``), no lone Age letter (E, M, L), and no Korean particle pair
(``이(가)``, ``을(를)``).

Skips only when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import re
import time
from typing import Any

from porphyra.i18n.names import LOCATION_NAMES, location_name

from .browser import BROWSER_MARKS, CHROMIUM, CHROMIUM_ARGS, collect_errors, wait_until
from .live import LiveServer

pytestmark = BROWSER_MARKS

LOCALES = {"en": "en-US", "ja": "ja-JP", "ko": "ko-KR"}
VIEWPORTS = {"phone": (390, 844), "laptop": (1366, 768)}
BOTS = ("easy", "medium", "hard", "random", "greedy", "ismcts", "heuristic")

#: What is an id wherever a person reads it.
IDS: dict[str, re.Pattern[str]] = {
    "lord id": re.compile(r"\b(?:red|blue|green|yellow|purple)\d\b"),
    "Location slug": re.compile(
        r"(?<![\w-])(?:"
        + "|".join(re.escape(slug) for slug in sorted(LOCATION_NAMES, key=len, reverse=True))
        + r"|l\d+)(?![\w-])"
    ),
    "Age letter": re.compile(r"(?<![A-Za-z0-9])[EML](?![A-Za-z0-9])"),
    "Korean particle pair": re.compile(r"이\(가\)|을\(를\)|은\(는\)|와\(과\)|\(으\)로"),
}
#: A bot's level in English on a Japanese or Korean page.
ENGLISH_BOT = re.compile(r"(?<![A-Za-z])(?:" + "|".join(BOTS) + r")(?![A-Za-z])", re.IGNORECASE)

#: A bot named by its level in lower case ("easy bot 2"), as the page once named it.
LEVEL_BOT = re.compile(r"(?<![A-Za-z])(?<!the )(?:" + "|".join(BOTS) + r") bot\b")
#: A seat's "(you)" followed by another bracket ("Seat 1 (you) (Byzantine)").
YOU_AND = re.compile(r"(?:\(you\)|（あなた）|\(나\))\s*[(（]")

#: The lobby has listed its games.
ROWS_SHOWN = "document.querySelectorAll('#games tbody tr').length > 0"

GAMES: dict[str, dict[str, Any]] = {
    "byzantium": {
        "game": "byzantium",
        "options": {},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "medium"}],
    },
    "conspiracy": {
        "game": "conspiracy",
        "options": {"players": 3, "bonus_locations": True},
        "seats": [
            {"kind": "human"},
            {"kind": "bot", "bot": "easy"},
            {"kind": "bot", "bot": "random"},
        ],
    },
    "solo": {
        "game": "conspiracy",
        "options": {"players": 1, "opponent": "military"},
        "seats": [{"kind": "human"}],
    },
}


#: Each Location's name in each language.
NAMES = {
    lang: [location_name(slug, lang) for slug in LOCATION_NAMES] for lang in ("en", "ja", "ko")
}


def ids_in(text: str, lang: str) -> list[str]:
    """Every id found in ``text`` (a page's visible text in ``lang``), named by kind."""
    found = [f"{kind}: {m.group(0)!r}" for kind, rx in IDS.items() for m in rx.finditer(text)]
    if lang != "en":
        found += [f"English bot level: {m.group(0)!r}" for m in ENGLISH_BOT.finditer(text)]
    else:  # a name, not a level: "Easy bot 2", never "easy bot 2"
        found += [f"bot named by its level: {m.group(0)!r}" for m in LEVEL_BOT.finditer(text)]
    found += [f"brackets after (you): {m.group(0)!r}" for m in YOU_AND.finditer(text)]
    return found


def visible_text(page: Any) -> str:
    """The page's visible text (with the log, the status box and the buttons)."""
    text: str = page.evaluate("document.body.innerText")
    return text


def play_a_while(page: Any, moves: int) -> list[str]:
    """Click this seat's first enabled decision button ``moves`` times (waiting for the bots
    in between); the visible text after each move."""
    seen = [visible_text(page)]
    for _ in range(moves):
        try:
            wait_until(
                page,
                "document.querySelector('#actions [data-action]:not([disabled])') !== null"
                " || document.body.dataset.status === 'over'",
                30_000,
            )
        except Exception:  # a bot still thinking: read what is shown
            break
        if page.evaluate("document.body.dataset.status") == "over":
            break
        seq = page.evaluate("document.body.dataset.seq")
        page.locator("#actions [data-action]:not([disabled])").first.click()
        wait_until(page, f"document.body.dataset.seq !== '{seq}'", 30_000)
        seen.append(visible_text(page))
    return seen


def test_no_id_reaches_a_person_in_any_language(sqlite_url: str) -> None:
    from playwright.sync_api import sync_playwright

    server = LiveServer(sqlite_url).start()
    problems: list[str] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                for size_name, (width, height) in VIEWPORTS.items():
                    for lang, locale in LOCALES.items():
                        games = {
                            name: server.create({**body, "seed": 7}) for name, body in GAMES.items()
                        }
                        context = browser.new_context(
                            locale=locale, viewport={"width": width, "height": height}
                        )
                        page = context.new_page()
                        errors = collect_errors(page)
                        page.goto(server.base + "/")
                        wait_until(page, "document.querySelector('#langswitch') !== null", 30_000)
                        wait_until(
                            page, "document.querySelectorAll('#games tbody tr').length > 0", 30_000
                        )
                        for found in ids_in(visible_text(page), lang):
                            problems.append(f"lobby {lang} {size_name}: {found}")
                        for name, info in games.items():
                            page.goto(server.base + info["invites"][0]["url"])
                            wait_until(page, "document.body.dataset.seq !== undefined", 30_000)
                            if lang == "ko" and name == "byzantium":
                                # A refusal naming a seat: the seat is named first (seat 1
                                # is "Medium bot 2"), then the particle fits the name.
                                toast = page.evaluate(
                                    "nameSeats(I18N.lookup('지금은 좌석 1이(가) 정합니다'))"
                                )
                                assert toast == "지금은 보통 봇 2가 정합니다", toast
                            seen = play_a_while(page, 4 if name == "byzantium" else 8)
                            assert len(seen) > 2, (name, lang, size_name)  # moves were made
                            for text in seen:
                                for found in ids_in(text, lang):
                                    problems.append(f"{name} {lang} {size_name}: {found}")
                            if name != "byzantium":  # the face-up Locations, by name
                                shown = [n for n in NAMES[lang] if n in seen[-1]]
                                assert shown, (lang, size_name)
                        assert errors == [], errors
                        context.close()
            finally:
                browser.close()
    finally:
        server.stop()
    assert sorted(set(problems)) == [], "\n".join(sorted(set(problems)))


def finished(server: LiveServer, body: dict[str, Any]) -> str:
    """The id of a game of bots only (``body``'s game and options), played to its end."""
    seats = [{"kind": "bot", "bot": bot} for bot in ("easy", "random", "random", "random")]
    info = server.create({**body, "seats": seats[: len(body["seats"])], "seed": 5})
    deadline = time.monotonic() + 120
    while server.get(f"/api/games/{info['id']}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    game_id: str = info["id"]
    return game_id


def test_no_id_in_the_end_screen_and_the_replay(sqlite_url: str) -> None:
    """The end screen of a finished game and its replay, step by step, in every language."""
    from playwright.sync_api import sync_playwright

    server = LiveServer(sqlite_url).start()
    problems: list[str] = []
    try:
        ids = {name: finished(server, GAMES[name]) for name in ("byzantium", "conspiracy")}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                for lang, locale in LOCALES.items():
                    context = browser.new_context(
                        locale=locale, viewport={"width": 390, "height": 844}
                    )
                    page = context.new_page()
                    errors = collect_errors(page)
                    for name, game_id in ids.items():
                        page.goto(f"{server.base}/game/{game_id}")
                        page.locator("#final-score").wait_for()
                        for found in ids_in(visible_text(page), lang):
                            problems.append(f"{name} end screen {lang}: {found}")
                        actions = len(server.get(f"/api/games/{game_id}/record").json()["actions"])
                        # (a game of random bots may end early: a collapse, B-R7)
                        for step in [s for s in (1, 5, 12, 30) if s <= actions]:
                            page.goto(f"{server.base}/replay/{game_id}?view=all&step={step}")
                            wait_until(page, f"document.body.dataset.seq === '{step}'", 30_000)
                            for found in ids_in(visible_text(page), lang):
                                problems.append(f"{name} replay {step} {lang}: {found}")
                    assert errors == [], errors
                    context.close()
            finally:
                browser.close()
    finally:
        server.stop()
    assert sorted(set(problems)) == [], "\n".join(sorted(set(problems)))


def test_the_id_patterns_find_what_they_look_for() -> None:
    """The patterns of the browser test find each kind of id, and not the names."""
    assert ids_in("seat 1 keeps red1", "en") == ["lord id: 'red1'"]
    assert ids_in("Location count-green covers slot 2", "en") == ["Location slug: 'count-green'"]
    assert ids_in("takes l7 and any-keys", "en") == [
        "Location slug: 'l7'",
        "Location slug: 'any-keys'",
    ]
    assert ids_in("ages E–M", "en") == ["Age letter: 'E'", "Age letter: 'M'"]
    assert ids_in("mediumボット", "ja") == ["English bot level: 'medium'"]
    assert ids_in("easy 봇 2", "ko") == ["English bot level: 'easy'"]
    assert ids_in("좌석 2이(가) 고르는 중", "ko") == ["Korean particle pair: '이(가)'"]
    named = "Red 1 · Trade Quarter · Locksmith · 12 LT · 3 IP · TT 10 · early–middle"
    assert ids_in(named, "en") == []
    assert ids_in("ふつうボット 2 · 쉬운 봇 2 · 赤1 · 빨강1", "ja") == []
