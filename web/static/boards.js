// Each game's board in SVG, from the public view the server sends (the fields of the
// table picture of the game: pictures/stack.py FieldPicture, pictures/stackup.py
// TablePicture, pictures/colorstack.py BoardPicture). Only what everyone may see is in it;
// a seated Stack Up! player's own hand comes separately ("you"). Every word is the page's
// (common.js t()). A picture of several things (a seat's dice, the piles, the stack and its
// direction, a hand, the board's squares) is a group, each thing in it an image with its
// own words: a picture that were an image would be read by its name only (an image's
// parts are not read to a screen reader).

import { chip, el, n, seatColour, svg, t } from "./common.js";

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

export function die(face, seat, x, y, size, label) {
  const g = svg("g", { transform: `translate(${x},${y})`, role: "img", "aria-label": label });
  g.append(svg("rect", { width: size, height: size, rx: size * 0.18,
    class: `s-${seatColour(seat)}` }));
  const dark = ["yellow", "white"].includes(seatColour(seat)) ? " dark" : "";
  for (const [dx, dy] of PIPS[face] || []) {
    g.append(svg("circle", { cx: size / 2 + dx * size * 0.26, cy: size / 2 + dy * size * 0.26,
      r: size * 0.09, class: `pip${dark}` }));
  }
  return g;
}

// ``doing``: the words of the current seat's tag ("to move" by default)
function seatBox(players, seat, current, lines, extra, chips = [chip(seat)], doing = null) {
  const box = el("section", { class: `seat${seat === current ? " to-move" : ""}` });
  // the chips and the name one box: a long name wraps in it, beside its chips
  const who = el("div", { class: "who" },
    el("span", { class: "named" }, ...chips, el("b", {}, players[seat].name)));
  // an AI plays the seat (added so, or its player left or let their turns run out)
  if (players[seat].ai) who.append(el("span", { class: "tag ai" }, t("web.board.ai")));
  for (const line of lines) who.append(el("span", {}, line));
  if (seat === current) who.append(el("span", { class: "tag move" }, doing || t("web.board.to_move")));
  box.append(who);
  if (extra) box.append(extra);
  return box;
}

// ---------------------------------------------------------------- Stack

// a seated player's own dice are a finger's size (44 px): they pick them by tapping; the
// dice in rows that fit a 380-px phone at their own size (6 of 44, 8 of 34)
function stackSeatDice(faces, seat, name, mine) {
  const size = mine ? 44 : 34, gap = 6;
  const columns = mine ? 6 : 8;
  const across = Math.min(columns, Math.max(1, faces.length));
  const rows = Math.max(1, Math.ceil(faces.length / columns));
  const width = faces.length ? across * (size + gap) : 120;  // room for its "no dice left"
  const height = rows * (size + gap) - gap + 4;
  const pic = svg("svg", { class: "board", viewBox: `0 0 ${width} ${height}`,
    style: `max-width: ${width}px`, role: "group",
    "aria-label": mine ? t("web.stack.your_dice") : t("web.stack.dice_of", { name }) });
  faces.forEach((f, i) => {
    const x = (i % columns) * (size + gap), y = 2 + Math.floor(i / columns) * (size + gap);
    const one = die(f, seat, x, y, size, t("web.stack.die", { face: f }));
    one.dataset.target = `${seat}:1:${f}`;  // what a move onto this single die names
    if (mine) one.dataset.pick = `die:${f}`;  // the player picks one of their dice
    pic.append(one);
  });
  if (faces.length === 0) pic.append(svg("text", { x: 0, y: 24, class: "faint" }, t("web.stack.no_dice")));
  return pic;
}

