/* The game review panel (end screen and replay page): a seat's estimated chance to win
   before and after each of its decisions, from its own view only, computed on the server
   in the background (POST/GET /api/games/{id}/review, see docs/review.md) while this panel
   shows the progress; then the curve (inline SVG), the marks and the three moments that
   changed the game most, each a link into the replay at that move.  The panel keeps its
   state in REVIEW, so the end screen may redraw it at any time.  Every user-visible string
   of this module is in REVIEW_STRINGS. */
"use strict";

const REVIEW_STRINGS = I18N.table({
  title: N_("Game review"),
  seat: N_("Seat to review"),
  start: N_("Review the decisions"),
  about: N_("Each decision's chance to win before and after, estimated from that seat's own view only."),
  progress: N_("Reviewing… {0} of {1} decisions"),
  waiting: N_("Reviewing…"),
  failed: N_("The review failed; try again later."),
  curve: N_("Win chance"),
  curveLabel: N_("Win chance of {0} before and after each decision, {1} decisions"),
  counts: N_("Inaccuracies: {0} · mistakes: {1} · blunders: {2}"),
  moments: N_("The three moments that changed the game most"),
  own: N_("Move {0}, a move of {1}: {2} → {3}"),
  between: N_("Up to move {0}, the other moves and draws: {1} → {2}"),
  move: N_("Move"), before: N_("Before"), after: N_("After"), cost: N_("Cost"), mark: N_("Mark"),
  chosen: N_("Chosen"), best: N_("Search prefers"),
  all: N_("All decisions ({0})"),
  marks: { inaccuracy: N_("inaccuracy"), mistake: N_("mistake"), blunder: N_("blunder") },
});

const REVIEW = { gameId: null, seat: 0, status: "none", done: 0, total: null, review: null, timer: null, checked: false };
const REVIEW_COLOURS = { inaccuracy: "#f0e442", mistake: "#e69f00", blunder: "#d55e00" };

function pct(v) { return `${Math.round(v * 100)}%`; }

function reviewReplayUrl(move) {
  return `/replay/${encodeURIComponent(REVIEW.gameId)}?view=${REVIEW.seat + 1}&step=${move}`;
}

/* The win-chance curve: before and after each decision, then the result. */
function reviewCurve(review, name) {
  const pts = [];
  for (const d of review.decisions) pts.push({ v: d.before }, { v: d.after, mark: d.mark });
  if (review.result !== null && review.result !== undefined) pts.push({ v: review.result });
  const W = 320, H = 110, L = 30, B = 8;
  const x = (i) => L + (i * (W - L - 6)) / Math.max(1, pts.length - 1);
  const y = (v) => 6 + (H - B - 6) * (1 - v);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart", role: "img", "aria-label": REVIEW_STRINGS.curveLabel(name, review.decisions.length) });
  for (const v of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: L, x2: W - 6, y1: y(v), y2: y(v), stroke: "#4a3d52", "stroke-width": 1 }));
    const label = svg("text", { x: 2, y: y(v) + 4, fill: "#d9cce0", "font-size": 10 });
    label.textContent = pct(v);
    chart.append(label);
  }
  chart.append(svg("polyline", { fill: "none", stroke: "#56b4e9", "stroke-width": 2, points: pts.map((p, i) => `${x(i)},${y(p.v)}`).join(" ") }));
  pts.forEach((p, i) => { if (p.mark) chart.append(svg("circle", { cx: x(i), cy: y(p.v), r: 4, fill: REVIEW_COLOURS[p.mark], "data-mark": p.mark })); });
  return chart;
}

function reviewMoment(m, name, goTo) {
  const S = REVIEW_STRINGS;
  const text = m.kind === "own" ? S.own(m.move, name, pct(m.from), pct(m.to)) : S.between(m.move, pct(m.from), pct(m.to));
  const link = el("a", { href: reviewReplayUrl(m.move), "data-testid": "review-moment", "data-move": String(m.move) }, text);
  if (goTo) link.addEventListener("click", (ev) => { ev.preventDefault(); goTo(m.move); });
  return el("li", {}, link);
}

/* A move in words (game.js's actionText: cards, lords and Locations named), never an id. */
function reviewMove(action) {
  return typeof actionText === "function" ? actionText(action) : action;
}

/* A table of `decisions` (class `cls`): move, win chances, cost, mark, the moves in words. */
function reviewTable(decisions, cls) {
  const S = REVIEW_STRINGS;
  const head = el("tr", {}, ...[S.move, S.before, S.after, S.cost, S.mark, S.chosen, S.best].map((h) => el("th", {}, h)));
  const rows = decisions.map((d) => el("tr", { class: d.mark ? `mark-${d.mark}` : "" },
    el("td", { class: "num" }, String(d.move)), el("td", { class: "num" }, pct(d.before)), el("td", { class: "num" }, pct(d.after)),
    el("td", { class: "num" }, d.cost >= 0.005 ? `-${Math.round(d.cost * 100)}` : ""),
    el("td", {}, d.mark ? S.marks[d.mark] : ""), el("td", {}, reviewMove(d.chosen)), el("td", {}, d.best === d.chosen ? "" : reviewMove(d.best))));
  return el("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-label": S.title },
    el("table", { class: `scoretable ${cls}` }, el("thead", {}, head), el("tbody", {}, ...rows)));
}

