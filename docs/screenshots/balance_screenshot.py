"""Take the README screenshot of a balance report (``balance-report.png``).

Opens a ``report.html`` written by ``porphyra balance`` in headless Debian ``chromium``
(Playwright) and saves the top of the page next to this file::

    .venv/bin/python docs/screenshots/balance_screenshot.py REPORT_HTML
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]


def main() -> None:
    report = Path(sys.argv[1]).resolve()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 960, "height": 1300})
        page.goto(report.as_uri())
        page.screenshot(path=str(HERE / "balance-report.png"))
        browser.close()


if __name__ == "__main__":
    main()
