/* A player's profile page (/players/{name}, issue 32 §4): the account's name, when it
   joined, its results and its recent finished games (GET /api/players/{name}), with links
   to their replays and records.  Games in progress are only counted as "playing".
   Ratings (issue 32 §3): one card per game and player count with mu, sigma, the
   conservative rating mu - 3 sigma and a chart over time (ratingchart.js). */
"use strict";

const RESULT_TEXT = Object.freeze({
  won: N_("won"), lost: N_("lost"), drawn: N_("drawn"), abandoned: N_("abandoned"),
});
const COUNT_TEXT = Object.freeze([
  ["played", N_("Games played")], ["won", N_("Won")], ["lost", N_("Lost")],
  ["drawn", N_("Drawn")], ["abandoned", N_("Abandoned")], ["playing", N_("Playing now")],
]);

function profileName() {
  return decodeURIComponent(location.pathname.replace(/^\/players\//, ""));
}

function recentRow(g) {
  if (g.status !== "over") {
    return el("tr", { "data-status": "playing" },
      el("td", {}, t(g.long_name)), el("td", { class: "muted" }, "—"),
      el("td", {}, el("span", { class: "badge" }, t("playing"))), el("td", {}, ""), el("td", {}, ""));
  }
  const result = g.result ? t(RESULT_TEXT[g.result]) : "?";
  return el("tr", { "data-game": g.id, "data-result": g.result || "" },
    el("td", {}, el("strong", {}, t(g.long_name))),
    el("td", {}, ...g.opponents.map((o, i) => [i ? ", " : "", o.player
      ? el("a", { href: `/players/${encodeURIComponent(o.player)}`, class: "player-link" }, o.name)
      : shownName(o.name)])),
    el("td", {}, el("span", { class: "badge" + (g.result === "won" ? " turn" : "") }, result)),
    el("td", {}, ago(g.date)),
    el("td", {}, el("div", { class: "row" },
      el("a", { class: "button small", href: g.replay }, t("Replay")),
      el("a", { class: "button small", href: g.record + "?download=1" }, t("Record")))));
}

function ratingTitle(r) {
  return r.players === 1 ? t("{0} · solo", t(r.long_name)) : t("{0} · {1} players", t(r.long_name), r.players);
}

function showRatings(ratings) {
  const box = document.getElementById("ratings");
  if (!ratings.length) {
    box.replaceChildren(el("p", { class: "muted" }, t("No rating yet: play a rated table.")));
    return;
  }
  box.replaceChildren(...ratings.map((r) => el("div", { class: "rating", "data-rating": `${r.game}-${r.players}` },
    el("h3", {}, ratingTitle(r)),
    el("p", {}, el("strong", { class: "ordinal" }, r.ordinal.toFixed(1)), " ",
      el("span", { class: "muted" }, t("(μ {0} ± 3σ {1}; {2} rated games)", r.mu.toFixed(1), (3 * r.sigma).toFixed(1), r.games))),
    ratingChart(r.history, t("Rating over time: {0}", ratingTitle(r))))));
}

async function loadProfile() {
  const name = profileName();
  let p;
  try { p = await api(`/api/players/${encodeURIComponent(name)}`); } catch (e) {
    document.getElementById("player-name").textContent = name;
    document.getElementById("joined").textContent = e.message;
    return;
  }
  document.title = `porphyra — ${p.name}`;
  document.getElementById("player-name").textContent = p.name;
  document.getElementById("joined").textContent = t("Joined {0}", new Date(p.joined).toLocaleDateString(I18N.lang));
  showRatings(p.ratings);
  const counts = document.getElementById("counts");
  counts.replaceChildren(...COUNT_TEXT.map(([key, label]) =>
    el("div", { "data-count": key }, el("dt", {}, t(label)), el("dd", {}, String(p.games[key])))));
  const body = document.querySelector("#recent tbody");
  body.replaceChildren(...p.recent.map(recentRow));
  if (!p.recent.length) body.append(el("tr", {}, el("td", { colspan: "5", class: "muted" }, t("No games yet."))));
}

I18N.ready.then(loadProfile);
