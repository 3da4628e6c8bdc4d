/* Turn alerts while the page is closed (issue 32 §5): a seat's button that subscribes
   this browser to Web Push (the service worker /static/sw.js shows the alerts) and
   tells the server (POST /api/push/subscriptions, with the seat's token), and one tap to
   stop them (DELETE /api/push/subscriptions).  The server alerts turn-based tables only,
   at most once an hour unless the seat answered. */
"use strict";

const PUSH_STRINGS = I18N.table({
  on: N_("Alert me on this device when it is my turn and this page is closed (turn-based tables)"),
  off: N_("Stop the alerts on this device"),
  unsupported: N_("This browser cannot receive alerts while the page is closed."),
  denied: N_("The browser refused notifications for this page."),
  failed: N_("The alerts could not be turned on: {0}"),
  started: N_("Alerts are on for this seat on this device."),
  stopped: N_("Alerts are off for this seat on this device."),
});
const PUSH_KEY = "porphyra.push";

function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function pushOn() {
  try { return (JSON.parse(localStorage.getItem(PUSH_KEY) || "{}")[GAME_ID] || null); } catch (e) { return null; }
}

function setPushOn(endpoint) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(PUSH_KEY) || "{}"); } catch (e) { all = {}; }
  if (endpoint) all[GAME_ID] = endpoint; else delete all[GAME_ID];
  try { localStorage.setItem(PUSH_KEY, JSON.stringify(all)); } catch (e) { /* private mode */ }
}

function pushKeyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/* ``registration`` once its worker is active (its scope, /static/, is not this page's,
   so navigator.serviceWorker.ready would never say so). */
async function pushActive(registration) {
  const worker = registration.installing || registration.waiting;
  if (registration.active || !worker) return registration;
  await new Promise((resolve) => worker.addEventListener("statechange", () => {
    if (worker.state === "activated") resolve();
  }));
  return registration;
}

async function pushStart() {
  if (!pushSupported()) { toast(PUSH_STRINGS.unsupported); return false; }
  if ((await Notification.requestPermission()) !== "granted") { toast(PUSH_STRINGS.denied); return false; }
  try {
    const registration = await pushActive(await navigator.serviceWorker.register("/static/sw.js"));
    const { public_key: key } = await api("/api/push/key");
    const subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: pushKeyBytes(key),
    });
    const json = subscription.toJSON();
    await api("/api/push/subscriptions", {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: GAME_ID, token: TOKEN, subscription: { endpoint: json.endpoint, keys: json.keys } }),
    });
    setPushOn(json.endpoint);
    toast(PUSH_STRINGS.started);
    return true;
  } catch (e) {
    toast(PUSH_STRINGS.failed(t(e.message)));
    return false;
  }
}

async function pushStop() {
  try {
    await api("/api/push/subscriptions", {
      method: "DELETE", headers: { "content-type": "application/json" },
      body: JSON.stringify({ game: GAME_ID, token: TOKEN, endpoint: pushOn() }),
    });
  } catch (e) {
    toast(t(e.message));
    return;
  }
  setPushOn(null);
  toast(PUSH_STRINGS.stopped);
}

/* The button of the alerts panel (notify.js); none for a spectator. */
function pushAlertControl() {
  if (!TOKEN || REPLAY) return null;
  const button = el("button", { class: "small", "data-testid": "push-toggle" });
  const show = () => { button.textContent = pushOn() ? PUSH_STRINGS.off : PUSH_STRINGS.on; };
  button.onclick = async () => {
    button.disabled = true;
    if (pushOn()) await pushStop(); else await pushStart();
    button.disabled = false;
    show();
  };
  show();
  return el("div", { class: "row" }, button);
}
