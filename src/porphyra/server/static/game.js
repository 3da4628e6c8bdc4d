/* Game page: renders the observation the server sends and offers only the legal actions
   the server listed.  The client never decides legality: builders only look up the text
   they build in the server's legal list. */
"use strict";

/* The game id of the address (a malformed escape is kept as typed: the server then says
   there is no such game, and the page shows it). */
const GAME_ID = (() => {
  const raw = location.pathname.split("/").filter(Boolean).pop() || "";
  try { return decodeURIComponent(raw); } catch (e) { return raw; }
})();
/* The seat's token: the link's, or, for a page opened from a turn alert (?from=alert,
   which carries no token), the one seat of this game this browser keeps. */
const TOKEN = new URLSearchParams(location.hash.slice(1)).get("token") || (() => {
  if (new URLSearchParams(location.search).get("from") !== "alert") return null;
  const held = Object.values(knownTokens()[GAME_ID] || {});
  return held.length === 1 ? held[0] : null;
})();
/* The replay viewer (/replay/{id}) renders frames with this page's code (replay.js). */
const REPLAY = location.pathname.startsWith("/replay/");

/* The strings this page's newer parts show (the older ones call t() inline), read in the
   page's language (I18N.table). */
const GAME_STRINGS = I18N.table({
  hint: N_("Hint"),
  hintLabel: N_("Ask the strong bot for a suggestion (it sees only what you see)"),
  thinking: N_("thinking…"),
  hintText: N_("Hint ({0}): {1}"),
  chance: N_(" — estimated chance to win: {0}%"),
  hintPick: N_("Pick these cards"),
  yourTurn: N_("Your turn"),
  card: N_("{0}, {1}, force {2}, ages {3}"),
  selected: N_(", selected"),
  lord: N_("{0} {1} lord, {2} IP"),
  crest: N_("crest: the best lord of its colour in this chamber, the one that scores"),
  revealedHand: N_("{0}'s hand (revealed in the replay)"),
  drawOrder: N_("{0} draw pile, next card first (revealed in the replay)"),
  loTakes: N_("On its turn it takes the whole discard pile that meets the first of these conditions:"),
  loTie: N_("If several piles meet the same condition, you choose which one it takes."),
});

/* A Byzantium card in words (for screen readers and the tooltip). */
function cardLabel(c, selected) {
  return GAME_STRINGS.card(term(c.name), term(c.type), c.force, agesText(c.ages)) + (selected ? GAME_STRINGS.selected : "");
}

/* A Conspiracy lord in words: colour, symbol, IP, key, pearls. */
function lordLabel(info, symbol) {
  return GAME_STRINGS.lord(term(info.colour), symbol, info.ip)
    + (info.key ? ", " + (info.key === "gold" ? t("gold key") : t("silver key")) : "")
    + (info.pearls ? ", " + tn("{0} pearl", "{0} pearls", info.pearls, info.pearls) : "");
}
/* Names, never ids: a lord id ("red4") reads as its colour and influence ("Red 4", 赤4),
   a Location slug ("count-green") as its name, in the page's language; the ids stay the
   notation the page sends. */
function lordName(id) {
  const named = term(id);
  if (named !== id) return named;
  const m = /^([a-z]+)(\d)$/.exec(id);
  return m ? `${term(m[1]).charAt(0).toUpperCase()}${term(m[1]).slice(1)} ${m[2]}` : id;
}
function locationName(slug) {
  if (slug === FACE_DOWN) return t("face down");
  const info = CARDS && CARDS.locations && CARDS.locations[slug];
  return info && info.name ? term(info.name) : slug;
}
/* A text (a log line, a refusal) with every lord id and Location slug named. */
let ID_PATTERN = null;  // [card data, the pattern of its ids] (built once per game)
function nameIds(text) {
  if (!CARDS || !CARDS.lords) return text;
  if (!ID_PATTERN || ID_PATTERN[0] !== CARDS) {
    const ids = [...Object.keys(CARDS.locations || {}), ...Object.keys(CARDS.lords)].sort((a, b) => b.length - a.length);
    ID_PATTERN = [CARDS, new RegExp(`(?<![\\w-])(${ids.map((s) => s.replace(/[-]/g, "\\-")).join("|")})(?![\\w-])`, "g")];
  }
  return text.replace(ID_PATTERN[1], (id) => (CARDS.lords[id] ? lordName(id) : locationName(id)));
}
/* A bot's level ("easy", "hard") in the page's language (a spec with settings as typed). */
function botName(spec) { return term(String(spec)); }
/* A Byzantium card's name by its slug. */
function cardName(slug) { return term(((CARDS && CARDS.cards && CARDS.cards[slug]) || { name: slug }).name); }
/* Conspiracy's colours also have a symbol each (colour-blind players, monochrome screens). */
const COLOUR_SYMBOLS = { yellow: "▲", red: "■", green: "●", blue: "◆", purple: "★" };

