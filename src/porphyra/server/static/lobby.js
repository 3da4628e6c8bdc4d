/* Lobby: create a game (seats human or bot), invite links, saved games. */
"use strict";

let META = null;
// What each game button of the lobby creates: the game, option values it fixes, and
// choices it leaves to another button (Conspiracy's 1 player is the Solo button).
const PRESETS = {
  byzantium: { game: "byzantium", fixed: {}, exclude: {} },
  conspiracy: { game: "conspiracy", fixed: {}, exclude: { players: [1] } },
  solo: { game: "conspiracy", fixed: { players: 1 }, exclude: {} },
};

function selectedGame() {
  return document.querySelector("input[name=game]:checked").value;
}

function preset() {
  return PRESETS[selectedGame()];
}

// The game's options as it declares them (name, type, default, choices, labels, help).
function declaredOptions() {
  const game = META && META.games[preset().game];
  return game ? game.options : [];
}

// Current option values: the form's controls, else the preset's fixed values, else the
// declared defaults.
function optionValues() {
  const values = {};
  for (const opt of declaredOptions()) {
    const node = document.getElementById("opt-" + opt.name);
    if (opt.name in preset().fixed) values[opt.name] = preset().fixed[opt.name];
    else if (node && opt.type === "bool" && !opt.choices.length) values[opt.name] = node.checked;
    else if (node) values[opt.name] = opt.choices.find((c) => String(c) === node.value);
    else values[opt.name] = opt.default;
  }
  return values;
}

function seatCount() {
  const values = optionValues();
  if (typeof values.players === "number") return values.players;
  const game = META && META.games[preset().game];
  return game ? game.min_players : 2;
}

// Whether an option applies with these values (its declared "requires").
function applies(opt, values) {
  return Object.entries(opt.requires).every(([name, wanted]) => values[name] === wanted);
}

function optionControl(opt, value, seats) {
  const id = "opt-" + opt.name;
  if (opt.type === "bool" && !opt.choices.length) {
    return el("label", { title: t(opt.help) },
      el("input", { type: "checkbox", id, checked: value === true }), " " + t(opt.label));
  }
  const excluded = preset().exclude[opt.name] || [];
  const select = el("select", { id, title: t(opt.help), onchange: renderOptions });
  opt.choices.forEach((choice, i) => {
    if (excluded.includes(choice)) return;
    if (opt.seat && typeof choice === "number" && choice >= seats) return;
    select.append(el("option", { value: String(choice), selected: choice === value },
      t(String(opt.choice_labels[i]))));
  });
  return select;
}

// The option form, built from the game's declared options (GET /api/meta).
function renderOptions() {
  const values = optionValues();
  const box = document.getElementById("options");
  box.innerHTML = "";
  const seats = typeof values.players === "number" ? values.players : seatCount();
  for (const opt of declaredOptions()) {
    if (opt.name in preset().fixed || !applies(opt, values)) continue;
    box.append(el("div", { class: "row" },
      el("label", { for: opt.type === "bool" && !opt.choices.length ? null : "opt-" + opt.name }, opt.type === "bool" ? t("Variant") : t(opt.label)),
      optionControl(opt, values[opt.name], seats)));
  }
  renderSeats();
}

// The seat menus' bot texts: the chosen game's own where a level plays otherwise there,
// else the common ones (GET /api/meta).
function botTexts() {
  const game = META && META.games[preset().game];
  return Object.assign({}, META ? META.bot_text : {}, game && game.bot_text ? game.bot_text : {});
}

