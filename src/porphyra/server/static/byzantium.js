/* Game page, Byzantium: the table (Territory track, melds, hand, piles), the card faces
   and the builders of the Redraw, Meld and End choices.  Part of the game page with
   game.js (its state and helpers: M, CARDS, sel, actionButton, keyboardClick...), loaded
   after it; nothing here runs before the page starts. */
"use strict";

/* An Age of a card's Age strip in words ("early", 初期, 초기), never its letter. */
const AGE_WORDS = { E: "early", M: "middle", L: "late" };
function ageMark(letter) { return term(AGE_WORDS[letter] || letter); }

/* A card's Ages ("all", "early-middle"...) in words of the page's language. */
function agesText(ages) {
  if (ages === "all") return t("all Ages");
  return String(ages).split("-").map(ageMark).join("–");
}

function byzCard(slug, opts) {
  opts = opts || {};
  const c = (CARDS && CARDS.cards[slug]) || { name: slug, type: "?", force: "?", ages: "all", deck: "byzantine" };
  const flags = [];
  if (c.unique) flags.push(t("★ unique"));
  if (c.legacy) flags.push(`+${c.legacy} LT`);
  if (c.natural) flags.push(term("natural"));
  // The face is drawn by cards.js (issue 29); hover, a long press or focus zooms it.
  const node = el("div", {
    class: `card ${c.deck === "foe" ? "foe" : "byz"}${opts.mini ? " mini" : ""}${opts.selectable ? " selectable" : ""}${opts.selected ? " selected" : ""}`,
    "data-slug": slug,
    "data-zoom": "card",
    onclick: opts.onclick || null,
    role: opts.onclick ? "button" : "img",
    tabindex: "0",
    "aria-pressed": opts.onclick ? String(Boolean(opts.selected)) : null,
    "aria-label": cardLabel(c, opts.selected) + (flags.length ? ", " + flags.join(", ") : ""),
  }, PorphyraCards.byzFace(c, slug, opts));
  if (opts.onclick) keyboardClick(node, opts.onclick);
  return node;
}

function forceOf(slugs) {
  return slugs.reduce((t, s) => t + ((CARDS.cards[s] || {}).force || 0), 0);
}

