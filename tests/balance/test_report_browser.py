"""The report's per-card table sorts on a click, in Debian's chromium through Playwright
(skipped when ``/usr/bin/chromium`` is missing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from porphyra.balance import lab, report
from porphyra.balance.campaign import Campaign

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is not installed"),
]


def test_the_card_table_sorts_by_a_clicked_column(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    campaign = Campaign("byzantium", {"deck": "v3"}, (("easy", "random"),), 4, 9_000_000)
    report.write(lab.run_lab(campaign, "test"), tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto((tmp_path / "report.html").as_uri())
            table = page.locator("table.sortable")
            column = ["pairing", *[h.strip() for h in table.locator("th").all_inner_texts()][1:]]
            games = column.index("games behind")
            cells = f"table.sortable tbody tr td:nth-child({games + 1})"

            def values() -> list[int]:
                return [int(v) for v in page.locator(cells).all_inner_texts()]

            table.locator("th").nth(games).click()
            down = values()
            assert down == sorted(down, reverse=True) and down[0] > down[-1]
            table.locator("th").nth(games).click()
            assert values() == sorted(down)
            assert not errors
        finally:
            browser.close()
