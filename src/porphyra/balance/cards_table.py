"""The per-card table in a designer's terms: ``report.html``'s sortable table and
``cards.csv``.

One row per card and pairing: the card's name, side (Byzantine or Foe), type, Ages, force,
copies and legacy value (from the card set played, ``summary["cards"]["list"]``), how often
it entered a hand, was redrawn, melded and passed per game, the share of its draws that went
to the first Emperor, and the within-game win-rate difference when melded in points (×100)
with its 95% interval, the games behind it and the sign test's p
(:func:`porphyra.balance.stats.within_game_difference`: a card seen in few games has a wide
interval).  The table sorts by any column on a click (a small inline script).
"""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Sequence
from typing import Any

#: The columns of the table and of ``cards.csv``.
COLUMNS: tuple[str, ...] = (
    "pairing",
    "card",
    "side",
    "type",
    "ages",
    "force",
    "copies",
    "legacy",
    "entered hand / game",
    "drawn by the first Emperor",
    "redrawn / game",
    "melded / game",
    "passed / game",
    "win-rate diff when melded (points)",
    "95% low",
    "95% high",
    "games behind",
    "p (sign test)",
)

_SORT_SCRIPT = """
document.querySelectorAll('table.sortable th').forEach(function (th, col) {
  th.style.cursor = 'pointer';
  th.title = 'sort';
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var down = th.dataset.dir !== 'down';
    th.dataset.dir = down ? 'down' : 'up';
    rows.sort(function (a, b) {
      var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (isNaN(nx) || isNaN(ny)) ? String(x).localeCompare(String(y)) : nx - ny;
      return down ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""


def _pts(x: float | None) -> float | None:
    return None if x is None else round(100 * x, 1)


def rows(summary: dict[str, Any]) -> list[list[Any]]:
    """The table's rows (:data:`COLUMNS`) of a Byzantium summary, every pairing; missing
    values are ``None``."""
    listing = (summary.get("cards") or {}).get("list", {})
    out = []
    for p in summary["pairings"]:
        pairing = " vs ".join(p["bots"])
        for slug, c in p["figures"]["cards"].items():
            info = listing.get(slug, {})
            d = c["win_rate_difference"]
            ci = d.get("ci95") or [None, None]
            out.append(
                [
                    pairing,
                    info.get("name", slug),
                    {"byzantine": "Byzantine", "foe": "Foe"}.get(info.get("deck", ""), ""),
                    info.get("type"),
                    info.get("ages"),
                    info.get("force"),
                    info.get("copies"),
                    info.get("legacy") or None,
                    c["entered_hand"],
                    c.get("first_emperor_share"),
                    c["redrawn"],
                    c["melded"],
                    c["passed"],
                    _pts(d.get("diff")),
                    _pts(ci[0]),
                    _pts(ci[1]),
                    d.get("games", 0),
                    d.get("p_value"),
                ]
            )
    return out


def to_csv(table: Sequence[Sequence[Any]]) -> str:
    """``cards.csv``'s text: a header row (:data:`COLUMNS`), then ``table``; ``None`` is an
    empty field."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in table:
        writer.writerow(["" if v is None else v for v in row])
    return buffer.getvalue()


def to_html(table: Sequence[Sequence[Any]]) -> str:
    """The sortable HTML table (with its script) of ``table``; the difference column reads
    ``+4.2 [-1.0, +9.3]``."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in COLUMNS)
    body = []
    for row in table:
        cells = []
        for i, v in enumerate(row):
            shown = "–" if v is None else f"{v:+.1f}" if i in (13, 14, 15) else str(v)
            key = "" if v is None else str(v)
            cells.append(f'<td data-v="{html.escape(key)}">{html.escape(shown)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (
        "<p>Click a column to sort. The difference is measured within games (one value per "
        "game where one seat melded the card and the other did not), in points of win rate; "
        "a card behind few games has a wide interval. Also in <code>cards.csv</code>.</p>"
        '<div style="overflow-x:auto">'
        f'<table class="sortable"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}'
        f"</tbody></table></div><script>{_SORT_SCRIPT}</script>"
    )
