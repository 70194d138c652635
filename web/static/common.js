// Helpers the pages share: elements built from text (never from HTML: names are text),
// SVG, the seats' colours, and the parts around a board (seats, turns, the score sheet).

export const SVG = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["red", "blue", "green", "yellow", "purple", "orange"];

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
  return el("span", { class: "chip", style: `background: var(--${SEAT_COLOURS[seat % 6]})` });
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
  const head = el("tr", {}, el("th", {}, "Player"));
  scores.rounds.forEach((_, i) => head.append(el("th", {}, `R${i + 1}`)));
  head.append(el("th", {}, "Total"));
  const body = el("tbody");
  players.forEach((p, seat) => {
    const row = el("tr", {}, el("td", {}, chip(seat), " ", p.name));
    scores.rounds.forEach((r) => row.append(el("td", {}, r[seat])));
    row.append(el("td", {}, el("b", {}, scores.totals[seat])));
    body.append(row);
  });
  return el("table", { class: "sheet" }, el("thead", {}, head), body);
}

export function winnersText(players, winners) {
  const names = winners.map((s) => players[s] ? players[s].name : `seat ${s + 1}`);
  if (names.length === 0) return "The game is over.";
  if (names.length === 1) return `The game is over: ${names[0]} won.`;
  return `The game is over: ${names.join(" and ")} share the win.`;
}