let M = null;          // the last snapshot/update
let DEAL = null;       // "secret" | "chosen" | "legacy" (snapshots carry it)
let SEATS = [];        // public seat list
let CARDS = null;      // card data of the game
let ws = null;
let busy = false;      // an action was sent; wait for the answer
let sel = [];          // Byzantium builder: selected hand positions
let swapSel = [];      // Conspiracy swap builder: selected slots (1-based)
let finalDismissed = false;
let stopReconnect = false;
let retryDelay = 500;
let inbox = Promise.resolve();
let backlog = 0;       // messages received and not yet handled
let TABLE = null;      // the table's choices (hints, spectator_chat)
let REMATCH = null;    // the rematch's game id, once started
let HINT = null;       // {seq, action, chance, bot, decision} or {seq, pending: true, decision}
let PREV_OBS = null;   // the observation rendered before (for the last-move highlight)
let PREV_LOG = 0;      // log lines rendered before
let LAST_LINES = [];   // the last move's log lines
let refusal = null;    // the server's message before it refused this page's socket
let CHAT = null;       // the chat panel

/* ------------------------------------------------------------------ connection */
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  // choices=1: a meld or redraw decision comes as its option table (choices.js).
  const url = `${proto}//${location.host}/ws/${encodeURIComponent(GAME_ID)}` + (TOKEN ? `?token=${encodeURIComponent(TOKEN)}&` : "?") + `lang=${I18N.lang}&choices=1`;
  ws = new WebSocket(url);
  setConn(t("connecting"), false);
  // The back-off starts again only once the game is here (a snapshot): a server that
  // accepts the socket and then says the game runs elsewhere (4307) must not be asked
  // again twice a second.
  ws.onopen = () => { setConn(t("online"), true); };
  ws.onmessage = (ev) => {
    // Handle messages strictly in order (the first one waits for the card data).
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { toast(String(e)); return; }
    // A view that gives this page a decision cuts short what still moves on screen.
    if ((Array.isArray(msg.legal) && msg.legal.length) || msg.choices) PorphyraMotion.finishAll();
    backlog += 1;
    inbox = inbox.then(() => { backlog -= 1; return onMessage(msg); }).catch((e) => toast(String(e)));
  };
  ws.onclose = (ev) => {
    setConn(t("offline"), false);
    if ([4403, 4404, 4410, 4429].includes(ev.code)) {
      stopReconnect = true;
      if (!M) {
        const kind = { 4403: TOKEN ? "token" : "missing", 4404: "missing", 4410: "damaged", 4429: "limit" }[ev.code];
        showProblem(kind, refusal, GAME_ID);
      }
    }
    if (!stopReconnect) setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 8000);
  };
}

function setConn(text, on) {
  const c = document.getElementById("conn");
  c.textContent = text;
  c.className = "badge" + (on ? " turn" : " off");
}

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) { toast(t("not connected")); return; }
  ws.send(JSON.stringify(msg));
}

function act(text) {
  if (busy || !M) return;
  busy = true;
  send({ type: "act", action: text, seq: M.seq });
  render();
}

