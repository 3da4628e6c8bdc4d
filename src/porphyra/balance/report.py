"""The balance lab's files: ``summary.json`` and a self-contained ``report.html``.

The report embeds its plots (matplotlib, rendered to PNG without a display and inlined as
``data:`` URIs), so the one file can be mailed or attached to an issue.  Every table and
plot reads ``summary.json``'s figures: the report shows nothing the summary does not hold.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from porphyra.balance import cards_table, plots
from porphyra.balance.cardthumbs import with_thumbnails
from porphyra.balance.hooks import balance_hooks
from porphyra.balance.plots import label

_STYLE = (
    "body{font-family:sans-serif;max-width:900px;margin:auto;padding:1em}"
    "table{border-collapse:collapse;margin:.5em 0}"
    "td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px}img{max-width:100%}"
)


def _table(rows: Sequence[Sequence[Any]], head: Sequence[str]) -> str:
    th = "".join(f"<th>{html.escape(str(h))}</th>" for h in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def _ci(r: dict[str, Any]) -> str:
    if r.get("rate") is None:
        return "–"
    return f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f}]"


def _rate_cell(r: dict[str, Any]) -> str:
    """``"84.1% [80.2–87.4] of 233"``: a rate with its interval and count."""
    return f"{_ci(r)} of {r['n']}" if r.get("rate") is not None else f"– of {r['n']}"


def _mean_cell(m: dict[str, Any]) -> str:
    if m.get("mean") is None:
        return "–"
    ci = m.get("ci95")
    return f"{m['mean']:.2f}" + (f" [{ci[0]:.2f}–{ci[1]:.2f}]" if ci else "")


def shape_html(pairing: dict[str, Any]) -> str:
    """The game-shape section of one Byzantium pairing (:mod:`porphyra.balance.shape`)."""
    sh = pairing["figures"].get("shape")
    if not sh:
        return ""
    lw, src = sh["leader_wins"], sh["legacy_sources"]
    rows = [
        ["turns played (mean; quartiles)", f"{sh['turns_played']['mean']}; "
         f"{sh['turns_played']['quartiles']}"],
        ["leader after turn 4 wins", _rate_cell(lw["after_turn_4"])],
        ["leader after turn 8 wins", _rate_cell(lw["after_turn_8"])],
        ["leader by 3+ LT after turn 8 wins", _rate_cell(lw["after_turn_8_by_3"])],
        ["lead changes per game", _mean_cell(sh["lead_changes"])],
        ["LT from melded Legacy cards per game (both seats)",
         _mean_cell(src["melded_legacy_cards"])],
        ["|net LT from meld results| per game (per seat, summed)",
         _mean_cell(src["meld_results_net"])],
        ["meld results ÷ Legacy cards", src["ratio"]],
    ]  # fmt: skip
    rows += [
        [f"Emperor wins the meld, {age} Age", _rate_cell(r)]
        for age, r in sh["emperor_meld_wins_by_age"].items()
    ]
    rows += [
        [f"collapses in the {age} Age", _rate_cell(r)] for age, r in sh["collapse_timing"].items()
    ]
    decisions = [
        [k, d["decisions"], d["mean_options"], "–" if d["not_obvious"] is None
         else f"{100 * d['not_obvious']:.1f}%"]
        for k, d in sh["decisions"].items()
    ]  # fmt: skip
    return (
        f"<h3>Game shape — {html.escape(label(pairing))}</h3>"
        + _table(rows, ["figure", "value (95% interval; count)"])
        + "<p>Decisions: the obvious choice is the most forceful meld (or Negotiation "
        "target), else the first legal option (redraw nothing, …).</p>"
        + _table(decisions, ["decision", "decisions", "legal options (mean)", "not obvious"])
    )


def render_html(summary: dict[str, Any]) -> str:
    """The self-contained HTML report of a ``summary.json`` dict.

    Raises:
        RuntimeError: matplotlib is not installed.
    """
    plt = plots.pyplot()
    game = summary["game"]
    images = balance_hooks(game).plots(plt, summary)
    parts = [
        f"<h1>porphyra balance report: {html.escape(game)}</h1>",
        f"<p><code>{html.escape(summary['command'])}</code></p>",
    ]
    if summary.get("cards"):
        c = summary["cards"]
        name, version = html.escape(str(c["name"])), html.escape(str(c["version"]))
        parts.append(f"<p>Card set: <b>{name}</b>, version {version}</p>")
    if summary.get("bots_version") is not None:  # (summaries before it was recorded: none)
        parts.append(f"<p>Bots version {int(summary['bots_version'])}</p>")
    if summary.get("records"):
        rec = summary["records"]
        skipped = "".join(f"<li>{html.escape(line)}</li>" for line in rec["skipped"])
        parts.append(
            f"<p>People's games: {rec['read']} finished records, grouped by who sat in the "
            "seats.</p>" + (f"<details><summary>Left out</summary><ul>{skipped}</ul></details>"
                            if skipped else "")
        )  # fmt: skip
    else:
        parts.append(sampling_html(summary.get("sampling")))
    parts.extend(balance_hooks(game).sections(summary))
    if summary.get("skill"):
        rows = [
            [
                s["bot"],
                s["against"],
                f"{s['wins']}-{s['draws']}-{s['losses']}",
                _ci(s["share"]),
                s["p_value"],
            ]
            for s in summary["skill"]
        ]
        parts.append(
            "<h2>Skill table</h2>"
            + _table(rows, ["bot", "against", "W-D-L", "share", "p (sign test)"])
        )
    for title, uri in images:
        parts.append(f'<h2>{html.escape(title)}</h2><img alt="{html.escape(title)}" src="{uri}">')
    head = (
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<title>porphyra balance: {html.escape(game)}</title><style>{_STYLE}</style>"
    )
    return (
        f'<!doctype html><html lang="en"><head>{head}</head><body>{"".join(parts)}</body></html>\n'
    )


def byzantium_sections(summary: dict[str, Any]) -> list[str]:
    """Byzantium's sections of the report (HTML parts): the first Emperor's share,
    collapses, meld force by Age, the Emperor's Legacy gains, the game's shape and the
    per-card table."""
    pairings = summary["pairings"]
    parts: list[str] = []
    rows = []
    for p in pairings:
        f = p["figures"]
        fe = f["first_emperor"]
        rows.append(
            [
                label(p),
                f["games"],
                f["distinct_games"],
                _ci(fe["share"]),
                fe["p_value"],
                _ci(f["collapse"]),
                _ci(f["collapse_by_turn_3"]),
                f["full_games"],
            ]
        )
    parts.append(
        _table(
            rows,
            [
                "pairing",
                "games",
                "distinct games",
                "first Emperor's share",
                "p (sign test)",
                "collapses",
                "collapses by turn 3",
                "full games",
            ],
        )
    )
    for p in pairings:
        mf = p["figures"]["meld_force"]
        parts.append(f"<h3>Meld force by Age — {html.escape(label(p))}</h3>")
        parts.append(
            _table(
                [
                    [side, *(mf[side][a] for a in ("early", "middle", "late"))]
                    for side in ("byzantine", "foe")
                ],
                ["side", "Early", "Middle", "Late"],
            )
        )
        gain = p["figures"].get("emperor_legacy_gain_by_turn", {})
        if gain:
            parts.append(
                "<h3>Legacy Tokens the Emperor gains, by turn — "
                f"{html.escape(label(p))}</h3><p>Odd turns are the first Emperor's; "
                "a lead built in one Age shows as odd turns gaining more than the even "
                "turns after them.</p>"
            )
            parts.append(
                _table(
                    [["first" if int(t) % 2 else "second" for t in gain], list(gain.values())],
                    [f"turn {t}" for t in gain],
                )
            )
        parts.append(shape_html(p))
    # each card row starts with the card's picture (issue 29)
    table = with_thumbnails(cards_table.to_html(cards_table.rows(summary)))
    parts.append("<h2>Per card</h2>" + table)
    return parts


def conspiracy_sections(summary: dict[str, Any]) -> list[str]:
    """Conspiracy's sections of the report (HTML parts): seat order, solo win rates,
    points by category, and the win-rate differences per Location and lord value."""
    pairings = summary["pairings"]
    parts: list[str] = []
    for p in pairings:
        f = p["figures"]
        if "seat_order" in f:
            rows = [[pos, _ci(a["share"]), a["p_value"]] for pos, a in f["seat_order"].items()]
            note = html.escape(f["seat_order_note"])
            parts.append(
                f"<h3>Seat order — {html.escape(label(p))}</h3><p>{note}</p>"
                + _table(rows, ["position", "share", "p (sign test)"])
            )
        if "solo" in f:
            parts.append(
                f"<h3>Solo — {html.escape(label(p))}</h3>"
                + _table(
                    [[lo, _ci(r)] for lo, r in f["solo"].items()],
                    ["Legendary Opponent", "win rate"],
                )
            )
        parts.append(
            "<h3>Points by category (mean)</h3>"
            + _table(list(f["points_by_category"].items()), ["category", "points"])
        )
        for key, title in (
            ("locations", "Location (owned at the end)"),
            ("lord_values", "lord value (held in the chamber)"),
        ):
            rows = [[k, d["diff"], d["ci95"], d["games"]] for k, d in f[key].items()]
            parts.append(
                f"<details><summary>Win-rate difference per {title}</summary>"
                + _table(rows, [title, "diff", "95%", "games behind"])
                + "</details>"
            )
    return parts


def write(summary: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """Write ``summary.json`` and ``report.html`` into ``out`` (created if missing), and
    for Byzantium the per-card table as ``cards.csv``.

    Returns:
        The two paths.

    Raises:
        OSError: the directory or a file cannot be written.
        RuntimeError: matplotlib is not installed.
    """
    out.mkdir(parents=True, exist_ok=True)
    report = render_html(summary)
    summary_path = out / "summary.json"
    summary_path.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    html_path = out / "report.html"
    html_path.write_text(report, encoding="utf-8")
    if balance_hooks(summary["game"]).decks:
        text = cards_table.to_csv(cards_table.rows(summary))
        (out / "cards.csv").write_text(text, encoding="utf-8")
    return summary_path, html_path


def _points(d: dict[str, Any]) -> str:
    if d.get("diff") is None:
        return "–"
    lo, hi = d["ci95"]
    return f"{100 * d['diff']:+.1f} [{100 * lo:+.1f} to {100 * hi:+.1f}]"


def sampling_html(sampling: dict[str, Any] | None) -> str:
    """A paragraph on how the number of games was chosen (fixed, or ``--until``)."""
    if not sampling or sampling.get("fixed", True):
        return "<p>The number of games was fixed in advance (<code>--games</code>).</p>"
    return (
        f"<p><b>Sequential sampling.</b> {html.escape(sampling['note'])}. "
        f"Looked {sampling['looks']} times (batches of about {sampling['batch']} games); "
        f"{html.escape(sampling['reason'])}"
        + (" (stopped early)." if sampling["stopped_early"] else ".")
        + "</p>"
    )


def compare_html(comparison: dict[str, Any]) -> str:
    """The side-by-side page of a comparison (:func:`porphyra.balance.lab.run_compare`)."""
    sets = comparison["compare"]
    names = [f"{c['name']} ({c['version'] or c['source']})" for c in sets]
    head = [
        "pairing",
        "figure",
        f"A: {names[0]}",
        f"B: {names[1]}",
        "B − A, points (paired 95%)",
        "unpaired ± points",
        "games A only / B only",
        "p (McNemar exact)",
        "twin games",
    ]
    rows = []
    means = []
    for pairing in comparison["pairings"]:
        for f in pairing["figures"].values():
            if "paired_mean" in f:
                m = f["paired_mean"]
                ci = m["ci95"]
                means.append(
                    [label(pairing), f["figure"], f["a"], f["b"],
                     "–" if m["diff"] is None else
                     f"{m['diff']:+.2f} [{ci[0]:+.2f} to {ci[1]:+.2f}]",
                     m["p_value"], m["games"]]
                )  # fmt: skip
                continue
            d = f["paired"]
            rows.append(
                [
                    label(pairing),
                    f["figure"],
                    _ci(f["a"]),
                    _ci(f["b"]),
                    _points(d),
                    f"± {100 * d['unpaired_half_width']:.1f}" if d.get("diff") is not None else "–",
                    "{} / {}".format(*d["discordant"]),
                    d["p_value"],
                    d["games"],
                ]
            )
    links = "".join(
        f'<li><a href="set-{i + 1}/report.html">set {"AB"[i]}: {html.escape(n)}</a></li>'
        for i, n in enumerate(names)
    )
    method = (
        "<p>Both card sets played the same deals (seeds) with the same bots in the same "
        "seats; each game of A is compared with its twin in B. The difference's interval is "
        "the Agresti-Min interval of a paired difference; p is McNemar's exact test on the "
        "games where the figure differs (for the first Emperor's share: won in one set and "
        "lost in the other). <i>Unpaired ±</i> is the half-width two independent samples of "
        "the same size would give.</p>"
    )
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>porphyra balance: comparison</title><style>{_STYLE}</style></head><body>"
        f"<h1>Card sets compared</h1><p><code>{html.escape(comparison['command'])}</code></p>"
        f"{method}{sampling_html(comparison.get('sampling'))}{_table(rows, head)}"
        "<h2>Game shape, means</h2><p>Per game, B − A on the twin games, with the normal "
        "95% interval of a paired mean and the paired t-test.</p>"
        + _table(means, ["pairing", "figure", "A", "B", "B − A (95%)", "p (paired t)", "games"])
        + f"<ul>{links}</ul></body></html>\n"
    )


def write_compare(comparison: dict[str, Any], out: Path) -> Path:
    """Write each card set's full report into ``out/set-1`` and ``out/set-2``, and the
    comparison's ``summary.json`` (without the two sets' summaries) and ``report.html``
    into ``out``.

    Returns:
        The path of the comparison's ``report.html``.

    Raises:
        OSError / RuntimeError: as :func:`write`.
    """
    out.mkdir(parents=True, exist_ok=True)
    for i, summary in enumerate(comparison["summaries"]):
        write(summary, out / f"set-{i + 1}")
    flat = {k: v for k, v in comparison.items() if k != "summaries"}
    text = json.dumps(flat, indent=1, sort_keys=True) + "\n"
    (out / "summary.json").write_text(text, encoding="utf-8")
    path = out / "report.html"
    path.write_text(compare_html(comparison), encoding="utf-8")
    return path
