/* Game page, Conspiracy: the pyramid chamber, lords and Locations, keys and pearls, the
   Legendary Opponent's card, the scores and the builders of its choices.  Part of the game
   page with game.js (its state and helpers: M, CARDS, swapSel, actionButton,
   keyboardClick...), loaded after it; nothing here runs before the page starts. */
"use strict";

const ROWS = [5, 4, 3, 2, 1];
const KEY_COLOURS = { silver: "#e8e8ee", gold: "#f2c230" };

function keySvg(metal) {
  const c = KEY_COLOURS[metal] || "#ccc";
  return `<svg width="15" height="12" viewBox="0 0 30 24" role="img" aria-label="${metal === "gold" ? t("gold key") : t("silver key")}"><circle cx="8" cy="12" r="6" fill="none" stroke="${c}" stroke-width="3.5"/><path d="M14 12h14M24 12v6M28 12v5" stroke="${c}" stroke-width="3.5" fill="none"/></svg>`;
}
function pearlSvg(size) {
  const s = size || 11;
  // A filled, shaded pearl (an outlined circle read as an unchecked radio button).
  return `<svg width="${s}" height="${s}" viewBox="0 0 12 12" role="img" aria-label="${t("pearl")}"><circle cx="6" cy="6" r="5.5" fill="#c9bfd8"/><circle cx="5.3" cy="5.3" r="4.4" fill="#f4eefa"/><circle cx="4" cy="3.9" r="1.5" fill="#ffffff"/></svg>`;
}

function lordInfo(name) {
  return (CARDS && CARDS.lords[name]) || { colour: name.replace(/\d+$/, ""), ip: Number(name.replace(/^\D+/, "")), key: null, pearls: 0, effect: null };
}

function lordEl(name, opts) {
  opts = opts || {};
  const info = lordInfo(name);
  const icons = el("div", { class: "icons" });
  if (info.key) icons.append(el("span", { html: keySvg(info.key) }));
  for (let i = 0; i < info.pearls; i++) icons.append(el("span", { html: pearlSvg(10) }));
  if (info.effect === "swap") icons.append(el("span", { title: t("swap two lords") }, "⇄"));
  if (info.effect === "reveal") icons.append(el("span", { title: t("reveals the top lord") }, "◉"));
  const symbol = COLOUR_SYMBOLS[info.colour] || "";
  const label = lordLabel(info, symbol) + (opts.crest ? ", " + GAME_STRINGS.crest : "") + (opts.location ? ", " + t("under Location {0}", locationName(opts.location)) : "");
  const node = el("div", {
    class: `lord c-${info.colour}${opts.small ? " small" : ""}${opts.extra ? " " + opts.extra : ""}`,
    "data-lord": name, "data-zoom": "lord", onclick: opts.onclick || null,
    "data-slot": opts.slot ? String(opts.slot) : null,
    role: opts.onclick ? "button" : "img",
    tabindex: opts.onclick ? "0" : null,
    "aria-pressed": opts.onclick ? String((opts.extra || "").includes("picked")) : null,
    "aria-label": label,
  },
  PorphyraCards.lordArt(info.colour),
  el("span", { class: "sym", "aria-hidden": "true" }, symbol),
  opts.crest ? el("span", { class: "crest", title: GAME_STRINGS.crest }, "♛") : null,
  el("div", { class: "ip" }, String(info.ip)), icons,
  opts.location ? el("div", { class: "loc" }, opts.faceDown ? `▼ ${locationName(opts.location)}` : locationName(opts.location)) : null);
  if (opts.onclick) {
    if (opts.slot) node.dataset.focusKey = `slot-${opts.slot}`;
    keyboardClick(node, opts.onclick);
  }
  return node;
}

function locationEl(slug, extra, faceDown) {
  if (slug === FACE_DOWN || faceDown) {
    return el("div", { class: "location facedown", "data-location": slug, "data-zoom": "location", tabindex: "0", role: "img", "aria-label": t("face down: no effect, 5 IP at the end") },
      PorphyraCards.back("location", null, true), el("span", { class: "lip" }, "5"), el("div", { class: "lname" }, locationName(slug)), el("div", {}, t("no effect")), extra || null);
  }
  const info = (CARDS && CARDS.locations[slug]) || { ip: "?", text: "" };
  return el("div", { class: "location", "data-location": slug, "data-zoom": "location", tabindex: "0" },
    PorphyraCards.locationArt(slug, info), el("span", { class: "lip" }, `${info.ip}`), el("div", { class: "lname" }, locationName(slug)), el("div", {}, info.text ? term(info.text) : t("no effect")), extra || null);
}