async function onMessage(msg) {
  if (msg.type === "snapshot") retryDelay = 500;
  if (msg.type === "snapshot" || msg.type === "update") {
    const log = msg.observation.log;
    if (Array.isArray(log)) {
      // Updates carry only the log lines this page lacks (as lines and as messages).
      const start = msg.log_start || 0;
      const have = M ? M.observation.log || [] : [];
      if (start > have.length) { send({ type: "snapshot" }); return; }
      msg.observation.log = have.slice(0, start).concat(log);
      const haveMessages = M ? M.observation.log_messages || [] : [];
      msg.observation.log_messages = haveMessages.slice(0, start).concat(msg.observation.log_messages || []);
    }
    msg.legal = legalOf(msg);  // the texts, composed from an option table if need be
    if (msg.seats) SEATS = msg.seats;
    if (msg.deal) DEAL = msg.deal;
    if (msg.type === "snapshot") {
      TABLE = msg.table || TABLE;
      REMATCH = msg.rematch || null;
      if (typeof chatReset === "function" && msg.chat) chatReset(msg.chat);
    }
    if (!CARDS || (M && M.game !== msg.game)) CARDS = await api(`/api/cards/${msg.game}`);
    // The previous move's animation first, unless this view is the player's decision or
    // the page has fallen behind (then it catches up at once).
    await PorphyraMotion.settle((msg.legal || []).length > 0 || backlog > 2);
    if (msg.type === "snapshot" || (M && msg.seq !== M.seq)) { sel = []; swapSel = []; }
    M = msg;
    busy = false;
    if (TOKEN && msg.seat !== null && msg.seat !== undefined) rememberToken(GAME_ID, msg.seat, TOKEN);
    render();
    PorphyraClock.update(msg, send);
  } else if (msg.type === "presence") {
    SEATS = msg.seats;
    renderSeats();
  } else if (msg.type === "chat") {
    if (typeof chatAdd === "function") chatAdd(msg.lines);
  } else if (msg.type === "hint") {
    // The answer to the pending request, for the decision it was asked in (another seat's
    // choice may have come meanwhile without changing this seat's options).
    if (HINT && HINT.pending && msg.seq === HINT.seq) HINT = { ...msg, decision: HINT.decision };
    if (M) render();
  } else if (msg.type === "rematch") {
    REMATCH = msg.game_id;
    if (M) render();
  } else if (msg.type === "error") {
    if (!M) refusal = msg.message;
    if (HINT && HINT.pending) HINT = null;
    busy = false;
    // The server's text is final but for its seats: named first, particles fitted after.
    toast(nameSeats(I18N.lookup(msg.message)));
    if (msg.code === "stale") send({ type: "snapshot" });
    if (M) render();
  }
}

/* ------------------------------------------------------------------ helpers */
/* Seat i's name: as chosen, or the server's default ("Seat 2", "Easy bot 2") in the
   page's language. */
function displayName(i) {
  const s = SEATS[i];
  return s ? shownName(s.name) : t("Seat {0}", i + 1);
}

function seatName(i) {
  const name = logName(i);
  return M && M.seat === i && SEATS[i] ? t("{0} (you)", name) : name;
}
/* Seat i as the log names it: its name (the Legendary Opponent by its title), without
   "(you)", which the log's own brackets would follow ("Seat 1 (you) (Byzantine)"). */
function logName(i) {
  const lo = M && M.observation.legendary_opponent;
  if (!SEATS[i] && lo && typeof lo === "object") return t("{0} (LO)", term(lo.title || lo.name));
  return displayName(i);
}

/* The observation's log in the page's language: its messages (an id plus arguments each)
   rendered from the catalogue, one per line of obs.log (the English lines, used only where
   an observation carries no messages).  Kept per observation: render() runs often. */
const LOG_LINES = new WeakMap();
function logLines(obs) {
  const log = obs.log || [];
  const messages = obs.log_messages;
  if (!Array.isArray(messages) || messages.length !== log.length) return log;
  let lines = LOG_LINES.get(obs);
  if (!lines) {
    lines = messages.map((m) => I18N.message(m, idName));
    LOG_LINES.set(obs, lines);
  }
  return lines;
}
/* A lord id or Location slug of a log message, named in the page's language. */
function idName(id) { return CARDS && CARDS.lords && CARDS.lords[id] ? lordName(id) : locationName(id); }

/* The log's "seat N" (in the page's language) as the seat's name, its lord ids and
   Location slugs as their names, and (Korean) each particle fitted to the word before it. */
