/* The pages in English, Japanese or Korean (plain JavaScript, no build step).

   The language is the one chosen with the switch (kept in localStorage), else the first
   supported one among the browser's languages, else English.  The catalogue comes from the
   server's gettext catalogues (GET /api/i18n/LANG: {messages, terms}); English is the
   source text itself.  t("Seat {0}", 2) translates interface text and fills {0}, {1}...;
   term("Archers") translates a game term (card names, colours...).  Elements marked
   data-i18n show their English text translated; data-i18n-placeholder / data-i18n-title / data-i18n-aria-label
   translate those attributes.  The games' log arrives as messages, an id plus arguments
   each (porphyra.core.messages.to_wire), and message() renders one in the page's
   language from the catalogue's log templates; action notation is never translated. */
"use strict";

const I18N = (() => {
  const SUPPORTED = ["en", "ja", "ko"];
  const NAMES = { en: "English", ja: "日本語", ko: "한국어" };
  const KEY = "porphyra.lang";

  function supported(tag) {
    const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
    return SUPPORTED.includes(base) ? base : null;
  }

  function choose() {
    let stored = null;
    try { stored = supported(localStorage.getItem(KEY)); } catch (e) { /* private mode */ }
    if (stored) return stored;
    for (const tag of navigator.languages || [navigator.language]) {
      const lang = supported(tag);
      if (lang) return lang;
    }
    return "en";
  }

  const lang = choose();
  let messages = {};
  let terms = {};
  let logs = {};
  let plurals = {};
  /* Each language's list separators, for the English ones (porphyra.i18n.messages). */
  const LIST_JOIN = { ja: { ", ": "、", "; ": "；" } };

  function format(text, args) {
    return text.replace(/\{(\d+)\}/g, (whole, i) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
  }
  function t(message, ...args) { return particles(format(messages[message] || message, args)); }
  /* The form of a message that fits the count n (gettext plurals): English singular for 1
     and plural otherwise; Japanese and Korean have one form (the catalogue's "plurals"). */
  function tn(singular, plural, n, ...args) {
    const forms = plurals[singular];
    const text = forms && forms[0] ? forms[lang === "en" ? (n === 1 ? 0 : 1) : 0] || forms[0] : (n === 1 ? singular : plural);
    return particles(format(text, args));
  }
  /* A text in the page's language as the catalogue has it, nothing fitted yet (a server
     text whose seats the page names before its Korean particles are fitted). */
  function lookup(message) { return messages[message] || message; }
  function term(text) { return terms[text] || text; }

  /* A message ({id, args}: a log line, see porphyra.core.messages.to_wire) in the page's
     language: its template from the catalogue's log templates, each argument rendered
     (a number or text as it is, {term} translated, {name} named by nameOf, {sep, items}
     joined the language's way, a nested message the same way).  Korean particles and
     seats are left for the caller (nameSeats) to fit once the text is final. */
  function message(entry, nameOf) {
    if (!entry || typeof entry.id !== "string") return String(entry);
    const arg = (a) => {
      if (a === null || typeof a !== "object") return String(a);
      if (typeof a.id === "string") return message(a, nameOf);
      if (typeof a.term === "string") return lang === "en" || !terms[a.term] ? (a.shown || a.term) : terms[a.term];
      if (typeof a.name === "string") return nameOf ? nameOf(a.name) : a.name;
      if (Array.isArray(a.items)) {
        const sep = (LIST_JOIN[lang] || {})[a.sep] || a.sep;
        return a.items.map(arg).join(sep);
      }
      return String(a);
    };
    const template = logs[entry.id] || entry.id;
    const args = (entry.args || []).map(arg);
    if (!args.length) return template;
    return template.replace(/\{(\d+)\}/g, (whole, i) => (Number(i) < args.length ? args[Number(i)] : whole));
  }

  /* Korean particles chosen by the preceding word's final consonant: the catalogue writes
     both forms ("{0}이(가)", "{0}을(를)", "{0}(으)로"), and each is replaced by the one that
     fits the word before it, once the text is final (the same rules as the terminal's,
     porphyra.i18n.korean).  Other languages are left as they are. */
  const PARTICLES = {
    "이(가)": ["이", "가", "이"], "가(이)": ["이", "가", "이"], "은(는)": ["은", "는", "은"], "는(은)": ["은", "는", "은"],
    "을(를)": ["을", "를", "을"], "를(을)": ["을", "를", "을"], "과(와)": ["과", "와", "과"], "와(과)": ["과", "와", "과"],
    "(으)로": ["으로", "로", "로"], "(이)나": ["이나", "나", "이나"], "(이)라": ["이라", "라", "이라"],
    "(이)다": ["이다", "다", "이다"], "(이)며": ["이며", "며", "이며"], "(이)고": ["이고", "고", "이고"],
  };
  const PARTICLE = new RegExp(Object.keys(PARTICLES).map((m) => m.replace(/[()]/g, "\\$&")).join("|"), "g");
  const CLOSING = "'\"’”)]}」』》〉>*`";
  const DIGIT_FINAL = { 0: "c", 1: "l", 2: "v", 3: "c", 4: "v", 5: "v", 6: "c", 7: "l", 8: "l", 9: "v" };
  function finalSound(word) {
    let text = word.trimEnd();
    while (text && CLOSING.includes(text[text.length - 1])) text = text.slice(0, -1).trimEnd();
    if (!text) return "c";
    const last = text[text.length - 1];
    const code = last.charCodeAt(0) - 0xac00;
    if (code >= 0 && code < 11172) { const f = code % 28; return f === 0 ? "v" : f === 8 ? "l" : "c"; }
    if (last in DIGIT_FINAL) return DIGIT_FINAL[last];
    if (/[A-Za-z]/.test(last)) {
      const lower = text.toLowerCase();
      if (last.toLowerCase() === "l") return "l";
      if (/[mn]$|ng$/.test(lower)) return "c";
      if (/[aeiou][bptk]$/.test(lower)) return "c";
      return "v";
    }
    return "c";
  }
  function particles(text) {
    if (lang !== "ko" || typeof text !== "string" || !text.includes("(")) return text;
    return text.replace(PARTICLE, (marker, offset) => {
      const before = text.slice(0, offset);
      if (!before || /\s$/.test(before)) return marker;
      const [consonant, vowel, rieul] = PARTICLES[marker];
      const sound = finalSound(before);
      return sound === "v" ? vowel : sound === "l" ? rieul : consonant;
    });
  }

  function translatePage(root) {
    for (const node of (root || document).querySelectorAll("[data-i18n]")) {
      if (!node.dataset.i18nSource) node.dataset.i18nSource = node.textContent.trim();
      node.textContent = t(node.dataset.i18nSource);
    }
    for (const attr of ["placeholder", "title", "aria-label"]) {
      for (const node of (root || document).querySelectorAll(`[data-i18n-${attr}]`)) {
        node.setAttribute(attr, t(node.getAttribute(`data-i18n-${attr}`)));
      }
    }
    if (document.title && document.documentElement.dataset.i18nTitle) document.title = t(document.documentElement.dataset.i18nTitle);
  }

  /* A <select> that switches the language (the page reloads in it). */
  function switcher() {
    const select = document.createElement("select");
    select.id = "langswitch";
    select.setAttribute("aria-label", t("Language"));
    for (const code of SUPPORTED) {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = NAMES[code];
      option.selected = code === lang;
      select.append(option);
    }
    select.addEventListener("change", () => {
      try { localStorage.setItem(KEY, select.value); } catch (e) { /* private mode */ }
      location.reload();
    });
    return select;
  }

  async function catalogue() {
    if (lang === "en") return;
    try {
      const res = await fetch(`/api/i18n/${lang}`);
      if (res.ok) {
        const body = await res.json();
        messages = body.messages || {};
        terms = body.terms || {};
        logs = body.log || {};
        plurals = body.plurals || {};
      }
    } catch (e) { /* offline: English */ }
  }

  /* Once the page's own scripts have all run: a network answer may come while the parser
     still waits for a later script, and a page starts only when every function is there. */
  function parsed() {
    if (document.readyState !== "loading") return Promise.resolve();
    return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
  }

  /* I18N.ready: the catalogue is in and the page is parsed (every page starts from it). */
  async function load() {
    document.documentElement.lang = lang;
    await Promise.all([catalogue(), parsed()]);
    translatePage(document);
    const slot = document.getElementById("langslot");
    if (slot) slot.append(switcher());
  }

  /* A module's table of strings (its English texts marked N_), read in the page's
     language at each use: a text reads translated; a text with {0}, {1}... reads as a
     function of those values; nested tables and lists read the same way. */
  function table(source) {
    const read = (value) => {
      if (typeof value === "string") return /\{\d+\}/.test(value) ? (...args) => t(value, ...args) : t(value);
      if (Array.isArray(value)) return value.map(read);
      if (value && typeof value === "object") return table(value);
      return value;
    };
    return new Proxy(source, { get: (target, key) => read(target[key]) });
  }

  return { lang, t, tn, term, lookup, message, particles, table, translatePage, ready: load() };
})();
const t = I18N.t;
const tn = I18N.tn;
const term = I18N.term;
/* Marks a text translated later with t() (so that the catalogue check finds it). */
const N_ = (text) => text;
