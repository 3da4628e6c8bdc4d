/* The last move, made visible: what changed since the previous view is highlighted for a
   moment (the melds revealed, the lord placed, the pile taken, the Location won, the
   tokens moved), and the move's log lines are shown above the board (read out by screen
   readers).  Every user-visible string of this module is in LAST_STRINGS. */
"use strict";

const LAST_STRINGS = I18N.table({
  label: N_("Last move"),
  none: N_("The game begins."),
});

function markFresh(selector) {
  for (const node of document.querySelectorAll(selector)) {
    node.classList.remove("fresh");
    void node.offsetWidth;  // restart the animation
    node.classList.add("fresh");
  }
}

function cellLord(cell) { return cell ? `${cell.lord}|${cell.location || ""}` : ""; }

/* Highlight what differs between the previous observation `prev` and `obs` (the page was
   just rendered from `obs`); `lines` are the new log lines (already with seat names). */
function showLastMove(prev, obs, lines) {
  const box = document.getElementById("lastmove");
  if (box) {
    box.innerHTML = "";
    box.append(el("strong", {}, LAST_STRINGS.label + ": "), lines.length ? lines.slice(-3).join(" · ") : LAST_STRINGS.none);
  }
  if (!prev || prev.game !== obs.game) return;
  if (obs.game === "byzantium") {
    if (prev.melds_turn !== obs.melds_turn || JSON.stringify(prev.negotiation) !== JSON.stringify(obs.negotiation)) markFresh("[data-testid=melds]");
    if (prev.territory !== obs.territory) markFresh("[data-testid=tt-track]");
    if (JSON.stringify(prev.legacy) !== JSON.stringify(obs.legacy)) markFresh("[data-testid=lt]");
    return;
  }
  (obs.players || []).forEach((p, i) => {
    const before = (prev.players || [])[i];
    if (!before) return;
    p.chamber.forEach((cell, slot) => {
      if (cellLord(cell) !== cellLord(before.chamber[slot])) markFresh(`[data-player="${i}"] [data-slot="${slot + 1}"]`);
    });
    for (const loc of p.locations) {
      if (!before.locations.includes(loc)) markFresh(`[data-player="${i}"] .player-locations [data-location="${CSS.escape(loc)}"]`);
    }
  });
  for (const [colour, pile] of Object.entries(obs.piles || {})) {
    if ((prev.piles[colour] || []).length !== pile.length) markFresh(`[data-pile="${colour}"]`);
  }
  if (prev.pearl_master !== obs.pearl_master) markFresh("[data-testid=pearl-master]");
}
