/* Shared helpers for the lobby and game pages (plain JavaScript, no build step). */
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "html") node.innerHTML = v;
    else if (k === "style") node.style.cssText = v;  /* CSSOM: allowed by the CSP (no inline style attributes) */
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

let toastTimer = null;
function toast(text, kind) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.className = "toast" + (kind === "info" ? " info" : "");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.add("hidden"), kind === "info" ? 2500 : 5000);
}

async function api(path, options) {
  // Errors come back in the page's language (the server translates its messages).
  const headers = Object.assign({ "accept-language": I18N.lang }, (options && options.headers) || {});
  const res = await fetch(path, Object.assign({}, options, { headers }));
  const body = await res.json().catch(() => ({}));
  // A 422 says what is wrong in words too ("message"): show that, not pydantic's list.
  if (!res.ok) throw new Error(body.message || (body.detail ? (typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail)) : res.statusText));
  return body;
}

/* Seat tokens this browser knows: {gameId: {seat: token}} in localStorage. */
function knownTokens() {
  try { return JSON.parse(localStorage.getItem("porphyra.tokens") || "{}"); } catch (e) { return {}; }
}
function rememberToken(gameId, seat, token) {
  const all = knownTokens();
  all[gameId] = all[gameId] || {};
  all[gameId][seat] = token;
  try { localStorage.setItem("porphyra.tokens", JSON.stringify(all)); } catch (e) { /* private mode */ }
}

function ago(iso) {
  const t = Date.parse(iso);
  if (!t) return iso;
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 60) return I18N.t("just now");
  if (s < 3600) return I18N.t("{0} min ago", Math.floor(s / 60));
  if (s < 86400) return I18N.t("{0} h ago", Math.floor(s / 3600));
  return new Date(t).toLocaleDateString(I18N.lang);
}

/* A seat's name as the server gives it, in the page's language: the server's default
   names ("Seat 2", "Easy bot 2") are translated (English keeps them as they are, not
   "easy bot 2"), a chosen name is shown as chosen. */
function shownName(name) {
  if (I18N.lang === "en") return name;
  const seatDefault = /^Seat (\d+)$/.exec(name || "");
  if (seatDefault) return t("Seat {0}", seatDefault[1]);
  const botDefault = /^([A-Z][a-z]+) bot (\d+)$/.exec(name || "");
  if (botDefault) return t("{0} bot {1}", term(botDefault[1].toLowerCase()), botDefault[2]);
  return name;
}
