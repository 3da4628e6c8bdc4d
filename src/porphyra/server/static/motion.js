/* Moves are seen, not only read (issue 29): between the view rendered before and the new
   one, what changed moves (FLIP: the positions are measured before the page re-renders,
   the new elements start where the old ones were and glide to their place, with the Web
   Animations API).  Byzantium: drawn cards slide into the hand, a revealed meld turns
   over, cards go to the discard or out of play, the passed card crosses the table, the
   Territory token moves along its track and the Legacy bars grow.  Conspiracy: a lord
   slides from the deck, a pile or the drawn lords into its chamber slot, a taken pile
   sweeps to the player, a won Location flies to its owner, pearls and keys count up.

   Each animation lasts at most MOTION_MS.  A new view waits until the previous view's
   animations are over (a bot's several moves are followed one by one), except the view
   that gives this page a decision: then everything still moving finishes at once, and a
   click or key press finishes them too, so the player's input is never delayed.  Nothing
   moves in a hidden tab, nor when the player asks for reduced motion (the operating
   system's prefers-reduced-motion, or this page's setting, remembered in localStorage).
   Every user-visible string of this module is in MOTION_STRINGS. */
"use strict";

const MOTION_STRINGS = I18N.table({
  heading: N_("Motion"),
  reduce: N_("Reduce motion (no animations)"),
});

