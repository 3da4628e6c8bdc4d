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

/* ================================================================== Byzantium */
/* An Age of a card's Age strip in words ("early", 初期, 초기), never its letter. */
const AGE_WORDS = { E: "early", M: "middle", L: "late" };
function ageMark(letter) { return term(AGE_WORDS[letter] || letter); }

/* A card's Ages ("all", "early-middle"...) in words of the page's language. */
function agesText(ages) {
  if (ages === "all") return t("all Ages");
  return String(ages).split("-").map(ageMark).join("–");
}

function byzCard(slug, opts) {
  opts = opts || {};
  const c = (CARDS && CARDS.cards[slug]) || { name: slug, type: "?", force: "?", ages: "all", deck: "byzantine" };
  const flags = [];
  if (c.unique) flags.push(t("★ unique"));
  if (c.legacy) flags.push(`+${c.legacy} LT`);
  if (c.natural) flags.push(term("natural"));
  // The face is drawn by cards.js (issue 29); hover, a long press or focus zooms it.
  const node = el("div", {
    class: `card ${c.deck === "foe" ? "foe" : "byz"}${opts.mini ? " mini" : ""}${opts.selectable ? " selectable" : ""}${opts.selected ? " selected" : ""}`,
    "data-slug": slug,
    "data-zoom": "card",
    onclick: opts.onclick || null,
    role: opts.onclick ? "button" : "img",
    tabindex: "0",
    "aria-pressed": opts.onclick ? String(Boolean(opts.selected)) : null,
    "aria-label": cardLabel(c, opts.selected) + (flags.length ? ", " + flags.join(", ") : ""),
  }, PorphyraCards.byzFace(c, slug, opts));
  if (opts.onclick) keyboardClick(node, opts.onclick);
  return node;
}

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

function forceOf(slugs) {
  return slugs.reduce((t, s) => t + ((CARDS.cards[s] || {}).force || 0), 0);
}

