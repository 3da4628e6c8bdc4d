/* The cards' faces (issue 29): every card of both games drawn from one SVG sprite
   (/static/art/sprite.svg, see docs/art.md) with art.json saying which symbol each card
   shows, and the zoom that shows a card large with every fact a player needs (hover on a
   desktop, a long press on a touch screen, keyboard focus).

   game.js builds each card element (classes, test hooks, handlers) and asks this module
   for its face: byzFace, lordArt, locationArt, back, loPortrait, token.  The zoom reads
   the card's data-slug / data-lord / data-location and the page's CARDS. */
"use strict";

const CARD_STRINGS = I18N.table({
  type: N_("Type"),
  ages: N_("Ages"),
  force: N_("Force"),
  influence: N_("Influence: {0} IP"),
  legacy: N_("Legacy value: +{0} LT"),
  limit: N_("A meld holds at most {0} of this type."),
  byzDeck: N_("Byzantine deck"),
  foeDeck: N_("Foe deck"),
  negotiable: N_("A Negotiation can discard it from the Foe meld."),
  location: N_("Location"),
  /* Rule texts the rules panel's glossary already gives (help.js). */
  unique: N_("A unique card leaves the game once melded."),
  natural: N_("A natural disaster: a Foe meld holds at most one."),
  legacyRule: N_("A Legacy card: the Emperor gains that many LT when it is melded, even in a lost meld."),
  negotiation: N_("An Emperor who melded a Negotiation card may discard one Northern or Southern Foe card from the Foe meld; the Foe may replace it from hand."),
  silver: N_("A lord worth 1 IP carries a silver key. Two unspent silver keys (or two gold) make you take a Location at once."),
  gold: N_("A lord worth 2 IP carries a gold key. Keys at or before the lord a Location covers are spent."),
  pearls: N_("Lords worth 3 IP carry 2 pearls, lords worth 4 IP carry 1. Pearls break ties, and some Locations count them."),
  swap: N_("A 0-IP lord lets you swap two keyless lords of your chamber."),
  reveal: N_("A 6-IP lord reveals the top lord of the deck onto its colour's discard pile."),
});