function renderSeats() {
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll(".seatrow")].map((row) => ({
    name: row.querySelector("input").value, kind: row.querySelector("select").value,
  }));
  box.innerHTML = "";
  const bots = META ? META.bots : ["easy", "medium", "hard", "random"];
  const texts = botTexts();
  for (let i = 0; i < seatCount(); i++) {
    const prev = old[i] || { name: "", kind: i === 0 ? "human" : "easy" };
    const kind = el("select", { "data-seat": String(i) },
      el("option", { value: "human" }, t("Human")),
      ...(i === 0 ? [] : [el("option", { value: "open" }, t("Open seat (anyone signed in)")),
        el("option", { value: "invite" }, t("Invite a player (their user name as the name)"))]),
      ...bots.map((b) => el("option", { value: "bot:" + b }, t("Bot — {0}", texts[b] ? t(texts[b]) : term(b)))));
    kind.value = ["human", "open", "invite"].includes(prev.kind) ? prev.kind : (prev.kind.startsWith("bot:") ? prev.kind : "bot:" + prev.kind);
    if (!kind.value) kind.value = "bot:easy";
    kind.setAttribute("aria-label", t("Seat {0}: who plays", i + 1));
    box.append(el("div", { class: "row seatrow" },
      el("label", {}, t("Seat {0}", i + 1)),
      el("input", { type: "text", placeholder: t("name"), value: prev.name, maxlength: "40", "aria-label": t("Seat {0}: name", i + 1) }),
      kind));
  }
  if (selectedGame() === "solo") {
    box.append(el("div", { class: "muted" }, t("The Legendary Opponent is played by the rules engine.")));
  }
}

function collectRequest() {
  const values = optionValues();
  const options = {};
  for (const opt of declaredOptions()) {
    if (opt.name in preset().fixed || applies(opt, values)) options[opt.name] = values[opt.name];
  }
  const seats = [...document.querySelectorAll("#seats .seatrow")].map((row) => {
    const kind = row.querySelector("select").value;
    const name = row.querySelector("input").value.trim() || null;
    if (kind === "open") return { kind };
    return ["human", "invite"].includes(kind) ? { kind, name } : { kind: "bot", bot: kind.slice(4), name };
  });
  const body = { game: preset().game, options, seats, ...PorphyraClock.request(), table: {
    hints: document.getElementById("opt-hints").checked,
    spectator_chat: document.getElementById("opt-spectator-chat").checked,
  } };
  if (document.getElementById("opt-rated").checked) body.rated = true;
  const seed = document.getElementById("seed").value.trim();
  if (seed) body.seed = seed;  // as typed: see requestText
  return body;
}

// The create request's JSON text. The seed goes as a JSON integer written from its digits
// (seeds may exceed JavaScript's exact integers, and the server takes integers only); what
// is not digits goes as text, which the server refuses with its reason.
function requestText(body) {
  const { seed, ...rest } = body;
  const text = JSON.stringify(rest);
  if (seed === undefined) return text;
  const literal = /^[0-9]+$/.test(seed) ? seed.replace(/^0+(?=[0-9])/, "") : JSON.stringify(seed);
  return `${text.slice(0, -1)},"seed":${literal}}`;
}

async function createGame() {
  const err = document.getElementById("createerr");
  err.textContent = "";
  let info;
  try {
    info = await api("/api/games", {
      method: "POST", headers: { "content-type": "application/json" },
      body: requestText(collectRequest()),
    });
  } catch (e) {
    err.textContent = t(e.message);
    return;
  }
  const box = document.getElementById("created");
  box.classList.remove("hidden");
  box.innerHTML = "";
  box.append(el("h3", { style: "margin-top:14px" }, t("Game created — links")));
  const origin = location.origin;
  for (const inv of info.invites) {
    rememberToken(info.id, inv.seat, inv.token);
    const seat = info.seats[inv.seat];
    const url = origin + inv.url;
    const input = el("input", { type: "text", readonly: true, value: url, "aria-label": t("Invite link for seat {0}", inv.seat + 1) });
    box.append(el("div", { class: "section" },
      el("div", {}, t("Invite for seat {0} ({1}) — keep it secret, it opens that seat:", inv.seat + 1, shownName(seat.name))),
      input,
      el("div", { class: "row" },
        el("button", { class: "small", onclick: () => copy(url) }, t("Copy")),
        el("a", { class: "button small primary", href: inv.url, "data-testid": `play-seat-${inv.seat}` }, t("Play as {0}", shownName(seat.name))))));
  }
  if (info.seats.some((s) => s.open)) {
    box.append(el("div", { class: "section muted" }, t("The game starts once every open seat is taken (see Open tables).")));
    if (typeof loadTables === "function") loadTables();
  }
  const spect = origin + info.spectate_url;
  box.append(el("div", { class: "section" }, el("div", {}, t("Spectator link (public view only):")),
    el("input", { type: "text", readonly: true, value: spect, "aria-label": t("Spectator link") }),
    el("div", { class: "row" }, el("button", { class: "small", onclick: () => copy(spect) }, t("Copy")),
      el("a", { class: "button small", href: info.spectate_url, "data-testid": "spectate" }, t("Watch")))));
  loadGames();
}