function nameSeats(text) {
  const [before, after] = t("seat {0}").split("{0}").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp((/^\w/.test(before) ? "\\b" : "") + before + "(\\d)(?!\\d)" + after, "gi");
  return I18N.particles(nameIds(text.replace(pattern, (_, d) => logName(Number(d)))));
}

const FACE_DOWN = "face-down";

function verbOf(action) { return action.split(" ")[0]; }
function argOf(action) { return action.slice(action.indexOf(" ") + 1); }

function actionButton(action, label, cls) {
  return el("button", {
    class: cls || "small", "data-action": action, disabled: busy,
    onclick: () => act(action),
  }, label || action);
}

/* ------------------------------------------------------------------ render */
function render() {
  if (!M) return;
  const obs = M.observation;
  document.body.dataset.game = M.game;
  document.body.dataset.status = M.status;
  document.body.dataset.seq = String(M.seq);
  document.body.dataset.myturn = String(M.legal.length > 0);
  const gameName = M.game === "byzantium" ? t("Byzantium") : t("Conspiracy");
  const myTurn = M.legal.length > 0 && M.status !== "over" && !REPLAY;
  if (REPLAY) document.title = `porphyra — ${t("replay")} — ${gameName}`;
  else notifyTurn(myTurn, `porphyra — ${gameName}`, gameName);
  document.getElementById("title").textContent = M.game === "byzantium" ? t("Byzantium") : t("Conspiracy: Abyss Universe");
  document.getElementById("whoami").textContent = M.seat === null ? t("spectating") : t("you are {0}", displayName(M.seat));
  const deal = document.getElementById("deal");
  deal.classList.toggle("hidden", DEAL === "secret" || DEAL === null);
  deal.dataset.deal = DEAL || "";
  deal.textContent = DEAL === "chosen" ? t("chosen seed: the creator may know every card · unrated")
    : t("old table (weak seed) · unrated");
  renderSeats();
  const moved = obs !== PREV_OBS;  // a new view, not a click in a builder
  if (moved) PorphyraMotion.capture();
  const board = document.getElementById("board");
  board.innerHTML = "";
  document.getElementById("handslot").innerHTML = "";
  board.append(el("div", { id: "lastmove", class: "lastmove", role: "status", "aria-live": "polite" }));
  const actions = document.getElementById("actions");
  actions.innerHTML = "";
  if (myTurn) actions.append(el("div", { class: "your-turn", "data-testid": "your-turn" }, GAME_STRINGS.yourTurn));
  if (M.game === "byzantium") byzRender(obs, board, actions);
  else consRender(obs, board, actions);
  hintBox(actions);
  if (M.can_undo) {
    actions.append(el("div", { class: "row" }, el("button", {
      class: "small", "data-testid": "undo", disabled: busy,
      onclick: () => { busy = true; send({ type: "undo", seq: M.seq }); },
    }, t("↶ Undo my last decision"))));
  }
  const log = logLines(obs);
  renderLog(log);
  if (obs !== PREV_OBS) {  // a new view (not a click in a builder): what the last move did
    const fresh = PREV_OBS && log.length > PREV_LOG ? log.slice(PREV_LOG) : log.slice(-1);
    LAST_LINES = fresh.map(nameSeats);
    showLastMove(PREV_OBS, obs, LAST_LINES);
    PorphyraMotion.play(PREV_OBS, obs);
  } else {
    showLastMove(null, obs, LAST_LINES);
  }
  PREV_OBS = obs;
  PREV_LOG = log.length;
  if (CHAT) CHAT.refresh();
  renderFinal(obs);
}

/* The hint button (where the table allows hints) and the last hint. */
/* A seat's decision, as far as a hint goes: its legal actions (a new state that leaves
   them unchanged, such as another seat's secret choice, keeps the hint). */
function decisionKey() { return M.legal.join("\n"); }