const PorphyraCards = (() => {
  let ART = { types: {}, motifs: {}, colours: {}, locations: {}, legendary: {}, tokens: {} };
  const AGES = ["E", "M", "L"];  // the card data's Ages: "all", "E", "M-L"...
  const NUMERALS = ["I", "II", "III"];

  /* The sprite is put in the page once (its symbols are then used by id), and the map. */
  const ready = Promise.all([
    fetch("/static/art/art.json").then((r) => (r.ok ? r.json() : null)).then((a) => { if (a) ART = a; }),
    fetch("/static/art/sprite.svg").then((r) => (r.ok ? r.text() : "")).then((text) => {
      if (!text) return;
      const holder = document.createElement("div");
      holder.className = "art-sprite";
      holder.setAttribute("aria-hidden", "true");
      holder.innerHTML = text;
      document.body.prepend(holder);
    }),
  ]).catch(() => { /* offline: the cards keep their words */ });

  /* An inline <svg> showing sprite symbol `id` (decorative: the card says it in words). */
  function icon(id, cls, box, fill) {
    const aspect = fill ? ' preserveAspectRatio="xMidYMid slice"' : "";
    return el("span", { class: "art-icon" + (cls ? " " + cls : ""), "aria-hidden": "true",
      html: `<svg viewBox="${box || "0 0 512 512"}"${aspect} focusable="false"><use href="#${id}"></use></svg>` });
  }

  function typeArt(type) { return ART.types[type] || { icon: "gi-crossed-swords", colour: "#666", light: "#eee" }; }
  function agesList(ages) {
    if (ages === "all") return AGES.slice();
    const [a, b] = String(ages).split("-").map((x) => x.charAt(0).toUpperCase());
    const i = AGES.indexOf(a), j = AGES.indexOf(b || a);
    return i < 0 ? [] : AGES.slice(i, (j < 0 ? i : j) + 1);
  }

  /* Byzantium: the face of card `c` ({name, deck, type, force, ages, unique, legacy,
     natural}) with slug `slug`: type band, name, the card kind's picture, Age marks, the
     legacy value and the force in a shield. */
  function byzFace(c, slug, opts) {
    opts = opts || {};
    const kind = typeArt(c.type);
    const motif = ART.motifs[slug] || kind.icon;
    const on = agesList(c.ages);
    const face = el("div", { class: "cf" });
    face.style.setProperty("--tc", kind.colour);
    face.style.setProperty("--tl", kind.light);
    face.append(
      el("div", { class: "cf-band" }, icon(kind.icon, "cf-type-icon"),
        el("span", { class: `type t-${String(c.type).replace(/ /g, "-")}` }, term(c.type)),
        c.unique ? el("span", { class: "cf-unique", "aria-hidden": "true" }, "★") : null),
      el("div", { class: "name" }, term(c.name)),
      el("div", { class: "cf-art", "aria-hidden": "true", html:
        `<svg viewBox="0 0 100 56" preserveAspectRatio="xMidYMid slice" focusable="false">`
        + `<rect width="100" height="56" fill="${kind.light}"/>`
        + `<circle cx="50" cy="28" r="25" fill="${kind.colour}" opacity=".13"/>`
        + `<circle cx="50" cy="28" r="25" fill="none" stroke="${kind.colour}" stroke-width="1" opacity=".5"/>`
        + `<g color="${kind.colour}"><use href="#${motif}" x="29" y="7" width="42" height="42"></use></g></svg>` }),
      el("div", { class: "cf-foot" },
        el("div", { class: "ages", "aria-hidden": "true" }, ...AGES.map((a, i) => el("span", { class: on.includes(a) ? "on" : "" }, NUMERALS[i]))),
        c.legacy ? el("span", { class: "cf-legacy", "aria-hidden": "true" }, icon(ART.tokens.legacy || "gi-laurels"), `+${c.legacy}`) : null,
        c.natural ? el("span", { class: "cf-natural", "aria-hidden": "true" }, icon(ART.tokens.natural || "gi-earth-crack")) : null,
        el("div", { class: "force" }, icon(ART.tokens.force || "badge-shield", "cf-shield", "0 0 40 46"), el("span", {}, String(c.force)))));
    return face;
  }

  /* Conspiracy: the guild picture behind a lord of `colour` (the lord keeps its number,
     keys and pearls in front). */
  function lordArt(colour) {
    return icon(ART.colours[colour] || "gi-crown", "lf-art");
  }

  /* A Location's picture: its effect's, on the colour its slug names (max-red...). */
  function locationArt(slug, info) {
    const colours = (CARDS && CARDS.colours) || [];
    const colour = colours.find((c) => String(slug).split("-").includes(c));
    return icon(ART.locations[(info && info.effect) || "none"] || "gi-greek-temple", "loc-art" + (colour ? ` c-${colour}` : ""));
  }

  /* A face-down card: "byzantium" | "foe" | "lord" | "location"; `fill`: cover a box of
     another shape (a face-down Location lies sideways), cropping the back. */
  function back(deck, cls, fill) {
    return icon(`back-${deck}`, "back-art" + (cls ? " " + cls : ""), "0 0 100 140", fill);
  }

  /* The Legendary Opponent's portrait (lo: its card as the observation gives it). */
  function loPortrait(lo) {
    const entry = ART.legendary[(lo && lo.name) || ""] || { icon: "gi-crown", colour: "purple" };
    return el("div", { class: `lo-portrait c-${entry.colour}`, "aria-hidden": "true" }, icon(entry.icon));
  }

  /* A token's icon ("replay"). */
  function token(name) { return icon(ART.tokens[name] || "gi-hourglass", "token-icon"); }

  /* ------------------------------------------------------------------ the zoom */
  let zoomBox = null;
  let zoomFor = null;
  let hoverTimer = null;
  let pressTimer = null;
  let pressed = false;
  let touching = false;  // a finger is on the screen
  let keyboard = false;  // the last input was a key (a click's focus does not zoom)

  function box() {
    if (!zoomBox) {
      zoomBox = el("div", { id: "card-zoom", class: "card-zoom hidden", role: "tooltip", "data-testid": "card-zoom" });
      document.body.append(zoomBox);
    }
    return zoomBox;
  }

  function fact(label, value) { return el("div", { class: "zf" }, el("span", { class: "zl" }, label), " ", el("strong", {}, String(value))); }

  function byzZoom(slug) {
    const c = CARDS && CARDS.cards && CARDS.cards[slug];
    if (!c) return null;
    const big = el("div", { class: `card zoomed ${c.deck === "foe" ? "foe" : "byz"}` }, byzFace(c, slug));
    const limit = CARDS.limits && CARDS.limits[c.deck] && CARDS.limits[c.deck][c.type];
    const rules = [];
    if (limit) rules.push(CARD_STRINGS.limit(limit));
    if (c.type === "Negotiation") rules.push(CARD_STRINGS.negotiation);
    if (c.type === "Northern Foe" || c.type === "Southern Foe") rules.push(CARD_STRINGS.negotiable);
    if (c.legacy) rules.push(CARD_STRINGS.legacyRule);
    if (c.natural) rules.push(CARD_STRINGS.natural);
    if (c.unique) rules.push(CARD_STRINGS.unique);
    return [big, el("div", { class: "zoom-facts" },
      el("div", { class: "zoom-name" }, term(c.name)),
      fact(CARD_STRINGS.type, `${term(c.type)} · ${c.deck === "foe" ? CARD_STRINGS.foeDeck : CARD_STRINGS.byzDeck}`),
      fact(CARD_STRINGS.ages, typeof agesText === "function" ? agesText(c.ages) : c.ages),
      fact(CARD_STRINGS.force, c.force),
      c.legacy ? el("div", { class: "zf" }, CARD_STRINGS.legacy(c.legacy)) : null,
      ...rules.map((r) => el("p", { class: "zr" }, r)))];
  }

  function lordZoom(node, name) {
    const info = CARDS && CARDS.lords && CARDS.lords[name];
    if (!info) return null;
    const big = node.cloneNode(true);
    big.removeAttribute("id");
    for (const a of ["tabindex", "role", "aria-pressed", "data-focus-key", "data-slot", "data-testid"]) big.removeAttribute(a);
    big.classList.remove("small", "pickable", "picked");
    big.classList.add("zoomed");
    big.setAttribute("aria-hidden", "true");
    const rules = [];
    if (info.key === "silver") rules.push(CARD_STRINGS.silver);
    if (info.key === "gold") rules.push(CARD_STRINGS.gold);
    if (info.pearls) rules.push(CARD_STRINGS.pearls);
    if (info.effect === "swap") rules.push(CARD_STRINGS.swap);
    if (info.effect === "reveal") rules.push(CARD_STRINGS.reveal);
    return [big, el("div", { class: "zoom-facts" },
      el("div", { class: "zoom-name" }, node.getAttribute("aria-label") || name),
      fact(CARD_STRINGS.influence(info.ip), ""),
      ...rules.map((r) => el("p", { class: "zr" }, r)))];
  }

  function locationZoom(node, slug) {
    const info = CARDS && CARDS.locations && CARDS.locations[slug];
    const faceDown = node.classList.contains("facedown");
    const big = node.cloneNode(true);
    for (const a of ["tabindex", "role", "data-testid"]) big.removeAttribute(a);
    for (const b of big.querySelectorAll("button")) b.remove();
    big.classList.add("zoomed");
    big.setAttribute("aria-hidden", "true");
    const name = (node.querySelector(".lname") || {}).textContent || slug;
    return [big, el("div", { class: "zoom-facts" },
      el("div", { class: "zoom-name" }, name),
      fact(CARD_STRINGS.type, CARD_STRINGS.location),
      fact(CARD_STRINGS.influence(faceDown || !info ? 5 : info.ip), ""),
      el("p", { class: "zr" }, faceDown || !info || !info.text ? t("no effect") : term(info.text)))];
  }

  function contentFor(node) {
    if (node.dataset.slug) return byzZoom(node.dataset.slug);
    if (node.dataset.lord) return lordZoom(node, node.dataset.lord);
    if (node.dataset.location) return locationZoom(node, node.dataset.location);
    return null;
  }

  /* Show the zoom of card `node` beside it (below the top bar on a narrow screen). */
  function show(node) {
    const parts = contentFor(node);
    if (!parts) return;
    const z = box();
    z.innerHTML = "";
    z.append(...parts);
    z.classList.remove("hidden");
    zoomFor = node;
    node.setAttribute("aria-describedby", "card-zoom");
    // Above the card where there is room (the hand and its neighbours stay in view),
    // else beside it, else below; always inside the window.
    const r = node.getBoundingClientRect();
    const w = z.offsetWidth, h = z.offsetHeight;
    const vw = document.documentElement.clientWidth, vh = window.innerHeight;
    const clampX = (x) => Math.min(Math.max(6, x), Math.max(6, vw - w - 6));
    const clampY = (y) => Math.min(Math.max(6, y), Math.max(6, vh - h - 6));
    let left = clampX(r.left + r.width / 2 - w / 2);
    let top;
    if (r.top - h - 10 >= 6) top = r.top - h - 10;
    else if (r.right + 10 + w <= vw - 6) { left = r.right + 10; top = clampY(r.top + r.height / 2 - h / 2); }
    else if (r.left - 10 - w >= 6) { left = r.left - 10 - w; top = clampY(r.top + r.height / 2 - h / 2); }
    else top = clampY(r.bottom + 10);
    z.style.left = `${Math.round(left)}px`;
    z.style.top = `${Math.round(top)}px`;
  }

  function hide() {
    clearTimeout(hoverTimer);
    if (zoomFor) zoomFor.removeAttribute("aria-describedby");
    zoomFor = null;
    if (zoomBox) zoomBox.classList.add("hidden");
  }

  function zoomable(target) {
    return target && target.closest ? target.closest("[data-zoom]") : null;
  }

  function install() {
    // Hover is a mouse's (a finger's tap also sends mouse events: it picks, never zooms).
    document.addEventListener("pointerover", (ev) => {
      if (pressed || ev.pointerType !== "mouse") return;
      const node = zoomable(ev.target);
      if (!node) return;
      if (node === zoomFor) return;
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(() => { if (node.isConnected) show(node); }, 350);
    });
    document.addEventListener("pointerout", (ev) => {
      if (ev.pointerType !== "mouse") return;
      const node = zoomable(ev.target);
      if (!node || (ev.relatedTarget && node.contains(ev.relatedTarget))) return;
      clearTimeout(hoverTimer);
      if (zoomFor === node && document.activeElement !== node) hide();
    });
    document.addEventListener("pointerdown", () => { keyboard = false; }, true);
    document.addEventListener("keydown", () => { keyboard = true; }, true);
    document.addEventListener("focusin", (ev) => {
      if (!keyboard) return;
      const node = zoomable(ev.target);
      if (node && node === ev.target) show(node); else if (zoomFor) hide();
    });
    document.addEventListener("focusout", (ev) => { if (zoomFor && ev.target === zoomFor) hide(); });
    document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && zoomFor) hide(); });
    /* A long press (half a second) zooms; the tap that ends it does not pick the card. */
    document.addEventListener("touchstart", (ev) => {
      touching = true;
      const node = zoomable(ev.target);
      pressed = false;
      clearTimeout(pressTimer);
      if (!node) { if (zoomFor) hide(); return; }
      pressTimer = setTimeout(() => { pressed = true; if (node.isConnected) show(node); }, 500);
    }, { passive: true });
    document.addEventListener("touchmove", () => clearTimeout(pressTimer), { passive: true });
    document.addEventListener("touchcancel", () => { touching = false; clearTimeout(pressTimer); }, { passive: true });
    document.addEventListener("touchend", (ev) => {
      touching = false;
      clearTimeout(pressTimer);
      if (pressed) { ev.preventDefault(); setTimeout(() => { pressed = false; }, 50); }
    });
    // A finger held on a card opens the zoom, not the browser's menu (a mouse's stays).
    document.addEventListener("contextmenu", (ev) => { if (touching && zoomable(ev.target)) ev.preventDefault(); });
    document.addEventListener("click", (ev) => {
      if (pressed) { ev.stopPropagation(); ev.preventDefault(); return; }
      clearTimeout(hoverTimer);
      if (zoomFor) hide();  // the player acts: the table is theirs to see
    }, true);
    window.addEventListener("scroll", () => { if (zoomFor && document.activeElement !== zoomFor) hide(); }, { passive: true });
  }
  install();

  return { ready, byzFace, lordArt, locationArt, back, loPortrait, token, show, hide, agesList };
})();