function byzRender(obs, board, actions) {
  const me = M.seat;
  const opp = me === null ? null : 1 - me;
  const phaseNames = { redraw: t("Redraw"), meld: t("Meld"), target: t("Negotiation: target"), replace: t("Negotiation: replacement"), pass: t("End: pass a card"), over: t("Game over") };
  const status = el("div", { class: "status" },
    el("span", { class: "big" }, t("Turn {0} / 12", obs.turn)),
    el("span", { class: "badge" }, term(`${obs.age[0].toUpperCase()}${obs.age.slice(1)}`) + (I18N.lang === "en" ? " Age" : "")),
    el("span", { class: "badge" }, phaseNames[obs.phase] || obs.phase),
    el("span", { class: "badge gold" }, t("Emperor: {0}", seatName(obs.emperor))),
    me !== null ? el("span", { class: "badge" + (M.legal.length ? " turn" : "") }, t("You: {0}", obs.role === "byzantine" ? t("Byzantine Emperor") : t("Foe"))) : null);
  board.append(status);

  // Tracks: Territory 0..20 and Legacy.
  const tt = obs.territory;
  const track = el("div", { class: "track", "data-testid": "tt-track" });
  for (let i = 0; i <= 20; i++) {
    track.append(el("span", { class: (i === Math.max(0, tt) ? "mark" : i < tt ? "fill" : "") + (i <= 3 ? " danger" : "") }, String(i)));
  }
  const maxLt = Math.max(20, ...obs.legacy);
  const lt = el("div", { class: "lt", "data-testid": "lt" }, ...obs.legacy.flatMap((v, i) => [
    el("span", {}, seatName(i)), el("div", { class: "bar" }, el("div", { style: `width:${(100 * v) / maxLt}%` })), el("strong", {}, String(v)),
  ]));
  board.append(el("div", { class: "panel section" }, el("h3", {}, t("Territory Tokens: {0} (collapse at 0)", tt)), track,
    el("h3", {}, t("Legacy Tokens")), lt));

  // Opponent / both hands.
  const hands = el("div", { class: "panel section", "data-zone": "opponent" });
  const seatsToShow = me === null ? [0, 1] : [opp];
  for (const s of seatsToShow) {
    const role = s === obs.emperor ? t("Byzantine Emperor") : t("Foe");
    const backs = el("div", { class: "flexwrap" });
    const shown = obs.seat_views && obs.seat_views[s] ? obs.seat_views[s].hand : null;
    if (shown) backs.append(...shown.map((slug) => byzCard(slug, { mini: true })));
    else for (let i = 0; i < obs.hand_sizes[s]; i++) backs.append(el("div", { class: "card back" }, PorphyraCards.back(s === obs.emperor ? "byzantium" : "foe")));
    hands.append(el("h3", {}, shown ? GAME_STRINGS.revealedHand(seatName(s)) : tn("{0} — {1} — {2} card in hand", "{0} — {1} — {2} cards in hand", obs.hand_sizes[s], seatName(s), role, obs.hand_sizes[s])), backs);
  }
  if (me !== null && obs.known_opponent_cards && obs.known_opponent_cards.length) {
    hands.append(el("div", { class: "muted", style: "margin-top:6px" }, t("You know these cards in their hand:")),
      el("div", { class: "flexwrap" }, ...obs.known_opponent_cards.map((s) => byzCard(s, { mini: true }))));
  }
  board.append(hands);

  // Revealed melds and negotiation.
  const melds = el("div", { class: "panel section", "data-testid": "melds" });
  if (obs.melds_turn) {
    melds.append(el("h3", {}, t("Melds revealed in turn {0}", obs.melds_turn)));
    const sides = el("div", { class: "melds" });
    for (const deck of ["byzantine", "foe"]) {
      const cards = obs.melds[deck];
      sides.append(el("div", {}, el("div", {}, deck === "byzantine" ? t("Byzantine meld") + " " : t("Foe meld") + " ", el("span", { class: "total" }, String(forceOf(cards)))),
        el("div", { class: "flexwrap" }, cards.length ? cards.map((s) => byzCard(s, { mini: true })) : el("span", { class: "muted" }, t("empty")))));
    }
    melds.append(sides);
    if (obs.negotiation) {
      const n = obs.negotiation;
      const name = (s) => term((CARDS.cards[s] || { name: s }).name);
      const noTarget = obs.phase === "target" ? t("the Emperor is choosing a target") : t("the Emperor targeted no card");
      melds.append(el("p", {}, t("Negotiation: "), n.target ? t("{0} was discarded from the Foe meld", name(n.target)) : noTarget,
        n.replacement ? t(", replaced by {0}", name(n.replacement)) : (n.target && obs.phase !== "replace" ? t(", not replaced") : "")));
    }
  } else {
    melds.append(el("h3", {}, t("Melds")), el("span", { class: "muted" }, t("No meld revealed yet.")));
  }
  if (obs.redrawn) melds.append(el("p", { class: "muted" }, t("Redrawn this turn: {0}", obs.redrawn.map((n, i) => `${seatName(i)} ${n}`).join(", "))));
  board.append(melds);

  // Own hand and the builder.
  if (me !== null) {
    const legal = M.legal;
    const verb = legal.length ? verbOf(legal[0]) : null;
    const builder = verb === "meld" || verb === "redraw";
    const hand = el("div", { class: "panel section", "data-testid": "hand" });
    hand.append(el("h3", {}, t("Your hand ({0})", obs.hand.length)));
    const row = el("div", { class: "flexwrap" });
    obs.hand.forEach((slug, i) => {
      const card = byzCard(slug, {
        selectable: builder && !busy,
        selected: sel.includes(i),
        onclick: builder ? () => { sel = sel.includes(i) ? sel.filter((x) => x !== i) : [...sel, i]; render(); } : null,
      });
      card.dataset.focusKey = `hand-${i}`;
      row.append(card);
    });
    hand.append(row);
    if (obs.pending_choice) {
      hand.append(el("p", {}, t("Your secret choice: "), el("strong", {}, obs.pending_choice.length ? obs.pending_choice.map((s) => term(CARDS.cards[s].name)).join(", ") : t("none")),
        el("span", { class: "muted" }, t(" — waiting for the other player."))));
    }
    document.getElementById("handslot").append(hand);
  }
  // Decks and discard piles.
  const decks = el("div", { class: "panel section", "data-zone": "decks" });
  decks.append(el("h3", {}, t("Decks and discard piles")));
  for (const deck of ["byzantine", "foe"]) {
    const pile = obs.discards[deck];
    decks.append(el("details", { "data-zone": `discard-${deck}` },
      el("summary", {}, t("{0} deck: {1} to draw · discard pile {2} · {3} set aside for later Ages", deck === "byzantine" ? t("Byzantine") : t("Foe"), obs.deck_sizes[deck], pile.length, obs.set_aside[deck].length)),
      el("div", { class: "flexwrap" }, pile.map((s) => byzCard(s, { mini: true })))));
  }
  if (obs.hidden && obs.hidden.draw_piles) {
    for (const [deck, order] of Object.entries(obs.hidden.draw_piles)) {
      decks.append(el("details", {}, el("summary", {}, GAME_STRINGS.drawOrder(deck === "byzantine" ? t("Byzantine") : t("Foe"))),
        el("div", { class: "flexwrap" }, order.map((s) => byzCard(s, { mini: true })))));
    }
  }
  decks.append(el("details", { "data-zone": "removed" }, el("summary", {}, t("Removed from play: {0}", obs.removed.length)),
    el("div", { class: "flexwrap" }, obs.removed.map((s) => byzCard(s, { mini: true })))));
  board.append(decks);

  byzActions(obs, actions);
}

