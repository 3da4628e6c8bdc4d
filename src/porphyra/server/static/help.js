/* Rules and help in the page: a rules panel (the game's RULES.md from /api/rules/{game},
   shown as text, never as markup) with plain-word explanations of the symbols on the
   table.  Every user-visible string of this module is in HELP_STRINGS (read in the page's
   language, I18N.table). */
"use strict";

const HELP_STRINGS = I18N.table({
  button: N_("Rules & help"),
  buttonLabel: N_("Open the rules and the explanation of the symbols"),
  title: N_("Rules and help"),
  close: N_("Close"),
  symbols: N_("What the symbols mean"),
  rules: N_("The rules"),
  loading: N_("Loading the rules…"),
  failed: N_("The rules could not be loaded: "),
  keys: N_("Keyboard: Tab moves between cards and buttons, Enter or Space picks, Escape closes this panel."),
  glossary: {
    conspiracy: [
      [N_("♛ Crest"), N_("The crest marks the best lord of each colour in a chamber: only that lord's IP counts for its colour at the end.")],
      [N_("Silver key"), N_("A lord worth 1 IP carries a silver key. Two unspent silver keys (or two gold) make you take a Location at once.")],
      [N_("Gold key"), N_("A lord worth 2 IP carries a gold key. Keys at or before the lord a Location covers are spent.")],
      [N_("Pearl"), N_("Lords worth 3 IP carry 2 pearls, lords worth 4 IP carry 1. Pearls break ties, and some Locations count them.")],
      [N_("Pearl Master"), N_("The first player to gain a pearl takes the Pearl Master token, worth 5 IP. Whoever gains pearls and then has at least as many as its holder takes it over.")],
      [N_("Coalition"), N_("Lords of one colour touching in the pyramid (diagonals too). Your largest coalition scores 3 IP per lord.")],
      [N_("Location"), N_("Covers the lord just placed. Gives IP, pearls or an end bonus; a few change the rules for a while.")],
      [N_("⇄ 0-IP lord"), N_("A 0-IP lord lets you swap two keyless lords of your chamber.")],
      [N_("◉ 6-IP lord"), N_("A 6-IP lord reveals the top lord of the deck onto its colour's discard pile.")],
      [N_("Colours"), N_("Each colour has its own symbol too: ▲ yellow Farmers, ■ red Military, ● green Merchants, ◆ blue Politicians, ★ purple Mages.")],
      [N_("Legendary Opponent (solo)"), N_("On its turn the Legendary Opponent takes a whole discard pile: the first condition on its card that some pile meets decides which. If several piles meet it, you choose.")],
    ],
    byzantium: [
      [N_("Territory Tokens (TT)"), N_("The Empire's size: it starts at 10 and never goes above 20. At 0 or below the Empire collapses: the game ends and the Emperor loses 3 Legacy Tokens (all it has, if fewer).")],
      [N_("Legacy Tokens (LT)"), N_("What you play for: the most LT after turn 12 wins.")],
      [N_("Emperor and Foe"), N_("Each turn one player is the Byzantine Emperor and the other plays the Foes; the roles swap every turn.")],
      [N_("Meld"), N_("The cards you lay down this turn, in secret; both melds are revealed together. The higher force wins; ties go to the Foe.")],
      [N_("Force"), N_("The number in the dark shield of a card; a meld's force is the sum of its cards.")],
      [N_("I II III"), N_("The Ages a card can be played in, lit on the card: I Early (turns 1-4), II Middle (5-8), III Late (9-12).")],
      [N_("★ unique"), N_("A unique card leaves the game once melded.")],
      [N_("+n LT"), N_("A Legacy card: the Emperor gains that many LT when it is melded, even in a lost meld.")],
      [N_("Negotiation"), N_("An Emperor who melded a Negotiation card may discard one Northern or Southern Foe card from the Foe meld; the Foe may replace it from hand.")],
      [N_("natural"), N_("A natural disaster: a Foe meld holds at most one.")],
    ],
  },
  /* The Legendary Opponent's conditions in plain words (the engine sends its own text;
     these are shown when it does not). */
  conditions: {
    STACK: N_("a pile of 2 or more lords"),
    KEY: N_("a pile with a lord carrying a key"),
    PEARL: N_("a pile with a lord carrying pearls"),
    MIL: N_("the red (Military) pile"),
    SIX: N_("a pile with a 6-IP lord"),
    COAL: N_("a pile whose lords would join a group of their colour in its chamber"),
  },
});

