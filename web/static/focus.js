// Keyboard focus kept across a redraw. The table page draws the whole table anew on every
// frame (another player's move, a player leaving, a reconnection): the element focused is
// replaced, and focus would fall to the page's body, a keyboard player's place lost. What
// was focused is remembered as what it is, not as where it was: its id, or its group (the
// nearest container with an id: #board, #hand, #picks, #moves…), what it names (a die's or
// a square's data-pick, a pile's data-target, a card's or a button's words) and which of
// the same it is. After the redraw, focus goes back to the same thing; where it is gone,
// to the first usable control of its group (or of the groups around it), else to the
// nearest of those containers still there, else to the table itself: never to the body.
// Focus outside the table, or on no element, is left where it is.

const CONTROLS = "a[href], button, [tabindex]";

function named(node) {
  return node.dataset.pick || node.dataset.target || node.getAttribute("aria-label")
    || node.textContent.trim();
}

function usable(node) {
  return !node.disabled && node.getAttribute("aria-disabled") !== "true"
    && node.getAttribute("tabindex") !== "-1" && node.getClientRects().length > 0;
}

// the ids of the containers of ``node`` inside ``root``, the nearest first
function groups(node, root) {
  const ids = [];
  for (let up = node.parentElement; up && up !== root; up = up.parentElement) {
    if (up.id) ids.push(up.id);
  }
  return ids;
}

function byId(root, id) {
  return root.querySelector(`#${CSS.escape(id)}`);
}

function focused(node, preventScroll) {
  if (!node.matches(CONTROLS)) node.setAttribute("tabindex", "-1");  // a container: focusable
  node.focus({ preventScroll });
  return document.activeElement === node;
}

// what is focused inside ``root``, as restore() finds it again (``null``: focus is
// elsewhere, on nothing, or on ``root`` itself, which a redraw does not replace)
export function remember(root) {
  const node = document.activeElement;
  if (!node || node === root || !root.contains(node)) return null;
  const around = groups(node, root);
  if (node.id) return { node, id: node.id, groups: around };
  const group = around.length ? byId(root, around[0]) : root;
  const name = named(node);
  const same = [...group.querySelectorAll(CONTROLS)].filter((n) => named(n) === name);
  return { node, name, nth: Math.max(0, same.indexOf(node)), groups: around };
}

// focus moved back to what ``kept`` (remember()) says, or its nearest neighbour still drawn
export function restore(root, kept) {
  if (!kept) return;
  if (kept.node.isConnected && document.activeElement === kept.node) return;  // not redrawn
  if (kept.id) {
    const again = byId(root, kept.id);
    if (again && focused(again, true)) return;
  } else {
    const group = kept.groups.length ? byId(root, kept.groups[0]) : root;
    if (group) {
      const same = [...group.querySelectorAll(CONTROLS)].filter((n) => named(n) === kept.name);
      const again = same[Math.min(kept.nth, same.length - 1)];
      if (again && focused(again, true)) return;
    }
  }
  const around = kept.groups.map((id) => byId(root, id)).filter(Boolean);
  for (const group of around) {
    const first = [...group.querySelectorAll(CONTROLS)].find(usable);
    if (first && focused(first, false)) return;
  }
  for (const group of around) {
    if (group.children.length && group.getClientRects().length && focused(group, false)) return;
  }
  focused(root, false);
}