function byzActions(obs, box) {
  const legal = M.legal;
  if (M.status === "over") { box.append(el("div", { class: "prompt" }, t("The game is over."))); return; }
  if (M.seat === null) { box.append(el("div", { class: "prompt" }, t("Spectating")), el("div", { class: "muted" }, t("{0} is deciding.", seatName(obs.current_player)))); return; }
  if (!legal.length && obs.pending_choice) { box.append(el("div", { class: "prompt" }, t("Choice locked in")), el("div", {}, obs.pending_choice.map(cardName).join(", ") || t("none")), el("div", { class: "muted" }, t("It applies as soon as the other player has chosen; it stays secret until then."))); return; }
  if (!legal.length) {
    box.append(el("div", { class: "prompt" }, t("Waiting")), el("div", { class: "muted" }, t("{0} is deciding…", seatName(obs.current_player))));
    return;
  }
  const verb = verbOf(legal[0]);
  if (obs.phase === "redraw" || obs.phase === "meld" || obs.phase === "pass") box.append(el("div", { class: "muted" }, t("Both players choose now, in any order: your choice stays secret until both have chosen.")));
  if (verb === "meld" || verb === "redraw") {
    const table = new Map();
    for (const a of legal) {
      const arg = argOf(a);
      table.set(arg === "-" ? "" : arg.split(",").sort().join(","), a);
    }
    const chosen = sel.map((i) => obs.hand[i]);
    const key = chosen.slice().sort().join(",");
    const action = table.get(key);
    const b = el("div", { class: "builder" });
    if (verb === "meld") {
      const deck = obs.role === "byzantine" ? "byzantine" : "foe";
      const limits = CARDS.limits[deck];
      const counts = {};
      let natural = 0;
      for (const s of chosen) { const c = CARDS.cards[s]; counts[c.type] = (counts[c.type] || 0) + 1; if (c.natural) natural += 1; }
      b.append(el("div", { class: "prompt" }, t("Build your meld — click cards in your hand")));
      b.append(el("div", { class: "limits", "data-testid": "meld-limits" }, t("Limits: "),
        ...Object.entries(limits).map(([t, n]) => el("span", { class: (counts[t] || 0) > n ? "over" : (counts[t] || 0) === n ? "full" : "" }, `${term(t)} ${counts[t] || 0}/${n}`)),
        deck === "foe" ? el("span", { class: natural > CARDS.max_natural ? "over" : "" }, t("natural disasters {0}/{1}", natural, CARDS.max_natural)) : null));
      b.append(el("div", {}, t("Force of this meld: "), el("span", { class: "total" }, String(forceOf(chosen)))));
      b.append(el("div", { class: "row" },
        el("button", { class: "primary", "data-action": action || null, "data-testid": "commit", disabled: busy || !action, onclick: () => act(action) },
          chosen.length ? tn("Meld {0} card", "Meld {0} cards", chosen.length, chosen.length) : t("Meld nothing")),
        el("button", { class: "small", onclick: () => { sel = []; render(); } }, t("Clear"))));
      if (!action) b.append(el("div", { class: "muted" }, t("Not a legal meld (over a limit).")));
    } else {
      b.append(el("div", { class: "prompt" }, t("Redraw: pick up to {0} cards to discard and replace", CARDS.redraw_limit)));
      b.append(el("div", { class: "row" },
        el("button", { class: "primary", "data-action": action || null, "data-testid": "commit", disabled: busy || !action, onclick: () => act(action) },
          chosen.length ? tn("Redraw {0} card", "Redraw {0} cards", chosen.length, chosen.length) : t("Keep my hand")),
        el("button", { class: "small", onclick: () => { sel = []; render(); } }, t("Clear"))));
      if (!action) b.append(el("div", { class: "muted" }, t("At most {0} cards.", CARDS.redraw_limit)));
    }
    box.append(b);
    return;
  }
  const prompts = {
    target: t("Negotiation: discard one Foe card from the Foe meld?"),
    replace: t("Negotiation: replace the lost card from your hand?"),
    pass: t("End of turn: keep one card and pass it to the other player"),
  };
  box.append(el("div", { class: "prompt" }, prompts[verb] || t("Your decision")));
  const name = (s) => term((CARDS.cards[s] || { name: s }).name);
  for (const a of legal) {
    const arg = argOf(a);
    const label = arg === "-" ? (verb === "target" ? t("Do not target") : t("Do not replace")) : (verb === "pass" ? t("Pass {0}", name(arg)) : verb === "target" ? t("Target {0}", name(arg)) : t("Replace with {0}", name(arg)));
    box.append(actionButton(a, label));
  }
}

