/* Clocks (issue 15): every seat's remaining time on the game page, leaving and taking a
   seat back, the clock choice of the lobby's form, and the lobby's "your games" list.
   The server is the only timekeeper: this page only counts down from the last
   `remaining_s` it received while that clock runs.  Plain JavaScript, no build step; the
   pages call PorphyraClock.* from small hooks. */
"use strict";

/* Every visible string of this module (one place, read in the page's language: I18N.table). */
const CLOCK_TEXT = I18N.table({
  panelTitle: N_("Clocks"),
  noClock: N_("no clock"),
  realtime: N_("real time: {0} + {1} a move"),
  turn: N_("turn-based: {0} a move"),
  timeoutBot: N_("out of time: the {0} bot moves"),
  takeoverAfter: N_(", and plays the seat after {0} timeouts"),
  running: N_("running"),
  timeouts: N_("timeouts: {0}"),
  botPlaysLeft: N_("left: a bot plays"),
  botPlaysTimeouts: N_("out of time: a bot plays"),
  leave: N_("Leave: let a bot play for me"),
  leaveConfirm: N_("A bot will play your seat until you take it back. Leave?"),
  takeBack: N_("Take my seat back"),
  youAreBack: N_("Your seat is yours again."),
  // lobby form
  clockLabel: N_("Clock"),
  kinds: { none: N_("none (casual)"), realtime: N_("real time"), turn: N_("turn-based") },
  baseLabel: N_("minutes each"),
  incrementLabel: N_("+ seconds a move"),
  perMoveLabel: N_("hours a move"),
  timeoutBotLabel: N_("Out of time"),
  timeoutBotOption: N_("the {0} bot moves"),
  takeoverLabel: N_("Bot takes the seat after"),
  takeoverSuffix: N_("timeouts (0: never)"),
  // lobby "your games"
  yourGames: N_("Your games"),
  yourTurn: N_("your turn"),
  waiting: N_("waiting"),
  finished: N_("finished"),
  open: N_("Open"),
  timeLeft: N_("{0} left"),
});

function fmtDuration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s >= 86400 && s % 86400 === 0) return t("{0} d", s / 86400);
  if (s >= 3600 && s % 3600 === 0) return t("{0} h", s / 3600);
  if (s >= 60 && s % 60 === 0) return t("{0} min", s / 60);
  if (s >= 60) return t("{0} min {1} s", Math.floor(s / 60), s % 60);
  return t("{0} s", s);
}

/* A countdown: h:mm:ss, m:ss, or days and hours for long turn clocks. */
function fmtClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return t("{0} d {1} h", Math.floor(s / 86400), Math.floor((s % 86400) / 3600));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, "0") : String(m);
  return (h ? `${h}:` : "") + `${mm}:${String(sec).padStart(2, "0")}`;
}

function describeClock(c) {
  if (!c) return CLOCK_TEXT.noClock;
  let text = c.kind === "realtime" ? CLOCK_TEXT.realtime(fmtDuration(c.base_s), fmtDuration(c.increment_s))
    : c.kind === "turn" ? CLOCK_TEXT.turn(fmtDuration(c.per_move_s)) : CLOCK_TEXT.noClock;
  if (c.kind === "none") return text;  // no time runs out, so no timeout bot and no takeover by timeouts
  text += " · " + CLOCK_TEXT.timeoutBot(term(String(c.timeout_bot)));
  if (c.takeover_after) text += CLOCK_TEXT.takeoverAfter(c.takeover_after);
  return text;
}

