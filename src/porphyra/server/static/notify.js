/* "Your turn": the tab title and a favicon badge, an optional sound, and an optional
   browser notification while the tab is hidden.  The two options are this browser's
   (localStorage).  Every user-visible string of this module is in NOTIFY_STRINGS. */
"use strict";

const NOTIFY_STRINGS = I18N.table({
  titleTurn: N_("▶ Your turn — "),
  notifyTitle: N_("Your turn"),
  notifyBody: N_("{0}: it is your turn to play."),
  heading: N_("Alerts"),
  sound: N_("Sound when it is my turn"),
  notify: N_("Notify me when this tab is hidden"),
  denied: N_("The browser refused notifications for this page."),
});

const NOTIFY_KEYS = { sound: "porphyra.sound", notify: "porphyra.notify" };
let notifyWasTurn = false;
let notifyAudio = null;

function notifyOption(name) {
  try { return localStorage.getItem(NOTIFY_KEYS[name]) === "1"; } catch (e) { return false; }
}
function setNotifyOption(name, on) {
  try { localStorage.setItem(NOTIFY_KEYS[name], on ? "1" : "0"); } catch (e) { /* private mode */ }
}

/* The favicon: the porphyry square, with a gold badge while it is your turn. */
function drawFavicon(turn) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  const g = canvas.getContext("2d");
  if (!g) return;
  g.fillStyle = "#7b2d5b";
  g.fillRect(2, 2, 28, 28);
  g.fillStyle = "#f1e9f4";
  g.font = "bold 20px sans-serif";
  g.textAlign = "center";
  g.textBaseline = "middle";
  g.fillText("P", 14, 17);
  if (turn) {
    g.beginPath();
    g.arc(24, 8, 7, 0, 2 * Math.PI);
    g.fillStyle = "#ffcf40";
    g.fill();
    g.strokeStyle = "#1d1622";
    g.lineWidth = 2;
    g.stroke();
  }
  let link = document.querySelector("link[rel=icon]");
  if (!link) { link = el("link", { rel: "icon" }); document.head.append(link); }
  link.href = canvas.toDataURL("image/png");
  link.dataset.turn = String(turn);
}

function beep() {
  try {
    notifyAudio = notifyAudio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = notifyAudio.createOscillator();
    const gain = notifyAudio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.12, notifyAudio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, notifyAudio.currentTime + 0.35);
    osc.connect(gain).connect(notifyAudio.destination);
    osc.start();
    osc.stop(notifyAudio.currentTime + 0.35);
  } catch (e) { /* no audio here */ }
}

/* Call after every render: `turn` is true when this seat has something to decide. */
function notifyTurn(turn, baseTitle, gameName) {
  document.title = (turn ? NOTIFY_STRINGS.titleTurn : "") + baseTitle;
  document.body.dataset.turnAlert = String(turn);
  drawFavicon(turn);
  if (turn && !notifyWasTurn) {
    if (notifyOption("sound")) beep();
    if (document.hidden && notifyOption("notify") && "Notification" in window && Notification.permission === "granted") {
      try { new Notification(NOTIFY_STRINGS.notifyTitle, { body: NOTIFY_STRINGS.notifyBody(gameName), tag: "porphyra-turn" }); } catch (e) { /* not allowed here */ }
    }
  }
  notifyWasTurn = turn;
}

/* The two options as checkboxes (for the side panel). */
function notifySettings() {
  const S = NOTIFY_STRINGS;
  const sound = el("input", { type: "checkbox", id: "opt-sound", checked: notifyOption("sound"),
    onchange: (ev) => { setNotifyOption("sound", ev.target.checked); if (ev.target.checked) beep(); } });
  const notify = el("input", { type: "checkbox", id: "opt-notify", checked: notifyOption("notify"),
    onchange: async (ev) => {
      let on = ev.target.checked;
      if (on && "Notification" in window && Notification.permission !== "granted") {
        on = (await Notification.requestPermission()) === "granted";
        if (!on) { ev.target.checked = false; toast(S.denied); }
      }
      setNotifyOption("notify", on);
    } });
  return el("div", { class: "panel alerts" }, el("h3", {}, S.heading),
    el("label", { class: "check" }, sound, " ", S.sound),
    el("label", { class: "check" }, notify, " ", S.notify),
    typeof pushAlertControl === "function" ? pushAlertControl() : null);  // (pushalerts.js)
}