/* ================================================================== Conspiracy */
const ROWS = [5, 4, 3, 2, 1];
const KEY_COLOURS = { silver: "#e8e8ee", gold: "#f2c230" };

function keySvg(metal) {
  const c = KEY_COLOURS[metal] || "#ccc";
  return `<svg width="15" height="12" viewBox="0 0 30 24" role="img" aria-label="${metal === "gold" ? t("gold key") : t("silver key")}"><circle cx="8" cy="12" r="6" fill="none" stroke="${c}" stroke-width="3.5"/><path d="M14 12h14M24 12v6M28 12v5" stroke="${c}" stroke-width="3.5" fill="none"/></svg>`;
}
function pearlSvg(size) {
  const s = size || 11;
  // A filled, shaded pearl (an outlined circle read as an unchecked radio button).
  return `<svg width="${s}" height="${s}" viewBox="0 0 12 12" role="img" aria-label="${t("pearl")}"><circle cx="6" cy="6" r="5.5" fill="#c9bfd8"/><circle cx="5.3" cy="5.3" r="4.4" fill="#f4eefa"/><circle cx="4" cy="3.9" r="1.5" fill="#ffffff"/></svg>`;
}

function lordInfo(name) {
  return (CARDS && CARDS.lords[name]) || { colour: name.replace(/\d+$/, ""), ip: Number(name.replace(/^\D+/, "")), key: null, pearls: 0, effect: null };
}

function lordEl(name, opts) {
  opts = opts || {};
  const info = lordInfo(name);
  const icons = el("div", { class: "icons" });
  if (info.key) icons.append(el("span", { html: keySvg(info.key) }));
  for (let i = 0; i < info.pearls; i++) icons.append(el("span", { html: pearlSvg(10) }));
  if (info.effect === "swap") icons.append(el("span", { title: t("swap two lords") }, "⇄"));
  if (info.effect === "reveal") icons.append(el("span", { title: t("reveals the top lord") }, "◉"));
  const symbol = COLOUR_SYMBOLS[info.colour] || "";
  const label = lordLabel(info, symbol) + (opts.crest ? ", " + GAME_STRINGS.crest : "") + (opts.location ? ", " + t("under Location {0}", locationName(opts.location)) : "");
  const node = el("div", {
    class: `lord c-${info.colour}${opts.small ? " small" : ""}${opts.extra ? " " + opts.extra : ""}`,
    "data-lord": name, "data-zoom": "lord", onclick: opts.onclick || null,
    "data-slot": opts.slot ? String(opts.slot) : null,
    role: opts.onclick ? "button" : "img",
    tabindex: opts.onclick ? "0" : null,
    "aria-pressed": opts.onclick ? String((opts.extra || "").includes("picked")) : null,
    "aria-label": label,
  },
  PorphyraCards.lordArt(info.colour),
  el("span", { class: "sym", "aria-hidden": "true" }, symbol),
  opts.crest ? el("span", { class: "crest", title: GAME_STRINGS.crest }, "♛") : null,
  el("div", { class: "ip" }, String(info.ip)), icons,
  opts.location ? el("div", { class: "loc" }, opts.faceDown ? `▼ ${locationName(opts.location)}` : locationName(opts.location)) : null);
  if (opts.onclick) {
    if (opts.slot) node.dataset.focusKey = `slot-${opts.slot}`;
    keyboardClick(node, opts.onclick);
  }
  return node;
}

