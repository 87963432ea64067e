/* The drawn board as the input (the players' page, cli/live/static/live.js): the due player taps on the board.
 *
 * Each legal option names what it picks by id (the API's ``legal.described[k].pick``, with its event ``type``):
 * a die to place (tap the die in the dice area: the places it may go light up; tap one), a card in a row, a
 * favor tile, a track, a map space, a voyage (one tap each). The tappable parts are buttons (role, tabindex,
 * Enter or Space, an accessible name in words: the option's own); ids only in data-attributes. The line
 * (#pick-line) says what the tap chose before it is sent. The board is drawn by cli/web/board.js (shared with
 * the replay page, which stays a picture): this file only marks what board.js drew, after every drawing.
 *
 * coimbraBoardInput(root, choose) marks root's #dice, #city, #tracks, #map and #voyages; choose(option) sends it.
 */
function coimbraBoardInput(root, choose) {
  "use strict";

  /** Where each kind of one-pick option is on the drawn board: the part, and the element's data-attribute. */
  const ONE_TAP = {
    CardBought: ["city", "data-card", "card"],
    FavorTileTaken: ["city", "data-favor", "tile"],
    TrackChosen: ["tracks", "data-track-row", "track"],
    PilgrimStepped: ["map", "data-space", "to"],
    PilgrimPlaced: ["map", "data-space", "space"],
    VoyageInvested: ["voyages", "data-voyage", "voyage"],
  };
  const PAD = 3;       // px around a tappable part's drawing
  const LEAST = 30;    // px: the least width and height a tappable part takes (a map space is drawn smaller)
  let options = [];    // the options offered on the board now
  let dice = null;     // the dice area's dice by id ({die, color, value})
  let chosenDie = "";  // the die tapped, whose places are lit
  let sent = false;    // the line says what this phone sent (kept until its next tap), not a choice under way

  const part = (name) => root.querySelector(`#${name}`);
  const line = () => document.getElementById("pick-line");
  const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);
  const words = (o) => o.about ? `${o.text} — ${o.about}` : o.text;

  /** A die of the dice area in words: "Gray die showing 4". */
  function dieWords(id) {
    const d = dice[id];
    return d ? capital(`${d.color} die showing ${d.value === null ? "no value yet" : d.value}`) : id;
  }

  function tell(text) {
    const node = line();
    if (!node) return;
    node.textContent = text;
    node.hidden = !text;
  }

  /** Offer ``described`` (the due player's options) on the board drawn from ``table``; none: nothing offered. */
  function offer(described, table) {
    options = described || [];
    dice = Object.create(null);
    ((table && table.dice_area) || []).forEach((d) => { dice[d.die] = d; });
    if (chosenDie && !options.some((o) => o.type === "DiePlaced" && o.pick.die === chosenDie)) chosenDie = "";
    mark();
    if (!options.length && !sent) tell("");
  }

  /** Forget the die tapped (a new decision is due); the line keeps what this phone sent last. */
  function reset() {
    chosenDie = "";
    if (!sent) tell("");
  }

  /** Mark again what may be tapped (board.js may have drawn parts again since), changing only the parts whose
   * marking changed: a part that stays tappable is not touched (taking its tabindex away and giving it back made the
   * browser lay the page out, once for each phone at each entry). The part a keyboard's user is on keeps the focus
   * where it is still to be tapped: a read of the game is no reason to lose one's place (a tap focuses no part:
   * ``wire``). */
  function mark() {
    const active = document.activeElement;
    const focused = active && active.closest ? active.closest(".choosable") : null;
    const die = focused && focused.isConnected ? focused.dataset.chooseDie : undefined;
    const marks = [];  // [node, name, data, chosen, wide]
    const placing = options.filter((o) => o.type === "DiePlaced");
    const byDie = Object.create(null);
    placing.forEach((o) => { (byDie[o.pick.die] = byDie[o.pick.die] || []).push(o); });
    Object.keys(byDie).forEach((die) => {
      const node = find("dice", "data-pool-die", die);
      if (node) marks.push([node, `${dieWords(die)}: ${byDie[die].length} places it may go`, { die }, die === chosenDie, false]);
    });
    (byDie[chosenDie] || []).forEach((o) => {
      const node = find("city", "data-location", o.pick.location);
      if (node) marks.push([node, words(o), { option: options.indexOf(o) }, false, true]);
    });
    options.forEach((o, k) => {
      const where = ONE_TAP[o.type];
      const node = where && find(where[0], where[1], o.pick[where[2]]);
      if (node) marks.push([node, words(o), { option: k }, false, false]);
    });
    const kept = new Set(marks.map((m) => m[0]));
    root.querySelectorAll(".choosable").forEach((node) => { if (!kept.has(node)) plain(node); });
    marks.forEach((m) => tappable(...m, boxOf(m[0])));
    root.querySelectorAll("svg[role]").forEach((svg) => {
      const role = svg.querySelector(".choosable") ? "group" : "img";  // a picture holds no buttons: a group of them does
      if (svg.getAttribute("role") !== role) svg.setAttribute("role", role);
    });
    const again = focused && focused.isConnected && focused.classList.contains("choosable") ? focused
      : die !== undefined ? root.querySelector(`#dice [data-choose-die="${CSS.escape(die)}"]`) : null;
    if (again && document.activeElement !== again) again.focus({ preventScroll: true });
  }

  /** A drawn part's box as board.js drew it (its ``data-box``): nothing is measured, so marking the board never makes
   * the browser lay the page out in the middle of drawing it. */
  function boxOf(node) {
    const [x, y, width, height] = node.dataset.box.split(" ").map(Number);
    return { x, y, width, height };
  }

  /** The drawn element of ``part`` with ``attribute`` = ``id``, as a group (a lone shape is wrapped in one, with
   * the same attribute and box, so that it can hold its lit area). */
  function find(name, attribute, id) {
    const within = part(name);
    const node = within && id !== undefined ? within.querySelector(`[${attribute}="${CSS.escape(String(id))}"]`) : null;
    if (!node || node.tagName.toLowerCase() === "g") return node;
    const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
    group.setAttribute(attribute, node.getAttribute(attribute));
    group.dataset.box = node.dataset.box;
    node.replaceWith(group);
    group.appendChild(node);
    return group;
  }

  /** Make a drawn part a button: its name in words, a lit area to tap (at least LEAST px around its drawing's
   * ``box``), what it stands for; only what differs from its marking now is written. */
  function tappable(node, name, data, chosen, wide, box) {
    const svg = node.closest("svg");
    const width = Math.max(LEAST, box.width + 2 * PAD);
    const height = Math.max(LEAST, box.height + 2 * PAD);
    const x = wide ? 0 : box.x + box.width / 2 - width / 2;
    const span = wide && svg ? svg.viewBox.baseVal.width : width;
    const hit = `<rect class="hit" x="${x}" y="${box.y + box.height / 2 - height / 2}" width="${span}" height="${height}" rx="5"></rect>`;
    const lit = node.firstElementChild && node.firstElementChild.classList.contains("hit") ? node.firstElementChild : null;
    if (!lit || lit.outerHTML !== hit) {
      if (lit) lit.remove();
      node.insertAdjacentHTML("afterbegin", hit);
    }
    node.classList.add("choosable");
    node.classList.toggle("chosen", chosen);
    write(node, { role: "button", tabindex: "0", "aria-label": name, "aria-pressed": chosen ? "true" : null,
      "data-choose-die": data.die === undefined ? null : data.die, "data-option": data.option === undefined ? null : String(data.option) });
  }

  /** Set each of ``attributes`` on ``node`` (null: none) where it differs. */
  function write(node, attributes) {
    Object.keys(attributes).forEach((a) => {
      const value = attributes[a];
      if (value === null) { if (node.hasAttribute(a)) node.removeAttribute(a); } else if (node.getAttribute(a) !== value) node.setAttribute(a, value);
    });
  }

  /** A part no longer to be tapped: a picture again. */
  function plain(node) {
    node.classList.remove("choosable", "chosen");
    write(node, { role: null, tabindex: null, "aria-label": null, "aria-pressed": null, "data-choose-die": null, "data-option": null });
    const lit = node.querySelector(":scope > rect.hit");
    if (lit) lit.remove();
  }

  /** A tap (or Enter, or Space) on the board: a die lights its places, a place or a one-pick part is sent. */
  function tapped(node, byKey) {
    if (document.body.dataset.live !== "1") {  // as the page's buttons are off while it is not up to date
      tell("Not up to date: tap again once this page has read the game.");
      return;
    }
    sent = false;
    if (node.dataset.chooseDie !== undefined) {
      chosenDie = node.dataset.chooseDie === chosenDie ? "" : node.dataset.chooseDie;
      mark();
      tell(chosenDie ? `${dieWords(chosenDie)}: tap a place for it (lit), or another die` : "");
      const lit = chosenDie && root.querySelector("#city .choosable");
      if (lit) coimbraBring(lit.closest(".panel"));  // after this phone's own tap
      if (lit && byKey) lit.focus({ preventScroll: true });
      return;
    }
    const o = options[Number(node.dataset.option)];
    if (!o) return;
    sent = true;
    tell(`Sending: ${words(o)}`);
    Promise.resolve(choose(o)).then((stored) => { tell(stored ? `Done: ${o.text}` : ""); });
  }

  function wire() {
    const table = root.querySelector("#table") || root;
    // A finger (or a mouse) taps a part without focusing it: focus is a keyboard's place, and a focused part drawn
    // anew at the next entry made the browser lay the page out to move the focus away.
    table.addEventListener("mousedown", (e) => { if (e.target.closest && e.target.closest(".choosable")) e.preventDefault(); });
    table.addEventListener("click", (e) => {
      const node = e.target.closest && e.target.closest(".choosable");
      if (node) tapped(node, false);
    });
    table.addEventListener("keydown", (e) => {
      const node = e.target.closest && e.target.closest(".choosable");
      if (node && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); tapped(node, true); }
    });
  }

  wire();
  return { offer, mark, reset, dieWords, tell, first: () => root.querySelector("#table .choosable") };
}
