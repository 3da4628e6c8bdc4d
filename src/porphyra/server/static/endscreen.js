/* The end screen's extras: Byzantium's turn-by-turn course (Territory and Legacy over the
   game, each meld's force), and after any game the record download, the replay viewer, a
   shareable replay link and the rematch.  Every user-visible string of this module is in
   END_STRINGS. */
"use strict";

const END_STRINGS = I18N.table({
  course: N_("The game turn by turn"),
  chart: N_("Territory and Legacy Tokens after each turn"),
  chartLabel: N_("Chart of Territory and Legacy Tokens over {0} turns"),
  turn: N_("Turn"),
  emperor: N_("Emperor"),
  byzMeld: N_("Emperor's meld"),
  foeMeld: N_("Foe's meld"),
  tt: N_("TT"),
  lt: N_("LT {0}"),
  territory: N_("Territory"),
  noMeld: "—",
  negotiated: "{0} → {1}",
  negotiatedTitle: N_("force as revealed → after the negotiation"),
  start: N_("start"),
  download: N_("Download the record"),
  replay: N_("Watch the replay"),
  share: N_("Copy the replay link"),
  copied: N_("Replay link copied"),
  rematch: N_("Rematch"),
  rematchLabel: N_("Start a rematch: the same seats and links, a new deal"),
  rematchOpen: N_("Open the rematch"),
  rematchStarted: N_("The rematch has started."),
});

const SVG_NS = "http://www.w3.org/2000/svg";
const COURSE_COLOURS = ["#56b4e9", "#e69f00", "#cc79a7", "#009e73"];

function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  return node;
}

/* A line chart of TT and each seat's LT over the turns. */
function courseChart(summary, seatName) {
  const turns = summary.turns || [];
  const points = [{ turn: 0, territory: summary.start.territory, legacy: summary.start.legacy }, ...turns];
  const maxY = Math.max(20, ...points.flatMap((p) => [p.territory, ...p.legacy]));
  const W = 320, H = 130, L = 26, B = 18;
  const x = (i) => L + (i * (W - L - 6)) / Math.max(1, points.length - 1);
  const y = (v) => 6 + (H - B - 6) * (1 - Math.max(0, v) / maxY);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "course-chart", role: "img", "aria-label": END_STRINGS.chartLabel(turns.length) });
  for (const v of [0, 10, 20]) {
    chart.append(svg("line", { x1: L, x2: W - 6, y1: y(v), y2: y(v), stroke: "#4a3d52", "stroke-width": 1 }));
    const t = svg("text", { x: 2, y: y(v) + 4, fill: "#d9cce0", "font-size": 10 });
    t.textContent = String(v);
    chart.append(t);
  }
  const series = [{ label: END_STRINGS.territory, colour: "#f0e442", values: points.map((p) => p.territory) }];
  (summary.start.legacy || []).forEach((_, s) => series.push({ label: END_STRINGS.lt(seatName(s)), colour: COURSE_COLOURS[s % 4], values: points.map((p) => p.legacy[s]) }));
  for (const line of series) {
    chart.append(svg("polyline", { fill: "none", stroke: line.colour, "stroke-width": 2.5, points: line.values.map((v, i) => `${x(i)},${y(v)}`).join(" ") }));
  }
  const legend = el("div", { class: "legend" }, ...series.map((s) => el("span", {}, el("span", { class: "swatch", style: `background:${s.colour}` }), s.label)));
  return el("figure", { class: "course" }, el("figcaption", {}, END_STRINGS.chart), chart, legend);
}

function meldCell(meld) {
  if (!meld) return el("td", { class: "num" }, END_STRINGS.noMeld);
  if (meld.revealed_force !== meld.force) {
    return el("td", { class: "num", title: END_STRINGS.negotiatedTitle }, END_STRINGS.negotiated(meld.revealed_force, meld.force));
  }
  return el("td", { class: "num" }, String(meld.force));
}

/* Byzantium's end screen course: the chart and the table of turns. */
function byzantiumCourse(summary, seatName) {
  if (!summary || !summary.turns || !summary.turns.length) return null;
  const S = END_STRINGS;
  const players = summary.start.legacy.length;
  const head = el("tr", {}, el("th", {}, S.turn), el("th", {}, S.emperor), el("th", { class: "num" }, S.byzMeld), el("th", { class: "num" }, S.foeMeld),
    el("th", { class: "num" }, S.tt), ...Array.from({ length: players }, (_, s) => el("th", { class: "num" }, S.lt(seatName(s)))));
  const rows = summary.turns.map((t) => el("tr", {},
    el("td", {}, String(t.turn)), el("td", {}, seatName(t.emperor)),
    meldCell(t.melds.byzantine), meldCell(t.melds.foe),
    el("td", { class: "num" }, String(t.territory)), ...t.legacy.map((v) => el("td", { class: "num" }, String(v)))));
  return el("div", { class: "section", "data-testid": "course" }, el("h3", {}, S.course), courseChart(summary, seatName),
    el("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": S.course }, el("table", { class: "scoretable course-table" }, el("thead", {}, head), el("tbody", {}, ...rows))));
}

function replayUrl(gameId, seat) {
  return `/replay/${encodeURIComponent(gameId)}?view=${seat === null || seat === undefined ? "public" : String(seat + 1)}`;
}

/* The end screen's buttons: download, replay, share, rematch (seats only). */
function endActions(gameId, seat, token, rematchId) {
  const S = END_STRINGS;
  const share = location.origin + replayUrl(gameId, seat);
  const row = el("div", { class: "row end-actions" },
    el("a", { class: "button", href: `/api/games/${encodeURIComponent(gameId)}/record?download=1`, download: `${gameId}.porphyra.json`, "data-testid": "download" }, S.download),
    el("a", { class: "button", href: replayUrl(gameId, seat), "data-testid": "replay" }, S.replay),
    el("button", { "data-testid": "share", onclick: () => { if (navigator.clipboard) navigator.clipboard.writeText(share).then(() => toast(S.copied, "info")); } }, S.share));
  if (rematchId) {
    const href = `/game/${encodeURIComponent(rematchId)}` + (token ? `#token=${encodeURIComponent(token)}` : "");
    row.append(el("a", { class: "button primary", href, "data-testid": "rematch-open" }, S.rematchOpen));
  } else if (token) {
    row.append(el("button", { class: "primary", "aria-label": S.rematchLabel, "data-testid": "rematch",
      onclick: async (ev) => {
        ev.target.disabled = true;
        try {
          const info = await api(`/api/games/${encodeURIComponent(gameId)}/rematch`, {
            method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }),
          });
          goToRematch(info.id, token);
        } catch (e) { toast(e.message); ev.target.disabled = false; }
      } }, S.rematch));
  }
  return row;
}

/* Open the rematch `id` with this page's own link (a seat's token opens its seat). */
function goToRematch(id, token) {
  location.href = `/game/${encodeURIComponent(id)}` + (token ? `#token=${encodeURIComponent(token)}` : "");
}