export function drawStack(view) {
  const b = view.board;
  const players = view.players;
  const wrap = el("div", { class: "seats" });
  const title = t("web.stack.round", { round: b.round }) +
    (b.target ? t("web.stack.first_to", { target: b.target }) : "") +
    (b.last_turns ? t("web.stack.last_turns") : "");
  wrap.append(el("p", { class: "status" }, title));
  b.names.forEach((_, seat) => {
    const points = b.points.length ? t("web.stack.this_round", { points: b.points[seat] }) : "";
    wrap.append(seatBox(players, seat, b.current,
      [t("web.stack.points", { points: b.totals[seat] ?? 0 }), points],
      stackSeatDice(b.singles[seat], seat, b.names[seat], Boolean(view.you && view.you.seat === seat))));
  });
  // the field: every pile, its dice bottom to top in their owners' colours
  const size = 30, gap = 10;
  const tallest = Math.max(1, ...b.piles.map((p) => p[1].length));
  const width = Math.max(1, b.piles.length) * (size + gap);
  const height = tallest * (size + 3) + 12;  // room for the last pile's edge
  // a margin round the piles, for the last pile's edge (its frame and its stroke)
  const field = svg("svg", { class: "board", viewBox: `-5 -2 ${width + 10} ${height + 7}`,
    style: `max-width: ${width * 1.5}px`, role: "group", "aria-label": t("web.stack.piles_label") });  // dice of 45 px
  b.piles.forEach(([face, owners], i) => {
    const top = owners[owners.length - 1];
    const pile = svg("g", { "data-target": `${top}:${owners.length}:${face}`, role: "group",
      "aria-label": t("web.stack.pile", { count: owners.length, face, name: b.names[top] }) });
    owners.forEach((owner, level) => {
      const y = height - 3 - (level + 1) * (size + 3);
      pile.append(die(face, owner, i * (size + gap), y, size,
        t("web.stack.pile_die", { name: b.names[owner], face, count: owners.length })));
    });
    field.append(pile);
    const last = b.last && b.last.kind === "pile" && b.last.index === i;
    if (last) {
      field.append(svg("rect", { x: i * (size + gap) - 3, y: height - owners.length * (size + 3) - 6,
        width: size + 6, height: owners.length * (size + 3) + 6, rx: 6, class: "edge" }));
    }
  });
  const piles = el("section", { class: "panel" }, el("h2", {}, t("web.stack.piles")));
  piles.append(b.piles.length ? field : el("p", { class: "status" }, t("web.stack.no_pile")));
  const captured = b.captures.map((c, seat) => c.length
    ? t("web.stack.captured_of", { name: b.names[seat],
      piles: c.map(([face, owners]) => `${face}×${owners.length}`).join(t("web.list.comma")) })
    : null)
    .filter(Boolean);
  if (captured.length) piles.append(el("p", {}, t("web.stack.captured", { list: captured.join(" · ") })));
  wrap.append(piles);
  return wrap;
}

// ---------------------------------------------------------------- Stack Up!

const SPECIAL = new Set(["Crash", "Snatch", "Freeze", "Flip", "Switch"]);

// a card's name as the page says it, drawn and read: a special card's in the page's
// words; a number card's read as its colour's word and its number ("red 7": its notation,
// R7, is what is drawn on it)
function cardWords(name) {
  if (SPECIAL.has(name)) return t(`web.card.${name}`);
  return t("web.card.number", { colour: t(`web.colour.${name[0]}`), number: name.slice(1) });
}

// about how many font sizes ``text`` takes across: a wide glyph (Japanese) about one, a
// Latin letter 0.6 of one
function ems(text) {
  return [...text].reduce((sum, c) => sum + (c.charCodeAt(0) > 0x2e7f ? 1 : 0.6), 0);
}

function card(name, x, y, w, h) {
  const special = SPECIAL.has(name);
  const colour = special ? "special" : name[0];
  const g = svg("g", { transform: `translate(${x},${y})`, role: "img", "aria-label": cardWords(name) });
  g.append(svg("rect", { width: w, height: h, rx: w * 0.12, class: `c-${colour}` }));
  const dark = colour === "Y" ? " dark" : "";
  const text = special ? cardWords(name) : name.slice(1);
  const size = special ? Math.max(11, w * 0.22) : h * 0.42;
  const across = ems(text);
  const words = { x: w / 2, y: h / 2 + (special ? 5 : h * 0.14), "text-anchor": "middle",
    "font-size": size, class: `on-card${dark}` };
  if (across * size > w - 6) {  // a long name on a small card: squeezed to fit
    Object.assign(words, { textLength: w - 6, lengthAdjust: "spacingAndGlyphs" });
  }
  g.append(svg("text", words, text));
  if (!special) {
    g.append(svg("text", { x: 6, y: 16, "font-size": 13, class: `on-card${dark}` }, name[0]));
  }
  return g;
}