function crestSlots(chamber) {
  const best = {};
  chamber.forEach((cell, i) => {
    if (!cell) return;
    const info = lordInfo(cell.lord);
    if (!(info.colour in best) || info.ip > best[info.colour][0]) best[info.colour] = [info.ip, i];
  });
  return new Set(Object.values(best).map((v) => v[1]));
}

function pyramidEl(chamber, swapping) {
  const crests = crestSlots(chamber);
  const box = el("div", { class: "pyramid" });
  let slot = 0;
  for (const width of ROWS) {
    const row = el("div", { class: "prow" });
    for (let k = 0; k < width; k++) {
      const cell = chamber[slot];
      const n = slot + 1;
      if (cell) {
        const pick = swapping && swapping.slots.has(n);
        row.append(lordEl(cell.lord, {
          crest: crests.has(slot), location: cell.location, faceDown: cell.face_down, slot: n,
          extra: pick ? (swapSel.includes(n) ? "pickable picked" : "pickable") : "",
          onclick: pick ? () => { swapSel = swapSel.includes(n) ? swapSel.filter((x) => x !== n) : [...swapSel, n].slice(-2); render(); } : null,
        }));
      } else {
        row.append(el("div", { class: "lord empty", "data-slot": String(n), "aria-label": t("empty slot {0}", n) }, String(n)));
      }
      slot += 1;
    }
    box.append(row);
  }
  return box;
}

/* Labels are English msgids, translated when drawn. */
const SCORE_ROWS = [["lords", N_("Best lord per colour")], ["locations", N_("Locations")], ["coalition", N_("Largest coalition ×3")], ["pearl_master", N_("Pearl Master")], ["lo_bonus", N_("LO card bonus")], ["total", N_("Total IP")], ["pearls", N_("Pearls (tie-break)")]];

function scoreTable(obs, scores) {
  const n = scores.length;
  const table = el("table", { class: "scoretable", "data-testid": "scores" },
    el("tr", {}, el("th", {}, ""), ...scores.map((_, i) => el("th", { class: "num" }, seatName(i)))));
  for (const [key, label] of SCORE_ROWS) {
    if (key === "lo_bonus" && !scores.some((s) => s.lo_bonus !== undefined)) continue;
    table.append(el("tr", { class: key === "total" ? "winner" : "" }, el("td", {}, t(label)),
      ...scores.map((s) => el("td", { class: "num" }, String(s[key] !== undefined ? s[key] : "")))));
  }
  return n ? table : el("div", { class: "muted" }, t("no scores"));
}

