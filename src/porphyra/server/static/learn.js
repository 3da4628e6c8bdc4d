/* The tutorial page /learn/GAME: shows the lesson's step, the learner's table and hand,
   and sends each move to the server (POST /api/learn/GAME/step), which checks it against
   the engine and the script.  Plain JavaScript, no build step. */
"use strict";

const LEARN_STRINGS = I18N.table({
  step: N_("Step {0} of {1}"),
  lessonMove: N_("The lesson's move:"),
  cont: N_("Continue"),
  showMe: N_("Show me"),
  clear: N_("Clear"),
  done: N_("Tutorial complete."),
  playEasy: N_("Play a first game against the easy bot"),
  terminal: N_("At the terminal: {0}"),
  right: N_("Right."),
  refused: N_("The rules refuse that move: {0}"),
  turn: N_("Turn {0}/12"),
  emperor: N_("Emperor: {0}"),
  you: N_("you"),
  bot: N_("the easy bot"),
  tt: N_("Territory (TT)"),
  lt: N_("Legacy (LT): you {0}, the bot {1}"),
  melds: N_("Last revealed melds"),
  byzantine: N_("Byzantine"),
  foe: N_("Foe"),
  nothing: N_("nothing"),
  selected: N_("{0} selected"),
  verbs: { redraw: N_("Redraw the selected cards"), meld: N_("Meld the selected cards"), pass: N_("Pass the selected card") },
  unknown: N_("No such tutorial."),
  legacyValue: N_("+{0} LT"),
  pearlMaster: N_("Pearl Master: {0}"),
  noOne: N_("no one"),
  yourChamber: N_("Your chamber"),
  botChamber: N_("The easy bot's chamber"),
  loChamber: N_("The Legendary Opponent's chamber"),
  pearlsKeys: N_("{0} pearls · silver keys {1} · gold keys {2}"),
  piles: N_("Discard piles"),
  faceUp: N_("Face-up Locations"),
  empty: N_("empty"),
  opponent: N_("the Legendary Opponent"),
  moveLabels: {
    draw: N_("Draw {0}"), keep: N_("Keep {0}"), take: N_("Take the {0} pile"), place: N_("Place {0}"),
    loctake: N_("Take the Location: {0}"),
    lopile: N_("The LO takes the {0} pile"), loplace: N_("The LO places {0} next"), locdraw: N_("Draw {0} Locations"), lockeep: N_("Keep the Location: {0}"),
  },
});

const NAME = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
let SCRIPT = null;
let VIEW = null;
let CARDS = {};
let SEEN = 0;
let busy = false;

function cardInfo(slug) { return CARDS[slug] || { name: slug, type: "", force: "", deck: "" }; }

function renderCard(slug, index) {
  const info = cardInfo(slug);
  const name = term(info.name);
  // The card's face as the table draws it (cards.js, issue 29); plain text if it cannot.
  const face = info.deck && typeof PorphyraCards !== "undefined" ? PorphyraCards.byzFace(info, slug, {}) : null;
  const button = el("button", {
    type: "button", class: "card " + (info.deck || "") + (face ? " faced" : ""), "aria-pressed": "false", "data-slug": slug,
    "data-index": String(index), "aria-label": `${name}, ${term(info.type)}, ${info.force}`
      + (info.legacy ? ", " + LEARN_STRINGS.legacyValue(info.legacy) : ""),
  },
  ...(face ? [face] : [
    el("span", { class: "name" }, name),
    el("span", { class: "type" }, term(info.type)),
    info.legacy ? el("span", { class: "legacy" }, LEARN_STRINGS.legacyValue(info.legacy)) : null,
    el("span", { class: "force", "aria-hidden": "true" }, String(info.force))]));
  button.addEventListener("click", () => {
    button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
    updateCount();
  });
  return button;
}

function selectedSlugs() {
  return [...document.querySelectorAll('[data-testid=hand] .card[aria-pressed="true"]')].map((c) => c.dataset.slug);
}

function updateCount() {
  const count = document.getElementById("selcount");
  if (count) count.textContent = LEARN_STRINGS.selected(selectedSlugs().length);
}

/* A Location as people read it: its effect text (a game term) and its IP. */
function locationLabel(slug) {
  const loc = (CARDS.locations || {})[slug];
  if (!loc) return slug;
  return loc.text ? `${term(loc.text)} (${loc.ip} IP)` : `${loc.ip} IP`;
}

function moveLabel(move) {
  const [verb, arg] = move.split(" ");
  const label = LEARN_STRINGS.moveLabels[verb];
  if (!label || arg === undefined) return move;
  const shown = verb.startsWith("loc") && verb !== "locdraw" ? locationLabel(arg) : term(arg);
  return label(shown);
}