function byzRender(obs, board, actions) {
  const me = M.seat;
  const opp = me === null ? null : 1 - me;
  const phaseNames = { redraw: t("Redraw"), meld: t("Meld"), target: t("Negotiation: target"), replace: t("Negotiation: replacement"), pass: t("End: pass a card"), over: t("Game over") };
  const status = el("div", { class: "status" },
    el("span", { class: "big" }, t("Turn {0} / 12", obs.turn)),
    el("span", { class: "badge" }, term(`${obs.age[0].toUpperCase()}${obs.age.slice(1)}`) + (I18N.lang === "en" ? " Age" : "")),
    el("span", { class: "badge" }, phaseNames[obs.phase] || obs.phase),
    el("span", { class: "badge gold" }, t("Emperor: {0}", seatName(obs.emperor))),
    me !== null ? el("span", { class: "badge" + (M.legal.length ? " turn" : "") }, t("You: {0}", obs.role === "byzantine" ? t("Byzantine Emperor") : t("Foe"))) : null);
  board.append(status);

  // Tracks: Territory 0..20 and Legacy.
  const tt = obs.territory;
  const track = el("div", { class: "track", "data-testid": "tt-track" });
  for (let i = 0; i <= 20; i++) {
    track.append(el("span", { class: (i === Math.max(0, tt) ? "mark" : i < tt ? "fill" : "") + (i <= 3 ? " danger" : "") }, String(i)));
  }
  const maxLt = Math.max(20, ...obs.legacy);
  const lt = el("div", { class: "lt", "data-testid": "lt" }, ...obs.legacy.flatMap((v, i) => [
    el("span", {}, seatName(i)), el("div", { class: "bar" }, el("div", { style: `width:${(100 * v) / maxLt}%` })), el("strong", {}, String(v)),
  ]));
  board.append(el("div", { class: "panel section" }, el("h3", {}, t("Territory Tokens: {0} (collapse at 0)", tt)), track,
    el("h3", {}, t("Legacy Tokens")), lt));

  // Opponent / both hands.
  const hands = el("div", { class: "panel section", "data-zone": "opponent" });
  const seatsToShow = me === null ? [0, 1] : [opp];
  for (const s of seatsToShow) {
    const role = s === obs.emperor ? t("Byzantine Emperor") : t("Foe");
    const backs = el("div", { class: "flexwrap" });
    const shown = obs.seat_views && obs.seat_views[s] ? obs.seat_views[s].hand : null;
    if (shown) backs.append(...shown.map((slug) => byzCard(slug, { mini: true })));
    else for (let i = 0; i < obs.hand_sizes[s]; i++) backs.append(el("div", { class: "card back" }, PorphyraCards.back(s === obs.emperor ? "byzantium" : "foe")));
    hands.append(el("h3", {}, shown ? GAME_STRINGS.revealedHand(seatName(s)) : tn("{0} — {1} — {2} card in hand", "{0} — {1} — {2} cards in hand", obs.hand_sizes[s], seatName(s), role, obs.hand_sizes[s])), backs);
  }
  if (me !== null && obs.known_opponent_cards && obs.known_opponent_cards.length) {
    hands.append(el("div", { class: "muted", style: "margin-top:6px" }, t("You know these cards in their hand:")),
      el("div", { class: "flexwrap" }, ...obs.known_opponent_cards.map((s) => byzCard(s, { mini: true }))));
  }
  board.append(hands);

  // Revealed melds and negotiation.
  const melds = el("div", { class: "panel section", "data-testid": "melds" });
  if (obs.melds_turn) {
    melds.append(el("h3", {}, t("Melds revealed in turn {0}", obs.melds_turn)));
    const sides = el("div", { class: "melds" });
    for (const deck of ["byzantine", "foe"]) {
      const cards = obs.melds[deck];
      sides.append(el("div", {}, el("div", {}, deck === "byzantine" ? t("Byzantine meld") + " " : t("Foe meld") + " ", el("span", { class: "total" }, String(forceOf(cards)))),
        el("div", { class: "flexwrap" }, cards.length ? cards.map((s) => byzCard(s, { mini: true })) : el("span", { class: "muted" }, t("empty")))));
    }
    melds.append(sides);
    if (obs.negotiation) {
      const n = obs.negotiation;
      const name = (s) => term((CARDS.cards[s] || { name: s }).name);
      const noTarget = obs.phase === "target" ? t("the Emperor is choosing a target") : t("the Emperor targeted no card");
      melds.append(el("p", {}, t("Negotiation: "), n.target ? t("{0} was discarded from the Foe meld", name(n.target)) : noTarget,
        n.replacement ? t(", replaced by {0}", name(n.replacement)) : (n.target && obs.phase !== "replace" ? t(", not replaced") : "")));
    }
  } else {
    melds.append(el("h3", {}, t("Melds")), el("span", { class: "muted" }, t("No meld revealed yet.")));
  }
  if (obs.redrawn) melds.append(el("p", { class: "muted" }, t("Redrawn this turn: {0}", obs.redrawn.map((n, i) => `${seatName(i)} ${n}`).join(", "))));
  board.append(melds);

  // Own hand and the builder.
  if (me !== null) {
    const legal = M.legal;
    const verb = legal.length ? verbOf(legal[0]) : null;
    const builder = verb === "meld" || verb === "redraw";
    const hand = el("div", { class: "panel section", "data-testid": "hand" });
    hand.append(el("h3", {}, t("Your hand ({0})", obs.hand.length)));
    const row = el("div", { class: "flexwrap" });
    obs.hand.forEach((slug, i) => {
      const card = byzCard(slug, {
        selectable: builder && !busy,
        selected: sel.includes(i),
        onclick: builder ? () => { sel = sel.includes(i) ? sel.filter((x) => x !== i) : [...sel, i]; render(); } : null,
      });
      card.dataset.focusKey = `hand-${i}`;
      row.append(card);
    });
    hand.append(row);
    if (obs.pending_choice) {
      hand.append(el("p", {}, t("Your secret choice: "), el("strong", {}, obs.pending_choice.length ? obs.pending_choice.map((s) => term(CARDS.cards[s].name)).join(", ") : t("none")),
        el("span", { class: "muted" }, t(" — waiting for the other player."))));
    }
    document.getElementById("handslot").append(hand);
  }
  // Decks and discard piles.
  const decks = el("div", { class: "panel section", "data-zone": "decks" });
  decks.append(el("h3", {}, t("Decks and discard piles")));
  for (const deck of ["byzantine", "foe"]) {
    const pile = obs.discards[deck];
    decks.append(el("details", { "data-zone": `discard-${deck}` },
      el("summary", {}, t("{0} deck: {1} to draw · discard pile {2} · {3} set aside for later Ages", deck === "byzantine" ? t("Byzantine") : t("Foe"), obs.deck_sizes[deck], pile.length, obs.set_aside[deck].length)),
      el("div", { class: "flexwrap" }, pile.map((s) => byzCard(s, { mini: true })))));
  }
  if (obs.hidden && obs.hidden.draw_piles) {
    for (const [deck, order] of Object.entries(obs.hidden.draw_piles)) {
      decks.append(el("details", {}, el("summary", {}, GAME_STRINGS.drawOrder(deck === "byzantine" ? t("Byzantine") : t("Foe"))),
        el("div", { class: "flexwrap" }, order.map((s) => byzCard(s, { mini: true })))));
    }
  }
  decks.append(el("details", { "data-zone": "removed" }, el("summary", {}, t("Removed from play: {0}", obs.removed.length)),
    el("div", { class: "flexwrap" }, obs.removed.map((s) => byzCard(s, { mini: true })))));
  board.append(decks);

  byzActions(obs, actions);
}