function consRender(obs, board, actions) {
  const legal = M.legal;
  const byVerb = {};
  for (const a of legal) (byVerb[verbOf(a)] = byVerb[verbOf(a)] || []).push(a);
  const phaseNames = { recruit: t("recruit lords"), keep: t("keep a drawn lord"), place: t("place the next lord"), swap: t("swap two lords (0-IP)"), location: t("take a Location"), lockeep: t("keep a drawn Location"), replay: t("Replay token"), lopile: t("choose the LO's pile"), loplace: t("order the LO's lords"), over: t("game over") };
  const status = el("div", { class: "status" },
    el("span", { class: "big" }, t("Turn {0}", obs.turn)),
    obs.current_player >= 0 ? el("span", { class: "badge turn" }, `${seatName(obs.current_player)}: ${phaseNames[obs.phase] || obs.phase}`) : el("span", { class: "badge" }, t("game over")),
    // C-R7: a restriction binds the seats in its "against" list; in solo that list is
    // empty (the Legendary Opponent is never restricted, rules section 4.2), as the
    // terminal says too.
    obs.restriction && !(obs.restriction.against || []).length ? el("span", { class: "badge" }, `${locationName(obs.restriction.location)} ${t("of {0}: no effect, the LO is never restricted (section 4.2)", seatName(obs.restriction.owner))}`) : null,
    obs.restriction && (obs.restriction.against || []).length ? el("span", { class: "badge gold" }, t("{0}: others draw exactly {1} (until {2}'s turn)", locationName(obs.restriction.location), obs.restriction.count, seatName(obs.restriction.owner))) : null,
    obs.end_triggered ? el("span", { class: "badge gold" }, t("{0} filled the chamber: last round", seatName(obs.end_trigger_player))) : null);
  board.append(status);

  // The court: decks, face-up Locations, what is being drawn or placed.
  const court = el("div", { class: "panel section" });
  const lordDeck = el("div", { class: "deckbox", "data-testid": "lord-deck" }, PorphyraCards.back("lord", "deck-back"), el("div", { class: "muted" }, t("Lord deck")), el("div", { class: "count" }, String(obs.lord_deck_size)),
    el("div", {}, ...(byVerb.draw || []).map((a) => actionButton(a, t("Draw {0}", argOf(a))))));
  const locDeck = el("div", { class: "deckbox", "data-zone": "location-deck" }, PorphyraCards.back("location", "deck-back"), el("div", { class: "muted" }, t("Location deck")), el("div", { class: "count" }, String(obs.location_deck_size)),
    el("div", {}, ...(byVerb.locdraw || []).map((a) => actionButton(a, t("Draw {0}", argOf(a))))));
  const loctake = new Set((byVerb.loctake || []).map(argOf));
  const faceUp = el("div", { class: "flexwrap" }, ...obs.face_up_locations.map((slug) =>
    locationEl(slug, loctake.has(slug) ? el("div", { style: "margin-top:4px" }, actionButton(`loctake ${slug}`, t("Take"))) : null)));
  court.append(el("div", { class: "flexwrap" }, lordDeck, locDeck,
    el("div", {}, el("h3", {}, t("Face-up Locations ({0})", obs.face_up_locations.length)), obs.face_up_locations.length ? faceUp : el("span", { class: "muted" }, t("none")))));
  const pm = obs.pearl_master;
  court.append(el("div", { style: "margin-top:8px", "data-testid": "pearl-master" }, el("span", { class: "pm", html: pearlSvg(14) }), " " + t("Pearl Master: "),
    el("strong", {}, pm === null ? t("nobody yet") : seatName(pm))));

  const pending = el("div", { class: "flexwrap", style: "margin-top:8px" });
  if (obs.drawn_lords.length) {
    const keep = new Set((byVerb.keep || []).map(argOf));
    pending.append(el("div", {}, el("h3", {}, t("Drawn lords — keep one")), el("div", { class: "flexwrap" },
      ...obs.drawn_lords.map((l) => el("div", {}, lordEl(l), keep.has(l) ? actionButton(`keep ${l}`, t("Keep")) : null)))));
  }
  if (obs.to_place.length) {
    const place = new Set((byVerb.place || []).map(argOf));
    pending.append(el("div", {}, el("h3", {}, t("Lords to place, in the order you choose")), el("div", { class: "flexwrap" },
      ...obs.to_place.map((l) => el("div", {}, lordEl(l), place.has(l) ? actionButton(`place ${l}`, t("Place")) : null)))));
  }
  if (obs.drawn_locations.length) {
    pending.append(el("div", {}, el("h3", {}, t("Drawn Locations — keep one")), el("div", { class: "flexwrap" },
      ...obs.drawn_locations.map((s) => locationEl(s, (byVerb.lockeep || []).includes(`lockeep ${s}`) ? actionButton(`lockeep ${s}`, t("Keep")) : null)))));
  }
  if (obs.location_deck) {  // the whole deck: on the table, its buttons in the decision too
    court.append(el("div", {}, el("h3", {}, t("Deck search: choose any Location")), el("div", { class: "flexwrap" },
      ...obs.location_deck.map((s) => locationEl(s, (byVerb.locpick || []).includes(`locpick ${s}`) ? actionButton(`locpick ${s}`, t("Take")) : null)))));
  }
  if (pending.childNodes.length) document.getElementById("handslot").append(el("div", { class: "panel pending", "data-zone": "pending" }, pending));
  if (obs.hidden && obs.hidden.lord_deck) {
    court.append(el("details", {}, el("summary", {}, GAME_STRINGS.drawOrder(t("Lord"))),
      el("div", { class: "flexwrap" }, ...obs.hidden.lord_deck.map((l) => lordEl(l, { small: true })))));
  }
  board.append(court);

  // Discard piles.
  const take = new Set((byVerb.take || []).map(argOf));
  const piles = el("div", { class: "piles" });
  for (const colour of CARDS.colours) {
    const pile = obs.piles[colour] || [];
    piles.append(el("div", { class: "pile", "data-pile": colour },
      el("h4", {}, el("span", {}, el("span", { class: `sym-chip c-${colour}`, "aria-hidden": "true" }, COLOUR_SYMBOLS[colour] || ""), ` ${term(colour)} (${pile.length})`),
        take.has(colour) ? actionButton(`take ${colour}`, t("Take all")) : null),
      el("div", { class: "stack" }, ...pile.map((l) => lordEl(l, { small: true })))));
  }
  board.append(el("div", { class: "panel section" }, el("h3", {}, t("Discard piles")), piles));

  // Chambers.
  const scores = (M.derived && M.derived.scores) || [];
  const swapActions = byVerb.swap || [];
  let swapping = null;
  if (swapActions.length > 1) {
    const slots = new Set();
    for (const a of swapActions) { const [i, j] = argOf(a).split(" ").map(Number); if (j) { slots.add(i); slots.add(j); } }
    swapping = { slots };
  }
  const players = el("div", { class: "players" });
  obs.players.forEach((p, i) => {
    const keys = p.unspent_keys || { silver: 0, gold: 0 };
    const head = el("div", { class: "row", style: "justify-content:space-between" },
      el("strong", {}, seatName(i)),
      el("span", {},
        el("span", { html: pearlSvg(13) }), " ", el("span", { "data-count": `pearls-${i}` }, String(p.pearls)), " ",
        pm === i ? el("span", { class: "badge gold" }, t("Pearl Master +5")) : null,
        el("span", { class: "badge", title: t("unspent keys") }, el("span", { html: keySvg("silver") }), " ", el("span", { "data-count": `silver-${i}` }, String(keys.silver)), " ", el("span", { html: keySvg("gold") }), " ", el("span", { "data-count": `gold-${i}` }, String(keys.gold))),
        scores[i] ? el("span", { class: "badge" }, t("{0} IP", scores[i].total)) : null));
    const locs = el("div", { class: "flexwrap" }, ...p.locations.map((s) => locationEl(s, null, p.legendary_opponent)));
    // While this player swaps, the chamber to click is in the dock with the confirm button.
    const into = i === M.seat && swapping ? document.getElementById("handslot") : players;
    into.append(el("div", { class: "panel player" + (obs.current_player === i ? " current" : "") + (i === M.seat ? " mine" : ""), "data-player": String(i) },
      head, pyramidEl(p.chamber, i === M.seat ? swapping : null),
      p.any_keys ? el("span", { class: "badge" }, term("any 2 keys take a Location")) : null,
      p.deck_search ? el("span", { class: "badge" }, t("deck search")) : null,
      p.legendary_opponent ? el("span", { class: "badge gold" }, t("Legendary Opponent")) : null,
      i === M.seat && obs.replay_token ? el("span", { class: "badge gold", title: t("spend it at the end of a turn to play again") }, PorphyraCards.token("replay"), t("Replay token")) : null,
      i === M.seat && obs.forced_draw_one ? el("span", { class: "badge" }, t("Military: you must draw exactly 1")) : null,
      p.locations.length ? el("div", { class: "player-locations" }, el("h3", { style: "margin-top:6px" }, t("Locations")), locs) : null));
  });
  board.append(players);
  if (obs.legendary_opponent) board.insertBefore(loCard(obs.legendary_opponent, obs.lo_choice), board.children[1] || null);
  board.append(el("div", { class: "panel section", style: "margin-top:12px" }, el("h3", {}, M.status === "over" ? t("Final scores") : t("Score if the game ended now")), scoreTable(obs, scores)));

  consActions(obs, actions, byVerb, swapping);
}