function renderConspiracy(board, obs) {
  const seat = obs.seat;
  const who = (i) => (i === seat ? LEARN_STRINGS.you : (obs.legendary_opponent ? LEARN_STRINGS.opponent : LEARN_STRINGS.bot));
  board.append(el("h2", {}, LEARN_STRINGS.turn(obs.turn).replace("/12", "")));
  board.append(el("div", { class: "learn-stats" },
    el("span", {}, LEARN_STRINGS.pearlMaster(obs.pearl_master === null ? LEARN_STRINGS.noOne : who(obs.pearl_master)))));
  obs.players.forEach((player, i) => {
    const lords = (player.chamber || []).filter(Boolean);
    const keys = player.unspent_keys || { silver: 0, gold: 0 };
    board.append(el("h3", {}, i === seat ? LEARN_STRINGS.yourChamber : (obs.legendary_opponent ? LEARN_STRINGS.loChamber : LEARN_STRINGS.botChamber)));
    board.append(el("div", { class: "learn-meld" },
      el("div", { class: "cards" }, lords.length ? lords.map((slot) => el("span", { class: "learn-chip lord-" + String(slot.lord).replace(/\d+$/, "") }, term(slot.lord) + (slot.location ? ` + ${locationLabel(slot.location)}` : ""))) : el("span", { class: "muted" }, LEARN_STRINGS.empty)),
      el("div", { class: "muted" }, LEARN_STRINGS.pearlsKeys(player.pearls || 0, keys.silver || 0, keys.gold || 0))));
  });
  board.append(el("h3", {}, LEARN_STRINGS.piles));
  for (const [colour, pile] of Object.entries(obs.piles || {})) {
    board.append(el("div", { class: "learn-meld" }, el("span", {}, `${term(colour)}: `),
      pile.length ? pile.map((lord) => el("span", { class: "learn-chip" }, term(lord))) : el("span", { class: "muted" }, LEARN_STRINGS.empty)));
  }
  board.append(el("h3", {}, LEARN_STRINGS.faceUp));
  board.append(el("div", { class: "cards learn-meld" }, (obs.face_up_locations || []).length ? obs.face_up_locations.map((slug) => el("span", { class: "learn-chip" }, locationLabel(slug))) : el("span", { class: "muted" }, LEARN_STRINGS.empty)));
}

function renderBoard(obs) {
  const board = document.getElementById("board");
  board.innerHTML = "";
  if (obs && obs.game === "conspiracy") { renderConspiracy(board, obs); return; }
  if (!obs || obs.game !== "byzantium") return;
  const seat = obs.seat;
  const emperor = obs.emperor === seat ? LEARN_STRINGS.you : LEARN_STRINGS.bot;
  board.append(el("h2", {}, `${LEARN_STRINGS.turn(obs.turn)} · ${term(cap(obs.age))}`));
  board.append(el("div", { class: "learn-stats" },
    el("span", {}, LEARN_STRINGS.emperor(emperor)),
    el("span", {}, `${LEARN_STRINGS.tt}: `, el("b", {}, String(obs.territory)), " / 20"),
    el("span", {}, LEARN_STRINGS.lt(obs.legacy[seat], obs.legacy[1 - seat]))));
  const melds = obs.melds || {};
  if ((melds.byzantine || []).length || (melds.foe || []).length) {
    board.append(el("h3", {}, LEARN_STRINGS.melds));
    for (const side of ["byzantine", "foe"]) {
      const cards = melds[side] || [];
      const force = cards.reduce((sum, slug) => sum + Number(cardInfo(slug).force || 0), 0);
      board.append(el("div", { class: "learn-meld" },
        el("span", {}, `${LEARN_STRINGS[side]} = ${force}`),
        el("div", { class: "cards" }, cards.length ? cards.map((slug) => el("span", { class: "learn-chip" }, term(cardInfo(slug).name))) : el("span", { class: "muted" }, LEARN_STRINGS.nothing))));
    }
  }
}

function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

function renderLog(lines) {
  const log = document.getElementById("log");
  log.innerHTML = "";
  lines.forEach((line, i) => log.append(el("li", { class: i >= SEEN ? "new" : "" }, line)));
  SEEN = lines.length;
  log.scrollTop = log.scrollHeight;
}

function renderHand(obs, selectable) {
  const hand = document.querySelector("[data-testid=hand]");
  hand.innerHTML = "";
  (obs && obs.hand ? obs.hand : []).forEach((slug, i) => {
    const card = renderCard(slug, i);
    card.disabled = !selectable;
    hand.append(card);
  });
}

function verbOf(expect) { return expect ? expect.split(" ")[0] : null; }