function byzActions(obs, box) {
  const legal = M.legal;
  if (M.status === "over") { box.append(el("div", { class: "prompt" }, t("The game is over."))); return; }
  if (M.seat === null) { box.append(el("div", { class: "prompt" }, t("Spectating")), el("div", { class: "muted" }, t("{0} is deciding.", seatName(obs.current_player)))); return; }
  if (!legal.length && obs.pending_choice) { box.append(el("div", { class: "prompt" }, t("Choice locked in")), el("div", {}, obs.pending_choice.map(cardName).join(", ") || t("none")), el("div", { class: "muted" }, t("It applies as soon as the other player has chosen; it stays secret until then."))); return; }
  if (!legal.length) {
    box.append(el("div", { class: "prompt" }, t("Waiting")), el("div", { class: "muted" }, t("{0} is deciding…", seatName(obs.current_player))));
    return;
  }
  const verb = verbOf(legal[0]);
  if (obs.phase === "redraw" || obs.phase === "meld" || obs.phase === "pass") box.append(el("div", { class: "muted" }, t("Both players choose now, in any order: your choice stays secret until both have chosen.")));
  if (verb === "meld" || verb === "redraw") {
    const table = new Map();
    for (const a of legal) {
      const arg = argOf(a);
      table.set(arg === "-" ? "" : arg.split(",").sort().join(","), a);
    }
    const chosen = sel.map((i) => obs.hand[i]);
    const key = chosen.slice().sort().join(",");
    const action = table.get(key);
    const b = el("div", { class: "builder" });
    if (verb === "meld") {
      const deck = obs.role === "byzantine" ? "byzantine" : "foe";
      const limits = CARDS.limits[deck];
      const counts = {};
      let natural = 0;
      for (const s of chosen) { const c = CARDS.cards[s]; counts[c.type] = (counts[c.type] || 0) + 1; if (c.natural) natural += 1; }
      b.append(el("div", { class: "prompt" }, t("Build your meld — click cards in your hand")));
      b.append(el("div", { class: "limits", "data-testid": "meld-limits" }, t("Limits: "),
        ...Object.entries(limits).map(([t, n]) => el("span", { class: (counts[t] || 0) > n ? "over" : (counts[t] || 0) === n ? "full" : "" }, `${term(t)} ${counts[t] || 0}/${n}`)),
        deck === "foe" ? el("span", { class: natural > CARDS.max_natural ? "over" : "" }, t("natural disasters {0}/{1}", natural, CARDS.max_natural)) : null));
      b.append(el("div", {}, t("Force of this meld: "), el("span", { class: "total" }, String(forceOf(chosen)))));
      b.append(el("div", { class: "row" },
        el("button", { class: "primary", "data-action": action || null, "data-testid": "commit", disabled: busy || !action, onclick: () => act(action) },
          chosen.length ? tn("Meld {0} card", "Meld {0} cards", chosen.length, chosen.length) : t("Meld nothing")),
        el("button", { class: "small", onclick: () => { sel = []; render(); } }, t("Clear"))));
      if (!action) b.append(el("div", { class: "muted" }, t("Not a legal meld (over a limit).")));
    } else {
      b.append(el("div", { class: "prompt" }, t("Redraw: pick up to {0} cards to discard and replace", CARDS.redraw_limit)));
      b.append(el("div", { class: "row" },
        el("button", { class: "primary", "data-action": action || null, "data-testid": "commit", disabled: busy || !action, onclick: () => act(action) },
          chosen.length ? tn("Redraw {0} card", "Redraw {0} cards", chosen.length, chosen.length) : t("Keep my hand")),
        el("button", { class: "small", onclick: () => { sel = []; render(); } }, t("Clear"))));
      if (!action) b.append(el("div", { class: "muted" }, t("At most {0} cards.", CARDS.redraw_limit)));
    }
    box.append(b);
    return;
  }
  const prompts = {
    target: t("Negotiation: discard one Foe card from the Foe meld?"),
    replace: t("Negotiation: replace the lost card from your hand?"),
    pass: t("End of turn: keep one card and pass it to the other player"),
  };
  box.append(el("div", { class: "prompt" }, prompts[verb] || t("Your decision")));
  const name = (s) => term((CARDS.cards[s] || { name: s }).name);
  for (const a of legal) {
    const arg = argOf(a);
    const label = arg === "-" ? (verb === "target" ? t("Do not target") : t("Do not replace")) : (verb === "pass" ? t("Pass {0}", name(arg)) : verb === "target" ? t("Target {0}", name(arg)) : t("Replace with {0}", name(arg)));
    box.append(actionButton(a, label));
  }
}