function hintBox(actions) {
  if (HINT && HINT.decision !== decisionKey()) HINT = null;
  if (!M.hints || !M.legal.length || M.status === "over" || REPLAY) return;
  const box = el("div", { class: "hint", "data-testid": "hint-box" });
  box.append(el("button", {
    class: "small", "data-testid": "hint", "aria-label": GAME_STRINGS.hintLabel, disabled: busy || (HINT && HINT.pending),
    onclick: () => { HINT = { seq: M.seq, pending: true, decision: decisionKey() }; send({ type: "hint", seq: M.seq }); render(); },
  }, HINT && HINT.pending ? GAME_STRINGS.thinking : GAME_STRINGS.hint));
  if (HINT && !HINT.pending) {
    const chance = HINT.chance === null || HINT.chance === undefined ? "" : GAME_STRINGS.chance(Math.round(100 * HINT.chance));
    box.append(el("div", { role: "status", "data-testid": "hint-text" }, GAME_STRINGS.hintText(botName(HINT.bot), actionText(HINT.action)) + chance));
    for (const b of actions.querySelectorAll("[data-action]")) {
      if (b.dataset.action === HINT.action) b.classList.add("hinted");
    }
    // A hinted meld or redraw: pick its cards in the builder (the player still commits).
    const verb = verbOf(HINT.action);
    if (M.game === "byzantium" && (verb === "meld" || verb === "redraw")) {
      const wanted = argOf(HINT.action) === "-" ? [] : argOf(HINT.action).split(",");
      box.append(el("button", { class: "small", "data-testid": "hint-pick", onclick: () => {
        const free = M.observation.hand.map((slug, i) => [slug, i]);
        sel = [];
        for (const slug of wanted) {
          const at = free.findIndex(([s]) => s === slug);
          if (at >= 0) { sel.push(free[at][1]); free.splice(at, 1); }
        }
        render();
      } }, GAME_STRINGS.hintPick));
    }
  }
  actions.append(box);
}

function renderSeats() {
  const box = document.getElementById("seats");
  if (!box) return;
  box.innerHTML = "";
  const current = M ? M.observation.current_player : -1;
  // Byzantium's secret choices (B-R3) are both seats' at once. Whether the other seat has
  // chosen yet is hidden, so it is shown as choosing until the choices are revealed; this
  // page's own seat, as it is.
  const together = Boolean(M) && M.game === "byzantium" && M.status !== "over"
    && ["redraw", "meld", "pass"].includes(M.observation.phase);
  const waiting = SEATS.some((s) => s.open);  // open seats: the game has not started
  const toAct = (i) => !waiting && (together ? (i === M.seat ? M.legal.length > 0 : true) : current === i);
  SEATS.forEach((s, i) => {
    box.append(el("div", { "data-seat-row": String(i) },
      el("span", { class: "dot" + (s.connected ? " on" : "") }),
      seatName(i),
      s.kind === "bot" ? el("span", { class: "badge" }, t("bot: {0}", botName(s.bot))) : null,
      s.open ? el("span", { class: "badge", "data-testid": "open-seat" },
        s.open === "closed" ? t("table cancelled") : t("waiting for a player")) : null,
      toAct(i) ? el("span", { class: "badge turn" }, t("to act")) : null));
  });
  const lo = M && M.observation.legendary_opponent;
  if (lo && typeof lo === "object") {
    box.append(el("div", {}, el("span", { class: "dot on" }), seatName(SEATS.length), el("span", { class: "badge" }, t("played by the rules"))));
  }
}

function renderLog(lines) {
  const list = document.getElementById("log");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.innerHTML = "";
  const start = Math.max(0, lines.length - 200);
  for (const line of lines.slice(start)) list.append(el("li", {}, nameSeats(line)));
  if (atBottom || true) list.scrollTop = list.scrollHeight;
}