function loCard(lo, choice) {
  const box = el("div", { class: "lo-card section", "data-testid": "lo-card" }, el("h3", {}, t("Legendary Opponent")));
  if (typeof lo !== "object" || lo === null) { box.append(el("div", {}, String(lo))); return box; }
  box.append(el("div", { class: "big lo-head" }, PorphyraCards.loPortrait(lo), el("strong", {}, term(lo.title || lo.name))));
  const conds = lo.conditions || [];
  box.append(el("div", {}, GAME_STRINGS.loTakes),
    el("ol", { class: "lo-conditions", "data-testid": "lo-conditions" }, ...conds.map((c) => el("li", {},
      el("strong", {}, helpCondition(c.name || c, c.text)), el("span", { class: "muted" }, ` (${c.name || c})`)))),
    el("div", { class: "muted" }, GAME_STRINGS.loTie));
  if (lo.bonus) box.append(el("div", {}, el("strong", {}, t("End bonus: ")), term(String(lo.bonus))));
  if (lo.ability) box.append(el("div", {}, el("strong", {}, t("Ability: ")), term(String(lo.ability))));
  if (choice) {
    // The pending pile choice (lopile) in words: its piles' colours and its reason.
    const words = typeof choice === "object"
      ? t("The LO takes one of: {0}", (choice.piles || []).map((c) => term(c)).join(", ")) + " " + t("({0}); you choose.", term(String(choice.reason || "")))
      : String(choice);
    box.append(el("div", { class: "muted", style: "margin-top:4px" }, t("Pending: "), words));
  }
  return box;
}

