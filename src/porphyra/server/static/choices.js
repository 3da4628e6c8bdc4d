/* A decision's legal texts composed from its option table (issue 33): the server sends a
   Byzantium meld or redraw as the hand's distinct cards, their copies and the limits an
   option keeps (`choices`), not as up to 512 texts.  The same algorithm as Python's
   porphyra.core.choices.compose, which the engine's tests hold to the engine's own
   list: every sub-multiset within the limits, fewer cards first, then by positions;
   "<verb> <card>,<card>" (copies repeated) or "<verb> -".  The server still checks every
   text it is sent. */
"use strict";

function composeChoices(choices) {
  const cards = choices.cards;
  const copies = choices.copies;
  const limits = choices.limits;
  const total = choices.most === null || choices.most === undefined ? copies.reduce((a, b) => a + b, 0) : choices.most;
  const member = cards.map(() => []);   // the limits each position counts in
  limits.forEach(([, where], i) => { for (const p of where) member[p].push(i); });
  const room = limits.map(([most]) => most);
  const bySize = [];
  for (let n = 0; n <= total; n += 1) bySize.push([]);
  const option = [];
  // Depth-first, each option extended only at or after its last position: the options
  // come in tuple order; collected by size, in the engine's order.
  function extend(first, run) {
    bySize[option.length].push(option.slice());
    if (option.length >= total) return;
    for (let pos = first; pos < cards.length; pos += 1) {
      if (pos === first && run >= copies[pos]) continue;  // every copy is in already
      if (copies[pos] === 0 || member[pos].some((i) => room[i] <= 0)) continue;
      for (const i of member[pos]) room[i] -= 1;
      option.push(pos);
      extend(pos, pos === first ? run + 1 : 1);
      option.pop();
      for (const i of member[pos]) room[i] += 1;
    }
  }
  extend(0, 0);
  const out = [];
  for (const size of bySize) {
    for (const o of size) out.push(`${choices.verb} ` + (o.length ? o.map((p) => cards[p]).join(",") : "-"));
  }
  return out;
}

/* A view's legal texts: its `legal` list, or those composed from its `choices`. */
function legalOf(view) {
  if (Array.isArray(view.legal)) return view.legal;
  return view.choices ? composeChoices(view.choices) : [];
}

if (typeof module === "object" && module.exports) module.exports = { composeChoices, legalOf };
