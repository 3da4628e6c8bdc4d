/* The lobby's open tables and invitations (issue 32 §2): the tables with a seat left open
   (GET /api/tables), the signed-in account's invitations, and a one-tap "Take seat"
   (POST /api/games/{id}/seats/{n}) that keeps the seat's link in this browser, as a
   created game's links are kept, and opens the game; the creator's "Cancel table"
   (DELETE /api/games/{id}/open, issue 32 §7). */
"use strict";

function tableRow(table, mayTake) {
  const game = table.game === "byzantium" ? t("Byzantium") : t("Conspiracy");
  const seats = table.seats.map((s) => el("div", {},
    s.open ? el("span", { class: "badge" }, s.open === "open" ? t("open seat") : t("invited: {0}", s.name))
      : shownName(s.name)));
  const buttons = el("div", { class: "row" });
  if (table.seated) buttons.append(el("span", { class: "muted" }, t("you are at this table")));
  if (table.mine) {
    buttons.append(el("button", {
      class: "small", "data-testid": `cancel-${table.id}`,
      onclick: (ev) => cancelTable(table.id, ev.currentTarget),
    }, t("Cancel table")));
  }
  else if (!mayTake) buttons.append(el("span", { class: "muted" }, t("Sign in to take a seat")));
  else {
    for (const seat of table.free) {
      buttons.append(el("button", {
        class: "primary small", "data-testid": `take-${table.id}-${seat}`,
        onclick: (ev) => takeSeat(table.id, seat, ev.currentTarget),
      }, t("Take seat {0}", seat + 1)));
    }
  }
  return el("li", { class: "section opentable", "data-table": table.id },
    el("div", {}, el("strong", {}, game), " · ", t("{0} players", table.players), " · ",
      PorphyraClock.describe(table.clock),
      table.rated ? el("span", { class: "badge" }, t("rated table")) : null),
    el("div", { class: "muted" }, table.creator ? profileLinked(t("opened by {0}", "\u0001"), table.creator) : ""),
    el("div", {}, ...seats),
    buttons);
}

/* A translated text whose \u0001 stands for ``name``, with the name linked to its
   profile page (/players/{name}). */
function profileLinked(text, name) {
  const [before, after] = text.split("\u0001");
  return [before, el("a", { href: `/players/${encodeURIComponent(name)}`, class: "player-link" }, name), after || ""];
}

async function takeSeat(gameId, seat, button) {
  button.disabled = true;
  let link;
  try {
    link = await api(`/api/games/${gameId}/seats/${seat}`, { method: "POST" });
  } catch (e) {
    button.disabled = false;
    toast(t(e.message));
    loadTables();
    return;
  }
  rememberToken(link.game, link.seat, link.token);
  location.href = link.url;
}

async function cancelTable(gameId, button) {
  button.disabled = true;
  try {
    await api(`/api/games/${gameId}/open`, { method: "DELETE" });
  } catch (e) {
    toast(t(e.message));
  }
  loadTables();
}

async function loadTables() {
  const box = document.getElementById("opentables");
  if (!box) return;
  let listing;
  try { listing = await api("/api/tables"); } catch (e) { return; }
  const signedIn = typeof ACCOUNT !== "undefined" && ACCOUNT.me !== null;
  const invites = document.getElementById("invitations");
  invites.replaceChildren();
  if (listing.invitations.length) {
    invites.append(el("h3", {}, t("Your invitations")),
      el("ul", { class: "plain" }, ...listing.invitations.map((x) => tableRow(x, signedIn))));
  }
  const list = document.getElementById("tablelist");
  list.replaceChildren(...listing.tables.map((x) => tableRow(x, signedIn)));
  if (!listing.tables.length) list.append(el("li", { class: "muted" }, t("No open tables.")));
}

I18N.ready.then(loadTables);
