// A finished game's replay: its board turn by turn (the buttons, the arrow keys, the
// slider), numbered as the live table numbered the turns (step 0: as the first turn
// begins), with what each turn did. Stack Up!'s hands are shown: the game is over.

import { BOARDS } from "./boards.js";
import { chip, el, language, seatColour, sheet, svg, t, winnersText } from "./common.js";

const main = document.getElementById("replay");
const status = document.getElementById("status");

function button(label, title, action) {
  const b = el("button", { type: "button", title, "aria-label": title }, label);
  b.addEventListener("click", action);
  return b;
}

// The round-by-round chart (as pictures/charts.py's game chart draws it for the bot): each
// player's running total from 0 before round 1, a line each in their seat's colour (the
// winners' thicker), the target dashed, and the round the shown step has reached marked.
// Drawn here from the replay's own round scores (only Stack is played in rounds).
function roundChart(players, scores, target, reached) {
  const rounds = scores.rounds;
  const running = players.map((_, seat) => {
    let total = 0;
    return [0, ...rounds.map((r) => (total += r[seat]))];
  });
  const top = Math.max(target || 0, ...running.flat(), 1);
  const bottom = Math.min(0, ...running.flat());
  const w = 360, h = 200, left = 40, right = 12, up = 12, down = 26;
  const x = (r) => left + (r * (w - left - right)) / Math.max(1, rounds.length);
  const y = (v) => up + ((top - v) * (h - up - down)) / (top - bottom);
  const totals = players.map((p, seat) => `${p.name} ${running[seat][rounds.length]}`)
    .join(t("web.list.comma"));
  const pic = svg("svg", { class: "board chart", id: "chart", viewBox: `0 0 ${w} ${h}`,
    style: "max-width: 560px", role: "img",
    "aria-label": target ? t("web.chart.label_target", { totals, target }) : t("web.chart.label", { totals }) });
  pic.append(svg("line", { x1: left, x2: w - right, y1: y(0), y2: y(0), class: "axis" }));
  pic.append(svg("line", { x1: left, x2: left, y1: up, y2: h - down, class: "axis" }));
  for (const value of new Set([bottom, 0, top])) {
    pic.append(svg("text", { x: left - 4, y: y(value) + 4, "text-anchor": "end", "font-size": 11,
      class: "faint" }, value));
  }
  rounds.forEach((_, r) => pic.append(svg("text", { x: x(r + 1), y: h - 8, "text-anchor": "middle",
    "font-size": 11, class: "faint" }, t("web.sheet.round", { round: r + 1 }))));
  if (target) {
    pic.append(svg("line", { x1: left, x2: w - right, y1: y(target), y2: y(target), class: "target" }));
    // its words at its left end: every line starts at 0 there, and a game ends in the round
    // someone reaches the target, so the lines end round it at the right
    pic.append(svg("text", { x: left + 4, y: y(target) - 4, "text-anchor": "start", "font-size": 11,
      class: "faint" }, t("web.chart.target", { target })));
  }
  if (reached < rounds.length) {  // the shown step is before the last round's end
    pic.append(svg("rect", { x: x(reached), y: up, width: x(rounds.length) - x(reached),
      height: h - up - down, class: "later" }));
  }
  running.forEach((line, seat) => {
    // a line in the seat's ink where its fill would not show on the page (white on light)
    const colour = INKS[seatColour(seat)] || `var(--${seatColour(seat)})`;
    const won = scores.winners.includes(seat);
    pic.append(svg("polyline", { points: line.map((v, r) => `${x(r)},${y(v)}`).join(" "),
      class: `run${won ? " won" : ""}`, style: `stroke: ${colour}` }));
    line.forEach((v, r) => pic.append(svg("circle", { cx: x(r), cy: y(v), r: 3, style: `fill: ${colour}` })));
  });
  const legend = el("p", { class: "legend" });
  players.forEach((p, seat) => legend.append(el("span", { class: "named" }, chip(seat), p.name)));
  return el("section", { class: "panel", id: "round-chart" }, el("h2", {}, t("web.chart.title")), pic, legend);
}

// the seats whose line has an ink of its own (the style's --white-ink: grey on light)
const INKS = { white: "var(--white-ink)" };

async function start() {
  const answer = await fetch(`/games/${main.dataset.game}/replay.json?lang=${language()}`);
  if (!answer.ok) {
    status.textContent = await answer.text();
    return;
  }
  const game = await answer.json();
  const frames = game.frames;
  main.querySelector("h1").textContent = t("web.replay.heading", { title: game.title, game: game.game_id });
  let at = frames.length - 1;
  const slider = el("input", { type: "range", min: 0, max: frames.length - 1, value: at,
    "aria-label": t("web.replay.slider") });
  const count = el("span", { id: "count" });
  const words = el("p", { class: "words", id: "words", "aria-live": "polite" });
  const board = el("div", { id: "board" });
  const side = el("div", {});
  const go = (to) => {
    at = Math.max(0, Math.min(frames.length - 1, to));
    const frame = frames[at];
    slider.value = at;
    count.textContent = `${at} / ${frames.length - 1}`;
    words.textContent = frame.words;
    const view = { ...frame, game: game.game, players: game.players };
    board.replaceChildren(game.game === "stackup"
      ? BOARDS.stackup(view, frame.hands) : BOARDS[game.game](view));
    const scores = sheet(game.players, frame.scores);
    side.replaceChildren(...(scores ? [el("section", { class: "panel" }, el("h2", {}, t("web.sheet.title")), scores)] : []));
    const last = frames[frames.length - 1];
    if (last.scores.rounds.length) {  // the whole game's chart, the rounds not yet reached shaded
      side.append(roundChart(game.players, last.scores, last.board.target, frame.scores.rounds.length));
    }
    status.textContent = at === frames.length - 1
      ? winnersText(game.players, frame.scores.winners) : t("web.replay.at", { at, total: frames.length - 1 });
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const controls = el("div", { class: "controls" },
    button("⏮", t("web.replay.first"), () => go(0)), button("◀", t("web.replay.previous"), () => go(at - 1)),
    button("▶", t("web.replay.next"), () => go(at + 1)),
    button("⏭", t("web.replay.last"), () => go(frames.length - 1)),
    slider, count);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement) return;  // the slider has its own keys
    if (event.key === "ArrowLeft") go(at - 1);
    else if (event.key === "ArrowRight") go(at + 1);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(frames.length - 1);
    else return;
    event.preventDefault();
  });
  main.append(controls, words, el("div", { class: "layout" }, board, side));
  go(at);
}

start();