/* Plain words for a Legendary Opponent condition (its name, e.g. "KEY"). */
function helpCondition(name, text) {
  return text ? term(text) : HELP_STRINGS.conditions[name] || name;
}

/* Inline Markdown (**bold**, `code`) as DOM nodes: text stays text. */
function helpInline(text) {
  const out = [];
  const pattern = /(\*\*[^*]+\*\*|`[^`]+`)/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const part = m[0];
    out.push(part.startsWith("**") ? el("strong", {}, part.slice(2, -2)) : el("code", {}, part.slice(1, -1)));
    last = m.index + part.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/* A small Markdown reader for RULES.md: headings, paragraphs, lists. */
function helpMarkdown(markdown) {
  const box = el("div", { class: "rules-text" });
  let para = null;
  let list = null;
  const flush = () => { para = null; list = null; };
  for (const raw of markdown.split("\n")) {
    const line = raw.replace(/\s+$/, "");
    if (!line.trim()) { flush(); continue; }
    const heading = line.match(/^(#+)\s+(.*)$/);
    if (heading) {
      flush();
      box.append(el(heading[1].length === 1 ? "h3" : "h4", {}, ...helpInline(heading[2])));
      continue;
    }
    const item = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)$/);
    if (item) {
      if (!list) { list = el("ul", {}); box.append(list); }
      list.append(el("li", {}, ...helpInline(item[1])));
      para = null;
      continue;
    }
    if (list && /^\s+/.test(line)) {  // a list item's continued line
      list.lastChild.append(" ", ...helpInline(line.trim()));
      continue;
    }
    if (!para) { para = el("p", {}); box.append(para); list = null; } else para.append(" ");
    para.append(...helpInline(line.trim()));
  }
  return box;
}

let helpReturnFocus = null;

function closeHelp() {
  const box = document.getElementById("help");
  if (box) box.remove();
  if (helpReturnFocus) helpReturnFocus.focus();
}

/* Open the rules panel of `game` ("byzantium" | "conspiracy"). */
async function openHelp(game) {
  closeHelp();
  helpReturnFocus = document.activeElement;
  const S = HELP_STRINGS;
  const body = el("div", { class: "help-body" });
  const close = el("button", { class: "small", onclick: closeHelp, "aria-label": S.close }, "✕ " + S.close);
  const panel = el("div", { class: "panel help-panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "help-title" },
    el("div", { class: "row spread" }, el("h2", { id: "help-title" }, S.title), close), body);
  const box = el("div", { id: "help", class: "modal", onclick: (ev) => { if (ev.target === box) closeHelp(); } }, panel);
  box.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closeHelp(); });
  document.body.append(box);
  close.focus();
  const glossary = S.glossary[game] || [];
  body.append(el("h3", {}, S.symbols),
    el("dl", { class: "glossary", "data-testid": "glossary" }, ...glossary.flatMap(([term, text]) => [el("dt", {}, term), el("dd", {}, text)])),
    el("p", { class: "muted" }, S.keys));
  const rules = el("div", { "data-testid": "rules" }, el("p", { class: "muted" }, S.loading));
  body.append(el("h3", {}, S.rules), rules);
  try {
    const data = await api(`/api/rules/${encodeURIComponent(game)}`);
    rules.innerHTML = "";
    rules.append(helpMarkdown(data.markdown));
  } catch (e) {
    rules.innerHTML = "";
    rules.append(el("p", {}, S.failed + e.message));
  }
}

/* The topbar's "Rules & help" button for the game of `gameOf()`. */
function helpButton(gameOf) {
  return el("button", { class: "small", id: "helpbtn", "aria-label": HELP_STRINGS.buttonLabel, "data-testid": "help",
    onclick: () => openHelp(gameOf()) }, HELP_STRINGS.button);
}