// ``columns``: cards in rows of that many (a hand tapped on a phone: each at its size);
// ``gap``: between two cards (a hand's leaves room for the focus ring, which the next card
// would cover)
function cards(names, w, h, label, columns = names.length, gap = 6) {
  const across = Math.max(1, Math.min(columns, names.length));
  const rows = Math.max(1, Math.ceil(names.length / across));
  const width = across * (w + gap);
  const pic = svg("svg", { class: "board", viewBox: `0 0 ${width} ${rows * (h + gap) - gap + 2}`,
    style: `max-width: ${width}px`, role: "group", "aria-label": label });
  names.forEach((n, i) => {
    const one = card(n, (i % across) * (w + gap), 1 + Math.floor(i / across) * (h + gap), w, h);
    one.dataset.card = String(i);  // its place in the hand (a player's hand: tapped card by card)
    pic.append(one);
  });
  return pic;
}

function backs(count, label) {
  const w = 22, h = 32, step = 9;
  const width = Math.max(1, count) * step + w;
  const pic = svg("svg", { class: "board", viewBox: `0 0 ${width} ${h + 2}`,
    style: `max-width: ${width}px`, role: "img", "aria-label": label });
  for (let i = 0; i < count; i++) {
    pic.append(svg("rect", { x: i * step, y: 1, width: w, height: h, rx: 3, class: "back" }));
  }
  return pic;
}

export function drawStackUp(view, hands = null) {
  const b = view.board;
  const players = view.players;
  const wrap = el("div", { class: "seats" });
  const top = `${b.colour}${b.number}`;
  const w = 120, h = 160;
  const centre = svg("svg", { class: "board", viewBox: "0 0 340 170", style: "max-width: 420px",
    role: "group", "aria-label": t("web.stackup.stack_label", { card: cardWords(top) }) });
  centre.append(card(top, 4, 4, w, h));
  const arrow = t(b.direction === "up" ? "web.stackup.up"
    : b.direction === "down" ? "web.stackup.down" : "web.stackup.no_direction");
  // the words beside the card, each made smaller where it is longer than the room left
  // ("direction not chosen")
  const room = 340 - 140 - 4;
  const fit = (text, size) => Math.min(size, room / ems(text));
  centre.append(svg("text", { x: 140, y: 40, "font-size": fit(arrow, 22) }, arrow));
  const pile = t("web.stackup.draw_pile", { count: b.draw_pile });
  centre.append(svg("text", { x: 140, y: 76, "font-size": fit(pile, 18) }, pile));
  const turns = t("web.turn_of", { turn: b.turns_taken, limit: b.turn_limit });
  centre.append(svg("text", { x: 140, y: 108, "font-size": fit(turns, 16), class: "faint" }, turns));
  const stack = el("section", { class: "panel" }, el("h2", {}, t("web.stackup.stack")), centre);
  if (b.last_seat !== null) {
    const last = el("p", {}, t("web.stackup.last", { name: b.names[b.last_seat] }),
      b.last_note ? ` — ${b.last_note}` : "");
    stack.append(last);
    if (b.last_cards.length) stack.append(cards(b.last_cards, 42, 56, t("web.stackup.last_cards")));
  }
  wrap.append(stack);
  b.names.forEach((_, seat) => {
    const lines = [n("web.stackup.cards", b.hand_sizes[seat])];
    if (b.passes[seat]) lines.push(n("web.stackup.passes", b.passes[seat]));
    if (b.crash_on === seat) lines.push(t("web.stackup.crash_on"));
    const shown = hands && hands[seat] && hands[seat].length
      ? cards(hands[seat], 38, 52, t("web.stackup.hand_of", { name: b.names[seat] }))
      : backs(b.hand_sizes[seat], n("web.stackup.face_down", b.hand_sizes[seat], { name: b.names[seat] }));
    wrap.append(seatBox(players, seat, b.current, lines, shown));
  });
  return wrap;
}

export function drawHand(hand) {
  const box = el("section", { class: "panel", id: "hand" }, el("h2", {}, t("web.stackup.your_hand")));
  box.append(hand.length ? cards(hand, 44, 60, t("web.stackup.your_hand_label"), 6, 12)
    : el("p", {}, t("web.stackup.empty")));
  return box;
}

// ---------------------------------------------------------------- Color Stack

// the colours' CSS names (the style's --red…); their words are the page's (web.colour.*)
const COLOUR_NAMES = { R: "red", B: "blue", Y: "yellow", G: "green" };

function pieces(text) {
  return [...text.matchAll(/([RBYG])(\d+)/g)].map((m) => [m[1], Number(m[2])]);
}

