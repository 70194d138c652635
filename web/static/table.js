// The live table page: the table's view arrives over the socket at once and after every
// commit; the page draws it (board, whose turn and its clock, recent turns, the score
// sheet). window.stackbotLatency holds, per frame, the ms from the server's commit to
// the page drawn (the same machine's clock: for the checks and the bench). Its words are
// the page's dictionary (common.js t()); the table's frames come worded in the page's
// language (the socket's ?lang=), but for its recent turns: the table's own words.

import { BOARDS, die, drawHand } from "./boards.js";
import { clock, el, language, sheet, svg, t, winnersText } from "./common.js";
import { remember, restore } from "./focus.js";

const main = document.getElementById("table");
const tableId = main.dataset.table;
const status = document.getElementById("status");
// the status line's clock ticks every second: a live region would have a screen reader
// say the line anew each time. What is announced is the line without its clock, once
// each time it changes (whose turn, the table closed, reconnecting…), from a region of its
// own that is not shown.
const announced = el("p", { class: "unseen", id: "announced", "aria-live": "polite" });
status.removeAttribute("aria-live");
status.after(announced);
const view = el("div", { class: "layout" });
// once the game is over: a link to its replay, under the status line (none before)
const replay = el("p", { id: "replay-link", hidden: "" });
const replayLink = el("a", { class: "back", href: `/games/${tableId}?lang=${language()}` }, t("web.table.replay"));
status.after(replay);
// once the page's session has ended (they last 12 hours): the page is a spectator's from
// then on, and says so, and how to play again (its player's moves are not sent any more)
const sessionEnded = el("p", { class: "status", id: "session-ended", role: "alert", hidden: "" });
replay.after(sessionEnded);
main.append(view);
window.stackbotLatency = [];
window.stackbotFrames = 0;
// inside the Discord Activity (activity.js): once the game is over or the table closed,
// the page says so ("stackbot:ended") rather than go to the replay's page, and the
// Activity shows the channel's next table in its place ("stackbot:leave": this page stops)
const activity = Boolean(main.dataset.client);
let stopped = false;
let endedSaid = false;

function ended() {
  if (endedSaid) return;
  endedSaid = true;
  main.dispatchEvent(new CustomEvent("stackbot:ended"));
}

main.addEventListener("stackbot:leave", () => {
  stopped = true;
  clearInterval(ticking);
  if (socket) socket.close();
  announced.remove();
  replay.remove();
  sessionEnded.remove();
  view.remove();
}, { once: true });
let shown = null;
let socket = null;
let retry = 500;
// this device's clock less the server's, as near as the frames say (each frame says when
// the server sent it; the least difference seen is the one least delayed on its way): the
// turn clock counts from the turn's start by the server's clock, whatever this one says
let ahead = null;

let sent = false;  // a move is on its way: taps wait for the answer (a frame or a refusal)
// the socket is open and has sent the table: a move may be sent. While it is not, the
// status line says the page reconnects (the clock leaves it be), the move panel's buttons
// are disabled and a tap on the board says its move was not sent; the table's next frame,
// once the socket is back, draws them anew.
let online = false;
// where keyboard focus was in the table when its buttons were disabled (a move sent, the
// socket closed): a disabled button loses focus to the body; the next frame drawn, or the
// buttons enabled again, puts it back (focus.js)
let held = null;

function disable(selector, attribute = null) {
  held = remember(main) || held;
  document.querySelectorAll(selector).forEach((n) => {
    if (attribute) n.setAttribute(attribute, "true");
    else n.disabled = true;
  });
}

// what focus.js is to put back after a redraw: what is focused in the table, else (focus
// on the body) what was when its buttons were disabled
function focusKept() {
  const kept = remember(main) || (document.activeElement === document.body ? held : null);
  held = null;
  return kept;
}

function notSent() {
  const where = document.getElementById("refusal");
  if (where) where.textContent = t("web.moves.not_sent");
}

function play(frame, choice) {
  if (sent) return;
  if (!online || socket.readyState !== WebSocket.OPEN) return notSent();
  sent = true;
  disable("#moves button");
  socket.send(JSON.stringify({ type: "move", move: choice.move, version: frame.version }));
}

function choiceButton(frame, choice) {
  const button = el("button", { type: "button" }, choice.label);
  button.addEventListener("click", () => play(frame, choice));
  return button;
}

