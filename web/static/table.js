// The live table page: the table's view arrives over the socket at once and after every
// commit; the page draws it (board, whose turn and its clock, recent turns, the score
// sheet). window.stackbotLatency holds, per frame, the ms from the server's commit to
// the page drawn (the same machine's clock: for the checks and the bench).

import { BOARDS, die, drawHand } from "./boards.js";
import { clock, el, sheet, svg, winnersText } from "./common.js";

const main = document.getElementById("table");
const tableId = main.dataset.table;
const status = document.getElementById("status");
const view = el("div", { class: "layout" });
main.append(view);
window.stackbotLatency = [];
window.stackbotFrames = 0;
let shown = null;
let socket = null;
let retry = 500;

const REFUSALS = {
  not_your_turn: "It is not your turn.",
  stale_panel: "The table moved on: choose again.",
  illegal_move: "That move is not allowed now.",
  not_now: "That move is not allowed now.",
  game_over: "The game is over.",
  busy: "The table is busy: try again.",
  not_saved: "The move was not saved: try again.",
  rate_limited: "Too fast: wait a moment.",
  not_identified: "Only a seated player can move.",
  session_expired: "Your session expired: reload the page.",
};

function play(frame, choice) {
  document.querySelectorAll("#moves button").forEach((b) => { b.disabled = true; });
  socket.send(JSON.stringify({ type: "move", move: choice.move, version: frame.version }));
}

function choiceButton(frame, choice, label = choice.label) {
  const button = el("button", { type: "button" }, label);
  button.addEventListener("click", () => play(frame, choice));
  return button;
}

// two taps: a pick (a die, a piece), then one of its moves, the places they go lit on
// the board (``data-target`` of its dice, piles and squares)
function pickThen(frame, list, picks, hint) {
  const light = (targets) => {
    document.querySelectorAll("#board .lit").forEach((n) => n.classList.remove("lit"));
    for (const t of targets) {
      document.querySelectorAll(`#board [data-target="${t}"]`).forEach((n) => n.classList.add("lit"));
    }
  };
  const row = el("div", { class: "choices", id: "picks" });
  const then = el("div", { class: "choices", id: "targets" });
  for (const pick of picks) {
    const button = el("button", { type: "button", class: "pick", "aria-label": pick.label }, pick.content);
    button.addEventListener("click", () => {
      row.querySelectorAll("button").forEach((b) => b.classList.toggle("picked", b === button));
      then.replaceChildren(...pick.choices.map((c) => choiceButton(frame, c)));
      light(pick.lights);
    });
    row.append(button);
  }
  list.append(el("p", {}, hint), row, then);
}

// Stack: one of your dice, then where it goes (or its reroll); a rerolled die's places at once
function stackMoves(frame, list) {
  const choices = frame.you.choices;
  const placing = choices.filter((c) => c.move[0] === "place");
  if (placing.length) {
    placing.forEach((c) => list.append(choiceButton(frame, c)));
    return;
  }
  const faces = [...new Set(choices.map((c) => c.move[1]))].sort();
  pickThen(frame, list, faces.map((face) => {
    const pic = svg("svg", { viewBox: "0 0 34 34", width: 34, height: 34 });
    pic.append(die(face, frame.you.seat, 0, 0, 34, `a ${face}`));
    const mine = choices.filter((c) => c.move[1] === face);
    const lights = mine.filter((c) => c.move[0] === "stack").map((c) => `${c.move[2]}:${c.move[3]}:${face}`);
    return { label: `your ${face}`, content: pic, choices: mine, lights };
  }), "Tap one of your dice, then where it goes.");
}

// Color Stack: one of your pieces, then a square it may go to (lit) or its new face
function colorStackMoves(frame, list) {
  const choices = frame.you.choices;
  const squares = [...new Set(choices.map((c) => c.move[1]))].sort();
  pickThen(frame, list, squares.map((square) => {
    const mine = choices.filter((c) => c.move[1] === square);
    const lights = [`sq:${square}`, ...mine.filter((c) => c.move[0] === "m").map((c) => `sq:${c.move[2]}`)];
    return { label: `the piece on ${square}`, content: square, choices: mine, lights };
  }), "Tap one of your pieces (by its square), then where it goes or its new face.");
}