function locationEl(slug, extra, faceDown) {
  if (slug === FACE_DOWN || faceDown) {
    return el("div", { class: "location facedown", "data-location": slug, "data-zoom": "location", tabindex: "0", role: "img", "aria-label": t("face down: no effect, 5 IP at the end") },
      PorphyraCards.back("location", null, true), el("span", { class: "lip" }, "5"), el("div", { class: "lname" }, locationName(slug)), el("div", {}, t("no effect")), extra || null);
  }
  const info = (CARDS && CARDS.locations[slug]) || { ip: "?", text: "" };
  return el("div", { class: "location", "data-location": slug, "data-zoom": "location", tabindex: "0" },
    PorphyraCards.locationArt(slug, info), el("span", { class: "lip" }, `${info.ip}`), el("div", { class: "lname" }, locationName(slug)), el("div", {}, info.text ? term(info.text) : t("no effect")), extra || null);
}

function crestSlots(chamber) {
  const best = {};
  chamber.forEach((cell, i) => {
    if (!cell) return;
    const info = lordInfo(cell.lord);
    if (!(info.colour in best) || info.ip > best[info.colour][0]) best[info.colour] = [info.ip, i];
  });
  return new Set(Object.values(best).map((v) => v[1]));
}

function pyramidEl(chamber, swapping) {
  const crests = crestSlots(chamber);
  const box = el("div", { class: "pyramid" });
  let slot = 0;
  for (const width of ROWS) {
    const row = el("div", { class: "prow" });
    for (let k = 0; k < width; k++) {
      const cell = chamber[slot];
      const n = slot + 1;
      if (cell) {
        const pick = swapping && swapping.slots.has(n);
        row.append(lordEl(cell.lord, {
          crest: crests.has(slot), location: cell.location, faceDown: cell.face_down, slot: n,
          extra: pick ? (swapSel.includes(n) ? "pickable picked" : "pickable") : "",
          onclick: pick ? () => { swapSel = swapSel.includes(n) ? swapSel.filter((x) => x !== n) : [...swapSel, n].slice(-2); render(); } : null,
        }));
      } else {
        row.append(el("div", { class: "lord empty", "data-slot": String(n), "aria-label": t("empty slot {0}", n) }, String(n)));
      }
      slot += 1;
    }
    box.append(row);
  }
  return box;
}

/* Labels are English msgids, translated when drawn. */
const SCORE_ROWS = [["lords", N_("Best lord per colour")], ["locations", N_("Locations")], ["coalition", N_("Largest coalition ×3")], ["pearl_master", N_("Pearl Master")], ["lo_bonus", N_("LO card bonus")], ["total", N_("Total IP")], ["pearls", N_("Pearls (tie-break)")]];

function scoreTable(obs, scores) {
  const n = scores.length;
  const table = el("table", { class: "scoretable", "data-testid": "scores" },
    el("tr", {}, el("th", {}, ""), ...scores.map((_, i) => el("th", { class: "num" }, seatName(i)))));
  for (const [key, label] of SCORE_ROWS) {
    if (key === "lo_bonus" && !scores.some((s) => s.lo_bonus !== undefined)) continue;
    table.append(el("tr", { class: key === "total" ? "winner" : "" }, el("td", {}, t(label)),
      ...scores.map((s) => el("td", { class: "num" }, String(s[key] !== undefined ? s[key] : "")))));
  }
  return n ? table : el("div", { class: "muted" }, t("no scores"));
}