const PorphyraClock = (() => {
  let clock = null;      // the last `clock` block received
  let receivedAt = 0;    // performance.now() when it came
  let mySeat = null;
  let ticker = null;
  let opened = false;    // this page load had its first snapshot (later ones: reconnects)

  function left(s) {
    if (s.remaining_s === null || s.remaining_s === undefined) return null;
    if (!s.running) return s.remaining_s;
    return Math.max(0, s.remaining_s - (performance.now() - receivedAt) / 1000);
  }

  /* Game page hook: every snapshot/update carries `clock`. */
  function update(msg, sendMessage) {
    if (!msg.clock) return;
    clock = msg.clock;
    receivedAt = performance.now();
    mySeat = msg.seat;
    const mine = mySeat === null || mySeat === undefined ? null : clock.seats[mySeat];
    // Opening the page is coming back: a seat a bot plays is given back at once (not on a
    // reconnect of a page that stayed open, e.g. after pressing Leave).
    if (msg.type === "snapshot" && !opened) {
      opened = true;
      if (mine && mine.takeover) sendMessage({ type: "return" });
    }
    render(sendMessage);
    if (!ticker) ticker = setInterval(tick, 250);
  }

  function tick() {
    if (!clock) return;
    clock.seats.forEach((s, i) => {
      const node = document.querySelector(`[data-testid=clock-${i}]`);
      const t = left(s);
      if (node && t !== null) node.textContent = fmtClock(t);
    });
  }

  function render(sendMessage) {
    const panel = document.getElementById("clock-panel");
    if (!panel || !clock) return;
    const named = typeof seatName === "function" ? seatName : (i) => t("Seat {0}", i + 1);
    panel.classList.remove("hidden");
    panel.innerHTML = "";
    panel.append(el("h3", {}, CLOCK_TEXT.panelTitle),
      el("div", { class: "muted", "data-testid": "clock-kind" }, describeClock(clock)));
    clock.seats.forEach((s, i) => {
      const t = left(s);
      const badges = [];
      if (s.running) badges.push(el("span", { class: "badge turn" }, CLOCK_TEXT.running));
      if (s.takeover) badges.push(el("span", { class: "badge warn", "data-testid": `takeover-${i}` },
        s.takeover === "left" ? CLOCK_TEXT.botPlaysLeft : CLOCK_TEXT.botPlaysTimeouts));
      if (s.timeouts) badges.push(el("span", { class: "badge" }, CLOCK_TEXT.timeouts(s.timeouts)));
      panel.append(el("div", { class: "clockrow" + (s.running ? " running" : "") },
        el("span", {}, named(i)),
        t === null ? null : el("strong", { class: "clocktime", "data-testid": `clock-${i}` }, fmtClock(t)),
        ...badges));
    });
    const mine = mySeat === null || mySeat === undefined ? null : clock.seats[mySeat];
    if (mine && document.body.dataset.status !== "over") {
      panel.append(el("div", { class: "row" }, mine.takeover
        ? el("button", { class: "small primary", "data-testid": "take-back", onclick: () => sendMessage({ type: "return" }) }, CLOCK_TEXT.takeBack)
        : el("button", { class: "small", "data-testid": "leave", onclick: () => { if (confirm(CLOCK_TEXT.leaveConfirm)) sendMessage({ type: "leave" }); } }, CLOCK_TEXT.leave)));
    }
  }

  /* ------------------------------------------------------------ lobby */
  /* bots: the lobby's bot names; texts: {name: "Easy: plays by ..."} (the seat menus'
     words, catalogued): the out-of-time menu names each bot as the seat menus do. */
  function lobbyForm(bots, texts) {
    const shortName = (b) => (texts && texts[b] ? t(texts[b]).split(/[:：]/)[0].trim() : b);
    const box = document.getElementById("clockform");
    if (!box) return;
    const kind = el("select", { id: "clock-kind", onchange: () => showFields() },
      ...Object.entries(CLOCK_TEXT.kinds).map(([k, label]) => el("option", { value: k }, label)));
    // Each number field is named by the words beside it (aria-label: they sit after it).
    const num = (id, value, min, label) => el("input", { type: "number", id, value: String(value), min: String(min), step: "1", class: "num", "aria-label": label });
    const real = el("span", { id: "clock-realtime-fields", class: "hidden" },
      num("clock-base-min", 5, 1, CLOCK_TEXT.baseLabel), " " + CLOCK_TEXT.baseLabel + " ",
      num("clock-inc-s", 10, 0, CLOCK_TEXT.incrementLabel), " " + CLOCK_TEXT.incrementLabel);
    const turn = el("span", { id: "clock-turn-fields", class: "hidden" },
      num("clock-per-move-h", 24, 1, CLOCK_TEXT.perMoveLabel), " " + CLOCK_TEXT.perMoveLabel);
    const bot = el("select", { id: "clock-timeout-bot" },
      ...(bots || ["easy"]).map((b) => el("option", { value: b, selected: b === "easy" }, CLOCK_TEXT.timeoutBotOption(shortName(b)))));
    const takeover = CLOCK_TEXT.takeoverLabel + " … " + CLOCK_TEXT.takeoverSuffix;
    box.append(
      el("div", { class: "row" }, el("label", { for: "clock-kind" }, CLOCK_TEXT.clockLabel), kind, real, turn),
      el("div", { class: "row" }, el("label", { for: "clock-timeout-bot" }, CLOCK_TEXT.timeoutBotLabel), bot,
        el("span", { class: "muted" }, CLOCK_TEXT.takeoverLabel), num("clock-takeover", 3, 0, takeover),
        el("span", { class: "muted" }, CLOCK_TEXT.takeoverSuffix)));
    function showFields() {
      real.classList.toggle("hidden", kind.value !== "realtime");
      turn.classList.toggle("hidden", kind.value !== "turn");
    }
  }

  /* The create request's clock fields (POST /api/games). */
  function request() {
    const kind = document.getElementById("clock-kind");
    if (!kind) return {};
    const int = (id) => Math.round(Number(document.getElementById(id).value));
    const out = { timeout_bot: document.getElementById("clock-timeout-bot").value, takeover_after: int("clock-takeover") };
    if (kind.value === "realtime") out.clock = { kind: "realtime", base_s: int("clock-base-min") * 60, increment_s: int("clock-inc-s") };
    else if (kind.value === "turn") out.clock = { kind: "turn", per_move_s: int("clock-per-move-h") * 3600 };
    else out.clock = { kind: "none" };
    return out;
  }

  /* "Your games": the tables where this browser holds a seat (tokens in localStorage). */
  /* The lobby's "Your games": the seats whose links this browser keeps (POST /api/mine)
     and, signed in, every seat of the account from any device (GET /api/me/games). A
     seat of the account whose link this browser lacks (or holds an old one of) opens
     with a new link (POST its "link"; the seat's earlier link stops working). */
  async function yourGames() {
    const box = document.getElementById("mygames");
    if (!box) return;
    const seats = [];
    for (const [game, bySeat] of Object.entries(knownTokens())) {
      for (const token of Object.values(bySeat)) seats.push({ game, token });
    }
    let rows = [];
    if (seats.length) {
      try {
        rows = await api("/api/mine", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ seats: seats.slice(-50) }) });
      } catch (e) { toast(e.message); return; }
    }
    if (typeof ACCOUNT !== "undefined" && ACCOUNT.me) {
      let theirs = [];
      try { theirs = await api("/api/me/games"); } catch (e) { theirs = []; }
      const held = new Set(rows.map((r) => `${r.id}/${r.seat}`));
      rows = rows.concat(theirs.filter((r) => !held.has(`${r.id}/${r.seat}`)).map((r) => Object.assign(r, { viaAccount: true })));
    }
    if (!rows.length) { box.classList.add("hidden"); return; }
    rows.sort((a, b) => (b.your_turn - a.your_turn) || (b.updated > a.updated ? 1 : -1));
    box.innerHTML = "";
    box.classList.remove("hidden");
    box.append(el("h2", {}, CLOCK_TEXT.yourGames));
    const list = el("table", { id: "mygames-list" });
    const tokens = knownTokens();
    for (const r of rows) {
      const token = (tokens[r.id] || {})[r.seat];
      const mine = r.clock && r.clock.mine;
      const time = mine && mine.remaining_s !== null ? CLOCK_TEXT.timeLeft(fmtClock(mine.remaining_s)) : "";
      const status = r.status === "over" ? CLOCK_TEXT.finished : r.your_turn ? CLOCK_TEXT.yourTurn : CLOCK_TEXT.waiting;
      const open = el("button", { class: "small primary", "data-testid": `mygames-open-${r.id}` }, CLOCK_TEXT.open);
      const opener = r.viaAccount ? el("span", {}, open) : el("a", { href: `/game/${r.id}#token=${token}` }, open);
      if (r.viaAccount) open.addEventListener("click", () => reopen(r, open));
      list.append(el("tr", { "data-game": r.id, "data-seat": String(r.seat), "data-your-turn": String(r.your_turn) },
        el("td", {}, el("strong", {}, t(r.long_name)), el("div", { class: "muted" }, shownName(r.name))),
        el("td", {}, el("span", { class: "badge" + (r.your_turn ? " turn" : "") }, status)),
        el("td", { class: "muted" }, describeClock(r.clock), time ? el("div", {}, time) : null),
        el("td", {}, opener)));
    }
    box.append(list);
  }

  /* Open a seat of the account on this device: a new link, kept in this browser. */
  async function reopen(row, button) {
    button.disabled = true;
    let link;
    try {
      link = await api(row.link, { method: "POST" });
    } catch (e) {
      button.disabled = false;
      toast(e.message);
      return;
    }
    rememberToken(link.game, link.seat, link.token);
    location.href = link.url;
  }

  return { update, lobbyForm, request, yourGames, describe: describeClock, format: fmtClock };
})();
