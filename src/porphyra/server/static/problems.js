/* Clear pages instead of a dead "Loading…": a wrong seat link (offers to watch), an
   unknown game, a damaged one, too many tabs.  Every user-visible string of this module is
   in PROBLEM_STRINGS. */
"use strict";

const PROBLEM_STRINGS = I18N.table({
  token: {
    title: N_("This link does not open a seat"),
    text: N_("The seat link is wrong or incomplete (check that it was copied whole). You can still watch the game as a spectator."),
  },
  missing: {
    title: N_("There is no such game"),
    text: N_("No game has this address: it may have been mistyped, or the link belongs to another server."),
  },
  damaged: {
    title: N_("This game cannot be opened"),
    text: N_("Its saved data is damaged. Other games are not affected."),
  },
  limit: {
    title: N_("Too many open tabs"),
    text: N_("This seat or this computer already has too many connections open. Close another tab of the game, then try again."),
  },
  unfinished: {
    title: N_("This game is not over yet"),
    text: N_("A game can be replayed once it has ended; until then you can watch it live."),
  },
  watch: N_("Watch as a spectator"),
  lobby: N_("Back to the lobby"),
  retry: N_("Try again"),
  details: N_("The server said: "),
});

/* Replace the page's content with the problem page of `kind` (a PROBLEM_STRINGS key). */
function showProblem(kind, serverMessage, gameId) {
  const S = PROBLEM_STRINGS;
  const info = S[kind] || S.missing;
  document.body.dataset.problem = kind;
  const title = document.getElementById("title");
  if (title) title.textContent = info.title;
  const conn = document.getElementById("conn");
  if (conn) conn.classList.add("hidden");
  const actions = el("div", { class: "row" });
  if ((kind === "token" || kind === "unfinished") && gameId) {
    actions.append(el("a", { class: "button primary", href: `/game/${encodeURIComponent(gameId)}`, "data-testid": "watch" }, S.watch));
  }
  if (kind === "limit") actions.append(el("button", { onclick: () => location.reload() }, S.retry));
  actions.append(el("a", { class: "button" + (kind === "token" ? "" : " primary"), href: "/", "data-testid": "to-lobby" }, S.lobby));
  const page = el("section", { class: "panel problem", role: "alert", "data-testid": "problem" },
    el("h1", {}, info.title), el("p", {}, info.text),
    serverMessage ? el("p", { class: "muted" }, S.details + serverMessage) : null, actions);
  const main = document.querySelector("main");
  main.className = "problem-page";
  main.innerHTML = "";
  main.append(page);
  document.title = "porphyra — " + info.title;
}