// a thing drawn on the board made a button: tapped, clicked or Enter/Space when focused
function tappable(node, action) {
  if (node.classList.contains("tap")) return;
  node.classList.add("tap");
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  const picture = node.closest("svg");
  if (picture) picture.setAttribute("role", "group");  // an img's parts are not announced
  const act = () => (online ? action() : notSent());
  node.addEventListener("click", act);
  node.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    act();
  });
}

// A move half made: the die or piece picked (its ``data-pick``), or Stack Up!'s cards
// chosen (their places in the hand), and the decision it was made for. Every frame draws
// the table anew, and one may come while the player is still choosing (another player
// leaving, a spectator, a reconnection): a frame of the same decision draws the pick
// again, where it is still one of the choices; a frame of another decision (the turn moved
// on, came back) or of none drops it.
let halfMade = null;

// what tells one decision of the player's from another: the table, the seat, whose turn
// and which of the game's turns, when it began (the host sets it at every move committed,
// its own or an AI's), the hand and the moves the player may make
function decision(frame) {
  return JSON.stringify([frame.table, frame.you.seat, frame.current, frame.turn_number,
    frame.turn_started, frame.setting_up, frame.you.hand ?? null, frame.you.choices.map((c) => c.move)]);
}

// the pick half made for this frame's decision (``kept``; ``null``: none, or one made for
// another decision, forgotten); ``keep``: a pick made from now on, remembered for it
function carried(frame) {
  const now = decision(frame);
  const kept = halfMade && halfMade.decision === now ? halfMade.pick : null;
  halfMade = null;
  return { kept, keep: (pick) => { halfMade = pick === null ? null : { decision: now, pick }; } };
}

// two taps: a pick (a die, a piece: on the board or a panel button), then where it goes
// (its targets lit on the board, tapped there: ``data-target`` of dice, piles and
// squares) or one of its panel buttons. ``picks``: {key (the board's ``data-pick``),
// label, content, choices, onto: {data-target: choice}}. The pick of this decision made
// before the frame (``carried``) is made again, where it still is one. ``stops``: a place
// to go is no Tab stop while it is not lit (Stack: a keyboard player tabs to their dice
// past no other seat's, eight seats' dice and piles), and the places lit for the pick are
// one Tab stop together (WAI-ARIA's roving tabindex, as its toolbar: Left/Up the place
// before, Right/Down the next, round from the last to the first; Home/End the first and
// the last; the one focused last is the stop, the first at each pick); ``false``: the
// board keeps its Tab stops itself (Color Stack's, one: roving()).
function pickThen(frame, half, list, picks, hint, board, stops = true) {
  let active = null;
  const row = el("div", { class: "choices", id: "picks" });
  const then = el("div", { class: "choices", id: "targets" });
  const buttons = new Map();
  // the places lit for the pick (its own dice are Tab stops of their own); rove(): which is
  // their one Tab stop
  const places = () => [...board.querySelectorAll(".lit.tap:not(.can-pick)")];
  const rove = (stop) => places().forEach((n) => n.setAttribute("tabindex", n === stop ? "0" : "-1"));
  const choose = (pick) => {
    active = pick;
    half.keep(pick.key);
    buttons.forEach((b, p) => b.classList.toggle("picked", p === pick));
    board.querySelectorAll(".picked").forEach((n) => n.classList.remove("picked"));
    board.querySelectorAll(".lit").forEach((n) => n.classList.remove("lit"));
    board.querySelectorAll(`[data-pick="${pick.key}"]`).forEach((n) => n.classList.add("picked"));
    for (const target of Object.keys(pick.onto)) {
      board.querySelectorAll(`[data-target="${target}"]`).forEach((n) => n.classList.add("lit"));
    }
    // a place to go is a live button only while lit (a pick stays one)
    board.querySelectorAll(".tap:not(.can-pick)").forEach((n) => {
      n.setAttribute("aria-disabled", String(!n.classList.contains("lit")));
      if (stops) n.setAttribute("tabindex", "-1");
    });
    if (stops) {
      const lit = places();
      rove(lit.includes(document.activeElement) ? document.activeElement : lit[0]);
    }
    then.replaceChildren(...pick.choices.map((c) => choiceButton(frame, c)));
  };
  const tapped = (node) => {
    const target = node.dataset.target;
    if (active && target && active.onto[target]) return play(frame, active.onto[target]);
    const pick = picks.find((p) => p.key === node.dataset.pick);
    if (pick) choose(pick);
  };
  const targets = new Set(picks.flatMap((p) => Object.keys(p.onto)));
  for (const node of board.querySelectorAll("[data-pick], [data-target]")) {
    const picked = picks.some((p) => p.key === node.dataset.pick);
    if (picked) node.classList.add("can-pick");
    if (picked || targets.has(node.dataset.target)) tappable(node, () => tapped(node));
    if (!picked && targets.has(node.dataset.target)) {
      node.setAttribute("aria-disabled", "true");
      if (stops) node.setAttribute("tabindex", "-1");
    }
  }
  if (stops) {
    board.addEventListener("focusin", (event) => {
      const place = event.target.closest(".lit.tap:not(.can-pick)");
      if (place) rove(place);
    });
    board.addEventListener("keydown", (event) => {
      const from = event.target.closest(".lit.tap:not(.can-pick)");
      if (!from || event.altKey || event.ctrlKey || event.metaKey) return;
      const lit = places();
      const at = lit.indexOf(from);
      const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
        Home: 0, End: lit.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      lit[(to + lit.length) % lit.length].focus();
    });
  }
  for (const pick of picks) {
    const button = el("button", { type: "button", class: "pick", "aria-label": pick.label }, pick.content);
    button.addEventListener("click", () => choose(pick));
    buttons.set(pick, button);
    row.append(button);
  }
  list.append(el("p", {}, hint), row, then);
  const again = picks.find((p) => p.key === half.kept);
  if (again) choose(again);
}