function render(view) {
  VIEW = view;
  const progress = document.getElementById("progress");
  progress.textContent = view.finished ? LEARN_STRINGS.done : LEARN_STRINGS.step(view.index + 1, view.total);
  progress.dataset.index = String(view.index);
  document.getElementById("lesson").textContent = view.finished ? "" : view.text;
  const expect = document.getElementById("expect");
  expect.classList.toggle("hidden", !view.expect);
  expect.innerHTML = "";
  if (view.expect) expect.append(LEARN_STRINGS.lessonMove, " ", el("code", {}, view.expect));
  renderBoard(view.observation);
  renderLog(view.log || []);
  const verb = verbOf(view.expect);
  renderHand(view.observation, Boolean(verb));
  const actions = document.getElementById("actions");
  actions.innerHTML = "";
  if (view.finished) {
    actions.append(
      el("button", { class: "primary", "data-testid": "play-easy", onclick: playEasy }, LEARN_STRINGS.playEasy),
      el("span", { class: "learn-move" }, LEARN_STRINGS.terminal(SCRIPT.play.command)));
  } else if (!verb) {
    actions.append(el("button", { class: "primary", "data-testid": "continue", onclick: () => send(null) }, LEARN_STRINGS.cont));
  } else if (SCRIPT.game !== "byzantium") {
    for (const move of view.moves || []) {
      actions.append(el("button", { "data-move": move, onclick: () => send(move) }, moveLabel(move)));
    }
    actions.append(el("button", { "data-testid": "show-me", onclick: showMe }, LEARN_STRINGS.showMe));
  } else {
    actions.append(
      el("button", { class: "primary", "data-testid": "submit", onclick: () => send(`${verb} ${selectedSlugs().join(",") || "-"}`) }, LEARN_STRINGS.verbs[verb] || verb),
      el("button", { "data-testid": "show-me", onclick: showMe }, LEARN_STRINGS.showMe),
      el("button", { onclick: () => { for (const c of document.querySelectorAll("[data-testid=hand] .card")) c.setAttribute("aria-pressed", "false"); updateCount(); } }, LEARN_STRINGS.clear),
      el("span", { id: "selcount", class: "learn-move", "aria-live": "polite" }));
    updateCount();
  }
  dockSpace();
  const first = actions.querySelector("button");
  if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
}

/* Brings what "Show me" points at into view (a long hand scrolls sideways, a long list
   of moves down), without an animation when the player asks for reduced motion. */
function reveal(node) {
  if (!node) return;
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  node.scrollIntoView({ block: "nearest", inline: "center", behavior: still ? "auto" : "smooth" });
}

/* Selects the cards of the lesson's move (each card of the hand at most once) and brings
   them into view. */
function showMe() {
  if (SCRIPT.game !== "byzantium") {
    for (const button of document.querySelectorAll("#actions [data-move]")) {
      const right = button.dataset.move === VIEW.expect;
      button.classList.toggle("primary", right);
      if (right) {
        button.focus({ preventScroll: true });
        reveal(button);
      }
    }
    return;
  }
  const wanted = VIEW.expect.split(" ")[1] === "-" ? [] : VIEW.expect.split(" ")[1].split(",");
  const cards = [...document.querySelectorAll("[data-testid=hand] .card")];
  for (const card of cards) card.setAttribute("aria-pressed", "false");
  for (const slug of wanted) {
    const card = cards.find((c) => c.dataset.slug === slug && c.getAttribute("aria-pressed") === "false");
    if (card) card.setAttribute("aria-pressed", "true");
  }
  updateCount();
  reveal(cards.find((c) => c.getAttribute("aria-pressed") === "true") || document.querySelector("[data-testid=submit]"));
}

function feedback(text, good) {
  const box = document.getElementById("feedback");
  box.textContent = text;
  box.classList.toggle("hidden", !text);
  box.classList.toggle("good", Boolean(good));
}

async function send(action) {
  if (busy) return;
  busy = true;
  try {
    const body = await api(`/api/learn/${encodeURIComponent(NAME)}/step`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ step: VIEW.index, action, lang: I18N.lang }),
    });
    if (body.ok) {
      feedback(action ? LEARN_STRINGS.right : "", true);
      render(body.view);
    } else {
      feedback(body.kind === "illegal" ? LEARN_STRINGS.refused(body.message) : body.message, false);
    }
  } catch (e) {
    toast(t(e.message));
  } finally {
    busy = false;
  }
}

async function playEasy() {
  const play = SCRIPT.play;
  const seats = play.seats.map((kind) => (kind === "human" ? { kind: "human" } : { kind: "bot", bot: kind }));
  try {
    const info = await api("/api/games", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: play.game, options: play.options, seats }),
    });
    const invite = info.invites[0];
    rememberToken(info.id, invite.seat, invite.token);
    location.href = invite.url;
  } catch (e) {
    toast(t(e.message));
  }
}

/* Keeps the end of the page above the docked hand. */
function dockSpace() {
  const dock = document.querySelector(".learn-dock");
  document.documentElement.style.setProperty("--dock", `${dock.offsetHeight + 16}px`);
}

async function start() {
  await I18N.ready;
  try {
    SCRIPT = await api(`/api/learn/${encodeURIComponent(NAME)}?lang=${I18N.lang}`);
  } catch (e) {
    document.getElementById("title").textContent = LEARN_STRINGS.unknown;
    return;
  }
  try {
    const data = await api(`/api/cards/${encodeURIComponent(SCRIPT.game)}`);
    CARDS = data.cards || data;  /* Byzantium: {cards: {slug: ...}}; Conspiracy: {lords, locations} */
  } catch (e) { CARDS = {}; }
  document.getElementById("title").textContent = SCRIPT.title;
  document.title = `porphyra — ${SCRIPT.title}`;
  if (typeof PorphyraCards !== "undefined") await PorphyraCards.ready;  // the art's map
  render(SCRIPT.view);
  window.addEventListener("resize", dockSpace);
}

start();
