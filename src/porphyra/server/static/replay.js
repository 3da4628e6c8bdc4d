/* The replay viewer of a finished game (/replay/{id}?view=public|all|N&step=K): steps
   through its frames (GET /api/games/{id}/replay) from one seat's view, the public one, or
   with everything revealed, drawn by the game page's own code (game.js).  The address is
   a shareable link to the view and step shown.  Every user-visible string of this module
   is in REPLAY_STRINGS. */
"use strict";

const REPLAY_STRINGS = I18N.table({
  title: N_("Replay — {0}"),
  view: N_("View"),
  views: { public: N_("Public view (what spectators saw)"), all: N_("Everything revealed") },
  seatView: N_("{0}'s view"),
  first: N_("First"), prev: N_("Back"), next: N_("Forward"), last: N_("Last"), play: N_("Play"), pause: N_("Pause"),
  firstLabel: N_("Go to the start"), prevLabel: N_("One move back"), nextLabel: N_("One move forward"), lastLabel: N_("Go to the end"),
  step: N_("Move {0} of {1}"),
  slider: N_("Move number"),
  by: N_("by {0}"),
  start: N_("Before the first move"),
  share: N_("Copy this link"),
  copied: N_("Link copied"),
  download: N_("Download the record"),
  viewing: N_("viewing: {0}"),
  keys: N_("Keys: ← → step, Home / End jump."),
  back: N_("Back to the game"),
});

let RP = { frames: [], logs: [], messages: [], pos: 0, view: "public", info: null, timer: null };

function rpViewName(view) {
  if (view === "public" || view === "all") return REPLAY_STRINGS.views[view];
  const s = SEATS[Number(view) - 1];
  return REPLAY_STRINGS.seatView(s ? displayName(Number(view) - 1) : t("Seat {0}", view));
}

function rpUrl() {
  return `/replay/${encodeURIComponent(GAME_ID)}?view=${encodeURIComponent(RP.view)}&step=${RP.pos}`;
}

function rpShow(pos) {
  const n = RP.frames.length - 1;
  RP.pos = Math.max(0, Math.min(n, pos));
  const f = RP.frames[RP.pos];
  M = {
    type: "snapshot", seq: RP.pos, game: RP.info.game, seat: RP.info.seat,
    status: RP.pos === n ? "over" : "active",
    observation: { ...f.observation, log: RP.logs[RP.pos], log_messages: RP.messages[RP.pos] },
    legal: [], derived: f.derived, can_undo: false, hints: false, summary: null,
  };
  sel = []; swapSel = [];
  render();
  document.getElementById("whoami").textContent = REPLAY_STRINGS.viewing(rpViewName(RP.view));
  history.replaceState(null, "", rpUrl());
  rpControls();
}

function rpButton(label, aria, onclick, testid) {
  return el("button", { class: "small", "aria-label": aria, onclick, "data-testid": testid }, label);
}

