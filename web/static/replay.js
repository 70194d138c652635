// A finished game's replay: its board frame by frame (the buttons, the arrow keys, the
// slider), with the move that led to each. Stack Up!'s hands are shown: the game is over.

import { BOARDS } from "./boards.js";
import { el, sheet, winnersText } from "./common.js";

const main = document.getElementById("replay");
const status = document.getElementById("status");

function button(label, title, action) {
  const b = el("button", { type: "button", title, "aria-label": title }, label);
  b.addEventListener("click", action);
  return b;
}

async function start() {
  const answer = await fetch(`/games/${main.dataset.game}/replay.json`);
  if (!answer.ok) {
    status.textContent = await answer.text();
    return;
  }
  const game = await answer.json();
  const frames = game.frames;
  main.querySelector("h1").textContent = `${game.title} · game ${game.game_id}`;
  let at = frames.length - 1;
  const slider = el("input", { type: "range", min: 0, max: frames.length - 1, value: at,
    "aria-label": "move" });
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
    side.replaceChildren(...(scores ? [el("section", { class: "panel" }, el("h2", {}, "Score sheet"), scores)] : []));
    status.textContent = at === frames.length - 1
      ? winnersText(game.players, frame.scores.winners) : `Move ${at} of ${frames.length - 1}`;
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  const controls = el("div", { class: "controls" },
    button("⏮", "first", () => go(0)), button("◀", "previous", () => go(at - 1)),
    button("▶", "next", () => go(at + 1)), button("⏭", "last", () => go(frames.length - 1)),
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
