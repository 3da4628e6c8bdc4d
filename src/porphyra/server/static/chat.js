/* The table's chat: lines arrive in snapshots ("chat") and "chat" messages; they are shown
   as text (never markup).  Spectators write only where the table allows it.  Every
   user-visible string of this module is in CHAT_STRINGS. */
"use strict";

const CHAT_STRINGS = I18N.table({
  heading: N_("Chat"),
  empty: N_("No messages yet."),
  placeholder: N_("Say something to the table"),
  send: N_("Send"),
  inputLabel: N_("Chat message"),
  readOnly: N_("Spectators can read this table's chat but not write in it."),
  spectator: N_("Spectator"),
});
const CHAT_MAX = 300;
let chatLines = [];

function chatLineEl(line) {
  const who = line.seat === null || line.seat === undefined ? CHAT_STRINGS.spectator : shownName(line.name);
  return el("li", { "data-chat": String(line.n) },
    el("span", { class: "chat-who" }, who + ": "), el("span", { class: "chat-text" }, line.text));
}

function chatRender() {
  const list = document.getElementById("chatlog");
  if (!list) return;
  list.innerHTML = "";
  if (!chatLines.length) list.append(el("li", { class: "muted" }, CHAT_STRINGS.empty));
  for (const line of chatLines) list.append(chatLineEl(line));
  list.scrollTop = list.scrollHeight;
}

/* A snapshot's chat (the latest lines): replaces what the page shows. */
function chatReset(lines) {
  chatLines = (lines || []).slice();
  chatRender();
}

/* New lines of a "chat" message. */
function chatAdd(lines) {
  for (const line of lines || []) {
    if (!chatLines.some((l) => l.n === line.n)) chatLines.push(line);
  }
  chatLines.sort((a, b) => a.n - b.n);
  chatRender();
}

/* The chat panel; `send(text)` sends a line; `canWrite()` says whether this page may. */
function chatPanel(send, canWrite) {
  const S = CHAT_STRINGS;
  const input = el("input", { type: "text", id: "chatinput", maxlength: String(CHAT_MAX), placeholder: S.placeholder, "aria-label": S.inputLabel, autocomplete: "off" });
  const submit = () => {
    const text = input.value.trim();
    if (!text) return;
    send(text);
    input.value = "";
  };
  input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); submit(); } });
  const form = el("div", { class: "row chatform" }, input, el("button", { class: "small", "data-testid": "chat-send", onclick: submit }, S.send));
  const note = el("div", { class: "muted hidden", id: "chatnote" }, S.readOnly);
  const panel = el("div", { class: "panel chat", "data-testid": "chat" }, el("h3", {}, S.heading),
    el("ol", { id: "chatlog", "aria-live": "polite", "aria-label": S.heading, tabindex: "0" }), form, note);
  panel.refresh = () => {
    const ok = canWrite();
    form.classList.toggle("hidden", !ok);
    note.classList.toggle("hidden", ok);
  };
  return panel;
}
