/* A rating over time as an inline SVG (issue 32 §3; no library, no CDN: the server works
   offline).  ratingChart(history, label) draws one point per rated game (oldest left):
   the line is mu, the band mu ± 3 sigma (its lower edge is the conservative rating,
   mu - 3 sigma, that the leaderboard sorts by).  history: [{at, mu, sigma}] as
   GET /api/players/{name} sends it; label: the chart's accessible name. */
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

function ratingChart(history, label) {
  const W = 320, H = 140, L = 34, R = 8, T = 8, B = 22;
  const points = [{ mu: 25, sigma: 25 / 3, at: null }, ...history];  // the start: a new rating
  const lows = points.map((p) => p.mu - 3 * p.sigma), highs = points.map((p) => p.mu + 3 * p.sigma);
  let lo = Math.floor(Math.min(...lows) / 5) * 5, hi = Math.ceil(Math.max(...highs) / 5) * 5;
  if (hi - lo < 10) hi = lo + 10;
  const x = (i) => L + (points.length === 1 ? 0 : (i * (W - L - R)) / (points.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const band = points.map((p, i) => `${x(i)},${y(p.mu + 3 * p.sigma)}`)
    .concat(points.map((p, i) => `${x(i)},${y(p.mu - 3 * p.sigma)}`).reverse()).join(" ");
  const line = points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" ");
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label,
    "data-points": history.length,
  });
  svg.append(svgEl("title", {}, label));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(svgEl("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(svgEl("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end" }, String(Math.round(v))));
  }
  svg.append(svgEl("polygon", { points: band, class: "band" }));
  svg.append(svgEl("polyline", { points: line, class: "mu" }));
  points.forEach((p, i) => svg.append(svgEl("circle", { cx: x(i), cy: y(p.mu), r: 2.5, class: "point" },
    svgEl("title", {}, `${p.at ? new Date(p.at).toLocaleDateString(I18N.lang) : t("start")}: μ ${p.mu.toFixed(1)} ± ${(3 * p.sigma).toFixed(1)}`))));
  const first = history.length ? new Date(history[0].at).toLocaleDateString(I18N.lang) : "";
  const last = history.length ? new Date(history[history.length - 1].at).toLocaleDateString(I18N.lang) : "";
  svg.append(svgEl("text", { x: L, y: H - 6 }, first));
  svg.append(svgEl("text", { x: W - R, y: H - 6, "text-anchor": "end" }, last));
  return svg;
}