const PorphyraMotion = (() => {
  const MOTION_MS = 380;  // the longest animation (issue 29: at most about 400 ms)
  const GAP_MS = 60;      // a pause between two queued moves
  const STORE = "porphyra.reduceMotion";
  const PIECES = ".card[data-slug], .lord[data-lord], .location[data-location], [data-testid=tt-track] .mark";
  const ZONES = "[data-zone], [data-testid], [data-pile], [data-player]";
  const media = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
  const running = new Set();
  const stats = { played: 0, skipped: 0 };
  let before = null;  // what capture() measured: {pieces, counts, bars}

  function chosen() {
    try { return localStorage.getItem(STORE) === "1"; } catch (e) { return false; }
  }
  /* True when the player asked for reduced motion (system or page setting). */
  function reduced() { return Boolean(media && media.matches) || chosen(); }
  function off() { return reduced() || document.hidden; }
  function markPage() { document.documentElement.classList.toggle("reduce-motion", reduced()); }

  function keyOf(node) {
    if (node.dataset.slug) return "card:" + node.dataset.slug;
    if (node.dataset.lord) return "lord:" + node.dataset.lord;
    if (node.dataset.location) return "location:" + node.dataset.location;
    return "territory";
  }
  function zoneOf(node) {
    const z = node.parentElement ? node.parentElement.closest(ZONES) : null;
    if (!z) return "";
    return z.dataset.zone || z.dataset.testid || (z.dataset.pile ? "pile:" + z.dataset.pile : "player:" + z.dataset.player);
  }
  function shown(rect) { return rect.width > 0 && rect.height > 0; }
  function visible(rect) {
    return shown(rect) && rect.bottom > 0 && rect.top < window.innerHeight && rect.right > 0 && rect.left < window.innerWidth;
  }
  /* Whether `rect` of `node` shows inside its scrolling box (the table or the dock). */
  function inView(node, rect) {
    const box = node.closest("#table-scroll, #dock");
    if (!box) return visible(rect);
    const b = box.getBoundingClientRect();
    return visible(rect) && rect.bottom > b.top && rect.top < b.bottom;
  }

  /* Measure the pieces on the page before it re-renders a new view. */
  function capture() {
    markPage();
    if (off()) { before = null; return; }
    const pieces = [];
    for (const node of document.querySelectorAll(PIECES)) {
      const rect = node.getBoundingClientRect();
      if (shown(rect)) pieces.push({ key: keyOf(node), zone: zoneOf(node), rect, seen: inView(node, rect), node: node.cloneNode(true) });
    }
    const counts = new Map();
    for (const node of document.querySelectorAll("[data-count]")) counts.set(node.dataset.count, Number(node.textContent));
    document.querySelectorAll("[data-testid=lt] strong").forEach((node, i) => counts.set(`legacy-${i}`, Number(node.textContent)));
    const bars = [...document.querySelectorAll("[data-testid=lt] .bar div")].map((node) => node.style.width);
    before = { pieces, counts, bars };
  }

  function track(anim, kind) {
    anim.id = "motion-" + kind;
    running.add(anim);
    stats.played += 1;
    const done = () => running.delete(anim);
    anim.addEventListener("finish", done);
    anim.addEventListener("cancel", done);
    return anim;
  }
  const TIMING = { duration: MOTION_MS, easing: "cubic-bezier(.2, .7, .3, 1)" };

  function layer() {
    let box = document.getElementById("motion-layer");
    if (!box) {
      box = el("div", { id: "motion-layer", "aria-hidden": "true" });
      document.body.append(box);
    }
    return box;
  }
  /* A copy of `node` drawn over the page at `rect` (it crosses scrolling boxes unclipped). */
  function ghost(node, rect) {
    const copy = node.cloneNode(true);
    // A picture only: no control, test hook, piece key or name of its own.
    for (const part of copy.querySelectorAll("button, a, input, select")) part.remove();
    for (const part of [copy, ...copy.querySelectorAll("*")]) {
      for (const name of [...part.getAttributeNames()]) {
        if (name === "id" || name === "role" || name === "tabindex" || name === "title" || name.startsWith("aria-") || name.startsWith("data-")) part.removeAttribute(name);
      }
      part.classList.remove("selectable", "selected", "pickable", "picked", "hinted", "fresh");
    }
    copy.classList.add("motion-ghost");
    Object.assign(copy.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px`, margin: "0" });
    layer().append(copy);
    return copy;
  }
  function delta(from, to) {
    return `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${from.width / to.width}, ${from.height / to.height})`;
  }

  /* `node` (now at `to`) glides from `from`: in place when it stays in its box, else as a
     copy over the page while the real one is hidden. */
  function glide(node, from, to, across, kind) {
    if (Math.abs(from.left - to.left) < 2 && Math.abs(from.top - to.top) < 2) return;
    if (!across) {
      track(node.animate([{ transform: delta(from, to), transformOrigin: "0 0" }, { transform: "none", transformOrigin: "0 0" }], TIMING), kind);
      return;
    }
    const copy = ghost(node, to);
    const anim = track(copy.animate([{ transform: delta(from, to), transformOrigin: "0 0" }, { transform: "none", transformOrigin: "0 0" }], TIMING), kind);
    track(node.animate([{ opacity: 0 }, { opacity: 0 }], { duration: MOTION_MS }), kind + "-hold");
    const drop = () => copy.remove();
    anim.addEventListener("finish", drop);
    anim.addEventListener("cancel", drop);
  }

  /* An old piece that left the page flies (as a copy) to `to` and fades there. */
  function leave(piece, to) {
    const copy = ghost(piece.node, piece.rect);
    const end = to
      ? `translate(${to.left + to.width / 2 - piece.rect.left - piece.rect.width / 2}px, ${to.top + to.height / 2 - piece.rect.top - piece.rect.height / 2}px) scale(.4)`
      : "translateY(24px) scale(.8)";
    const anim = track(copy.animate([{ transform: "none", opacity: 1 }, { transform: end, opacity: 0 }], TIMING), "leave");
    const drop = () => copy.remove();
    anim.addEventListener("finish", drop);
    anim.addEventListener("cancel", drop);
  }

  /* The box of the first `selector` element where it shows now, else null. */
  function rectOf(selector) {
    const node = selector && document.querySelector(selector);
    const rect = node ? node.getBoundingClientRect() : null;
    return rect && inView(node, rect) ? rect : null;
  }

  /* Where a piece that appeared comes from, and where one that left goes (Byzantium
     knows the discard, the removed cards and the passed card; Conspiracy its decks). */
  function sourceOf(piece, prev, obs) {
    if (piece.key.startsWith("card:")) return rectOf(prev.phase === "pass" ? "[data-zone=opponent]" : "[data-zone=decks]");
    if (piece.key.startsWith("lord:")) return rectOf("[data-testid=lord-deck]");
    if (piece.key.startsWith("location:")) return rectOf("[data-zone=location-deck]");
    return null;
  }
  function targetOf(piece, prev, obs) {
    if (!piece.key.startsWith("card:")) return rectOf("[data-zone=pending]") || rectOf("[data-testid=lord-deck]");
    const slug = piece.key.slice(5);
    if ((obs.removed || []).length > (prev.removed || []).length && obs.removed.includes(slug)) return rectOf("[data-zone=removed] summary");
    if (prev.phase === "pass" && obs.phase !== "pass") return rectOf("[data-zone=opponent]");
    const deck = piece.node.classList.contains("foe") ? "foe" : "byzantine";
    return rectOf(`[data-zone=discard-${deck}] summary`) || rectOf("[data-zone=decks]");
  }

  /* A number that changed counts from its old value to the new one. */
  function countUp(node, from, to) {
    if (!Number.isFinite(from) || !Number.isFinite(to) || from === to) return;
    const anim = track(node.animate([{ transform: "scale(1.35)" }, { transform: "none" }], TIMING), "count");
    const step = () => {
      const p = anim.playState === "finished" || anim.playState === "idle" ? 1 : Math.min(1, (anim.currentTime || 0) / MOTION_MS);
      node.textContent = String(Math.round(from + (to - from) * p));
      if (p < 1) requestAnimationFrame(step);
    };
    anim.addEventListener("finish", () => { node.textContent = String(to); });
    step();
  }

  /* Animate from what capture() measured to the view just rendered from `obs` (`prev`:
     the observation rendered before). */
  function play(prev, obs) {
    const was = before;
    before = null;
    if (!prev || !obs || prev.game !== obs.game) return;
    if (!was || off()) { stats.skipped += 1; return; }  // hidden, or reduced motion
    const old = was.pieces.slice();
    const fresh = [];
    for (const node of document.querySelectorAll(PIECES)) {
      const rect = node.getBoundingClientRect();
      if (shown(rect)) fresh.push({ key: keyOf(node), zone: zoneOf(node), rect, node });
    }
    const take = (test) => { const i = old.findIndex(test); return i < 0 ? null : old.splice(i, 1)[0]; };
    const unmatched = [];
    for (const piece of fresh) {  // in place first (a hand closing up, a token on its track)
      const same = take((o) => o.key === piece.key && o.zone === piece.zone);
      if (same) glide(piece.node, same.rect, piece.rect, false, "move");
      else unmatched.push(piece);
    }
    for (const piece of unmatched) {
      const from = take((o) => o.key === piece.key);
      if (!inView(piece.node, piece.rect)) continue;  // arrived out of sight: nothing to follow
      if (from && from.seen) { glide(piece.node, from.rect, piece.rect, true, "move"); continue; }
      if (piece.zone === "melds") {  // a revealed card turns over
        track(piece.node.animate([{ transform: "perspective(600px) rotateY(90deg)" }, { transform: "none" }], TIMING), "reveal");
        continue;
      }
      const source = from ? null : sourceOf(piece, prev, obs);
      if (source) glide(piece.node, { left: source.left + source.width / 2 - piece.rect.width / 2, top: source.top + source.height / 2 - piece.rect.height / 2, width: piece.rect.width, height: piece.rect.height }, piece.rect, true, "enter");
      else track(piece.node.animate([{ transform: "translateY(-40px)", opacity: 0 }, { transform: "none", opacity: 1 }], TIMING), "enter");
    }
    for (const piece of old) if (piece.seen) leave(piece, targetOf(piece, prev, obs));
    for (const node of document.querySelectorAll("[data-count]")) countUp(node, was.counts.get(node.dataset.count), Number(node.textContent));
    document.querySelectorAll("[data-testid=lt] strong").forEach((node, i) => countUp(node, was.counts.get(`legacy-${i}`), Number(node.textContent)));
    document.querySelectorAll("[data-testid=lt] .bar div").forEach((node, i) => {
      if (was.bars[i] !== undefined && was.bars[i] !== node.style.width) track(node.animate([{ width: was.bars[i] }, { width: node.style.width }], TIMING), "legacy");
    });
  }

  /* Everything still moving jumps to its end. */
  function finishAll() {
    for (const anim of [...running]) {
      try { anim.finish(); } catch (e) { anim.cancel(); }
    }
  }

  /* Resolves when the next view may be rendered: at once when `mine` (the view gives this
     page a decision), nothing moves, or the tab is hidden; else after the animations under
     way (at most MOTION_MS and a short pause). */
  function settle(mine) {
    if (mine || off() || !running.size) { finishAll(); return Promise.resolve(); }
    const anims = [...running];
    const over = Promise.all(anims.map((a) => a.finished.catch(() => null)));
    const cap = new Promise((resolve) => setTimeout(resolve, MOTION_MS + 100));
    return Promise.race([over, cap]).then(() => new Promise((resolve) => setTimeout(resolve, GAP_MS)));
  }

  /* The page's setting: a checkbox, remembered in this browser. */
  function settings() {
    const box = el("input", {
      type: "checkbox", id: "opt-reduce-motion", "data-testid": "reduce-motion", checked: chosen(),
      onchange: (ev) => {
        try { localStorage.setItem(STORE, ev.target.checked ? "1" : "0"); } catch (e) { /* private mode */ }
        markPage();
        if (ev.target.checked) finishAll();
      },
    });
    return el("div", { class: "panel motion-settings" }, el("h3", {}, MOTION_STRINGS.heading),
      el("label", { class: "check" }, box, " ", MOTION_STRINGS.reduce));
  }

  // The player's own input never waits for a move to finish on screen.
  document.addEventListener("pointerdown", finishAll, true);
  document.addEventListener("keydown", finishAll, true);
  document.addEventListener("visibilitychange", () => { if (document.hidden) finishAll(); });
  if (media && media.addEventListener) media.addEventListener("change", markPage);
  markPage();

  return { capture, play, settle, settings, finishAll, reduced, stats, MOTION_MS };
})();
