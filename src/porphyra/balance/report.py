"""The balance lab's files: ``summary.json`` and a self-contained ``report.html``.

The report embeds its plots (matplotlib, rendered to PNG without a display and inlined as
``data:`` URIs), so the one file can be mailed or attached to an issue.  Every table and
plot reads ``summary.json``'s figures: the report shows nothing the summary does not hold.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from porphyra.balance.cardthumbs import with_thumbnails


def _png(fig: Any) -> str:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise RuntimeError("the report needs matplotlib: pip install 'porphyra[balance]'") from None
    return plt


def _label(pairing: dict[str, Any]) -> str:
    return " vs ".join(pairing["bots"])


def _advantage_plot(
    plt: Any, labels: Sequence[str], figures: Sequence[dict[str, Any]], fair: float, title: str
) -> str:
    fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.45 * len(labels)))
    for i, f in enumerate(figures):
        share = f["share"]
        lo, hi = share["ci95"]
        ax.errorbar(
            share["rate"], i, xerr=[[share["rate"] - lo], [hi - share["rate"]]], fmt="o", capsize=4
        )
    ax.axvline(fair, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("share of results (win 1, draw ½), Wilson 95% interval")
    ax.set_title(title)
    return _png(fig)


def _byzantium_plots(plt: Any, pairings: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    labels = [_label(p) for p in pairings]
    out.append(
        (
            "First Emperor's share",
            _advantage_plot(
                plt,
                labels,
                [p["figures"]["first_emperor"] for p in pairings],
                0.5,
                "First Emperor's share of results",
            ),
        )
    )
    fig, ax = plt.subplots(figsize=(6.5, 3))
    width = 0.8 / max(1, len(pairings))
    for i, p in enumerate(pairings):
        games = p["figures"]["games"]
        by_turn = p["figures"]["collapses_by_turn"]
        ax.bar(
            [t + i * width for t in range(1, 13)],
            [100 * by_turn[str(t)] / games for t in range(1, 13)],
            width=width,
            label=_label(p),
        )
    ax.set_xlabel("turn of the collapse")
    ax.set_ylabel("% of games")
    ax.set_title("Empire collapses by turn (the rest are full games)")
    ax.legend(fontsize=8)
    out.append(("Collapses by turn", _png(fig)))
    for p in pairings:
        curves = p["figures"]["curves"]
        fig, ax = plt.subplots(figsize=(6.5, 3))
        for key, name in (
            ("territory", "TT"),
            ("legacy_first_emperor", "LT first Emperor"),
            ("legacy_second_emperor", "LT second Emperor"),
        ):
            turns = [int(t) for t, q in curves[key].items() if q]
            qs = [curves[key][str(t)] for t in turns]
            ax.plot(turns, [q[1] for q in qs], label=f"{name} (median)")
            ax.fill_between(turns, [q[0] for q in qs], [q[2] for q in qs], alpha=0.2)
        ax.set_xlabel("start of turn (13 = end of a full game)")
        ax.set_title(f"Territory and Legacy Tokens, quartiles — {_label(p)}")
        ax.legend(fontsize=8)
        out.append((f"Curves — {_label(p)}", _png(fig)))
        cards = p["figures"]["cards"]
        rows = sorted(
            (
                (slug, c["win_rate_difference"])
                for slug, c in cards.items()
                if c["win_rate_difference"]["diff"] is not None
            ),
            key=lambda x: x[1]["diff"],
        )
        if rows:
            fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.17 * len(rows)))
            for i, (_slug, d) in enumerate(rows):
                ax.errorbar(
                    d["diff"],
                    i,
                    xerr=[[d["diff"] - d["ci95"][0]], [d["ci95"][1] - d["diff"]]],
                    fmt="o",
                    markersize=3,
                    capsize=2,
                )
            ax.axvline(0, color="grey", linewidth=1)
            for edge in (-0.08, 0.08):
                ax.axvline(edge, color="red", linestyle=":", linewidth=1)
            ax.set_yticks(range(len(rows)), [s for s, _ in rows], fontsize=6)
            ax.set_xlabel("shrunk win-rate difference when melded (95% interval); red: ±8 points")
            ax.set_title(f"Cards — {_label(p)}")
            out.append((f"Cards — {_label(p)}", _png(fig)))
    return out


def _conspiracy_plots(plt: Any, pairings: Sequence[dict[str, Any]]) -> list[tuple[str, str]]:
    out = []
    for p in pairings:
        f = p["figures"]
        if "seat_order" in f:
            labels = [f"position {k}" for k in f["seat_order"]]
            fair = 1 / len(labels)
            out.append(
                (
                    f"Seat order — {_label(p)}",
                    _advantage_plot(
                        plt,
                        labels,
                        list(f["seat_order"].values()),
                        fair,
                        f"Seat order — {_label(p)}",
                    ),
                )
            )
        if "solo" in f:
            labels = list(f["solo"])
            fig, ax = plt.subplots(figsize=(6.5, 0.5 + 0.45 * len(labels)))
            for i, lo in enumerate(labels):
                r = f["solo"][lo]
                ax.errorbar(
                    r["rate"],
                    i,
                    xerr=[[r["rate"] - r["ci95"][0]], [r["ci95"][1] - r["rate"]]],
                    fmt="o",
                    capsize=4,
                )
            ax.set_yticks(range(len(labels)), labels)
            ax.set_xlabel("win rate against the Legendary Opponent (Wilson 95%)")
            out.append((f"Solo — {_label(p)}", _png(fig)))
        fig, ax = plt.subplots(figsize=(6.5, 3))
        turns = list(f["end_turn"])
        ax.bar([int(t) for t in turns], [f["end_turn"][t] for t in turns])
        ax.set_xlabel("turn the game ended")
        ax.set_ylabel("games")
        ax.set_title(f"End of the game — {_label(p)}")
        out.append((f"End turn — {_label(p)}", _png(fig)))
    return out


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


def render_html(summary: dict[str, Any]) -> str:
    """The self-contained HTML report of a ``summary.json`` dict.

    Raises:
        RuntimeError: matplotlib is not installed.
    """
    plt = _pyplot()
    game = summary["game"]
    pairings = summary["pairings"]
    plots = (
        _byzantium_plots(plt, pairings) if game == "byzantium" else _conspiracy_plots(plt, pairings)
    )
    parts = [
        f"<h1>porphyra balance report: {html.escape(game)}</h1>",
        f"<p><code>{html.escape(summary['command'])}</code></p>",
    ]
    if summary.get("cards"):
        c = summary["cards"]
        name, version = html.escape(str(c["name"])), html.escape(str(c["version"]))
        parts.append(f"<p>Card set: <b>{name}</b>, version {version}</p>")
    if game == "byzantium":
        rows = []
        for p in pairings:
            f = p["figures"]
            fe = f["first_emperor"]
            rows.append(
                [
                    _label(p),
                    f["games"],
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
            parts.append(f"<h3>Meld force by Age — {html.escape(_label(p))}</h3>")
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
                    f"{html.escape(_label(p))}</h3><p>Odd turns are the first Emperor's; "
                    "a lead built in one Age shows as odd turns gaining more than the even "
                    "turns after them.</p>"
                )
                parts.append(
                    _table(
                        [["first" if int(t) % 2 else "second" for t in gain], list(gain.values())],
                        [f"turn {t}" for t in gain],
                    )
                )
            cards = p["figures"]["cards"]
            rows = [
                [
                    slug,
                    c["entered_hand"],
                    c.get("first_emperor_share"),
                    c["redrawn"],
                    c["melded"],
                    c["passed"],
                    c["win_rate_difference"]["diff"],
                    c["win_rate_difference"]["ci95"],
                ]
                for slug, c in cards.items()
            ]
            parts.append(
                f"<details><summary>Per card — {html.escape(_label(p))} (per game)</summary>"
                + _table(
                    rows,
                    [
                        "card",
                        "entered hand",
                        "drawn by the first Emperor",
                        "redrawn",
                        "melded",
                        "passed",
                        "win-rate diff (shrunk)",
                        "95%",
                    ],
                )
                + "</details>"
            )
            parts[-1] = with_thumbnails(parts[-1])  # each card's picture (issue 29)
    else:
        for p in pairings:
            f = p["figures"]
            if "seat_order" in f:
                rows = [[pos, _ci(a["share"]), a["p_value"]] for pos, a in f["seat_order"].items()]
                note = html.escape(f["seat_order_note"])
                parts.append(
                    f"<h3>Seat order — {html.escape(_label(p))}</h3><p>{note}</p>"
                    + _table(rows, ["position", "share", "p (sign test)"])
                )
            if "solo" in f:
                parts.append(
                    f"<h3>Solo — {html.escape(_label(p))}</h3>"
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
                rows = [[k, d["diff"], d["ci95"]] for k, d in f[key].items()]
                parts.append(
                    f"<details><summary>Win-rate difference per {title}</summary>"
                    + _table(rows, [title, "diff (shrunk)", "95%"])
                    + "</details>"
                )
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
    for title, uri in plots:
        parts.append(f'<h2>{html.escape(title)}</h2><img alt="{html.escape(title)}" src="{uri}">')
    head = (
        '<meta charset="utf-8"><meta name="viewport" content="width=device-width">'
        f"<title>porphyra balance: {html.escape(game)}</title><style>{_STYLE}</style>"
    )
    return (
        f'<!doctype html><html lang="en"><head>{head}</head><body>{"".join(parts)}</body></html>\n'
    )


def write(summary: dict[str, Any], out: Path) -> tuple[Path, Path]:
    """Write ``summary.json`` and ``report.html`` into ``out`` (created if missing).

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
    return summary_path, html_path