// Stack: one of your dice, then where it goes (or its reroll); a rerolled die's places at once
function stackMoves(frame, half, list, board) {
  const choices = frame.you.choices;
  const placing = choices.filter((c) => c.move[0] === "place");
  if (placing.length) {  // the die rerolled came up a face several piles show
    list.append(el("p", {}, t("web.moves.hint_place")));
    placing.forEach((c) => list.append(choiceButton(frame, c)));
    return;
  }
  const faces = [...new Set(choices.map((c) => c.move[1]))].sort();
  pickThen(frame, half, list, faces.map((face) => {
    const pic = svg("svg", { viewBox: "0 0 34 34", width: 34, height: 34 });
    pic.append(die(face, frame.you.seat, 0, 0, 34, t("web.stack.die", { face })));
    const mine = choices.filter((c) => c.move[1] === face);
    const onto = Object.fromEntries(mine.filter((c) => c.move[0] === "stack")
      .map((c) => [`${c.move[2]}:${c.move[3]}:${face}`, c]));
    return { key: `die:${face}`, label: t("web.moves.your_die", { face }), content: pic, choices: mine, onto };
  }), t("web.moves.hint_stack"), board);
}

// Color Stack's board on your turn is one Tab stop (WAI-ARIA's roving tabindex): the
// arrow keys move square by square (Home/End: the row's first and last; with Ctrl: the
// board's), each square a button (one not to be tapped now says so), and the square
// focused is the stop. It starts on the first of your pieces.
const FILES = "abcdefghi";

function roving(board) {
  const squares = new Map([...board.querySelectorAll('[data-pick^="sq:"]')]
    .map((node) => [node.dataset.pick.slice(3), node]));
  const grid = board.querySelector("svg");
  if (!grid || !squares.size) return;
  const stop = (node) => squares.forEach((n) => n.setAttribute("tabindex", n === node ? "0" : "-1"));
  for (const node of squares.values()) {
    if (node.classList.contains("tap")) continue;
    tappable(node, () => {});
    node.setAttribute("aria-disabled", "true");
  }
  stop(board.querySelector('[data-pick^="sq:"].can-pick') || squares.values().next().value);
  const rows = Math.max(...[...squares.keys()].map((name) => Number(name.slice(1))));
  grid.addEventListener("focusin", (event) => {
    const node = event.target.closest('[data-pick^="sq:"]');
    if (node) stop(node);
  });
  grid.addEventListener("keydown", (event) => {
    const from = event.target.closest('[data-pick^="sq:"]');
    if (!from) return;
    let col = FILES.indexOf(from.dataset.pick[3]), row = Number(from.dataset.pick.slice(4));
    const far = event.ctrlKey;
    if (event.key === "ArrowRight") col += 1;
    else if (event.key === "ArrowLeft") col -= 1;
    else if (event.key === "ArrowUp") row += 1;  // row 1 is drawn at the bottom
    else if (event.key === "ArrowDown") row -= 1;
    else if (event.key === "Home") [col, row] = [0, far ? rows : row];
    else if (event.key === "End") [col, row] = [FILES.length - 1, far ? 1 : row];
    else return;
    event.preventDefault();
    const to = squares.get(`${FILES[col] || ""}${row}`);
    if (to) to.focus();
  });
}

