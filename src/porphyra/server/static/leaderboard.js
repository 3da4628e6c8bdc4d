/* The leaderboard page (/leaderboard, issue 32 §3): the accounts rated at a game and
   player count, best conservative rating (mu - 3 sigma) first (GET /api/leaderboard/{game}),
   and the bots' fixed ratings with how they were measured.  Names link to profiles; no id
   is shown.  ?game=...&players=... choose the board. */
"use strict";

const BOARD = { meta: null };

function bandText(r) {
  return `${r.mu.toFixed(1)} ± ${(3 * r.sigma).toFixed(1)}`;
}

// A bot's seat name as a reader reads it: a level ("Easy bot"), or a Legendary Opponent.
function botText(key) {
  if (key.startsWith("legendary:")) { const lo = key.slice(10); return t("Legendary Opponent: {0}", term(lo.charAt(0).toUpperCase() + lo.slice(1))); }
  const shown = BOARD.meta && BOARD.meta.bot_text ? BOARD.meta.bot_text[key] : null;
  return shown ? t(shown) : key;
}

// A level against the one below it over paired deals (issue 31): "59.0% against Easy
// (55.0–63.0), 200 deals"; at a solo table the two levels' wins against the same Opponents.
function belowText(b) {
  if (!b) return "";
  const pct = (x) => (100 * x).toFixed(1);
  if (b.difference !== null && b.difference !== undefined) {
    const pts = (x) => `${x >= 0 ? "+" : ""}${(100 * x).toFixed(1)}`;
    return t("wins {0}% where {1} wins {2}%: {3} points ({4} to {5}), {6} deals", pct(b.score), term(b.against), pct(b.against_score), pts(b.difference), pts(b.low), pts(b.high), b.deals);
  }
  return t("{0}% against {1} ({2}–{3}), {4} deals", pct(b.score), term(b.against), pct(b.low), pct(b.high), b.deals);
}

function fillChoices() {
  const params = new URLSearchParams(location.search);
  const games = document.getElementById("board-game");
  const names = Object.keys(BOARD.meta.games);
  games.replaceChildren(...names.map((g) => el("option", { value: g }, t(BOARD.meta.games[g].long_name || g))));
  if (names.includes(params.get("game"))) games.value = params.get("game");
  fillPlayers(Number(params.get("players")) || null);
}

function fillPlayers(wanted) {
  const game = BOARD.meta.games[document.getElementById("board-game").value];
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(n);
  const players = document.getElementById("board-players");
  players.replaceChildren(...counts.map((n) => el("option", { value: String(n) }, n === 1 ? t("solo") : String(n))));
  players.value = String(counts.includes(wanted) ? wanted : counts.find((n) => n > 1) || counts[0]);
}

async function loadBoard() {
  const game = document.getElementById("board-game").value;
  const players = document.getElementById("board-players").value;
  history.replaceState(null, "", `/leaderboard?game=${encodeURIComponent(game)}&players=${players}`);
  let b;
  try { b = await api(`/api/leaderboard/${encodeURIComponent(game)}?players=${players}`); } catch (e) { toast(t(e.message)); return; }
  const body = document.querySelector("#board tbody");
  body.replaceChildren(...b.entries.map((r) => el("tr", { "data-player": r.name },
    el("td", {}, String(r.rank)),
    el("td", {}, el("a", { href: `/players/${encodeURIComponent(r.name)}`, class: "player-link" }, r.name)),
    el("td", {}, el("strong", {}, r.ordinal.toFixed(1))),
    el("td", {}, bandText(r)), el("td", {}, String(r.games)))));
  if (!b.entries.length) body.append(el("tr", {}, el("td", { colspan: "5", class: "muted" }, t("Nobody is rated here yet."))));
  const bots = document.querySelector("#bots tbody");
  bots.replaceChildren(...b.bots.map((r) => el("tr", { "data-bot": r.bot },
    el("td", {}, botText(r.bot)), el("td", {}, r.ordinal.toFixed(1)), el("td", {}, bandText(r)), el("td", {}, String(r.games)),
    el("td", { "data-testid": "bot-below" }, belowText(r.below)))));
  document.getElementById("bots-how").textContent = b.ladder
    ? t("Fixed ratings, measured in bot-against-bot games ({0}; {1}): {2}. They do not change with games against people, and anchor everyone's rating to the same scale.", b.ladder.model, b.ladder.measured, b.ladder.command)
    : t("The bots have no measured ratings on this server: a table with a bot cannot be rated.");
}

async function start() {
  try { BOARD.meta = await api("/api/meta"); } catch (e) { toast(t(e.message)); return; }
  fillChoices();
  document.getElementById("board-game").addEventListener("change", () => { fillPlayers(null); loadBoard(); });
  document.getElementById("board-players").addEventListener("change", loadBoard);
  await loadBoard();
}

I18N.ready.then(start);