function copy(text) {
  if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => toast(t("Copied"), "info"));
}

function describeOptions(row) {
  const o = row.options || {};
  if (row.game === "conspiracy") {
    if (o.players === 1) return t("solo vs {0}", o.opponent ? term(o.opponent) : t("LO"));
    return t("{0} players", o.players || 2) + (o.bonus_locations ? t(", bonus Locations") : "");
  }
  return o.reveal_first_draws ? t("reveal first draws") : "";
}

async function loadGames() {
  let rows = [];
  try { rows = await api("/api/games"); } catch (e) { toast(t(e.message)); return; }
  const tokens = knownTokens();
  const body = document.querySelector("#games tbody");
  body.innerHTML = "";
  if (!rows.length) body.append(el("tr", {}, el("td", { colspan: "6", class: "muted" }, t("No games yet."))));
  for (const row of rows) {
    const mine = tokens[row.id] || {};
    const buttons = el("div", { class: "row" });
    for (const [seat, token] of Object.entries(mine)) {
      const s = row.seats[Number(seat)];
      const who = s ? shownName(s.name) : t("Seat {0}", Number(seat) + 1);
      buttons.append(el("a", { class: "button small primary", href: `/game/${row.id}#token=${token}` },
        row.status === "over" ? t("Open as {0}", who) : t("Play as {0}", who)));
    }
    buttons.append(el("a", { class: "button small", href: `/game/${row.id}` }, t("Watch")));
    if (row.status === "over") buttons.append(el("a", { class: "button small", href: `/replay/${row.id}?view=public` }, t("Replay")));
    let status = row.status === "over" ? t("finished") : row.status === "broken" ? t("cannot be replayed: {0}", t(row.problem)) : t("in play");
    if (row.status === "over" && row.result && row.result.returns) {
      const best = Math.max(...row.result.returns);
      const winners = row.result.returns.map((r, i) => r === best ? i : -1).filter((i) => i >= 0);
      status = row.result.returns.every((r) => r === 0) ? t("draw / shared") : t("won by {0}", winners.map((i) => shownName((row.seats[i] || {}).name) || t("Seat {0}", i + 1)).join(", "));
    }
    const deal = row.deal === "secret" ? null : el("span", { class: "badge warn", "data-deal": row.deal },
      row.deal === "chosen" ? t("chosen seed · unrated") : t("weak seed · unrated"));
    body.append(el("tr", {},
      el("td", {}, el("strong", {}, row.game === "byzantium" ? t("Byzantium") : t("Conspiracy")), el("div", { class: "muted" }, describeOptions(row)), deal),
      el("td", {}, ...row.seats.map((s) => el("div", {},
        el("span", { class: "dot" + (s.connected ? " on" : "") }), shownName(s.name),
        el("span", { class: "muted" }, s.kind === "bot" ? ` (${term(s.bot)})` : "")))),
      el("td", {}, status), el("td", {}, String(row.actions)), el("td", {}, ago(row.updated)),
      el("td", {}, buttons)));
  }
}

async function init() {
  try { META = await api("/api/meta"); } catch (e) { toast(t(e.message)); }
  const solo = document.getElementById("sololabel");
  if (!META || !META.solo) {
    solo.classList.add("disabled");
    solo.querySelector("input").disabled = true;
    solo.title = t("The solo mode is not available in this version of the rules engine yet.");
    solo.querySelector(".muted").textContent = t("coming soon");
  }
  for (const radio of document.querySelectorAll("input[name=game]")) radio.addEventListener("change", renderOptions);
  document.getElementById("createbtn").addEventListener("click", createGame);
  document.getElementById("refresh").addEventListener("click", () => { loadGames(); PorphyraClock.yourGames(); });
  PorphyraClock.lobbyForm(META ? META.bots : null, META ? META.bot_text : null);
  renderOptions();
  loadGames();
  PorphyraClock.yourGames();
}

I18N.ready.then(init);