function consActions(obs, box, byVerb, swapping) {
  const legal = M.legal;
  if (M.status === "over") { box.append(el("div", { class: "prompt" }, t("The game is over."))); return; }
  if (M.seat === null) { box.append(el("div", { class: "prompt" }, t("Spectating")), el("div", { class: "muted" }, obs.current_player >= 0 ? t("{0} is deciding.", seatName(obs.current_player)) : "")); return; }
  if (!legal.length) { box.append(el("div", { class: "prompt" }, t("Waiting")), el("div", { class: "muted" }, t("{0} is deciding…", seatName(obs.current_player)))); return; }
  const prompts = {
    recruit: t("Recruit: draw 1-3 lords and keep one, or take a whole discard pile"),
    keep: t("Keep one of the drawn lords"), place: t("Place the next lord"), swap: t("You may swap two keyless lords"),
    location: t("Your keys win a Location: draw 1-3 or take a face-up one"), lockeep: t("Keep one drawn Location"),
    replay: t("Spend your Replay token to play another turn now?"),
    lopile: t("Several piles qualify: choose the pile the Legendary Opponent takes"),
    loplace: t("Choose the next lord the Legendary Opponent places"),
  };
  box.append(el("div", { class: "prompt" }, prompts[obs.phase] || t("Your decision")));
  const labels = { draw: t("Draw"), take: t("Take pile"), keep: t("Keep"), place: t("Place"), locdraw: t("Draw Locations:"), loctake: t("Take"), lockeep: t("Keep"), locpick: t("Take"), lopile: t("LO takes the pile"), loplace: t("LO places") };
  for (const [verb, list] of Object.entries(byVerb)) {
    if (verb === "swap" && swapping) continue;
    for (const a of list) {
      // The argument is notation (a lord such as red4, a colour, a Location): each reads
      // by its name in the page's language.
      const arg = argOf(a);
      let label = labels[verb] ? `${labels[verb]} ${argText(arg)}` : actionText(a);
      if (verb === "swap") label = t("Do not swap");
      if (verb === "replay") label = a === "replay" ? t("Play again (spend the token)") : t("Keep the token");
      box.append(actionButton(a, label));
    }
  }
  if (swapping) {
    const [a, b] = swapSel.slice().sort((x, y) => x - y);
    const action = a && b ? `swap ${a} ${b}` : null;
    const ok = action && byVerb.swap.includes(action);
    box.append(el("div", { class: "builder" },
      el("div", {}, t("Click two highlighted lords of your chamber (keyless, uncovered) to swap them.")),
      el("div", { class: "row" },
        el("button", { class: "primary", "data-action": ok ? action : null, disabled: busy || !ok, onclick: () => act(action) }, ok ? t("Swap slots {0} and {1}", a, b) : t("Swap")),
        actionButton("swap -", t("Do not swap")))));
  }
}

/* The page's fixed parts: the rules button, then (not in the replay viewer) the chat and
   the alerts, and the connection. */