def write_compare(comparison: dict[str, Any], out: Path) -> Path:
    """Write each card set's full report into ``out/set-1``, ``out/set-2``… and the
    side-by-side ``compare.json`` and ``report.html`` into ``out``.

    Returns:
        The path of the side-by-side ``report.html``.

    Raises:
        OSError / RuntimeError: as :func:`write`.
    """
    out.mkdir(parents=True, exist_ok=True)
    for i, summary in enumerate(comparison["summaries"]):
        write(summary, out / f"set-{i + 1}")
    sets = comparison["compare"]
    head = ["pairing", "figure"] + [
        f"set {i + 1}: {c['name']} ({c['version'] or c['source']})" for i, c in enumerate(sets)
    ]
    rows = [
        [" vs ".join(r["pairing"]), r["figure"], *(_ci(v) for v in r["values"])]
        for r in comparison["rows"]
    ]
    links = "".join(
        f'<li><a href="set-{i + 1}/report.html">set {i + 1}: {html.escape(str(c["name"]))}</a></li>'
        for i, c in enumerate(sets)
    )
    page = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        "<title>porphyra balance: comparison</title></head><body>"
        f"<h1>Card sets compared</h1><p><code>{html.escape(comparison['command'])}</code></p>"
        f"{_table(rows, head)}<ul>{links}</ul></body></html>\n"
    )
    flat = {k: v for k, v in comparison.items() if k != "summaries"}
    (out / "compare.json").write_text(json.dumps(flat, indent=1, sort_keys=True) + "\n")
    path = out / "report.html"
    path.write_text(page, encoding="utf-8")
    return path