// Color Stack: one of your pieces, then a square it may go to (lit) or its new face
function colorStackMoves(frame, half, list, board) {
  const choices = frame.you.choices;
  const colours = choices.filter((c) => c.move[0] === "c");
  if (colours.length) {  // moving first, before the board is set up: your two colours
    list.append(el("p", {}, t("web.moves.hint_colours")));
    colours.forEach((c) => list.append(choiceButton(frame, c)));
    return;
  }
  const squares = [...new Set(choices.map((c) => c.move[1]))].sort();
  pickThen(frame, half, list, squares.map((square) => {
    const mine = choices.filter((c) => c.move[1] === square);
    const onto = Object.fromEntries(mine.filter((c) => c.move[0] === "m").map((c) => [`sq:${c.move[2]}`, c]));
    return { key: `sq:${square}`, label: t("web.moves.piece_on", { square }), content: square, choices: mine, onto };
  }), t("web.moves.hint_colorstack"), board, false);
  roving(board);
}

// whether every card of ``names`` is in ``cards`` (as many times as it is in ``names``)
function within(names, cards) {
  const left = [...cards];
  return names.every((n) => {
    const i = left.indexOf(n);
    if (i >= 0) left.splice(i, 1);
    return i >= 0;
  });
}

// Stack Up!: a combo built card by card from the hand; only cards that still make one of
// the plays the server lists stay enabled; the plays of exactly the picked cards appear.
// The other moves (draw, pass, a direction…) and every play stay panel buttons as well.
function stackUpMoves(frame, half, list, board, hand) {
  const choices = frame.you.choices;
  const plays = choices.filter((c) => c.move[0] === "p");
  // no play at all (the direction chosen, a draw, a pass): the hand is shown, not buttons
  // that each say they cannot be used (a Tab stop each for a keyboard player)
  const nodes = hand && plays.length ? [...hand.querySelectorAll("[data-card]")] : [];
  const combo = el("div", { class: "choices", id: "combo" });
  const names = (indices) => [...indices].map((i) => frame.you.hand[i]);
  // the cards chosen before the frame, where they still make one of the plays together
  const before = nodes.length && half.kept && plays.some((c) => within(names(half.kept), c.move[1]));
  const picked = new Set(before ? half.kept : []);
  const update = () => {
    half.keep(picked.size ? [...picked] : null);
    const now = names(picked);
    for (const node of nodes) {
      const i = Number(node.dataset.card);
      const open = picked.has(i) || plays.some((c) => within([...now, frame.you.hand[i]], c.move[1]));
      node.classList.toggle("picked", picked.has(i));
      node.classList.toggle("off", !open);
      node.setAttribute("aria-disabled", String(!open));
      node.setAttribute("aria-pressed", String(picked.has(i)));
    }
    const exact = now.length ? plays.filter((c) => c.move[1].length === now.length && within(now, c.move[1])) : [];
    combo.replaceChildren(...exact.map((c) => choiceButton(frame, c)));  // "Play red 2 and red 1"
  };
  for (const node of nodes) {
    const i = Number(node.dataset.card);
    tappable(node, () => {
      if (node.classList.contains("off") || sent) return;
      if (picked.has(i)) picked.delete(i);
      else picked.add(i);
      update();
    });
  }
  update();
  if (plays.length && nodes.length) list.append(el("p", {}, t("web.moves.hint_stackup")), combo);
  choices.forEach((c) => list.append(choiceButton(frame, c)));
}

const PICKS = { stack: stackMoves, colorstack: colorStackMoves, stackup: stackUpMoves };

