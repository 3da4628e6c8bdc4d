/* The lobby's account control in the top bar (issue 32 §1): sign up, sign in, sign out,
   and the signed-in name.  The session is an HttpOnly cookie: this script never sees it,
   it asks /api/me.  Guests need none of this: invite links work as before. */
"use strict";

const ACCOUNT = { me: null };

function accountSlot() {
  return document.getElementById("account");
}

async function accountSend(method, path, body) {
  return api(path, {
    method,
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function accountForm() {
  const error = el("span", { id: "account-error", class: "muted", role: "status" });
  const name = el("input", {
    type: "text", id: "account-name", autocomplete: "username", maxlength: "24",
    "aria-label": t("User name"), placeholder: t("User name"),
  });
  const password = el("input", {
    type: "password", id: "account-password", autocomplete: "current-password",
    "aria-label": t("Password"), placeholder: t("Password"),
  });
  const send = async (path) => {
    error.textContent = "";
    try {
      ACCOUNT.me = await accountSend("POST", path, { name: name.value, password: password.value });
      password.value = "";
      renderAccount();
    } catch (e) {
      error.textContent = e.message;
    }
  };
  return el("form", { id: "account-form", class: "account-form panel", onsubmit: (ev) => { ev.preventDefault(); send("/api/session"); } },
    name, password,
    el("button", { type: "submit", class: "primary small", id: "account-signin" }, t("Sign in")),
    el("button", { type: "button", class: "small", id: "account-signup", onclick: () => send("/api/accounts") }, t("Create account")),
    el("span", { class: "muted" }, t("A password of 8 characters or more")),
    error);
}

function renderAccount() {
  if (typeof loadTables === "function") loadTables();  // "Take seat" needs an account
  if (typeof renderQuickMatch === "function") renderQuickMatch();  // so does quick match
  if (typeof PorphyraClock !== "undefined") PorphyraClock.yourGames();  // the account's games
  const slot = accountSlot();
  if (!slot) return;
  slot.replaceChildren();
  if (ACCOUNT.me) {
    slot.append(
      el("span", { class: "muted" }, t("Signed in as")), " ",
      el("a", { href: `/players/${encodeURIComponent(ACCOUNT.me.name)}`, id: "account-profile", title: t("Your profile") },
        el("strong", { id: "account-shown", "data-testid": "account-name" }, ACCOUNT.me.name)), " ",
      el("button", { class: "small", id: "account-signout", onclick: signOut }, t("Sign out")));
    return;
  }
  const form = accountForm();
  form.classList.add("hidden");
  slot.append(
    el("button", { class: "small", id: "account-open", "aria-expanded": "false", onclick: (ev) => {
      const open = form.classList.toggle("hidden") === false;
      ev.currentTarget.setAttribute("aria-expanded", String(open));
      if (open) form.querySelector("input").focus();
    } }, t("Sign in / create account")),
    form);
}

async function signOut() {
  try {
    await accountSend("DELETE", "/api/session");
  } catch (e) {
    toast(e.message);
    return;
  }
  ACCOUNT.me = null;
  renderAccount();
}

async function loadAccount() {
  try {
    ACCOUNT.me = await api("/api/me");
  } catch (e) {
    ACCOUNT.me = null;  // a guest
  }
  renderAccount();
}

I18N.ready.then(loadAccount);