// Before the first player has chosen colours no card is laid and no die placed: no grid
// (it would show a board that is not there), but what comes and when
function notLaid(view) {
  const b = view.board;
  const name = b.current === null ? "" : b.names[b.current];
  const yours = view.you && view.you.seat === b.current;
  // nobody choosing: the game ended (or its table closed) before the board was laid
  const words = b.over || b.current === null ? t("web.colorstack.never_laid")
    : t(yours ? "web.colorstack.laid_after_yours" : "web.colorstack.laid_after", { name });
  const wrap = el("div", { class: "seats" });
  wrap.append(el("section", { class: "panel", id: "not-laid" }, el("p", {}, words)));
  b.names.forEach((_, seat) => {
    wrap.append(seatBox(view.players, seat, b.current, [], null, [], t("web.board.choosing_colours")));
  });
  return wrap;
}

export function drawColorStack(view) {
  const b = view.board;
  const players = view.players;
  if (b.colours.every((c) => c.length === 0)) return notLaid(view);
  const columns = 9, cell = 46, pad = 22;
  const width = columns * cell + pad, height = b.rows * cell + pad;
  const board = svg("svg", { class: "board", viewBox: `0 0 ${width} ${height}`,
    style: "max-width: 640px", role: "group", "aria-label": t("web.colorstack.board") });
  const path = new Set(b.path);
  for (let sq = 0; sq < b.stacks.length; sq++) {
    const col = sq % columns, row = Math.floor(sq / columns);
    const x = pad + col * cell, y = (b.rows - 1 - row) * cell;
    const name = `${"abcdefghi"[col]}${row + 1}`;
    // the square and its piece: one thing to tap (a piece to pick, a square to go to)
    const square = svg("g", { "data-target": `sq:${name}`, "data-pick": `sq:${name}`,
      "aria-label": t("web.colorstack.empty", { square: name }) });
    square.append(svg("rect", { x: x + 1, y: y + 1, width: cell - 2, height: cell - 2, rx: 4,
      class: `sq${b.black[sq] ? " black" : ""}${path.has(sq) || b.set_square === sq ? " path" : ""}` }));
    board.append(square);
    const stack = pieces(b.stacks[sq]);
    if (stack.length) {
      const [colour, number] = stack[stack.length - 1];
      const dice = stack.map(([c, face]) => t("web.colorstack.die", { colour: t(`web.colour.${c}`), face }));
      const words = t("web.colorstack.stack", { square: name, dice: dice.join(t("web.list.comma")) });
      square.setAttribute("aria-label", words);
      const g = svg("g", { role: "img", "aria-label": words });
      // a stack of several dice: its piece a little smaller, towards the square's lower
      // left, and its count ("×2") in the upper right corner clear of it
      const stacked = stack.length > 1;
      const cx = x + cell / 2 - (stacked ? 4 : 0), cy = y + cell / 2 + (stacked ? 4.5 : 0);
      g.append(svg("circle", { cx, cy, r: cell * (stacked ? 0.29 : 0.38), class: `c-${colour}` }));
      g.append(svg("text", { x: cx, y: cy + (stacked ? 5.5 : 6), "text-anchor": "middle",
        "font-size": stacked ? 16 : 18, class: `on-card${colour === "Y" ? " dark" : ""}` }, number));
      if (stacked) {
        g.append(svg("text", { x: x + cell - 4, y: y + 11.5, "text-anchor": "end", "font-size": 11,
          class: "count" }, `×${stack.length}`));
      }
      square.append(g);
    }
  }
  for (let col = 0; col < columns; col++) {
    board.append(svg("text", { x: pad + col * cell + cell / 2, y: height - 5, "text-anchor": "middle",
      "font-size": 13, class: "faint" }, "abcdefghi"[col]));
  }
  for (let row = 0; row < b.rows; row++) {
    board.append(svg("text", { x: 6, y: (b.rows - 1 - row) * cell + cell / 2 + 5, "font-size": 13,
      class: "faint" }, row + 1));
  }
  const wrap = el("div", { class: "seats" });
  wrap.append(el("section", { class: "panel" }, board,
    el("p", { class: "status" }, t("web.turn_of", { turn: b.turns_taken, limit: b.turn_limit }))));
  b.names.forEach((_, seat) => {
    const letters = b.colours[seat] || [];
    const colours = letters.map((c) => t(`web.colour.${c}`)).join(t("web.list.and"));
    const chips = letters.map((c) => el("span", { class: "chip", style: `background: var(--${COLOUR_NAMES[c]})` }));
    wrap.append(seatBox(players, seat, b.current, [colours], null, chips));
  });
  return wrap;
}

export const BOARDS = { stack: drawStack, stackup: drawStackUp, colorstack: drawColorStack };