// the seated player's moves on their turn (the host checks each again when it comes)
function movesPanel(frame, board, hand) {
  const choices = frame.you && frame.you.choices;
  if (!choices) {
    halfMade = null;  // not the player's decision (or not a player's page): nothing half made
    return null;
  }
  const half = carried(frame);
  const box = el("section", { class: "panel", id: "moves" }, el("h2", {}, t("web.moves.title")));
  const list = el("div", { class: "choices" });
  if (PICKS[frame.game]) PICKS[frame.game](frame, half, list, board, hand);
  else choices.forEach((c) => list.append(choiceButton(frame, c)));
  box.append(list, el("p", { class: "refusal", id: "refusal", role: "alert" }));
  return box;
}

// a refusal's words kept for the next frame's move panel (the table asked for anew)
let notice = null;

// a session that ran out (its 12 hours), or a cookie no longer valid (the server's secret
// changed): the page's words for each, on a page and in the Activity
const SESSION_ENDED = {
  session_expired: ["web.session.ended", "web.session.ended_activity"],
  session_invalid: ["web.session.invalid", "web.session.invalid_activity"],
};

function refused(code) {
  if (Object.hasOwn(SESSION_ENDED, code)) {
    sent = false;
    sessionEnded.textContent = t(SESSION_ENDED[code][activity ? 1 : 0]);
    sessionEnded.hidden = false;
    return;
  }
  const key = `web.refusal.${code}`;
  const words = t(key) === key ? t("web.refusal.other", { code }) : t(key);
  const where = document.getElementById("refusal");
  sent = false;
  if (code === "stale_panel" && online && socket.readyState === WebSocket.OPEN) {
    // the table moved on: the page may have missed its frame; it asks for the table as it
    // is now rather than wait for the next commit, and says why once it is drawn
    notice = words;
    socket.send(JSON.stringify({ type: "table" }));
  }
  if (where) {
    where.textContent = words;
    document.querySelectorAll("#moves button").forEach((b) => { b.disabled = false; });
    restore(main, focusKept());
  } else {
    say(words);
  }
}

// what the first player chooses before the first turn, by game (web.turn.choosing_*)
const SETTING_UP = { colorstack: "colours", stackup: "direction" };

// the status line says ``words``; the region announced says ``quiet`` (the words without
// the clock), when they changed
function say(words, quiet = words) {
  status.textContent = words;
  if (announced.textContent !== quiet) announced.textContent = quiet;
}

// whose turn it is (``ticking``: with its clock)
function whoseTurn(frame, ticking = true) {
  if (frame.status !== "lobby" && frame.status !== "playing" && !frame.over) return t("web.turn.closed");
  if (frame.over) return winnersText(frame.players, frame.scores ? frame.scores.winners : []);
  if (frame.status === "lobby") return t("web.turn.lobby");
  if (frame.current === null) return "";
  const name = frame.players[frame.current] ? frame.players[frame.current].name : "";
  const you = frame.you && frame.you.seat === frame.current;
  const since = ticking && frame.turn_started ? ` · ${clock(Date.now() - (ahead ?? 0) - frame.turn_started)}` : "";
  // a decision taken before the first turn (no turn of its own): what is being chosen
  const choosing = frame.setting_up && SETTING_UP[frame.game];
  if (choosing) return t(`web.turn.${you ? "you_choose" : "choosing"}_${choosing}`, { name, clock: since });
  return t(you ? "web.turn.you_to_move" : "web.turn.to_move", { name, clock: since });
}