function renderFinal(obs) {
  const box = document.getElementById("final");
  if (!box) return;
  if (M.status !== "over" || finalDismissed || REPLAY) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  box.innerHTML = "";
  const panel = el("div", { class: "panel", id: "final-score" });
  panel.append(el("div", { class: "final-title" }, t("Game over")));
  if (M.game === "byzantium") {
    const r = obs.result || {};
    const lt = r.legacy || obs.legacy;
    const best = Math.max(...lt);
    const winners = lt.map((v, i) => (v === best ? i : -1)).filter((i) => i >= 0);
    panel.append(el("p", {}, winners.length > 1 ? t("A draw: equal Legacy Tokens.") : t("{0} wins.", seatName(winners[0]))));
    if (r.collapse) panel.append(el("p", { class: "muted" }, t("The Empire collapsed in turn {0} (TT {1}).", r.turn, r.territory)));
    else panel.append(el("p", { class: "muted" }, t("After {0} turns; the Empire holds {1} TT.", r.turn || 12, r.territory)));
    panel.append(el("table", { class: "scoretable" },
      el("tr", {}, el("th", {}, t("Player")), el("th", { class: "num" }, t("Legacy Tokens"))),
      ...lt.map((v, i) => el("tr", { class: winners.includes(i) ? "winner" : "" }, el("td", {}, seatName(i)), el("td", { class: "num" }, String(v))))));
    panel.append(byzantiumCourse(M.summary, seatName));
  } else {
    const winners = obs.winners || [];
    panel.append(el("p", {}, winners.length > 1 ? t("Shared victory: {0}.", winners.map(seatName).join(", ")) : t("{0} wins.", seatName(winners[0]))));
    panel.append(scoreTable(obs, (M.derived && M.derived.scores) || obs.scores || []));
  }
  panel.append(endActions(GAME_ID, M.seat, TOKEN, REMATCH));
  panel.append(reviewPanel(GAME_ID, SEATS.map((_, i) => seatName(i)), M.seat, null));
  panel.append(el("div", { class: "row", style: "margin-top:14px" },
    el("a", { class: "button primary", href: "/" }, t("Back to the lobby")),
    el("button", { onclick: () => { finalDismissed = true; renderFinal(obs); } }, t("Look at the table"))));
  box.append(panel);
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", t("Game over"));
}

/* ================================================================== both games */
/* Enter and Space act on a focusable non-button element (a card or lord to pick); the
   focus stays on the same card after the page re-renders. */
function keyboardClick(node, onclick) {
  node.addEventListener("keydown", (ev) => {
    if (ev.key !== "Enter" && ev.key !== " ") return;
    ev.preventDefault();
    const key = node.dataset.focusKey;
    onclick(ev);
    if (key) { const again = document.querySelector(`[data-focus-key="${key}"]`); if (again) again.focus(); }
  });
}

/* An action's argument (notation) as people read it: a colour, a lord or a Location by
   its name, a Byzantium card by its name, a number as it is. */
function argText(arg) {
  if (CARDS && CARDS.colours && CARDS.colours.includes(arg)) return term(arg);
  if (CARDS && CARDS.lords && CARDS.lords[arg]) return lordName(arg);
  if (CARDS && CARDS.locations && CARDS.locations[arg]) return locationName(arg);
  if (CARDS && CARDS.cards) return countedCards(arg);
  return arg;
}
/* Byzantium cards named and counted in first-seen order, as the terminal writes them
   ("Raiders ×2, Famine"; "—": no card). */
function countedCards(arg) {
  if (arg === "-") return "—";
  const counts = new Map();
  for (const slug of arg.split(",")) counts.set(slug, (counts.get(slug) || 0) + 1);
  return [...counts].map(([slug, n]) => (CARDS.cards[slug] ? cardName(slug) : slug) + (n > 1 ? ` ×${n}` : "")).join(", ");
}
/* A whole action (a hint, a locked-in choice) in words: its verb as typed, its argument
   named ("meld Archers, Cavalry", "keep Red 4"). */
function actionText(action) {
  const verb = verbOf(action);
  return action.includes(" ") ? `${verb} ${argText(argOf(action))}` : action;
}

function initPage() {
  const bar = document.querySelector(".topbar");
  bar.insertBefore(helpButton(() => (M ? M.game : "byzantium")), document.getElementById("whoami"));
  const side = document.querySelector(".side");
  if (REPLAY) { side.append(PorphyraMotion.settings()); return; }
  CHAT = chatPanel((text) => send({ type: "chat", text }),
    () => Boolean(M) && (M.seat !== null || Boolean(TABLE && TABLE.spectator_chat)));
  side.append(CHAT, notifySettings(), PorphyraMotion.settings());
  CHAT.refresh();
  connect();
}

Promise.all([I18N.ready, PorphyraCards.ready]).then(initPage);