const PICKS = { stack: stackMoves, colorstack: colorStackMoves };

// the seated player's moves on their turn (the host checks each again when it comes)
function movesPanel(frame) {
  const choices = frame.you && frame.you.choices;
  if (!choices) return null;
  const box = el("section", { class: "panel", id: "moves" }, el("h2", {}, "Your move"));
  const list = el("div", { class: "choices" });
  if (PICKS[frame.game]) PICKS[frame.game](frame, list);
  else choices.forEach((c) => list.append(choiceButton(frame, c)));
  box.append(list, el("p", { class: "refusal", id: "refusal", role: "alert" }));
  return box;
}

function refused(code) {
  const words = REFUSALS[code] || `Not done (${code}).`;
  const where = document.getElementById("refusal");
  if (where) {
    where.textContent = words;
    document.querySelectorAll("#moves button").forEach((b) => { b.disabled = false; });
  } else {
    status.textContent = words;
  }
}

function whoseTurn(frame) {
  if (frame.status !== "lobby" && frame.status !== "playing" && !frame.over) return "The table closed.";
  if (frame.over) return winnersText(frame.players, frame.scores ? frame.scores.winners : []);
  if (frame.status === "lobby") return "Waiting for the game to start.";
  if (frame.current === null) return "";
  const name = frame.players[frame.current] ? frame.players[frame.current].name : "";
  const you = frame.you && frame.you.seat === frame.current ? " (you)" : "";
  const since = frame.turn_started ? ` · ${clock(Date.now() - frame.turn_started)}` : "";
  return `${name}${you} to move${since}`;
}

function render(frame) {
  shown = frame;
  status.textContent = whoseTurn(frame);
  const board = el("div", { id: "board" });
  if (frame.board) {
    board.append(BOARDS[frame.game](frame));
  } else {
    board.append(el("p", {}, `Seated: ${frame.players.map((p) => p.name).join(", ")}`));
  }
  const side = el("div", {});
  const moves = movesPanel(frame);
  if (moves) side.append(moves);
  if (frame.you && frame.you.hand) side.append(drawHand(frame.you.hand));
  // numbered by the real turn numbers: the latest is the game's turn count
  const latest = Math.max(frame.turn_number ?? 0, frame.turns.length);
  const turns = el("ol", { class: "turns", reversed: "", start: String(latest) });
  [...frame.turns].reverse().forEach((t) => turns.append(el("li", {}, t)));
  side.append(el("section", { class: "panel", id: "recent" }, el("h2", {}, "Recent turns"),
    frame.turns.length ? turns : el("p", {}, "No turn yet.")));
  const scores = sheet(frame.players, frame.scores);
  if (scores) side.append(el("section", { class: "panel", id: "scores" }, el("h2", {}, "Score sheet"), scores));
  view.replaceChildren(board, side);
  window.stackbotFrames += 1;
  requestAnimationFrame(() => window.stackbotLatency.push(Date.now() - frame.sent_at));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/tables/${tableId}/ws`);
  socket.onopen = () => { retry = 500; };
  socket.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "table") render(frame);
    else if (frame.type === "error" || frame.type === "refused") refused(frame.code || frame.why);
  };
  socket.onclose = () => {
    if (shown && shown.over) return;
    status.textContent = "Reconnecting…";
    setTimeout(() => fetch(`/tables/${tableId}`, { redirect: "manual" }).then((r) => {
      if (r.type === "opaqueredirect" || r.status === 302) location.assign(`/games/${tableId}`);
      else connect();
    }, connect), retry);
    retry = Math.min(retry * 2, 10000);
  };
}

setInterval(() => { if (shown) status.textContent = whoseTurn(shown); }, 1000);
connect();
