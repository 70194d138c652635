// Helpers the pages share: the page's words, elements built from text (never from HTML:
// names are text), SVG, the seats' colours, and the parts around a board (seats, turns,
// the score sheet).

export const SVG = "http://www.w3.org/2000/svg";
// the picture's eight (pictures/palette.py), in its order: Stack seats eight players
export const SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "orange", "brown", "white"];

// a seat's colour (seats beyond eight repeat them, as the picture's do)
export function seatColour(seat) {
  return SEAT_COLOURS[seat % SEAT_COLOURS.length];
}

// The page's words, in its language: the dictionary the server embeds in the page (the
// catalog's web.* keys: web/words.py), or one fetched when the page's language changed
// (the Activity, once Discord says the user's locale). No word is written in the scripts.
const embedded = document.getElementById("page-words");
let words = embedded ? JSON.parse(embedded.textContent) : { language: "en", languages: ["en"], texts: {} };

// the page's language, and every language the server speaks
export function language() {
  return words.language;
}

export function languages() {
  return words.languages;
}

export function useWords(dictionary) {
  words = dictionary;
  document.documentElement.lang = dictionary.language;
}

function fill(text, facts) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in facts ? String(facts[name]) : whole));
}

// the message ``key`` with its {placeholders} filled from ``facts``
export function t(key, facts = {}) {
  const text = words.texts[key];
  return fill(typeof text === "string" ? text : key, facts);
}

// the plural message ``key`` for ``count`` (its {count} too): the first form for one, else
// the last (English has two forms, Japanese one)
export function n(key, count, facts = {}) {
  const forms = words.texts[key];
  if (!Array.isArray(forms)) return fill(key, facts);
  return fill(forms[count === 1 ? 0 : forms.length - 1], { count, ...facts });
}

// attributes; a style through the CSSOM (the pages' CSP refuses style attributes)
function set(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value);
  }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  set(node, attrs);
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

export function svg(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  set(node, attrs);
  if (text !== null) node.textContent = String(text);
  return node;
}

export function chip(seat) {
  return el("span", { class: "chip", style: `background: var(--${seatColour(seat)})` });
}

export function clock(ms) {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(seconds / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return `${m}:${s}`;
}

// the score sheet: a row per seat, a column per round, the totals last
export function sheet(players, scores) {
  if (!scores || !scores.rounds || scores.rounds.length === 0) return null;
  const head = el("tr", {}, el("th", {}, t("web.sheet.player")));
  scores.rounds.forEach((_, i) => head.append(el("th", {}, t("web.sheet.round", { round: i + 1 }))));
  head.append(el("th", {}, t("web.sheet.total")));
  const body = el("tbody");
  players.forEach((p, seat) => {
    const row = el("tr", {}, el("td", { title: p.name }, chip(seat), " ", p.name));
    scores.rounds.forEach((r) => row.append(el("td", {}, r[seat])));
    row.append(el("td", {}, el("b", {}, scores.totals[seat])));
    body.append(row);
  });
  // the table scrolls across inside its own box when its rounds are more than fit (a long
  // game on a phone), its names and headings kept on one line; a box of its own that the
  // keyboard can scroll too
  const table = el("table", { class: "sheet" }, el("thead", {}, head), body);
  return el("div", { class: "sheet-box", tabindex: "0", role: "region", "aria-label": t("web.sheet.title") }, table);
}

// a finished game's result: who won, or that it was drawn (no winner)
export function winnersText(players, winners) {
  const names = winners.map((s) => players[s] ? players[s].name : t("web.seat", { seat: s + 1 }));
  if (names.length === 0) return t("web.over.drawn");
  if (names.length === 1) return t("web.over.won", { name: names[0] });
  return t("web.over.shared", { names: names.join(t("web.list.and")) });
}