function consRender(obs, board, actions) {
  const legal = M.legal;
  const byVerb = {};
  for (const a of legal) (byVerb[verbOf(a)] = byVerb[verbOf(a)] || []).push(a);
  const phaseNames = { recruit: t("recruit lords"), keep: t("keep a drawn lord"), place: t("place the next lord"), swap: t("swap two lords (0-IP)"), location: t("take a Location"), lockeep: t("keep a drawn Location"), replay: t("Replay token"), lopile: t("choose the LO's pile"), loplace: t("order the LO's lords"), over: t("game over") };
  const status = el("div", { class: "status" },
    el("span", { class: "big" }, t("Turn {0}", obs.turn)),
    obs.current_player >= 0 ? el("span", { class: "badge turn" }, `${seatName(obs.current_player)}: ${phaseNames[obs.phase] || obs.phase}`) : el("span", { class: "badge" }, t("game over")),
    // C-R7: a restriction binds the seats in its "against" list; in solo that list is
    // empty (the Legendary Opponent is never restricted, rules section 4.2), as the
    // terminal says too.
    obs.restriction && !(obs.restriction.against || []).length ? el("span", { class: "badge" }, `${locationName(obs.restriction.location)} ${t("of {0}: no effect, the LO is never restricted (section 4.2)", seatName(obs.restriction.owner))}`) : null,
    obs.restriction && (obs.restriction.against || []).length ? el("span", { class: "badge gold" }, t("{0}: others draw exactly {1} (until {2}'s turn)", locationName(obs.restriction.location), obs.restriction.count, seatName(obs.restriction.owner))) : null,
    obs.end_triggered ? el("span", { class: "badge gold" }, t("{0} filled the chamber: last round", seatName(obs.end_trigger_player))) : null);
  board.append(status);

  // The court: decks, face-up Locations, what is being drawn or placed.
  const court = el("div", { class: "panel section" });
  const lordDeck = el("div", { class: "deckbox", "data-testid": "lord-deck" }, PorphyraCards.back("lord", "deck-back"), el("div", { class: "muted" }, t("Lord deck")), el("div", { class: "count" }, String(obs.lord_deck_size)),
    el("div", {}, ...(byVerb.draw || []).map((a) => actionButton(a, t("Draw {0}", argOf(a))))));
  const locDeck = el("div", { class: "deckbox", "data-zone": "location-deck" }, PorphyraCards.back("location", "deck-back"), el("div", { class: "muted" }, t("Location deck")), el("div", { class: "count" }, String(obs.location_deck_size)),
    el("div", {}, ...(byVerb.locdraw || []).map((a) => actionButton(a, t("Draw {0}", argOf(a))))));
  const loctake = new Set((byVerb.loctake || []).map(argOf));
  const faceUp = el("div", { class: "flexwrap" }, ...obs.face_up_locations.map((slug) =>
    locationEl(slug, loctake.has(slug) ? el("div", { style: "margin-top:4px" }, actionButton(`loctake ${slug}`, t("Take"))) : null)));
  court.append(el("div", { class: "flexwrap" }, lordDeck, locDeck,
    el("div", {}, el("h3", {}, t("Face-up Locations ({0})", obs.face_up_locations.length)), obs.face_up_locations.length ? faceUp : el("span", { class: "muted" }, t("none")))));
  const pm = obs.pearl_master;
  court.append(el("div", { style: "margin-top:8px", "data-testid": "pearl-master" }, el("span", { class: "pm", html: pearlSvg(14) }), " " + t("Pearl Master: "),
    el("strong", {}, pm === null ? t("nobody yet") : seatName(pm))));

  const pending = el("div", { class: "flexwrap", style: "margin-top:8px" });
  if (obs.drawn_lords.length) {
    const keep = new Set((byVerb.keep || []).map(argOf));
    pending.append(el("div", {}, el("h3", {}, t("Drawn lords — keep one")), el("div", { class: "flexwrap" },
      ...obs.drawn_lords.map((l) => el("div", {}, lordEl(l), keep.has(l) ? actionButton(`keep ${l}`, t("Keep")) : null)))));
  }
  if (obs.to_place.length) {
    const place = new Set((byVerb.place || []).map(argOf));
    pending.append(el("div", {}, el("h3", {}, t("Lords to place, in the order you choose")), el("div", { class: "flexwrap" },
      ...obs.to_place.map((l) => el("div", {}, lordEl(l), place.has(l) ? actionButton(`place ${l}`, t("Place")) : null)))));
  }
  if (obs.drawn_locations.length) {
    pending.append(el("div", {}, el("h3", {}, t("Drawn Locations — keep one")), el("div", { class: "flexwrap" },
      ...obs.drawn_locations.map((s) => locationEl(s, (byVerb.lockeep || []).includes(`lockeep ${s}`) ? actionButton(`lockeep ${s}`, t("Keep")) : null)))));
  }
  if (obs.location_deck) {  // the whole deck: on the table, its buttons in the decision too
    court.append(el("div", {}, el("h3", {}, t("Deck search: choose any Location")), el("div", { class: "flexwrap" },
      ...obs.location_deck.map((s) => locationEl(s, (byVerb.locpick || []).includes(`locpick ${s}`) ? actionButton(`locpick ${s}`, t("Take")) : null)))));
  }
  if (pending.childNodes.length) document.getElementById("handslot").append(el("div", { class: "panel pending", "data-zone": "pending" }, pending));
  if (obs.hidden && obs.hidden.lord_deck) {
    court.append(el("details", {}, el("summary", {}, GAME_STRINGS.drawOrder(t("Lord"))),
      el("div", { class: "flexwrap" }, ...obs.hidden.lord_deck.map((l) => lordEl(l, { small: true })))));
  }
  board.append(court);

  // Discard piles.
  const take = new Set((byVerb.take || []).map(argOf));
  const piles = el("div", { class: "piles" });
  for (const colour of CARDS.colours) {
    const pile = obs.piles[colour] || [];
    piles.append(el("div", { class: "pile", "data-pile": colour },
      el("h4", {}, el("span", {}, el("span", { class: `sym-chip c-${colour}`, "aria-hidden": "true" }, COLOUR_SYMBOLS[colour] || ""), ` ${term(colour)} (${pile.length})`),
        take.has(colour) ? actionButton(`take ${colour}`, t("Take all")) : null),
      el("div", { class: "stack" }, ...pile.map((l) => lordEl(l, { small: true })))));
  }
  board.append(el("div", { class: "panel section" }, el("h3", {}, t("Discard piles")), piles));

  // Chambers.
  const scores = (M.derived && M.derived.scores) || [];
  const swapActions = byVerb.swap || [];
  let swapping = null;
  if (swapActions.length > 1) {
    const slots = new Set();
    for (const a of swapActions) { const [i, j] = argOf(a).split(" ").map(Number); if (j) { slots.add(i); slots.add(j); } }
    swapping = { slots };
  }
  const players = el("div", { class: "players" });
  obs.players.forEach((p, i) => {
    const keys = p.unspent_keys || { silver: 0, gold: 0 };
    const head = el("div", { class: "row", style: "justify-content:space-between" },
      el("strong", {}, seatName(i)),
      el("span", {},
        el("span", { html: pearlSvg(13) }), " ", el("span", { "data-count": `pearls-${i}` }, String(p.pearls)), " ",
        pm === i ? el("span", { class: "badge gold" }, t("Pearl Master +5")) : null,
        el("span", { class: "badge", title: t("unspent keys") }, el("span", { html: keySvg("silver") }), " ", el("span", { "data-count": `silver-${i}` }, String(keys.silver)), " ", el("span", { html: keySvg("gold") }), " ", el("span", { "data-count": `gold-${i}` }, String(keys.gold))),
        scores[i] ? el("span", { class: "badge" }, t("{0} IP", scores[i].total)) : null));
    const locs = el("div", { class: "flexwrap" }, ...p.locations.map((s) => locationEl(s, null, p.legendary_opponent)));
    // While this player swaps, the chamber to click is in the dock with the confirm button.
    const into = i === M.seat && swapping ? document.getElementById("handslot") : players;
    into.append(el("div", { class: "panel player" + (obs.current_player === i ? " current" : "") + (i === M.seat ? " mine" : ""), "data-player": String(i) },
      head, pyramidEl(p.chamber, i === M.seat ? swapping : null),
      p.any_keys ? el("span", { class: "badge" }, term("any 2 keys take a Location")) : null,
      p.deck_search ? el("span", { class: "badge" }, t("deck search")) : null,
      p.legendary_opponent ? el("span", { class: "badge gold" }, t("Legendary Opponent")) : null,
      i === M.seat && obs.replay_token ? el("span", { class: "badge gold", title: t("spend it at the end of a turn to play again") }, PorphyraCards.token("replay"), t("Replay token")) : null,
      i === M.seat && obs.forced_draw_one ? el("span", { class: "badge" }, t("Military: you must draw exactly 1")) : null,
      p.locations.length ? el("div", { class: "player-locations" }, el("h3", { style: "margin-top:6px" }, t("Locations")), locs) : null));
  });
  board.append(players);
  if (obs.legendary_opponent) board.insertBefore(loCard(obs.legendary_opponent, obs.lo_choice), board.children[1] || null);
  board.append(el("div", { class: "panel section", style: "margin-top:12px" }, el("h3", {}, M.status === "over" ? t("Final scores") : t("Score if the game ended now")), scoreTable(obs, scores)));

  consActions(obs, actions, byVerb, swapping);
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

function loCard(lo, choice) {
  const box = el("div", { class: "lo-card section", "data-testid": "lo-card" }, el("h3", {}, t("Legendary Opponent")));
  if (typeof lo !== "object" || lo === null) { box.append(el("div", {}, String(lo))); return box; }
  box.append(el("div", { class: "big lo-head" }, PorphyraCards.loPortrait(lo), el("strong", {}, term(lo.title || lo.name))));
  const conds = lo.conditions || [];
  box.append(el("div", {}, GAME_STRINGS.loTakes),
    el("ol", { class: "lo-conditions", "data-testid": "lo-conditions" }, ...conds.map((c) => el("li", {},
      el("strong", {}, helpCondition(c.name || c, c.text)), el("span", { class: "muted" }, ` (${c.name || c})`)))),
    el("div", { class: "muted" }, GAME_STRINGS.loTie));
  if (lo.bonus) box.append(el("div", {}, el("strong", {}, t("End bonus: ")), term(String(lo.bonus))));
  if (lo.ability) box.append(el("div", {}, el("strong", {}, t("Ability: ")), term(String(lo.ability))));
  if (choice) {
    // The pending pile choice (lopile) in words: its piles' colours and its reason.
    const words = typeof choice === "object"
      ? t("The LO takes one of: {0}", (choice.piles || []).map((c) => term(c)).join(", ")) + " " + t("({0}); you choose.", term(String(choice.reason || "")))
      : String(choice);
    box.append(el("div", { class: "muted", style: "margin-top:4px" }, t("Pending: "), words));
  }
  return box;
}

function consActions(obs, box, byVerb, swapping) {
  const legal = M.legal;
  if (M.status === "over") { box.append(el("div", { class: "prompt" }, t("The game is over."))); return; }
  if (M.seat === null) { box.append(el("div", { class: "prompt" }, t("Spectating")), el("div", { class: "muted" }, obs.current_player >= 0 ? t("{0} is deciding.", seatName(obs.current_player)) : "")); return; }
  if (!legal.length) { box.append(el("div", { class: "prompt" }, t("Waiting")), el("div", { class: "muted" }, t("{0} is deciding…", seatName(obs.current_player)))); return; }
  const prompts = {
    recruit: t("Recruit: draw 1-3 lords and keep one, or take a whole discard pile"),
    keep: t("Keep one of the drawn lords"), place: t("Place the next lord"), swap: t("You may swap two keyless lords"),
    location: t("Your keys win a Location: draw 1-3 or take a face-up one"), lockeep: t("Keep one drawn Location"),
    replay: t("Spend your Replay token to play another turn now?"),
    lopile: t("Several piles qualify: choose the pile the Legendary Opponent takes"),
    loplace: t("Choose the next lord the Legendary Opponent places"),
  };
  box.append(el("div", { class: "prompt" }, prompts[obs.phase] || t("Your decision")));
  const labels = { draw: t("Draw"), take: t("Take pile"), keep: t("Keep"), place: t("Place"), locdraw: t("Draw Locations:"), loctake: t("Take"), lockeep: t("Keep"), locpick: t("Take"), lopile: t("LO takes the pile"), loplace: t("LO places") };
  for (const [verb, list] of Object.entries(byVerb)) {
    if (verb === "swap" && swapping) continue;
    for (const a of list) {
      // The argument is notation (a lord such as red4, a colour, a Location): each reads
      // by its name in the page's language.
      const arg = argOf(a);
      let label = labels[verb] ? `${labels[verb]} ${argText(arg)}` : actionText(a);
      if (verb === "swap") label = t("Do not swap");
      if (verb === "replay") label = a === "replay" ? t("Play again (spend the token)") : t("Keep the token");
      box.append(actionButton(a, label));
    }
  }
  if (swapping) {
    const [a, b] = swapSel.slice().sort((x, y) => x - y);
    const action = a && b ? `swap ${a} ${b}` : null;
    const ok = action && byVerb.swap.includes(action);
    box.append(el("div", { class: "builder" },
      el("div", {}, t("Click two highlighted lords of your chamber (keyless, uncovered) to swap them.")),
      el("div", { class: "row" },
        el("button", { class: "primary", "data-action": ok ? action : null, disabled: busy || !ok, onclick: () => act(action) }, ok ? t("Swap slots {0} and {1}", a, b) : t("Swap")),
        actionButton("swap -", t("Do not swap")))));
  }
}

/* The page's fixed parts: the rules button, then (not in the replay viewer) the chat and
   the alerts, and the connection. */
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