function render(frame) {
  const kept = focusKept();  // before anything of the table is replaced
  shown = frame;
  say(whoseTurn(frame), whoseTurn(frame, false));
  // a game over, or its table closed once the game had begun: its replay
  const closed = frame.status !== "lobby" && frame.status !== "playing";
  const replayed = frame.over || (closed && frame.board !== null);
  if (frame.over || closed) ended();
  replay.hidden = !replayed;
  replay.replaceChildren(...(replayed ? [replayLink] : []));
  const board = el("div", { id: "board" });
  if (frame.board) {
    board.append(BOARDS[frame.game](frame));
  } else {
    board.append(el("p", {}, t("web.table.seated", { names: frame.players.map((p) => p.name).join(t("web.list.comma")) })));
  }
  sent = false;
  const side = el("div", {});
  const hand = frame.you && frame.you.hand ? drawHand(frame.you.hand) : null;
  const moves = movesPanel(frame, board, hand);
  if (hand) side.append(hand);  // the hand first: its cards tapped, then the play below
  if (moves) side.append(moves);
  // numbered by the real turn numbers, the newest first: the latest is the game's turn
  // count. A line that tells no turn (a decision taken before the first turn, Color
  // Stack's colours or Stack Up!'s direction where the table tells it, the bot's; a notice
  // such as a seat handed to an AI) has no number, nor has a line older than turn 1.
  const latest = frame.turn_number ?? frame.turns.length;
  const turns = el("ol", { class: "turns", reversed: "", start: String(latest) });
  let number = latest;
  [...frame.turns].reverse().forEach((line, back) => {
    const numbered = frame.numbered ? frame.numbered[frame.turns.length - 1 - back] : true;
    turns.append(numbered && number >= 1
      ? el("li", { value: String(number--) }, line) : el("li", { class: "unnumbered" }, line));
  });
  if (moves && notice) moves.querySelector("#refusal").textContent = notice;
  notice = null;
  side.append(el("section", { class: "panel", id: "recent" }, el("h2", {}, t("web.table.recent")),
    frame.turns.length ? turns : el("p", {}, t("web.table.no_turn"))));
  const scores = sheet(frame.players, frame.scores);
  if (scores) side.append(el("section", { class: "panel", id: "scores" }, el("h2", {}, t("web.sheet.title")), scores));
  view.replaceChildren(board, side);
  restore(main, kept);
  window.stackbotFrames += 1;
  window.stackbotOver = Boolean(frame.over);
  requestAnimationFrame(() => window.stackbotLatency.push(Date.now() - frame.sent_at));
}

// the server said it refuses this page's origin (until a socket opens)
let originBlocked = false;

// whether the server refuses this page's origin (``false`` when it could not be asked)
async function originRefused() {
  try {
    const answer = await fetch("/origin", { method: "POST", credentials: "same-origin" });
    return answer.ok && (await answer.json()).allowed === false;
  } catch (err) {
    return false;
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/tables/${tableId}/ws?lang=${language()}`);
  let opened = false;
  socket.onopen = () => { retry = 500; opened = true; originBlocked = false; };
  socket.onmessage = (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "table") {
      if (typeof frame.sent_at === "number") ahead = Math.min(ahead ?? Infinity, Date.now() - frame.sent_at);
      // a frame older than the one this socket drew (the table asked for overtook it): skipped
      if (online && shown && frame.version < shown.version) return;
      online = true;
      main.classList.remove("offline");
      render(frame);
    }
    else if (frame.type === "error" || frame.type === "refused") refused(frame.code || frame.why);
  };
  socket.onclose = (event) => {
    if (stopped || (shown && shown.over)) return;
    if (event.code === 1009) {  // a frame over the server's size (the page sends none): said
      notice = t("web.moves.too_long");
      const where = document.getElementById("refusal");
      if (where) where.textContent = notice;
    }
    online = false;
    main.classList.add("offline");
    disable("#moves button");
    disable("#board .tap, #hand .tap", "aria-disabled");
    say(t(originBlocked ? "web.turn.origin_refused" : "web.turn.reconnecting"));
    // a socket closed before it opened: refused by the server (its status is hidden from
    // the page), or the network? The server says whether it takes this page's origin; one
    // it refuses (a proxy that rewrites Host) is said, not "reconnecting" for ever
    if (!opened) {
      originRefused().then((blocked) => {
        originBlocked = blocked;
        if (blocked && !online && !stopped) say(t("web.turn.origin_refused"));
      });
    }
    setTimeout(() => fetch(`/tables/${tableId}`, { redirect: "manual" }).then((r) => {
      if (stopped) return;
      const gone = r.type === "opaqueredirect" || r.status === 302;
      if (gone && activity) {  // the table closed: the Activity looks for the next one
        say(t("web.turn.closed"));
        ended();
      } else if (gone) location.assign(`/games/${tableId}?lang=${language()}`);
      else connect();
    }, () => { if (!stopped) connect(); }), retry);
    retry = Math.min(retry * 2, 10000);
  };
}

const ticking = setInterval(() => { if (shown && online) say(whoseTurn(shown), whoseTurn(shown, false)); }, 1000);
connect();