/* The panel's content for the current REVIEW state. */
function reviewBody(names, goTo) {
  const S = REVIEW_STRINGS;
  const name = names[REVIEW.seat] || t("Seat {0}", REVIEW.seat + 1);
  const parts = [];
  if (REVIEW.status === "done" && REVIEW.review) {
    const r = REVIEW.review;
    const count = (m) => r.decisions.filter((d) => d.mark === m).length;
    parts.push(el("figure", { class: "course" }, el("figcaption", {}, S.curve), reviewCurve(r, name)),
      el("p", { "data-testid": "review-counts" }, S.counts(count("inaccuracy"), count("mistake"), count("blunder"))),
      el("h4", {}, S.moments), el("ol", { "data-testid": "review-moments" }, ...r.moments.map((m) => reviewMoment(m, name, goTo))),
      ...(r.decisions.some((d) => d.mark) ? [reviewTable(r.decisions.filter((d) => d.mark), "review-marked")] : []),
      el("details", {}, el("summary", {}, S.all(r.decisions.length)), reviewTable(r.decisions, "review-table")));
  } else if (REVIEW.status === "running") {
    const label = REVIEW.total === null ? S.waiting : S.progress(REVIEW.done, REVIEW.total);
    parts.push(el("div", { role: "status", "data-testid": "review-progress" }, label,
      el("progress", { max: String(REVIEW.total || 1), value: String(REVIEW.done), "aria-label": label })));
  } else {
    if (REVIEW.status === "failed") parts.push(el("p", { role: "alert" }, S.failed));
    parts.push(el("p", { class: "muted" }, S.about),
      el("button", { "data-testid": "review-start", onclick: () => reviewStart(names, goTo) }, S.start));
  }
  return parts;
}

function reviewRedraw(names, goTo) {
  const box = document.getElementById("review-body");
  if (!box) return;
  box.innerHTML = "";
  box.append(...reviewBody(names, goTo));
}

function reviewTake(body) {
  REVIEW.status = body.status; REVIEW.done = body.done; REVIEW.total = body.total; REVIEW.review = body.review;
}

async function reviewPoll(names, goTo) {
  REVIEW.timer = null;
  const seat = REVIEW.seat;
  try {
    const body = await api(`/api/games/${encodeURIComponent(REVIEW.gameId)}/review?seat=${seat}`);
    if (seat !== REVIEW.seat) return;
    reviewTake(body);
    REVIEW.checked = true;
  } catch (e) { toast(e.message); REVIEW.status = "failed"; }
  reviewRedraw(names, goTo);
  if (REVIEW.status === "running") REVIEW.timer = setTimeout(() => reviewPoll(names, goTo), 800);
}

async function reviewStart(names, goTo) {
  try {
    reviewTake(await api(`/api/games/${encodeURIComponent(REVIEW.gameId)}/review`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seat: REVIEW.seat }),
    }));
  } catch (e) { toast(e.message); return; }
  reviewRedraw(names, goTo);
  if (REVIEW.status === "running" && REVIEW.timer === null) REVIEW.timer = setTimeout(() => reviewPoll(names, goTo), 500);
}

/* The review panel of game `gameId`: `names` the seats' names, `seat` the seat shown first,
   `goTo(move)` (or null) shows a move in this page instead of opening the replay. */
function reviewPanel(gameId, names, seat, goTo) {
  const S = REVIEW_STRINGS;
  if (REVIEW.gameId !== gameId) Object.assign(REVIEW, { gameId, seat: Math.max(0, seat || 0), status: "none", done: 0, total: null, review: null, checked: false });
  const select = el("select", { id: "review-seat", "aria-label": S.seat, onchange: (ev) => {
    REVIEW.seat = Number(ev.target.value);
    reviewTake({ status: "none", done: 0, total: null, review: null });
    REVIEW.checked = false;
    reviewPoll(names, goTo);
  } }, ...names.map((n, i) => el("option", { value: String(i) }, n)));
  select.value = String(REVIEW.seat);
  const panel = el("div", { class: "section review", "data-testid": "review" }, el("h3", {}, S.title),
    el("div", { class: "row" }, el("label", { for: "review-seat" }, S.seat), select),
    el("div", { id: "review-body" }, ...reviewBody(names, goTo)));
  if (!REVIEW.checked && REVIEW.timer === null) REVIEW.timer = setTimeout(() => reviewPoll(names, goTo), 0);
  return panel;
}
