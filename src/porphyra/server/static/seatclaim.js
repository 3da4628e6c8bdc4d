/* The game page's offer to a signed-in player who opened their seat's link: keep this
   seat in the account (issue 32 §1; POST /api/games/{id}/claim with the link's token).
   Guests see nothing: the page asks /api/me once and stays as it was. */
"use strict";

async function offerSeatClaim() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  const game = decodeURIComponent(location.pathname.split("/").pop() || "");
  if (!token || !game) return;
  let me = null;
  try {
    me = await api("/api/me");
  } catch (e) {
    return;  // a guest
  }
  const button = el("button", {
    class: "small", id: "seat-claim", title: t("Keep this seat in your account ({0})", me.name),
  }, t("Save seat to account"));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await api(`/api/games/${encodeURIComponent(game)}/claim`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token }),
      });
      button.remove();
      toast(t("This seat is in your account ({0})", me.name), "info");
    } catch (e) {
      button.disabled = false;
      toast(e.message);
    }
  });
  const conn = document.getElementById("conn");
  if (conn) conn.before(button);
}

I18N.ready.then(offerSeatClaim);