function rpControls() {
  const S = REPLAY_STRINGS;
  const bar = document.getElementById("replaybar");
  const n = RP.frames.length - 1;
  const f = RP.frames[RP.pos];
  bar.innerHTML = "";
  const select = el("select", { id: "replay-view", "aria-label": S.view, onchange: (ev) => rpLoad(ev.target.value, RP.pos) },
    el("option", { value: "public" }, S.views.public), el("option", { value: "all" }, S.views.all),
    ...SEATS.map((s, i) => el("option", { value: String(i + 1) }, S.seatView(displayName(i)))));
  select.value = RP.view;
  const slider = el("input", { type: "range", min: "0", max: String(n), value: String(RP.pos), "aria-label": S.slider, "data-testid": "replay-slider",
    oninput: (ev) => rpShow(Number(ev.target.value)) });
  const playing = RP.timer !== null;
  bar.append(el("h3", {}, S.title(RP.info.game === "byzantium" ? t("Byzantium") : t("Conspiracy"))),
    el("div", { class: "row" }, el("label", { for: "replay-view" }, S.view), select),
    el("div", { class: "row replay-buttons" },
      rpButton("«", S.firstLabel, () => rpShow(0), "replay-first"),
      rpButton("◀", S.prevLabel, () => rpShow(RP.pos - 1), "replay-prev"),
      rpButton(playing ? S.pause : "▶ " + S.play, playing ? S.pause : S.play, rpToggle, "replay-play"),
      rpButton("▶", S.nextLabel, () => rpShow(RP.pos + 1), "replay-next"),
      rpButton("»", S.lastLabel, () => rpShow(n), "replay-last")),
    slider,
    el("div", { "data-testid": "replay-step", role: "status" }, RP.pos ? S.step(RP.pos, n) : S.start,
      f.player !== null && f.player !== undefined && RP.pos ? " " + S.by(displayName(f.player)) : ""),
    el("div", { class: "row" },
      el("button", { class: "small", "data-testid": "replay-share", onclick: () => { if (navigator.clipboard) navigator.clipboard.writeText(location.origin + rpUrl()).then(() => toast(S.copied, "info")); } }, S.share),
      el("a", { class: "button small", href: `/api/games/${encodeURIComponent(GAME_ID)}/record?download=1`, download: `${GAME_ID}.porphyra.json` }, S.download),
      el("a", { class: "button small", href: `/game/${encodeURIComponent(GAME_ID)}` }, S.back)),
    el("div", { class: "muted" }, S.keys));
}

function rpToggle() {
  if (RP.timer !== null) { clearInterval(RP.timer); RP.timer = null; rpControls(); return; }
  RP.timer = setInterval(() => {
    if (RP.pos >= RP.frames.length - 1) { clearInterval(RP.timer); RP.timer = null; rpControls(); return; }
    rpShow(RP.pos + 1);
  }, 900);
  rpControls();
}

async function rpLoad(view, pos) {
  const res = await fetch(`/api/games/${encodeURIComponent(GAME_ID)}/replay?view=${encodeURIComponent(view)}`, { headers: { "accept-language": I18N.lang } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const kind = res.status === 403 ? "unfinished" : res.status === 410 ? "damaged" : res.status === 400 ? null : "missing";
    if (kind) { showProblem(kind, typeof body.detail === "string" ? body.detail : null, GAME_ID); return; }
    toast(t(String(body.detail || res.statusText)));
    return;
  }
  RP.info = body;
  RP.view = view;
  SEATS = body.seats;
  if (!CARDS) CARDS = await api(`/api/cards/${body.game}`);
  RP.frames = body.frames;
  RP.logs = [];
  RP.messages = [];
  let log = [];
  let messages = [];
  for (const f of body.frames) {
    log = log.slice(0, f.log_start || 0).concat(f.observation.log || []);
    messages = messages.slice(0, f.log_start || 0).concat(f.observation.log_messages || []);
    RP.logs.push(log);
    RP.messages.push(messages);
  }
  PREV_OBS = null;
  rpShow(pos);
  const slot = document.getElementById("reviewslot");
  if (slot && !slot.firstChild) slot.append(reviewPanel(GAME_ID, SEATS.map((_, i) => displayName(i)), body.seat || 0, (move) => rpShow(move)));
}

document.addEventListener("keydown", (ev) => {
  if (!RP.info || ev.target.closest("input, select, textarea")) return;
  const n = RP.frames.length - 1;
  const to = { ArrowLeft: RP.pos - 1, ArrowRight: RP.pos + 1, Home: 0, End: n }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  rpShow(to);
});

Promise.all([I18N.ready, PorphyraCards.ready]).then(() => {
  const params = new URLSearchParams(location.search);
  const step = Number(params.get("step"));
  rpLoad(params.get("view") || "public", Number.isFinite(step) && params.has("step") ? step : 0);
});
