/* The lobby's quick match (issue 32 §2): a signed-in player picks a game, the player
   count and the clock kind and joins the queue (POST /api/quickmatch); the page looks at
   the wait every few seconds (GET /api/quickmatch), shows the seconds waited and, after a
   minute alone, the bot offered (POST /api/quickmatch/bot); once a table is made it asks
   for the seat's link (the match's "link") and opens the game. */
"use strict";

const QUICK = { timer: null, busy: false };
const QUICK_POLL_MS = 2000;
const QUICK_GAMES = { byzantium: [2, 2], conspiracy: [2, 4] };
const QUICK_STRINGS = I18N.table({
  title: N_("Quick match"),
  signIn: N_("Sign in to play a quick match"),
  go: N_("Quick match"),
  none: N_("No clock"),
  realtime: N_("Real time (10 min + 5 s a move)"),
  turn: N_("Turn-based (a day a move)"),
  waiting: N_("Looking for an opponent of about your rating… {0} s"),
  leave: N_("Leave the queue"),
  offer: N_("Nobody yet. Play {0} instead, or keep waiting."),
  playBot: N_("Play the bot"),
  found: N_("Opponent found: opening the table…"),
});

function quickBox() { return document.getElementById("qm-body"); }

function quickOptions(select, values, label) {
  select.replaceChildren(...values.map((v) => el("option", { value: String(v) }, label(v))));
}

function quickForm() {
  const game = el("select", { id: "qm-game", "data-testid": "qm-game", "aria-label": t("Game") });
  quickOptions(game, Object.keys(QUICK_GAMES), (g) => (g === "byzantium" ? t("Byzantium") : t("Conspiracy")));
  const players = el("select", { id: "qm-players", "data-testid": "qm-players", "aria-label": t("Players") });
  const fillPlayers = () => {
    const [lo, hi] = QUICK_GAMES[game.value];
    const counts = [];
    for (let n = lo; n <= hi; n++) counts.push(n);
    quickOptions(players, counts, (n) => t("{0} players", n));
  };
  game.onchange = fillPlayers;
  fillPlayers();
  const clock = el("select", { id: "qm-clock", "data-testid": "qm-clock", "aria-label": t("Clock") });
  quickOptions(clock, ["none", "realtime", "turn"], (k) => QUICK_STRINGS[k]);
  const go = el("button", {
    class: "primary", "data-testid": "quickmatch",
    onclick: () => quickJoin({ game: game.value, players: Number(players.value), clock: clock.value }, go),
  }, QUICK_STRINGS.go);
  return el("div", { class: "row" }, game, players, clock, go);
}

function quickWaiting(state) {
  const parts = [el("div", { role: "status", "data-testid": "qm-wait" },
    QUICK_STRINGS.waiting(Math.floor(state.waited_s)))];
  if (state.bot) {
    parts.push(el("div", { "data-testid": "qm-offer" }, QUICK_STRINGS.offer(term(state.bot))),
      el("button", { class: "primary small", "data-testid": "qm-bot", onclick: (ev) => quickBot(ev.currentTarget) },
        QUICK_STRINGS.playBot));
  }
  parts.push(el("button", { class: "small", "data-testid": "qm-leave", onclick: quickLeave }, QUICK_STRINGS.leave));
  return el("div", {}, ...parts);
}

function quickStop() {
  if (QUICK.timer !== null) clearTimeout(QUICK.timer);
  QUICK.timer = null;
}

async function quickOpen(match) {
  quickStop();
  const box = quickBox();
  if (box) box.replaceChildren(el("div", { role: "status", "data-testid": "qm-found" }, QUICK_STRINGS.found));
  const link = await api(match.link, { method: "POST" });
  rememberToken(link.game, link.seat, link.token);
  location.href = link.url;
}

/* Show the state of the wait (from any quick-match answer) and look again later. */
async function quickShow(state) {
  const box = quickBox();
  if (!box) return;
  quickStop();
  if (state.match) { await quickOpen(state.match); return; }
  if (!state.queued) { box.replaceChildren(quickForm()); return; }
  box.replaceChildren(quickWaiting(state));
  QUICK.timer = setTimeout(quickPoll, QUICK_POLL_MS);
}

async function quickPoll() {
  QUICK.timer = null;
  try {
    await quickShow(await api("/api/quickmatch"));
  } catch (e) {
    QUICK.timer = setTimeout(quickPoll, QUICK_POLL_MS * 2);  // (the server is busy: later)
  }
}

async function quickJoin(body, button) {
  button.disabled = true;
  try {
    await quickShow(await api("/api/quickmatch", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    }));
  } catch (e) {
    button.disabled = false;
    toast(t(e.message));
  }
}

async function quickLeave() {
  try {
    await quickShow(await api("/api/quickmatch", { method: "DELETE" }));
  } catch (e) {
    toast(t(e.message));
    quickPoll();
  }
}

async function quickBot(button) {
  button.disabled = true;
  try {
    await quickOpen(await api("/api/quickmatch/bot", { method: "POST" }));
  } catch (e) {
    toast(t(e.message));
    quickPoll();
  }
}

/* Called when the account changes (account.js): a guest sees a sign-in hint. */
function renderQuickMatch() {
  const box = quickBox();
  if (!box) return;
  quickStop();
  if (typeof ACCOUNT === "undefined" || ACCOUNT.me === null) {
    box.replaceChildren(el("p", { class: "muted" }, QUICK_STRINGS.signIn));
    return;
  }
  quickPoll();
}
